"""Events over more than one count: unions (``any_of:``, "5 or 2 of X") and k of one kind (``of_a_kind:``,
"4 of one colour").

A hand meets a union when any of its terms holds (the pieces matching the term's ``where`` number within its
``min``/``max``); it meets "of a kind" when the most pieces that share one value of the field (among those
matching ``where``) lie within ``min``/``max``. Both are functions of how many pieces of each *class* a hand
holds: for a union, a piece's class is which of the terms it matches; for of a kind, the field's value.
So the exact figure is multivariate hypergeometric over the classes of a random step's pieces
(:func:`~.stats.all_hold`), with the hand's fixed pieces added, hands of independent steps multiplied, exactly
as for a plain count.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from punchboard.spec.setup_model import Event

UNMARKED = ("unmarked",)  # the class of a piece an of-a-kind event does not count


def _inside(k: int, low: int, high: int | None) -> bool:
    return k >= low and (high is None or k <= high)


@dataclass(frozen=True)
class Reading:
    """What an event reads of one hand's pieces: a plain count, a union of counts, or the most of one kind."""

    event: Event
    terms: tuple[frozenset[int], ...]  # the pieces each term (or the plain where) marks
    kind_of: Mapping[int, Hashable]  # of a kind: a marked piece → its value of the field

    def classify(self, piece: int) -> Hashable:
        if self.event.of_a_kind is not None:
            return self.kind_of.get(piece, UNMARKED)
        return tuple(piece in term for term in self.terms)

    def hit_counts(self, counts: Mapping[Any, int]) -> bool:
        """Whether a hand holding ``counts`` pieces of each class meets the event (a class is a tuple of term
        flags, or for of a kind a field's value)."""
        event = self.event
        if event.of_a_kind is not None:
            most = max((k for cls, k in counts.items() if cls != UNMARKED), default=0)
            return _inside(most, event.low, event.high)
        if event.any_of:
            return any(_inside(sum(k for cls, k in counts.items() if cls[j]), term.low, term.high)
                       for j, term in enumerate(event.any_of))
        return _inside(sum(k for cls, k in counts.items() if cls[0]), event.low, event.high)

    def hit(self, hand: Sequence[int]) -> bool:
        counts: dict[Hashable, int] = {}
        for piece in hand:
            cls = self.classify(piece)
            counts[cls] = counts.get(cls, 0) + 1
        return self.hit_counts(counts)


def reading(event: Event, matching: Callable[[str | None], frozenset[int]], value: Callable[[int], Any]) -> Reading:
    if event.any_of:
        return Reading(event, tuple(matching(term.where) for term in event.any_of), {})
    marked = matching(event.where)
    kinds = {i: value(i) for i in marked} if event.of_a_kind is not None else {}
    return Reading(event, (marked,), kinds)


def group_holds(read: Reading, pool: Sequence[int], fixed: Sequence[Mapping[Hashable, int]],
                want_hit: bool) -> tuple[list[Hashable], list[int], Callable[[int, tuple[int, ...]], bool]]:
    """The classes of an origin's ``pool``, their sizes, and the test of hand ``h`` holding vector ``v`` of
    them beside its ``fixed`` pieces (``want_hit``: meets the event; else misses it)."""
    sizes: dict[Hashable, int] = {}
    for piece in pool:
        cls = read.classify(piece)
        sizes[cls] = sizes.get(cls, 0) + 1
    classes = sorted(sizes, key=repr)

    def holds(h: int, vector: tuple[int, ...]) -> bool:
        counts = dict(fixed[h])
        for cls, k in zip(classes, vector, strict=True):
            counts[cls] = counts.get(cls, 0) + k
        return read.hit_counts(counts) == want_hit

    return classes, [sizes[c] for c in classes], holds
