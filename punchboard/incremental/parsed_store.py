"""Parsed YAML remembered on disk: a file whose text is unchanged is read back, not parsed again.

Parsing is most of what loading a game costs (Steam Court: 20 of 33 ms, STEAMARK
35 of 60 ms), and every command loads: ``check``, ``build``, ``verify``. What
parsing gives — the data and where each key and value was written — depends on
nothing but the text, the limit on values and the parser, so a successful parse
is stored in the user's cache folder (beside the remembered verdicts,
:mod:`.validated`) and read back with ``marshal`` (plain dicts, lists, strings and
numbers, exactly as they were: floats bit for bit, dict order kept) in about a
sixth of the time.

One file is kept per YAML file (named by its resolved path and the limit), holding
the SHA-256 of the text it was parsed from, so an edit replaces it and the folder
does not grow with edits. The record is read back only when that digest, and the
versions it was made under (this module's and the parser's source, PyYAML's version
and whether libyaml parsed it, Python's and marshal's), match. Text that does not
parse is always parsed again, so its messages are always current. When the folder
cannot be written, nothing is remembered. ``watch`` and ``serve`` keep parsed files in
memory instead (yamlsource.keep_parsed): a save changes its file, so its record would
only be read to be found stale and written to be replaced by the next save.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from functools import cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.paths import PACKAGE, resolved

from . import validated
from .sealed import read_sealed_strict, write_sealed

SUBFOLDER = "parsed"
FORMAT = 1
Marks = dict[tuple[str | int, ...], tuple[int, int]]


@cache
def _versions(parser: str) -> str:
    """What a record is made under besides the text: the parsing code and the versions that read it."""
    sha = hashlib.sha256(f"{FORMAT}:python {sys.version_info[0]}.{sys.version_info[1]}:marshal {marshal.version}:"
                         f"pyyaml {validated.installed_version('yaml', 'PyYAML')}:{parser}".encode())
    for source in (Path(__file__), PACKAGE / "spec" / "yamlsource.py"):
        sha.update(source.read_bytes())
    return sha.hexdigest()


def _path(source: Path, max_nodes: int) -> Path:
    name = hashlib.sha256(f"{resolved(source)}\0{max_nodes}".encode()).hexdigest()
    return validated.folder().parent / SUBFOLDER / name[:2] / name


def read(source: Path, max_nodes: int, digest: str, parser: str) -> tuple[Any, Marks, Marks] | None:
    """The data, value marks and key marks parsed from ``source`` when its text had ``digest``; None if not kept."""
    try:
        record = marshal.loads(read_sealed_strict(_path(source, max_nodes)))
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if (not isinstance(record, tuple) or len(record) != 5 or record[0] != _versions(parser) or record[1] != digest
            or not isinstance(record[3], dict) or not isinstance(record[4], dict)):
        return None
    return record[2], record[3], record[4]


def write(source: Path, max_nodes: int, digest: str, parser: str, data: Any, value_marks: Marks,
          key_marks: Marks) -> None:
    """Keep a successful parse of ``source`` (text with ``digest``) for the next command."""
    try:
        write_sealed(_path(source, max_nodes), marshal.dumps((_versions(parser), digest, data, value_marks, key_marks)))
    except (OSError, ValueError):
        pass  # a folder that cannot be written, or data marshal refuses: parsed again next time
