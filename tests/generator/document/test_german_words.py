"""punchboard's own words in German, read back from the PDFs and files that carry them.

The cover, the bill-of-materials page and the swap list are drawn for a bundled game with ``lang="de"``
(what ``build --lang de`` passes them) and their text is read back with pdfplumber; ``punchboard bom
--lang de`` is run as a user runs it. English stays the default: the same pages without ``lang`` read
English.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.document.bom_page import bom_page, planned_bom
from punchboard.generator.document.cover import ContentsLine, cover_page
from punchboard.generator.document.pages import render
from punchboard.generator.document.swap_page import SwapLine, swap_pages
from punchboard.generator.impose.paper_use import build_style
from punchboard.generator.options import BuildOptions

from punchboard.api import load_game
from punchboard.spec.loader import load_paper
from tests.conftest import run_cli


def _text(pdf: bytes) -> str:
    with pdfplumber.open(BytesIO(pdf)) as document:
        return "\n".join(page.extract_text() or "" for page in document.pages)


def _squashed(content: str) -> str:
    """Text with its line breaks and spaces taken out: wrapped lines read back as one."""
    return "".join(content.split())


@pytest.fixture(scope="module")
def front() -> dict[str, str]:
    """The steam_court cover and bill of materials, drawn in German and in English (no lang)."""
    game = load_game("steam_court")
    options = BuildOptions(paper="a4", backs="duplex-long")
    paper, style = load_paper(options.paper), build_style(options)
    contents = [ContentsLine(c.name, c.kind, c.count, 3, f"{c.id}.pdf", (4, 6)) for c in game.printed]
    bom = planned_bom(game, options)
    found = {}
    for lang in ("de", None):
        pages = [cover_page(game, paper, style, options, contents, ((3, 8), (9, 9)), lang=lang),
                 bom_page(bom, paper.width, paper.height, 20, style.footer_height, lang=lang)]
        found[lang or "default"] = _text(render(pages, game.title, style, "print and play"))
    return found


def test_the_cover_reads_german(front: dict[str, str]):
    text, flat = front["de"], _squashed(front["de"])
    for heading in ("Inhalt", "Zugekauftes Material", "Drucken"):
        assert heading in text
    assert "3 Seiten: 4–6" in text
    assert "168 Karten" in text  # the gear deck: 168 cards
    assert "Spieler · Print-and-Play" in text
    assert _squashed("In 100 % / tatsächlicher Größe drucken") in flat
    assert _squashed("Seiten 3–8 beidseitig drucken, über die lange Kante wenden") in flat
    assert _squashed("Seite 9 einseitig drucken") in flat
    assert "Contents" not in text and "Printing" not in text


def test_the_bill_of_materials_reads_german_with_german_numbers(front: dict[str, str]):
    text = front["de"]
    assert "Steam Court — Materialliste" in text
    assert "Gedruckte Komponenten" in text
    assert "Flächengrenze" in text and "Komponente" in text
    assert "Kartenstapel, beidseitig" in text
    assert "23,63" in text  # the game's area bound, with a decimal comma
    assert "23.63" not in text
    assert "bill of materials" not in text
    assert "Steam Court · Materialliste · Seite 2/2" in text  # the footer too
    assert "Steam Court · Inhalt · Seite 1/2" in text


def test_without_a_language_the_same_pages_read_english(front: dict[str, str]):
    text = front["default"]
    for words in ("Contents", "Bought supplies", "Printing", "bill of materials", "Printed components", "23.63"):
        assert words in text
    assert "Inhalt" not in text


def test_the_swap_list_reads_german():
    game = load_game("steam_court")
    options = BuildOptions(paper="a4", backs="duplex-long")
    paper, style = load_paper(options.paper), build_style(options)
    lines = [SwapLine("face", 2, "The Queen", "Character cards", "Vorderseite"),
             SwapLine("removed", 1, "The Jester", "Character cards", "herausnehmen")]
    text = _text(render(swap_pages(game.title, "Druck 2 verglichen mit Druck 1", lines, "", paper, style, "de"),
                        game.title, style, "reprint"))
    assert "Nachdruck: Steam Court" in text
    assert "2 Teil(e) zum Drucken auf den folgenden Seiten; 1 aus der Schachtel zu nehmen." in text
    assert "Austauschen: diese drucken" in text and "Herausnehmen: Teile, die nicht mehr zum Spiel gehören" in text
    assert "was sich geändert hat" in text


def test_bom_command_in_german(tmp_path: Path):
    result = run_cli("bom", "steam_court", "--paper", "a4", "--lang", "de", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Steam Court (steam_court) — Materialliste\n")
    assert "Papier a4, Rückseiten duplex-long: 32 Blatt, Flächengrenze 23,63 (mindestens 24, 8 darüber)" in result.stdout
    assert "Gedruckte Komponenten" in result.stdout and "Zugekauftes Material" in result.stdout
    markdown = (tmp_path / "bom.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Steam Court: Materialliste\n")
    assert "| Anzahl | Komponente | Art | Seiten | Blatt | Flächengrenze | darüber | Aufteilung |" in markdown
    english = run_cli("bom", "steam_court", "--paper", "a4", "--lang", "xx")
    assert english.returncode == 0, english.stderr
    assert "Paper a4, backs duplex-long: 32 sheets, area bound 23.63 (at least 24, 8 over)" in english.stdout


def test_a_game_in_german_writes_its_cover_and_bill_in_german_without_being_told(tmp_path: Path):
    """The starter declares languages: [en, de]; its model in German (what build --lang de draws from)
    carries language "de", and the front pages take it from there."""
    from punchboard.spec.languages import in_language

    assert run_cli("init", "starter", cwd=tmp_path).returncode == 0
    english = load_game(tmp_path / "starter")
    german = in_language(english, "de")
    options = BuildOptions(paper="a4", backs="duplex-long")
    paper, style = load_paper(options.paper), build_style(options)
    for game, words in ((german, ("Inhalt", "Materialliste", "Zugekauftes Material")), (english, ("Contents", "bill of materials"))):
        contents = [ContentsLine(c.name, c.kind, c.count, 1, f"{c.id}.pdf") for c in game.printed]
        bom = planned_bom(game, options)
        assert bom.get("language") == ("de" if game is german else None)
        pages = [cover_page(game, paper, style, options, contents), bom_page(bom, paper.width, paper.height, 20, style.footer_height)]
        text = _text(render(pages, game.title, style, "print and play"))
        assert all(word in text for word in words), text


def test_the_duplex_calibration_sheet_reads_german_and_keeps_its_offsets_as_the_option_takes_them():
    from punchboard.generator.document.calibration import calibration_pages

    options = BuildOptions(paper="a4", backs="duplex-long")
    paper, style = load_paper(options.paper), build_style(options)
    pages = calibration_pages(paper, style, "duplex-long", "de")
    text = _text(render(pages, "Steam Court", style, "duplex calibration"))
    assert "Duplex-Kalibrierung (duplex-long)" in text
    assert "dessen X,Y an --duplex-offset übergeben" in text
    assert "Steam Court · Duplex-Kalibrierung · Seite 1/2" in text
    assert "+0.0,+0.0" in text  # --duplex-offset 0.5,-1.0 takes a point, so the cells keep it
    with pdfplumber.open(BytesIO(render(pages, "Steam Court", style, "x"))) as document:
        line = next(c for c in document.pages[0].chars if c["text"] == "B")  # "Beide Seiten …": on the page
        assert line["x0"] >= 0
        assert max(c["x1"] for c in document.pages[0].chars if abs(c["top"] - line["top"]) < 1) <= paper.width


def test_a_reprint_of_the_german_model_writes_its_swap_list_in_german(tmp_path: Path):
    """What build --lang de --changed-since last does with the German model: the swap list, its notes and the
    backs' component name in German (one German text changed: one card to swap)."""
    from punchboard.api import build
    from punchboard.spec.languages import in_language

    assert run_cli("init", "starter", cwd=tmp_path).returncode == 0
    folder, out = tmp_path / "starter", tmp_path / "out"
    build(in_language(load_game(folder), "de"), out, record_print=True)
    cards = folder / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert text.count("Spiele in diesem Zug eine weitere Karte.") == 1
    cards.write_text(text.replace("Spiele in diesem Zug eine weitere Karte.", "Spiele sofort eine weitere Karte."), encoding="utf-8")
    build(in_language(load_game(folder), "de"), out, record_print=True, changed_since="last")
    reprint = next(out.rglob("*-reprint.pdf"))
    found = _text(reprint.read_bytes())
    assert "Nachdruck: " in found
    assert "Druck 2 verglichen mit Druck 1" in found
    assert "Austauschen: diese drucken, ausschneiden und an die Stelle der alten legen (4)" in found  # Spark: 4 copies
    assert "Vorderseite" in found and "Reprint" not in found


def test_the_german_column_labels_of_the_bill_keep_apart():
    """'Flächengrenze' is wider than its column at the labels' size: it is set smaller, clear of 'Blatt'."""
    game = load_game("steam_court")
    options = BuildOptions(paper="a4", backs="duplex-long")
    paper, style = load_paper(options.paper), build_style(options)
    pdf = render([bom_page(planned_bom(game, options), paper.width, paper.height, 20, style.footer_height, lang="de")],
                 game.title, style, "x")
    with pdfplumber.open(BytesIO(pdf)) as document:
        words = document.pages[0].extract_words()
    bound = next(w for w in words if w["text"] == "Flächengrenze")
    row = sorted((w for w in words if abs(w["top"] - bound["top"]) < 2), key=lambda w: w["x0"])
    assert [w["text"] for w in row] == ["Teile", "Blatt", "Flächengrenze", "Seiten", "Komponente"]
    assert all(left["x1"] < right["x0"] for left, right in zip(row, row[1:], strict=False))
