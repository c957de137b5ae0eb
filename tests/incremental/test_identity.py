"""ByIdentity: a value worked out once per object, never handed to another object, and bounded."""

from __future__ import annotations

from dataclasses import dataclass

from punchboard.incremental.identity import ByIdentity


@dataclass(frozen=True)
class Thing:
    name: str


def test_once_per_object_and_never_for_an_equal_other():
    memo: ByIdentity[Thing, str] = ByIdentity()
    calls: list[Thing] = []

    def work(thing: Thing) -> str:
        calls.append(thing)
        return thing.name.upper()

    a, b = Thing("a"), Thing("a")
    assert memo.get(a, work) == "A" and memo.get(a, work) == "A"
    assert calls == [a]
    assert memo.get(b, work) == "A"
    assert len(calls) == 2 and calls[1] is b  # equal but another object: worked out for itself


def test_an_id_freed_and_reused_is_not_mistaken():
    memo: ByIdentity[Thing, str] = ByIdentity()
    seen = []
    for index in range(200):  # objects made and dropped: CPython reuses their ids
        thing = Thing(str(index))
        seen.append(memo.get(thing, lambda t: t.name))
        del thing
    assert seen == [str(index) for index in range(200)]


def test_a_long_running_process_keeps_at_most_limit_objects():
    memo: ByIdentity[Thing, int] = ByIdentity(limit=8)
    for index in range(100):
        memo.get(Thing(str(index)), lambda t: len(t.name))
    assert len(memo._known) <= 8
