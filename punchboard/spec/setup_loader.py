"""setup.yaml → validated :class:`~punchboard.spec.setup_model.Setup`. All setup input checking happens here."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from punchboard.incremental import validated
from punchboard.plumbing.errors import Problem, SpecError

from . import expressions, place_check, schema_check
from .model import Component, frozen_map
from .playout_loader import read_playout, read_total
from .setup_model import (
    BOX,
    CHOICE_LIMIT,
    COUNT_VARIABLES,
    REMOVED,
    STEP_KINDS,
    Choice,
    Consumption,
    Count,
    Event,
    EventTerm,
    Expectation,
    RuleNumber,
    Setup,
    ShuffleIn,
    Step,
    Table,
    Variant,
    ZoneLimit,
)
from .yamlsource import Document, PathKey, load_yaml

PIECE_NAMES = ("name", "component", "copy")


def _schema_problems(doc: Document) -> list[Problem]:
    """Schema errors, with each step checked against its own kind so messages stay specific."""
    entry = validated.document_key(doc.path, doc.data, doc.text_digest, "setup")
    if schema_check.passes_unchecked(entry, "setup", None, doc.data):
        return []

    problems: list[Problem] = []
    for error in schema_check.validator("setup").iter_errors(doc.data):
        path = tuple(error.absolute_path)
        if error.validator == "oneOf" and error.schema.get("oneOf") and "step_take" in str(error.schema):
            problems.extend(_step_problems(doc, path, error.instance))
        elif error.validator == "oneOf" and error.context:
            problems.extend(schema_check.describe(_best(error), doc, ()))
        elif error.validator not in ("if", "allOf"):
            problems.extend(schema_check.describe(error, doc, ()))
    if not problems:
        validated.remember_valid(entry)
    return problems


def _best(error: Any) -> Any:
    """The error of a ``oneOf`` a designer can act on. For a mapping (``{choose: ...}``, a ``by_players``
    table) it is the deepest error inside the branches written for mappings, not "must be a whole number"."""
    from jsonschema.exceptions import best_match

    while error.validator == "oneOf" and error.context:
        if not isinstance(error.instance, dict):
            return best_match(error.context)
        mapped = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        if not mapped:
            return best_match(error.context)
        deepest = max(len(e.relative_path) for e in mapped)
        error = best_match([e for e in mapped if len(e.relative_path) == deepest])
    return error


def _step_problems(doc: Document, path: PathKey, step: Any) -> list[Problem]:
    if not isinstance(step, dict):
        return [doc.problem(path, f"a step must be a mapping with one of: {', '.join(STEP_KINDS)}")]
    kinds = [k for k in step if k in STEP_KINDS]
    if len(kinds) != 1:
        found = ", ".join(kinds) if kinds else "none"
        unknown = [k for k in step if k not in STEP_KINDS and k not in ("say", "when")]
        hint = schema_check.suggest(unknown[0], list(STEP_KINDS)) if unknown else ""
        extra = f"; unknown key '{unknown[0]}'{hint}" if unknown else ""
        return [doc.problem(path, f"a step needs exactly one kind ({', '.join(STEP_KINDS)}), found {found}{extra}")]

    sub = schema_check.validator("setup", f"step_{kinds[0]}")
    problems: list[Problem] = []
    for error in sub.iter_errors(step):
        if error.validator == "oneOf" and error.context:
            error = _best(error)
        problems.extend(_misplaced_step_keys(doc, path, kinds[0], error) or schema_check.describe(error, doc, path))
    return problems


STEP_KEYS = ("say", "when")  # keys of the step itself, beside its kind key


def _misplaced_step_keys(doc: Document, path: PathKey, kind: str, error: Any) -> list[Problem]:
    """``when:`` or ``say:`` written inside ``remove: {…}``: they belong on the step, not among the kind's
    options (a suggestion such as 'where' would change what the step means)."""
    body = error.instance
    if error.validator != "additionalProperties" or tuple(error.absolute_path) != (kind,) or not isinstance(body, dict):
        return []
    misplaced = [key for key in body if key in STEP_KEYS]
    if not misplaced:
        return []
    problems = []
    for key in misplaced:
        value = f'"{body[key]}"' if isinstance(body[key], str) else "..."
        problems.append(doc.problem(path + (kind, key), f"'{key}' belongs on the step, not inside '{kind}': move it "
                                                         f"out of {kind}: {{…}} to sit beside it, as in "
                                                         f"{{{kind}: {{…}}, {key}: {value}}}", key=True))
    others = dict(body)
    for key in misplaced:
        del others[key]
    allowed = error.schema.get("properties", {})
    if any(key not in allowed for key in others):  # other unknown keys get the usual message
        error.instance = others
        problems.extend(schema_check.describe(error, doc, path))
    return problems


def _value(count: Count, env: dict[str, Any]) -> Any:
    """A count's value in ``env``, or None when the rulebook leaves it open there or it cannot be computed."""
    if count.by_players is not None:
        if env["players"] not in count.by_players:
            return None
        value = count.by_players[env["players"]]
    else:
        value = count.value
    if isinstance(value, str):
        if not expressions.names(value) <= set(env):
            return None
        try:
            return expressions.evaluate(value, env)
        except (expressions.ExpressionError, ArithmeticError, TypeError, ValueError):
            return None
    return value


