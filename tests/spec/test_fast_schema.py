"""The fast schema check (spec/fast_schema.py) may only ever say "valid" where jsonschema, with our rules
(whole numbers are ints, numbers are finite), finds nothing wrong. An oracle: every shipped document and
thousands of generated changes to them, put to both."""

from __future__ import annotations

import copy
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from punchboard.spec import fast_schema, schema_check
from punchboard.spec.yamlsource import load_yaml
from tests.conftest import ROOT
from tests.yaml_mutation import mutate, paths

COMPONENT_KINDS = ("deck", "banknotes", "tokens", "board", "tiles", "sheet", "supply")


def _schema_for(path: Path, data: Any) -> tuple[str, str | None] | None:
    """The schema (and definition) the loader checks this file against."""
    if path.name == "game.yaml":
        return "game", None
    if path.name.startswith("setup"):
        return "setup", None
    if path.parent.name == "paper":
        return "paper", None
    if "layouts" in path.parts and path.name not in ("sizes.yaml", "cutters.yaml", "print_shops.yaml", "sheet.yaml",
                                                      "board_tiling.yaml", "press.yaml", "shop_products.yaml"):
        return "layout", None
    if isinstance(data, dict) and data.get("kind") in COMPONENT_KINDS:
        return "component", data["kind"]
    return None


def _documents() -> list[tuple[Path, str, str | None, Any]]:
    found = []
    for path in sorted([*(ROOT / "components").rglob("*.yaml"), *(ROOT / "layouts").rglob("*.yaml")]):
        data = load_yaml(path).data
        which = _schema_for(path, data)
        if which is not None:
            found.append((path, *which, data))
    return found


DOCUMENTS = _documents()


def _jsonschema_valid(name: str, definition: str | None, data: Any) -> bool:
    return not any(True for _ in schema_check.validator(name, definition).iter_errors(data))


def test_the_shipped_documents_are_valid_to_both_and_the_fast_check_answers_for_them():
    assert len(DOCUMENTS) > 60 and {name for _, name, _, _ in DOCUMENTS} >= {"game", "setup", "layout", "component"}
    answered = 0
    for path, name, definition, data in DOCUMENTS:
        assert _jsonschema_valid(name, definition, data), path
        answered += fast_schema.valid(name, definition, data)
    assert answered >= 0.9 * len(DOCUMENTS)  # it is asked about plain data, which almost every file is


# values jsonschema and fastjsonschema could read differently: whole floats, bools beside numbers, non-finite…
ODD = st.one_of(
    st.sampled_from([True, False, None, 0, 1, -1, 2, 2.0, 1.5, -0.5, math.nan, math.inf, "", "x", "2", "deck",
                     "#fff", "poker", "1in", "3mm", [], {}, [1, 2], {"a": 1}, "Vera", "none", 10 ** 30]),
    st.text(max_size=6),
    st.integers(-5, 500),
    st.floats(allow_nan=True, allow_infinity=True),
).map(copy.deepcopy)  # a drawn list or mapping may be changed later on: never the strategy's own


@st.composite
def changed_documents(draw: st.DrawFn) -> tuple[str, str | None, Any]:
    path, name, definition, data = draw(st.sampled_from(DOCUMENTS))
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)))
        change = draw(st.sampled_from(["replace", "delete", "add", "wrap"]))
        if change in ("replace", "delete") or not where:
            data = mutate(data, where, change, draw(ODD), None)
            continue
        parent = data
        for part in where[:-1]:
            parent = parent[part]
        if change == "add" and isinstance(parent, dict):
            key = draw(st.sampled_from(["extra", "count", "copies", "size", "layout", "fields", "kind", "id"]))
            data = mutate(data, where, "add", draw(ODD), key)
        elif change == "add":
            parent.append(draw(ODD))
        else:
            parent[where[-1]] = [parent[where[-1]]]
    return name, definition, data


@settings(max_examples=int(os.environ.get("FAST_SCHEMA_EXAMPLES", "600")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(changed_documents())
def test_the_fast_check_never_passes_what_jsonschema_refuses(case: tuple[str, str | None, Any]):
    name, definition, data = case
    if fast_schema.valid(name, definition, data):
        assert _jsonschema_valid(name, definition, data), (name, definition, data)


def test_floats_it_reads_otherwise_go_to_jsonschema():
    path, name, definition, data = next(d for d in DOCUMENTS if d[1] == "component" and "copies" in d[3])
    for odd in (2.0, math.nan, math.inf):
        changed = {**data, "copies": odd}
        assert not fast_schema.valid(name, definition, changed)
        assert not _jsonschema_valid(name, definition, changed)
    assert fast_schema.valid(name, definition, {**data, "copies": 2})


def test_a_damaged_cached_validator_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path))
    fast_schema._check.cache_clear()
    try:
        path, name, definition, data = DOCUMENTS[0]
        assert fast_schema.valid(name, definition, data)
        made = list((tmp_path / "validated" / "fast-schemas").glob("*.bin"))
        assert len(made) == 1
        made[0].write_bytes(b"\x00garbage")
        fast_schema._check.cache_clear()
        assert fast_schema.valid(name, definition, data)
        assert made[0].read_bytes() != b"\x00garbage"
    finally:
        fast_schema._check.cache_clear()


def test_a_build_after_an_edit_does_not_import_jsonschema(tmp_path: Path):
    """The point of it: the changed file is checked without jsonschema's 31 ms import (CLI, as a user runs it)."""
    import shutil

    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    env = dict(os.environ, PUNCHBOARD_CACHE_DIR=str(tmp_path / "cache"))
    build = [sys.executable, "-c", "import sys; from punchboard.cli import main; code = main(sys.argv[1:]); "
             "print('jsonschema' in sys.modules); sys.exit(code)", "build", str(game), "--quiet", "--out", str(tmp_path / "out")]
    first = subprocess.run(build, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    characters = game / "characters.yaml"
    characters.write_text(characters.read_text(encoding="utf-8").replace("any player.", "any other player.", 1), encoding="utf-8")
    again = subprocess.run(build, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "False", again.stdout
    characters.write_text(characters.read_text(encoding="utf-8").replace("fields:", "feilds:", 1), encoding="utf-8")
    broken = subprocess.run(build, capture_output=True, text=True, env=env, timeout=300)
    assert broken.returncode == 2 and "feilds" in broken.stderr, broken.stderr  # a refused file: jsonschema's messages
