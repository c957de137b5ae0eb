"""watch and serve keep what loaded unchanged from one load to the next (punchboard/incremental/loads.py): after any
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

from punchboard.incremental import loads as kept_module
from punchboard.plumbing.errors import SpecError
from punchboard.spec import setup_loader, yamlsource
from punchboard.spec.loader import components as component_loader
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


SOLO_LAST = """        take: {component: characters, where: "table == 'Royal'", to: character_stack}\n"""
# a place without distinct: which of the six Masterstrokes go where is open once they differ (in any field)
MIXED_PLACE = """      - place: {component: gear_deck, where: "name == 'Masterstroke'", into: [q_a, q_b], each: 3}\n"""
MASTERSTROKES = "  - name: Masterstroke\n    count: 3\n    kind: special\n"
# one of them with a text of its own: a field no setup names
SPLIT = "  - name: Masterstroke\n    count: 1\n    kind: special\n    text: Beats everything.\n  - name: Masterstroke\n    count: 2\n    kind: special\n"


def _edits(game: Path) -> list[tuple[Callable[[], None], Callable[[], None]]]:
    """Pairs of (a save, the save that undoes it; any two pairs commute): text, layouts, fonts, images, setup,
    palette, breakage, shadowing, and what the setup check reads of the components (a field value a where:
    and distinct: read, a field's name, a component's id, a count, a place without distinct: and the
    values it compares)."""
    characters, layout, font = game / "characters.yaml", game / "layouts" / "mine" / "card.yaml", game / "layouts" / "mine" / "fancy.ttf"
    setup, game_file, gear = game / "setup.yaml", game / "game.yaml", game / "gear_deck.yaml"
    tokens, playmats = game / "gear_tokens.yaml", game / "playmats.yaml"
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

    def rename_alt() -> None:  # the setup's where: "value == 12 or alt == 12" names a field no component has
        gear.write_text(gear.read_text().replace("alt", "altx"))

    def unrename_alt() -> None:
        gear.write_text(gear.read_text().replace("altx", "alt"))

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
        # what the setup check reads of the components: a 1.5 token makes 'distinct: value' pick 2 of 3 values
        (_replace(tokens, "value: 1\n    count: 2\n    power: Unpass", "value: 1.5\n    count: 2\n    power: Unpass"),
         _replace(tokens, "value: 1.5\n    count: 2\n    power: Unpass", "value: 1\n    count: 2\n    power: Unpass")),
        (_replace(tokens, "count: 4 ", "count: 3 "), _replace(tokens, "count: 3 ", "count: 4 ")),
        (rename_alt, unrename_alt),
        (_replace(playmats, "id: playmats", "id: playmat"), _replace(playmats, "id: playmat\n", "id: playmats\n")),
        (_replace(setup, SOLO_LAST, SOLO_LAST + MIXED_PLACE), _replace(setup, SOLO_LAST + MIXED_PLACE, SOLO_LAST)),
        # a field no setup names, read by that place only as alike or not
        (_replace(gear, MASTERSTROKES, SPLIT), _replace(gear, SPLIT, MASTERSTROKES)),
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
    yamlsource.keep_parsed()  # as watch and serve do
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


def test_a_font_copied_over_with_its_size_and_time_kept_is_checked_again(tmp_path: Path, counted: dict[str, int]):
    """A copy that keeps the old file's size and modification time (cp -p, rsync) is a new file: another inode
    and change time."""
    import os

    game = _game(tmp_path)
    load_game(game)
    font = game / "layouts" / "mine" / "fancy.ttf"
    stat = font.stat()
    copy = font.with_name("copy.part")
    copy.write_bytes(b"\0" * stat.st_size)
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(copy, font)
    assert (font.stat().st_size, font.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    with pytest.raises(SpecError, match="fancy.ttf"):
        load_game(game)


def test_the_setup_check_runs_again_only_for_what_it_can_read(tmp_path: Path, counted: dict[str, int],
                                                               monkeypatch: pytest.MonkeyPatch):
    game = _game(tmp_path)
    characters, tokens, setup = game / "characters.yaml", game / "gear_tokens.yaml", game / "setup.yaml"
    gear = game / "gear_deck.yaml"
    runs: list[Path] = []
    load_setup = setup_loader.load_setup  # looked up there by the loader when a game has a setup

    def counting(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        runs.append(path)
        return load_setup(path, *args, **kwargs)

    monkeypatch.setattr(setup_loader, "load_setup", counting)
    first = load_game(game)
    assert len(runs) == 1
    _replace(characters, "any player.", "any other player.")()  # privilege: the setup names no such field
    assert load_game(game).warnings == first.warnings
    assert len(runs) == 1
    _replace(characters, "number: 3,", "number: 33,")()  # number: read by where: "number in seats" and seat: by
    load_game(game)
    assert len(runs) == 2
    _replace(characters, "number: 33,", "number: 3,")()
    load_game(game)
    assert len(runs) == 3

    # a place without distinct: compares every field of the pieces it may choose, but only as alike or not
    _replace(gear, MASTERSTROKES, SPLIT)()  # no place compares the Masterstrokes' texts yet
    load_game(game)
    assert len(runs) == 3
    _replace(gear, SPLIT, MASTERSTROKES)()
    _replace(setup, SOLO_LAST, SOLO_LAST + MIXED_PLACE)()
    load_game(game)
    assert len(runs) == 4
    _replace(gear, "Beats all other cards", "Beats every other card")()  # all six alike still
    _replace(tokens, "before the player to your left", "before the next player")()  # not placed
    load_game(game)
    assert len(runs) == 4
    _replace(gear, MASTERSTROKES, SPLIT)()  # one differs: which go where is open
    with pytest.raises(SpecError, match="place would mix values"):
        load_game(game)
    assert len(runs) == 5
