"""Cut files written beside a print-and-cut PDF: the pieces' outlines as SVG and DXF, and for
Cricut's Print Then Cut the page images themselves (PNG, transparent around the pieces).

All three share the page's coordinates in millimetres: SVG from the top-left corner (y down),
DXF from the bottom-left (y up, like the PDF). Outlines are closed polylines; curves are
approximated finely enough (96 segments a circle) to stay within 0.02 mm of the true shape.

Both files carry the page's frame (SVG: the ``page`` group's rectangle; DXF: layer ``PAGE``),
so software that places an import by its extents (centred, or at the origin) still puts every
outline where the PDF printed its piece; the frame is set to *No Cut* (docs/cutting.md). The DXF
is R2000 (AC1015) with millimetres as its units ($INSUNITS 4, $MEASUREMENT 1), written by ezdxf.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from punchboard.generator.document.pages import Page
from punchboard.generator.draw.outlines import Outline
from punchboard.generator.impose.cut import cut_file_stem, load_cutters

from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.units import to_mm

from .images import pixel_size, rasterise
from .kept_images import png_bytes


def _fmt(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def rings_mm(outline: Outline) -> list[list[tuple[float, float]]]:
    """The outline's rings in millimetres, PDF orientation (y up)."""
    return [[(to_mm(x), to_mm(y)) for x, y in ring] for ring in outline.points()]


def svg_text(outlines: Sequence[Outline], width: float, height: float, title: str = "") -> str:
    w, h = to_mm(width), to_mm(height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(w)}mm" height="{_fmt(h)}mm" viewBox="0 0 {_fmt(w)} {_fmt(h)}">',
        f"  <title>{title}</title>" if title else "",
        '  <g id="page" fill="none" stroke="#0077ff" stroke-width="0.1">',
        f'    <rect id="page-frame" x="0" y="0" width="{_fmt(w)}" height="{_fmt(h)}"/>',
        "  </g>",
        '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for index, outline in enumerate(outlines, start=1):
        parts = []
        for ring in rings_mm(outline):
            points = " L ".join(f"{_fmt(x)} {_fmt(h - y)}" for x, y in ring)
            parts.append(f"M {points} Z")
        lines.append(f'    <path id="piece-{index}" d="{" ".join(parts)}"/>')
    lines += ["  </g>", "</svg>", ""]
    return "\n".join(line for line in lines if line)


def dxf_text(outlines: Sequence[Outline], width: float, height: float) -> str:
    """DXF R2000 in millimetres: the page frame on layer PAGE, one closed LWPOLYLINE per ring on layer CUT."""
    import ezdxf  # only for cut files: a large import
    from ezdxf import options, units

    stream = io.StringIO()
    fixed = options.write_fixed_meta_data_for_testing
    options.write_fixed_meta_data_for_testing = True  # no times or random GUIDs: the same input, the same bytes
    try:
        doc = ezdxf.new("R2000", setup=False)
        doc.units = units.MM
        w, h = round(to_mm(width), 3), round(to_mm(height), 3)
        doc.header["$MEASUREMENT"] = 1  # metric
        doc.header["$EXTMIN"] = (0.0, 0.0, 0.0)
        doc.header["$EXTMAX"] = (w, h, 0.0)
        doc.header["$LIMMIN"] = (0.0, 0.0)
        doc.header["$LIMMAX"] = (w, h)
        doc.layers.add("PAGE", color=5)  # blue: the paper's edge, not a cut
        doc.layers.add("CUT", color=1)  # red
        space = doc.modelspace()
        space.add_lwpolyline([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)], close=True, dxfattribs={"layer": "PAGE"})
        for outline in outlines:
            for ring in rings_mm(outline):
                space.add_lwpolyline([(round(x, 3), round(y, 3)) for x, y in ring], close=True, dxfattribs={"layer": "CUT"})
        doc.write(stream)
    finally:
        options.write_fixed_meta_data_for_testing = fixed
    return stream.getvalue()


def write_cut_files(folder: Path, component_id: str, pages: Sequence[Page], pdf: bytes, cutter: str) -> list[str]:
    """SVG and DXF of every front page's cut outlines (and for Cricut its PNG); returns the file names."""
    written: list[str] = []
    fronts = [(index, page) for index, page in enumerate(pages) if page.role == "front" and "cuts" in page.meta]
    images = None
    if cutter == "cricut" and fronts:
        dpi = load_cutters().cricut_dpi
        sizes = [pixel_size(page.width, page.height, dpi) for page in pages]
        images = list(rasterise(pdf, sizes, alpha=True))
    for number, (index, page) in enumerate(fronts, start=1):
        stem = cut_file_stem(component_id, number, cutter)
        outlines = page.meta["cuts"]
        assert isinstance(outlines, list)
        write_bytes(folder / f"{stem}.svg", svg_text(outlines, page.width, page.height, f"{component_id} page {index + 1}").encode())
        write_bytes(folder / f"{stem}.dxf", dxf_text(outlines, page.width, page.height).encode())
        written += [f"{stem}.svg", f"{stem}.dxf"]
        if images is not None:
            write_bytes(folder / f"{stem}.png", png_bytes(images[index], load_cutters().cricut_dpi))
            written.append(f"{stem}.png")
    return written
