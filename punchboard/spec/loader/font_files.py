"""Where a layout's fonts come from: its ``fonts:`` entries resolved to files, each face under its own name.

A layout names fonts in three ways, all under ``fonts:``:

- ``Name: file.ttf`` — one face from a file (``.ttf`` or ``.otf``);
- ``Name: {regular: …, bold: …, italic: …, bold-italic: …}`` — a family's faces from files, registered as
  ``Name``, ``Name-Bold``, ``Name-Italic`` and ``Name-BoldItalic`` (the names inline ``**bold**``/``*italic*`` pick);
- ``Name: {system: "Family Name"}`` — a family installed on this machine, found through fontconfig (``fc-match``);
  its regular face must be installed (else a located error), its other faces are used where installed.
- ``Name: {bundled: Serif}`` — a family shipped with punchboard (``punchboard/fonts/families.yaml``: Serif, Sans,
  Condensed, Symbols), its faces registered as a file family's are;
- ``Name: {file: Var.ttf, instance: Bold}`` — one instance of a variable font, named or as axis values
  (``instance: {wght: 700}``); a family's face may be such an instance too (``bold: {file: …, instance: Bold}``).

A font file is looked for next to the layout, then from the game folder (``fonts/X.otf`` finds ``GAME/fonts/X.otf``),
and must lie inside the game folder (a bundled layout's: inside punchboard's layouts).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from punchboard.incremental.file_digest import Stamp, stamp
from punchboard.plumbing.paths import LAYOUTS, PACKAGE, is_inside
from punchboard.spec.fonts import FontRefused, check_font, instance_file, instance_label, instance_location
from punchboard.spec.yamlsource import Document, PathKey

from .common import Collector

FACES = {"regular": "", "bold": "-Bold", "italic": "-Italic", "bold-italic": "-BoldItalic"}
WEIGHTS = {"regular": False, "normal": False, "bold": True}
STYLES = {"normal": False, "regular": False, "upright": False, "italic": True}
FC_TIMEOUT = 10.0  # seconds one fc-match may take
# (family, face) → (file or None, the family fontconfig answered with): asked once per process
_system: dict[tuple[str, str], tuple[Path | None, str]] = {}

BUNDLED_DIR = PACKAGE / "fonts"
_bundled: dict[str, dict[str, str]] = {}  # families.yaml, read once


class Wanted(NamedTuple):
    """One face a layout's ``fonts:`` declares."""

    name: str  # the name it is registered under
    where: PathKey  # where it is written
    file: str | None  # its file (a bundled face's: its path inside punchboard's fonts)
    family: str | None  # the installed family it is a face of (system:)
    face: str  # regular, bold, italic or bold-italic
    instance: str | Mapping[str, Any] | None = None  # a variable font's instance
    bundled: bool = False


def bundled_families() -> dict[str, dict[str, str]]:
    """The families shipped with punchboard: name → face → file inside ``punchboard/fonts`` (and its licence)."""
    if not _bundled:
        import yaml

        _bundled.update(yaml.safe_load((BUNDLED_DIR / "families.yaml").read_text(encoding="utf-8")))
    return _bundled


def wanted(fonts: Mapping[str, Any]) -> Iterator[Wanted]:
    """Each face a layout's ``fonts:`` declares: its registered name, where it is written, its file, system
    family or bundled face, and which face it is."""
    for name, entry in fonts.items():
        if isinstance(entry, str):
            yield Wanted(str(name), ("fonts", name), entry, None, "regular")
        elif "system" in entry:
            for face, suffix in FACES.items():
                yield Wanted(f"{name}{suffix}", ("fonts", name, "system"), None, str(entry["system"]), face)
        elif "bundled" in entry:
            faces = bundled_families().get(str(entry["bundled"]), {})
            for face, suffix in FACES.items():
                if face in faces:
                    yield Wanted(f"{name}{suffix}", ("fonts", name, "bundled"), faces[face], None, face, bundled=True)
        elif "file" in entry:
            yield Wanted(str(name), ("fonts", name), str(entry["file"]), None, "regular", entry.get("instance"))
        else:
            for face, suffix in FACES.items():
                value = entry.get(face)
                if isinstance(value, str):
                    yield Wanted(f"{name}{suffix}", ("fonts", name, face), value, None, face)
                elif isinstance(value, Mapping):
                    yield Wanted(f"{name}{suffix}", ("fonts", name, face), str(value["file"]), None, face,
                                 value.get("instance"))


