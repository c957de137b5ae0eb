"""Problems found in input files, reported as ``file:LINE:COL: message``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .paths import resolved

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _printable(text: str) -> str:
    """One problem, one line: a control character quoted from the input (a key "\\r") is shown escaped."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return _printable(f"{self.file}:{self.line}:{self.col}: {self.message}")


MAX_SHOWN = 50  # problems one error lists; past them, one more line counts the rest
_MORE = re.compile(r"… and ([\d,]+) more problems? not shown$")


def capped(problems: list[Problem], shown: int = MAX_SHOWN) -> list[Problem]:
    """``problems`` sorted, once each, the first ``shown`` of them and then one ``… and K more`` problem placed at the
    first left out. A list capped before (a part of a load) counts its left-out problems into K."""
    hidden = 0
    unique: list[Problem] = []
    for problem in sorted(set(problems)):
        more = _MORE.fullmatch(problem.message)
        if more is not None:
            hidden += int(more.group(1).replace(",", ""))
            at = problem
        else:
            unique.append(problem)
    if len(unique) > shown:
        hidden += len(unique) - shown
        at = unique[shown]
        unique = unique[:shown]
    if hidden:
        noun = "problem" if hidden == 1 else "problems"
        unique.append(Problem(at.file, at.line, at.col, f"… and {hidden:,} more {noun} not shown"))
    return unique


class SpecError(Exception):
    """One or more problems in the input; the CLI prints them and exits 2. Problems are kept sorted, once each, and
    capped: the first MAX_SHOWN, then one that counts the rest (see ``capped``)."""

    def __init__(self, problems: list[Problem]):
        self.problems = capped(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when possible."""
    try:
        return str(resolved(path).relative_to(resolved(Path.cwd())))
    except ValueError:
        return str(path)


class UsageError(Exception):
    """A bad command-line value or an unusable output folder, worded as ``--flag: what is wrong; what was expected``.

    The CLI prints it after the verb's name and exits 2.
    """


class WorkerDied(Exception):
    """A process of a ``--jobs`` pool died (killed by a signal, or out of memory); the CLI says so and exits 3."""
