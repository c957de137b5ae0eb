"""The ``punchboard`` command, as installed (``[project.scripts]``) and as ``python -m punchboard``.

A command a running build server can take (``punchboard server start``) is handed to it first
(:mod:`punchboard.plumbing.handoff`), before anything else is imported. Otherwise the memo of the methods
``dataclasses`` writes (:mod:`punchboard.plumbing.generated_code`) is put in place first, before
:mod:`punchboard.cli` and the verbs' modules define their classes; then the command runs
(:func:`punchboard.cli.run`). Code that calls :func:`punchboard.cli.main` in-process (tests, scripts) leaves
``dataclasses`` as it is.
"""

from __future__ import annotations

import sys


def run() -> None:
    from punchboard.plumbing.handoff import hand_off

    handed = hand_off(sys.argv[1:])  # a running build server does it (punchboard server start)
    if handed is not None:
        sys.stdout.flush()
        sys.exit(handed)
    from punchboard.plumbing import generated_code

    generated_code.install()
    from punchboard.cli import run as run_cli

    run_cli()
