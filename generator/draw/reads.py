"""Which of a piece's fields a layout reads, for drawing: the key under which a drawn side is reused
(punchboard/spec/reads.py, where the look checks use it too)."""

from __future__ import annotations

from punchboard.spec.reads import fields_read, reuse_key, side_reads

__all__ = ["fields_read", "reuse_key", "side_reads"]
