"""Draw a repeated ornament once per document and replay its PDF operators where it recurs.

A riveted frame or a gear is hundreds of path operators computed in Python; the
same icon in the same box with the same ink always produces the same operators
(inline colour and path operators, no named resources), whatever the canvas. :func:`replayed` records them the first time and appends
the recorded operators on every later call, so the page content — and the
file — is byte-for-byte what drawing it again would have written.

Only drawings that touch nothing but the content stream and the plain pen
state (colours, line width/join/cap/dash) are replayed; one that changes the
transparency state or registers anything with the document is drawn every time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from reportlab.pdfgen.canvas import Canvas

PEN_STATE = frozenset({"_fillColorObj", "_strokeColorObj", "_lineWidth", "_lineJoin", "_lineCap", "_dash", "_fillMode"})
CAPACITY = 512  # distinct ornaments remembered per process (least recently used go first)
_UNSET = object()
# process-wide: a side drawn on its own canvas (print fingerprints, exports) reuses it too
_CACHE: OrderedDict[Hashable, tuple[list[str], dict[str, Any]] | None] = OrderedDict()


def _alpha_state(canvas: Canvas) -> tuple[Any, ...]:
    ext = getattr(canvas, "_extgstate", None)
    if ext is None:
        return ()
    return tuple(sorted(ext._d.items())), len(ext._c)


def replayed(canvas: Canvas, key: Hashable, draw: Callable[[], None]) -> None:
    """Run ``draw()`` (which paints on ``canvas``), or replay what it painted last time for ``key``."""
    cache = _CACHE
    full_key = (key, canvas._fillMode, _alpha_state(canvas)[:1])  # the transparency values, not how many exist
    recorded = cache.get(full_key, _UNSET)
    if isinstance(recorded, tuple):  # neither unknown (_UNSET) nor known not to be replayable (None)
        cache.move_to_end(full_key)
        code, state = recorded
        canvas._code.extend(code)
        canvas.__dict__.update(state)
        return
    before = dict(vars(canvas))
    alpha = _alpha_state(canvas)
    start = len(canvas._code)
    draw()
    if recorded is not _UNSET:  # known not to be replayable
        return
    after = vars(canvas)
    changed = {name for name, value in after.items() if name != "_code" and before.get(name, _UNSET) is not value}
    if changed - PEN_STATE or _alpha_state(canvas) != alpha or after.get("_code") is not before.get("_code"):
        cache[full_key] = None
    else:
        cache[full_key] = (canvas._code[start:], {name: after[name] for name in changed | (PEN_STATE & after.keys())})
    if len(cache) > CAPACITY:
        cache.popitem(last=False)
