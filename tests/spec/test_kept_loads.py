"""watch and serve keep what loaded unchanged from one load to the next (spec/loader/kept.py): after any
sequence of saves, a load with what was kept gives exactly what a fresh process would — the same model,
or the same problems — while building again only what changed."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import reportlab
from PIL import Image

from punchboard.plumbing.errors import SpecError
from punchboard.spec import yamlsource
from punchboard.spec.loader import components as component_loader
from punchboard.spec.loader import kept as kept_module
from punchboard.spec.loader import layouts as layout_loader
from punchboard.spec.loader import load_game
from tests.conftest import ROOT

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"

OWN_LAYOUT = """\
extends: steam_court/character
fonts: {fancy: fancy.ttf}
elements:
  - {id: name, font: fancy, color: soot}
  - {id: corner, type: text, box: trim, x: 4%, y: 4%, width: 12%, height: 5%, text: "{number}", font: fancy, size: 8pt, color: royal}
  - {id: crest, type: image, box: trim, x: 80%, y: 4%, width: 12%, height: 8%, src: "crests/{table}.png"}
"""


def _game(tmp_path: Path) -> Path:
    """Steam Court, with a layout of its own (extending a shipped one, with a font of its own) for the characters."""
    game = tmp_path / "game"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    own = game / "layouts" / "mine"
    own.mkdir(parents=True)
    (own / "card.yaml").write_text(OWN_LAYOUT)
    shutil.copy(VERA, own / "fancy.ttf")
    characters = game / "characters.yaml"
    characters.write_text(characters.read_text().replace("layout: steam_court/character\n", "layout: mine/card\n", 1))
    (game / "crests").mkdir()
    for table, colour in (("Royal", (107, 31, 42)), ("Renegade", (36, 71, 94))):
        Image.new("RGB", (24, 24), colour).save(game / "crests" / f"{table}.png")
    return game


def _replace(path: Path, old: str, new: str) -> Callable[[], None]:
    def edit() -> None:
        text = path.read_text()
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, 1))

    return edit


def _edits(game: Path) -> list[tuple[Callable[[], None], Callable[[], None]]]:
    """Pairs of (a save, the save that undoes it; any two pairs commute): text, layouts, fonts, images, setup,
    palette, breakage, shadowing."""
    characters, layout, font = game / "characters.yaml", game / "layouts" / "mine" / "card.yaml", game / "layouts" / "mine" / "fancy.ttf"
    setup, game_file, gear = game / "setup.yaml", game / "game.yaml", game / "gear_deck.yaml"
    shadow = game / "layouts" / "steam_court" / "gear_card.yaml"

    def break_font() -> None:
        font.write_bytes(b"not a font at all")

    def mend_font() -> None:
        shutil.copy(VERA, font)

    def shadow_gear() -> None:  # a layout of the game's own, found before punchboard's of the same name
        shadow.parent.mkdir(exist_ok=True)
        shadow.write_text((ROOT / "layouts" / "steam_court" / "gear_card.yaml").read_text().replace("fill: paper", "fill: steel", 1))

    def unshadow_gear() -> None:
        shadow.unlink()

    crest, renegade = game / "crests" / "Royal.png", game / "crests" / "Renegade.png"

    def broken_crest() -> None:
        crest.write_bytes(b"not a picture")

    def small_crest() -> None:
        Image.new("RGB", (24, 24), (107, 31, 42)).save(crest)

    return [
        (_replace(characters, "any player.", "any other player."), _replace(characters, "any other player.", "any player.")),
        (_replace(characters, "number: 3,", "number: 33,"), _replace(characters, "number: 33,", "number: 3,")),
        (_replace(characters, "layout: mine/card\n", "layout: mine/nope\n"), _replace(characters, "layout: mine/nope\n", "layout: mine/card\n")),
        (_replace(characters, "cards:\n", "cards: [unclosed\n"), _replace(characters, "cards: [unclosed\n", "cards:\n")),
        (_replace(layout, "color: royal}", "color: rojal}"), _replace(layout, "color: rojal}", "color: royal}")),
        (_replace(layout, "size: 8pt", "size: 9pt"), _replace(layout, "size: 9pt", "size: 8pt")),
        (_replace(layout, "color: soot}", 'color: "{timing}"}'), _replace(layout, 'color: "{timing}"}', "color: soot}")),
        (_replace(characters, "Look at the Court Hand", "Look at :nosuch: the Court Hand"),
         _replace(characters, "Look at :nosuch: the Court Hand", "Look at the Court Hand")),
        (_replace(layout, "extends: steam_court/character", "extends: mine/card"),
         _replace(layout, "extends: mine/card", "extends: steam_court/character")),
        (break_font, mend_font),
        (_replace(setup, "count: 1, to: playmat", "count: 1000, to: playmat"), _replace(setup, "count: 1000, to: playmat", "count: 1, to: playmat")),
        (_replace(game_file, '  royal: "#6b1f2a"\n', ""), _replace(game_file, "palette:\n", 'palette:\n  royal: "#6b1f2a"\n')),
        (_replace(game_file, 'soot: "#231f1c"', 'soot: "#231f1d"'), _replace(game_file, 'soot: "#231f1d"', 'soot: "#231f1c"')),
        (_replace(gear, "copies: 2", "copies: 3"), _replace(gear, "copies: 3", "copies: 2")),
        (shadow_gear, unshadow_gear),
        (lambda: renegade.rename(renegade.with_name("gone.png")), lambda: renegade.with_name("gone.png").rename(renegade)),
        (broken_crest, small_crest),
        (_replace(layout, 'text: "{number}"', 'text: "{numbr}"'), _replace(layout, 'text: "{numbr}"', 'text: "{number}"')),
    ]


def _outcome(game: Path) -> object:
    try:
        return load_game(game)
    except SpecError as err:
        return [str(problem) for problem in err.problems]


def _fresh(game: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """What a new process loads: nothing parsed or loaded before."""
    with monkeypatch.context() as fresh:
        fresh.setattr(yamlsource, "_parsed", None)
        fresh.setattr(kept_module, "_kept", None)
        return _outcome(game)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Keep what loads, and count the layouts built and the components made afresh."""
    monkeypatch.setattr(yamlsource, "_parsed", None)
    monkeypatch.setattr(kept_module, "_kept", None)
    kept_module.keep_loaded()
    counts = {"layouts": 0, "components": 0}
    build, printed = layout_loader.LayoutLoader._build, component_loader.ComponentLoader._printed

    def counting_build(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        counts["layouts"] += 1
        return build(self, *args, **kwargs)

    def counting_printed(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        counts["components"] += 1
        return printed(self, *args, **kwargs)

    monkeypatch.setattr(layout_loader.LayoutLoader, "_build", counting_build)
    monkeypatch.setattr(component_loader.ComponentLoader, "_printed", counting_printed)
    return counts


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("KEPT_SEEDS", "4"))))
def test_after_any_saves_a_kept_load_is_a_fresh_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      counted: dict[str, int], seed: int):
    game = _game(tmp_path)
    edits = _edits(game)
    first = _outcome(game)
    assert not isinstance(first, list), first
    made = dict(counted)
    assert made["layouts"] >= 10 and made["components"] == 5
    counted.update(layouts=0, components=0)
    again = _outcome(game)
    assert again == first
    assert counted == {"layouts": 0, "components": 0}  # nothing changed: everything is the last load's

    rng = random.Random(seed)
    undone: list[int] = []  # edits made and not yet undone
    problems_seen = loads = 0
    for _ in range(24):
        if undone and (rng.random() < 0.45 or len(undone) == len(edits)):
            index = undone.pop(rng.randrange(len(undone)))
            edits[index][1]()
        else:
            index = rng.choice([i for i in range(len(edits)) if i not in undone])
            edits[index][0]()
            undone.append(index)
        kept_outcome = _outcome(game)
        assert kept_outcome == _fresh(game, monkeypatch), f"after edits {undone}"
        problems_seen += isinstance(kept_outcome, list)
        loads += 1
    assert problems_seen, "the sequence never broke the game: it tested only good loads"
    for index in reversed(undone):
        edits[index][1]()
    counted.update(layouts=0, components=0)
    assert _outcome(game) == first
    # back as it was, and one more load: nothing is built again
    counted.update(layouts=0, components=0)
    assert _outcome(game) == first
    assert counted == {"layouts": 0, "components": 0}


def test_a_saved_card_loads_only_its_own_component(tmp_path: Path, counted: dict[str, int]):
    game = _game(tmp_path)
    first = load_game(game)
    counted.update(layouts=0, components=0)
    _replace(game / "characters.yaml", "any player.", "any other player.")()
    second = load_game(game)
    assert counted == {"layouts": 0, "components": 1}
    for before, after in zip(first.components, second.components, strict=True):
        assert (before is after) == (before.id != "characters")
    assert second.layouts["mine/card"] is first.layouts["mine/card"]


def test_a_font_file_changed_under_an_unchanged_layout_is_checked_again(tmp_path: Path, counted: dict[str, int]):
    game = _game(tmp_path)
    load_game(game)
    (game / "layouts" / "mine" / "fancy.ttf").write_bytes(b"\0" * 100)
    with pytest.raises(SpecError, match="fancy.ttf"):
        load_game(game)
