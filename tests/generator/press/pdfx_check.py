"""An independent reader of PDF/X-1a:2003 files: their structure with pikepdf, their ink with Ghostscript.

What this checks (ISO 15930-4 in part): the document keys (GTS_PDFXVersion, GTS_PDFXConformance, Trapped, Title,
dates), one GTS_PDFX OutputIntent with an embedded 4-channel profile and an OutputConditionIdentifier, PDF 1.3/1.4,
TrimBox and BleedBox on every page (trim inside bleed inside media), only DeviceCMYK, DeviceGray or Separation /
DeviceN with a CMYK alternate in any content stream, form, pattern, glyph, shading or image, no transparency
(SMask, soft-mask groups, CA/ca below 1, blend modes), every font embedded, no encryption, no object streams.

What a commercial preflight (Acrobat's PDF/X-1a profile, callas pdfToolbox) checks beyond this: the profile's
internals against the named condition, hairlines and minimum line weights, overprint and trapping settings,
image resolution per placed size, font licensing flags, annotations inside the trim, the XMP metadata's agreement
with the Info dictionary, and (for 2001 vs 2003) the exact key set per version.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pikepdf

RGB_OPERATORS = {"rg", "RG"}
ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray"}
GS_TIMEOUT = 300


def _space_problem(space: Any) -> str | None:
    """Why a colour space is not allowed in PDF/X-1a, or None."""
    if isinstance(space, pikepdf.Name):
        return None if str(space) in ALLOWED_SPACES | {"/Pattern"} else f"colour space {space}"
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family in ("/Separation", "/DeviceN"):
            return _space_problem(space[2])
        if family == "/Indexed":
            return _space_problem(space[1])
        if family == "/Pattern":
            return None if len(space) == 1 else _space_problem(space[1])
        return f"colour space {family}"
    return None


def _resources(res: Any, where: str, seen: set[tuple[int, int]], out: list[str]) -> None:
    if res is None:
        return
    for name, space in (res.get("/ColorSpace") or {}).items():
        if (problem := _space_problem(space)) is not None:
            out.append(f"{where}: {name}: {problem}")
    for name, gs in (res.get("/ExtGState") or {}).items():
        for key in ("/CA", "/ca"):
            if key in gs and float(gs[key]) < 1:
                out.append(f"{where}: {name}: {key} {float(gs[key])}")
        if "/SMask" in gs and str(gs.SMask) != "/None":
            out.append(f"{where}: {name}: soft mask")
        if "/BM" in gs and str(gs.BM) not in ("/Normal", "/Compatible"):
            out.append(f"{where}: {name}: blend mode {gs.BM}")
    for name, shading in (res.get("/Shading") or {}).items():
        if (problem := _space_problem(shading.get("/ColorSpace"))) is not None:
            out.append(f"{where}: shading {name}: {problem}")
    for name, font in (res.get("/Font") or {}).items():
        _font(font, f"{where}: font {name}", seen, out)
    for key in ("/XObject", "/Pattern"):
        for name, obj in (res.get(key) or {}).items():
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            _xobject(obj, f"{where}: {name}", seen, out)


def _font(font: Any, where: str, seen: set[tuple[int, int]], out: list[str]) -> None:
    if font.get("/Subtype") == "/Type3":
        for glyph in (font.get("/CharProcs") or {}).values():
            _stream(glyph, where, seen, out)
        _resources(font.get("/Resources"), where, seen, out)
        return
    descendants = font.get("/DescendantFonts")
    target = descendants[0] if descendants is not None else font
    descriptor = target.get("/FontDescriptor")
    if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
        out.append(f"{where}: {font.get('/BaseFont')} not embedded")


def _xobject(obj: Any, where: str, seen: set[tuple[int, int]], out: list[str]) -> None:
    if obj.get("/Subtype") == "/Image":
        if (problem := _space_problem(obj.get("/ColorSpace"))) is not None and not obj.get("/ImageMask", False):
            out.append(f"{where}: image {problem}")
        if "/SMask" in obj or "/SMaskInData" in obj:
            out.append(f"{where}: image with a soft mask")
        return
    if obj.get("/PatternType") == 2:  # a shading pattern
        shading = obj.get("/Shading")
        if (problem := _space_problem(shading.get("/ColorSpace"))) is not None:
            out.append(f"{where}: shading {problem}")
        return
    group = obj.get("/Group")
    if group is not None and group.get("/S") == "/Transparency":
        out.append(f"{where}: transparency group")
    _stream(obj, where, seen, out)
    _resources(obj.get("/Resources"), where, seen, out)


def _stream(stream: Any, where: str, seen: set[tuple[int, int]], out: list[str]) -> None:
    for operands, op in pikepdf.parse_content_stream(stream):
        name = str(op)
        if name in RGB_OPERATORS:
            out.append(f"{where}: RGB operator {name}")
        elif name in ("cs", "CS") and str(operands[0]) == "/DeviceRGB":
            out.append(f"{where}: {name} /DeviceRGB")
        elif name == "BI":
            out.append(f"{where}: inline image")


def problems(path: Path) -> list[str]:
    """Everything in ``path`` that a PDF/X-1a:2003 intake would refuse (what this reader can see)."""
    out: list[str] = []
    with pikepdf.open(path) as pdf:
        if pdf.pdf_version not in ("1.3", "1.4"):
            out.append(f"PDF version {pdf.pdf_version}")
        if pdf.is_encrypted:
            out.append("encrypted")
        info = pdf.docinfo
        expected = {"/GTS_PDFXVersion": "PDF/X-1:2003", "/GTS_PDFXConformance": "PDF/X-1a:2003", "/Trapped": "/False"}
        for key, value in expected.items():
            if str(info.get(key)) != value:
                out.append(f"Info {key} is {info.get(key)!r}, expected {value}")
        for key in ("/Title", "/CreationDate", "/ModDate"):
            if key not in info:
                out.append(f"Info has no {key}")
        intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == "/GTS_PDFX"]
        if len(intents) != 1:
            out.append(f"{len(intents)} GTS_PDFX OutputIntents, expected 1")
        for intent in intents:
            profile = intent.get("/DestOutputProfile")
            if profile is None or int(profile.get("/N", 0)) != 4 or profile.read_bytes()[36:40] != b"acsp":
                out.append("OutputIntent without an embedded CMYK ICC profile")
            if not str(intent.get("/OutputConditionIdentifier", "")):
                out.append("OutputIntent without an OutputConditionIdentifier")
        seen: set[tuple[int, int]] = set()
        for number, page in enumerate(pdf.pages, start=1):
            where = f"page {number}"
            out.extend(_boxes(page.obj, where))
            _stream(page, where, seen, out)
            _resources(page.obj.get("/Resources"), where, seen, out)
            if page.obj.get("/Group") is not None:
                out.append(f"{where}: page transparency group")
    with open(path, "rb") as handle:
        if b"/ObjStm" in handle.read():
            out.append("object streams (PDF 1.5)")
    return out


def _boxes(page: Any, where: str) -> list[str]:
    if "/TrimBox" not in page or "/BleedBox" not in page:
        return [f"{where}: no TrimBox or BleedBox"]
    media, bleed, trim = ([float(v) for v in page[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox"))

    def inside(a: list[float], b: list[float]) -> bool:
        return a[0] >= b[0] - 0.01 and a[1] >= b[1] - 0.01 and a[2] <= b[2] + 0.01 and a[3] <= b[3] + 0.01

    return [] if inside(trim, bleed) and inside(bleed, media) else [f"{where}: trim {trim} bleed {bleed} media {media} not nested"]


def ink_coverage(path: Path) -> list[tuple[float, float, float, float]]:
    """Each page's average C, M, Y, K coverage (0–1) as Ghostscript's ink_cov device separates it."""
    done = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=ink_cov", "-r36", "-o", "-", str(path)],
                          capture_output=True, text=True, timeout=GS_TIMEOUT, check=True)
    return [tuple(float(v) for v in line.split()[:4]) for line in done.stdout.splitlines() if "CMYK" in line]  # type: ignore[misc]


def render_cmyk(path: Path, page: int, dpi: int) -> Any:
    """One page as CMYK pixels (a numpy array, height × width × 4, 0–255) rendered by Ghostscript, no anti-aliasing."""
    import tempfile

    import numpy as np
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "page.tif"
        subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi}", f"-dFirstPage={page}",
                        f"-dLastPage={page}", "-dTextAlphaBits=1", "-dGraphicsAlphaBits=1", f"-sOutputFile={target}", str(path)],
                       capture_output=True, timeout=GS_TIMEOUT, check=True)
        with Image.open(target) as image:
            return np.asarray(image.convert("CMYK"))
