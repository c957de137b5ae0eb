"""Every Python package in the source tree is listed in pyproject's ``packages`` (the wheel ships only those).

The slow wheel test finds a missing one only when a verb happens to import it; this finds it at once.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIRS = {"punchboard": "punchboard", "punchboard.generator": "generator", "punchboard.verifier": "verifier"}


def _source_packages() -> set[str]:
    found: set[str] = set()
    for name, folder in PACKAGE_DIRS.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            if "__pycache__" in parts:
                continue
            found.add(".".join((name, *parts)))
    return found


def test_every_source_package_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    missing = sorted(_source_packages() - listed)
    assert not missing, f"packages missing from pyproject.toml [tool.setuptools] packages: {missing}"
