"""game.yaml: the components it lists, its box contents, its setup, and the checks that need the whole game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from punchboard.incremental.identity import forget_all
from punchboard.incremental.loads import KeptSetup, kept
from punchboard.incremental.look_passes import LookPasses
from punchboard.plumbing.errors import Problem, SpecError, display_path
from punchboard.plumbing.limits import DEFAULT_LIMITS, Limits
from punchboard.plumbing.paths import GAME_FILE, LAYOUTS, is_inside, resolved, resolving_once
from punchboard.spec import expressions, layout_checks, look_checks, schema_check
from punchboard.spec.binding import FIELD_REF, is_bound
from punchboard.spec.effects import Gradient, Shadow
from punchboard.spec.model import (
    BoxLine,
    Component,
    Game,
    Layout,
    frozen_map,
)
from punchboard.spec.scripts import script_problems
from punchboard.spec.translations import po_path, read_po
from punchboard.spec.yamlsource import Document, load_yaml

from .common import HEX_COLOUR, Collector, load_document
from .components import ComponentLoader
from .icons import load_icons
from .layouts import LayoutLoader
from .print_groups import check_print_groups
from .setup_view import SetupText, setup_view
from .sizes import load_size_presets
from .spreadsheets import SHEETS_FOLDER
from .translated import LANGUAGE, quote_problems, translated_values


def _field_refs(text: Any) -> set[str]:
    return set(FIELD_REF.findall(text)) if isinstance(text, str) else set()


def _check_colours(game_palette: dict[str, str], layout: Layout, mark: layout_checks.Mark, out: Collector) -> None:
    palette = {**game_palette, **layout.palette}
    for element in layout.elements:
        for key in ("fill", "stroke", "color", "accent", "outline", "shadow"):
            for colour in _colours_of(element.props.get(key), key):
                _check_colour(colour, palette, element, key, mark, out)


def _colours_of(value: Any, key: str) -> tuple[Any, ...]:
    """The colours one property names: a text's outline (colour, width) or shadow (dx, dy, colour), a shape's
    shadow, a gradient's stops (spec/effects.py), else the value itself."""
    if isinstance(value, Gradient):
        return value.colours
    if isinstance(value, Shadow):
        return (value.colour,)
    if isinstance(value, tuple):
        return (value[0] if key == "outline" else value[-1],)
    return (value,)


def _check_colour(colour: Any, palette: dict[str, str], element: Any, key: str, mark: layout_checks.Mark,
                  out: Collector) -> None:
    """A located problem when ``colour`` is neither #rrggbb, a palette name, none nor bound to a field."""
    if colour is None or colour == "none" or is_bound(colour):
        return  # a field-bound colour is checked per piece (look_checks)
    if isinstance(colour, str) and (HEX_COLOUR.match(colour) or colour in palette):
        return
    known = sorted(palette)
    hint = schema_check.suggest(str(colour), known)
    out.add(
        layout_checks.at(
            mark(element, key),
            f"{key}: unknown colour {colour!r}{hint}; expected #rrggbb or a palette name "
            f"({', '.join(known) or 'none defined'})",
        )
    )


def _load_components(
    folder: Path, doc: Document, names: list[str], loader: ComponentLoader, out: Collector
) -> tuple[list[Component], list[Path]]:
    """The components game.yaml lists, in order, and the files they came from."""
    components: list[Component] = []
    files: list[Path] = []
    listed: dict[Path, int] = {}
    seen: dict[str, Path] = {}
    for index, name in enumerate(names):
        path = folder / name
        if not is_inside(path, folder):
            out.add(doc.problem(("components", index), f"component file '{name}' lies outside the game folder"))
            continue
        if not path.is_file():
            out.add(doc.problem(("components", index), f"component file '{name}' not found in {display_path(folder)}"))
            continue
        if resolved(path) in listed:
            first = listed[resolved(path)]
            out.add(doc.problem(("components", index), f"component file '{name}' is listed twice (also item {first + 1} of components)"))
            continue
        listed[resolved(path)] = index
        files.append(path)
        component = loader.load(path)
        if component is None:
            continue
        if component.id in seen:
            line, col = loader.id_marks.get(path, (1, 1))
            other = display_path(seen[component.id])
            out.add(Problem(display_path(path), line, col, f"duplicate component id '{component.id}' (also in {other}); expected each id once per game"))
            continue
        seen[component.id] = path
        components.append(component)
    return components, files


