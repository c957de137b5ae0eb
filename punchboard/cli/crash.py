"""The last line of defence: an unexpected exception is a bug, reported in one line, its traceback saved."""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

CRASH_PREFIX = "punchboard-crash-"


def _version() -> str:
    from importlib import metadata  # only when reporting a crash: it costs a tenth of every start-up

    try:
        return metadata.version("punchboard")
    except metadata.PackageNotFoundError:
        return "unknown"


def _crash_file(out: str | os.PathLike[str] | None) -> tuple[int, str]:
    """Open a new file for the report: inside the output folder when it is usable, else in the temp folder."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    prefix = f"{CRASH_PREFIX}{stamp}-"
    if out is not None:
        try:
            folder = Path(out)
            folder.mkdir(parents=True, exist_ok=True)
            return tempfile.mkstemp(prefix=prefix, suffix=".txt", dir=folder)
        except OSError:
            pass
    return tempfile.mkstemp(prefix=prefix, suffix=".txt")


def report_crash(exc: BaseException, out: str | os.PathLike[str] | None, argv: Sequence[str] | None) -> str:
    """Save the full traceback and return the one-line message for the user."""
    import platform  # only when reporting a crash

    text = str(exc).strip()
    summary = f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
    details = (
        f"punchboard {_version()} on Python {platform.python_version()} ({platform.platform()})\n"
        f"command: punchboard {' '.join(sys.argv[1:] if argv is None else argv)}\n"
        f"working directory: {os.getcwd()}\n\n"
        + "".join(traceback.format_exception(exc))
    )
    try:
        fd, path = _crash_file(out)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(details)
        where = f"the full traceback is saved in {path}"
    except OSError as err:  # nowhere to write: the traceback goes to stderr after the message
        where = f"the traceback could not be saved ({err.strerror}); here it is:\n{details}"
    return (
        f"punchboard: internal error ({summary[:200]}); this is a bug in punchboard, not in your files; "
        f"{where} — please report it with that file"
    )
