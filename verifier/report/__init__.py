"""Reports: terminal table, JSON, verify.md and the variant × player-count matrix as SVG and PNG.

Callers use ``from punchboard.verifier import report`` and ``report.markdown(...)``; each kind of report
lives in its own module here.
"""

from .data import as_json
from .markdown import markdown
from .matrix import COLOURS, matrix, png, svg
from .text import events_text, findings_text, folded, plain_text, reason, rich_table, where

__all__ = ["COLOURS", "as_json", "events_text", "findings_text", "folded", "markdown", "matrix", "plain_text", "png",
           "reason", "rich_table", "svg", "where"]
