"""``--jobs N`` for builds: the process pool lives in :mod:`punchboard.plumbing.pool` (``verify`` uses it too).

With the default ``--jobs 0`` (``auto``) a build uses every core only for work of at least
:data:`PARALLEL_MIN_PIECES` pieces. Work is split by component: each worker draws whole components and writes their PDFs; the parent keeps
the order, the cache and everything shared (the combined PDF). A worker draws a component exactly as the
parent would, so the files are byte-identical for any N (tests/generator/test_jobs.py).
"""

from __future__ import annotations

from punchboard.plumbing.pool import default_jobs, ordered_map

__all__ = ["PARALLEL_MIN_PIECES", "default_jobs", "jobs_for", "ordered_map"]

# With the default --jobs (0), work is shared out only when there is this much of it: starting
# workers and sending results back cost more than they save on small games (the five bundled
# games, 54–285 pieces each, were up to 25 % slower with every core than with one).
PARALLEL_MIN_PIECES = 1000


def jobs_for(jobs: int, auto: bool, pieces: int) -> int:
    """The processes to use for drawing ``pieces`` pieces: ``jobs`` as asked, or with the default
    (``auto``) one process unless the work is large enough to pay for more."""
    return 1 if auto and pieces < PARALLEL_MIN_PIECES else jobs
