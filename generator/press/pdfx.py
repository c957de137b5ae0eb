"""A finished RGB PDF converted to a CMYK PDF/X-1a:2003 file: Ghostscript converts, pikepdf finishes.

Three passes, each by a maintained engine:

1. ``device_cmyk`` (pikepdf and littleCMS through Pillow's ImageCms): every RGB and grey fill and stroke colour
   (``rg``/``RG``/``g``/``G``) in every content stream, form, pattern and Type 3 glyph becomes the DeviceCMYK
   the profile gives it, with the build's intent and black-point compensation (the same transform the gamut
   check uses, so the warnings and the file agree); pure black becomes 100 % K (``0 0 0 1 k``), so black text
   and thin black lines print with one plate, not as four-colour registration black (with ``--rich-black``,
   large black areas and large black text get the rich black of ``layouts/press.yaml``: rich_black.py). RGB
   pictures are converted through the same profile (pictures.py), and so are gradients' stop colours
   (shadings.py: a DeviceCMYK shading stays a vector shading, an RGB one Ghostscript rasterises).
2. Ghostscript's pdfwrite (``-dPDFX -sColorConversionStrategy=CMYK``, PDF 1.3) keeps DeviceCMYK as it is,
   converts what is left (other shadings, grey pictures) to CMYK with its output profile (``-sOutputICCProfile``), embeds
   every font, and flattens transparency (PDF 1.3 has none).
3. pikepdf writes the PDF/X document keys (GTS_PDFXVersion ``PDF/X-1:2003``, GTS_PDFXConformance
   ``PDF/X-1a:2003``, Trapped, Title), the OutputIntent with the profile embedded, a TrimBox and BleedBox on
   every page, and makes the file deterministic: the source's dates (punchboard writes fixed ones) and an /ID
   computed from the content.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from .profile import description
from .settings import Press
from .shadings import colours, rgb_shadings, to_cmyk

PDFX_VERSION = "PDF/X-1:2003"  # ISO 15930-4: the version key of every PDF/X-1a:2003 file …
PDFX_CONFORMANCE = "PDF/X-1a:2003"  # … and its conformance level
REGISTRY = "http://www.color.org"
GS_TIMEOUT = 600  # seconds for one file; a file Ghostscript cannot convert in ten minutes is a bug to report
RGB_TO_CMYK = {"rg": "k", "RG": "K", "g": "k", "G": "K"}


class PressError(Exception):
    """Ghostscript is missing or failed on a file (exit 3: not the user's input)."""


Rgb = tuple[int, int, int]


def _rgb(name: str, operands: Any) -> Rgb | None:
    """The 8-bit sRGB colour an ``rg``/``RG``/``g``/``G`` instruction sets, or None for any other."""
    if name not in RGB_TO_CMYK or len(operands) != (3 if name in ("rg", "RG") else 1):
        return None
    values = [max(0.0, min(1.0, float(v))) for v in operands]
    r, g, b = (values * 3)[:3]
    return round(r * 255), round(g * 255), round(b * 255)


def _colours(stream: Any, found: dict[Rgb, None]) -> None:
    import pikepdf

    for instruction in pikepdf.parse_content_stream(stream, " ".join(RGB_TO_CMYK)):
        if (rgb := _rgb(str(instruction.operator), instruction.operands)) is not None:
            found[rgb] = None


def _rewrite(stream: Any, inks: dict[Rgb, tuple[float, ...]], settings: Press | None = None) -> None:
    """Each RGB or grey colour instruction of one stream as its DeviceCMYK ``k``/``K`` from ``inks``; with
    ``settings.rich_black``, large black fills and large black text in that mix (rich_black.py)."""
    import pikepdf

    out: list[Any] = []
    changed = False
    for instruction in pikepdf.parse_content_stream(stream):
        name = str(instruction.operator)
        rgb = _rgb(name, instruction.operands)
        if rgb is None:
            out.append(instruction)  # inline images included, as they were
            continue
        out.append(pikepdf.ContentStreamInstruction(list(inks[rgb]), pikepdf.Operator(RGB_TO_CMYK[name])))
        changed = True
    if settings is not None and settings.rich_black is not None:
        from .rich_black import rich_black

        out, enriched = rich_black(out, settings.rich_black, settings.text_below, settings.area_from)
        changed = changed or enriched
    if changed:
        stream.write(pikepdf.unparse_content_stream(out))


def _streams(resources: Any, seen: set[tuple[int, int]]) -> list[Any]:
    """The forms, tiling patterns and Type 3 glyphs under ``resources``, each once, depth first."""
    found: list[Any] = []
    if resources is None:
        return found
    children: list[Any] = []
    for key in ("/XObject", "/Pattern"):
        for obj in (resources.get(key) or {}).values():
            if obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1:
                children.append(obj)
    for font in (resources.get("/Font") or {}).values():
        if font.get("/Subtype") == "/Type3":
            children.extend((font.get("/CharProcs") or {}).values())
            found.extend(_streams(font.get("/Resources"), seen))
    for obj in children:
        if obj.objgen in seen:
            continue
        seen.add(obj.objgen)
        found.append(obj)
        found.extend(_streams(obj.get("/Resources"), seen))
    return found


def device_cmyk(src: Path, dst: Path, settings: Press) -> None:
    """Write ``src`` to ``dst`` with every RGB and grey fill and stroke colour as DeviceCMYK through the profile
    (the transform the gamut check uses); pure black as 100 % K."""
    import pikepdf

    from .pictures import cmyk_pictures
    from .profile import round_trip

    with pikepdf.open(src) as pdf:
        seen: set[tuple[int, int]] = set()
        streams: list[Any] = []
        for page in pdf.pages:
            page.contents_coalesce()
            streams.append(page.obj.Contents)
            streams.extend(_streams(page.obj.get("/Resources"), seen))
        found: dict[Rgb, None] = {}
        for stream in streams:
            _colours(stream, found)
        gradients = rgb_shadings([page.obj.get("/Resources") for page in pdf.pages] + [s.get("/Resources") for s in streams])
        found.update(dict.fromkeys(colours(gradients)))
        wanted = sorted(found)
        inks = {rgb: tuple(round(v / 255, 4) for v in cmyk)
                for rgb, (cmyk, _) in zip(wanted, round_trip(settings.profile, settings.intent_number,
                                                             settings.black_point_compensation, wanted), strict=True)}
        inks[(0, 0, 0)] = (0, 0, 0, 1)  # black text and rules: one plate, no registration black
        for stream in streams:
            _rewrite(stream, inks, settings)
        to_cmyk(gradients, inks)  # kept as vector shadings by Ghostscript (shadings.py)
        cmyk_pictures(pdf, streams, settings)  # with the same profile: Ghostscript would use its own (pictures.py)
        pdf.save(dst, deterministic_id=True)


def ghostscript() -> str:
    """The Ghostscript command, or a PressError saying how to get it."""
    found = shutil.which("gs")
    if found is None:
        raise PressError("Ghostscript (gs) is not installed; CMYK and PDF/X output need it (Debian/Ubuntu: apt-get install ghostscript)")
    return found


def _convert(src: Path, dst: Path, settings: Press) -> None:
    args = [ghostscript(), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite", "-dCompatibilityLevel=1.3",
            *(["-dPDFX"] if settings.pdfx else []), "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
            f"-sOutputICCProfile={settings.profile}", f"-dRenderIntent={settings.intent_number}",
            f"-dBlackPtComp={int(settings.black_point_compensation)}", "-dEmbedAllFonts=true", "-dSubsetFonts=true",
            "-dAutoRotatePages=/None", f"-sOutputFile={dst}", str(src)]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=GS_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise PressError(f"Ghostscript took over {GS_TIMEOUT} s converting {src.name}") from None
    if done.returncode != 0 or not dst.is_file():
        raise PressError(f"Ghostscript could not convert {src.name}: {(done.stderr or done.stdout).strip()[:500]}")


def _finish(converted: Path, source: Path, dst: Path, settings: Press) -> None:
    """The PDF/X keys, OutputIntent and boxes, saved deterministically."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    with pikepdf.open(source) as original:
        info = {key: original.docinfo.get(key) for key in ("/Title", "/CreationDate", "/ModDate")}
    with pikepdf.open(converted) as pdf:
        name = description(settings.profile)
        if settings.pdfx:
            profile = pdf.make_stream(settings.profile.read_bytes())
            profile.N = 4
            intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(settings.condition),
                                OutputCondition=String(name), Info=String(name), RegistryName=String(REGISTRY),
                                DestOutputProfile=profile)
            pdf.Root.OutputIntents = pdf.make_indirect(Array([intent]))
            pdf.docinfo[Name.GTS_PDFXVersion] = String(PDFX_VERSION)
            pdf.docinfo[Name.GTS_PDFXConformance] = String(PDFX_CONFORMANCE)
        pdf.docinfo[Name.Trapped] = Name("/False")
        pdf.docinfo[Name.Title] = info["/Title"] if info["/Title"] is not None else String(source.stem)
        for key in ("/CreationDate", "/ModDate"):
            pdf.docinfo[Name(key)] = info[key] if info[key] is not None else String("D:20000101000000+00'00'")
        for page in pdf.pages:
            box = page.obj.get("/MediaBox")
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = Array(box)  # a page with no trim of its own (a cover, a sheet) is trimmed to itself
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = Array(box)
        if "/ID" in pdf.trailer:
            del pdf.trailer["/ID"]  # Ghostscript's, from the clock; qpdf computes both halves from the content instead
        pdf.save(dst, deterministic_id=True, force_version="1.3", object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 compress_streams=True, fix_metadata_version=False)


def convert(src: Path, dst: Path, settings: Press) -> None:
    """Write ``src`` (an RGB PDF punchboard wrote) as a CMYK PDF (PDF/X-1a:2003 when ``settings.pdfx``) at ``dst``."""
    with tempfile.TemporaryDirectory(prefix=".press-", dir=dst.parent) as tmp:
        black, converted, finished = Path(tmp) / "black.pdf", Path(tmp) / "converted.pdf", Path(tmp) / "finished.pdf"
        device_cmyk(src, black, settings)
        _convert(black, converted, settings)
        _finish(converted, src, finished, settings)
        finished.replace(dst)
