"""The methods ``dataclasses`` writes for each class, compiled once per machine rather than on every start.

``@dataclass`` writes the source of each class's ``__init__``, ``__repr__``, ``__eq__`` (frozen: also
``__hash__``, ``__setattr__``, ``__delattr__``) and compiles it with ``exec``. A command imports a few
hundred such classes: 400 compiles, about 25 ms of a one-card rebuild's 100 ms of its own. :func:`install`
has ``dataclasses`` run its ``exec`` through a memo kept in the user's cache folder: the code object compiled
from a source text, kept by a digest of that text as ``marshal`` wrote it for this very Python. A text
compiles to the same code object every time (with no ``__future__`` flags, as ``dataclasses`` itself has
none), so every class is the one ``dataclasses`` would have made; a text not yet known is compiled, and
remembered when the process ends. A memo that cannot be read is ignored; one that cannot be written is not
kept. Only a string ``dataclasses`` executes is looked up: anything else goes to ``exec`` as it is.
"""

from __future__ import annotations

import atexit
import builtins
import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any

from .cache_root import current_cache_root

FORMAT = 1
HEADER = f"punchboard generated code {FORMAT} marshal {marshal.version} python {sys.version}"
LIMIT = 8192  # texts remembered; beyond, the memo starts afresh (classes change as punchboard does)

_known: dict[bytes, bytes] = {}
_new = 0
_path: Path | None = None


def _exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    """``exec`` as ``dataclasses`` calls it, with a source text's code taken from the memo when known."""
    global _new
    if isinstance(source, str):
        key = hashlib.blake2b(source.encode(), digest_size=16).digest()
        data = _known.get(key)
        if data is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _known[key] = marshal.dumps(code)
            _new += 1
        else:
            code = marshal.loads(data)
        source = code
    if globals is None:  # exec's own default: the calling frame's namespaces (dataclasses always passes them)
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    builtins.exec(source, globals, locals)


def path() -> Path:
    """Where this Python's memo is kept."""
    return current_cache_root() / "generated-code" / f"{sys.implementation.cache_tag}.marshal"


def install() -> None:
    """Have ``dataclasses`` compile through the memo for the rest of this process (idempotent)."""
    global _path
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        return
    from .sealed import read_sealed_strict

    _path = path()
    try:
        header, known = marshal.loads(read_sealed_strict(_path))
        if header == HEADER and isinstance(known, dict):
            _known.update(known)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before the builtin by dataclasses' own code
    atexit.register(save)


def save() -> None:
    """Keep what this process compiled, when it compiled anything (at exit)."""
    global _new
    if not _new or _path is None:
        return
    from .sealed import write_sealed

    known = _known if len(_known) <= LIMIT else {}
    try:
        write_sealed(_path, marshal.dumps((HEADER, known)))
    except OSError:
        return
    _new = 0
