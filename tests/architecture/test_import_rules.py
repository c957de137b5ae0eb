"""The folder tree is the architecture: these rules are read from the imports, so the shape cannot drift."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = {  # import name -> folder in the repository
    "punchboard.generator": ROOT / "generator",
    "punchboard.verifier": ROOT / "verifier",
    "punchboard": ROOT / "punchboard",
}

FORBIDDEN = {  # a module under the key may not import anything under these
    "punchboard.generator": ("punchboard.verifier", "punchboard.studio", "punchboard.cli"),
    "punchboard.verifier": ("punchboard.generator", "punchboard.studio", "punchboard.cli"),
    "punchboard.spec": ("punchboard.generator", "punchboard.verifier", "punchboard.studio", "punchboard.cli"),
    "punchboard.plumbing": ("punchboard.generator", "punchboard.verifier", "punchboard.studio", "punchboard.cli",
                            "punchboard.spec", "punchboard.incremental"),
    # The incremental layer keeps every record; both the loader and the generator ask it, so it knows neither
    # (of the spec, only the model: test_the_incremental_layer_reads_only_the_specs_model).
    "punchboard.incremental": ("punchboard.generator", "punchboard.verifier", "punchboard.studio", "punchboard.cli",
                               "punchboard.spec.loader"),
    # The studio shows the generator's pictures and the verifier's findings, like the CLI it sits below.
    "punchboard.studio": ("punchboard.cli",),
    # The verifier's rooms: setup simulation at the bottom; probability, supply and playouts run on it;
    # reports only read results; the engine puts them together and nothing in a room calls it.
    "punchboard.verifier.setup": ("punchboard.verifier.probability.events", "punchboard.verifier.probability.stats",
                                  "punchboard.verifier.supply", "punchboard.verifier.playout",
                                  "punchboard.verifier.report", "punchboard.verifier.engine"),
    "punchboard.verifier.probability": ("punchboard.verifier.supply", "punchboard.verifier.playout",
                                        "punchboard.verifier.report", "punchboard.verifier.engine"),
    "punchboard.verifier.supply": ("punchboard.verifier.playout", "punchboard.verifier.report",
                                   "punchboard.verifier.engine"),
    "punchboard.verifier.report": ("punchboard.verifier.setup", "punchboard.verifier.probability",
                                   "punchboard.verifier.supply", "punchboard.verifier.playout",
                                   "punchboard.verifier.engine"),
    # Drawing reports what it drew to an observer it is handed; it never knows the preflight that watches.
    "punchboard.generator.draw": ("punchboard.generator.preflight",),
    # The preflight reads the drawing (and, for check, draws sides alone); it writes no sheets or files.
    "punchboard.generator.preflight": ("punchboard.generator.document", "punchboard.generator.export"),
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.setdefault(".".join([package, *parts]), path)
    return found


def _imports(module: str, path: Path) -> set[str]:
    """Every module ``module`` imports, anywhere in the file (lazy imports count too)."""
    is_package = path.name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


MODULES = _modules()
GRAPH = {name: {i for i in _imports(name, path) if i in MODULES and i != name} for name, path in MODULES.items()}


def test_every_package_is_found():
    assert "punchboard.generator.draw.side" in MODULES
    assert "punchboard.verifier.setup.simulate" in MODULES
    assert "punchboard.cli.build" in MODULES
    assert "punchboard.incremental.sealed" in MODULES
    assert "punchboard.studio.server" in MODULES
    assert "punchboard.generator.preflight.contrast" in MODULES
    assert len(MODULES) > 60


@pytest.mark.parametrize("owner", sorted(FORBIDDEN))
def test_layers_import_only_downwards(owner):
    broken = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module == owner or module.startswith(owner + ".")
        for target in targets
        if any(target == bad or target.startswith(bad + ".") for bad in FORBIDDEN[owner])
    )
    assert broken == []


def test_the_incremental_layer_reads_only_the_specs_model():
    broken = sorted(f"{module} imports {target}" for module, targets in GRAPH.items()
                    if module.startswith("punchboard.incremental.")
                    for target in targets if target.startswith("punchboard.spec") and target != "punchboard.spec.model")
    assert broken == []


def test_no_import_circle_between_modules():
    """Tarjan's strongly connected components over module imports; a package importing its own
    submodules (``from . import x`` in an ``__init__``) is not a circle."""
    graph = {m: {t for t in ts if not (t.startswith(m + ".") and MODULES[m].name == "__init__.py")} for m, ts in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert circles == []


def test_the_rules_detect_a_violation(tmp_path):
    """The checker itself works: a generator module importing the verifier is caught."""
    path = tmp_path / "bad.py"
    path.write_text("from punchboard.verifier.engine import verify_game\nfrom ..cli import main\n")
    found = _imports("punchboard.generator.draw.bad", path)
    assert "punchboard.verifier.engine" in found
    assert "punchboard.generator.cli" in found  # `..` from generator/draw is the generator package
