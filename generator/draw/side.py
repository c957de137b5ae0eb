"""Draw one side of a piece — a layout bound to the piece's fields — into a rectangle.

This is the function every printed kind uses (cards, tokens, tiles, boards):
:func:`draw_side` paints a :class:`~punchboard.spec.model.Layout` at trim size with
its bleed, clipped to the area the imposition allows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental import sides
from punchboard.incremental.identity import ByIdentity, identity
from punchboard.plumbing.units import Dim
from punchboard.spec import expressions
from punchboard.spec.binding import bind, bound_props
from punchboard.spec.effects import Gradient, Shadow
from punchboard.spec.icons import INLINE_ICON
from punchboard.spec.images import side_image
from punchboard.spec.model import Element, Layout
from punchboard.spec.repeats import shows_nested_pictures

from . import effects, fingerprint, fixed_forms, fonts, kept, packed_forms, svg, text
from .art import Ink, draw_icon
from .colours import resolved
from .effects import gradient, opacity, shadow
from .geometry import Rect
from .grid import draw as draw_grid
from .observe import Drawn, SideObserver
from .pdf_canvas import state_of
from .pictures import draw_picture
from .reads import reuse_key
from .repeat import draw as draw_repeat
from .stamp import draw_stamp

Warn = Callable[[str], None]
ClipShape = Callable[[Any], None]  # adds a closed outline to a reportlab path
DEFAULT_TEXT_SIZE = 10.0
Observe = Callable[[Layout, "SideFrame"], SideObserver]  # a watcher for one side of a layout in a frame


@dataclass(frozen=True)
class SideFrame:
    """Where a side goes on the page.

    ``trim`` is the cut rectangle; ``bleed`` how far art continues past it on
    each axis; ``clip`` the area paint may reach (the bleed rectangle, or the
    trim on edges shared with a touching neighbour), as a Rect or a shape.
    ``rotation`` turns the whole side about the trim centre (gutterfold backs: 180).
    A quarter turn (90 or 270, a card turned on its sheet) is a *turned slot*: ``trim``,
    bleeds and ``clip`` are the slot as it lies on the page (a portrait card's slot is
    landscape) and the layout is drawn turned into it; :meth:`upright` is the frame the
    layout sees. ``mirror_x``/``mirror_y`` tell outline shapes that this is the reverse side
    seen through a duplex flip, so asymmetric outlines are mirrored.
    """

    trim: Rect
    bleed_x: float
    bleed_y: float
    clip: Rect | ClipShape | None = None
    rotation: int = 0
    mirror_x: bool = False
    mirror_y: bool = False

    @property
    def bleed_rect(self) -> Rect:
        return self.trim.inset(-self.bleed_x, -self.bleed_y)

    @property
    def turned(self) -> bool:
        """A quarter turn: the slot on the page is the piece's trim with width and height swapped."""
        return self.rotation % 180 == 90

    def upright(self) -> SideFrame:
        """The frame a turned slot's layout is drawn in before it is turned (same centre,
        width and height swapped, no clip: the slot's clip applies on the page)."""
        if not self.turned:
            return self
        cx, cy = self.trim.center
        w, h = self.trim.height, self.trim.width
        return SideFrame(Rect(cx - w / 2, cy - h / 2, w, h), self.bleed_y, self.bleed_x, None, 0, self.mirror_x, self.mirror_y)


@dataclass
class SideContext:
    """What a side needs besides geometry: palette, folders for images, warnings."""

    palette: Mapping[str, str]
    folders: tuple[Path, ...] = ()
    warn: Warn = field(default=lambda message: None)
    where: str = ""
    proof: bool = False
    proof_colours: tuple[str, str, float] = ("#e0007a", "#0088cc", 0.4)
    stamp: str = ""  # a print stamp such as "P3" (draw/stamp.py), drawn over the layout
    icons: Mapping[str, Path] = field(default_factory=dict)  # the game's own icons (icons: in game.yaml)
    observe: Observe | None = None  # starts a watcher of each side drawn (the preflight, generator/preflight/)
    fingerprint: fingerprint.Request | None = None  # hands the side's print fingerprint on (draw/fingerprint.py)
    kept_sides: sides.Store | None = None  # sides drawn in an earlier build, found by content (draw/kept.py)


def colour(name: Any, palette: Mapping[str, str]) -> str | None:
    """A layout colour as #rrggbb or a colour name (None for none); a gradient fill reads as its first stop."""
    if name is None or name == "none":
        return None
    if isinstance(name, Gradient):
        name = name.stops[0][1]
    return palette.get(str(name), str(name))


def box_of(element: Element, frame: SideFrame, layout: Layout) -> Rect:
    ref = element.props.get("box", "trim")
    if ref == "bleed":
        return frame.bleed_rect
    if ref == "safe":
        return frame.trim.inset(layout.safe)
    return frame.trim


