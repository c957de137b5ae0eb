"""What a build keeps of its prints to skip work: the last print record as ``marshal`` (``prints/.last``) and the
print memo (``prints/.drawn``: fingerprints per component and per side drawn alone).

generator/prints.py writes the print records themselves (``prints/0001.json`` …, the history ``--changed-since``
reads); these two files only save reading that JSON and drawing sides again. Each is sealed (sealed.py) with a
first line naming what it holds, its version and the Python that wrote it: another header reads as missing.
"""

from __future__ import annotations

import marshal
import sys
from pathlib import Path
from typing import Any

from .sealed import read_sealed_strict, write_sealed

MEMO_FILE = ".drawn"
OLD_MEMO_FILE = ".drawn.json"  # the memo as JSON, before memo version 4: removed when the memo is written
MEMO_VERSION = 4
LAST_FILE = ".last"
LAST_VERSION = 3  # of ``.last``'s layout (3: with the record's depth)


def header(kind: str, version: int) -> bytes:
    """The first line of a marshal file this module keeps: what it holds, in which version, written by which Python
    (another one reads it as missing)."""
    return f"punchboard {kind} {version} marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}\n".encode()


def read_marshal(path: Path, kind: str, version: int) -> Any:
    """What :func:`header` ``+ marshal.dumps(…)`` wrote sealed (sealed.py) to ``path``; None under
    another header (OSError, EOFError, ValueError, TypeError as reading and ``marshal.loads`` raise them; a
    damaged record is a ValueError)."""
    head, _, body = read_sealed_strict(path).partition(b"\n")
    return marshal.loads(body) if head + b"\n" == header(kind, version) else None


def write_marshal(path: Path, kind: str, version: int, data: Any) -> bool:
    """Write ``data`` under :func:`header` sealed to ``path``; False (nothing written) when marshal cannot write it."""
    try:
        body = marshal.dumps(data)
    except ValueError:
        return False
    write_sealed(path, header(kind, version) + body)
    return True
