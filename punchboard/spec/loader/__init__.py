"""YAML → validated, immutable model. All input checking happens here, one module per kind of file."""

from .common import Collector
from .game import load_game
from .sizes import load_paper, load_size_presets

__all__ = ["Collector", "load_game", "load_paper", "load_size_presets"]
