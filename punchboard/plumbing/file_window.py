"""A file read front to back in large blocks.

The PDFs punchboard copies from (a part of the combined PDF, the last build's deck for its kept pages)
are looked at object by object in the order the objects lie in the file: one read of a block serves
the many objects in it, where a seek and a read per object took most of a large deck's copying.
"""

from __future__ import annotations

from typing import BinaryIO

BLOCK = 1 << 20


class FileWindow:
    """The block of ``handle`` last read; a request outside it reads the block that begins where it does."""

    def __init__(self, handle: BinaryIO, block: int = BLOCK):
        self.handle, self.block = handle, block
        self.start, self.data = 0, b""

    def at(self, offset: int, size: int) -> tuple[bytes, int]:
        """Bytes holding the file's ``size`` bytes from ``offset``, and where in them those begin; ValueError
        when the file ends before them."""
        at = offset - self.start
        if at < 0 or at + size > len(self.data):
            self.handle.seek(offset)
            self.data = self.handle.read(max(size, self.block))
            self.start, at = offset, 0
            if len(self.data) < size:
                raise ValueError("the file ends before what was to be read")
        return self.data, at
