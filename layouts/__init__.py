"""Bundled layouts, paper and card sizes: data, shipped inside the package as ``punchboard.layouts``."""
