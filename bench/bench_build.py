"""Build benchmarks (issues 16 and 22), each against its reference in the same run, ratios the
median of pair-by-pair ratios.

* rebuilds — one-card tweak from the CLI, unchanged rebuild, and the same tweak saved while a real
  ``punchboard watch`` process runs (save → combined PDF written) — against
  ``python -c "import reportlab.pdfgen.canvas"``;
* one card edited in a 2,000-card deck against the same edit in Steam Court (both CLI rebuilds);
* an 84-card deck of 300-dpi PNGs with a common back, printed duplex with crop marks, against
  ``floor_reportlab.py`` (the same images, marks and back pages placed with reportlab's canvas);
* a generated 10,000-card text deck's CPU per card, and peak memory of clean builds at
  1,000, 5,000, 10,000 and 20,000 cards;
* the ``tts`` export's peak memory at 1,000 and 10,000 cards;
* a one-token tweak rebuilt and ``check`` run again, against the same reference, and ``images`` and ``tts``
  run again after a one-card tweak against their export from nothing.

``BENCH_REPEATS`` (default 5) sets the runs per pair (the watch row and the 2,000-card edit take at least
15, being cheap, and spread or near their target); ``BENCH_QUICK=1`` uses 1,000
cards instead of 10,000 for the large deck, and memory at 1,000 and 5,000 only (for iterating,
not for the README).
"""

from __future__ import annotations

import os
import queue
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.decks import editable_deck, text_deck
from bench.measure import (
    CLOSE_REPEATS,
    HEAVY_REPEATS,
    ROOT,
    Series,
    execute,
    paired,
    punchboard,
    ratio,
    reference_import,
    row,
)

WORK = ROOT / "bench" / ".work"
QUICK = os.environ.get("BENCH_QUICK") == "1"
BIG_DECK = 1000 if QUICK else 10_000
CARDS = 84
EDIT_DECK = 2000
MEMORY_DECKS = (1000, 5000, 10_000, 20_000)
REF = "× python + import reportlab"
WATCH_REPEATS = max(15, int(os.environ.get("BENCH_REPEATS", "5")))  # pairs for the watch row (see its comment)


def _steam_court_copy() -> tuple[Path, Path, str]:
    game = WORK / "steam_court_copy"
    shutil.rmtree(game, ignore_errors=True)
    from punchboard.plumbing.paths import COMPONENTS

    shutil.copytree(COMPONENTS / "steam_court", game)
    characters = game / "characters.yaml"
    return game, characters, characters.read_text(encoding="utf-8")


def _tweak(characters: Path, original: str, mark: str) -> None:
    characters.write_text(original.replace(
        "Give one undesirable card to any player.", f"Give one undesirable card to any player{mark}", 1), encoding="utf-8")


def _rebuilds(out: Path) -> list[dict[str, str]]:
    game, characters, original = _steam_court_copy()
    execute(punchboard("build", str(game), "--quiet", "--out", str(out)))
    count = iter(range(1, 1000))

    def tweak_cli() -> float:
        _tweak(characters, original, "!" * next(count))
        return execute(punchboard("build", str(game), "--quiet", "--out", str(out))).wall

    tweak, ref_tweak = paired(tweak_cli, reference_import)

    def unchanged_cli() -> float:
        return execute(punchboard("build", str(game), "--quiet", "--out", str(out))).wall

    def first_unchanged_cli() -> float:  # as after an edit: no record yet, so the ordinary build runs (and records)
        (out / ".punchboard-up-to-date.json").unlink(missing_ok=True)
        return unchanged_cli()

    first, ref_first = paired(first_unchanged_cli, reference_import)
    unchanged_cli()  # records
    noop, ref_noop = paired(unchanged_cli, reference_import)

    with _watching(game, out) as until:
        combined = out / "steam_court" / "steam_court-print-and-play.pdf"

        def save_in_watch() -> float:
            before = combined.stat().st_mtime_ns
            start = time.perf_counter()
            _tweak(characters, original, "?" * next(count))
            until("rendered characters")
            elapsed = time.perf_counter() - start
            if combined.stat().st_mtime_ns == before:
                raise RuntimeError("punchboard watch rebuilt but did not write the combined PDF")
            return elapsed

        # a save takes about 30 ms, so the row is cheap, and its spread (0.03-0.07 s) wants more than 5 pairs
        warm, ref_warm = paired(save_in_watch, reference_import, WATCH_REPEATS)
    return [
        row("reference: python -c 'import reportlab.pdfgen.canvas'", ref_tweak.spread(), "1 ×", ""),
        row("one-card tweak, CLI rebuild (Steam Court character card)", tweak.spread(),
            f"{ratio(tweak, ref_tweak):.2f} {REF}", ""),
        row("unchanged rebuild, CLI, the first after an edit (ordinary build: loads, draws nothing, records)",
            first.spread(), f"{ratio(first, ref_first):.2f} {REF}", ""),
        row("unchanged rebuild, CLI, again (answered from the record, nothing loaded)", noop.spread(),
            f"{ratio(noop, ref_noop):.2f} {REF}", "≤ 1.2 ×"),
        row("same tweak seen by a running `punchboard watch`: save → combined PDF written", warm.spread(),
            f"{ratio(warm, ref_warm):.2f} {REF}", "≤ 0.5 ×"),
    ]


