"""packed_forms writes a plain form from its shape's head, formatted once per document: the bytes must be the
ones reportlab writes for every form, whatever its box, length, filters or resources, and whatever reportlab's
``rl_config.useA85`` says (punchboard's documents are binary: draw/pdf_canvas.py)."""

from __future__ import annotations

import io
import random

import pytest
from punchboard.generator.document.pdf_encoding import PdfWriter
from punchboard.generator.draw import packed_forms
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from punchboard.generator.draw.side import _keep_transparency
from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFStream


def _forms(seed: int, a85: bool = False) -> tuple[bytes, bytes, int]:
    """One document's forms written by packed_forms, the same formatted by reportlab alone, and how many
    heads were formatted."""
    rng = random.Random(seed)
    old = rl_config.useA85
    rl_config.useA85 = a85  # reportlab's default has it; punchboard's canvas does not read it
    try:
        canvas = PunchCanvas(io.BytesIO())
        names = []
        for index in range(12):
            width = rng.choice([63, 63.5, 180.0, 188.5039, 10])
            name = f"F{index}"
            canvas.beginForm(name, rng.choice([0, -8.503937]), 0, width, rng.choice([88, 255.1748]))
            for _ in range(rng.randrange(1, 40)):
                canvas.rect(rng.random() * 50, rng.random() * 50, 5, 5, fill=1)
            ghost = rng.random() < 0.3
            if ghost:
                canvas.setFillAlpha(0.5)  # a form with more than fonts in its resources: written by reportlab
                canvas.drawString(1, 1, "ghost")
            canvas.endForm()
            if ghost:
                _keep_transparency(canvas, name)
            packed_forms.pack(canvas, name)
            names.append(name)
            canvas.doForm(name)
        canvas.showPage()
        document = canvas._doc
        ours, theirs = [], []
        for name in names:
            form = document.idToObject[document.getXObjectName(name)]
            document.Reference(form)
            ours.append(form.format(document))
            theirs.append(PDFStream.format(form.Contents, document))
        return b"".join(ours), b"".join(theirs), len(document.state.form_heads)
    finally:
        rl_config.useA85 = old


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("a85", [False, True])
def test_forms_written_from_their_shape_are_reportlabs_bytes(seed: int, a85: bool):
    ours, theirs, heads = _forms(seed, a85)
    assert ours == theirs
    assert ours.count(b"/Subtype /Form") == 12
    assert 1 <= heads < 12  # forms of one shape share a head (5 widths x 2 x 2 boxes at most)


def _document(seed: int, pack: bool) -> bytes:
    rng = random.Random(seed)
    out = io.BytesIO()
    canvas = PunchCanvas(out, writer=PdfWriter())
    for index in range(6):
        name = f"F{index}"
        canvas.beginForm(name, 0, 0, rng.choice([63, 88.5]), 88)
        for _ in range(rng.randrange(1, 30)):
            canvas.rect(rng.random() * 50, rng.random() * 50, 5, 5, fill=1)
        canvas.drawString(2, 2, f"card {index}")
        canvas.endForm()
        if pack:
            packed_forms.pack(canvas, name)
        canvas.doForm(name)
    canvas.showPage()
    canvas.save()
    packed_forms.close(canvas)
    return out.getvalue()


@pytest.mark.parametrize("a85", [False, True])
def test_a_packed_document_is_the_one_reportlab_writes(a85: bool):
    old = rl_config.useA85
    rl_config.useA85 = a85
    try:
        for seed in range(4):
            packed = _document(seed, pack=True)
            assert packed == _document(seed, pack=False)
            assert b"ASCII85Decode" not in packed and b"/FlateDecode" in packed
    finally:
        rl_config.useA85 = old
