"""``--jobs``: components drawn in several processes give the same files as one process."""

from __future__ import annotations

import json
import marshal
from pathlib import Path

from tests.build_helpers import build, make_game, outputs


def _drawn(folder: Path) -> dict[str, bytes]:
    """The PDFs and the bill of materials (print records carry the time they were made)."""
    return {name: data for name, data in outputs(folder).items() if name.endswith((".pdf", ".json")) and "/" not in name}


def test_jobs_2_writes_byte_identical_files_to_jobs_1(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    two = build(game, tmp_path / "two", "--jobs", "2", "--force")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    first = _drawn(tmp_path / "one" / "tiny")
    assert {"cards.pdf", "tokens.pdf", "tiny-print-and-play.pdf", "bom.json"} <= set(first)
    assert _drawn(tmp_path / "two" / "tiny") == first
    assert one.stderr == two.stderr  # the same warnings, in the same order


def test_jobs_must_be_a_count(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    result = build(game, tmp_path / "out", "--jobs", "many")
    assert result.returncode == 2
    assert "--jobs" in result.stderr and "many" in result.stderr


def _pieces(folder: Path) -> list[dict[str, object]]:
    """A print record's pieces and their drawing digests (its date aside)."""
    return json.loads((folder / "prints" / "0001.json").read_text())["pieces"]


def test_jobs_2_fingerprints_a_big_deck_in_runs_and_records_the_same_print(tmp_path: Path):
    # 90 cards, each its own face: with --jobs 2 the fingerprints are taken in two runs of pieces
    game = make_game(tmp_path / "tiny")
    rows = "".join(f"Card {n},{n},Text {n},1\n" for n in range(90))
    (game / "cards.csv").write_text("name,value,text,count\n" + rows)
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    two = build(game, tmp_path / "two", "--jobs", "2", "--force")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    pieces = _pieces(tmp_path / "one" / "tiny")
    assert pieces == _pieces(tmp_path / "two" / "tiny")
    faces = [row["face"] for row in pieces if row["component"] == "cards"]
    assert len(faces) == 90 and len(set(faces)) == 90
    assert _drawn(tmp_path / "two" / "tiny") == _drawn(tmp_path / "one" / "tiny")


def test_the_pool_works_with_the_spawn_start_method_as_on_macos_and_windows(tmp_path: Path):
    """With ``spawn`` the model and build state are pickled to each worker: the same files as one process,
    for a real game (every kind of component) and for the prints' fingerprint runs."""
    import pickle
    import shutil

    from punchboard.plumbing.pool import START_METHOD_ENV
    from punchboard.spec.loader import load_game
    from tests.conftest import ROOT

    game = tmp_path / "steamark"
    shutil.copytree(ROOT / "components" / "steamark", game)
    model = load_game(game)
    assert pickle.loads(pickle.dumps(model)) == model
    one = build(game, tmp_path / "one", "--jobs", "1")
    spawned = build(game, tmp_path / "two", "--jobs", "2", env={START_METHOD_ENV: "spawn"})
    assert one.returncode == 0, one.stderr
    assert spawned.returncode == 0, spawned.stderr
    first = _drawn(tmp_path / "one" / "steamark")
    assert len([name for name in first if name.endswith(".pdf")]) > 3
    assert _drawn(tmp_path / "two" / "steamark") == first
    assert _pieces(tmp_path / "two" / "steamark") == _pieces(tmp_path / "one" / "steamark")


def _text_deck(folder: Path, cards: int) -> Path:
    """A deck of ``cards`` distinct text cards (over the pool's threshold), some with letters outside ASCII,
    which take TrueType subset codes in the order they are first drawn."""
    folder.mkdir(parents=True)
    rows = "".join(f"Card {n},{('number', 'special', 'dual')[n % 3]},{n % 12 + 1},{n % 12 + 7 if n % 3 == 2 else ''},"
                   f"Rule {n}{' Žluť' if n % 97 == 0 else ''}{' Ωmega ß' if n == 700 else ''}.\n" for n in range(1, cards + 1))
    (folder / "cards.csv").write_text("name,kind,value,alt,text\n" + rows, encoding="utf-8")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "face.yaml").write_text("extends: steam_court/gear_card\n")
    (folder / "layouts" / "back.yaml").write_text("extends: steam_court/gear_back\n")
    (folder / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: face\n"
                                      "back: {layout: back}\nfields: [kind, value, alt, text]\ncsv: cards.csv\n")
    (folder / "game.yaml").write_text("id: texts\ntitle: Texts\nplayers: {min: 1, max: 4}\ncomponents: [deck.yaml]\n"
                                      "palette: {brass: '#b8893a', brass_light: '#e2c27d', copper: '#a4532b', soot: '#231f1c', "
                                      "paper: '#f3e9d2'}\n")
    return folder


def _kept(folder: Path) -> dict[str, object]:
    """What a build kept for the next; a component's kept pages and its kept sides' index less the stamp of the
    file they describe (its inode and times: generator/document/kept_pages.py, punchboard/incremental/side_store.py)."""
    kept: dict[str, object] = {}
    for path in (folder / ".punchboard-sides").iterdir():
        if path.suffix in (".pages", ".index"):
            head, _stamp, *rest = marshal.loads(path.read_bytes())
            kept[path.name] = (head, rest)
        else:
            kept[path.name] = path.read_bytes()
    return kept


def test_a_big_deck_drawn_ahead_by_workers_is_byte_for_byte_the_deck_one_process_draws(tmp_path: Path):
    """Over 1,000 pieces, a clean build's new sides are drawn ahead by the workers (generator/warm_sides.py)
    and replayed: the same PDFs, warnings, counts and kept sides as ``--jobs 1``, with fork and with spawn,
    and no worker file left behind. Sides whose letters took other codes in a worker are drawn again."""
    from punchboard.plumbing.pool import START_METHOD_ENV

    game = _text_deck(tmp_path / "texts", 1100)
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    assert one.returncode == 0, one.stderr
    first = _drawn(tmp_path / "one" / "texts")
    for label, env in (("fork", None), ("spawn", {START_METHOD_ENV: "spawn"})):
        two = build(game, tmp_path / label, "--jobs", "2", "--force", env=env)
        assert two.returncode == 0, two.stderr
        assert _drawn(tmp_path / label / "texts") == first, label
        assert two.stderr == one.stderr, label
        assert _kept(tmp_path / label / "texts") == _kept(tmp_path / "one" / "texts"), label
        leftovers = [p.name for p in (tmp_path / label / "texts").rglob("*") if p.name.endswith(".part")]
        assert leftovers == [], leftovers


def test_sides_drawn_ahead_are_replayed_and_counted_as_drawn(tmp_path: Path, monkeypatch, capsys):
    """In process, to see inside: both workers hand back their sides, nearly every side is replayed from them
    (only those whose letters took other codes are drawn again), and ``-v`` counts them all as drawn. A
    one-card edit afterwards draws nothing ahead (the last build kept the rest), nor does an edit of the
    common back (one side); an edit of the card face (every face new) does, and writes what one process does."""
    from punchboard.cli import main
    from punchboard.incremental.side_store import SideStore

    game = _text_deck(tmp_path / "texts", 1100)
    adopted: list[int] = []
    ahead: list[str] = []
    real_adopt, real_took = SideStore.adopt, SideStore.took

    def adopt(self: SideStore, path: Path, index: dict[str, tuple[int, int]]) -> None:
        adopted.append(len(index))
        real_adopt(self, path, index)

    def took(self: SideStore, key: str) -> None:
        if any(key in index for _, _, index in self._warm):
            ahead.append(key)
        real_took(self, key)

    monkeypatch.setattr(SideStore, "adopt", adopt)
    monkeypatch.setattr(SideStore, "took", took)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "2", "--force", "-v"]) == 0
    said = capsys.readouterr().out
    assert "deck: 1101 distinct sides drawn, 0 kept from the last build" in said, said
    assert len(adopted) == 2 and sum(adopted) >= 1101 and min(adopted) > 400, adopted
    assert len(ahead) > 1000, len(ahead)  # replayed from the workers' drawings, not drawn again

    csv = game / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Card 500,", "Card 500!,"), encoding="utf-8")
    adopted.clear()
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "2", "-v"]) == 0
    assert adopted == [] and "deck: 1 distinct side drawn, 1100 kept from the last build" in capsys.readouterr().out

    back = game / "layouts" / "back.yaml"  # the common back changed: one side to draw, none ahead
    back.write_text(back.read_text() + "palette: {paper: '#f0e6d0'}\n")
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "2", "-v"]) == 0
    assert adopted == [] and "deck: 1 distinct side drawn, 1100 kept from the last build" in capsys.readouterr().out

    face = game / "layouts" / "face.yaml"  # the card face changed: every face is new, drawn ahead
    face.write_text(face.read_text() + "palette: {soot: '#201c19'}\n")
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "2", "-v"]) == 0
    assert len(adopted) == 2 and "deck: 1100 distinct sides drawn, 1 kept from the last build" in capsys.readouterr().out
    one = tmp_path / "one"
    assert main(["build", str(game), "--out", str(one), "--jobs", "1", "--quiet"]) == 0
    assert (one / "texts" / "deck.pdf").read_bytes() == (tmp_path / "out" / "texts" / "deck.pdf").read_bytes()


