"""The colour-blind check judged per design decision, on realistic pieces: a 40-card deck of four suits where
every card has its own name, value and rules text, and six player tokens. A field whose values change only
colours must have values that stay apart under each colour-vision simulation and in grey; one finding per
field, naming each alike pair once. Run through ``punchboard check`` (the CLI) and the check's draw pass."""

from __future__ import annotations

import re
from pathlib import Path

from punchboard.generator.preflight.colours import delta_e
from punchboard.generator.preflight.findings import code_of
from punchboard.generator.preflight.standalone import preflight_game

from punchboard.spec.loader import load_game
from tests.conftest import run_cli

RULES = ["Draw a card.", "Gain two coins.", "Swap with a rival.", "Discard a card.", "Take the lead.",
         "Peek at the deck.", "Steal one coin.", "Skip your turn.", "Play again.", "Pass left."]
NAMES = ["Ace", "Baron", "Courier", "Duke", "Envoy", "Falconer", "Guard", "Herald", "Inventor", "Jester"]

LAYOUT = """\
safe: 3mm
palette: {{hearts: "{hearts}", diamonds: "{diamonds}", spades: "#222222", clubs: "#5dade2"}}
elements:
  - {{id: paper, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}}
  - {{id: title, type: text, x: 4mm, y: 4mm, width: 40mm, height: 8mm, text: "{{name}}", size: 12pt}}
  - {{id: value, type: text, x: 46mm, y: 4mm, width: 10mm, height: 8mm, text: "{{value}}", size: 14pt, align: right}}
  - {{id: emblem, type: icon, icon: {emblem}, x: 18mm, y: 22mm, width: 24mm, height: 24mm, fill: "{{suit}}"}}
  - {{id: rules, type: text, x: 4mm, y: 56mm, width: 52mm, height: 20mm, text: "{{text}}", size: 9pt}}
"""


