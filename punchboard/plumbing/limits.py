"""Resource limits on input, each raisable from the command line.

They keep a hostile or mistaken spec (a billion cards, an alias bomb, a
gigapixel image, a huge file) from exhausting memory or time: loading stops
early with a clear ``file:LINE:COL`` problem naming the flag that raises it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_pieces: int = 20_000  # physical pieces one component may expand to (count × range × copies)
    max_yaml_nodes: int = 200_000  # values one YAML file may expand to, aliases followed
    max_file_bytes: int = 10_000_000  # size of one YAML or CSV file
    max_image_pixels: int = 50_000_000  # width × height of one image, checked without decoding it


DEFAULT_LIMITS = Limits()

FLAGS = {
    "max_pieces": "--max-pieces",
    "max_yaml_nodes": "--max-yaml-nodes",
    "max_file_bytes": "--max-file-bytes",
    "max_image_pixels": "--max-image-pixels",
}

LIMIT_HELP = {
    "max_pieces": "most pieces one component may expand to",
    "max_yaml_nodes": "most values one YAML file may expand to, aliases followed",
    "max_file_bytes": "largest YAML, CSV or image file, in bytes",
    "max_image_pixels": "largest image, in pixels (width × height)",
}
