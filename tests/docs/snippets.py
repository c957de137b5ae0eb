"""The fenced blocks of the README and docs/, with the marker that says what each one is.

The convention (docs/explanation/internals.md, "How these pages are tested"): an HTML comment on the line right before a fence
names the block's kind.

- ``<!-- yaml: game -->`` (or ``component``, ``layout``, ``setup``, ``paper``): a whole file of that kind,
  checked against its schema.
- ``<!-- yaml: SCHEMA DEF -->``: one value of that schema's ``$defs/DEF`` (``<!-- yaml: layout element -->``);
  ``... list`` when the block is a list of them (``<!-- yaml: setup step list -->``).
- ``<!-- yaml: SCHEMA keys -->``: a few top-level keys of a file of that kind, checked inside a minimal one.
- ``<!-- file: PATH -->``: a file the reader writes (any language); the page's shell lines run after it exists,
  and every game folder the page writes is built and verified at the end.
- ``<!-- shell: exits N -->``: every line of the shell block ends with exit code N (a failure shown on purpose).
- ``<!-- shell: runs until stopped -->``: the command keeps running (``watch``); it must still run once it has
  said so, and end with 0 on SIGTERM.
- ``<!-- shell: make -->``: ``make`` targets of the set-up (they install and test the checkout itself, so they
  are checked against the Makefile rather than run).

A YAML block with no marker is an error, except on the two pages another tool owns: ``docs/layouts.md``
(generated from the layout schema; tests/docs/test_layout_guide.py builds its examples) and
``docs/setup-language.md``, whose blocks are checked by their shape (``infer_setup_kind``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

MARKER = re.compile(r"^<!--\s*(?P<key>yaml|file|shell):\s*(?P<value>.+?)\s*-->$")
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\s*$")
SCRIPT_PAGES = ("README.md", "docs/tutorial.md")
SHELL_LANGS = ("sh", "bash", "shell", "console")


@dataclass(frozen=True)
class Block:
    """One fenced block: its page, first line (1-based, the fence's), language, text and marker (or None)."""

    page: str
    line: int
    lang: str
    text: str
    marker: tuple[str, str] | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def pages() -> list[str]:
    """Every Markdown page the docs test reads, relative to the repository root."""
    docs = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
    return ["README.md", *docs]


def blocks(page: str) -> list[Block]:
    """The fenced blocks of ``page``, in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent = opening["indent"]
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        assert end < len(lines), f"{page}:{i + 1}: a fence that is never closed"
        body = "\n".join(line[len(indent) :] for line in lines[i + 1 : end]) + "\n"
        previous = lines[i - 1].strip() if i else ""
        marked = MARKER.match(previous)
        marker = (marked["key"], marked["value"]) if marked else None
        found.append(Block(page, i + 1, opening["lang"], body, marker))
        i = end + 1
    return found


def shell_lines(block: Block) -> list[str]:
    """The commands of a shell block: its non-empty lines that are not comments."""
    return [line.strip() for line in block.text.splitlines() if line.strip() and not line.strip().startswith("#")]


def script_blocks(page: str) -> list[Block]:
    """What a script page does, in order: the files it has the reader write and its shell blocks."""
    return [b for b in blocks(page) if (b.marker and b.marker[0] == "file") or b.lang in SHELL_LANGS]


def yaml_blocks() -> list[Block]:
    """Every YAML block of every page, ``file:`` blocks of script pages included."""
    return [b for page in pages() for b in blocks(page) if b.lang == "yaml"]


def written_path(root: Path, block: Block) -> Path:
    """Where a ``file:`` block goes under ``root``, refusing a path that leaves it."""
    assert block.marker and block.marker[0] == "file"
    target = (root / block.marker[1]).resolve()
    assert target.is_relative_to(root.resolve()), f"{block.where}: {block.marker[1]} leaves the page's folder"
    return target
