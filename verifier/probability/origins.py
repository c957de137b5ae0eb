"""Where randomness entered a setup, so deal probabilities can be exact over the whole random setup, and
whether the setup's verdict itself depends on chance.

Every random step (a shuffle, a deal's shuffle, a random pick, a draw-and-keep) makes an
*origin*: the set of pieces it arranged at random. A piece it arranged carries the
origin's tag. As long as later steps move tagged pieces by position only (the top card,
a deal, a burn, a face-up removal, another shuffle), which piece sits in which place is
exchangeable: every arrangement of the origin's pieces over the places it reached is
equally likely. Then the pieces in a player's hand are a uniformly random subset of the
origin's pieces of that size, whatever else the setup did with the rest, and the
probability of a hand is hypergeometric over the origin's pieces.

A shuffle of pieces from several independent origins and fixed pieces (N+2 of 10 guild
cards shuffled into an age deck) makes a *mixture* origin: its pieces are fixed pieces plus,
from each earlier origin, a uniformly random subset of a known size; how many of them an
event marks then follows a product of hypergeometric laws, and hands dealt from it stay exact.

A step that looks at what tagged pieces are (a `where` that is true for some of an
origin's pieces and false for others, a `give` that matches a random team) *taints* the
origin: from then on probabilities of hands holding its pieces are Monte Carlo estimates.
The same look is a *random read* (:attr:`Origins.random_reads`): what the step does, and so
whether the setup falls short, can then differ from deal to deal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass
class Origin:
    pool: tuple[int, ...]  # the pieces it arranged at random (in this run)
    made_by: str  # the step, in report words
    tainted: str = ""  # why its arrangement no longer is exchangeable ('' while it is)
    support: frozenset[int] = frozenset()  # every piece that could be in its pool, on any deal
    ancestors: frozenset[int] = frozenset()  # itself and every origin its pool was drawn from
    fixed: tuple[int, ...] = ()  # a mixture's pieces that are there on every deal
    parts: tuple[tuple[int, int], ...] = ()  # a mixture's (earlier origin, how many of its pieces)
    by_content: bool = False  # made by a choice by what pieces are (its randomness is that choice's)

    @property
    def mixture(self) -> bool:
        return bool(self.parts)


@dataclass
class Origins:
    tag: dict[int, int] = field(default_factory=dict)  # instance id → origin index
    origins: list[Origin] = field(default_factory=list)
    enabled: bool = True  # Monte Carlo replays do not need it
    random_reads: list[str] = field(default_factory=list)  # steps whose outcome can differ from deal to deal
    varied: set[int] = field(default_factory=set)  # the origins such a read depends on, with their ancestors
    read_count: int = 0  # random reads so far, each time one happens (random_reads names each step once)

    def new(self, ids: Sequence[int], made_by: str, tainted: str = "", *, support: frozenset[int] | None = None,
            ancestors: frozenset[int] = frozenset(), fixed: tuple[int, ...] = (),
            parts: tuple[tuple[int, int], ...] = ()) -> None:
        index = len(self.origins)
        self.origins.append(Origin(tuple(ids), made_by, tainted, frozenset(ids) if support is None else support,
                                   ancestors | {index}, fixed, parts))
        for i in ids:
            self.tag[i] = index

    def present(self, ids: Sequence[int]) -> set[int | None]:
        return {self.tag.get(i) for i in ids}

    def tagged_in(self, ids: Sequence[int]) -> set[int]:
        """The origins of the pieces ``ids`` that some random step arranged."""
        return {o for i in ids if (o := self.tag.get(i)) is not None}

    def support_of(self, ids: Sequence[int]) -> frozenset[int]:
        """Every piece that could stand where ``ids`` stand on some deal."""
        out: set[int] = set()
        for i in ids:
            o = self.tag.get(i)
            out.update([i] if o is None else self.origins[o].support)
        return frozenset(out)

    def shuffled(self, ids: Sequence[int], made_by: str) -> None:
        """``ids`` were put in random order: record what that arrangement is random over."""
        if not self.enabled or not ids:
            return
        present = self.present(ids)
        tagged = {o for o in present if o is not None}
        if not tagged:
            self.new(ids, made_by)
            return
        here = set(ids)
        complete = all(not self.origins[o].tainted and not self.origins[o].mixture
                       and all(self.tag.get(i) == o and i in here for i in self.origins[o].pool) for o in tagged)
        if complete:
            # every piece of every earlier random arrangement is here: the contents are a fixed set again
            self.new(ids, made_by, ancestors=frozenset().union(*(self.origins[o].ancestors for o in tagged)))
            return
        if len(present) == 1 and not self.origins[next(iter(tagged))].tainted:
            return  # a part of one exchangeable arrangement, rearranged at random: still exchangeable
        support = self.support_of(ids)
        ancestry = [self.origins[o].ancestors for o in tagged]
        independent = all(not (a & b) for n, a in enumerate(ancestry) for b in ancestry[n + 1:])
        fixed = tuple(i for i in ids if self.tag.get(i) is None)
        parts = tuple(sorted((o, sum(1 for i in ids if self.tag.get(i) == o)) for o in tagged))
        tainted = "" if independent and not any(self.origins[o].tainted for o in tagged) else (
            f"{made_by} shuffles pieces that earlier random steps chose together with others that depend on "
            "them, so what it holds is itself random")
        self.new(ids, made_by, tainted, support=support, ancestors=frozenset().union(*ancestry), fixed=fixed,
                 parts=parts)

    def picked(self, candidates: Sequence[int], made_by: str) -> None:
        """A random choice among ``candidates`` that does not look at what they are."""
        if not self.enabled or not candidates:
            return
        if self.present(candidates) == {None}:
            self.new(candidates, made_by)
        else:
            self.shuffled(candidates, made_by)

    def varies(self, ids: Sequence[int], test: Callable[[int], object]) -> bool:
        """Whether ``test`` can come out differently, from deal to deal, on the pieces standing where ``ids``
        stand. A read that holds every piece of a random arrangement reads the same pieces whatever their
        order: only what is random about *which* pieces they are can make it differ."""
        here = set(ids)
        return any(self._varies(o, here, test) for o in self.tagged_in(ids))

    def _varies(self, o: int, here: set[int], test: Callable[[int], object]) -> bool:
        origin = self.origins[o]
        spread = len({test(i) for i in origin.support}) > 1
        if not spread or not all(i in here for i in origin.pool):
            return spread
        if origin.mixture:  # all of it is read: its fixed pieces are the same on every deal, its parts are not
            return any(size < len(self.origins[part].pool) and len({test(i) for i in self.origins[part].support}) > 1
                       or size == len(self.origins[part].pool) and self._varies(part, set(self.origins[part].pool), test)
                       for part, size in origin.parts)
        return origin.support != frozenset(origin.pool)  # a fixed set in any order reads the same

    def read(self, ids: Sequence[int], test: Callable[[int], object], made_by: str) -> None:
        """A check reads what the pieces ``ids`` are: a random read when that can differ from deal to deal."""
        if self.enabled and self.varies(ids, test):
            self.read_count += 1
            if made_by not in self.random_reads:
                self.random_reads.append(made_by)
            for o in self.tagged_in(ids):
                self.varied |= self.origins[o].ancestors

    def looked_at(self, zone_ids: Sequence[int], test: Callable[[int], object], made_by: str) -> None:
        """A step chose among ``zone_ids`` by what pieces are: taint every arrangement the choice depends on."""
        if not self.enabled:
            return
        self.read(zone_ids, test, made_by)
        for o in self.tagged_in(zone_ids):
            origin = self.origins[o]
            if origin.tainted:
                continue
            if len({test(i) for i in origin.support}) > 1:
                origin.tainted = f"{made_by} picks pieces by what they are after a random step arranged them"

    def chose_at_random_by_content(self, ids: Sequence[int], made_by: str) -> None:
        """A random choice that depends on what pieces are (a team chosen at random): no exact figure."""
        if not self.enabled or not ids:
            return
        for o in self.tagged_in(ids):
            if not self.origins[o].tainted:
                self.origins[o].tainted = f"{made_by} chooses at random by what pieces are"
        untagged = [i for i in ids if self.tag.get(i) is None]
        if untagged:
            self.new(untagged, made_by, tainted=f"{made_by} chooses at random by what pieces are")
            self.origins[-1].by_content = True

    # ------------------------------------------------------------ how many pieces an event marks

    def marked_law(self, o: int, marked: Callable[[int], bool]) -> dict[int, Fraction] | None:
        """How many of origin ``o``'s pieces ``marked`` selects, as {count: probability}; None when tainted."""
        origin = self.origins[o]
        if origin.tainted:
            return None
        if not origin.mixture:
            return {sum(1 for i in origin.pool if marked(i)): Fraction(1)}
        law = {sum(1 for i in origin.fixed if marked(i)): Fraction(1)}
        for part, size in origin.parts:
            inner = self.marked_law(part, marked)
            if inner is None:
                return None
            total = len(self.origins[part].pool)
            drawn: dict[int, Fraction] = {}
            for m, p in inner.items():  # `size` of the part's `total` pieces, `m` of them marked
                for k in range(max(0, size - (total - m)), min(size, m) + 1):
                    w = Fraction(math.comb(m, k) * math.comb(total - m, size - k), math.comb(total, size))
                    drawn[k] = drawn.get(k, Fraction(0)) + p * w
            combined: dict[int, Fraction] = {}
            for a, pa in law.items():
                for b, pb in drawn.items():
                    combined[a + b] = combined.get(a + b, Fraction(0)) + pa * pb
            law = combined
        return law
