"""Build-time checks against the paper (a card larger than the page), located in the YAML.

The loader cannot know the paper; the generator does. It calls :func:`size_location`
so that such problems point at the component's ``size`` like every other input error.
"""

from __future__ import annotations

from punchboard.plumbing.errors import SpecError, display_path

from .model import Component
from .yamlsource import load_yaml


def size_location(component: Component, key: str = "size") -> tuple[str, int, int]:
    """``(file, line, col)`` of ``key`` in the component's file (the file's start if unknown)."""
    try:
        doc = load_yaml(component.source)
    except SpecError:
        return display_path(component.source), 1, 1
    line, col = doc.where((key,))
    return doc.name, line, col
