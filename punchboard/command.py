"""The ``punchboard`` command, as installed (``[project.scripts]``) and as ``python -m punchboard``: it runs
:func:`punchboard.cli.run`. Ctrl-C at any moment outside the verb itself (while the modules are imported, say)
ends the command as Ctrl-C during the verb does: ``interrupted`` on stderr, exit 130, no traceback.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # as punchboard.cli.common's, which is not imported yet when Ctrl-C may come


def run() -> None:
    """Run the command named by ``sys.argv``; the process ends here."""
    try:
        from punchboard.cli import run as run_cli

        run_cli()
    except KeyboardInterrupt:
        _interrupted()


def _interrupted() -> None:
    """Ctrl-C came before or after the verb ran: one line, exit 130 (a second Ctrl-C now is ignored)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        print("interrupted", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed: the exit code says it
        pass
    sys.exit(EXIT_INTERRUPTED)
