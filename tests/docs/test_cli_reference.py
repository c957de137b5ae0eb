"""docs/reference/cli.md is generated from the argument parser, and is the generated one."""

from __future__ import annotations

import argparse

from punchboard.cli import build_parser
from punchboard.cli import reference as cli_reference
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "reference" / "cli.md"


def test_the_committed_page_is_the_generated_one():
    assert PAGE.read_text(encoding="utf-8") == cli_reference.reference(), (
        "docs/reference/cli.md is out of date: run python -m punchboard.cli.reference docs/reference/cli.md"
    )


def test_a_new_flag_changes_the_page():
    """The check above can fail: a flag added to a verb shows in the page, under that verb."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.choices["build"].add_argument("--glitter", metavar="AMOUNT", help="sprinkle the sheets")
    text = cli_reference.reference(parser)
    assert text != cli_reference.reference()
    build_section = text.split("\n## build\n", 1)[1].split("\n## ", 1)[0]
    assert "--glitter AMOUNT" in build_section and "sprinkle the sheets" in build_section


def test_every_verb_has_its_section_with_its_help():
    text = cli_reference.reference()
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    documented = list(sub.choices)
    assert len(documented) >= 10
    for name in documented:
        assert f"\n## {name}\n" in text and f"usage: punchboard {name}" in text
    assert "punchboard server" not in text
