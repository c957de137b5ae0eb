"""ARCHITECTURE.md's module map is the tree's: every module of every room listed once, with the first sentence of
its own docstring, the incremental layer on its own (tools/architecture_map.py writes it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tests.conftest import ROOT


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("architecture_map", ROOT / "tools" / "architecture_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["architecture_map"] = module
    spec.loader.exec_module(module)
    return module


def test_the_module_map_is_current():
    tool = _tool()
    page = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert tool.rewritten(page) == page, "ARCHITECTURE.md's module map is stale: run python tools/architecture_map.py"


def test_every_module_is_in_a_room_and_the_incremental_layer_exists():
    tool = _tool()
    listed = {p for folder, _ in tool.ROOMS for p in tool.modules(folder)}
    code = {p for root in ("punchboard", "generator", "verifier") for p in (ROOT / root).rglob("*.py")
            if "__pycache__" not in p.parts and p.name != "__main__.py" and "templates" not in p.parts}
    assert code - listed == set(), f"modules in no room of tools/architecture_map.py: {sorted(code - listed)}"
    for path in tool.INCREMENTAL:
        assert (ROOT / path).is_file(), path


def test_a_module_gets_its_docstrings_first_sentence(tmp_path: Path):
    tool = _tool()
    module = tmp_path / "m.py"
    module.write_text('"""Draw a thing. More about it.\n\nDetails."""\n', encoding="utf-8")
    assert tool.first_sentence(module) == "Draw a thing."
    module.write_text('"""' + "word " * 80 + '"""\n', encoding="utf-8")
    assert tool.first_sentence(module).endswith(" …") and len(tool.first_sentence(module)) <= tool.LONGEST + 2