def _other_doors(out: Path) -> list[dict[str, str]]:
    """What else a designer runs after a one-card tweak (issue 22, round 8): a token tweak rebuilt from the CLI,
    ``check`` again, and ``images`` and ``tts`` again after a tweak, each against its export from nothing."""
    game, characters, original = _steam_court_copy()
    tokens = game / "gear_tokens.yaml"
    token_text = tokens.read_text(encoding="utf-8")
    execute(punchboard("build", str(game), "--quiet", "--out", str(out)))
    count = iter(range(1, 1000))

    def token_tweak() -> float:  # the power printed on the token's back (its power_text is printed nowhere)
        tokens.write_text(token_text.replace("power: Discard two cards", "power: Discard two cards" + "!" * next(count), 1),
                          encoding="utf-8")
        return execute(punchboard("build", str(game), "--quiet", "--out", str(out))).wall

    token, ref_token = paired(token_tweak, reference_import)
    execute(punchboard("check", str(game)))

    def check_again() -> float:
        return execute(punchboard("check", str(game))).wall

    check, ref_check = paired(check_again, reference_import)
    tweaked, whole = _export_after_tweak("images", game, out / "images", lambda: _tweak(characters, original, "!" * next(count)))
    tts_tweaked, tts_whole = _export_after_tweak("tts", game, out / "tts-export",
                                                 lambda: _tweak(characters, original, "?" * next(count)))
    memo_off, memo_on = _backs_memo_gain(game, out / "tts-export", lambda: _tweak(characters, original, "~" * next(count)))
    return [
        row("one-token tweak, CLI rebuild (Steam Court gear token's printed power, on its back)", token.spread(),
            f"{ratio(token, ref_token):.2f} {REF}", ""),
        row("`check steam_court` again (its preflight's sides and looks kept)", check.spread(),
            f"{ratio(check, ref_check):.2f} {REF}", ""),
        row("`images steam_court` after a one-card tweak (only what draws differently is rendered)", tweaked.spread(),
            f"{ratio(tweaked, whole):.2f} × the export from nothing ({whole.median:.2f} s)", ""),
        row("`tts steam_court` after a one-card tweak (only sheets and images that draw differently are rendered)",
            tts_tweaked.spread(), f"{ratio(tts_tweaked, tts_whole):.2f} × the export from nothing ({tts_whole.median:.2f} s)",
            ""),
        row("`tts steam_court` after a one-card tweak, its backs' pixel memo removed first (what the memo saves)",
            memo_off.spread(), f"{ratio(memo_off, memo_on):.2f} × the same with the memo ({memo_on.median:.2f} s)", ""),
    ]


def _backs_memo_gain(game: Path, folder: Path, tweak: Callable[[], None]) -> tuple[Series, Series]:
    """``tts`` after ``tweak`` without the backs' pixel memo (generator/export/kept_images.PixelsMemo), paired
    with the same with it: the memo's own gain, everything else kept alike."""
    from punchboard.incremental.image_records import TTS_BACKS

    def run(memo: bool) -> float:
        tweak()
        if not memo:
            for kept in folder.glob(f"*/tts/{TTS_BACKS}"):
                kept.unlink()
        return execute(punchboard("tts", str(game), "--quiet", "--out", str(folder))).wall

    run(True)
    return paired(lambda: run(False), lambda: run(True), HEAVY_REPEATS)


