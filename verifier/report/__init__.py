"""Reports: terminal table, JSON, verify.md and the variant × player-count matrix as SVG and PNG.

Callers use ``from punchboard.verifier import report`` and ``report.markdown(...)``; each kind of report
lives in its own module here.
"""

from .data import as_json
from .expected import Marks, roots
from .markdown import markdown
from .matrix import COLOURS, matrix, png, svg
from .summary import key_numbers, stale_lines, summary_lines
from .text import events_text, findings_text, folded, matrix_text, plain_text, reason, rich_table, where

__all__ = ["COLOURS", "Marks", "as_json", "events_text", "findings_text", "folded", "key_numbers", "markdown", "matrix",
           "matrix_text", "plain_text", "png", "reason", "rich_table", "roots", "stale_lines", "summary_lines", "svg", "where"]
