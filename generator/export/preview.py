"""Contact sheets: one PNG per component with a thumbnail of every distinct face.

The quickest way to eyeball a deck: faces are rasterised from the same PDF
drawing as the print files, at a low resolution, and labelled with the
piece's name and how many pieces share that face.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import reportlab
from PIL import Image, ImageDraw, ImageFont

from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.paths import game_output
from punchboard.plumbing.pool import ordered_map
from punchboard.spec.model import Component, Game, Piece

from .images import export_context, piece_sides, render_pages, side_key
from .kept_images import png_bytes

PREVIEW_DPI = 72
MAX_THUMB = 640  # px, longest side: boards are shrunk to this
SHEET_WIDTH = 1600  # px, wrap thumbnails before this
PAD = 12
LABEL_SIZE = 13
TITLE_SIZE = 20
BACKGROUND = (236, 236, 232)
INK = (34, 34, 34)
FONT_DIR = Path(reportlab.__file__).parent / "fonts"


@dataclass(frozen=True)
class Thumb:
    piece: Piece
    count: int
    image: Image.Image


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / ("VeraBd.ttf" if bold else "Vera.ttf")), size)


def thumbnail_size(width: float, height: float, dpi: float = PREVIEW_DPI) -> tuple[int, int]:
    scale = min(dpi / 72, MAX_THUMB / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def face_thumbnails(game: Game, component: Component, dpi: float = PREVIEW_DPI, heard: list[str] | None = None) -> list[Thumb]:
    """One thumbnail per distinct face (same layout and fields), in order of first appearance; what drawing
    them said (text that does not fit, …) is added to ``heard``."""
    ctx = export_context(game, 0.0)
    if heard is not None:
        ctx.warnings = heard
    sides = piece_sides(ctx, component)
    groups: dict[tuple[object, ...], list[int]] = {}
    for n, entry in enumerate(sides):
        groups.setdefault((side_key(entry.piece, entry.piece.face), entry.piece.cells), []).append(n)
    firsts = [members[0] for members in groups.values()]
    pages = [sides[n].front for n in firsts]
    sizes = [thumbnail_size(page.width, page.height, dpi) for page in pages]
    alpha = any(sides[n].alpha for n in firsts)
    images = render_pages(pages, sizes, alpha, game.title)
    return [Thumb(sides[n].piece, len(members), image) for n, members, image in zip(firsts, groups.values(), images, strict=True)]


def _label(thumb: Thumb, component: Component) -> str:
    name = thumb.piece.name or f"#{thumb.piece.index + 1}"
    return f"{name} ×{thumb.count}"


def _fitted(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def contact_sheet(component: Component, thumbs: list[Thumb]) -> Image.Image:
    label_font, title_font = _font(LABEL_SIZE), _font(TITLE_SIZE, bold=True)
    cell_w = max(max(t.image.width for t in thumbs), 120) + PAD
    cell_h = max(t.image.height for t in thumbs) + LABEL_SIZE + 8 + PAD
    cols = max(1, min(len(thumbs), (SHEET_WIDTH - PAD) // cell_w))
    rows = -(-len(thumbs) // cols)
    header = TITLE_SIZE + 2 * PAD
    sheet = Image.new("RGB", (PAD + cols * cell_w, header + rows * cell_h), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    title = f"{component.name} — {len(thumbs)} distinct of {component.count} {component.kind}"
    draw.text((PAD, PAD), _fitted(draw, title, title_font, sheet.width - 2 * PAD), font=title_font, fill=INK)
    for n, thumb in enumerate(thumbs):
        x = PAD + (n % cols) * cell_w
        y = header + (n // cols) * cell_h
        image = thumb.image
        left = x + (cell_w - PAD - image.width) // 2
        if image.mode == "RGBA":
            sheet.paste(image, (left, y), image)
        else:
            sheet.paste(image, (left, y))
        label = _fitted(draw, _label(thumb, component), label_font, cell_w - PAD)
        text_w = draw.textlength(label, font=label_font)
        draw.text((x + (cell_w - PAD - text_w) / 2, y + image.height + 4), label, font=label_font, fill=INK)
    return sheet


def export_previews(game: Game, out_dir: Path, dpi: float = PREVIEW_DPI, jobs: int = 1,
                    warn: Callable[[str], None] | None = None, lang: str | None = None) -> list[Path]:
    """``out_dir/<game>/preview/<component>.png`` (``out_dir/<game>/<lang>/…`` for a ``lang``) for every printed
    component; with ``jobs`` > 1 the components are drawn in that many processes (the files are the same for any
    ``jobs``). ``warn`` hears what drawing them said, each once, in order."""
    components = [component for component in game.printed if component.pieces]
    state = (game, game_output(out_dir, game.id, lang), dpi, components)
    paths: list[Path] = []
    heard: dict[str, None] = {}
    for path, said in ordered_map(_contact_sheet_file, state, list(range(len(components))), jobs):
        paths.append(path)
        heard.update(dict.fromkeys(said))
    if warn is not None:
        for message in heard:
            warn(message)
    return paths


def _contact_sheet_file(state: tuple[Game, Path, float, list[Component]], index: int) -> tuple[Path, list[str]]:
    game, home, dpi, components = state
    component = components[index]
    path = home / "preview" / f"{component.id}.png"
    heard: list[str] = []
    write_bytes(path, png_bytes(contact_sheet(component, face_thumbnails(game, component, dpi, heard))))
    return path, heard
