"""The variant × player-count matrix: the cells, and the picture of them as SVG and PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence
from html import escape

from PIL import Image, ImageDraw, ImageFont

from ..findings import Result

COLOURS = {"pass": "#4c9a2a", "warn": "#e0a800", "fail": "#c0392b", "": "#e6e6e6"}


def matrix(results: Sequence[Result]) -> tuple[list[str], list[int], dict[tuple[str, int], str]]:
    variants: list[str] = []
    counts: set[int] = set()
    cells: dict[tuple[str, int], str] = {}
    for result in results:
        if result.players is None:
            continue
        if result.variant not in variants:
            variants.append(result.variant)
        counts.add(result.players)
        cells[(result.variant, result.players)] = result.status
    return variants, sorted(counts), cells



def svg(title: str, results: Sequence[Result]) -> str:
    variants, counts, cells = matrix(results)
    cell, label = 44, 150
    width = label + cell * max(len(counts), 1) + 10
    height = 40 + cell * (len(variants) + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             'font-family="sans-serif" font-size="13">',
             f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(title)}: variant × players</text>']
    top = 40
    for j, count in enumerate(counts):
        parts.append(f'<text x="{label + j * cell + cell // 2}" y="{top + cell // 2 + 5}" text-anchor="middle">{count}</text>')
    for i, variant in enumerate(variants):
        y = top + (i + 1) * cell
        parts.append(f'<text x="10" y="{y + cell // 2 + 5}">{escape(variant)}</text>')
        for j, count in enumerate(counts):
            status = cells.get((variant, count), "")
            x = label + j * cell
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" fill="{COLOURS[status]}">'
                         f'<title>{escape(variant)}, {count} players: {status or "not covered"}</title></rect>')
            if status:
                parts.append(f'<text x="{x + cell // 2}" y="{y + cell // 2 + 4}" text-anchor="middle" fill="#fff" '
                             f'font-size="10">{status}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(title: str, results: Sequence[Result]) -> bytes:
    """The matrix as a PNG (same picture as the SVG), for places that do not show SVG."""
    variants, counts, cells = matrix(results)
    scale = 2
    cell, top = 44 * scale, 40 * scale
    font = ImageFont.load_default(size=13 * scale)
    bold = ImageFont.load_default(size=15 * scale)
    small = ImageFont.load_default(size=10 * scale)
    heading = f"{title}: variant by player count"  # the built-in font has no ×
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    label = max([probe.textlength(v, font=font) for v in variants] + [140 * scale]) + 10 * scale
    width = int(max(label + cell * max(len(counts), 1) + 10 * scale, probe.textlength(heading, font=bold) + 20 * scale))
    height = top + cell * (len(variants) + 1) + 10 * scale
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((10 * scale, 8 * scale), heading, fill="black", font=bold)
    for j, count in enumerate(counts):
        draw.text((label + j * cell + cell // 2, top + cell // 2), str(count), fill="black", font=font, anchor="mm")
    for i, variant in enumerate(variants):
        y = top + (i + 1) * cell
        draw.text((10 * scale, y + cell // 2), variant, fill="black", font=font, anchor="lm")
        for j, count in enumerate(counts):
            status = cells.get((variant, count), "")
            x = int(label + j * cell)
            draw.rectangle((x + 2 * scale, y + 2 * scale, x + cell - 2 * scale, y + cell - 2 * scale), fill=COLOURS[status])
            if status:
                draw.text((x + cell // 2, y + cell // 2), status, fill="white", font=small, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