def place(element: Element, box: Rect, default_w: str = "100%", default_h: str = "100%") -> Rect:
    props = element.props
    x = _dim(props.get("x"), box.width, 0.0)
    y = _dim(props.get("y"), box.height, 0.0)
    w = _dim(props.get("width"), box.width, box.width if default_w == "100%" else 0.0)
    h = _dim(props.get("height"), box.height, box.height if default_h == "100%" else 0.0)
    return Rect(box.x + x, box.top - y - h, w, h)


def _dim(value: Any, extent: float, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, Dim):
        return value.resolve(extent)
    return float(value)


def _point(box: Rect, px: Any, py: Any) -> tuple[float, float]:
    return box.x + _dim(px, box.width, 0.0), box.top - _dim(py, box.height, 0.0)


Shown = tuple[bool, str | None]  # whether a side shows an element, and what its condition's failure says after 'where'
_SHOWN: Shown = (True, None)


def _shown(element: Element, fields: Mapping[str, Any]) -> Shown:
    condition = element.props.get("when")
    if not condition:
        return _SHOWN
    try:
        return bool(expressions.evaluate(condition, fields, lenient=True)), None
    except (expressions.ExpressionError, TypeError, ValueError) as exc:
        return False, f": condition {condition!r} of element '{element.id}' failed ({exc}); element skipped [{element.source}]"


class Plan(NamedTuple):
    """How a side drawn as a form is drawn: which elements it shows, and the runs of fixed elements among them
    placed as one drawing (draw/fixed_forms.py), by the index of their first element."""

    shown: tuple[Shown, ...]
    runs: dict[int, tuple[fixed_forms.Run, fixed_forms.RunDrawing]]

    def forms(self) -> list[str]:
        """The run forms the side places, in the order it places them."""
        return [drawn.form for _, drawn in self.runs.values() if drawn.form is not None]


def _upright_key(frame: SideFrame) -> tuple[Any, ...]:
    """What a run's elements see of the frame they are drawn in (a turned slot's: upright)."""
    seen = frame.upright()
    trim = seen.trim
    return (trim.x, trim.y, trim.width, trim.height, seen.bleed_x, seen.bleed_y, seen.mirror_x, seen.mirror_y)


def _run_bounds(frame: SideFrame) -> Rect:
    """A run form's box: past anything its side can show (the side's own form and clip cut it there)."""
    seen = frame.upright()
    reach = seen.trim.width + seen.trim.height
    return seen.bleed_rect.inset(-reach, -reach)


def _placed_runs(canvas: Canvas, layout: Layout, runs: Sequence[fixed_forms.Run], frame: SideFrame,
                 ctx: SideContext) -> dict[int, tuple[fixed_forms.Run, fixed_forms.RunDrawing]]:
    """Each of ``runs`` as ``canvas``'s document has it (its form drawn there once), by its first element."""
    placed: dict[int, tuple[fixed_forms.Run, fixed_forms.RunDrawing]] = {}
    if not runs:
        return placed
    palette = {**ctx.palette, **layout.palette}
    upright = frame.upright()
    key, bounds = _upright_key(frame), _run_bounds(frame)
    for run in runs:
        def draw(on: Canvas, run: fixed_forms.Run = run) -> list[list[str]]:
            quiet = replace(ctx, warn=lambda message: None, observe=None, fingerprint=None, stamp="", proof=False)
            codes = []
            for index in run:
                start = len(on._code)
                _draw_element(on, layout.elements[index], layout, {}, upright, palette, quiet)
                codes.append(on._code[start:])
            return codes

        drawn = fixed_forms.drawing(canvas, layout, run, key, ctx.palette, palette, bounds, draw, ctx.kept_sides)
        if drawn is not None:
            placed[run[0]] = (run, drawn)
    return placed


def plan(canvas: Canvas, layout: Layout, fields: Mapping[str, Any], frame: SideFrame, ctx: SideContext) -> Plan:
    """How the side is drawn into ``frame`` (its form's own) on ``canvas``: the run forms it places are drawn
    in the document now, before the side's own form is begun."""
    shown = tuple(_shown(element, fields) for element in layout.elements)
    runs = fixed_forms.runs(fixed_forms.fixed(layout, ctx.icons), [show for show, _ in shown])
    return Plan(shown, _placed_runs(canvas, layout, runs, frame, ctx))


def _outer(frame: SideFrame, clip: Rect) -> Rect:
    """What a side's form holds: the side up to its full bleed; a narrower clip (cards touching on shared
    cut lines) is applied where the form is placed, so every position reuses one form."""
    return frame.bleed_rect if frame.bleed_rect.contains(clip) else clip


FormKey = tuple[Any, ...]


