"""What a page shows, told without drawing it, and what writes a document copying pages an earlier build
wrote (:mod:`.kept_pages`): the terms :mod:`.pages` and the kinds' renderers share. A deck's pages are asked
for theirs on every build, so the values are named tuples (a frozen dataclass takes three times as long to make)."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from reportlab.pdfgen.canvas import Canvas


class SlotIdentity(NamedTuple):
    """One side on a sheet page: ``parts``, everything it is drawn from besides the build's shared inputs;
    ``form``, the key of the side form it places (draw/side.py's form_key), None when it places none."""

    parts: tuple[Any, ...] | str
    form: tuple[Any, ...] | None


class PageContent(NamedTuple):
    """What a page shows, told without drawing it: what it is drawn from, and the forms it places in order."""

    parts: tuple[Any, ...]
    forms: tuple[tuple[Any, ...] | None, ...]


class SpliceFailed(Exception):
    """The document being written is not the one its copied pages were written in: write it again, drawing every page."""


class PageKeeper(Protocol):
    """Copies the pages an earlier build wrote the same way, and remembers the pages drawn (:mod:`.kept_pages`)."""

    def begin(self, canvas: Canvas, document: tuple[Any, ...]) -> None: ...
    def copied(self, canvas: Canvas, page: Any, number: int) -> bool: ...
    def drawn(self, canvas: Canvas, number: int) -> None: ...
    def close(self) -> None: ...
    def start_over(self) -> None: ...
    def written(self) -> None: ...