def face_name(value: Mapping[str, Any]) -> str:
    """The registered name ``font: {family, weight, style}`` stands for, e.g. ``Garamond-BoldItalic``."""
    bold = WEIGHTS[str(value.get("weight", "regular"))]
    italic = STYLES[str(value.get("style", "normal"))]
    suffix = "-BoldItalic" if bold and italic else "-Bold" if bold else "-Italic" if italic else ""
    return f"{value['family']}{suffix}"


def locate(file: str, layout_dir: Path, game_folder: Path) -> tuple[Path, bool]:
    """The font file ``file`` names for a layout in ``layout_dir``, and whether it lies where it may: next to the
    layout first, then from the game folder; inside the game folder, or a bundled layout's inside punchboard's
    layouts. (A file found nowhere is given as next to the layout.)"""
    confine = LAYOUTS if is_inside(layout_dir, LAYOUTS) else game_folder
    candidates = [layout_dir / file] + ([game_folder / file] if confine == game_folder else [])
    found = next((c for c in candidates if c.is_file()), candidates[0])
    return found, is_inside(found, confine)


def stamps(fonts: Mapping[str, Any], layout_dir: Path, game_folder: Path) -> tuple[tuple[str, Path, Stamp | None], ...]:
    """Each face a layout file names with its file and that file's stamp (None: no such file), as
    :func:`resolve` would find them, for kept loads (punchboard/incremental/loads.py)."""
    out = []
    for name, _, file, family, face, _, bundled in wanted(fonts):
        if family is not None:
            path = _system.get((family, face), (None, ""))[0] or Path("system:" + family)
        elif bundled:
            path = BUNDLED_DIR / (file or "")
        else:
            path = locate(file or "", layout_dir, game_folder)[0]
        out.append((name, path, stamp(path)))
    return tuple(out)


def resolve(doc: Document, fonts: Mapping[str, Any], game_folder: Path, out: Collector) -> dict[str, Path]:
    """Registered name → font file for each face ``fonts`` declares that can be used; a located problem in ``out``
    for each that cannot (missing, outside the game folder, not a font, a system family not installed)."""
    found: dict[str, Path] = {}
    mixed = [name for name, entry in fonts.items() if isinstance(entry, dict) and len(_kinds(entry)) > 1]
    for name in mixed:
        entry = fonts[name]
        if "system" in entry and "bundled" not in entry:
            out.add(doc.problem(("fonts", name, "system"), f"font '{name}': system: names an installed family, whose "
                                "faces fontconfig finds; expected either system: or face files (regular, bold, …), not both"))
        else:
            kinds = ", ".join(_kinds(entry))
            out.add(doc.problem(("fonts", name), f"font '{name}' mixes {kinds}; expected one of them: face files "
                                "(regular, bold, …), system:, bundled: or file: with instance:"))
    for name, where, file, family, face, instance, bundled in wanted({n: e for n, e in fonts.items() if n not in mixed}):
        if family is not None:
            path = _system_face(doc, where, family, face, out)
            if path is None:
                continue
            shown = f"{path} (system font '{family}', {face})"
        elif bundled:
            path, shown = BUNDLED_DIR / (file or ""), f"bundled font {file}"
        else:
            assert file is not None
            path, inside = locate(file, doc.path.parent, game_folder)
            if not inside:
                out.add(doc.problem(where, f"font file '{file}' lies outside the game folder; expected a path "
                                           "inside it, relative to the layout or to the game folder (e.g. fonts/MyFont.otf)"))
                continue
            if not path.is_file():
                out.add(doc.problem(where, f"font file '{file}' not found next to {doc.name} or in the game folder; "
                                           "expected a .ttf or .otf file, e.g. fonts/MyFont.otf in the game folder"))
                continue
            shown = file
        try:
            check_font(path, shown, out.limits.max_file_bytes)
            if instance is not None:
                path = instance_file(path, instance_location(path, shown, instance), instance_label(instance))
        except FontRefused as exc:
            out.add(doc.problem(where + (("instance",) if instance is not None else ()), str(exc)))
            continue
        found[name] = path
    return found


