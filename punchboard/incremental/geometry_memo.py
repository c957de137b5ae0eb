"""Cut-outline geometry worked out once per machine and remembered on disk.

Growing a gear token's outline by its bleed, cutting it back to its slot and
measuring the bleed every token on a sheet keeps are shapely's work. Importing
shapely loads numpy (40–50 ms), and the work itself takes tens of ms more, on
every build of a token component, although the answers depend on nothing but
numbers that rarely change between builds. So each answer is remembered in the
user's cache folder (beside the remembered verdicts, ``punchboard/incremental/validated.py``),
as one file named by a SHA-256 over:

- what is asked: the kind of question and the ``repr`` of its inputs (floats by
  ``repr``, which is exact);
- how it is answered: the source of the module that answers it, and the
  installed shapely's version (GEOS comes with it);
- this file's format, and the Python and ``marshal`` versions the answer is stored with.

An answer is stored with ``marshal`` (tuples and floats read back exactly, as
they were). A file that does not read back, or reads back as something that
is not an answer of that kind, is worked out again and replaced. When the
folder cannot be written, nothing is remembered. A token rebuild then never
imports shapely.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

from punchboard.incremental import validated
from punchboard.incremental.file_digest import file_digest
from punchboard.incremental.sealed import read_sealed_strict, write_sealed

FORMAT = 1
SUBFOLDER = "geometry"
T = TypeVar("T")

_answers: dict[str, Any] = {}  # this process's answers, by key
LIMIT = 4096  # answers held in memory; beyond, the memory starts afresh (the files stay)


def folder() -> Path:
    """Where answers are remembered: beside the remembered verdicts."""
    return validated.folder().parent / SUBFOLDER


@cache
def _versions() -> str:
    return (f"{FORMAT}:python {sys.version_info[0]}.{sys.version_info[1]}:marshal {marshal.version}:"
            f"shapely {validated.installed_version('shapely')}")


def key(kind: str, question: Any, sources: Sequence[str]) -> str:
    """The name of an answer: the question, the modules answering it (``sources``: their files) and the versions."""
    code = ",".join(file_digest(source) or "missing" for source in sources)
    sha = hashlib.sha256(f"{_versions()}\0{kind}\0{code}\0".encode())
    sha.update(repr(question).encode())
    return sha.hexdigest()


def remembered(kind: str, question: Any, sources: Sequence[str], answer: Callable[[], T],
               valid: Callable[[Any], bool]) -> T:
    """``answer()``, remembered under ``kind`` and ``question`` (see the module's docstring): ``sources`` are the
    files of the modules whose code answers it. ``valid`` tells whether what a file holds is an answer of this
    kind; the answer must be marshal-able."""
    name = key(kind, question, sources)
    found = _answers.get(name)
    if found is not None:
        return found  # type: ignore[no-any-return]
    path = folder() / name[:2] / name
    try:
        stored = marshal.loads(read_sealed_strict(path))
        if valid(stored):
            _hold(name, stored)
            return stored  # type: ignore[no-any-return]
    except (OSError, ValueError, EOFError, TypeError):
        pass
    worked_out = answer()
    try:
        write_sealed(path, marshal.dumps(cast(Any, worked_out)))  # any answer is tried: marshal refuses some (ValueError)
    except (OSError, ValueError):
        pass  # a folder that cannot be written (or an answer marshal refuses): worked out each time
    _hold(name, worked_out)
    return worked_out


def _hold(name: str, value: Any) -> None:
    if len(_answers) >= LIMIT:
        _answers.clear()
    _answers[name] = value


def is_rings(value: Any) -> bool:
    """Whether ``value`` is a tuple of rings: tuples of (x, y) float pairs."""
    return isinstance(value, tuple) and all(
        isinstance(ring, tuple) and all(
            isinstance(point, tuple) and len(point) == 2 and all(type(v) is float for v in point) for point in ring)
        for ring in value)