def form_key(layout: Layout, fields: Mapping[str, Any], frame: SideFrame, proof: bool, stamp: str,
             reads: bytes | None = None) -> FormKey | None:
    """Which of a document's side forms :func:`draw_side` places for this side (the same key, the same form):
    the layout object, the fields it reads (``reads``: their reuse_key, when known) and the form's geometry;
    None for a side not drawn as a form (clipped to a shape)."""
    if not isinstance(frame.clip, Rect):
        return None
    if reads is None:
        reads = reuse_key(layout, fields)
    return form_key_of(layout, reads, form_geometry(frame), proof, stamp)


def form_key_of(layout: Layout, reads: bytes, geometry: tuple[Any, ...], proof: bool, stamp: str) -> FormKey:
    """:func:`form_key` from its parts: the fields' reuse_key and the frame's :func:`form_geometry`."""
    return (layout.name, identity(layout), reads, *geometry, proof, stamp)


def form_geometry(frame: SideFrame) -> tuple[Any, ...]:
    """The part of a form's key that comes from its frame (a rectangular clip), worked out once per frame."""
    return _GEOMETRY.get(frame, _form_geometry)


_GEOMETRY: ByIdentity[SideFrame, tuple[Any, ...]] = ByIdentity(limit=1024)  # a deck's pages repeat a sheet's few frames


def _form_geometry(frame: SideFrame) -> tuple[Any, ...]:
    """The part of a form's key that comes from its frame (a deck's pages repeat a sheet's few frames)."""
    trim, clip = frame.trim, frame.clip
    assert isinstance(clip, Rect)
    outer = _outer(frame, clip)
    return (
        round(trim.width, 4), round(trim.height, 4), round(frame.bleed_x, 4), round(frame.bleed_y, 4),
        tuple(round(v, 4) for v in (outer.x - trim.x, outer.y - trim.y, outer.width, outer.height)),
        frame.rotation, frame.mirror_x, frame.mirror_y,
    )


def draw_side(canvas: Canvas, layout: Layout, fields: Mapping[str, Any], frame: SideFrame, ctx: SideContext) -> None:
    """Paint ``layout`` with ``fields`` into ``frame`` on ``canvas`` (state is saved and restored).

    A side clipped to a rectangle is drawn once per document as a form XObject
    and placed wherever an identical side recurs (a deck's six 7s, its common
    back): the PDF holds each distinct face once, which makes it smaller and
    the build faster, and the page looks exactly the same. Sides are the same
    when the fields the layout reads agree (:mod:`.reads`): a back that reads no
    field is drawn once per deck. Warnings a side gave when drawn are given
    again, naming each piece that shows it.
    """
    key = form_key(layout, fields, frame, ctx.proof, ctx.stamp)
    if key is None:
        _draw_side_now(canvas, layout, fields, frame, ctx)
        return
    trim, clip = frame.trim, frame.clip
    assert isinstance(clip, Rect)  # form_key gives a key only for a rectangular clip
    outer = _outer(frame, clip)
    local_clip = Rect(outer.x - trim.x, outer.y - trim.y, outer.width, outer.height)
    state = state_of(canvas)
    forms, said = state.forms, state.form_warnings
    name = forms.get(key)
    asked = ctx.fingerprint if not frame.turned else None  # a turned slot draws the layout off the origin
    prints = state.form_prints
    if name is not None:
        first, messages = said[name]
        for message in messages:  # the side warns again for this piece, by this piece's name
            ctx.warn(ctx.where + message[len(first):] if first and message.startswith(first) else message)
        if asked is not None and (name, asked.bleed) in prints:
            asked.take(prints[(name, asked.bleed)])
    else:
        name = forms[key] = f"PBSide{len(forms)}"
        # Sizes are snapped to 1e-9 pt: a slot's width, an edge minus an edge, is off by float noise that a
        # side drawn alone (its print fingerprint, draw/fingerprint.py) does not have.
        local = SideFrame(Rect(0, 0, round(trim.width, 9), round(trim.height, 9)), round(frame.bleed_x, 9),
                          round(frame.bleed_y, 9), local_clip, frame.rotation, frame.mirror_x, frame.mirror_y)
        # The clip lies within the bleed rectangle, which a 180° turn about the trim centre maps onto itself
        # (a turned slot's bleed rectangle is the upright one turned a quarter: bleeds swap with the sides).
        bounds = local.bleed_rect
        store = ctx.kept_sides
        fixed = kept.fix_fonts(canvas._doc, store.fonts) if store is not None else None
        pictures = side_pictures(layout, fields, ctx.folders) if fixed is not None else None
        if pictures is None:
            store = None
        # the preflight's findings are kept with the side: a side drawn without it is another side
        kept_key = (sides.key(store.salt, (sides.layout_digest(layout), pictures, key[2:], ctx.observe is not None,
                                          fixed)) if store is not None else "")
        found = store.get(kept_key) if store is not None else None
        bleed = sides.bleed_name(asked.bleed) if asked is not None else None
        runs = _kept_runs(canvas, layout, found, local, ctx) if found is not None else None
        if found is not None and runs is not None and (bleed is None or bleed in found.prints):
            canvas.beginForm(name, bounds.x, bounds.y, bounds.right, bounds.top)
            canvas.endForm()
            packed_forms.restore(canvas, name, found.stream, found.filters)
            state.faces_used.update(found.faces)
            if runs:
                canvas._doc.idToObject[canvas._doc.getXObjectName(name)].XObjects = _run_resources(canvas, runs)
            heard = [ctx.where + text if relative else text for relative, text in found.heard]
            said[name] = (ctx.where, heard)
            for message in heard:
                ctx.warn(message)
            if asked is not None and bleed is not None:
                prints[(name, asked.bleed)] = found.prints[bleed]
                asked.take(found.prints[bleed])
            store.put(kept_key, found)  # type: ignore[union-attr]
            store.took(kept_key)  # type: ignore[union-attr]
        else:
            _draw_form(canvas, name, bounds, layout, fields, local, ctx, said, prints, asked, store, kept_key,
                       plan(canvas, layout, fields, local, ctx))
            if ctx.kept_sides is not None:
                ctx.kept_sides.drawn += 1
    canvas.saveState()
    if outer != clip:
        path = canvas.beginPath()
        path.rect(clip.x, clip.y, clip.width, clip.height)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(trim.x, trim.y)
    canvas.doForm(name)
    canvas.restoreState()