def choice_label(path: PathKey) -> str:
    """How a report names a count with choices: a let: name, or where it is ('step 3 count', 'royal step 1 count')."""
    parts = list(path[2:]) if len(path) > 2 and path[0] == "variants" else list(path)
    if len(parts) == 2 and parts[0] == "let":
        return str(parts[1])
    words: list[str] = []
    singular = {"steps": "step", "expect": "expect", "supply": "supply", "tables": "table"}
    index = 0
    while index < len(parts):
        part = parts[index]
        if part in singular and index + 1 < len(parts) and isinstance(number := parts[index + 1], int):
            words.append(f"{singular[part]} {number + 1}")
            index += 2
            if part == "steps" and index < len(parts) and parts[index] in STEP_KINDS:
                index += 1  # the step's kind key
            continue
        words.append(str(part))
        index += 1
    return " ".join(words)


def _whole_hint(text: str) -> str:
    if "/" in text and "//" not in text:
        return f"{text.replace('/', '//')} (rounds down) or ceil({text}) (rounds up)"
    return f"floor({text}) (rounds down) or ceil({text}) (rounds up)"


def _let_choices(players: tuple[int, ...], let: dict[str, Count | None]) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every combination of the let: values chosen there (one empty one without)."""
    out: list[tuple[int, dict[str, Any]]] = []
    for n in players:
        chosen = [(name, c.choices[n].values) for name, c in let.items() if c is not None and n in c.choices]
        for values in itertools.product(*(v for _, v in chosen)):
            out.append((n, dict(zip((name for name, _ in chosen), values, strict=True))))
    return out


class _Builder:
    def __init__(self, doc: Document, components: Sequence[Component], players: tuple[int, int]):
        self.doc = doc
        self.components = {c.id: c for c in components}
        self.fields = set(PIECE_NAMES)
        for component in components:
            self.fields.update(component.fields)
            for piece in component.pieces:
                self.fields.update(piece.fields)
        self.players = players
        self.problems: list[Problem] = []
        self.let_names: set[str] = set()
        self.gaps: list[str] = []
        self.covered: tuple[int, ...] = ()  # the player counts of the variant being read
        self.number_names: set[str] = set()
        self.numbers: tuple[RuleNumber, ...] = ()
        self.variant_id = ""
        self.collecting: list[tuple[PathKey, Count, str]] | None = None  # counts to evaluate (check_counts)
        self.table_name = ""  # the table whose steps are being read ('' for the variant's own)
        self.filled_zones: set[str] = set()  # every zone any variant's setup fills (numbers: sum: zone)
        self.choice_counts: list[tuple[PathKey, Count]] | None = None  # the variant's counts with choices
        self.places: list[tuple[Any, ...]] | None = None  # the variant's place steps from the box (place_check)

    def source(self, path: PathKey) -> str:
        line, col = self.doc.where(path)
        return f"{self.doc.name}:{line}:{col}"

    def error(self, path: PathKey, message: str) -> None:
        self.problems.append(self.doc.problem(path, message))

    # ------------------------------------------------------------ expressions

    def expression(self, path: PathKey, text: str, *, condition: bool) -> str | None:
        try:
            expressions.parse(text)
            used = expressions.names(text)
        except expressions.ExpressionError as exc:
            self.error(path, f"{path[-1]}: {exc}")
            return None
        known = set(COUNT_VARIABLES) | self.let_names | self.number_names
        if condition:
            known |= self.fields
        unknown = sorted(used - known)
        if unknown:
            hint = schema_check.suggest(unknown[0], sorted(known))
            self.error(path, f"{path[-1]}: unknown name '{unknown[0]}'{hint}; known: {', '.join(sorted(known))}")
            return None
        return text

    def condition_of_step(self, path: PathKey, text: str) -> None:
        """``when:`` decides whether a whole step runs: it sees the player count, table, let and numbers, no piece."""
        if self.expression(path, text, condition=True) is None:
            return
        known = set(COUNT_VARIABLES) | self.let_names | self.number_names
        fields = sorted(expressions.names(text) - known)
        if fields:
            self.error(path, f"when: '{fields[0]}' is a field of the pieces, but when: decides whether the whole step "
                             f"runs and sees no piece (it would always be false); to choose pieces by it write "
                             f"where: \"{text}\" in the step; when: may use {', '.join(sorted(known))}")

    def count(self, path: PathKey, raw: Any, *, let: bool = False) -> Count | None:
        if raw is None:
            return None
        source = self.source(path)
        if isinstance(raw, bool):
            self.error(path, f"{path[-1]} must be a whole number, an expression or a by_players table")
            return None
        if isinstance(raw, int):
            return self.pending(path, Count(value=raw, source=source))
        if isinstance(raw, str):
            return self.pending(path, Count(value=self.expression(path, raw, condition=False) or "0", source=source))
        if isinstance(raw, list):
            return Count(value=tuple(raw), source=source)
        label = choice_label(path)
        if "choose" in raw:  # the players choose: every value, at every player count
            choice = self.choice(path + ("choose",), raw["choose"], raw.get("why", ""), let=let, is_open=False)
            choices = {n: choice for n in self.covered} if choice is not None else {}
            return self.note_choices(path, Count(source=source, choices=frozen_map(choices), label=label))
        table: dict[int, Any] = {}
        choices = {}
        for key, value in raw["by_players"].items():
            if isinstance(value, dict):
                choice = self.choice(path + ("by_players", key, "choose"), value["choose"], value.get("why", ""),
                                     let=let, is_open=False)
                if choice is not None:
                    choices[int(key)] = choice
                continue
            if isinstance(value, str):
                self.expression(path + ("by_players", key), value, condition=False)
            table[int(key)] = tuple(value) if isinstance(value, list) else value
        chosen = set(choices)  # by_players entries the players choose
        raw_open = raw.get("open") or {}
        if isinstance(raw_open, str):
            missing = [n for n in self.covered if n not in table] or [min(self.covered, default=1)]
            example = ", ".join(f"{n}: \"{raw_open}\"" for n in missing[:2])
            self.error(path + ("open",), f"open: must name the player counts it explains, so that a count added later "
                                         f"is not explained by it silently; write open: {{{example}}}")
            raw_open = {}
        reasons: dict[int, str] = {}
        for key, why in raw_open.items():
            if isinstance(why, dict):  # the values the rulebook allows there
                choice = self.choice(path + ("open", key, "choices"), why["choices"], why["why"], let=let, is_open=True)
                if choice is not None:
                    choices[int(key)] = choice
                why = why["why"]
            reasons[int(key)] = why
        for key in sorted(set(reasons) & (set(table) | chosen)):
            self.error(path + ("open", str(key)), f"open names {key} players, but the table gives a value for {key}; "
                                                  "open: explains only the counts the table leaves out")
        missing = [n for n in self.covered if n not in table and n not in reasons and n not in choices]
        if missing:
            listed = ", ".join(str(n) for n in missing)
            example = ", ".join(f'{n}: "why the rulebook gives no number"' for n in missing[:2])
            self.gaps.append(f"{source}: count table has no entry for {listed} player{'s' if missing != [1] else ''}, "
                             f"which variant '{self.variant_id}' covers; the verifier reports it as left open. "
                             f"Give the number, or say why under open: {{{example}}}")
        count = Count(by_players=frozen_map(table), open=frozen_map(reasons), source=source,
                      choices=frozen_map(choices), label=label)
        return self.note_choices(path, self.pending(path, count))

    def choice(self, path: PathKey, values: Any, why: str, *, let: bool, is_open: bool) -> Choice | None:
        """A list of values a count may take: whole numbers of 0 or more for a count, numbers or text for let:."""
        key = "choices" if is_open else "choose"
        example = "choices: [3, 4, 5], why: \"the rulebook gives no number\"" if is_open else "choose: [3, 4, 5]"
        if not isinstance(values, list) or not values:
            self.error(path, f"{key}: lists no value; list every value {'the rulebook allows' if is_open else 'the players may choose'}"
                             f", e.g. {example}")
            return None
        if "playout" in path:
            self.error(path, f"{key}: is not supported in a playout yet (a playout plays one model); give one value")
            return None
        good = True
        for index, value in enumerate(values):
            at = path + (index,)
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                self.error(at, f"{key}: value {value!r} is not a {'number or text' if let else 'whole number'}")
                good = False
            elif let:
                continue
            elif isinstance(value, str):
                self.error(at, f"{key}: value {value!r} is text, but a count's values are whole numbers; to choose "
                               f"among expressions or names, define a let: value with choose: and use its name")
                good = False
            elif isinstance(value, float) and not value.is_integer():
                self.error(at, f"{key}: value {value:g} is not a whole number: a count must be a whole number")
                good = False
            elif value < 0:
                self.error(at, f"{key}: value {value:g} is below 0: a count must be 0 or more")
                good = False
            elif isinstance(value, float):
                self.error(at, f"{key}: value {value!r} is written as a decimal; write {int(value)}")
                good = False
        seen: set[Any] = set()
        for index, value in enumerate(values):
            if not isinstance(value, int | float | str):
                continue
            if value in seen:
                self.error(path + (index,), f"{key}: lists {value!r} twice; list each value once")
                good = False
            seen.add(value)
        if not good:
            return None
        return Choice(tuple(values), why, is_open, tuple(self.source(path + (i,)) for i in range(len(values))))

    def note_choices(self, path: PathKey, count: Count) -> Count:
        if count.choices and self.choice_counts is not None:
            self.choice_counts.append((path, count))
        return count

    def check_choices(self, path: PathKey, players: tuple[int, ...]) -> None:
        """The verifier runs a cell once for every combination of choices: at most CHOICE_LIMIT of them."""
        for n in players:
            active = [(p, c) for p, c in self.choice_counts or [] if n in c.choices]
            total = 1
            for _, count in active:
                total *= len(count.choices[n].values)
            if total > CHOICE_LIMIT:
                sizes = " × ".join(f"{len(c.choices[n].values)} ({c.label})" for _, c in active)
                self.error(active[0][0], f"at {n} players the choices make {total} combinations ({sizes}); the "
                                         f"verifier runs the setup once for each, at most {CHOICE_LIMIT}: list fewer values")
                return

    def pending(self, path: PathKey, count: Count) -> Count:
        """A count to evaluate at every player count the variant covers, once its let: values are known."""
        if self.collecting is not None:
            self.collecting.append((path, count, self.table_name))
        return count

    def check_counts(self, players: tuple[int, ...], let: dict[str, Count | None], tables: list[Table]) -> None:
        """Every count, at every player count: a count is a whole number, 0 or more. The verifier trusts it."""
        numbers: dict[str, Any] = {}
        for number in self.numbers:
            numbers[number.name] = None if number.name in numbers and numbers[number.name] != number.value else number.value
        reported: set[PathKey] = set()
        for n, chosen in _let_choices(players, let):
            env: dict[str, Any] = {"players": n, "table_players": n, "table": "", "table_index": 0}
            env.update({k: v for k, v in numbers.items() if v is not None})
            for name, count in let.items():
                value = chosen[name] if name in chosen else _value(count, env) if count is not None else None
                if value is not None:
                    env[name] = value
            at = f"{n} players" + "".join(f", {k} = {v!r}" for k, v in chosen.items())
            sizes: dict[str, dict[str, Any]] = {"": env}
            for index, table in enumerate(tables):
                size = _value(table.players, env)
                if isinstance(size, int) and not isinstance(size, bool):
                    sizes[table.name] = {**env, "table": table.name, "table_index": index, "table_players": size}
            for path, count, table_name in self.collecting or []:
                if path in reported or table_name not in sizes:
                    continue
                value = _value(count, sizes[table_name])
                if value is None or isinstance(value, bool) or not isinstance(value, int | float):
                    continue
                text = count.value if isinstance(count.value, str) else count.describe()
                if isinstance(value, float) and not value.is_integer():
                    reported.add(path)
                    self.error(path, f"{path[-1]} {text} is {value:g} at {at}: a count must be a whole number; "
                                     f"write {_whole_hint(text)}")
                elif value < 0:
                    reported.add(path)
                    self.error(path, f"{path[-1]} {text} is {value:g} at {at}: a count must be 0 or more "
                                     f"(a negative count would move all but {-int(value)} pieces); "
                                     f"write max(0, {text}) if none is meant")
            self.check_places(at, sizes, reported)

    def check_places(self, at: str, envs: dict[str, dict[str, Any]], reported: set[PathKey]) -> None:
        """A place from the box must say which pieces go where (:mod:`.place_check`)."""
        for path, table_name, when, components, where, each_count, into, distinct in self.places or []:
            if path in reported or table_name not in envs or each_count is None:
                continue
            env = envs[table_name]
            if when is not None and not expressions.names(when) <= set(env):
                continue
            if when is not None and not expressions.evaluate(when, env, lenient=True):
                continue
            each = _value(each_count, env)
            if not isinstance(each, int) or isinstance(each, bool):
                continue
            try:
                chosen = place_check.pieces(list(self.components.values()), components, where, env)
            except (expressions.ExpressionError, ArithmeticError, TypeError, ValueError):
                continue
            problem = place_check.ambiguity(chosen, each, into, distinct, at)
            if problem is not None:
                reported.add(path)
                self.error(path, problem)

    # ------------------------------------------------------------ zones

    def check_read(self, path: PathKey, zone: str, known: set[str], what: str = "zone") -> None:
        if zone not in known:
            hint = schema_check.suggest(zone, sorted(known))
            self.error(
                path,
                f"{what} '{zone}' is empty here: no earlier step puts anything in it{hint}; "
                f"zones so far: {', '.join(sorted(known))}",
            )

    def check_field(self, path: PathKey, name: str | None) -> None:
        if name is not None and name not in self.fields:
            hint = schema_check.suggest(name, sorted(self.fields))
            self.error(path, f"unknown field '{name}'{hint}; no component has it")

    # ------------------------------------------------------------ steps

    def steps(self, path: PathKey, raw_steps: list[dict[str, Any]], known: set[str], per_player: set[str]) -> tuple[Step, ...]:
        steps = []
        for index, raw in enumerate(raw_steps):
            step = self.step(path + (index,), index + 1, raw, known, per_player)
            if step is not None:
                steps.append(step)
        return tuple(steps)

    def step(self, path: PathKey, number: int, raw: dict[str, Any], known: set[str], per_player: set[str]) -> Step | None:
        """One step, checked against the zones written before it (``known``; ``per_player``: those each player
        has), which it adds to."""
        kind = next(k for k in raw if k in STEP_KINDS)
        body = raw[kind]
        at = path + (kind,)
        when = raw.get("when")
        if when is not None:
            self.condition_of_step(path + ("when",), when)
        where = body.get("where")
        if where is not None:
            self.expression(at + ("where",), where, condition=True)
        components = self.step_components(at, body.get("component"))
        options = self.source_options(at, kind, body, known, per_player)
        each_player = options["each_player"]
        if kind in ("take", "give", "deal", "draw_keep"):
            options["to"] = body["to"]
        if kind == "take":
            options.update(count=self.count(at + ("count",), body.get("count")), pick=body.get("pick", "first"))
        elif kind == "remove":
            options.update(count=self.count(at + ("count",), body.get("count")), face=body.get("face", ""))
        if kind in ("take", "remove") and "match" in body:
            options.update(self.match_options(at, body["match"], each_player, known, per_player))
        elif kind == "deal":
            options.update(self.deal_options(at, body))
        elif kind == "give":
            options.update(self.give_options(at, body, known, per_player))
        elif kind == "place":
            self.check_field(at + ("distinct",), body.get("distinct"))
            options.update(into=tuple(body["into"]), each=self.count(at + ("each",), body["each"]),
                           distinct_field=body.get("distinct"))
            if body.get("from", BOX) == BOX and self.places is not None:  # judged at every player count (check_counts)
                self.places.append((at, self.table_name, when, components, where, options["each"],
                                    options["into"], options["distinct_field"]))
        elif kind == "split":
            options.update(self.split_options(at, body, known, per_player))
        elif kind == "draw_keep":
            options.update(draw=self.count(at + ("draw",), body["draw"]), keep=self.count(at + ("keep",), body["keep"]))
            if isinstance(body["draw"], int) and isinstance(body["keep"], int) and body["keep"] > body["draw"]:
                self.error(at + ("keep",), f"keep {body['keep']} is more than draw {body['draw']}")
        self.step_writes(at, kind, body, options, known, per_player)
        return Step(kind=kind, number=number, say=raw.get("say", ""), source=self.source(path), when=when,
                    components=components, where=where, **options)

    def step_components(self, at: PathKey, component: str | list[str] | None) -> tuple[str, ...]:
        """A step's ``component:`` (one id or a list) as a tuple, each id checked."""
        components = tuple([component] if isinstance(component, str) else component or [])
        for i, cid in enumerate(components):
            if cid not in self.components:
                hint = schema_check.suggest(cid, sorted(self.components))
                self.error(at + ("component",) + ((i,) if isinstance(component, list) else ()),
                           f"unknown component '{cid}'{hint}; expected one of {', '.join(sorted(self.components))}")
        return components

    def source_options(self, at: PathKey, kind: str, body: dict[str, Any], known: set[str],
                       per_player: set[str]) -> dict[str, Any]:
        """The zone a step reads (``from_zone``; a seat's ``seats`` and ``by``) and ``each_player``, checked: a
        shared zone cannot be taken from each player's, nor one each player has pooled."""
        options: dict[str, Any] = {}
        if kind == "shuffle":
            self.check_read(at + ("zone",), body["zone"], known)
            options["from_zone"] = body["zone"]
        elif kind == "seat":
            self.check_read(at + ("seats",), body["seats"], known)
            self.check_field(at + ("by",), body.get("by"))
            options.update(seats=body["seats"], by=body.get("by"), from_zone=body["seats"])
        else:
            source_zone = body.get("from", BOX)
            self.check_read(at + ("from",), source_zone, known)
            options["from_zone"] = source_zone
        source_read = options.get("from_zone")
        each_player = bool(body.get("each_player"))
        if kind in ("take", "remove") and each_player and source_read not in per_player:
            self.error(at + ("each_player",), f"each_player: true takes from a zone each player has, but "
                                              f"'{source_read}' is one shared zone")
        elif kind in ("take", "remove", "deal", "give", "place", "draw_keep", "split") and source_read in per_player and not each_player:
            if kind in ("take", "remove"):
                how = (f"write each_player: true to {kind} from each player's own '{source_read}' "
                       "(count is then per player" + (", into each player's own 'to')" if kind == "take" else ")"))
            else:
                how = f"take from each player's own '{source_read}' first (take: {{from: {source_read}, each_player: true, ...}})"
            self.error(at + ("from",), f"'{source_read}' is a zone each player has: a {kind} from it would pool every "
                                       f"player's pieces; {how}")
        options["each_player"] = each_player
        return options

    def deal_options(self, at: PathKey, body: dict[str, Any]) -> dict[str, Any]:
        """``deal: {count | evenly, extra, remainder}``."""
        if body.get("evenly") and "count" in body:
            self.error(at, "deal takes either count (each) or evenly: true, not both")
        if not body.get("evenly") and "count" not in body:
            self.error(at, "deal needs count (cards to each player) or evenly: true")
        if "remainder" in body and not body.get("evenly"):
            self.error(at + ("remainder",), "remainder only applies to evenly: true")
        return dict(count=self.count(at + ("count",), body.get("count")), evenly=bool(body.get("evenly")),
                    extra=tuple(body.get("extra", [])), remainder=body.get("remainder"))

    def give_options(self, at: PathKey, body: dict[str, Any], known: set[str], per_player: set[str]) -> dict[str, Any]:
        """``give: {count, same, distinct, match: {field, zone}}``."""
        match = body.get("match")
        if match is not None:
            self.check_field(at + ("match", "field"), match["field"])
            self.check_read(at + ("match", "zone"), match["zone"], known)
            if match["zone"] not in per_player:
                self.error(at + ("match", "zone"), f"match zone '{match['zone']}' is not a zone each player has")
        self.check_field(at + ("same",), body.get("same"))
        if body.get("distinct") and not body.get("same"):
            self.error(at + ("distinct",), "distinct: true needs same: FIELD (the value no two players share)")
        return dict(count=self.count(at + ("count",), body["count"]), same=body.get("same"),
                    distinct=bool(body.get("distinct")),
                    match_field=match["field"] if match else None, match_zone=match["zone"] if match else None)

    def step_writes(self, at: PathKey, kind: str, body: dict[str, Any], options: dict[str, Any], known: set[str],
                    per_player: set[str]) -> None:
        """Check the zones a step writes and add them to ``known`` (and ``per_player``, those each player has)."""
        writes: list[str] = [options["to"]] if options.get("to") else []
        writes += list(options.get("into", ())) + list(options.get("extra", ()))
        if options.get("remainder"):
            writes.append(options["remainder"])
        self.check_writes(at, kind, body, options["each_player"], known, per_player)
        if kind == "remove":
            writes.append(REMOVED)
        known.update(writes)
        if kind in ("deal", "give", "draw_keep") or (kind == "take" and options["each_player"]):
            per_player.add(body["to"])

    def split_options(self, at: PathKey, body: dict[str, Any], known: set[str], per_player: set[str]) -> dict[str, Any]:
        """``split: {from, piles, to, shuffle_in: {from, component, where, each}}``."""
        if body["piles"] == 0:
            self.error(at + ("piles",), "piles: 0 splits the zone into no pile; a split needs 1 or more piles")
        options: dict[str, Any] = {"piles": self.count(at + ("piles",), body["piles"]), "to": body.get("to", body["from"])}
        raw = body.get("shuffle_in")
        if raw is None:
            return options
        path = at + ("shuffle_in",)
        zone = raw.get("from", BOX)
        self.check_read(path + ("from",), zone, known)
        if zone in per_player:
            self.error(path + ("from",), f"'{zone}' is a zone each player has: pieces shuffled into shared piles come "
                                         f"from one shared zone; take them from each player's own '{zone}' first")
        component = raw.get("component")
        components = tuple([component] if isinstance(component, str) else component or [])
        for i, cid in enumerate(components):
            if cid not in self.components:
                hint = schema_check.suggest(cid, sorted(self.components))
                self.error(path + ("component",) + ((i,) if isinstance(component, list) else ()),
                           f"unknown component '{cid}'{hint}; expected one of {', '.join(sorted(self.components))}")
        where = raw.get("where")
        if where is not None:
            self.expression(path + ("where",), where, condition=True)
        each = self.count(path + ("each",), raw.get("each", 1)) or Count(value=1)
        options["shuffle_in"] = ShuffleIn(zone, each, components, where)
        return options

    def match_options(self, at: PathKey, match: dict[str, Any], each_player: bool, known: set[str],
                      per_player: set[str]) -> dict[str, Any]:
        """``match: {field, zone, zone_field}`` on a take or remove: the pieces whose field equals the zone_field of
        the pieces in a shared zone an earlier step filled."""
        path = at + ("match",)
        self.check_field(path + ("field",), match["field"])
        self.check_field(path + ("zone_field",), match.get("zone_field"))
        self.check_read(path + ("zone",), match["zone"], known)
        if match["zone"] in per_player:
            self.error(path + ("zone",), f"match zone '{match['zone']}' is a zone each player has: a shared step "
                                         f"matches one shared zone (to match each player's own, use give: with match:)")
        if each_player:
            self.error(path, "match: chooses by one shared zone; it cannot be combined with each_player: true")
        return {"match_field": match["field"], "match_zone": match["zone"],
                "match_zone_field": match.get("zone_field", match["field"])}

    def check_writes(self, at: PathKey, kind: str, body: dict[str, Any], each_player: bool, known: set[str],
                     per_player: set[str]) -> None:
        """A zone is either one shared pile or one zone per player, never both: a write that mixes them would
        hide pieces in a zone no report reads."""
        per_player_step = kind in ("deal", "give", "draw_keep") or (kind == "take" and each_player)
        targets: list[tuple[PathKey, str]] = []
        if per_player_step:
            targets.append((at + ("to",), body["to"]))
        elif kind == "take":
            targets.append((at + ("to",), body["to"]))
        elif kind == "split" and "to" in body:
            targets.append((at + ("to",), body["to"]))
        for key in ("into", "extra"):
            for j, zone in enumerate(body.get(key, [])):
                targets.append((at + (key, j), zone))
        if body.get("remainder"):
            targets.append((at + ("remainder",), body["remainder"]))
        for n, (path, zone) in enumerate(targets):
            mine = per_player_step and n == 0
            if not mine and zone in per_player:
                self.error(path, f"'{zone}' is a zone each player has: a {kind} into it would put the pieces in one "
                                 f"shared '{zone}' that no player holds; to give each player pieces write "
                                 f"give: {{..., to: {zone}, count: N}}, or take from each player's own zone with "
                                 f"each_player: true")
            elif mine and zone in known and zone not in per_player:
                self.error(path, f"'{zone}' is one shared zone an earlier step filled: a {kind} into it would make it a "
                                 f"zone each player has and hide what it held; give each player's pieces a zone of "
                                 f"their own (to: {zone}_each, or a name of its own)")

    def event_terms(self, at: PathKey, spec: dict[str, Any]) -> tuple[EventTerm, ...]:
        """An event counts the pieces matching where:, or is a union of counts (any_of:), or counts the most
        pieces of one kind (of_a_kind: FIELD, among those matching where: if given)."""
        any_of, where, kind = spec.get("any_of"), spec.get("where"), spec.get("of_a_kind")
        if where is not None:
            self.expression(at + ("where",), where, condition=True)
        if kind is not None:
            self.check_field(at + ("of_a_kind",), kind)
        if any_of is None:
            if where is None and kind is None:
                self.error(at, "an event needs where: (the pieces it counts), any_of: (a union of counts, each "
                               "with its where:, min: and max:) or of_a_kind: FIELD")
            return ()
        for key, why in (("where", "each term of any_of: has its own where:; move it into the terms"),
                         ("min", "each term of any_of: has its own min: and max:; move them into the terms"),
                         ("max", "each term of any_of: has its own min: and max:; move them into the terms"),
                         ("of_a_kind", "of_a_kind: counts one kind, any_of: a union of counts; write two events")):
            if key in spec:
                self.error(at + (key,), f"{key}: beside any_of: — {why}")
        terms = []
        for j, term in enumerate(any_of):
            self.expression(at + ("any_of", j, "where"), term["where"], condition=True)
            low, high = term.get("min", 0 if "max" in term else 1), term.get("max")
            if high is not None and low > high:
                self.error(at + ("any_of", j), f"any_of term min {low} is more than max {high}")
            terms.append(EventTerm(term["where"], low, high))
        return tuple(terms)

    # ------------------------------------------------------------ the rest

    def read_numbers(self, raw: list[dict[str, Any]]) -> None:
        numbers = []
        for index, spec in enumerate(raw):
            at = ("numbers", index)
            if spec["name"] in COUNT_VARIABLES:
                self.error(at + ("name",), f"'{spec['name']}' is a built-in name; choose another")
                continue
            if spec["name"] in self.fields:
                self.error(at + ("name",), f"'{spec['name']}' is a field of the components; choose another name")
                continue
            total = read_total(self, at + ("sum",), spec["sum"]) if "sum" in spec else None  # playouts/derived block
            quotes = {key.partition("@")[2]: text for key, text in spec.items() if key.startswith("quote@")}
            numbers.append(RuleNumber(spec["name"], spec["value"], spec.get("quote", ""), self.source(at),
                                      spec.get("where", ""), total, frozen_map(quotes)))
            self.number_names.add(spec["name"])
        self.numbers = tuple(numbers)

    def zones(self, path: PathKey, raw: dict[str, Any]) -> dict[str, ZoneLimit]:
        return {
            name: ZoneLimit(self.count(path + (name, "capacity"), spec.get("capacity")),
                            self.count(path + (name, "exactly"), spec.get("exactly")), spec.get("say", ""))
            for name, spec in raw.items()
        }

    def expectations(self, path: PathKey, raw: list[dict[str, Any]], known: set[str]) -> tuple[Expectation, ...]:
        out = []
        for index, spec in enumerate(raw):
            at = path + (index,)
            self.check_read(at + ("zone",), spec["zone"], known)
            if "has" in spec:
                self.expression(at + ("has",), spec["has"], condition=True)
            if not any(k in spec for k in ("size", "min", "max", "equal", "has")):
                self.error(at, "an expectation needs size, min, max, equal or has")
            out.append(Expectation(
                zone=spec["zone"], source=self.source(at), size=self.count(at + ("size",), spec.get("size")),
                min=self.count(at + ("min",), spec.get("min")), max=self.count(at + ("max",), spec.get("max")),
                equal=bool(spec.get("equal")), has=spec.get("has"), rule=spec.get("rule", ""),
                severity=spec.get("severity", "fail"),
            ))
        return tuple(out)

    def variant(self, path: PathKey, raw: dict[str, Any]) -> Variant | None:
        """One variant: its steps, tables, supplies, events and playout checked; None when it has a problem."""
        before = len(self.problems)
        players = self.variant_players(path, raw["players"])
        self.let_names = set()
        self.covered, self.variant_id = players, raw["id"]
        collecting: list[tuple[PathKey, Count, str]] = []
        self.collecting, self.table_name = collecting, ""
        self.choice_counts, self.places = [], []
        let = self.let_values(path, raw.get("let", {}), collecting)
        known = {BOX, REMOVED}
        per_player: set[str] = set()
        steps = self.steps(path + ("steps",), raw["steps"], known, per_player)
        tables, all_known, all_per_player = self.variant_tables(path, raw.get("tables", []), known, per_player)
        supply = self.supplies(path, raw.get("supply", []), all_known, all_per_player)
        events = self.variant_events(path, raw.get("events", []), all_known, all_per_player)
        if len(self.problems) == before:
            self.check_choices(path, players)
        if len(self.problems) == before:
            self.check_counts(players, let, tables)
        self.collecting = None
        # ---- playouts and derived numbers (verify --playouts; numbers: sum: over a zone)
        self.filled_zones |= all_known
        playout = None
        if "playout" in raw:
            if tables:
                self.error(path + ("playout",), "playout: is not supported for a variant with tables yet; "
                                                "model one table as its own variant")
            else:
                playout = read_playout(self, path + ("playout",), raw["playout"], all_known, all_per_player)
        # ---- end of the playouts block
        variant = Variant(
            id=raw["id"], name=raw.get("name", raw["id"]), players=players, steps=steps, source=self.source(path),
            rules=raw.get("rules", ""), notes=raw.get("notes", ""), let=frozen_map(let),
            zones=frozen_map(self.zones(path + ("zones",), raw.get("zones", {}))), tables=tuple(tables),
            expect=self.expectations(path + ("expect",), raw.get("expect", []), all_known),
            supply=tuple(supply), events=tuple(events), numbers=self.numbers, playout=playout,
        )
        return variant if len(self.problems) == before else None

    def variant_players(self, path: PathKey, players_raw: dict[str, int] | list[int]) -> tuple[int, ...]:
        """A variant's player counts (``{min, max}`` or a list), each within the game's."""
        if isinstance(players_raw, dict):
            if players_raw["min"] > players_raw["max"]:
                self.error(path + ("players",), f"players min {players_raw['min']} is more than max {players_raw['max']}")
            players = tuple(range(players_raw["min"], players_raw["max"] + 1))
        else:
            players = tuple(sorted(players_raw))
        low, high = self.players
        outside = [n for n in players if not low <= n <= high]
        if outside:
            self.error(path + ("players",), f"player count {outside[0]} is outside the game's {low}–{high} players (game.yaml)")
        return players

    def let_values(self, path: PathKey, raw: dict[str, Any], collecting: list[tuple[PathKey, Count, str]]) -> dict[str, Any]:
        """A variant's ``let:`` names and their counts (added to ``let_names``); a name may not be built in or
        a rulebook number. ``collecting``: the variant's counts to check, which a let: value is not."""
        let: dict[str, Any] = {}
        for name, value in raw.items():
            if name in COUNT_VARIABLES:
                self.error(path + ("let", name), f"let: '{name}' is a built-in name; choose another")
                continue
            if name in self.number_names:
                self.error(path + ("let", name), f"let: '{name}' is a rulebook number (numbers:); "
                                                 "state it there once, or choose another name")
                continue
            before_let = len(collecting)
            let[name] = self.count(path + ("let", name), value, let=True)
            del collecting[before_let:]  # a let: value may be any number; the counts that use it are checked
            self.let_names.add(name)
        return let

    def variant_tables(self, path: PathKey, raw: list[dict[str, Any]], known: set[str],
                       per_player: set[str]) -> tuple[list[Table], set[str], set[str]]:
        """A variant's tables, each run after its steps on its own copy of ``known`` and ``per_player``; with
        every zone written anywhere, and every zone each player has anywhere."""
        tables = []
        all_known = set(known)
        all_per_player = set(per_player)
        names_seen: set[str] = set()
        for index, spec in enumerate(raw):
            at = path + ("tables", index)
            if spec["name"] in names_seen:
                self.error(at + ("name",), f"duplicate table name '{spec['name']}'")
            names_seen.add(spec["name"])
            table_known, table_pp = set(known), set(per_player)
            self.table_name = spec["name"]
            table_steps = self.steps(at + ("steps",), spec["steps"], table_known, table_pp)
            zones = frozen_map(self.zones(at + ("zones",), spec.get("zones", {})))
            expect = self.expectations(at + ("expect",), spec.get("expect", []), table_known)
            self.table_name = ""
            tables.append(Table(
                name=spec["name"], players=self.count(at + ("players",), spec["players"]) or Count(value=0),
                steps=table_steps, zones=zones, expect=expect, source=self.source(at),
            ))
            all_known |= table_known
            all_per_player |= table_pp
        return tables, all_known, all_per_player

    def supplies(self, path: PathKey, raw: list[dict[str, Any]], all_known: set[str],
                 all_per_player: set[str]) -> list[Consumption]:
        """A variant's ``supply:`` checks, each zone they read written by some step."""
        supply = []
        for index, spec in enumerate(raw):
            at = path + ("supply", index)
            zones = [spec["from"]] if isinstance(spec["from"], str) else spec["from"]
            each_player = bool(spec.get("each_player"))
            for j, zone in enumerate(zones):
                where = at + ("from",) + ((j,) if isinstance(spec["from"], list) else ())
                self.check_read(where, zone, all_known)
                if zone in all_per_player and not each_player:
                    self.error(where, f"'{zone}' is a zone each player has: a supply from it would pool every "
                                      f"player's pieces and pass while one player runs short; write each_player: true "
                                      f"(per_round and worst_case are then each player's, against their own '{zone}')")
                elif zone in all_known and zone not in all_per_player and each_player:
                    self.error(at + ("each_player",), f"each_player: true checks each player's own zone, but "
                                                      f"'{zone}' is one shared zone")
            if "where" in spec:
                self.expression(at + ("where",), spec["where"], condition=True)
            supply.append(Consumption(
                name=spec["name"], zones=tuple(zones), per_round=self.count(at + ("per_round",), spec["per_round"]) or Count(value=0),
                rounds=self.count(at + ("rounds",), spec["rounds"]) or Count(value=0), source=self.source(at),
                where=spec.get("where"), worst_case=self.count(at + ("worst_case",), spec.get("worst_case")),
                returned=bool(spec.get("returned")), each_player=each_player,
            ))
        return supply

    def variant_events(self, path: PathKey, raw: list[dict[str, Any]], all_known: set[str],
                       all_per_player: set[str]) -> list[Event]:
        """A variant's ``events:`` (deal probabilities), each zone read written by some step."""
        events = []
        for index, spec in enumerate(raw):
            at = path + ("events", index)
            self.check_read(at + ("zone",), spec["zone"], all_known, "event zone")
            who = spec.get("who", "any")
            if isinstance(who, int) and spec["zone"] not in all_per_player:
                self.error(at + ("who",), f"who: {who} names a player, but '{spec['zone']}' is one shared zone")
            terms = self.event_terms(at, spec)
            low, high = spec.get("min", 0 if "max" in spec else 1), spec.get("max")
            if high is not None and low > high:
                self.error(at, f"event min {low} is more than max {high}")
            events.append(Event(name=spec["name"], zone=spec["zone"], where=spec.get("where"), source=self.source(at),
                                low=low, high=high, who=spec.get("who", "any"), any_of=terms,
                                of_a_kind=spec.get("of_a_kind")))
        return events


