"""Safe YAML loading that remembers where every key and value came from.

Documents are composed into nodes with PyYAML's safe loader (no arbitrary
objects), then converted by hand so that each JSON-style path maps to a
``(line, col)`` position. Aliases are followed, but the expanded size is
bounded so an alias bomb fails fast instead of exhausting memory.
"""

from __future__ import annotations

import datetime
import hashlib
import pickle
import re
from dataclasses import dataclass, field
from functools import cached_property
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem, SpecError, display_path
from punchboard.plumbing.limits import DEFAULT_LIMITS

PathKey = tuple[str | int, ...]

yaml: Any = None  # PyYAML, imported when a text is first parsed (:func:`_pyyaml`); until then None


def _pyyaml() -> Any:
    """PyYAML, imported now if it was not: a command whose files all come from the parsed store
    (punchboard/incremental/parsed_store.py) does without it, and its import takes 8 ms (its reader compiles a large
    regular expression)."""
    global yaml
    if yaml is None:
        import yaml as module

        yaml = module
    return yaml


def _composer() -> Any:
    """libyaml's parser when PyYAML was built with it (it usually is): same nodes and marks, ~10× faster."""
    module = _pyyaml()
    return getattr(module, "CSafeLoader", module.SafeLoader)


def parser_name() -> str:
    """The name of the parser :func:`parse_yaml` composes with (``CSafeLoader`` or ``SafeLoader``), told
    without importing PyYAML: libyaml's binding is an extension module in PyYAML's folder."""
    if yaml is not None:
        return str(_composer().__name__)
    spec = find_spec("yaml")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    for folder in folders:
        if any((Path(folder) / f"_yaml{suffix}").is_file() for suffix in EXTENSION_SUFFIXES):
            return "CSafeLoader"
    return str(_composer().__name__) if folders else "SafeLoader"


MAX_NODES = DEFAULT_LIMITS.max_yaml_nodes
MAX_DEPTH = 64  # nesting of lists and mappings; real specs use fewer than 10 levels
MAX_INT_DIGITS = 100  # a whole number longer than this is a typo or an attack; quote it to keep it as text
MAX_FILE_BYTES = DEFAULT_LIMITS.max_file_bytes
# Tags plain YAML resolves to by itself; anything else (``!!python/object``, ``!custom``) is refused.
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "merge", "value")
)


@dataclass
class Document:
    """Plain data parsed from one YAML file, with source positions."""

    path: Path
    data: Any
    value_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    # the sha256 of the text ``data`` was parsed from (None when the data did not come from a whole file):
    # ``data`` is a function of that text alone, so a check of it can be remembered by it (spec/schema_check.py)
    text_digest: str | None = None

    @cached_property
    def name(self) -> str:
        return display_path(self.path)

    def where(self, path: PathKey, *, key: bool = False) -> tuple[int, int]:
        """Position of the value (or key) at ``path``, or of its nearest ancestor."""
        p = tuple(path)
        if key and p in self.key_marks:
            return self.key_marks[p]
        while p:
            if p in self.value_marks:
                return self.value_marks[p]
            p = p[:-1]
        return self.value_marks.get((), (1, 1))

    def problem(self, path: PathKey, message: str, *, key: bool = False) -> Problem:
        line, col = self.where(path, key=key)
        return Problem(self.name, line, col, message)