def _kept_runs(canvas: Canvas, layout: Layout, found: sides.KeptSide, frame: SideFrame, ctx: SideContext) -> list[str] | None:
    """The run forms a kept side places, drawn in ``canvas``'s document if they are not yet; None when one of its
    runs is no longer placed as a form (then the side is drawn)."""
    if not found.runs:
        return []
    placed = _placed_runs(canvas, layout, found.runs, frame, ctx)
    forms = [drawn.form for _, drawn in placed.values()]
    if len(forms) != len(found.runs) or None in forms:
        return None
    return forms  # type: ignore[return-value]


def _run_resources(canvas: Canvas, forms: list[str]) -> PDFDictionary:
    """The resource dictionary of the run forms a side places: one per document for each list of them (a deck's
    20,000 forms held one each, 12 MB)."""
    shared = state_of(canvas).run_resources
    key = tuple(forms)
    found = shared.get(key)
    if found is None:
        found = shared[key] = canvas._doc.xobjDict(forms)
    return found


RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp")


def picture_elements(layout: Layout) -> tuple[Element, ...]:
    """The layout's elements that place a picture (most card layouts have none)."""
    return _PICTURES.get(layout, _picture_elements)


def _picture_elements(layout: Layout) -> tuple[Element, ...]:
    """Image elements, and repeats and grids that draw one (side_pictures: such a side is not kept)."""
    return tuple(element for element in layout.elements
                 if (element.type == "image" and "src" in element.props) or shows_nested_pictures((element,)))


_PICTURES: ByIdentity[Layout, tuple[Element, ...]] = ByIdentity()


def side_pictures(layout: Layout, fields: Mapping[str, Any], folders: tuple[Path, ...]) -> tuple[str, ...] | None:
    """The content digests of the SVG pictures a side shows, for its kept-side key; None when it shows a
    raster image (drawn as an image object of the document, which a kept side cannot carry)."""
    if shows_nested_pictures(layout.elements):  # a repeat's or grid's pictures bind their sources per cell
        return None
    found: list[str] = []
    for element in picture_elements(layout):
        src = bind(element.props["src"], fields).strip()
        if src.lower().endswith(RASTER):
            return None
        path = side_image(src, layout, folders)
        found.append(f"{src}:{sides.file_digest(path) if path is not None else 'none'}")
    return tuple(found)


