"""punchboard: print-and-play pipeline for tabletop game prototypes."""

__version__ = "0.1.0"
