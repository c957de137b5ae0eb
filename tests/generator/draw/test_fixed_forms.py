"""A layout's fixed elements (generator/draw/fixed_forms.py): drawn once per document as a form every side places.

The deck is built through the CLI as a designer builds it, and again with no element taken as fixed (a
subprocess that turns the runs off, as punchboard drew before them): the pages must look exactly the same,
the print recorded must be the same, and the file much smaller.
"""

from __future__ import annotations

import marshal
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pypdfium2 as pdfium
import pytest
from punchboard.generator.draw import fixed_forms
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.incremental.sealed import read_sealed_strict, write_sealed
from punchboard.spec.model import Element
from tests.conftest import ROOT, run_cli
from tests.generator.test_kept_sides import _deck, _edit, _same_as_clean
from tests.print_records import read_record

NO_RUNS = """\
import sys
from punchboard.generator.draw import fixed_forms
fixed_forms.fixed = lambda layout, own: (False,) * len(layout.elements)
sys.argv = ["punchboard", *sys.argv[1:]]
from punchboard.command import run
run()
"""


def _build_without_runs(game: Path, out: Path) -> None:
    result = subprocess.run([sys.executable, "-c", NO_RUNS, "build", str(game), "--out", str(out), "--jobs", "1"],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr


def _renders(pdf: Path) -> list[bytes]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [document[n].render(scale=2).to_pil().tobytes() for n in range(len(document))]
    finally:
        document.close()


def _pieces(out: Path) -> object:
    last = max((out / "kept" / "prints").glob("*.json"))
    return read_record(out / "kept", int(last.stem))["pieces"]


def _run_forms(pdf: Path) -> tuple[dict[str, int], list[list[str]]]:
    """Each run form's object number by name, and the run forms each side form places."""
    forms: dict[str, int] = {}
    placed: list[list[str]] = []
    for page in PdfReader(pdf).pages:
        for ref in page["/Resources"]["/XObject"].values():
            side = ref.get_object()
            inner = side["/Resources"].get("/XObject", {})
            names = []
            for name, run in inner.items():
                assert name.startswith("/FormXob.PBRun"), name
                assert forms.setdefault(name, run.idnum) == run.idnum, f"{name} is two objects"
                names.append(name)
            for name in names:
                assert f"{name} Do".encode() in side.get_data(), f"a side lists {name} but does not place it"
            placed.append(names)
    return forms, placed


def test_a_decks_frame_and_art_are_drawn_once_and_every_page_looks_the_same(tmp_path: Path):
    game = _deck(tmp_path, 27)
    out, plain = tmp_path / "out", tmp_path / "plain"
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    _build_without_runs(game, plain)
    deck, plain_deck = out / "kept" / "deck.pdf", plain / "kept" / "deck.pdf"
    forms, placed = _run_forms(deck)
    assert not _run_forms(plain_deck)[0], "the build without runs placed a run form"
    # a number, a special and a dual card each show their own fixed elements: a few forms for the whole deck
    assert 3 <= len(forms) <= 12
    assert sum(1 for names in placed if names) >= 27, "a face that shows the frame does not place its form"
    assert deck.stat().st_size < 0.5 * plain_deck.stat().st_size
    assert _renders(deck) == _renders(plain_deck)
    assert _renders(out / "kept" / "kept-print-and-play.pdf") == _renders(plain / "kept" / "kept-print-and-play.pdf")
    assert _pieces(out) == _pieces(plain), "the print fingerprints changed"


TRANSLUCENT = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#224466"}
  - {id: frame, type: icon, icon: frame, x: 2mm, y: 2mm, width: 59.5mm, height: 84.9mm, fill: "#b8893a", stroke: "#a4532b"}
  - {id: name, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "{name}", font: Vera-Bold, size: 14pt, align: center}
  - {id: veil, type: rect, x: 10%, y: 70%, width: 80%, height: 20%, fill: "#ffffff80"}
  - {id: gear, type: icon, icon: gear, x: 30%, y: 72%, width: 40%, height: 15%, fill: "#e2c27d"}
"""


def test_a_run_that_names_a_transparency_state_is_drawn_with_its_side(tmp_path: Path):
    """The veil's colour carries an alpha (a transparency state, which reportlab names in order of use): its
    run is drawn into each side; the run before the name is a form."""
    game = tmp_path / "game"
    (game / "layouts").mkdir(parents=True)
    (game / "layouts" / "veiled.yaml").write_text(TRANSLUCENT, encoding="utf-8")
    (game / "game.yaml").write_text("id: veiled\ntitle: Veiled\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n",
                                    encoding="utf-8")
    (game / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: veiled\nback: none\n"
                                    "cards:\n  - {name: Alpha, count: 2}\n  - {name: Beta}\n  - {name: Gamma}\n",
                                    encoding="utf-8")
    out, plain = tmp_path / "out", tmp_path / "plain"
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    _build_without_runs(game, plain)
    deck = out / "veiled" / "deck.pdf"
    forms, placed = _run_forms(deck)
    assert len(forms) == 1 and all(len(names) == 1 for names in placed)
    for page in PdfReader(deck).pages:
        for ref in page["/Resources"]["/XObject"].values():
            side = ref.get_object()
            used = set(re.findall(rb"/(gRLs\d+) gs", side.get_data()))
            assert used, "the veil is not drawn in its side"
            assert {u.decode() for u in used} <= {k.lstrip("/") for k in side["/Resources"].get("/ExtGState", {})}
    assert _renders(deck) == _renders(plain / "veiled" / "deck.pdf")


def _element(kind: str, **props: object) -> Element:
    return Element(kind, "e", props, "layout.yaml:1:1")


def test_what_is_fixed():
    layout = SimpleNamespace(elements=(
        _element("rect", fill="brass"),
        _element("rect", fill="brass", when="kind == 'number'"),  # whether it shows is the side's business
        _element("rect", fill="{colour}"),  # reads a field
        _element("rect", fill="brass", opacity=0.5),  # a transparency state
        _element("icon", icon="gear"),
        _element("icon", icon="{suit}"),
        _element("icon", icon="castle"),  # not one of punchboard's icons
        _element("text", text="Steam Court"),  # text names a font
        _element("icon", icon="frame"),
    ))
    assert fixed_forms.fixed(layout, {}) == (True, True, False, False, True, False, False, False, True)  # type: ignore[arg-type]
    # the game's own picture for a built-in icon's name is drawn from its file
    assert fixed_forms.fixed(layout, {"gear": Path("gear.svg")})[4] is False  # type: ignore[arg-type]


def test_runs_are_cut_by_what_is_shown_and_not_fixed():
    flags = (True, True, False, True, True, True, False)
    assert fixed_forms.runs(flags, (True,) * 7) == ((0, 1), (3, 4, 5))
    # a hidden element draws nothing and cuts nothing; a hidden fixed one leaves its run
    assert fixed_forms.runs(flags, (True, True, False, True, False, True, True)) == ((0, 1, 3, 5),)
    assert fixed_forms.runs(flags, (False,) * 7) == ()


def _drawing_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the runs drawn (on the scratch canvas, to be written into a form or a side) by in-process builds."""
    drawn: list[int] = []
    real = fixed_forms._drawn

    def counting(draw):  # type: ignore[no-untyped-def]
        drawn.append(1)
        return real(draw)

    monkeypatch.setattr(fixed_forms, "_drawn", counting)
    return drawn


def test_a_rebuild_takes_its_run_forms_as_the_last_build_kept_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A one-card edit redraws the first sheet (it gives the document its fonts): its sides are replayed, and the
    run forms they place are taken from ``<component>.runs``, not drawn. A file kept under another salt (other
    code, options or palette) is not used."""
    game = _deck(tmp_path, 12)
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    runs_file = out / "kept" / ".punchboard-sides" / "deck.runs"
    head, salt, runs = marshal.loads(read_sealed_strict(runs_file))
    placed = {name.removeprefix("/FormXob.") for name in _run_forms(out / "kept" / "deck.pdf")[0]}
    assert set(runs) == placed and placed
    drawn = _drawing_runs(monkeypatch)
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("Card 1,", "Card 1 (tweaked),"), *rows[1:]])
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    kept = len(drawn)
    # only the edited card's runs are drawn: its face on its page, and (the 12 cards print 6-up with the full bleed,
    # so its backs' page is copied) its back alone, for its print fingerprint
    assert 1 <= kept <= 4, "only the edited card's runs are drawn"
    _same_as_clean(game, out, tmp_path / "clean")
    runs_file.unlink()  # without it, the first sheet's replayed sides draw the run forms they place
    drawn.clear()
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("(tweaked)", "(tweaked again)"), *rows[1:]])
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    assert len(drawn) > kept
    _same_as_clean(game, out, tmp_path / "clean1")
    head, salt, runs = marshal.loads(read_sealed_strict(runs_file))
    write_sealed(runs_file, marshal.dumps((head, "another salt", {name: (b"not this", filters) for name, (_, filters)
                                                                 in runs.items()})))
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("(tweaked again)", "(again)"), *rows[1:]])
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    _same_as_clean(game, out, tmp_path / "clean2")