def _draw_form(canvas: Canvas, name: str, bounds: Rect, layout: Layout, fields: Mapping[str, Any], local: SideFrame,
               ctx: SideContext, said: dict[str, tuple[str, list[str]]], prints: dict[tuple[str, float], str],
               asked: fingerprint.Request | None, store: sides.Store | None, kept_key: str, how: Plan) -> None:
    """Draw the side into the form ``name`` as ``how`` plans; keep what the document received when ``store`` is given."""
    heard: list[str] = []
    said[name] = (ctx.where, heard)
    report = ctx.warn

    def warn(message: str) -> None:
        heard.append(message)
        report(message)

    where = ctx.where
    ctx = replace(ctx, warn=warn)
    canvas.beginForm(name, bounds.x, bounds.y, bounds.right, bounds.top)
    spans: list[tuple[Element, Sequence[str]]] | None = [] if asked is not None else None
    forms = how.forms()
    watch = kept.Watch(canvas, forms) if store is not None else None
    try:
        _draw_side_now(canvas, layout, fields, local, ctx, spans, how)
    finally:
        faces = watch.faces_used() if watch is not None else ()
    keepable = watch is not None and watch.keepable()
    if asked is not None and spans is not None:
        prints[(name, asked.bleed)] = _fingerprint(canvas, layout, fields, local, ctx, spans, asked.bleed)
        asked.take(prints[(name, asked.bleed)])
    shadings = dict(canvas._shadingUsed)  # gradients (SVG) the form uses; endForm forgets them
    canvas.endForm()
    if forms:
        canvas._doc.idToObject[canvas._doc.getXObjectName(name)].XObjects = _run_resources(canvas, forms)
    _keep_transparency(canvas, name, shadings)
    packed_forms.pack(canvas, name)
    if store is None:
        return
    packed = packed_forms.packed(canvas, name) if keepable else None
    relative = all(message.startswith(where) or where not in message for message in heard) if where else True
    if packed is None or not relative:
        return
    side_prints = {sides.bleed_name(asked.bleed): prints[(name, asked.bleed)]} if asked is not None else {}
    store.put(kept_key, sides.KeptSide(
        packed[0], packed[1], faces,
        tuple((True, m[len(where):]) if where and m.startswith(where) else (False, m) for m in heard),
        side_prints, tuple(run for run, drawn in how.runs.values() if drawn.form is not None)))


