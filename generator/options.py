"""Build options chosen on the command line."""

from __future__ import annotations

from dataclasses import dataclass

BACK_MODES = ("none", "duplex-long", "duplex-short", "gutterfold", "separate")


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "letter"
    backs: str = "duplex-long"
    duplex_offset: tuple[float, float] = (0.0, 0.0)  # mm, applied to back pages
    print_shop: bool = False
    print_shop_preset: str | None = None  # layouts/print_shops.yaml preset (None: its default)
    proof: bool = False
    bleed_mm: float | None = None  # None: the print-shop preset's (print_shop), else the layout's or the sheet style's
    packing: str | None = None  # bleed policy: auto | gutter | shared | squeeze (None: layouts/sheet.yaml)
    unprintable_mm: float | None = None  # None: layouts/sheet.yaml's unprintable margin
    cut: str | None = None  # print-and-cut for a cutting machine: silhouette | cricut
    force: bool = False
    quiet: bool = False
    verbose: bool = False  # list every component drawn or reused
    record_print: bool = False  # remember what was drawn as a numbered print (generator/prints.py)
    changed_since: str | None = None  # "last" or a print number: also write <game>-reprint.pdf
    stamp: bool = False  # carry the print number on every piece
    stamp_label: str = ""  # the stamp drawn ("P3"), set by the build from the print number
    jobs: int = 1  # processes drawing components at once (--jobs; output is the same for any value)
    jobs_auto: bool = False  # --jobs 0 (the default): use `jobs` only where the work pays for it (generator/jobs.py)
    preflight: str = "warn"  # --preflight: warn | strict (findings fail the build: exit 1) | off (not shown); never redraws
    colour: str | None = None  # --colour rgb | cmyk (None: the shop preset's, else rgb); generator/press/
    pdfx: str | None = None  # --pdfx 1a | none (None: the shop preset's)
    icc: str | None = None  # --icc: the CMYK output profile (None: layouts/press.yaml's)
    lang: str | None = None  # --lang: the language built, written under OUT/<game>/<lang>/ (None: OUT/<game>/)
    rich_black: bool = False  # --rich-black: large black areas as layouts/press.yaml's rich black (generator/press/)
