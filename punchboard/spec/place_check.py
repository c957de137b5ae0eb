"""``place`` that would mix values: a fill of named zones whose pieces the rulebook text does not determine.

A ``place`` from the box takes the pieces its ``component``/``where`` choose and puts ``each`` into every
zone of ``into``. Two constructions leave open *which* pieces go where, and the simulator would answer
by the box's order, so a ``has:``, an event or a ``where:`` reading those zones would read an arbitrary
answer with confidence:

* ``distinct: FIELD`` when the pieces have more values of FIELD than ``each``: which values go in is not
  said (6 of 8 colours);
* no ``distinct:`` when the pieces differ (in a field, their name or component) and they do not all go
  into one zone: which of them go into which zone is not said (tokens 1–6 over four Quarters).

Both are refused at ``check`` with the rewrite (:func:`ambiguity`). A place from a zone an earlier step
filled is not judged here: what that zone holds is known only when the setup runs (a shuffled zone's
top is a random choice, which is what "shuffle them first" asks for).
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping, Sequence
from typing import Any

from . import expressions
from .model import Component


def pieces(components: Sequence[Component], ids: tuple[str, ...], where: str | None,
           env: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """What conditions see of every piece in the box the step chooses from (one entry per physical piece)."""
    out: list[Mapping[str, Any]] = []
    for component in components:
        if ids and component.id not in ids:
            continue
        if component.kind == "supply":
            seen = [({**item.fields, "name": item.name, "component": component.id, "copy": copy})
                    for item in component.supplies for copy in range(item.count)]
        else:
            seen = [{**piece.fields, "name": piece.name, "component": component.id, "copy": piece.copy}
                    for piece in component.pieces]
        for piece in seen:
            if where is None or expressions.evaluate(where, ChainMap(piece, dict(env)), lenient=True):
                out.append(piece)
    return out


def _values(chosen: Sequence[Mapping[str, Any]], key: str) -> list[Any]:
    return sorted({piece.get(key) for piece in chosen}, key=lambda v: (v is None, str(v)))


def _shown(values: list[Any]) -> str:
    words = ["unset" if v is None else str(v) for v in values]
    return ", ".join(words[:8]) + (f", … ({len(words)} in all)" if len(words) > 8 else "")


def ambiguity(chosen: Sequence[Mapping[str, Any]], each: int, into: tuple[str, ...], distinct: str | None,
              at: str) -> str | None:
    """Why this fill is not determined by what the step says (None when it is)."""
    if not chosen:
        return None
    zones = into[0] if len(into) == 1 else f"[{', '.join(into)}]"
    if distinct is not None:
        values = _values(chosen, distinct)
        if len(values) <= each:
            return None
        return (f"place would mix values: distinct: {distinct} puts {each} different {distinct} values into "
                f"{'each of ' if len(into) > 1 else ''}{zones}, but the {len(chosen)} pieces it chooses from have "
                f"{len(values)} ({_shown(values)}) at {at}, and which {each} is not said (the verifier would pick "
                f"some); name them with where: \"{distinct} in [...]\", or place every value with each: {len(values)}")
    keys = sorted({k for piece in chosen for k in piece if k != "copy"},
                  key=lambda k: (k in ("name", "component"), k))
    differ = [k for k in keys if len(_values(chosen, k)) > 1]
    if not differ or (len(into) == 1 and each >= len(chosen)):
        return None
    field = differ[0]
    values = _values(chosen, field)
    return (f"place would mix values: the {len(chosen)} pieces it chooses from differ in {field} "
            f"({_shown(values)}) at {at}, and which of them go into {zones} is not said (the verifier would follow "
            f"the box's order); write distinct: {field} for one of each {field} per zone, a where: that chooses "
            f"alike pieces, or shuffle them into a zone first and place from it for a random split")
