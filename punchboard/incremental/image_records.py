"""Image records on disk: what the last ``images`` or ``tts`` export wrote, so an unchanged image is not rendered,
encoded or written again (generator/export/kept_images.py decides; this module holds the records).

``images`` keeps one record per component, ``<images folder>/.punchboard-images/<component>.json``: for each file,
the digest of the pixels it was encoded from, the SHA-256 of the bytes written and the drawing key. ``tts``
keeps its sheets and piece images the same way (``tts/.punchboard-images.json``), and the pixels digest of each
back it drew by drawing key (``tts/.punchboard-backs.json``). Each record is sealed JSON (sealed.py) of format
:data:`FORMAT`; one that does not read back keeps nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .sealed import read_sealed_strict, write_sealed

RECORDS = ".punchboard-images"  # beside the component folders, which hold only images
TTS_RECORD = ".punchboard-images.json"  # what the last tts export wrote
TTS_BACKS = ".punchboard-backs.json"  # the pixels digest of each back tts drew, by drawing key
FORMAT = 2
Kept = dict[str, tuple[str, str, str]]  # file name → (pixels digest, file's SHA-256, drawing key or "")


def component_record(images: Path, component_id: str) -> Path:
    """Where the images of a component written into the export folder ``images`` are recorded."""
    return images / RECORDS / f"{component_id}.json"


def read_json(path: Path, section: str) -> dict[str, Any]:
    """The mapping ``section`` of a JSON record this module wrote in its :data:`FORMAT` (empty when the file does
    not read back as one)."""
    try:
        data = json.loads(read_sealed_strict(path).decode("utf-8"))
        found = data.get("format") == FORMAT and data.get(section)
    except (OSError, ValueError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def write_json(path: Path, section: str, values: dict[str, Any]) -> None:
    data = {"format": FORMAT, section: {key: values[key] for key in sorted(values)}}
    write_sealed(path, (json.dumps(data, indent=0) + "\n").encode("utf-8"))


def read(record: Path) -> Kept:
    """What the export that wrote ``record`` wrote (empty when it does not read back)."""
    return {str(name): (str(entry[0]), str(entry[1]), str(entry[2])) for name, entry in read_json(record, "files").items()
            if isinstance(entry, list) and len(entry) == 3}


def write(record: Path, files: Kept) -> None:
    """Record what an export wrote (file name → pixels digest, file's SHA-256, drawing key)."""
    write_json(record, "files", {name: list(entry) for name, entry in files.items()})
