"""Reference for the image-deck benchmark: copy PNG data straight into a PDF, nothing else.

Nine 63.5 × 88.9 mm cards (with 1/8 in bleed) per Letter page, each PNG's IDAT
stream written unchanged as a /FlateDecode image with PNG predictors. No
layout engine, no marks, no checks — the floor a PDF imposition can reach in
Python. Usage: python bench/straight_copy.py ART_FOLDER OUT.pdf
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

PAGE_W, PAGE_H = 612.0, 792.0
CARD_W, CARD_H = 2.5 * 72 + 18, 3.5 * 72 + 18  # poker trim plus 1/8 in bleed each side


def png(path: Path) -> tuple[int, int, int, bytes]:
    data = path.read_bytes()
    pos, idat, width, height, colours = 8, [], 0, 0, 3
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, _, colour_type = struct.unpack(">IIBB", body[:10])
            colours = 3 if colour_type == 2 else 1
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    return width, height, colours, b"".join(idat)


def main(art: Path, out: Path) -> None:
    images = sorted(art.glob("*.png"))
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in at the end
    pages_id = add(b"")
    kids = []
    for start in range(0, len(images), 9):
        names, content = [], []
        for slot, path in enumerate(images[start:start + 9]):
            w, h, colours, stream = png(path)
            space = b"/DeviceRGB" if colours == 3 else b"/DeviceGray"
            image = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8 /ColorSpace %s "
                        b"/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors %d /BitsPerComponent 8 /Columns %d >> "
                        b"/Length %d >>\nstream\n" % (w, h, space, colours, w, len(stream)) + stream + b"\nendstream")
            names.append(b"/Im%d %d 0 R" % (slot, image))
            x = 36 + (slot % 3) * (CARD_W + 4)
            y = PAGE_H - 36 - (slot // 3 + 1) * (CARD_H + 4)
            content.append(b"q %.2f 0 0 %.2f %.2f %.2f cm /Im%d Do Q" % (CARD_W, CARD_H, x, y, slot))
        body = b"\n".join(content)
        stream_id = add(b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /XObject << %s >> >> "
                        b"/Contents %d 0 R >>" % (pages_id, b" ".join(names), stream_id)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(kids), b" ".join(b"%d 0 R" % k for k in kids))
    with out.open("wb") as handle:
        handle.write(b"%PDF-1.4\n")
        offsets = []
        for number, body in enumerate(objects, start=1):
            offsets.append(handle.tell())
            handle.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
        xref = handle.tell()
        handle.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
        handle.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
        handle.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
