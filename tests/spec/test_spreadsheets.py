"""Card lists where designers keep them: a CSV, an .xlsx sheet, a published CSV link (served here on 127.0.0.1)."""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pdfplumber
from openpyxl import Workbook

from tests.conftest import run_cli

GAME = "id: sheets\ntitle: Sheets\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n"
DECK = "id: deck\nkind: deck\nsize: bridge\nlayout: base/card\nback: none\nfields: [value, text]\nTABLE\n"
ROWS = [["name", "value", "text", "count"], ["Owl", 3, "Flies", 2], ["Cog", 1.5, "", 1], ["Spring", 12, "Jumps high", 1]]
CSV = "name,value,text,count\nOwl,3,Flies,2\nCog,1.5,,1\nSpring,12,Jumps high,1\n"


def _game(folder: Path, table: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK.replace("TABLE", table))
    (folder / "cards.csv").write_text(CSV)
    book = Workbook()
    book.active.title = "Notes"
    book.active.append(["this sheet is not the deck"])
    deck = book.create_sheet("Deck")
    for row in ROWS:
        deck.append([None if cell == "" else cell for cell in row])
    book.save(folder / "cards.xlsx")
    return folder


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves files (answering If-Modified-Since with 304 when unchanged) and records each answer's status."""

    statuses: list[int]

    def log_message(self, *args: object) -> None:
        pass

    def send_response(self, code: int, message: str | None = None) -> None:
        self.statuses.append(code)
        super().send_response(code, message)