def _short_tag(tag: str) -> str:
    """A tag as it was written: ``!!python/object`` rather than ``tag:yaml.org,2002:python/object``."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Converter:
    def __init__(self, doc: Document, max_nodes: int):
        self.doc = doc
        self.loader = _pyyaml().SafeLoader("")
        self.max_nodes = max_nodes
        self.budget = max_nodes
        self.problems: list[Problem] = []

    def convert(self, node: yaml.Node, path: PathKey, ancestors: tuple[int, ...] = ()) -> Any:
        if id(node) in ancestors:
            line, col = self.doc.key_marks.get(path) or _mark(node)
            raise SpecError([Problem(self.doc.name, line, col, "an alias refers to a list or mapping that contains it (a cycle); expected data without cycles")])
        if len(ancestors) >= MAX_DEPTH:
            line, col = _mark(node)
            raise SpecError([Problem(self.doc.name, line, col, f"lists and mappings nested deeper than {MAX_DEPTH} levels; expected a flatter document")])
        if not isinstance(node, yaml.ScalarNode):
            ancestors = ancestors + (id(node),)
        self.budget -= 1
        if self.budget < 0:
            line, col = _mark(node)
            raise SpecError(
                [
                    Problem(
                        self.doc.name,
                        line,
                        col,
                        f"document expands to more than {self.max_nodes} values "
                        "(aliases nested too deep?); expected a reasonably sized file "
                        "(raise the limit with --max-yaml-nodes)",
                    )
                ]
            )
        self.doc.value_marks.setdefault(path, _mark(node))
        if not isinstance(node, yaml.ScalarNode) and not self.plain(node):
            return None
        if isinstance(node, yaml.MappingNode):
            self.flatten(node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    line, col = _mark(key_node)
                    self.problems.append(
                        Problem(self.doc.name, line, col, "keys must be plain text, got a collection")
                    )
                    continue
                key = str(self.scalar(key_node))
                if key in out:
                    line, col = _mark(key_node)
                    self.problems.append(
                        Problem(self.doc.name, line, col, f"duplicate key '{key}'")
                    )
                    continue
                self.doc.key_marks.setdefault(path + (key,), _mark(key_node))
                out[key] = self.convert(value_node, path + (key,), ancestors)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, path + (i,), ancestors) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def flatten(self, node: yaml.MappingNode) -> None:
        """Apply merge keys (``<<: *base``); a merge of something other than mappings is a located problem."""
        try:
            self.loader.flatten_mapping(node)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else _mark(node)
            raise SpecError([Problem(self.doc.name, line, col, "merge key '<<' needs a mapping or a list of mappings, "
                                     f"got {_node_kind(exc.problem or '')}; expected '<<: *anchor' naming a mapping")]) from None
        except RecursionError:
            line, col = _mark(node)
            raise SpecError([Problem(self.doc.name, line, col, "merge key '<<' merges a mapping into itself (a cycle); expected data without cycles")]) from None

    def plain(self, node: yaml.Node) -> bool:
        if node.tag in _PLAIN_TAGS:
            return True
        line, col = _mark(node)
        self.problems.append(
            Problem(self.doc.name, line, col, f"unsupported YAML tag '{_short_tag(node.tag)}'; expected plain YAML without tags")
        )
        return False

    def scalar(self, node: yaml.Node) -> Any:
        if not self.plain(node):
            return None
        if node.tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"):
            return node.value
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > MAX_INT_DIGITS:
            line, col = _mark(node)
            self.problems.append(Problem(self.doc.name, line, col, f"a number with {len(node.value)} digits is too long; expected at most {MAX_INT_DIGITS} digits (quote it to keep it as text)"))
            return None
        try:
            value = self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError):
            line, col = _mark(node)
            self.problems.append(Problem(self.doc.name, line, col, f"'{node.value[:40]}' is not a valid {node.tag.rsplit(':', 1)[-1]}"))
            return None
        if isinstance(value, (datetime.date, datetime.datetime, bytes)):
            return node.value
        wrong = _not_decimal(node.tag, node.value, value) if isinstance(value, (int, float)) else None
        if wrong is None and isinstance(value, str) and not value.isascii():
            wrong = _not_unicode(value)
        if wrong is not None:
            line, col = _mark(node)
            self.problems.append(Problem(self.doc.name, line, col, wrong))
            return None
        return value


_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _not_decimal(tag: str, text: str, value: float) -> str | None:
    """What is wrong with a number YAML 1.1 reads from a form other than plain decimal (``0x10``, ``010``,
    ``0b11``, ``1:30``, ``1_000``), which would silently become another count; None for a plain one."""
    if tag == _INT_TAG and _DECIMAL.fullmatch(text):
        return None
    if tag != _INT_TAG and (tag != _FLOAT_TAG or ("_" not in text and ":" not in text)):
        return None
    digits = text.lstrip("+-")
    if ":" in text:
        form = "a base-60 (sexagesimal) number"
    elif "_" in text:
        form = "a number with '_' between its digits"
    elif digits[:2] in ("0x", "0X"):
        form = "a hexadecimal number"
    elif digits[:2] in ("0b", "0B"):
        form = "a binary number"
    else:
        form = "an octal number (it starts with 0)"
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    meant = f" (or {int(text, 10)}, if that was meant)" if form.startswith("an octal") else ""
    return (f"'{text[:40]}' is {form}, which YAML 1.1 reads as {shown}; expected a plain decimal number: "
            f"write {shown}{meant}, or quote '{text[:40]}' to keep it as text")


def _not_unicode(text: str) -> str | None:
    """What is wrong with text holding a lone UTF-16 surrogate (``"\\uD800"``), which is no character and
    cannot be written to a file; None for valid Unicode."""
    found = _SURROGATE.search(text)
    if found is None:
        return None
    at, code = found.start(), ord(found.group())
    pair = text[at:at + 2]
    if len(pair) == 2 and 0xD800 <= code <= 0xDBFF and 0xDC00 <= ord(pair[1]) <= 0xDFFF:
        joined = 0x10000 + ((code - 0xD800) << 10) + (ord(pair[1]) - 0xDC00)
        hint = f"; the pair \\u{code:04X}\\u{ord(pair[1]):04X} is written \\U{joined:08X} in YAML"
    else:
        hint = ""
    return (f"text holds \\u{code:04X} (character {at + 1}), a lone UTF-16 surrogate, which is not a character; "
            f"expected valid Unicode text{hint}")


def _node_kind(problem: str) -> str:
    for word, kind in (("sequence", "a list of other things"), ("scalar", "a single value"), ("mapping", "a mapping")):
        if word in problem:
            return kind
    return "something else"


def _too_deep(text: str, name: str) -> SpecError:
    """Where nesting first passes MAX_DEPTH, found from the parser's events (which do not recurse)."""
    depth = 0
    _pyyaml()
    try:
        for event in yaml.parse(text, Loader=_composer()):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    line, col = event.start_mark.line + 1, event.start_mark.column + 1
                    break
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        else:
            line, col = 1, 1
    except yaml.YAMLError:
        line, col = 1, 1
    return SpecError([Problem(name, line, col, f"lists and mappings nested deeper than {MAX_DEPTH} levels; expected a flatter document")])


