"""Remembered verdicts: a document validated (or a picture decoded) once is not checked again while unchanged.

Validating a game's YAML with jsonschema costs a third of a second (and the
import of jsonschema itself) on every command. A successful check is recorded
as an empty file in the user's cache folder, named by a SHA-256 over exactly
what decided the verdict: the document's resolved path, the validated data
(a canonical, type-tagged serialisation — ``1``, ``1.0``, ``"1"`` and ``true``
all differ), the schema and definition checked against, punchboard's version
the source of the loader (``punchboard/spec``, ``punchboard/plumbing``, ``punchboard/incremental``) and
every schema file, and the installed jsonschema's version. Only "no problems" is remembered: a document
with problems is always checked again, so its messages are always current.
Pictures are remembered the same way (:mod:`.images`), by their bytes' digest.

The folder is ``$PUNCHBOARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/punchboard``,
else ``~/.cache/punchboard``; if it cannot be written, nothing is remembered.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.cache_root import CACHE_ENV, cache_root
from punchboard.plumbing.paths import PACKAGE, SCHEMAS, resolved

SUBFOLDER = "validated"


def folder() -> Path:
    """Where verdicts are remembered (asked a dozen times a load: made once per environment)."""
    return _folder(os.environ.get(CACHE_ENV), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@cache
def _folder(explicit: str | None, xdg: str | None, _home: str | None) -> Path:
    return cache_root(explicit, xdg) / SUBFOLDER


def installed_version(name: str, distribution: str | None = None) -> str:
    """An installed distribution's version (``distribution``: its name when it is not the package's, as PyYAML's
    for ``yaml``), from its ``NAME-VERSION.dist-info`` folder's name beside the package, whatever the case of NAME
    (no import of importlib.metadata, which costs a tenth of a start-up, nor of the package); else through
    metadata."""
    from importlib.util import find_spec

    wanted = (distribution or name).lower() + "-"
    spec = find_spec(name)
    if spec is not None and spec.origin:
        site = Path(spec.origin).resolve().parent.parent
        found = sorted(entry.name for entry in site.glob("*.dist-info") if entry.name.lower().startswith(wanted))
        if len(found) == 1:
            return found[0][len(wanted):-len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(distribution or name)
    except metadata.PackageNotFoundError:
        return "?"


@cache
def _code() -> str:
    """punchboard's version, the loader's sources (spec, plumbing, incremental), the schemas, and the validators'
    versions."""
    sha = hashlib.sha256()
    from punchboard import __version__

    sha.update(f"punchboard={__version__};jsonschema={installed_version('jsonschema')};"
               f"fastjsonschema={installed_version('fastjsonschema')};".encode())
    for path in sorted([*(PACKAGE / "spec").rglob("*.py"), *(PACKAGE / "plumbing").glob("*.py"),
                         *(PACKAGE / "incremental").glob("*.py"), *SCHEMAS.glob("*.json")]):
        sha.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def _canonical(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(f"s{len(value)}:{value}")
    elif isinstance(value, bool):
        out.append("T" if value else "F")
    elif value is None:
        out.append("N")
    elif isinstance(value, int):
        out.append(f"i{value};")
    elif isinstance(value, float):
        out.append(f"f{value!r};")
    elif isinstance(value, list | tuple):
        out.append(f"[{len(value)}")
        for item in value:
            _canonical(item, out)
        out.append("]")
    elif isinstance(value, dict):
        items = []
        for key, item in value.items():  # each key's text is prefix-free, so sorting keeps pairs apart
            parts: list[str] = []
            _canonical(key, parts)
            _canonical(item, parts)
            items.append("".join(parts))
        out.append(f"{{{len(items)}")
        out.extend(sorted(items))
        out.append("}")
    else:  # dates, bytes: their type and repr
        text = f"{type(value).__module__}.{type(value).__qualname__}:{value!r}"
        out.append(f"o{len(text)}:{text}")


def key(path: Path, data: Any, *context: object) -> str:
    """The name a successful check of ``data`` (read from ``path``) against ``context`` is remembered by."""
    parts: list[str] = []
    _canonical(data, parts)
    return _named(path, context, "".join(parts))


def document_key(path: Path, data: Any, text_digest: str | None, *context: object) -> str:
    """:func:`key` for ``data``, or, when it is a whole document known by the digest of its text (``data`` is
    a function of the text alone), a name over that digest: no walk over the data."""
    if text_digest is None:
        return key(path, data, *context)
    return _named(path, context, f"text:{text_digest}")


def _named(path: Path, context: tuple[object, ...], content: str) -> str:
    sha = hashlib.sha256(_code().encode())
    sha.update(repr((str(resolved(path)), context)).encode())
    sha.update(content.encode())
    return sha.hexdigest()


def known_valid(entry: str) -> bool:
    return (folder() / entry[:2] / entry).is_file()


def remember_valid(entry: str) -> None:
    target = folder() / entry[:2] / entry
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    except OSError:
        pass
