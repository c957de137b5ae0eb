"""A small game and a way to build it in a real process, for the atomicity and determinism tests."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.conftest import ROOT

GAME = "id: tiny\ntitle: Tiny\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml, tokens.yaml]\n"
CARDS = """\
id: cards
kind: deck
size: poker
layout: tiny/card
back: {layout: base/card, fields: {name: Tiny}}
fields: [value, text]
csv: cards.csv
"""
CSV = "name,value,text,count\nOne,1,Hello,3\nTwo,2,,1\nThree,3,Bye,2\n"
TOKENS = """\
id: tokens
kind: tokens
shape: hexagon
size: 20mm
layout: base/card
fields: [value]
tokens:
  - range: {field: value, from: 1, to: 6}
"""
LAYOUT = """\
extends: base/card
elements:
  - {id: art, type: image, box: safe, x: 0, y: 15mm, width: 100%, height: 20mm, src: art.png}
"""


def make_game(folder: Path) -> Path:
    (folder / "layouts" / "tiny").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("cards.csv", CSV), ("tokens.yaml", TOKENS), ("layouts/tiny/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "#8a5a2b").save(buffer, "PNG")
    (folder / "art.png").write_bytes(buffer.getvalue())
    return folder


def build(game: Path | str, out: Path | str, *flags: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``punchboard build`` in its own process (its own hash seed unless ``env`` says otherwise)."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "punchboard", "build", str(game), "--out", str(out), "--quiet", *flags],
        capture_output=True, text=True, cwd=cwd or ROOT, env=environ, timeout=300,
    )


def outputs(folder: Path) -> dict[str, bytes]:
    """Every output under its final name (hidden files and folders — the caches, the kept sides,
    temporaries — excluded, and the dated print records in prints/, which tests/generator/test_reprint.py
    compares without their date)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and p.relative_to(folder).parts[0] != "prints"
    }
