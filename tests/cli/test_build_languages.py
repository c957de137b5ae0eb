"""``punchboard build --lang``: a build per language under OUT/<game>/<lang>/, what reads alike drawn once,
findings and reprints per language (issue 44), on the starter game as ``punchboard init`` writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import run_cli

APPRENTICE_DE = "Sieh dir die oberste Karte des Stapels an."


@pytest.fixture()
def starter(tmp_path: Path) -> Path:
    assert run_cli("init", "Duo", cwd=tmp_path).returncode == 0
    return tmp_path / "Duo"


def _text(pdf_path: Path, pages: int | None = None) -> str:
    """The text of the first ``pages`` pages, every space and line break taken out (pdfplumber joins some words)."""
    with pdfplumber.open(pdf_path) as pdf:
        return re.sub(r"\s+", "", "".join(page.extract_text() or "" for page in pdf.pages[:pages]))


def _has(text: str, *phrases: str) -> bool:
    return all(re.sub(r"\s+", "", phrase) in text for phrase in phrases)


def _drew(stdout: str, lang: str) -> set[str]:
    return set(re.findall(rf"drew \S*/duo/{lang}/(\w+)\.pdf", stdout))


def test_all_languages_each_in_its_own_words(starter: Path):
    result = run_cli("build", "--lang", "all", "--out", "out", "-v", cwd=starter)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr  # every card of the starter has its German text, and it fits
    en, de = starter / "out" / "duo" / "en", starter / "out" / "duo" / "de"
    english, german = _text(en / "deck.pdf", 2), _text(de / "deck.pdf", 2)
    assert _has(english, "Take 1", "from the bank.") and not _has(english, "Nimm 1")
    assert _has(german, "Nimm 1", "aus der Bank.") and not _has(german, "from the bank")
    assert _has(_text(de / "duo-print-and-play.pdf", 1), "Inhalt", "Spieler")  # punchboard's own words in German
    assert _has(_text(en / "duo-print-and-play.pdf", 1), "Contents", "players")
    # the coins and the board read alike in both languages: drawn for en, taken by de, byte for byte
    assert _drew(result.stdout, "en") == {"deck", "coins", "board"}
    assert _drew(result.stdout, "de") == {"deck"}
    for name in ("coins.pdf", "board.pdf"):
        assert (de / name).read_bytes() == (en / name).read_bytes()


def test_taken_parts_are_the_parts_drawn(starter: Path):
    """A component taken from another language's build is the file a forced build of that language draws."""
    assert run_cli("build", "--out", "out", cwd=starter).returncode == 0
    taken = run_cli("build", "--lang", "de", "--out", "out", "-v", cwd=starter)
    assert taken.returncode == 0, taken.stderr
    assert _drew(taken.stdout, "de") == {"deck"}, taken.stdout
    drawn = run_cli("build", "--lang", "de", "--out", "fresh", "--force", cwd=starter)
    assert drawn.returncode == 0, drawn.stderr
    for name in ("coins.pdf", "board.pdf", "deck.pdf", "duo-print-and-play.pdf"):
        assert (starter / "out/duo/de" / name).read_bytes() == (starter / "fresh/duo/de" / name).read_bytes(), name


def test_overflow_in_one_language_is_said_for_that_language(starter: Path):
    cards = starter / "cards.csv"
    long_german = " ".join(["Donaudampfschifffahrtsgesellschaftskapitänsmütze"] * 12)
    cards.write_text(cards.read_text(encoding="utf-8").replace(APPRENTICE_DE, long_german), encoding="utf-8")
    result = run_cli("build", "--lang", "all", "--out", "out", cwd=starter)
    assert result.returncode == 0, result.stderr
    fits = [line for line in result.stderr.splitlines() if "does not fit" in line]
    assert fits and all(line.endswith("(in de)") for line in fits), result.stderr
    assert "Apprentice" in fits[0]


def test_a_missing_translation_falls_back_with_a_located_warning(starter: Path):
    cards = starter / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(APPRENTICE_DE, ""), encoding="utf-8")
    default = run_cli("build", "--out", "out", cwd=starter)
    assert default.returncode == 0 and "warning" not in default.stderr  # the source language misses nothing
    result = run_cli("build", "--lang", "de", "--out", "out", cwd=starter)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "has no text@de" in line]
    assert len(lines) == 1 and re.match(r"warning: cards\.csv:3:\d+: 'Apprentice' has no text@de; the en text is used", lines[0])
    assert _has(_text(starter / "out/duo/de/deck.pdf"), "Look at the top card of the deck.")


