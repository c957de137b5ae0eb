"""Out-of-gamut colours: each sRGB colour a PDF draws with, set against its round trip through the press profile.

The colour is converted sRGB → CMYK with the build's intent and black-point compensation (the conversion
Ghostscript makes, both through littleCMS), then back to sRGB: what the press prints, as a screen shows it.
ΔE2000 between the two (coloraide) above the limit in ``layouts/press.yaml`` names the colour with both values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .profile import round_trip
from .settings import Press

RGB_OPS = ("rg", "RG")


@dataclass(frozen=True)
class OffGamut:
    rgb: tuple[int, int, int]  # the design's sRGB colour, 0–255
    cmyk: tuple[int, int, int, int]  # what the press prints, percent
    printed: tuple[int, int, int]  # that CMYK seen through the profile, as sRGB
    delta_e: float

    def words(self) -> str:
        c, m, y, k = self.cmyk
        return (f"sRGB {_hex(self.rgb)} is outside the press gamut: it prints as CMYK {c}/{m}/{y}/{k} %, which looks like "
                f"{_hex(self.printed)} (ΔE2000 {self.delta_e:.1f})")


def _hex(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _colours_in(stream: Any, found: dict[tuple[int, int, int], None]) -> None:
    import pikepdf

    for instruction in pikepdf.parse_content_stream(stream, " ".join(RGB_OPS)):
        operands = instruction.operands
        if str(instruction.operator) in RGB_OPS and len(operands) == 3:
            found[tuple(max(0, min(255, round(float(v) * 255))) for v in operands)] = None  # type: ignore[index]


def pdf_colours(path: Path) -> dict[int, list[tuple[int, int, int]]]:
    """The distinct sRGB fill and stroke colours of each page (1-based), forms and patterns included."""
    import pikepdf

    from .pdfx import _streams

    pages: dict[int, list[tuple[int, int, int]]] = {}
    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            found: dict[tuple[int, int, int], None] = {}
            _colours_in(page, found)
            for stream in _streams(page.obj.get("/Resources"), set()):
                _colours_in(stream, found)
            pages[number] = list(found)
    return pages


def off_gamut(settings: Press, colours: Iterable[tuple[int, int, int]]) -> list[OffGamut]:
    """The colours whose press round trip differs from them by more than the limit, worst first."""
    from coloraide import Color

    wanted = sorted(set(colours) - {(0, 0, 0)})  # pure black is written 100 % K (pdfx.device_cmyk)
    found = []
    for rgb, (cmyk, back) in zip(wanted, round_trip(settings.profile, settings.intent_number,
                                                    settings.black_point_compensation, wanted), strict=True):
        delta = Color("srgb", [v / 255 for v in rgb]).delta_e(Color("srgb", [v / 255 for v in back]), method="2000")
        if delta > settings.delta_e:
            percent = tuple(round(v * 100 / 255) for v in cmyk)
            found.append(OffGamut(rgb, percent, tuple(back), round(delta, 1)))  # type: ignore[arg-type]
    return sorted(found, key=lambda g: (-g.delta_e, g.rgb))
