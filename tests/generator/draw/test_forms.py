"""Each distinct card side is stored once as a form XObject; forms must carry every resource they use."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from tests.conftest import run_cli

LAYOUT = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#224466"}
  - {id: veil, type: rect, x: 10%, y: 10%, width: 80%, height: 80%, fill: "#ffffff", opacity: 0.4}
  - {id: name, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "{name}", font: Vera-Bold, size: 14pt, align: center}
"""


def test_repeated_sides_are_one_form_and_forms_keep_their_transparency(tmp_path: Path):
    game = tmp_path / "game"
    (game / "layouts").mkdir(parents=True)
    (game / "layouts" / "veiled.yaml").write_text(LAYOUT)
    (game / "game.yaml").write_text("id: veiled\ntitle: Veiled\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: deck\nsize: poker\nlayout: veiled\nback: {layout: veiled}\n"
        "cards:\n  - {name: Alpha, count: 5}\n  - {name: Beta, count: 4}\n"
    )
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out))
    assert result.returncode == 0, result.stderr
    reader = PdfReader(out / "veiled" / "deck.pdf")
    forms = {}
    for page in reader.pages:
        for name, ref in page["/Resources"]["/XObject"].items():
            forms[name] = ref.get_object()
    # Alpha front, Beta front and their backs (the back layout shows the name too): 4 distinct sides for 18
    assert len(forms) == 4
    for name, form in forms.items():
        used = set(re.findall(rb"/(gRLs\d+) gs", form.get_data()))
        assert used, f"{name} should use a transparency state"
        states = form["/Resources"].get("/ExtGState", {})
        assert {u.decode() for u in used} <= {key.lstrip("/") for key in states}, name
