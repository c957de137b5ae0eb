"""Parsed YAML remembered on disk (punchboard/incremental/parsed_store.py) is what parsing the text gives.

The oracle: for generated documents (every kind of plain value, anchors, aliases and merge keys),
a load with nothing remembered, the load that remembered it, and a load that read it back give
the same data (by ``repr``: types, float bits and key order) and the same marks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from punchboard.incremental import parsed_store
from punchboard.plumbing.errors import SpecError
from punchboard.spec import yamlsource

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(min_size=1, max_size=10), inner, max_size=5)), max_leaves=30)
HAND_WRITTEN = [
    "base: &b {x: 1, y: 2.50}\nfirst: {<<: *b, z: 3}\nsecond: *b\nlist: [*b, *b]\n",
    "when: 2024-01-02\nraw: !!binary aGVsbG8=\nn: .nan\ni: -.inf\nz: -0.0\noct: 0o17\nhex: '0x1f'\n",
    "# only a comment\n",
    "",
    "- a\n- b: |\n    two\n    lines\n- {c: 'quoted: colon'}\n",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(yamlsource, "_parsed", None)
    return tmp_path / "cache" / parsed_store.SUBFOLDER


def _seen(doc: yamlsource.Document) -> tuple[str, Any, Any, str | None]:
    return repr(doc.data), sorted(doc.value_marks.items(), key=repr), sorted(doc.key_marks.items(), key=repr), doc.text_digest


def _three_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Any]:
    with monkeypatch.context() as patch:
        patch.setattr(parsed_store, "read", lambda *args: None)
        patch.setattr(parsed_store, "write", lambda *args: None)
        afresh = _seen(yamlsource.load_yaml(path))
    remembered = _seen(yamlsource.load_yaml(path))
    parses: list[Path] = []
    real = yamlsource.parse_yaml
    with monkeypatch.context() as patch:
        patch.setattr(yamlsource, "parse_yaml", lambda text, where, **kw: parses.append(where) or real(text, where, **kw))
        read_back = _seen(yamlsource.load_yaml(path))
    assert parses == []  # read back, not parsed
    return afresh, remembered, read_back


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=values, flow=st.booleans())
def test_a_remembered_parse_is_the_parse(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: Any,
                                          flow: bool) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True), encoding="utf-8")
    afresh, remembered, read_back = _three_ways(path, monkeypatch)
    assert remembered == afresh
    assert read_back == afresh


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_anchors_merges_and_odd_scalars_read_back_the_same(cache: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(text, encoding="utf-8")
    afresh, remembered, read_back = _three_ways(path, monkeypatch)
    assert remembered == afresh == read_back


def test_each_load_gets_data_of_its_own(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    yamlsource.load_yaml(path)
    one = yamlsource.load_yaml(path)
    one.data["a"].append(3)  # a loader's checks may change what they are given
    assert yamlsource.load_yaml(path).data == {"a": [1, 2]}


def test_an_edit_is_parsed_again_and_a_broken_file_is_reported_every_time(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert yamlsource.load_yaml(path).data == {"a": 1}
    path.write_text("a: 2\n", encoding="utf-8")
    assert yamlsource.load_yaml(path).data == {"a": 2}
    path.write_text("a: [2\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError, match="YAML syntax error"):
            yamlsource.load_yaml(path)
    path.write_text("a: 1\n", encoding="utf-8")
    assert yamlsource.load_yaml(path).data == {"a": 1}


def test_a_record_is_kept_per_file_and_limit(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    for n in range(5):
        path.write_text(f"a: {n}\n", encoding="utf-8")
        yamlsource.load_yaml(path)
    assert len([p for p in cache.rglob("*") if p.is_file()]) == 1  # edits replace the record
    path.write_text("a: [1, 2, 3, 4, 5, 6]\n", encoding="utf-8")
    yamlsource.load_yaml(path)
    with pytest.raises(SpecError, match="more than 4 values"):  # another limit: parsed under that limit
        yamlsource.load_yaml(path, max_nodes=4)


def test_a_damaged_record_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("a: {b: [1.5, x]}\n", encoding="utf-8")
    expected = yamlsource.load_yaml(path).data
    record = next(p for p in cache.rglob("*") if p.is_file())
    for damage in (b"", b"\x00\x01garbage", record.read_bytes()[:-7]):
        record.write_bytes(damage)
        assert yamlsource.load_yaml(path).data == expected


def test_a_folder_that_cannot_be_written_remembers_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(blocked))
    path = tmp_path / "doc.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert yamlsource.load_yaml(path).data == yamlsource.load_yaml(path).data == {"a": 1}


def test_the_command_reads_back_what_it_parsed_and_reports_the_same(tmp_path: Path) -> None:
    """Through the CLI: a second `check` of an unchanged game parses nothing and says what the first said."""
    game = tmp_path / "mygame"
    env = {"PUNCHBOARD_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "punchboard", "init", str(game)], check=True, env=env, timeout=300,
                   capture_output=True)
    script = ("import sys; from punchboard.spec import yamlsource; real = yamlsource.parse_yaml; n = []\n"
              "yamlsource.parse_yaml = lambda *a, **k: n.append(1) or real(*a, **k)\n"
              "from punchboard.cli import main; code = main(sys.argv[1:]); print(len(n), code, 'yaml' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script, "check", str(game)], capture_output=True, text=True,
                           env=env, timeout=300) for _ in range(2)]
    first, second = (run.stdout.splitlines() for run in runs)
    assert int(first[-1].split()[0]) > 0 and first[-1].endswith(" 0 True")
    assert second[-1] == "0 0 False"  # nothing parsed, and PyYAML not even imported
    assert first[:-1] == second[:-1] and runs[0].stderr == runs[1].stderr


def test_floats_keep_their_bits(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    numbers = [0.1, 1e-310, 2.5e300, -0.0, 1 / 3]
    path.write_text(yaml.safe_dump({"n": numbers}), encoding="utf-8")
    parsed = yamlsource.load_yaml(path).data["n"]
    back = yamlsource.load_yaml(path).data["n"]
    assert all(isinstance(v, float) for v in parsed)
    assert [v.hex() for v in back] == [v.hex() for v in parsed] == [v.hex() for v in numbers]
