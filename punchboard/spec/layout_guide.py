"""The layout guide (docs/layouts.md), generated from the layout JSON Schema.

Every element type and property comes from ``punchboard/schema/layout.schema.json``:
its description, units, default (``default``, or ``x-default`` in words when there is
none to write), examples and the element types it applies to (``x-applies-to``).
A test regenerates the guide and fails when it differs from the committed file.

    python -m punchboard.spec.layout_guide docs/layouts.md     # rewrite the guide
    python -m punchboard.spec.layout_guide                     # print it
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from punchboard.plumbing.paths import SCHEMAS

SCHEMA_FILE = SCHEMAS / "layout.schema.json"
LENGTH = "length: 63.5mm, 2.5in, 1cm, 12pt (a bare number is mm)"
DIM = "length, or % of the box"

INTRO = """\
# Layouts

<!-- Generated from punchboard/schema/layout.schema.json by
     `python -m punchboard.spec.layout_guide docs/layouts.md`; do not edit by hand.
     tests/docs/test_layout_guide.py fails when this file and the schema disagree. -->

A layout says how one side of a piece is drawn: a list of **elements** (shapes,
text, pictures, icons) placed on the piece. Layouts are YAML files found by
name: `layouts/NAME.yaml` in the game folder first, then punchboard's own
`layouts/` (for example `base/card`). A component names its layouts:

```yaml
layout: card              # the face: layouts/card.yaml
back: {layout: back}      # the reverse side
```

**Boxes.** Every element is placed in a reference box (`box:`): `trim` (the
cut line, the default), `bleed` (the trim plus the bleed, for backgrounds that
must run off the edge) or `safe` (the trim inset by the safe margin, where text
belongs). `x` and `y` measure from the box's top-left corner, downwards.

**Units.** A length is `63.5mm`, `2.5in`, `1cm` or `12pt`; a bare number is
millimetres. Positions and sizes may also be a percentage of the reference box
(`50%`). Colours are `#rrggbb` or a name from the layout's or the game's
`palette`.

**Fields.** `{field}` in `text`, `src` or `icon` puts a piece's field there
(`{name}`, `{value}`); `when:` draws an element only when a condition over the
fields holds (`suit == 'star'`, `value >= 3 and text`).

**Inheritance.** `extends: base/card` starts from another layout: an element
with an inherited `id` is merged into it (only the properties you give change)
and keeps its place in the drawing order; `remove: true` drops it; new
elements are drawn after the inherited ones.

See [recipes.md](recipes.md) for complete designs to copy.
"""


def load_schema() -> dict[str, Any]:
    with open(SCHEMA_FILE, encoding="utf-8") as handle:
        return json.load(handle)


def _inline(value: Any) -> str:
    """A value as it is written in YAML flow style, in backticks."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000).strip()
    if text.endswith("\n...") or text.endswith("..."):
        text = text.rsplit("\n", 1)[0].strip()
    return f"`{text}`"


def units(prop: dict[str, Any]) -> str:
    """What kind of value a property takes, in words."""
    if "x-unit" in prop:
        return str(prop["x-unit"])
    description = str(prop.get("description", ""))
    items = prop.get("items", {})
    if "A length, or a percentage" in description:
        return DIM
    if "A length:" in description and prop.get("type") != "array":
        return LENGTH
    if prop.get("type") == "array" and "A length, or a percentage" in json.dumps(items):
        return f"list of [x, y] points, each a {DIM}"
    if prop.get("type") == "array" and "A length:" in json.dumps(items):
        return "list of lengths (mm, cm, in, pt)"
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    kind = prop.get("type")
    bounds = ""
    if "minimum" in prop and "maximum" in prop:
        bounds = f" from {prop['minimum']} to {prop['maximum']}"
    elif "minimum" in prop:
        bounds = f", at least {prop['minimum']}"
    named = {"boolean": "true or false", "integer": "whole number", "number": "number", "string": "text"}
    if isinstance(kind, str) and kind in named:
        return named[kind] + bounds
    return "value"


def default_of(prop: dict[str, Any]) -> str:
    if "default" in prop:
        return _inline(prop["default"])
    return str(prop.get("x-default", "none"))


def example_of(name: str, prop: dict[str, Any]) -> str:
    return " or ".join(f"`{name}: {_inline(example)[1:-1]}`" for example in prop.get("examples", []))


def _property_block(name: str, prop: dict[str, Any], applies: bool) -> list[str]:
    lines = [f"### `{name}`", "", str(prop.get("description", "")).strip(), ""]
    lines.append(f"- **value:** {units(prop)}")
    lines.append(f"- **default:** {default_of(prop)}")
    if applies:
        lines.append("- **on:** " + ", ".join(f"`{t}`" for t in prop.get("x-applies-to", [])))
    lines.append(f"- **example:** {example_of(name, prop)}")
    lines.append("")
    return lines


def _type_example(kind: str, props: dict[str, dict[str, Any]]) -> str:
    """A one-element example of a type, built from its properties' first examples."""
    element: dict[str, Any] = {"id": f"my_{kind}", "type": kind}
    for name, prop in props.items():
        if name in ("id", "type", "when", "remove", "rotate", "opacity", "cap", "dash", "closed", "preflight"):
            continue
        if kind in prop.get("x-applies-to", []) and prop.get("examples"):
            element[name] = prop["examples"][0]
    return "  - " + yaml.safe_dump(element, default_flow_style=True, sort_keys=False, allow_unicode=True, width=1000).strip()


def guide(schema: dict[str, Any] | None = None) -> str:
    """The whole guide as Markdown."""
    schema = schema or load_schema()
    top: dict[str, dict[str, Any]] = schema["properties"]
    element = schema["$defs"]["element"]["properties"]
    types: list[str] = element["type"]["enum"]
    type_notes: dict[str, str] = element["type"].get("x-enum-descriptions", {})
    out = [INTRO]
    out += ["## The layout file", "", "| key | value | default | example |", "|---|---|---|---|"]
    for name, prop in top.items():
        out.append(f"| `{name}` | {units(prop)} | {default_of(prop)} | {example_of(name, prop)} |")
    out.append("")
    for name, prop in top.items():
        out += [f"- **`{name}`**: {str(prop.get('description', '')).strip()}"]
    out += ["", "## Element types", ""]
    for kind in types:
        own = [name for name, prop in element.items() if kind in prop.get("x-applies-to", [])]
        out += [f"### `{kind}` element", "", type_notes.get(kind, ""), "", "Properties: " + ", ".join(f"[`{n}`](#{n})" for n in own) + ".", ""]
        out += ["```yaml", "elements:", _type_example(kind, element), "```", ""]
    out += ["## Element properties", "", "| property | value | default | on |", "|---|---|---|---|"]
    for name, prop in element.items():
        on = ", ".join(prop.get("x-applies-to", []))
        out.append(f"| [`{name}`](#{name}) | {units(prop)} | {default_of(prop)} | {on} |")
    out.append("")
    for name, prop in element.items():
        out += _property_block(name, prop, applies=True)
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = guide()
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