def _deck(folder: Path, hearts: str, diamonds: str, emblem: str = "hearts") -> Path:
    """A 40-card deck: 4 suits of 10, each card its own name, value and rules text; the emblem is the same
    shape on every card (``emblem: hearts``) or the suit's own (``emblem: "{suit}"``)."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "suit_card.yaml").write_text(
        LAYOUT.format(hearts=hearts, diamonds=diamonds, emblem=emblem), encoding="utf-8")
    cards = []
    for s, suit in enumerate(("hearts", "diamonds", "spades", "clubs")):
        for n in range(10):
            cards.append(f'  - {{name: "{NAMES[n]} of {suit.title()}", value: {n + 1}, suit: {suit}, '
                         f'text: "{RULES[(n + s) % 10]} ({suit} {n + 1})"}}')
    (folder / "game.yaml").write_text("id: suits\ntitle: Suits\nplayers: {min: 2, max: 4}\ncomponents: [deck.yaml]\n",
                                      encoding="utf-8")
    (folder / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: suit_card\n"
                                      "fields: [value, suit, text]\ncards:\n" + "\n".join(cards) + "\n", encoding="utf-8")
    return folder


def _findings(folder: Path) -> list[str]:
    return [w for w in preflight_game(load_game(folder)) if code_of(w) in ("colour_blind", "grayscale")]


def test_suits_told_apart_only_by_red_and_brick_red_are_reported_once(tmp_path: Path):
    folder = _deck(tmp_path / "g", "#c0392b", "#a0402a")
    result = run_cli("check", str(folder))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "preflight colour_blind" in line or "preflight grayscale" in line]
    assert len(lines) == 1, result.stderr  # one decision, one finding
    (line,) = lines
    assert line.startswith("warning: suits / deck: preflight colour_blind: the cards' suit is shown only by colour ('emblem' fill)"), line
    assert "and 1 of 6 pairs of its values look alike" in line, line  # spades (#222222) and clubs (#5dade2) are apart
    assert ("hearts (#c0392b) and diamonds (#a0402a) (1.8 with protanopia, 6.0 with deuteranopia, 6.1 with tritanopia, "
            "4.2 in grey; 6.4 to normal sight)") in line, line
    assert line.count("hearts (#c0392b)") == 1 and line.count("diamonds (#a0402a)") == 1, line  # each pair named once
    assert re.search(r"\[.*layouts/suit_card\.yaml:7:5\]$", line), line  # the emblem element
    hearts, diamonds = (0xc0 / 255, 0x39 / 255, 0x2b / 255), (0xa0 / 255, 0x40 / 255, 0x2a / 255)
    assert f"{delta_e(hearts, diamonds, 'protan'):.1f}" == "1.8"  # the figure is the protanope's view of the two


def test_suits_with_their_own_emblem_or_colours_far_apart_pass(tmp_path: Path):
    assert _findings(_deck(tmp_path / "shape", "#c0392b", "#a0402a", emblem='"{suit}"')) == []  # a shape per suit
    assert _findings(_deck(tmp_path / "far", "#c0392b", "#ffe680")) == []  # red, pale yellow, black, light blue: apart to every eye


def test_a_red_green_pair_at_the_threshold_is_reported_by_its_worst_simulation(tmp_path: Path):
    """#cc331a and #1e781e: ΔE2000 10.25 to a protanope, 9.74 to a deuteranope (49 to a tritanope): the worst
    simulation decides, so the pair is reported, naming deuteranopia and not protanopia."""
    red, green = (0xcc / 255, 0x33 / 255, 0x1a / 255), (0x1e / 255, 0x78 / 255, 0x1e / 255)
    assert 10.0 < delta_e(red, green, "protan") < 10.4 and 9.6 <= delta_e(red, green, "deutan") < 10.0
    (line,) = _findings(_deck(tmp_path / "g", "#cc331a", "#1e781e"))
    assert code_of(line) == "colour_blind"
    assert "hearts (#cc331a) and diamonds (#1e781e) (9.7 with deuteranopia, 1.9 in grey; 62.6 to normal sight)" in line, line


TOKENS_LAYOUT = """\
safe: 1mm
elements:
  - {id: disc, type: ellipse, box: trim, x: 1mm, y: 1mm, width: 23mm, height: 23mm, fill: "{colour}", stroke: "#000000", stroke_width: 0.5mm}
  - {id: meeple, type: icon, icon: knight, box: trim, x: 6mm, y: 6mm, width: 13mm, height: 13mm, fill: "#ffffff"}
"""
PLAYERS = {"Red": "#d62728", "Green": "#2ca02c", "Blue": "#1f77b4", "Orange": "#ff7f0e", "Purple": "#9467bd", "Brown": "#8c564b"}


def test_six_player_colours_are_one_finding_naming_each_pair_once(tmp_path: Path):
    folder = tmp_path / "g"
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "token.yaml").write_text(TOKENS_LAYOUT, encoding="utf-8")
    tokens = "\n".join(f'  - {{name: "{name}", colour: "{hex_}", count: 5}}' for name, hex_ in PLAYERS.items())
    (folder / "game.yaml").write_text("id: six\ntitle: Six\nplayers: {min: 2, max: 6}\ncomponents: [tokens.yaml]\n", encoding="utf-8")
    (folder / "tokens.yaml").write_text(f"id: tokens\nkind: tokens\nsize: {{width: 25mm, height: 25mm}}\nshape: circle\n"
                                        f"layout: token\nfields: [colour]\ntokens:\n{tokens}\n", encoding="utf-8")
    found = _findings(folder)
    assert len(found) == 1, found
    (line,) = found
    assert line.startswith("six / tokens: preflight colour_blind: the tokens' colour is shown only by colour ('disc' fill)"), line
    pairs = re.findall(r"(#[0-9a-f]{6}) and (#[0-9a-f]{6}) \(", line)
    assert pairs and len(pairs) == len(set(pairs)), line  # each pair once
    assert ("#d62728", "#2ca02c") in pairs  # red and green, the classic
    for first, second in pairs:
        assert line.count(f"{first} and {second}") == 1
