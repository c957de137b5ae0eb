"""Every folder that ships package data is listed in pyproject's ``packages``.

setuptools prints a "Package would be ignored" banner at install time for each folder of package
data that is not a listed package (16 of them on a fresh ``make build`` before this list was
complete); this finds a new one at once, without building anything.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _folder(package: str, package_dir: dict[str, str]) -> Path:
    """Where setuptools looks for ``package``: its own mapping, else its parent's, else the root."""
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        if head in package_dir:
            return ROOT / package_dir[head] / Path(*parts[cut:])
    return ROOT / Path(*parts)


def data_folders() -> set[str]:
    """Dotted names of the folders below a package-data root that hold files its globs ship."""
    setuptools = _config()["tool"]["setuptools"]
    package_dir: dict[str, str] = setuptools.get("package-dir", {})
    found: set[str] = set()
    for package, globs in setuptools["package-data"].items():
        base = _folder(package, package_dir)
        for pattern in globs:
            for path in base.glob(pattern):
                if path.is_file() and "__pycache__" not in path.parts:
                    rel = path.parent.relative_to(base).parts
                    found.add(".".join((package, *rel)))
    return found


def test_every_data_folder_is_a_listed_package():
    listed = set(_config()["tool"]["setuptools"]["packages"])
    folders = data_folders()
    assert "punchboard.games.steam_court" in folders and "punchboard.schema" in folders
    missing = sorted(folders - listed)
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"
