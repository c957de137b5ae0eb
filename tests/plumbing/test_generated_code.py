"""The dataclass memo (plumbing/generated_code.py): a class made through it is the class ``dataclasses`` makes."""

from __future__ import annotations

import builtins
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punchboard.plumbing import generated_code

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__", "__le__", "__gt__",
           "__ge__")

names = st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(lambda n: n not in {"self", "if", "in", "is", "or", "and", "not", "def", "for", "del", "as"}),
                 min_size=0, max_size=5, unique=True)
specs = st.tuples(names, st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.integers(0, 5))


def _make(fields: list[str], frozen: bool, order: bool, slots: bool, kw_only: bool, defaults: int) -> type:
    annotations = {name: int for name in fields}
    namespace: dict[str, object] = {"__annotations__": annotations}
    for name in fields[len(fields) - min(defaults, len(fields)):]:
        namespace[name] = dataclasses.field(default_factory=list) if len(name) % 2 else 7
    cls = type("Made", (), namespace)
    return dataclasses.dataclass(frozen=frozen, order=order, slots=slots, kw_only=kw_only)(cls)


def _codes(cls: type) -> dict[str, object]:
    return {name: getattr(cls, name).__code__ for name in METHODS
            if hasattr(getattr(cls, name, None), "__code__")}


@settings(max_examples=60, deadline=None)
@given(spec=specs)
def test_a_class_made_through_the_memo_is_the_class_dataclasses_makes(spec, monkeypatch_module):
    plain = _make(*spec)
    monkeypatch_module.setattr(dataclasses, "exec", generated_code._exec, raising=False)
    first, again = _make(*spec), _make(*spec)  # compiled, then taken from the memo
    monkeypatch_module.delattr(dataclasses, "exec")
    assert _codes(first) == _codes(plain) == _codes(again) and _codes(plain)
    values = list(range(len(spec[0])))
    if spec[0]:
        build = (lambda cls: cls(**dict(zip(spec[0], values, strict=True)))) if spec[4] else (lambda cls: cls(*values))
        made, expected = build(again), build(plain)
        assert repr(made) == repr(expected) and made == build(again)
        assert (hash(made) == hash(build(again))) if spec[1] else True


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_a_source_under_future_annotations_is_compiled_as_dataclasses_compiles_it():
    """This test module, like punchboard's, has ``from __future__ import annotations``: the memo must not pass
    that on to the code it compiles, or a return annotation would become a string."""
    source = "def __create_fn__(_return_type):\n def f(x)->_return_type:\n  return x\n return f"
    space: dict[str, object] = {}
    generated_code._exec(source, {}, space)
    made = space["__create_fn__"](int)  # type: ignore[operator]
    assert made.__annotations__ == {"return": int}
    builtins.exec(source, {}, space)  # exec called from here inherits this module's flags
    assert space["__create_fn__"](int).__annotations__ == {"return": "_return_type"}  # type: ignore[operator]


def _command(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PUNCHBOARD_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "punchboard", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_command_keeps_its_classes_code_and_reads_it_back(tmp_path: Path):
    cache = tmp_path / "cache"
    first = _command(cache, "list")
    assert first.returncode == 0, first.stderr
    memo = cache / "generated-code" / f"{sys.implementation.cache_tag}.marshal"
    written = memo.stat().st_mtime_ns
    header, known = __import__("marshal").loads(memo.read_bytes())
    assert header == generated_code.HEADER and len(known) > 50
    second = _command(cache, "list")
    assert second.returncode == 0 and second.stdout == first.stdout
    assert memo.stat().st_mtime_ns == written  # nothing new to keep: the classes came from the memo


def test_a_damaged_memo_is_ignored_and_made_again(tmp_path: Path):
    cache = tmp_path / "cache"
    memo = cache / "generated-code" / f"{sys.implementation.cache_tag}.marshal"
    memo.parent.mkdir(parents=True)
    memo.write_bytes(b"\x00not marshal at all")
    result = _command(cache, "list")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    header, known = __import__("marshal").loads(memo.read_bytes())
    assert header == generated_code.HEADER and known


def test_without_namespaces_it_runs_in_the_callers_as_exec_does():
    space: dict[str, object] = {}

    def caller() -> object:
        generated_code._exec("made = 41 + 1", space)
        return space["made"]

    assert caller() == 42
    namespace = {"__name__": "probe"}
    exec("from punchboard.plumbing import generated_code\ngenerated_code._exec('seen = __name__')", namespace)
    assert namespace["seen"] == "probe"