def parse_yaml(text: str, path: Path, *, max_nodes: int = MAX_NODES) -> Document:
    doc = Document(path=path, data=None)
    _pyyaml()
    try:
        try:
            node = yaml.compose(text, Loader=_composer())
        except yaml.YAMLError:
            # Broken input is rare: parse again with the pure-Python parser, whose messages are clearer.
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "invalid YAML"
        if "'\\t'" in what:
            what += " (indent with spaces, not tabs)"
        if what == "mapping values are not allowed here":
            what += " (check this line's indentation, or quote a value that contains ': ')"
        started = exc.context_mark
        if exc.problem and exc.context and started and (started.line, started.column) != (line - 1, col - 1):
            what += f" ({exc.context} at line {started.line + 1}, column {started.column + 1})"
        raise SpecError([Problem(doc.name, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.reader.ReaderError as exc:  # a control character: located by its position in the text
        before = text[: exc.position]
        line, col = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise SpecError([Problem(doc.name, line, col, f"YAML error: control character U+{code:04X} is not allowed in YAML; expected printable text")]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(doc.name, 1, 1, f"YAML error: {str(exc).splitlines()[0]}")]) from None
    except RecursionError:
        raise _too_deep(text, doc.name) from None
    if node is None:
        doc.value_marks[()] = (1, 1)
        return doc
    converter = _Converter(doc, max_nodes)
    doc.data = converter.convert(node, ())
    if converter.problems:
        raise SpecError(converter.problems)
    return doc


def load_yaml(path: Path, *, max_nodes: int = MAX_NODES, max_bytes: int = MAX_FILE_BYTES) -> Document:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise SpecError(
                [
                    Problem(
                        display_path(path), 1, 1,
                        f"file is {size} bytes, more than the limit of {max_bytes} (raise it with --max-file-bytes)",
                    )
                ]
            )
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(
            [Problem(display_path(path), 1, 1, f"file is not UTF-8 text ({exc.reason})")]
        ) from None
    except OSError as exc:
        raise SpecError([Problem(display_path(path), 1, 1, f"cannot read file: {exc.strerror}")]) from None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if _parsed is None:
        return _parsed_from_disk(text, path, max_nodes, digest)
    key = (path, max_nodes)
    known = _parsed.get(key)
    if known is not None and known[0] == text:
        return Document(path, pickle.loads(known[1]), dict(known[2]), dict(known[3]), digest)
    # a file saved while watch runs: parsed here, not looked for on disk (its record holds the text before
    # the save) nor written there (the next save replaces it): the save's path stays as short as it was
    doc = parse_yaml(text, path, max_nodes=max_nodes)
    doc.text_digest = digest
    if len(_parsed) >= _PARSED_LIMIT:
        _parsed.clear()
    _parsed[key] = (text, pickle.dumps(doc.data, protocol=pickle.HIGHEST_PROTOCOL), dict(doc.value_marks), dict(doc.key_marks))
    return doc


def _parsed_from_disk(text: str, path: Path, max_nodes: int, digest: str) -> Document:
    """``text`` parsed, or read back as an earlier command parsed the same text (punchboard/incremental/parsed_store.py)."""
    from punchboard.incremental import parsed_store

    parser = parser_name()
    found = parsed_store.read(path, max_nodes, digest, parser)
    if found is not None:
        return Document(path, found[0], found[1], found[2], digest)
    doc = parse_yaml(text, path, max_nodes=max_nodes)
    doc.text_digest = digest
    parsed_store.write(path, max_nodes, digest, parser, doc.data, doc.value_marks, doc.key_marks)
    return doc


# A long-running process (watch, serve) loads every file of a game again after each save: with
# keep_parsed() a file whose text is unchanged is not parsed again. Each load gets its own copy of
# the data (unpickled), so nothing one load's checks do to it shows in the next.
_PARSED_LIMIT = 1024
_parsed: dict[tuple[Path, int], tuple[str, bytes, dict[PathKey, tuple[int, int]], dict[PathKey, tuple[int, int]]]] | None = None


def keep_parsed() -> None:
    """Remember parsed documents by their text for the rest of this process (watch, serve)."""
    global _parsed
    if _parsed is None:
        _parsed = {}