def test_a_large_deck_of_few_distinct_cards_is_not_drawn_ahead(tmp_path: Path):
    """1,000 pieces but 11 distinct sides (10 cards × 100 copies, one back): forking workers would cost more
    than drawing them; 600 cards in two copies: each worker would draw all 600 (measured slower); 1,100
    distinct cards, all new, are worth it."""
    from punchboard.generator.options import BuildOptions
    from punchboard.generator.warm_sides import layout_digests, worth_it

    from punchboard.incremental.side_store import SideStore
    from punchboard.spec.loader import load_game

    few = _text_deck(tmp_path / "few", 10)
    (few / "deck.yaml").write_text((few / "deck.yaml").read_text() + "copies: 100\n")
    twice = _text_deck(tmp_path / "twice", 600)  # each worker's run of pages would hold all 600 cards
    (twice / "deck.yaml").write_text((twice / "deck.yaml").read_text() + "copies: 2\n")
    many = _text_deck(tmp_path / "many", 1100)
    for folder, expected in ((few, False), (twice, False), (many, True)):
        game = load_game(folder)
        component = game.printed[0]
        store = SideStore(tmp_path / "out" / folder.name, component.id, "salt")
        assert len(component.pieces) >= 1000
        assert worth_it(game, component, store, BuildOptions(), 2, layout_digests(game, component)) is expected, folder.name
        store.discard()
