"""Values worked out once per object, for model objects that are compared by content but memoised by identity.

A layout's digest, the fields it reads, a checker's plan of it: each is worked out once per
``Layout`` object. Hashing a layout by content would cost what the memo saves, so the memo is
keyed by the object's identity (:data:`identity`) and holds the object beside its value (an identity is only
reused once its object is gone, and a held object is never gone). A long-running ``watch`` loads new layout objects on every
save, so a memo that outlives one build keeps at most ``limit`` entries and starts afresh beyond.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# An object's identity as a number, as ``id()`` gives it but without the audit event ``id()`` raises: while a
# build records what it reads (punchboard/incremental/reads.py) every audit event calls a Python hook, and a 2,000-card edit
# asked for 40,000 identities. ``object.__hash__`` is the pointer turned by a few bits, so distinct live objects
# have distinct numbers (its one exception, a pointer of all ones, is no object's), whatever hash their class
# defines.
identity = object.__hash__


class ByIdentity(Generic[K, V]):
    """``memo.get(obj, work)``: ``work(obj)``, worked out once per object while it is remembered."""

    def __init__(self, limit: int | None = 512):
        self.limit = limit
        self._known: dict[int, tuple[K, V]] = {}
        _MEMOS.add(self)

    def get(self, obj: K, work: Callable[[K], V]) -> V:
        known = self._known.get(identity(obj))
        if known is not None and known[0] is obj:
            return known[1]
        value = work(obj)
        if self.limit is not None and len(self._known) >= self.limit:
            self._known.clear()
        self._known[identity(obj)] = (obj, value)
        return value

    def clear(self) -> None:
        """Forget every object (a new model replaces the one these were worked out for)."""
        self._known.clear()


_MEMOS: weakref.WeakSet[ByIdentity[Any, Any]] = weakref.WeakSet()


def forget_all() -> None:
    """A new model is being loaded: every memo lets the last one's objects go. A memo's ``limit`` bounds its
    entries, not what they hold: an entry can hold a whole build (a frame's settings hold the build's context,
    and through it the game), and a process that loads model after model (``watch``, ``serve``, the build
    server) kept the last few dozen models alive until a memo filled up."""
    for memo in list(_MEMOS):
        memo.clear()