def test_a_german_edit_reprints_that_card_in_german_only(starter: Path):
    assert run_cli("build", "--lang", "all", "--out", "out", cwd=starter).returncode == 0
    cards = starter / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(APPRENTICE_DE, "Sieh dir die oberste Karte an."),
                     encoding="utf-8")
    result = run_cli("build", "--lang", "all", "--out", "out", "--changed-since", "last", cwd=starter)
    assert result.returncode == 0, result.stderr
    assert "nothing changed since print 1: nothing to reprint (out/duo/en/" in result.stdout
    assert re.search(r"reprint since print 1: 3 piece\(s\) to print → out/duo/de/duo-reprint\.pdf", result.stdout)
    reprint = _text(starter / "out/duo/de/duo-reprint.pdf")
    assert _has(reprint, "Sieh dir die oberste Karte an.")
    assert reprint.count("Apprentice") >= 3 and "Guard" not in reprint and "Hatchling" not in reprint


def test_a_language_the_game_is_not_written_in_is_refused(starter: Path):
    result = run_cli("build", "--lang", "fr", "--out", "out", cwd=starter)
    assert result.returncode == 2
    assert result.stderr.strip() == "punchboard build: --lang fr: game 'duo' is written in en, de"
    assert not (starter / "out").exists() or not any((starter / "out").rglob("*.pdf"))
    bundled = run_cli("build", "steam_court", "--lang", "de", "--out", str(starter / "other"))
    assert bundled.returncode == 2 and "written in no languages" in bundled.stderr
    assert "Traceback" not in result.stderr + bundled.stderr


def test_the_same_bytes_whatever_the_order_of_builds(starter: Path):
    """Taking from another language's build or drawing gives the same files: --lang all from nothing, twice."""
    for out in ("one", "two"):
        assert run_cli("build", "--lang", "all", "--out", out, cwd=starter).returncode == 0
    for path in sorted((starter / "one").rglob("*.pdf")):
        assert path.read_bytes() == (starter / "two" / path.relative_to(starter / "one")).read_bytes(), path


def test_a_polish_text_its_font_cannot_write_is_refused_before_anything_is_built(tmp_path: Path):
    from tests.generator.test_glyphs import _game

    game = _game(tmp_path / "g", "Regent,Rules the court,Rządzi dworem\nGuard,Guards,Pilnuje\n",
                 languages="languages: [en, pl]\n", header="name,text,text@pl")
    result = run_cli("build", str(game), "--lang", "all", "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"{game}/cards.csv:2:24: 'Regent' text uses ą, which font 'Title' (Testa.otf) "
                             "does not have (in pl)\n")
    assert not list((tmp_path / "out").rglob("*.pdf"))  # not even the English files: the build is refused whole
    english = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
    assert english.returncode == 0 and english.stderr == "", english.stderr


def test_check_reads_every_translation_as_its_build_draws_it(starter: Path):
    cards = starter / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("Nimm 1 :coin: aus der Bank.", "[size=4]Nimm 1 :coin: aus der Bank.[/size]", 1)
    cards.write_text(text.replace(",Spiele in diesem Zug eine weitere Karte.", ",", 1), encoding="utf-8")
    result = run_cli("check", cwd=starter)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert any(re.match(r"warning: cards\.csv:5:\d+: 'Spark' has no text@de; the en text is used \(in de\)$", w)
               for w in lines), result.stderr
    small = [w for w in lines if "small_text" in w]
    assert len(small) == 1 and "'Guard'" in small[0] and "4 pt" in small[0] and small[0].endswith("(in de)")
    only_en = run_cli("check", "--lang", "en", cwd=starter)
    assert only_en.returncode == 0 and only_en.stderr == ""
    assert run_cli("check", "--lang", "fr", cwd=starter).returncode == 2


def test_images_tts_and_preview_take_the_language_too(starter: Path):
    from PIL import Image, ImageChops

    result = run_cli("images", "--lang", "all", "--dpi", "40", "--out", "out", cwd=starter)
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    assert "141 images in out/duo/en/images" in result.stdout and "141 images in out/duo/de/images" in result.stdout
    en, de = starter / "out/duo/en/images", starter / "out/duo/de/images"
    names = sorted(p.relative_to(en) for p in en.rglob("*.png"))
    assert names == sorted(p.relative_to(de) for p in de.rglob("*.png"))

    def differs(name: Path) -> bool:
        with Image.open(en / name) as a, Image.open(de / name) as b:
            return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None

    changed = {name.parts[0] for name in names if differs(name)}
    assert changed == {"deck"}  # only the cards carry translated text; their backs and the coins read alike
    assert not differs(next(name for name in names if name.parts[0] == "deck" and name.name.endswith("-back.png")))
    for verb, folder in (("tts", "tts"), ("preview", "preview")):
        done = run_cli(verb, "--lang", "de", "--out", "out", "--quiet", cwd=starter)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert any((starter / "out/duo/de" / folder).iterdir()) and not (starter / "out/duo" / folder).exists()
    assert run_cli("images", "--lang", "fr", "--out", "out", cwd=starter).returncode == 2