def load_setup(path: Path, components: Sequence[Component], players: tuple[int, int], doc: Document | None = None) -> Setup:
    """Load and validate a setup file against the game's components (``doc``: the file, if already read);
    raises SpecError listing every problem."""
    if doc is None:
        doc = load_yaml(path)
    if not isinstance(doc.data, dict):
        raise SpecError([doc.problem((), "setup.yaml must be a mapping with a list of variants")])
    problems = _schema_problems(doc)
    if problems:
        raise SpecError(problems)
    builder = _Builder(doc, components, players)
    builder.read_numbers(doc.data.get("numbers", []))
    variants = []
    seen: set[str] = set()
    for index, raw in enumerate(doc.data["variants"]):
        if raw["id"] in seen:
            builder.error(("variants", index, "id"), f"duplicate variant id '{raw['id']}'")
        seen.add(raw["id"])
        variant = builder.variant(("variants", index), raw)
        if variant is not None:
            variants.append(variant)
    for index, spec in enumerate(doc.data.get("numbers", [])):  # playouts/derived block: a sum over an unfilled zone
        zone = spec.get("sum", {}).get("zone")
        if zone is not None and zone not in builder.filled_zones:
            builder.error(("numbers", index, "sum", "zone"), f"zone '{zone}' is never filled by any variant's setup; "
                          f"zones: {', '.join(sorted(builder.filled_zones))}")
    if builder.problems:
        raise SpecError(builder.problems)
    return Setup(path=path, variants=tuple(variants), notes=doc.data.get("notes", ""), gaps=tuple(builder.gaps),
                 numbers=builder.numbers)
