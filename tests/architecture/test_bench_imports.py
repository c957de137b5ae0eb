"""The benchmarks name punchboard's modules too, often inside the function that needs them: every name they import
from punchboard exists, so a module moved or renamed (as the incremental room moved the records) fails here rather
than half-way through a `make bench` run."""

from __future__ import annotations

import ast
import importlib

import pytest

from tests.conftest import ROOT

BENCHES = sorted((ROOT / "bench").glob("*.py"))


@pytest.mark.parametrize("path", BENCHES, ids=lambda path: path.name)
def test_every_punchboard_name_a_benchmark_imports_exists(path):
    missing = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("punchboard"):
            module = importlib.import_module(node.module or "")
            missing += [f"{node.lineno}: {node.module}.{alias.name}" for alias in node.names if not hasattr(module, alias.name)]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("punchboard"):
                    importlib.import_module(alias.name)
    assert not missing, f"{path.name} imports names punchboard no longer has: {missing}"


def test_the_benchmarks_are_found():
    assert len(BENCHES) > 5
