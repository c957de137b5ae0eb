"""A game with one of each preflight flaw, written into a tmp folder for tests that run the CLI on real files.

Two cards, 'Red Five' and 'Green Five', alike but for the colour of their value
(matplotlib's red and green: ΔE2000 5.0 apart to a deuteranope, 10.9 in grey).
Their shared layout has a 120-dpi picture, 5-pt text, a 0.1-pt hairline and
grey text on a grey panel; everything else is clean (inside the safe zone,
black on white, strokes of 0.5 pt), so each flaw gives exactly one finding.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

GAME = """\
id: flawed
title: Flawed
players: {min: 2, max: 4}
components: [cards.yaml]
"""

CARDS = """\
id: cards
kind: deck
size: poker
layout: flawed
fields: [value, colour]
cards:
  - {name: Red Five, value: 5, colour: "#d62728"}
  - {name: Green Five, value: 5, colour: "#2ca02c"}
"""

# Each flaw on its own line, so a test can swap it for its fix.
FLAWS = {
    "low_dpi": "  - {id: art, type: image, src: art.png, box: trim, x: 8mm, y: 8mm, width: 40mm, height: 30mm, fit: stretch}",
    "small_text": '  - {id: rules, type: text, box: trim, x: 8mm, y: 54mm, width: 45mm, height: 6mm, text: "Tiny rules text", size: 5pt}',
    "thin_stroke": '  - {id: hairline, type: line, box: trim, x1: 8mm, y1: 62mm, x2: 55mm, y2: 62mm, stroke: "#000000", stroke_width: 0.1pt}',
    "low_contrast": '  - {id: faint, type: text, box: trim, x: 10mm, y: 68mm, width: 43mm, height: 10mm, text: "Grey on grey", size: 10pt, color: "#777777"}',
    "colour_blind": '  - {id: value, type: text, box: trim, x: 8mm, y: 40mm, width: 30mm, height: 12mm, text: "{value}", font: Vera-Bold, size: 24pt, color: "{colour}"}',
}
ELEMENTS = {"low_dpi": "art", "small_text": "rules", "thin_stroke": "hairline", "low_contrast": "faint", "colour_blind": "value"}
FIXES = {
    "low_dpi": FLAWS["low_dpi"].replace("width: 40mm, height: 30mm", "width: 16mm, height: 12mm"),  # 300 dpi at this size
    "small_text": FLAWS["small_text"].replace("size: 5pt", "size: 7pt"),
    "thin_stroke": FLAWS["thin_stroke"].replace("0.1pt", "0.5pt"),
    "low_contrast": FLAWS["low_contrast"].replace("#777777", "#000000"),
    "colour_blind": FLAWS["colour_blind"].replace('text: "{value}"', 'text: "{value} {colour}"'),  # a difference besides colour
}

LAYOUT = """\
safe: 3mm
elements:
  - {id: paper, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
@low_dpi@
@colour_blind@
@small_text@
@thin_stroke@
  - {id: panel, type: rect, box: trim, x: 8mm, y: 66mm, width: 47mm, height: 14mm, fill: "#888888"}
@low_contrast@
"""


def write_game(folder: Path, fixed: tuple[str, ...] = (), extra: dict[str, str] | None = None) -> Path:
    """The game; flaws named in ``fixed`` are written fixed, ``extra`` adds properties to an element by id."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layouts").mkdir(exist_ok=True)
    lines = {code: (FIXES if code in fixed else FLAWS)[code] for code in FLAWS}
    for element_id, more in (extra or {}).items():
        code = next(c for c, e in ELEMENTS.items() if e == element_id)
        lines[code] = lines[code][:-1] + f", {more}}}"
    layout = LAYOUT
    for code, line in lines.items():
        layout = layout.replace(f"@{code}@", line)
    (folder / "layouts" / "flawed.yaml").write_text(layout, encoding="utf-8")
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    # 189 × 142 px over 40 × 30 mm is 120 dpi; over 16 × 12 mm, 300 dpi
    Image.new("RGB", (189, 142), (90, 120, 200)).save(folder / "art.png")
    return folder
