"""Every on-disk record format lives in the incremental layer's room (punchboard/incremental, issue #38): a stage
room (spec, draw, impose, document, export, preflight, press, the verifier, the CLI, the studio) never seals or
unseals a record, never spells a record's file name, suffix or header, and never marshals one.

The markers are read from the code, not the prose: names used and string values, docstrings and comments aside.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

ROOM = ROOT / "punchboard" / "incremental"
# every module outside the room that makes things (plumbing too: it imports nothing of ours, records included)
STAGES = sorted(
    path for folder in ("punchboard", "generator", "verifier") for path in (ROOT / folder).rglob("*.py")
    if ROOM not in path.parents and "__pycache__" not in path.parts and "templates" not in path.parts
)
# the sealed record's reader and writer, and the marshal layout records are written in
NAMES = frozenset({"seal", "unseal", "write_sealed", "read_sealed", "read_sealed_strict", "DamagedRecord"})
CALLS = frozenset({("marshal", "dumps"), ("marshal", "loads"), ("marshal", "dump"), ("marshal", "load")})
# a record's suffix (a string of its own, as ``path.with_suffix(".runs")`` or ``f"{name}.pages"`` spell it), what a
# kept PDF's name ends with, and what a record's name or header holds
SUFFIXES = frozenset({".sides", ".index", ".runs", ".looks", ".pages", ".layouts", ".keep"})
ENDINGS = (".keep",)
PARTS = (".punchboard-", "punchboard kept ", "pbseal")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (a module's, class's or function's first statement)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def markers(source: str) -> list[str]:
    """The record markers in ``source`` (see the module's docstring), as ``line: what``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in NAMES:
            found.append(f"{node.lineno}: uses {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in NAMES:
            found.append(f"{node.lineno}: uses .{node.attr}")
        elif isinstance(node, ast.alias) and (node.name.split(".")[-1] in NAMES or node.name.endswith(".sealed")):
            found.append(f"{node.lineno}: imports {node.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("sealed"):
            found.append(f"{node.lineno}: imports from {node.module}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and (node.func.value.id, node.func.attr) in CALLS:
            found.append(f"{node.lineno}: calls {node.func.value.id}.{node.func.attr}")
        elif isinstance(node, ast.Constant) and id(node) not in docs and isinstance(node.value, str | bytes):
            text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if text in SUFFIXES or text.endswith(ENDINGS) or any(part in text for part in PARTS):
                found.append(f"{node.lineno}: spells {text!r}")
    return found


def test_the_stage_rooms_are_found():
    names = {str(p.relative_to(ROOT)) for p in STAGES}
    assert {"generator/build.py", "generator/draw/side.py", "generator/document/kept_pages.py",
            "generator/export/kept_images.py", "punchboard/spec/yamlsource.py", "punchboard/cli/build.py",
            "punchboard/studio/pictures.py", "verifier/engine.py"} <= names
    assert not any(ROOM in p.parents for p in STAGES) and len(STAGES) > 150


@pytest.mark.parametrize("path", STAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_record_format_outside_the_room(path: Path):
    assert markers(path.read_text(encoding="utf-8")) == []


def test_the_room_holds_the_formats():
    """The markers are real: the room's own modules are full of them."""
    inside = {p.name: markers(p.read_text(encoding="utf-8")) for p in ROOM.glob("*.py")}
    for name in ("sealed.py", "side_store.py", "look_store.py", "page_records.py", "build_cache.py",
                 "image_records.py", "up_to_date.py", "parsed_store.py"):
        assert inside[name], name


@pytest.mark.parametrize("source", [
    "from punchboard.incremental.sealed import write_sealed\nwrite_sealed(p, b'')\n",
    "from punchboard.incremental import sealed\nsealed.read_sealed(p)\n",
    "import marshal\nmarshal.dumps(x)\n",
    "path = folder / f'{component}.runs'\n",
    "FRONT = '.front.pdf.keep'\n",
    "HEADER = b'punchboard kept sides 3'\n",
    "RECORD = '.punchboard-up-to-date.json'\n",
])
def test_a_record_format_in_a_stage_room_is_caught(source: str):
    assert markers(source) != []


def test_prose_is_not_a_marker():
    assert markers('"""Kept in ``<component>.runs`` beside ``.front.pdf.keep``."""\n# write_sealed(.keep)\nx = 1\n') == []
