"""Bundled games: data, shipped inside the package as ``punchboard.games``."""
