"""Resource limits: absurd inputs are refused early, in bounded memory, and each limit can be raised by flag."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest
from PIL import Image

from punchboard.cli import EXIT_INPUT, EXIT_OK, main
from punchboard.plumbing.limits import DEFAULT_LIMITS, FLAGS
from punchboard.spec import expressions
from tests.conftest import ROOT

GAME = "id: mini\ntitle: Mini\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = """\
id: cards
kind: deck
size: poker
layout: base/card
fields: [value, text]
cards:
  - {name: One, value: 1, count: COUNT}
"""
PEAK_BYTES = 64_000_000  # the 200000-value YAML budget costs about 45 MB at most


def _game(tmp_path: Path, cards: str, files: dict[str, str | bytes] | None = None) -> Path:
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(cards)
    for name, content in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    return folder


def _check(capsys: pytest.CaptureFixture[str], folder: Path, *flags: str) -> tuple[int, str]:
    tracemalloc.start()
    try:
        code = main(["check", str(folder), *flags])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < PEAK_BYTES, f"loading used {peak} bytes"
    return code, capsys.readouterr().err


def test_every_limit_has_a_flag_on_every_loading_verb():
    for verb in ("check", "build", "verify", "bom"):
        from punchboard.cli import build_parser

        help_text = build_parser()._subparsers._group_actions[0].choices[verb].format_help()  # type: ignore[union-attr]
        for name, flag in FLAGS.items():
            assert flag in help_text and str(getattr(DEFAULT_LIMITS, name)) in help_text


def test_a_billion_cards_are_refused_in_bounded_memory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = _game(tmp_path, CARDS.replace("COUNT", "1000000000"))
    code, err = _check(capsys, folder)
    assert code == EXIT_INPUT
    assert err == (
        "mini/cards.yaml:7:34: component expands to at least 1000000000 pieces, more than the limit of 20000; "
        "expected a printable count (raise the limit with --max-pieces)\n"
    )


def test_max_pieces_flag_raises_and_lowers_the_limit(tmp_path, capsys):
    folder = _game(tmp_path, CARDS.replace("COUNT", "30000"))
    assert _check(capsys, folder)[0] == EXIT_INPUT
    code, err = _check(capsys, folder, "--max-pieces", "30000")
    assert (code, err) == (EXIT_OK, "")
    assert "mini: ok (1 components, 30000 pieces)" in main_out(folder, "--max-pieces", "30000", capsys=capsys)
    assert _check(capsys, folder, "--max-pieces", "29999")[0] == EXIT_INPUT


def main_out(folder: Path, *flags: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["check", str(folder), *flags]) == EXIT_OK
    return capsys.readouterr().out


def test_alias_bomb_is_refused_in_bounded_memory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]  # 10**12 values
    folder = _game(tmp_path, "\n".join(lines) + "\n")
    code, err = _check(capsys, folder)
    assert code == EXIT_INPUT
    assert err.startswith("mini/cards.yaml:")
    assert err.endswith(": document expands to more than 200000 values (aliases nested too deep?); "
                        "expected a reasonably sized file (raise the limit with --max-yaml-nodes)\n")


def test_max_yaml_nodes_flag_applies_to_every_file(tmp_path, capsys):
    folder = _game(tmp_path, CARDS.replace("COUNT", "2"))
    assert _check(capsys, folder) == (EXIT_OK, "")
    code, err = _check(capsys, folder, "--max-yaml-nodes", "10")
    assert code == EXIT_INPUT and "raise the limit with --max-yaml-nodes" in err


def test_max_file_bytes_covers_yaml_and_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    csv = "name,value\n" + "".join(f"Card {i},{i}\n" for i in range(200))
    folder = _game(tmp_path, CARDS.replace("cards:\n  - {name: One, value: 1, count: COUNT}\n", "csv: cards.csv\n"), {"cards.csv": csv})
    assert _check(capsys, folder) == (EXIT_OK, "")
    code, err = _check(capsys, folder, "--max-file-bytes", "1000")
    assert code == EXIT_INPUT
    assert err == f"mini/cards.csv:1:1: file is {len(csv)} bytes, more than the limit of 1000 (raise it with --max-file-bytes)\n"
    code, err = _check(capsys, folder, "--max-file-bytes", "50")
    assert err.startswith(f"mini/game.yaml:1:1: file is {len(GAME)} bytes, more than the limit of 50")


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (width, height)).save(buffer, "PNG")
    return buffer.getvalue()


def test_max_image_pixels_flag(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    layout = "extends: base/card\nelements:\n  - {id: art, type: image, width: 50%, height: 50%, src: art.png}\n"
    cards = CARDS.replace("COUNT", "1").replace("base/card", "mini/card")
    folder = _game(tmp_path, cards, {"art.png": _png(300, 200), "layouts/mini/card.yaml": layout})
    assert _check(capsys, folder, "--preflight", "off") == (EXIT_OK, "")  # (a 300 × 200 px picture is low_dpi: not this test)
    code, err = _check(capsys, folder, "--max-image-pixels", "50000")
    assert code == EXIT_INPUT
    assert err == (
        "mini/layouts/mini/card.yaml:3:58: src: image 'art.png' is 300 × 200 pixels, more than the limit of 50000 "
        "(raise it with --max-image-pixels)\n"
    )


def test_gigapixel_image_header_is_refused_without_decoding(tmp_path, capsys):
    huge = (ROOT / "tests" / "bad_inputs" / "image_huge" / "layouts" / "mini" / "art.png").read_bytes()
    layout = "extends: base/card\nelements:\n  - {id: art, type: image, width: 50%, height: 50%, src: art.png}\n"
    cards = CARDS.replace("COUNT", "1").replace("base/card", "mini/card")
    folder = _game(tmp_path, cards, {"art.png": huge, "layouts/mini/card.yaml": layout})
    code, err = _check(capsys, folder, "--max-image-pixels", "20000000000")
    assert code == EXIT_INPUT and "too many to open safely" in err


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x" * 501, "expression is longer than 500 characters"),
        ("-" * 40 + "1", "is nested too deeply"),
        ("2 ** 65", "exponent too large in '2 ** 65'"),
        ("9 ** 64 ** 64", "exponent too large"),
        ("(2 ** 64) ** 64 * 3 ** 60", "number too large"),
        ("'ab' * 100000", "result longer than 10000"),
        ("(1, 2) * 10 ** 9", "result longer than 10000"),
        ("ceil(1e308 * 10)", "cannot evaluate"),
        ("int('9' * 5000)", "cannot evaluate"),
    ],
)
def test_runaway_expressions_have_clear_errors(source: str, message: str):
    with pytest.raises(expressions.ExpressionError, match=None) as caught:
        expressions.evaluate(source, {})
    assert message in str(caught.value)