def _keep_transparency(canvas: Canvas, name: str, shadings: Mapping[str, str] | None = None) -> None:
    """reportlab records a form's transparency states (opacity) but does not write them
    into the form's resources; without them viewers draw the form fully opaque.
    Shadings (SVG gradients) are left out the same way; without them viewers paint black."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    if not getattr(form, "ExtGState", None) and not shadings:
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    if shadings:
        resources.setShading(shadings)
    form.Resources = resources


def _fingerprint(canvas: Canvas, layout: Layout, fields: Mapping[str, Any], frame: SideFrame, ctx: SideContext,
                 spans: list[tuple[Element, Sequence[str]]], bleed: float) -> str:
    """The side's print fingerprint from what was just drawn (``spans``: each element's operators, in a frame
    whose trim is at the origin; a run of fixed elements' as they were drawn into its form). An element on the
    bleed box is drawn again at the declared ``bleed`` when the sheet keeps another (draw/fingerprint.py)."""
    trim = frame.trim
    same_bleed = round(frame.bleed_x, 4) == round(bleed, 4) and round(frame.bleed_y, 4) == round(bleed, 4)
    chunks = []
    for element, code in spans:
        if same_bleed or element.props.get("box", "trim") != "bleed":
            chunks.append(fingerprint.normalised(canvas, code))
            continue
        declared = SideFrame(Rect(0, 0, trim.width, trim.height), bleed, bleed)
        palette = {**ctx.palette, **layout.palette}
        quiet = replace(ctx, warn=lambda message: None, observe=None, fingerprint=None, stamp="", proof=False)
        key = None
        if element.type in fixed_forms.SHAPES:  # drawn from its props alone: a deck's backgrounds are drawn once
            key = (layout.name, element.id, repr(bound_props(element.props, fields)), repr(sorted(palette.items())),
                   round(trim.width, 4), round(trim.height, 4), round(bleed, 4))
            found = _REDRAWN.get(key)
            if found is not None:
                chunks.append(found)
                continue
        scratch = fingerprint.scratch()
        begin = len(scratch._code)
        _draw_element(scratch, element, layout, fields, declared, palette, quiet)
        chunks.append(fingerprint.normalised(scratch, scratch._code[begin:]))
        del scratch._code[begin:]
        if key is not None:
            if len(_REDRAWN) >= 256:
                _REDRAWN.clear()
            _REDRAWN[key] = chunks[-1]
    return fingerprint.digest(trim.width, trim.height, chunks)


_REDRAWN: dict[tuple[object, ...], bytes] = {}  # shapes on the bleed box drawn at the declared bleed, per process


def _draw_side_now(canvas: Canvas, layout: Layout, fields: Mapping[str, Any], frame: SideFrame, ctx: SideContext,
                   spans: list[tuple[Element, Sequence[str]]] | None = None, how: Plan | None = None) -> None:
    fonts.register_layout_fonts(layout.fonts)
    palette = {**ctx.palette, **layout.palette}
    canvas.saveState()
    if frame.turned:  # a turned slot: clip on the page, then draw the layout upright and turn it in
        if frame.clip is not None:
            _clip(canvas, frame.clip)
        cx, cy = frame.trim.center
        canvas.translate(cx, cy)
        canvas.rotate(frame.rotation)
        canvas.translate(-cx, -cy)
        frame = frame.upright()
    elif frame.rotation:
        cx, cy = frame.trim.center
        canvas.translate(cx, cy)
        canvas.rotate(frame.rotation)
        canvas.translate(-cx, -cy)
    if frame.clip is not None:
        _clip(canvas, frame.clip)
    seen = ctx.observe(layout, frame) if ctx.observe is not None else None
    shown = how.shown if how is not None else [_shown(element, fields) for element in layout.elements]
    runs = how.runs if how is not None else {}
    skip = -1  # elements up to this index were placed with their run
    for index, (element, (show, failed)) in enumerate(zip(layout.elements, shown, strict=True)):
        if failed is not None:
            ctx.warn(ctx.where + failed)
        if not show or index <= skip:
            continue
        placed = runs.get(index)
        if placed is not None:
            run, drawn = placed
            skip = run[-1]
            if drawn.form is not None:
                canvas.doForm(drawn.form)
            for member, code in zip(run, drawn.codes, strict=True):
                if drawn.form is None:
                    canvas._code.extend(code)
                if spans is not None:
                    spans.append((layout.elements[member], code))
                if seen is not None:
                    seen.see(_drawn(layout.elements[member], layout, frame, palette))
            continue
        start = len(canvas._code)
        _draw_element(canvas, element, layout, fields, frame, palette, ctx, seen)
        if spans is not None:
            spans.append((element, canvas._code[start:]))
    if seen is not None:
        seen.done(ctx.warn, ctx.where)
    if ctx.stamp:
        draw_stamp(canvas, ctx.stamp, frame.trim, layout.safe)
    if ctx.proof:
        trim_colour, safe_colour, width = ctx.proof_colours
        canvas.setLineWidth(width)
        canvas.setStrokeColor(trim_colour)
        canvas.rect(frame.trim.x, frame.trim.y, frame.trim.width, frame.trim.height, stroke=1, fill=0)
        safe = frame.trim.inset(layout.safe)
        canvas.setStrokeColor(safe_colour)
        canvas.setDash(2, 2)
        canvas.rect(safe.x, safe.y, safe.width, safe.height, stroke=1, fill=0)
    canvas.restoreState()


def _clip(canvas: Canvas, clip: Rect | ClipShape) -> None:
    path = canvas.beginPath()
    if isinstance(clip, Rect):
        path.rect(clip.x, clip.y, clip.width, clip.height)
    else:
        clip(path)
    canvas.clipPath(path, stroke=0, fill=0)


def _paint_setup(canvas: Canvas, props: Mapping[str, Any], palette: Mapping[str, str]) -> tuple[bool, bool]:
    """Set the element's colours, outline and opacity; whether it fills with a colour and whether it strokes
    (a gradient fill is not a colour: it is painted by :func:`_shape`)."""
    fill = colour(props.get("fill"), palette) if not isinstance(props.get("fill"), Gradient) else None
    stroke = colour(props.get("stroke"), palette)
    if fill:
        canvas.setFillColor(resolved(fill))
    if stroke:
        canvas.setStrokeColor(resolved(stroke))
        canvas.setLineWidth(props.get("stroke_width", 0.5))
        dash = props.get("dash")
        canvas.setDash(list(dash) if dash else [])
    opacity = props.get("opacity")
    if opacity is not None:
        canvas.setFillAlpha(opacity)
        canvas.setStrokeAlpha(opacity)
    return bool(fill), bool(stroke)


def _rect(element: Element, box: Rect) -> Rect:
    """Where an element is placed in its reference box (lines and polygons: the box itself)."""
    return place(element, box) if element.type not in ("line", "polygon") else box


def _drawn(element: Element, layout: Layout, frame: SideFrame, palette: Mapping[str, str]) -> Drawn:
    """A fixed element as the preflight sees it drawn (no text, no picture; its props bind no field)."""
    box = box_of(element, frame, layout)
    return Drawn(element, _rect(element, box), box, palette)


def _draw_many(canvas: Canvas, element: Element, layout: Layout, fields: Mapping[str, Any], frame: SideFrame,
               palette: Mapping[str, str], ctx: SideContext, seen: SideObserver | None) -> None:
    """A repeat or grid (draw/repeat.py, draw/grid.py): each child drawn as an element of its own in its cell, with
    the cell's fields, so the preflight sees every child drawn; the repeat or grid itself is only their places."""
    rect = place(element, box_of(element, frame, layout))

    def child(item: Element, cell: Rect, cell_fields: Mapping[str, Any]) -> None:
        show, failed = _shown(item, cell_fields)
        if failed is not None:
            ctx.warn(ctx.where + failed)
        if show:
            _draw_element(canvas, item, layout, cell_fields, SideFrame(cell, 0.0, 0.0), palette, ctx, seen)

    canvas.saveState()
    rotate = element.props.get("rotate")
    if rotate:
        cx, cy = rect.center
        canvas.translate(cx, cy)
        canvas.rotate(-float(rotate))
        canvas.translate(-cx, -cy)
    if element.type == "repeat":
        draw_repeat(element, rect, fields, child, lambda message: ctx.warn(f"{ctx.where}: {message} [{element.source}]"))
    else:
        draw_grid(element, rect, fields, child)
    canvas.restoreState()


