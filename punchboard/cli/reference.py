"""The command-line reference (docs/reference/cli.md), generated from the argument parser.

    python -m punchboard.cli.reference docs/reference/cli.md     # rewrite the page
    python -m punchboard.cli.reference                           # print it

Each verb's section is its ``--help`` exactly as argparse writes it, at a fixed width so the page does not
depend on the terminal that generated it. tests/docs/test_cli_reference.py fails when the page is stale.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from punchboard.cli import build_parser

WIDTH = 100

HEAD = """\
# Command line

<!-- Generated from punchboard's argument parser by
     `python -m punchboard.cli.reference docs/reference/cli.md`; do not edit by hand.
     tests/docs/test_cli_reference.py fails when this page and the parser disagree. -->

Every verb below is `punchboard VERB …`; after `make build` the command is `.venv/bin/punchboard`
(or `punchboard` once `source .venv/bin/activate` has run). A TARGET is a bundled game id
(`steam_court`) or the path of a game folder; no TARGET means every bundled game. Every verb has
`--help`, `--quiet` and `--verbose`.

| verb | what it does |
|---|---|
"""


def _fixed_width(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with its help formatted at WIDTH columns, whatever the terminal."""
    parser.formatter_class = functools.partial(parser.formatter_class, width=WIDTH)  # type: ignore[assignment, call-arg]  # typeshed's _FormatterClass takes prog alone
    return parser


def _verbs(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every verb, in the order ``--help`` lists them."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help or "" for choice in sub._choices_actions}
    return [(name, helps.get(name, ""), p) for name, p in sub.choices.items()]


def _help_text(parser: argparse.ArgumentParser) -> str:
    """``parser``'s help at WIDTH columns, without trailing spaces."""
    lines = _fixed_width(parser).format_help().rstrip().splitlines()
    return "\n".join(line.rstrip() for line in lines)


def reference(parser: argparse.ArgumentParser | None = None) -> str:
    """The whole page, as Markdown."""
    parser = parser or build_parser()
    verbs = _verbs(parser)
    parts = [HEAD]
    parts += [f"| [`{name}`](#{name}) | {summary} |\n" for name, summary, _ in verbs]
    parts.append(f"\n## punchboard\n\n```text\n{_help_text(parser)}\n```\n")
    for name, summary, verb in verbs:
        parts.append(f"\n## {name}\n\n{summary[:1].upper()}{summary[1:]}.\n\n```text\n{_help_text(verb)}\n```\n")
    return "".join(parts)


def main(argv: list[str]) -> int:
    """Write the page to ``argv[0]``, or print it."""
    text = reference()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
