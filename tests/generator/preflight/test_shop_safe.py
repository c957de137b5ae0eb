"""``build --shop PRESET``: the shop's safe zone against the layouts' is said once per build — a note for a
metric margin within ``safe_slack`` (3 mm against The Game Crafter's 1/8 in), one warning naming each layout
narrower by more — not a warning per component. Through the CLI, on a game of three components."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

LAYOUT = """\
safe: {safe}
elements:
  - {{id: title, type: text, box: safe, x: 0, y: 0, width: 100%, height: 8mm, text: "{{name}}", size: 10pt}}
"""


def _game(folder: Path, safe: dict[str, str]) -> Path:
    """Three components: a deck and a second deck on layout ``card``, tokens on layout ``token``."""
    (folder / "layouts").mkdir(parents=True)
    for name, margin in safe.items():
        (folder / "layouts" / f"{name}.yaml").write_text(LAYOUT.format(safe=margin), encoding="utf-8")
    (folder / "game.yaml").write_text("id: shop\ntitle: Shop\nplayers: {min: 2, max: 4}\n"
                                      "components: [deck.yaml, more.yaml, tokens.yaml]\n", encoding="utf-8")
    for stem in ("deck", "more"):
        (folder / f"{stem}.yaml").write_text(f"id: {stem}\nkind: deck\nsize: poker\nlayout: card\ncards:\n"
                                             "  - {name: One}\n  - {name: Two}\n", encoding="utf-8")
    (folder / "tokens.yaml").write_text("id: tokens\nkind: tokens\nsize: {width: 30mm, height: 30mm}\nlayout: token\n"
                                        "tokens:\n  - {name: A}\n", encoding="utf-8")
    return folder


def test_a_metric_safe_zone_is_one_note_per_build(tmp_path: Path):
    game = _game(tmp_path / "shop", {"card": "3mm", "token": "3.1mm"})
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--shop", "thegamecrafter", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    notes = [line for line in result.stdout.splitlines() if "clear of the cut" in line]
    assert notes == ["shop: thegamecrafter keeps 3.175 mm clear of the cut; safe zone 3 mm in layout card; 3.1 mm in "
                     "layout token: within the 0.25 mm safe_slack of layouts/print_shops.yaml (a metric safe zone for "
                     "1/8 in)"], result.stdout
    plain = run_cli("build", str(game), "--out", str(tmp_path / "plain"), "--jobs", "1")
    assert plain.returncode == 0 and "clear of the cut" not in plain.stdout + plain.stderr  # no shop named: nothing


def test_a_safe_zone_far_narrower_is_one_warning_naming_each_layout(tmp_path: Path):
    game = _game(tmp_path / "shop", {"card": "2mm", "token": "3mm"})
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--shop", "thegamecrafter", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: shop: safe zone narrower than thegamecrafter's 3.175 mm between the cut and any text "
                        "or key art in layout card 2 mm: widen the layout's safe: (the preflight holds text and key art "
                        "to it)"], result.stderr  # two decks on the layout: still one line
    assert [line for line in result.stdout.splitlines() if "clear of the cut" in line] == [
        "shop: thegamecrafter keeps 3.175 mm clear of the cut; safe zone 3 mm in layout token: within the 0.25 mm "
        "safe_slack of layouts/print_shops.yaml (a metric safe zone for 1/8 in)"]
    drive = run_cli("build", str(game), "--out", str(tmp_path / "dtc"), "--shop", "drivethrucards", "--jobs", "1")
    assert "drivethrucards's 3.175 mm" in drive.stderr and drive.stderr.count("warning:") == 1, drive.stderr