def _export_after_tweak(verb: str, game: Path, folder: Path, tweak: Callable[[], None]) -> tuple[Series, Series]:
    """``verb`` (an export) run again after ``tweak``, paired with the same export from nothing; a whole export is
    left in ``folder`` before each tweak."""
    def from_nothing() -> float:
        shutil.rmtree(folder, ignore_errors=True)
        return execute(punchboard(verb, str(game), "--quiet", "--out", str(folder))).wall

    def after_tweak() -> float:
        tweak()
        return execute(punchboard(verb, str(game), "--quiet", "--out", str(folder))).wall

    from_nothing()
    pair = paired(after_tweak, from_nothing, HEAVY_REPEATS)
    from_nothing()
    return pair


@contextmanager
def _watching(game: Path, out: Path) -> Iterator[Callable[[str], None]]:
    """A running ``punchboard watch`` process (its first build done); yields ``until(fragment)``, which
    waits for the next output line containing ``fragment`` (the summary is printed after the combined
    PDF is written)."""
    watcher = subprocess.Popen(punchboard("watch", str(game), "--out", str(out)), cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in watcher.stdout or ()], daemon=True).start()

    def until(fragment: str) -> None:
        while fragment not in (line := lines.get(timeout=120)):
            if "Traceback" in line or "fix the problems" in line:
                raise RuntimeError(f"punchboard watch: {line}")

    try:
        until("watching")
        time.sleep(1.0)  # a polling watcher (watch --poll, or an older punchboard) takes its first look after this line
        yield until
    finally:
        watcher.terminate()
        watcher.wait(timeout=60)


def _art(folder: Path) -> None:
    """84 deterministic 300-dpi poker PNGs with 1/8 in bleed (825 × 1125 px)."""
    from PIL import Image, ImageDraw

    if folder.is_dir() and len(list(folder.glob("*.png"))) == CARDS:
        return
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(84)
    for index in range(1, CARDS + 1):
        image = Image.new("RGB", (825, 1125), tuple(rng.randrange(256) for _ in range(3)))
        draw = ImageDraw.Draw(image)
        for _ in range(40):
            x, y = rng.randrange(825), rng.randrange(1125)
            draw.ellipse([x, y, x + rng.randrange(20, 300), y + rng.randrange(20, 300)],
                         fill=tuple(rng.randrange(256) for _ in range(3)))
        draw.text((60, 60), f"card {index}", fill=(0, 0, 0))
        image.save(folder / f"card{index:02d}.png")


def _back_art(folder: Path) -> None:
    from PIL import Image, ImageDraw

    path = folder / "back.png"
    if path.is_file():
        return
    image = Image.new("RGB", (825, 1125), (40, 30, 60))
    draw = ImageDraw.Draw(image)
    for k in range(0, 825, 40):
        draw.line([k, 0, 825 - k, 1125], fill=(200, 170, 90), width=6)
    image.save(path)


def image_game(folder: Path, back: bool = False) -> Path:
    """84 300-dpi card faces; with ``back``, every card shows the common ``art/back.png`` on its back."""
    _art(folder / "art")
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "art_card.yaml").write_text(
        "bleed: 0.125in\nelements:\n"
        "  - {id: art, type: image, box: bleed, x: 0, y: 0, width: 100%, height: 100%, src: 'art/{art}.png', fit: stretch}\n"
    )
    backs = "back: none\n"
    if back:
        _back_art(folder / "art")
        (folder / "layouts" / "art_back.yaml").write_text(
            "bleed: 0.125in\nelements:\n"
            "  - {id: art, type: image, box: bleed, x: 0, y: 0, width: 100%, height: 100%, src: art/back.png, fit: stretch}\n"
        )
        backs = "back: {layout: art_back}\n"
    (folder / "cards.csv").write_text("name,art\n" + "".join(f"Card {i},card{i:02d}\n" for i in range(1, CARDS + 1)))
    (folder / "deck.yaml").write_text(
        f"id: deck\nkind: deck\nsize: poker\nlayout: art_card\n{backs}fields: [art]\ncsv: cards.csv\n")
    (folder / "game.yaml").write_text("id: art_deck\ntitle: Art deck\nplayers: {min: 1, max: 1}\ncomponents: [deck.yaml]\n")
    return folder


