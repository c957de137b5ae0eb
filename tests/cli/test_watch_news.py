"""``watch`` and ``serve`` say only the warnings that are new or changed since the last build, and count the
others (issue 40 item 5): a scripted session of saves on a real game folder, read back from the terminal."""

from __future__ import annotations

import signal
from pathlib import Path

from punchboard.plumbing.watch import Repeats, unchanged_line
from tests.cli.minigame import write_game
from tests.cli.test_watch import Watcher, _save

LONG = " ".join(["word"] * 400)  # far more than a poker card's text box holds: a "does not fit" warning


def _long_cards(game: Path) -> tuple[Path, str]:
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace('"The first card"', f'"{LONG}"').replace('"The second card"', f'"{LONG}"')
    cards.write_text(text, encoding="utf-8")
    return cards, text


def _warned(lines: list[str], card: str) -> int:
    return sum(1 for line in lines if line.startswith("warning: ") and f"card '{card}'" in line)


def test_a_scripted_watch_session_says_each_unchanged_warning_once(tmp_path: Path):
    game = write_game(tmp_path / "game")
    cards, text = _long_cards(game)
    watcher = Watcher(str(game), "--out", str(tmp_path / "out"), cwd=tmp_path)
    try:
        first = watcher.wait_for("watching")
        assert (_warned(first, "One"), _warned(first, "Two")) == (1, 1), "".join(first)

        _save(cards, text.replace("count: 3,", "count: 4,"))  # a save that changes no warning
        seen = watcher.wait_for("mini: ")
        assert seen[0] == "changed: cards.yaml\n", "".join(seen)
        assert not any(line.startswith("warning: ") for line in seen), "".join(seen)
        assert "… and 2 unchanged warnings\n" in seen, "".join(seen)

        _save(cards, text.replace("count: 3,", "count: 4,"))  # the same text saved again
        seen = watcher.wait_for("mini: ")
        assert not any(line.startswith("warning: ") for line in seen), "".join(seen)
        assert "… and 2 unchanged warnings\n" in seen, "".join(seen)

        three = text.replace("count: 3,", "count: 4,") + f'  - {{name: Three, value: 3, count: 1, text: "{LONG}"}}\n'
        _save(cards, three)  # a new problem: said, with the count of the unchanged ones
        seen = watcher.wait_for("mini: ")
        assert _warned(seen, "Three") == 1 and _warned(seen, "One") == 0, "".join(seen)
        assert "… and 2 unchanged warnings\n" in seen, "".join(seen)

        watcher.proc.send_signal(signal.SIGINT)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    lines = watcher.output().splitlines(keepends=True)
    assert (_warned(lines, "One"), _warned(lines, "Two"), _warned(lines, "Three")) == (1, 1, 1), "".join(lines)


def test_a_warning_that_changed_is_said_again_and_a_bad_save_does_not_reset_what_was_said():
    repeats = Repeats()
    assert repeats.news("g", ["a", "b", "a"]) == (["a", "b"], 0)
    assert repeats.news("g", ["b", "a"]) == ([], 2)
    assert repeats.news("g", ["a", "b (changed)"]) == (["b (changed)"], 1)
    assert repeats.news("other", ["a"]) == (["a"], 0)  # each game has its own last build
    assert repeats.news("g", []) == ([], 0) and repeats.news("g", ["a"]) == (["a"], 0)  # gone, then back: new again
    assert unchanged_line(1) == "… and 1 unchanged warning" and unchanged_line(11) == "… and 11 unchanged warnings"


def test_serve_says_each_unchanged_warning_once_on_the_terminal(tmp_path: Path):
    from punchboard.studio.state import Studio

    game = write_game(tmp_path / "game")
    cards, text = _long_cards(game)
    said: list[str] = []
    studio = Studio(game, tmp_path / "out", trials=10, log=said.append, alert=said.append)
    studio.rebuild()
    assert (_warned(said, "One"), _warned(said, "Two")) == (1, 1), said
    cards.write_text(text.replace("count: 3,", "count: 4,"), encoding="utf-8")
    studio.rebuild()
    cards.write_text(text + f'  - {{name: Three, value: 3, count: 1, text: "{LONG}"}}\n', encoding="utf-8")
    studio.rebuild()
    assert (_warned(said, "One"), _warned(said, "Two"), _warned(said, "Three")) == (1, 1, 1), said
    assert said.count("… and 2 unchanged warnings") == 2, said
    # the page still shows every warning of the last build on its pieces
    pieces = [p for c in studio.state["components"] for p in c["pieces"]]
    assert sum(1 for p in pieces for w in p["warnings"] if "does not fit" in w) == 3, studio.state["components"]
