"""No function in the shipped code is over 80 lines (issue #38): a reader can hold each one.

A function's length runs from its ``def`` line to its last line (``end_lineno - lineno + 1``); decorators
are not counted. Nested functions and methods are measured on their own, and count in their parent too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

LIMIT = 80
FOLDERS = (ROOT / "punchboard", ROOT / "generator", ROOT / "verifier")


def long_functions(source: str, name: str, limit: int = LIMIT) -> list[str]:
    """Every function in ``source`` over ``limit`` lines, as ``"LENGTH name:LINE function"``."""
    found = []
    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(f"{length} {name}:{node.lineno} {node.name}")
    return found


def shipped_files() -> list[Path]:
    """The Python files of punchboard/, generator/ and verifier/, in a stable order."""
    return sorted(path for folder in FOLDERS for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def test_the_measure_counts_from_def_to_last_line_without_decorators() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT - 1))
    at_limit = f"@decorator\n@another\ndef fits():\n{body}"
    over = f"class C:\n    def over(self):\n        pass\n{body.replace('    ', '        ')}"
    assert long_functions(at_limit, "a.py") == []
    assert long_functions(over, "b.py") == [f"{LIMIT + 1} b.py:2 over"]


def test_no_function_is_over_80_lines() -> None:
    files = shipped_files()
    assert len(files) > 150, "the scan found too few files: the folders moved?"
    over = [
        line
        for path in files
        for line in long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not over, f"functions over {LIMIT} lines (split them into named helpers):\n" + "\n".join(over)
