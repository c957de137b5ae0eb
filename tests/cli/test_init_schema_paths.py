"""``punchboard init`` writes each file's ``$schema`` path relative to that file (issue 40 item 7), so the starter's
editor hints hold on a co-designer's machine, where the checkout lies at another absolute path."""

from __future__ import annotations

from pathlib import Path

from punchboard.plumbing.paths import SCHEMAS
from tests.conftest import run_cli


def test_init_writes_schema_paths_relative_to_each_file(tmp_path: Path):
    assert run_cli("init", "My Game", cwd=tmp_path).returncode == 0
    game = tmp_path / "My Game"
    seen = 0
    for path in sorted(game.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if "$schema=" not in first:
            continue
        seen += 1
        schema = first.split("$schema=", 1)[1]
        assert not Path(schema).is_absolute() and ".." in schema, (path, schema)
        target = (path.parent / schema).resolve()
        assert target.is_file() and target.parent == SCHEMAS.resolve(), (path, schema)
    assert seen >= 8  # game, setup, three components, four layouts
    # one level deeper, one more "..": each path is relative to its own file
    top = (game / "game.yaml").read_text(encoding="utf-8").split("$schema=", 1)[1].split("/")
    inner = (game / "layouts" / "card.yaml").read_text(encoding="utf-8").split("$schema=", 1)[1].split("/")
    assert inner.count("..") == top.count("..") + 1
