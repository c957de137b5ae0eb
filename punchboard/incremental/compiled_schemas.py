"""Validators fastjsonschema generated, kept as compiled code in the user's cache folder (``fast-schemas/``).

punchboard/spec/fast_schema.py generates a validator's source from a schema once and compiles it; this module
keeps the compiled code (``marshal``) sealed (sealed.py), one file per key (a digest of fastjsonschema's version,
the Python and the schema, which the caller gives), beside the remembered verdicts (validated.py). A file that
does not read back as code is generated again; a folder that cannot be written keeps nothing.
"""

from __future__ import annotations

import marshal
from pathlib import Path
from types import CodeType

from . import validated
from .sealed import read_sealed_strict, write_sealed

SUBFOLDER = "fast-schemas"


def _path(key: str) -> Path:
    return validated.folder() / SUBFOLDER / f"{key}.bin"


def read(key: str) -> CodeType | None:
    """The code kept under ``key``; None when there is none or it does not read back."""
    try:
        code = marshal.loads(read_sealed_strict(_path(key)))
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def keep(key: str, code: CodeType) -> None:
    """Keep ``code`` under ``key`` (nothing when the folder cannot be written)."""
    try:
        write_sealed(_path(key), marshal.dumps(code))
    except OSError:
        pass
