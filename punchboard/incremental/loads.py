"""What a long-running process (watch, serve) keeps in memory of one load of a game for the next.

Such a process loads the whole game again after every save, though a save changes one file. With
:func:`keep_loaded` the loader hands back the very objects of the last load for what did not change:

- a layout whose file text is the same, whose parent is the same layout object and whose font
  files have the same stamp: device, inode, size, modification and change times (taken before they were read);
- a component whose file text is the same, with no card table (a CSV, a workbook or a linked
  sheet is read afresh), whose layouts are the same objects, under the same limits and sizes;
- the setup check's gaps, for the same setup text, player counts and view of the components: what the
  check can read of them (spec/loader/setup_view.py), so that a card's text the setup does not read keeps them;
- a component's look checks, passed for the same component object, layouts, palette and icons
  (:meth:`Kept.passed`);
- a component's field bindings, passed for the same component object, layouts and game, without
  looking for an image (one that names images by a field has them looked for and read each time).

Only what loaded without a problem is kept, so a problem is always found again and said in full.
Each table holds at most ``LIMIT`` entries and starts afresh beyond. The records are plain classes, not
dataclasses: every load imports this module, and a dataclass costs half a millisecond to make.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from punchboard.incremental.file_digest import Stamp
from punchboard.plumbing.limits import Limits
from punchboard.spec.model import Component, Layout, Size

LIMIT = 1024


class KeptLayout:
    """A layout as the last load built it, with what it was built from."""

    __slots__ = ("digest", "parent", "fonts", "max_file_bytes", "layout", "marks")

    def __init__(self, digest: str, parent: Layout | None, fonts: tuple[tuple[str, Path, Stamp | None], ...],
                 max_file_bytes: int, layout: Layout, marks: Mapping[tuple[str, str], str]):
        self.digest = digest  # of the layout file's text
        self.parent = parent
        self.fonts = fonts  # name, file, its stamp or None if missing
        self.max_file_bytes = max_file_bytes
        self.layout = layout
        self.marks = marks  # what the build added to LayoutLoader.prop_marks


class KeptComponent:
    """A component as the last load made it, with what it was made from."""

    __slots__ = ("digest", "limits", "presets", "layouts", "component")

    def __init__(self, digest: str, limits: Limits, presets: Mapping[str, Size],
                 layouts: tuple[tuple[str, Layout], ...], component: Component):
        self.digest = digest  # of the component file's text
        self.limits = limits
        self.presets = presets
        self.layouts = layouts  # every layout the file names, as it was found
        self.component = component


class KeptSetup:
    """The setup check's gaps, with what they were found for."""

    __slots__ = ("digest", "players", "view", "gaps")

    def __init__(self, digest: str, players: tuple[int, int], view: tuple[Any, ...], gaps: tuple[str, ...]):
        self.digest = digest
        self.players = players
        self.view = view  # what the check read of the components (setup_view.setup_view)
        self.gaps = gaps


class KeptPass:
    """A check that passed for this very component, with these layout objects and these other inputs."""

    __slots__ = ("component", "layouts", "others")

    def __init__(self, component: Component, layouts: tuple[tuple[str, Layout | None], ...], others: tuple[Any, ...]):
        self.component = component
        self.layouts = layouts
        self.others = others


class Kept:
    def __init__(self) -> None:
        self.layouts: dict[tuple[Path, str], KeptLayout] = {}
        self.components: dict[Path, KeptComponent] = {}
        self.setups: dict[Path, KeptSetup] = {}
        self.setup_texts: dict[str, Any] = {}  # setup_view.SetupText, by the digest of the setup file's text
        self.setup_parts: dict[int, Any] = {}  # setup_view's part of a component, by the component object's id
        self.looks: dict[int, KeptPass] = {}  # by the component object's id (the object held beside it)
        self.bindings: dict[int, KeptPass] = {}  # the same, for layout_checks.check_bindings

    def passed(self, table: dict[int, KeptPass], component: Component, layouts: tuple[tuple[str, Layout | None], ...],
               others: tuple[Any, ...]) -> bool:
        """Whether the check of ``table`` passed for this very component, the same layout objects and equal ``others``."""
        known = table.get(id(component))
        return (known is not None and known.component is component and known.others == others
                and len(known.layouts) == len(layouts)
                and all(a == b and x is y for (a, x), (b, y) in zip(known.layouts, layouts, strict=True)))

    def remember_pass(self, table: dict[int, KeptPass], component: Component,
                      layouts: tuple[tuple[str, Layout | None], ...], others: tuple[Any, ...]) -> None:
        self.put(table, id(component), KeptPass(component, layouts, others))

    @staticmethod
    def put(table: dict[Any, Any], key: Any, value: Any) -> None:
        if key not in table and len(table) >= LIMIT:
            table.clear()
        table[key] = value


_kept: Kept | None = None


def keep_loaded() -> None:
    """Keep what loaded unchanged from one load to the next, for the rest of this process (watch, serve; they
    keep parsed YAML by its text too: spec/yamlsource.py's ``keep_parsed``)."""
    global _kept
    if _kept is None:
        _kept = Kept()


def kept() -> Kept | None:
    """The tables of :func:`keep_loaded`, or None in a process that loads once."""
    return _kept