def _setup_gaps(path: Path, components: list[Component], players: tuple[int, int]) -> tuple[str, ...]:
    """What the setup file leaves to chance (load_setup checks it against the components); raises SpecError."""
    from punchboard.spec.setup_loader import load_setup  # only a game with a setup loads the setup language

    memo = kept()
    if memo is None:
        return load_setup(path, components, players).gaps
    doc = load_yaml(path)
    text = memo.setup_texts.get(doc.text_digest) if doc.text_digest else None
    if text is None:
        text = SetupText(doc.data)  # before load_setup, which is handed doc.data
        if doc.text_digest:
            memo.put(memo.setup_texts, doc.text_digest, text)
    view = setup_view(components, text, memo.setup_parts)
    known = memo.setups.get(path)
    if (view is not None and known is not None and known.digest == doc.text_digest and known.players == players
            and known.view == view):
        return known.gaps
    gaps = load_setup(path, components, players, doc).gaps
    if doc.text_digest and view is not None:
        memo.put(memo.setups, path, KeptSetup(doc.text_digest, players, view, gaps))
    return gaps


def _layouts_of(component: Component, used: dict[str, Layout]) -> tuple[tuple[str, Layout | None], ...]:
    return tuple((name, used.get(name)) for name in sorted(component.layouts()))


def _check_looks(look: look_checks.LookChecker, component: Component, used: dict[str, Layout], palette: dict[str, str],
                 passes: LookPasses | None) -> None:
    """The component's look checks (look_checks.py), passed over when they passed for this very component last time
    (in watch and serve), or side by side when they passed in an earlier load (look_passes.py)."""
    memo = kept()
    if memo is None:
        look_checks.check_component(look, component, used, palette, passes)
        return
    layouts, others = _layouts_of(component, used), (dict(palette), frozenset(look.icons))
    if memo.passed(memo.looks, component, layouts, others):
        return
    before = len(look.problems)
    look_checks.check_component(look, component, used, palette)
    if len(look.problems) == before:
        memo.remember_pass(memo.looks, component, layouts, others)


def _check_bindings(component: Component, used: dict[str, Layout], images: layout_checks.ImageChecker,
                    mark: layout_checks.Mark, shared: Callable[[str], bool], game_id: str) -> list[Problem]:
    """layout_checks.check_bindings, passed over when it passed for this very component, with the same layout
    objects and game, and read no image file (an image is looked for and read each time)."""
    memo = kept()
    if memo is None:
        return layout_checks.check_bindings(component, used, images, mark, shared)
    layouts, others = _layouts_of(component, used), (game_id,)
    if memo.passed(memo.bindings, component, layouts, others):
        return []
    asked = images.asked
    problems = layout_checks.check_bindings(component, used, images, mark, shared)
    if not problems and images.asked == asked:
        memo.remember_pass(memo.bindings, component, layouts, others)
    return problems


def load_game(folder: Path, limits: Limits = DEFAULT_LIMITS, out_dir: Path | None = None) -> Game:
    """Load and validate a game folder; raises SpecError listing every problem.

    ``out_dir`` is the output folder the game is loaded for (default ``output``): spreadsheet
    links are cached in its ``.sheets/`` folder.
    """
    forget_all()  # the last model's memos (its side digests, layout plans, frames' settings) go with it
    with resolving_once():  # each file's path is resolved once per load
        return _load_game(folder, limits, out_dir)