@contextmanager
def _serving(folder: Path, statuses: list[int] | None = None) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 serving ``folder``; yields its base URL. ``statuses`` collects its answers."""
    handler_class = type("Handler", (_Handler,), {"statuses": statuses if statuses is not None else []})
    handler = functools.partial(handler_class, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _build(game: Path, out: Path):  # type: ignore[no-untyped-def]
    return run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet")


def test_an_xlsx_sheet_and_a_published_csv_link_give_the_same_cards_as_the_csv(tmp_path: Path):
    published = tmp_path / "published"
    published.mkdir()
    (published / "deck.csv").write_text(CSV)
    plain = _game(tmp_path / "csv" / "sheets", "csv: cards.csv")
    sheet = _game(tmp_path / "xlsx" / "sheets", "table: {file: cards.xlsx, sheet: Deck}")
    with _serving(published) as base:
        link = _game(tmp_path / "url" / "sheets", f"csv: {base}/deck.csv")
        results = {name: _build(game, tmp_path / f"out-{name}") for name, game in (("csv", plain), ("xlsx", sheet), ("url", link))}
    for name, result in results.items():
        assert result.returncode == 0, (name, result.stderr)
        assert "warning" not in result.stderr, (name, result.stderr)
    pdfs = {name: (tmp_path / f"out-{name}" / "sheets" / "deck.pdf").read_bytes() for name in results}
    assert pdfs["xlsx"] == pdfs["csv"]  # the same cards, fields and counts draw the same bytes
    assert pdfs["url"] == pdfs["csv"]
    boms = {name: json.loads((tmp_path / f"out-{name}" / "sheets" / "bom.json").read_text()) for name in results}
    assert boms["xlsx"] == boms["csv"] == boms["url"]
    # the link's copy is kept inside the output folder, with the time it was fetched
    (stamp,) = (tmp_path / "out-url" / ".sheets").glob("*.json")
    assert json.loads(stamp.read_text())["url"] == f"{base}/deck.csv"
    assert json.loads(stamp.read_text())["fetched"].endswith("Z")
    assert stamp.with_suffix(".csv").read_text() == CSV


def test_offline_a_link_is_read_from_its_cached_copy_with_a_warning(tmp_path: Path):
    published = tmp_path / "published"
    published.mkdir()
    (published / "deck.csv").write_text(CSV)
    out = tmp_path / "out"
    with _serving(published) as base:
        game = _game(tmp_path / "url" / "sheets", f"table: {{url: '{base}/deck.csv', timeout: 5}}")
        first = _build(game, out)
    assert first.returncode == 0, first.stderr
    before = (out / "sheets" / "deck.pdf").read_bytes()
    (out / "sheets" / "deck.pdf").unlink()
    offline = _build(game, out)  # the server is gone
    assert offline.returncode == 0, offline.stderr
    assert f"warning: {game / 'deck.yaml'}:7:14: could not fetch {base}/deck.csv (" in offline.stderr
    assert "using the copy fetched at 20" in offline.stderr and ".sheets" in offline.stderr
    assert (out / "sheets" / "deck.pdf").read_bytes() == before
    # with no cached copy it is an error at the link, not an empty deck
    fresh = _build(game, tmp_path / "elsewhere")
    assert fresh.returncode == 2
    assert fresh.stderr.startswith(f"{game / 'deck.yaml'}:7:14: could not fetch {base}/deck.csv (")
    assert "and there is no cached copy in" in fresh.stderr


def test_a_web_page_instead_of_csv_is_refused(tmp_path: Path):
    published = tmp_path / "published"
    published.mkdir()
    (published / "deck.html").write_text("<html><body>Sign in</body></html>")
    with _serving(published) as base:
        game = _game(tmp_path / "url" / "sheets", f"csv: {base}/deck.html")
        result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"url/sheets/deck.yaml:7:6: {base}/deck.html returned a web page, not CSV; expected a "
                             "published CSV link (Google Sheets: File → Share → Publish to web → CSV)\n")


def test_problems_in_a_sheet_point_at_its_row_and_column(tmp_path: Path):
    game = _game(tmp_path / "xlsx" / "sheets", "table: {file: cards.xlsx, sheet: Deck}")
    book = Workbook()
    deck = book.active
    deck.title = "Deck"
    for row in (["name", "value", "colour"], ["Owl", 3, "red"]):
        deck.append(row)
    book.create_sheet("Counts").append(["name", "count"])
    book["Counts"].append(["Owl", -1])
    book.save(game / "cards.xlsx")
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("xlsx/sheets/cards.xlsx[Deck]:1:3: unknown column 'colour'; expected one of count, name, text, value")
    (game / "deck.yaml").write_text(DECK.replace("TABLE", "table: {file: cards.xlsx, sheet: Counts}"))
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.stderr == "xlsx/sheets/cards.xlsx[Counts]:2:2: count must be a positive integer, got -1\n"
    (game / "deck.yaml").write_text(DECK.replace("TABLE", "table: {file: cards.xlsx, sheet: Dekc}"))
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.stderr == "xlsx/sheets/deck.yaml:7:34: no sheet 'Dekc' in cards.xlsx (did you mean 'Deck'?); the workbook has Deck, Counts\n"


def test_an_unchanged_link_is_not_downloaded_again_and_a_changed_one_is(tmp_path: Path):
    published = tmp_path / "published"
    published.mkdir()
    sheet = published / "deck.csv"
    sheet.write_text(CSV)
    os.utime(sheet, (1_700_000_000, 1_700_000_000))
    out = tmp_path / "out"
    statuses: list[int] = []
    with _serving(published, statuses) as base:
        game = _game(tmp_path / "url" / "sheets", f"csv: {base}/deck.csv")
        first = _build(game, out)
        assert first.returncode == 0, first.stderr
        again = _build(game, out)
        assert again.returncode == 0 and "warning" not in again.stderr, again.stderr
        assert "rendered nothing" in run_cli("build", str(game), "--out", str(out), "--backs", "none").stdout
        assert statuses == [200, 304, 304]  # the later commands only asked whether it changed
        sheet.write_text(CSV.replace("Flies", "Soars"))
        os.utime(sheet, (1_700_000_100, 1_700_000_100))
        changed = _build(game, out)
        assert changed.returncode == 0, changed.stderr
        assert statuses == [200, 304, 304, 200]
        # a cached copy that is not the one fetched is never trusted: the whole sheet is asked for
        (stamp,) = (out / ".sheets").glob("*.json")
        stamp.with_suffix(".csv").write_text("name\nImpostor\n")
        assert _build(game, out).returncode == 0
        assert statuses == [200, 304, 304, 200, 200]
        assert stamp.with_suffix(".csv").read_text() == CSV.replace("Flies", "Soars")
    with pdfplumber.open(out / "sheets" / "deck.pdf") as pdf:
        text = "".join(page.extract_text() or "" for page in pdf.pages)
    assert "Soars" in text and "Flies" not in text