def _kinds(entry: Mapping[str, Any]) -> list[str]:
    """The ways of naming a font an entry of ``fonts:`` uses (more than one is a mistake)."""
    kinds = [f"{key}:" for key in ("system", "bundled", "file") if key in entry]
    return kinds + (["face files"] if any(face in entry for face in FACES) else [])


def _system_face(doc: Document, where: PathKey, family: str, face: str, out: Collector) -> Path | None:
    """The installed file of ``family``'s ``face``; None, with a located problem for the regular face, when it is
    not installed (fontconfig answers with another family or another face rather than none)."""
    if shutil.which("fc-match") is None:
        if face == "regular":
            out.add(doc.problem(where, f"system font '{family}' cannot be looked up: fontconfig's fc-match is not "
                                       "installed; expected font files under fonts: instead (e.g. fonts/MyFont.otf)"))
        return None
    if (family, face) not in _system:
        _system[(family, face)] = _fc_match(family, face)
    path, answered = _system[(family, face)]
    if path is None and face == "regular":
        instead = f" (fontconfig offers '{answered}' instead)" if answered else ""
        out.add(doc.problem(where, f"system font '{family}' is not installed{instead}; expected an installed family "
                                   "(see fc-list : family) or font files under fonts:"))
    return path


def _fc_match(family: str, face: str) -> tuple[Path | None, str]:
    """fontconfig's file for ``family``'s ``face`` if it is that family and that face, and the family it named."""
    escaped = "".join("\\" + c if c in "\\-:," else c for c in family)
    bold, italic = "bold" in face, "italic" in face
    pattern = f"{escaped}:weight={'bold' if bold else 'regular'}:slant={'italic' if italic else 'roman'}"
    try:
        answer = subprocess.run(["fc-match", "-f", "%{file}\\n%{family}\\n%{weight}\\n%{slant}\\n%{index}", pattern],
                                capture_output=True, text=True, timeout=FC_TIMEOUT, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None, ""
    lines = answer.split("\n") + ["", "", "", "", ""]
    file, families, weight, slant, index = lines[:5]
    names = [n.strip().casefold() for n in families.split(",")]
    try:
        same_face = (float(weight.split()[0]) >= 180) == bold and (float(slant.split()[0]) > 0) == italic
    except (ValueError, IndexError):
        same_face = False
    if family.casefold() not in names or not same_face or index.strip() not in ("", "0") or not file:
        return None, families.split(",")[0].strip()
    return Path(file), families.split(",")[0].strip()


def system_font_notes(game: Any) -> list[str]:
    """For ``check``: one line of information for each font a game's layouts take from the installed fonts
    (``system:``), at the line that names it: the game then draws differently on a machine without that family."""
    from punchboard.plumbing.errors import SpecError
    from punchboard.spec.yamlsource import load_yaml

    notes: dict[str, None] = {}
    files: dict[Path, dict[str, Path]] = {}  # each layout file and the fonts a layout from it resolved
    for layout in game.layouts.values():
        for path in layout.chain:
            files.setdefault(path, {}).update(layout.fonts)
    for path, resolved in files.items():
        try:
            doc = load_yaml(path)
        except SpecError:
            continue  # the loader read it: only a file changed since can fail here
        fonts = doc.data.get("fonts") if isinstance(doc.data, dict) else None
        for name, entry in (fonts or {}).items():
            if not isinstance(entry, dict) or "system" not in entry or str(name) not in resolved:
                continue
            family = str(entry["system"])
            answered = _system.get((family, "regular"), (None, ""))[1] or family
            file = resolved[str(name)]
            notes[str(doc.problem(("fonts", name, "system"), f"font '{name}' is the installed font {answered} "
                                  f"(system:{family}, {file}); another machine without it will draw differently "
                                  "— copy the font file into fonts/ to ship it"))] = None
    return list(notes)