def _game_document(folder: Path, game_path: Path, out: Collector) -> Document:
    """The game file, read and checked against its schema; raises SpecError when it is missing or invalid (with
    the named component files' problems too, when the list of them can be read)."""
    if not game_path.is_file():
        raise SpecError([Problem(display_path(folder), 1, 1, f"no {GAME_FILE} in this folder; expected a game folder")])
    doc = load_document(game_path, out)
    out.raise_if_any()
    assert doc is not None
    if not isinstance(doc.data, dict):
        raise SpecError([doc.problem((), "game.yaml must be a mapping with id, title, players and components")])
    game_problems = schema_check.check(doc, "game")
    if game_problems:
        out.extend(game_problems)
        names = doc.data.get("components")
        if isinstance(names, list) and all(isinstance(name, str) for name in names):
            # report the component files' problems too, not only the game file's
            languages = _languages(doc)  # when one of them is not valid (game.yaml's problem), a column may name any
            valid = all(LANGUAGE.fullmatch(code) for code in languages) and len(set(languages)) == len(languages)
            loader = ComponentLoader(folder, LayoutLoader(folder, out), load_size_presets(), out, languages if valid else None)
            _load_components(folder, doc, names, loader, out)
        out.raise_if_any()
    return doc


def _languages(doc: Document) -> tuple[str, ...]:
    """game.yaml's languages:, the source language first; () when it has none (or they are not a list of text)."""
    languages = doc.data.get("languages") if isinstance(doc.data, dict) else None
    if not isinstance(languages, list) or not all(isinstance(code, str) for code in languages):
        return ()
    return tuple(languages)


def _rulebooks(doc: Document, setup: Path | None, languages: tuple[str, ...], out: Collector) -> dict[str, str]:
    """game.yaml's rulebook@lang files by language; each rulebook@lang or setup quote@lang in a language the game
    does not list is a problem."""
    rulebooks, problems = translated_values(doc, "rulebook", languages)
    out.extend(problems)
    if setup is not None and setup.is_file() and "quote@" in setup.read_text(encoding="utf-8", errors="replace"):
        setup_doc = load_document(setup, out)
        if setup_doc is not None:
            out.extend(quote_problems(setup_doc, languages))
    return rulebooks


def _setup_file(folder: Path, doc: Document, components: list[Component],
                out: Collector) -> tuple[Path | None, tuple[str, ...]]:
    """The game's setup file, if it names one, and the gaps its check warns of (checked only while the game
    has no other problem)."""
    data = doc.data
    if "setup" not in data:
        return None, ()
    setup = folder / data["setup"]
    if not is_inside(setup, folder):
        out.add(doc.problem(("setup",), f"setup file '{data['setup']}' lies outside the game folder"))
    elif not setup.is_file():
        out.add(doc.problem(("setup",), f"setup file '{data['setup']}' not found in {display_path(folder)}"))
    elif not out.problems:
        try:
            return setup, _setup_gaps(setup, components, (data["players"]["min"], data["players"]["max"]))
        except SpecError as err:
            out.extend(err.problems)
    return setup, ()


def _box_lines(doc: Document, seen: set[str], loader: ComponentLoader, out: Collector) -> list[BoxLine]:
    """The game file's box: lines, each checked for the components it names and its where: expression."""
    box: list[BoxLine] = []
    ids = sorted(seen)
    for index, line in enumerate(doc.data.get("box", [])):
        for j, component_id in enumerate(line["components"]):
            # while a component file is too broken to tell its id, the box may well mean it: say nothing
            if component_id not in seen and component_id not in loader.ids_read and not loader.nameless:
                hint = schema_check.suggest(component_id, ids)
                out.add(doc.problem(("box", index, "components", j), f"box line refers to unknown component '{component_id}'{hint}"))
        if "where" in line:
            try:
                expressions.parse(line["where"])
            except expressions.ExpressionError as exc:
                out.add(doc.problem(("box", index, "where"), f"where: {exc}"))
        line_no, col = doc.where(("box", index))
        box.append(BoxLine(line["text"], line["count"], tuple(line["components"]), line.get("where"), f"{doc.name}:{line_no}:{col}", line.get("per_copy", False)))
    return box


def _used_layouts(components: list[Component], layouts: LayoutLoader) -> dict[str, Layout]:
    """Every layout a component's pieces name that loaded, by name (components in order, names sorted)."""
    used: dict[str, Layout] = {}
    for component in components:
        for name in sorted(component.layouts()):
            layout = layouts.get(name)
            if layout is not None:
                used[name] = layout
    return used