def _draw_element(
    canvas: Canvas,
    element: Element,
    layout: Layout,
    fields: Mapping[str, Any],
    frame: SideFrame,
    palette: Mapping[str, str],
    ctx: SideContext,
    seen: SideObserver | None = None,
) -> None:
    """Draw one element; every colour it sets keeps its ``opacity`` (effects/opacity.py)."""
    if element.type in ("repeat", "grid"):  # many of one element, each drawn in its own cell
        _draw_many(canvas, element, layout, fields, frame, palette, ctx, seen)
        return
    with opacity.element(float(element.props.get("opacity", 1.0))):
        _draw_one(canvas, element, layout, fields, frame, palette, ctx, seen)


def _draw_one(canvas: Canvas, element: Element, layout: Layout, fields: Mapping[str, Any], frame: SideFrame,
              palette: Mapping[str, str], ctx: SideContext, seen: SideObserver | None) -> None:
    """One element that is not a repeat or a grid: its shape, text, icon or picture."""
    props = bound_props(element.props, fields)  # field-bound colours, fonts and sizes take the piece's values
    if props is not element.props:
        element = replace(element, props=props)
    box = box_of(element, frame, layout)
    kind = element.type
    rect = _rect(element, box)
    canvas.saveState()
    rotate = props.get("rotate")
    if rotate:
        cx, cy = rect.center
        canvas.translate(cx, cy)
        canvas.rotate(-float(rotate))  # layouts turn clockwise, like y-down drawing tools
        canvas.translate(-cx, -cy)
    fill, stroke = _paint_setup(canvas, props, palette)
    if kind in ("rect", "ellipse", "polygon"):
        _shape(canvas, kind, rect, box, props, (fill, stroke), palette)
    elif kind == "line":
        x1, y1 = _point(box, props.get("x1"), props.get("y1"))
        x2, y2 = _point(box, props.get("x2"), props.get("y2"))
        if not stroke:
            canvas.setStrokeColor(resolved(colour(props.get("color"), palette) or "#000000"))
            canvas.setLineWidth(props.get("stroke_width", 0.5))
        canvas.line(x1, y1, x2, y2)
    fitted: tuple[text.Fitted, str] | None = None
    picture: Path | None = None
    if kind == "text":
        fitted = _draw_text(canvas, element, rect, fields, palette, ctx)
    elif kind == "icon":
        name = bind(props.get("icon"), fields).strip().lower()
        ink = Ink(
            colour(props.get("fill"), palette) if "fill" in props else colour(props.get("color", "#000000"), palette),
            colour(props.get("stroke"), palette),
            props.get("stroke_width", 0.8),
            colour(props.get("accent"), palette),
            int(props.get("teeth", 12)),
        )
        if name and not draw_icon(canvas, name, rect, ink, ctx.icons):
            ctx.warn(f"{ctx.where}: unknown icon '{name}' in element '{element.id}' [{element.source}]")
        _own_icon_notes((name,), element, ctx)
    elif kind == "image":
        picture = _draw_image(canvas, element, rect, fields, layout, ctx, palette)
    canvas.restoreState()
    if seen is not None:
        lines, font = fitted or (None, "")
        seen.see(Drawn(element, rect, box, palette, lines, font, picture))


def _outline(kind: str, rect: Rect, box: Rect, props: Mapping[str, Any]) -> effects.Outline:
    """A rect's, ellipse's or closed polygon's shape as placed."""
    if kind == "rect":
        return effects.rect_outline(rect, float(props.get("radius") or 0.0))
    if kind == "ellipse":
        return effects.ellipse_outline(rect)
    return effects.polygon_outline([_point(box, px, py) for px, py in props.get("points", ())])


