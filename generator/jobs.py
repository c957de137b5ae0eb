"""``--jobs N`` for builds: the process pool lives in :mod:`punchboard.plumbing.pool` (``verify`` uses it too).

Work is split by component: each worker draws whole components and writes their PDFs; the parent keeps
the order, the cache and everything shared (the combined PDF). A worker draws a component exactly as the
parent would, so the files are byte-identical for any N (tests/generator/test_jobs.py).
"""

from __future__ import annotations

from punchboard.plumbing.pool import default_jobs, ordered_map

__all__ = ["default_jobs", "ordered_map"]