def _check_layouts(folder: Path, limits: Limits, doc: Document, components: list[Component], used: dict[str, Layout],
                   palette: dict[str, Any], layouts: LayoutLoader, out: Collector) -> dict[str, Path]:
    """Check the used layouts (colours, fonts, images) and every piece's bindings and looks against them;
    the game's icons."""
    data = doc.data
    images = layout_checks.ImageChecker(folder, limits, layouts.mark)
    sharing: dict[str, bool] = {}

    def shared(file: str) -> bool:
        """A layout file meant for many games: in punchboard's layouts/ but not its layouts/<game id>/."""
        if file not in sharing:  # asked once per bound property: resolving paths each time took a third of a load
            sharing[file] = is_inside(Path(file), LAYOUTS) and not is_inside(Path(file), LAYOUTS / str(data["id"]))
        return sharing[file]

    for layout in used.values():
        _check_colours(palette, layout, layouts.mark, out)
        out.extend(layout_checks.check_fonts(layout, layouts.mark))
        out.extend(images.literal(layout))
    for component in components:
        out.extend(_check_bindings(component, used, images, layouts.mark, shared, data["id"]))
    icons = load_icons(doc, folder, out)
    look = look_checks.LookChecker(palette, data.get("icons", {}), layouts.mark)  # declared names, even if a file is bad
    for layout in used.values():
        look.literal_icons(layout)
    passes = LookPasses(folder) if kept() is None else None  # watch and serve keep whole components' passes instead
    for component in components:
        _check_looks(look, component, used, palette, passes)
    if passes is not None:
        passes.save()
    out.extend(look.problems)
    return icons


def _load_game(folder: Path, limits: Limits, out_dir: Path | None) -> Game:
    """Load, check and freeze one game folder (see :func:`load_game`); raises SpecError with every problem."""
    out = Collector(limits=limits)
    if out_dir is not None:
        out.sheets = Path(out_dir) / SHEETS_FOLDER
    game_path = folder / GAME_FILE
    doc = _game_document(folder, game_path, out)
    data = doc.data
    if data["players"]["min"] > data["players"]["max"]:
        out.add(doc.problem(("players",), f"players min {data['players']['min']} is more than max {data['players']['max']}"))
    presets = load_size_presets()
    layouts = LayoutLoader(folder, out)
    languages = _languages(doc)
    loader = ComponentLoader(folder, layouts, presets, out, languages)
    components, files = _load_components(folder, doc, data["components"], loader, out)
    if len(languages) > 1 and not out.problems:
        components = read_po(folder, languages, components, out.problems, limits.max_file_bytes)
        files.extend(path for lang in languages[1:] if (path := po_path(folder, lang)).is_file())
    out.extend(script_problems(components))  # text in a script punchboard cannot shape (spec/scripts.py)
    files.insert(0, game_path)
    out.extend(check_print_groups(components, loader.group_marks, layouts.cache.get))
    setup, warnings = _setup_file(folder, doc, components, out)
    rulebooks = _rulebooks(doc, setup, languages, out)
    box = _box_lines(doc, {component.id for component in components}, loader, out)
    palette = dict(data.get("palette", {}))
    used = _used_layouts(components, layouts)
    icons = _check_layouts(folder, limits, doc, components, used, palette, layouts, out)
    out.raise_if_any()
    return Game(
        id=data["id"],
        title=data["title"],
        folder=folder,
        players_min=data["players"]["min"],
        players_max=data["players"]["max"],
        components=tuple(components),
        layouts=frozen_map(used),
        box=tuple(box),
        palette=frozen_map(palette),
        rulebook=data.get("rulebook", ""),
        designers=tuple(data.get("designers", [])),
        setup=setup,
        notes=data.get("notes", ""),
        files=tuple(files),
        icons=frozen_map(icons),
        warnings=(*out.warnings, *warnings),
        fetch_warnings=tuple(out.warnings),
        languages=languages,
        language=languages[0] if languages else "",
        rulebooks=frozen_map(rulebooks),
    )