def _bounds(outline: effects.Outline) -> Rect:
    """The upright bounds of a polygon's outline (the box a gradient across it is laid in)."""
    path = _Corners()
    outline(path, 0.0)
    xs, ys = [x for x, _ in path.points], [y for _, y in path.points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


class _Corners:
    """A stand-in path that keeps the corners a polygon's outline adds."""

    def __init__(self) -> None:
        self.points: list[tuple[float, float]] = []

    def moveTo(self, x: float, y: float) -> None:  # noqa: N802 - reportlab's path method names
        self.points.append((x, y))

    lineTo = moveTo  # noqa: N815

    def close(self) -> None:
        """Nothing to keep."""


def _shape(canvas: Canvas, kind: str, rect: Rect, box: Rect, props: Mapping[str, Any], paints: tuple[bool, bool],
           palette: Mapping[str, str]) -> None:
    """Draw a rect, ellipse or polygon: its shadow, its fill (a colour or a gradient), its outline."""
    fill, stroke = paints
    outline = _outline(kind, rect, box, props)
    shade = props.get("shadow")
    if isinstance(shade, Shadow):
        shadow.draw(canvas, shade, outline, palette, grows=kind != "polygon")
    gradient_fill = props.get("fill")
    if isinstance(gradient_fill, Gradient):
        gradient.paint(canvas, gradient_fill, rect if kind != "polygon" else _bounds(outline), outline, palette)
    if kind == "rect":
        radius = props.get("radius")
        if radius:
            canvas.roundRect(rect.x, rect.y, rect.width, rect.height, min(radius, rect.width / 2, rect.height / 2), stroke=stroke, fill=fill)
        else:
            canvas.rect(rect.x, rect.y, rect.width, rect.height, stroke=stroke, fill=fill)
    elif kind == "ellipse":
        canvas.ellipse(rect.x, rect.y, rect.right, rect.top, stroke=stroke, fill=fill)
    else:
        points = [_point(box, px, py) for px, py in props.get("points", ())]
        path = canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        if props.get("closed", True):
            path.close()
        canvas.drawPath(path, stroke=stroke, fill=fill)


def _own_icon_notes(names: Any, element: Element, ctx: SideContext) -> None:
    """Warn when one of the game's own SVG icons has features svglib cannot draw faithfully."""
    for name in names:
        path = ctx.icons.get(name)
        if path is None or path.suffix.lower() != ".svg":
            continue
        try:
            notes = svg.load(path).notes
        except svg.SvgError as exc:
            notes = (f"not drawn: {exc}",)
        for note in notes:
            ctx.warn(f"{ctx.where}: icon '{name}' ({path.name}) is not drawn faithfully: {note} [{element.source}]")


def _draw_text(
    canvas: Canvas, element: Element, rect: Rect, fields: Mapping[str, Any], palette: Mapping[str, str], ctx: SideContext,
) -> tuple[text.Fitted, str] | None:
    """Draw a text element; the fitted text and its base font, None when there was nothing to draw."""
    props = element.props
    content = bind(props.get("text"), fields)
    if not content.strip():
        return None
    if ctx.icons:
        _own_icon_notes(INLINE_ICON.findall(content), element, ctx)
    cap = props.get("cap")
    if isinstance(cap, int) and len(content) > cap:
        ctx.warn(f"{ctx.where}: text of '{element.id}' is {len(content)} characters, over its cap of {cap} [{element.source}]")
    base = fonts.resolve(props.get("font"))
    size = float(props.get("size", DEFAULT_TEXT_SIZE))
    min_size = float(props.get("min_size", size))
    fitted = text.fit(content, base, size, min_size, rect, float(props.get("leading", 1.2)), ctx.icons, text.options(props, palette))
    if not fitted.fits:
        ctx.warn(
            f"{ctx.where}: text of '{element.id}' does not fit its {rect.width / 72 * 25.4:.1f} × "
            f"{rect.height / 72 * 25.4:.1f} mm box even at {fitted.size:g}pt [{element.source}]"
        )
    ink = resolved(colour(props.get("color", "#000000"), palette) or "#000000")
    text.draw(canvas, fitted, base, rect, ink, props.get("align", "left"), props.get("valign", "top"), ctx.icons,  # type: ignore[arg-type]
              index_mark=props.get("index_mark", True) is not False)
    return fitted, base


def _draw_image(canvas: Canvas, element: Element, rect: Rect, fields: Mapping[str, Any], layout: Layout, ctx: SideContext,
                palette: Mapping[str, str]) -> Path | None:
    """Draw an image element; the file drawn, None when none was."""
    src = bind(element.props.get("src"), fields).strip()
    if not src:
        return None
    path = side_image(src, layout, ctx.folders)
    if path is None:
        ctx.warn(f"{ctx.where}: image '{src}' of element '{element.id}' not found [{element.source}]")
        return None
    fit = element.props.get("fit", "contain")
    try:
        notes = draw_picture(canvas, path, rect, fit, element.props.get("focus"), element.props.get("mask"),
                             element.props.get("shadow"), palette)
    except svg.SvgError as exc:
        ctx.warn(f"{ctx.where}: image '{src}' not drawn: {exc} [{element.source}]")
        return None
    for note in notes:
        ctx.warn(f"{ctx.where}: image '{src}' is not drawn faithfully: {note} [{element.source}]")
    return path