def _image_deck(out: Path) -> list[dict[str, str]]:
    """The deck as a designer prints it (duplex backs, crop marks) against the same job in plain reportlab."""
    game = image_game(WORK / "art_deck_backs", back=True)
    script = ROOT / "bench" / "floor_reportlab.py"
    ours, theirs = paired(
        lambda: execute(punchboard("build", str(game), "--force", "--quiet", "--out", str(out))).wall,
        lambda: execute([sys.executable, str(script), str(game / "art"), str(WORK / "floor.pdf")]).wall,
    )
    return [row(f"image deck: {CARDS} × 300-dpi PNG + common back on Letter, crop marks, duplex backs (build --force)",
                ours.spread(), f"{ratio(ours, theirs):.2f} × reportlab floor script ({theirs.median:.2f} s)", "≤ 1.5 ×")]


def _big_deck(out: Path) -> list[dict[str, str]]:
    game = text_deck(WORK, BIG_DECK)
    runs = [execute(punchboard("build", str(game), "--force", "--quiet", "--out", str(out))) for _ in range(HEAVY_REPEATS)]
    per_card = Series([r.cpu / BIG_DECK * 1000 for r in runs])
    return [
        row(f"{BIG_DECK:,}-card text deck, build: CPU per card", per_card.spread("ms", 2),
            f"{per_card.median / 3:.2f} × the 3 ms budget", "≤ 3 ms per card"),
    ]


def _memory(out: Path) -> list[dict[str, str]]:
    """Peak memory of a clean build by deck size: under 300 MB at 10,000 cards, and flat beyond a sheet."""
    rows = []
    sizes = (1000, 5000) if QUICK else MEMORY_DECKS
    for cards in sizes:
        game = text_deck(WORK, cards)
        repeats = 1 if cards > 10_000 else HEAVY_REPEATS
        peak = Series([execute(punchboard("build", str(game), "--force", "--quiet", "--out", str(out))).peak_mb
                       for _ in range(repeats)])
        rows.append(row(f"{cards:,}-card text deck, build: peak memory", peak.spread("MB", 0),
                        f"{peak.median / 300:.2f} × the 300 MB budget",
                        "< 300 MB; flat in the number of cards"))
    return rows


def _edit_in_big_deck(out: Path) -> list[dict[str, str]]:
    """One card edited in a 2,000-card deck against the same kind of edit in Steam Court, both from the CLI."""
    work, csv, original = editable_deck(WORK, EDIT_DECK, f"edit_deck_{EDIT_DECK}")
    game, characters, steam = _steam_court_copy()
    big_out, small_out = out / "edit-big", out / "edit-small"
    execute(punchboard("build", str(work), "--quiet", "--out", str(big_out)))
    execute(punchboard("build", str(game), "--quiet", "--out", str(small_out)))
    count = iter(range(1, 1000))

    def edit_big() -> float:
        csv.write_text(original.replace("Card 1000,", f"Card 1000{'!' * next(count)},", 1), encoding="utf-8")
        return execute(punchboard("build", str(work), "--quiet", "--out", str(big_out))).wall

    def edit_small() -> float:
        _tweak(characters, steam, "!" * next(count))
        return execute(punchboard("build", str(game), "--quiet", "--out", str(small_out))).wall

    ours, theirs = paired(edit_big, edit_small, CLOSE_REPEATS)
    return [row(f"one card edited in a {EDIT_DECK:,}-card deck, CLI rebuild", ours.spread(),
                f"{ratio(ours, theirs):.2f} × the same edit in Steam Court ({theirs.median:.2f} s)", "≤ 1.5 ×")]


def _tts_from_nothing(game: Path, out: Path) -> float:
    """Peak memory of a whole ``tts`` export (none of the last export's images kept)."""
    shutil.rmtree(out / game.name / "tts", ignore_errors=True)
    return execute(punchboard("tts", str(game), "--out", str(out))).peak_mb


def _tts(out: Path) -> list[dict[str, str]]:
    rows = []
    for cards in (1000, BIG_DECK) if BIG_DECK != 1000 else (1000,):
        game = text_deck(WORK, cards)
        peaks = Series([_tts_from_nothing(game, out) for _ in range(HEAVY_REPEATS)])
        rows.append(row(f"`tts` export, {cards:,} cards: peak memory", peaks.spread("MB", 0),
                        f"{peaks.median / 300:.2f} × the 300 MB budget", "< 300 MB at 10,000 cards"))
    return rows


def run() -> list[dict[str, str]]:
    WORK.mkdir(parents=True, exist_ok=True)
    out = WORK / "out"
    shutil.rmtree(out, ignore_errors=True)
    return (_rebuilds(out) + _other_doors(out) + _edit_in_big_deck(out) + _image_deck(out) + _big_deck(out)
            + _memory(out) + _tts(out))

