"""ARCHITECTURE.md's module map, one line a module, from each module's own docstring.

The map has two parts: the modules that make things (spec → draw → impose → document → export, preflight,
verifier, the CLI and the studio), room by room; and the incremental layer, the modules whose only job is to
avoid redoing work (``INCREMENTAL``), on their own. Each line is the first sentence of the module's docstring.

Run ``python tools/architecture_map.py`` to rewrite the part of ARCHITECTURE.md between the map's markers;
``tests/architecture/test_architecture_map.py`` fails when the page and the tree disagree.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "ARCHITECTURE.md"
START, END = "<!-- module map: start (tools/architecture_map.py) -->", "<!-- module map: end -->"
# Rooms in the order data flows through them: (folder, its name as installed)
ROOMS = (
    ("punchboard/spec", "punchboard.spec"), ("punchboard/spec/loader", "punchboard.spec.loader"),
    ("punchboard/plumbing", "punchboard.plumbing"), ("punchboard/incremental", "punchboard.incremental"),
    ("generator/draw", "punchboard.generator.draw"), ("generator/draw/effects", "punchboard.generator.draw.effects"),
    ("generator/impose", "punchboard.generator.impose"),
    ("generator/document", "punchboard.generator.document"), ("generator/export", "punchboard.generator.export"),
    ("generator/press", "punchboard.generator.press"), ("generator/preflight", "punchboard.generator.preflight"),
    ("generator", "punchboard.generator"),
    ("verifier/setup", "punchboard.verifier.setup"), ("verifier/probability", "punchboard.verifier.probability"),
    ("verifier/supply", "punchboard.verifier.supply"), ("verifier/playout", "punchboard.verifier.playout"),
    ("verifier/report", "punchboard.verifier.report"), ("verifier", "punchboard.verifier"),
    ("punchboard/cli", "punchboard.cli"), ("punchboard/studio", "punchboard.studio"), ("punchboard", "punchboard"),
)
# The modules whose only job is to avoid redoing work: what a build, check, images, tts or a long-running
# process keeps of an earlier run, and the one rule every such record obeys (incremental/sealed.py). The room
# punchboard/incremental holds every record format (tests/architecture/test_incremental_room.py); the stage-side
# halves below decide what is kept with the drawing's own knowledge (reportlab, the canvas, Pillow) and ask it.
INCREMENTAL_ROOM = "punchboard/incremental"
INCREMENTAL = frozenset({
    *(str(p.relative_to(ROOT)) for p in (ROOT / INCREMENTAL_ROOM).glob("*.py") if p.name != "__init__.py"),
    "generator/digests.py", "generator/warm_sides.py", "generator/languages.py",
    "generator/draw/kept.py", "generator/draw/packed_forms.py",
    "generator/document/kept_pages.py", "generator/document/kept_runs.py",
    "generator/export/kept_images.py",
})


LONGEST = 200  # characters of a line's sentence; a longer one is cut at a word and ends with "…"


def first_sentence(path: Path) -> str:
    """The first sentence of the module's docstring, on one line (its first paragraph when no sentence ends)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    found = re.match(r"(.+?\.)(\s|$)", paragraph)
    sentence = found.group(1) if found else paragraph
    if len(sentence) > LONGEST:
        sentence = sentence[:LONGEST].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return sentence or "(no docstring)"


def modules(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).glob("*.py") if p.name != "__main__.py")


def _lines(paths: list[Path]) -> list[str]:
    return [f"- `{p.name}` — {first_sentence(p)}" for p in paths]


def module_map() -> str:
    """The map's text, both parts."""
    out = ["### What makes the files", ""]
    for folder, name in ROOMS:
        made = [p for p in modules(folder) if str(p.relative_to(ROOT)) not in INCREMENTAL]
        if made:
            out += [f"**`{folder}/`** (`{name}`)", "", *_lines(made), ""]
    out += ["### The incremental layer", "",
            "These modules only avoid redoing work; deleting every record they keep is always safe. Every record is",
            "written sealed (`punchboard/incremental/sealed.py`): a record that does not read back whole is work to do",
            "again, never a wrong file. The user's cache folder is kept under a size bound (`cache_bound.py`). Every",
            "record format lives in `punchboard/incremental/`; the stage-side modules listed after it decide what is",
            "kept and ask the room for it.",
            "How each works: [the incremental build](docs/explanation/incremental-build.md).", ""]
    for path in sorted(INCREMENTAL, key=lambda p: (not p.startswith(INCREMENTAL_ROOM), p)):
        out.append(f"- `{path}` — {first_sentence(ROOT / path)}")
    return "\n".join(out).rstrip() + "\n"


def rewritten(page: str) -> str:
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{module_map()}{END}{tail}"


def main(argv: list[str]) -> int:
    page = PAGE.read_text(encoding="utf-8")
    new = rewritten(page)
    if "--check" in argv:
        return 0 if new == page else 1
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
