"""docs/layouts.md is generated from the layout schema, and every example in it is real."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from PIL import Image

from punchboard.spec import layout_guide
from punchboard.spec.loader.common import DIM_PROPS, LENGTH_PROPS
from tests.conftest import ROOT, run_cli

GUIDE = ROOT / "docs" / "layouts.md"
SCHEMA = layout_guide.load_schema()
ELEMENT = SCHEMA["$defs"]["element"]["properties"]
TYPES = ELEMENT["type"]["enum"]


def test_the_committed_guide_is_the_generated_one():
    assert GUIDE.read_text(encoding="utf-8") == layout_guide.guide(), (
        "docs/layouts.md is out of date: run python -m punchboard.spec.layout_guide docs/layouts.md"
    )


def test_a_schema_change_changes_the_guide():
    """The check above can fail: a new property or a changed default shows in the guide."""
    changed = copy.deepcopy(SCHEMA)
    changed["$defs"]["element"]["properties"]["size"]["default"] = "11pt"
    changed["$defs"]["element"]["properties"]["glow"] = {"type": "number", "description": "Halo.", "default": 0, "examples": [2], "x-applies-to": ["text"]}
    text = layout_guide.guide(changed)
    assert text != layout_guide.guide()
    assert "`11pt`" in text and "### `glow`" in text


@pytest.mark.parametrize("name", sorted({*ELEMENT, *SCHEMA["properties"]}))
def test_every_property_has_a_default_an_example_and_a_description(name):
    prop = ELEMENT.get(name) or SCHEMA["properties"][name]
    assert prop.get("description"), name
    assert "default" in prop or prop.get("x-default"), name
    assert prop.get("examples"), name
    if name in ELEMENT:
        assert prop.get("x-applies-to") and set(prop["x-applies-to"]) <= set(TYPES), name
        for example in prop["examples"]:  # every example is valid for the schema
            errors = list(Draft202012Validator(SCHEMA).iter_errors({"elements": [{"type": prop["x-applies-to"][0], name: example}]}))
            assert errors == [], (name, example, [e.message for e in errors])
    for unit_prop in LENGTH_PROPS:
        assert layout_guide.units(ELEMENT[unit_prop]) == layout_guide.LENGTH, unit_prop
    for dim_prop in DIM_PROPS:
        assert layout_guide.units(ELEMENT[dim_prop]) == layout_guide.DIM, dim_prop


def test_every_element_type_is_described_with_an_example():
    text = GUIDE.read_text(encoding="utf-8")
    for kind in TYPES:
        assert f"### `{kind}` element" in text
        assert ELEMENT["type"]["x-enum-descriptions"][kind]


def test_the_element_examples_in_the_guide_build(tmp_path: Path):
    """Each type's example, pasted into a layout extending base/card, builds without a warning."""
    blocks = re.findall(r"```yaml\n(elements:\n.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    elements = [e for block in blocks for e in yaml.safe_load(block)["elements"]]
    assert sorted(e["type"] for e in elements) == sorted(TYPES)
    game = tmp_path / "game"
    (game / "layouts").mkdir(parents=True)
    (game / "art").mkdir()
    (game / "board").mkdir()
    (game / "board" / "map.csv").write_text("row,col,label\n1,1,A1\n2,6,B6\n", encoding="utf-8")  # the grid example's cells
    Image.new("RGB", (630, 420), (200, 60, 60)).save(game / "art" / "Sample.png")  # 300 dpi where the example puts it (the preflight checks)
    (game / "layouts" / "sample.yaml").write_text(yaml.safe_dump({"extends": "base/card", "elements": elements}), encoding="utf-8")
    (game / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: sample\nback: none\ncards:\n  - {name: Sample}\n", encoding="utf-8")
    (game / "game.yaml").write_text("id: sample\ntitle: Sample\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n", encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
