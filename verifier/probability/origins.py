"""Where randomness entered a setup, so deal probabilities can be exact over the whole random setup.

Every random step (a shuffle, a deal's shuffle, a random pick, a draw-and-keep) makes an
*origin*: the fixed set of pieces it arranged at random. A piece it arranged carries the
origin's tag. As long as later steps move tagged pieces by position only (the top card,
a deal, a burn, a face-up removal, another shuffle), which piece sits in which place is
exchangeable: every arrangement of the origin's pieces over the places it reached is
equally likely. Then the pieces in a player's hand are a uniformly random subset of the
origin's pieces of that size, whatever else the setup did with the rest, and the
probability of a hand is hypergeometric over the origin's pieces.

A step that looks at what tagged pieces are (a `where` that is true for some of an
origin's pieces and false for others, a `give` that matches a random team) *taints* the
origin: from then on probabilities of hands holding its pieces are Monte Carlo estimates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass
class Origin:
    pool: tuple[int, ...]  # the pieces it arranged at random
    made_by: str  # the step, in report words
    tainted: str = ""  # why its arrangement no longer is exchangeable ('' while it is)


@dataclass
class Origins:
    tag: dict[int, int] = field(default_factory=dict)  # instance id → origin index
    origins: list[Origin] = field(default_factory=list)
    enabled: bool = True  # Monte Carlo replays do not need it

    def new(self, ids: Sequence[int], made_by: str, tainted: str = "") -> None:
        index = len(self.origins)
        self.origins.append(Origin(tuple(ids), made_by, tainted))
        for i in ids:
            self.tag[i] = index

    def present(self, ids: Sequence[int]) -> set[int | None]:
        return {self.tag.get(i) for i in ids}

    def shuffled(self, ids: Sequence[int], made_by: str) -> None:
        """``ids`` were put in random order: record what that arrangement is random over."""
        if not self.enabled:
            return
        if not ids:
            return
        present = self.present(ids)
        tagged = present - {None}
        if not tagged:
            self.new(ids, made_by)
            return
        here = set(ids)
        complete = all(not self.origins[o].tainted and all(self.tag.get(i) == o and i in here for i in self.origins[o].pool)
                       for o in tagged)
        if complete:
            # every piece of every earlier random arrangement is here: the contents are a fixed set again
            self.new(ids, made_by)
        elif len(present) == 1 and not self.origins[next(iter(tagged))].tainted:
            return  # a part of one exchangeable arrangement, rearranged at random: still exchangeable
        else:
            self.new(ids, made_by, tainted=f"{made_by} shuffles pieces that earlier random steps chose "
                                           "together with others, so what it holds is itself random")

    def picked(self, candidates: Sequence[int], made_by: str) -> None:
        """A random choice among ``candidates`` that does not look at what they are."""
        if not self.enabled:
            return
        if not candidates:
            return
        present = self.present(candidates)
        if present == {None}:
            self.new(candidates, made_by)
        elif len(present) == 1 or None in present:
            self.shuffled(candidates, made_by)

    def looked_at(self, zone_ids: Sequence[int], test: Callable[[int], object], made_by: str) -> None:
        """A step chose among ``zone_ids`` by what pieces are: taint every arrangement the choice depends on."""
        if not self.enabled:
            return
        for o in self.present(zone_ids) - {None}:
            origin = self.origins[o]
            if origin.tainted:
                continue
            results = {test(i) for i in origin.pool}
            if len(results) > 1:
                origin.tainted = f"{made_by} picks pieces by what they are after a random step arranged them"

    def chose_at_random_by_content(self, ids: Sequence[int], made_by: str) -> None:
        """A random choice that depends on what pieces are (a team chosen at random): no exact figure."""
        if not self.enabled:
            return
        if not ids:
            return
        for o in self.present(ids) - {None}:
            if not self.origins[o].tainted:
                self.origins[o].tainted = f"{made_by} chooses at random by what pieces are"
        untagged = [i for i in ids if self.tag.get(i) is None]
        if untagged:
            self.new(untagged, made_by, tainted=f"{made_by} chooses at random by what pieces are")
