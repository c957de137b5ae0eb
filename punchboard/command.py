"""The ``punchboard`` command, as installed (``[project.scripts]``) and as ``python -m punchboard``.

The memo of the methods ``dataclasses`` writes (:mod:`punchboard.plumbing.generated_code`) is put in place
first, before :mod:`punchboard.cli` and the verbs' modules define their classes; then the command runs
(:func:`punchboard.cli.run`). Code that calls :func:`punchboard.cli.main` in-process (tests, scripts) leaves
``dataclasses`` as it is.
"""

from __future__ import annotations


def run() -> None:
    from punchboard.plumbing import generated_code

    generated_code.install()
    from punchboard.cli import run as run_cli

    run_cli()
