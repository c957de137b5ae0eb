// punchboard studio workbench: the piece shown large with its trim and safe lines and mm rulers; hover an element to see its box
// and where it is written, click to select it, drag it (onto the trim and safe lines and other elements' edges and
// centres within 4 screen pixels, else to the 0.5 mm grid; Alt: the grid only) or its corner handle to resize it,
// nudge it with the arrow keys (0.5 mm; 0.1 mm with Alt), change its values in the panel, edit a card's field in
// place; undo and redo.
// Every change is one POST to the server, which writes it into the designer's own file (or refuses it with the
// located message); the page then shows the real drawing when the watch loop has rebuilt.
// Uses h() and state from studio.js. No framework, no build step.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const SNAP = 0.5; // mm
const GUIDE_PX = 4; // a moved edge or centre this close (on screen) to a line or another element's goes onto it
const bench = { selected: null, drag: null, written: {}, undo: 0, redo: 0, message: "", error: false, place: "here" };
const LENGTHS = ["x", "y", "width", "height"];
const WORDS = ["text", "color", "fill", "stroke", "font", "align", "valign"];

function benchEditable() {
  return !!(state && state.editable && TOKEN);
}

function benchBusy() {
  return bench.drag !== null || (document.activeElement && document.activeElement.closest
    && !!document.activeElement.closest("#piece-dialog .bench-panel, #piece-dialog td[contenteditable]"));
}

function snap(mm) {
  return Math.round(mm / SNAP) * SNAP;
}

// What the page read of each file: the state's digests, and those of files the page has written since.
function benchSources() {
  const read = { ...((state && state.sources) || {}) };
  for (const [file, digest] of Object.entries(bench.written)) {
    if (read[file] === digest) delete bench.written[file]; // the state has caught up
    else read[file] = digest;
  }
  return read;
}

function benchSay(text, error) {
  bench.message = text;
  bench.error = !!error;
  const line = document.getElementById("bench-message");
  if (line) {
    line.textContent = text;
    line.className = error ? "bench-message error" : "bench-message";
  }
}

async function benchSend(path, body) {
  let answer;
  try {
    const response = await fetch(path, {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-Punchboard-Token": TOKEN },
      body: JSON.stringify(body || {}),
    });
    const text = await response.text();
    try { answer = JSON.parse(text); } catch (err) { answer = { ok: false, error: text.trim() }; }
  } catch (err) {
    answer = { ok: false, error: "the server did not answer" };
  }
  if (answer.ok) {
    bench.written[answer.file] = answer.digest;
    bench.undo = answer.undo;
    bench.redo = answer.redo;
    benchSay(`wrote ${answer.file}; the picture follows when it is rebuilt`, false);
  } else {
    benchSay(answer.error || "refused", true);
  }
  benchButtons();
  return answer;
}

// An element's value: where it is written, or (a value inherited along extends) an override in the side's own
// layout unless the panel says "edit there"; ``precise`` for a snap onto a guide (kept to 0.001 mm).
function benchEdit(side, element, key, value, precise) {
  const ref = LENGTHS.indexOf(key) % 2 === 0 ? element.ref[0] : element.ref[1];
  return benchSend("/edit", {
    what: "element", layout: side.layout, element: element.id, key, value, place: bench.place,
    precise: !!precise, extent: LENGTHS.includes(key) ? ref : null, sources: benchSources(),
  });
}

function benchField(piece, name, value) {
  // in a language other than the source, the server writes the field's name@lang cell
  return benchSend("/edit", { what: "field", piece: piece.id, field: name, value, lang: (state && state.language) || "",
    sources: benchSources() });
}

function benchButtons() {
  const undo = document.getElementById("bench-undo");
  const redo = document.getElementById("bench-redo");
  if (undo) undo.disabled = !bench.undo;
  if (redo) redo.disabled = !bench.redo;
}

function box(cls, fractions, attrs) {
  const [left, top, width, height] = fractions;
  return h("div", {
    class: cls, ...(attrs || {}),
    style: `left:${left * 100}%;top:${top * 100}%;width:${width * 100}%;height:${height * 100}%`,
  });
}

function sourceWords(element) {
  const [file, line] = element.source.split(":");
  return `${file}: element '${element.id}', line ${line}`;
}

function elementBox(piece, which, side, element) {
  const selected = bench.selected && bench.selected.which === which && bench.selected.id === element.id;
  const el = box("el-box" + (selected ? " selected" : ""), element.box,
    { "data-element": element.id, title: sourceWords(element) });
  el.addEventListener("mouseenter", () => {
    const label = document.getElementById("bench-hover");
    if (label) label.textContent = sourceWords(element);
  });
  el.addEventListener("pointerdown", (e) => benchPress(e, piece, which, side, element, el));
  if (selected) addHandle(el, side, element);
  return el;
}

// The selected element's resize handle (bottom right): dragging it changes width and height.
function addHandle(el, side, element) {
  if (!benchEditable() || element.values.width === undefined || el.querySelector(".handle")) return;
  const handle = h("div", { class: "handle", title: "drag to resize" });
  handle.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    e.stopPropagation();
    const rect = el.parentElement.getBoundingClientRect();
    bench.drag = { x: e.clientX, y: e.clientY, rect, side, element, el, moved: false, resize: true,
      size: [el.style.width, el.style.height] };
  });
  el.append(handle);
}

function benchPress(e, piece, which, side, element, el) {
  e.preventDefault();
  e.stopPropagation();
  bench.selected = { which, id: element.id };
  const stage = el.parentElement;
  for (const other of stage.parentElement.querySelectorAll(".el-box.selected")) {
    other.classList.remove("selected");
    for (const handle of other.querySelectorAll(".handle")) handle.remove();
  }
  el.classList.add("selected");
  addHandle(el, side, element);
  fillPanel(piece, which, side, element);
  if (!benchEditable() || element.values.x === undefined) return;
  const rect = stage.getBoundingClientRect();
  bench.drag = { x: e.clientX, y: e.clientY, rect, side, element, el, moved: false };
}

function benchMove(e) {
  const drag = bench.drag;
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
  const plan = dragPlan(drag, e);
  const [px, py] = [plan.by[0] * drag.rect.width, plan.by[1] * drag.rect.height];
  if (drag.resize) {
    drag.el.style.width = `calc(${drag.size[0]} + ${px}px)`;
    drag.el.style.height = `calc(${drag.size[1]} + ${py}px)`;
  } else {
    drag.el.style.transform = `translate(${px}px, ${py}px)`;
  }
  showSnapLines(drag.el.parentElement, plan.lines);
}

// Where a drag puts the element: per axis the move (a fraction of the picture), onto a guide when an edge or the
// centre (the far edges when resizing) comes within GUIDE_PX of one, unless Alt is held; the guides it is on.
function dragPlan(drag, e) {
  const { element, side } = drag;
  const raw = [(e.clientX - drag.x) / drag.rect.width, (e.clientY - drag.y) / drag.rect.height];
  const guides = e.altKey ? null : guidesOf(side, element);
  const plan = { by: raw.slice(), snapped: [false, false], lines: [] };
  for (const axis of [0, 1]) {
    if (!guides || !raw[axis]) continue;
    const extent = element.box[axis + 2];
    const edges = drag.resize ? [extent] : [0, extent / 2, extent];
    const found = snapToGuide(element.box[axis], edges, raw[axis], guides[axis],
      GUIDE_PX / (axis ? drag.rect.height : drag.rect.width));
    if (found === null) continue;
    plan.by[axis] = found.move;
    plan.snapped[axis] = true;
    plan.lines.push([axis, found.guide]);
  }
  return plan;
}

// The guides a drag is on, drawn across the stage as thin lines (none: the old ones go).
function showSnapLines(stage, lines) {
  if (!stage) return;
  for (const old of stage.querySelectorAll(".snap-line")) old.remove();
  for (const [axis, at] of lines) {
    stage.append(h("div", { class: `snap-line ${axis ? "horizontal" : "vertical"}`, "data-axis": String(axis),
      style: axis ? `top:${at * 100}%` : `left:${at * 100}%` }));
  }
}

async function benchRelease(e) {
  const drag = bench.drag;
  if (!drag) return;
  bench.drag = null;
  showSnapLines(drag.el.parentElement, []);
  const undo = () => {
    drag.el.style.transform = "";
    if (drag.resize) [drag.el.style.width, drag.el.style.height] = drag.size;
  };
  if (!drag.moved) { undo(); benchCatchUp(); return; }
  const { element, side } = drag;
  const plan = dragPlan(drag, e);
  const keys = drag.resize ? ["width", "height"] : ["x", "y"];
  let refused = false;
  for (const axis of [0, 1]) { // an axis moved by less than half a step stays where it is
    const key = keys[axis];
    const mm = plan.by[axis] * side.size_mm[axis];
    const rawMm = ((axis ? e.clientY - drag.y : e.clientX - drag.x) / (axis ? drag.rect.height : drag.rect.width))
      * side.size_mm[axis];
    if (element.values[key] === undefined || Math.abs(rawMm) < SNAP / 2) continue;
    const value = plan.snapped[axis] ? element.values[key] + mm : snap(element.values[key] + mm);
    const answer = await benchEdit(side, element, key, value, plan.snapped[axis]);
    refused = refused || !answer.ok;
  }
  if (refused) undo();
  benchCatchUp();
}

// A state that came during a drag or while a value was typed was not drawn into the open piece: draw it now.
function benchCatchUp() {
  if (openPiece && !benchBusy()) showPiece(openPiece);
}

// Where a moved element's edges and centre may snap to (fractions of the picture, per axis): the trim and safe
// lines' edges and centres, and other elements' (not those covering the whole piece, such as a background).
function guidesOf(side, element) {
  const guides = [[], []];
  const boxes = [side.lines.trim, side.lines.safe];
  for (const other of side.elements) {
    if (other.id !== element.id && !(other.box[2] >= 0.999 && other.box[3] >= 0.999)) boxes.push(other.box);
  }
  for (const b of boxes) {
    for (const axis of [0, 1]) guides[axis].push(b[axis], b[axis] + b[axis + 2] / 2, b[axis] + b[axis + 2]);
  }
  return guides;
}

// The move (a fraction) that puts the nearest of the element's ``edges`` (offsets from its start) on a guide within
// the tolerance, and that guide; or null: then the move snaps to the 0.5 mm grid instead.
function snapToGuide(start, edges, move, guides, tolerance) {
  let best = null;
  for (const edge of edges) {
    for (const guide of guides) {
      const off = guide - (start + edge + move);
      if (Math.abs(off) <= tolerance && (best === null || Math.abs(off) < Math.abs(best.off))) best = { off, guide };
    }
  }
  return best === null ? null : { move: move + best.off, guide: best.guide };
}

function nudge(e) {
  const dialog = document.getElementById("piece-dialog");
  if (!dialog.open || !bench.selected || !benchEditable()) return;
  if (e.target.closest && e.target.closest("input, [contenteditable]")) return;
  const moves = { ArrowLeft: ["x", -1], ArrowRight: ["x", 1], ArrowUp: ["y", -1], ArrowDown: ["y", 1] };
  const move = moves[e.key];
  const found = selectedElement();
  if (!move || !found || found.element.values[move[0]] === undefined) return;
  e.preventDefault();
  const step = e.altKey ? 0.1 : SNAP;
  const value = Math.round((found.element.values[move[0]] + move[1] * step) * 10) / 10;
  found.element.values[move[0]] = value; // the next nudge goes on from here before the rebuild comes
  benchEdit(found.side, found.element, move[0], value);
}

function selectedElement() {
  const found = openPiece && findPiece(openPiece);
  if (!found || !bench.selected) return null;
  const side = bench.selected.which === "front" ? found.piece.face : found.piece.reverse;
  const element = side && (side.elements || []).find((el) => el.id === bench.selected.id);
  return element ? { piece: found.piece, side, element } : null;
}

// Where a value comes from, in words, with what an edit on the page does to it (provenance.py).
function originWords(origin, side) {
  if (!origin) return "";
  if (origin.kind === "layout") return `${origin.at} — edited here`;
  if (origin.kind === "default") return `default — a change is written into ${side.file}`;
  if (origin.kind === "field") {
    const langs = (state && state.languages) || [];
    const other = langs.length && state.language && state.language !== langs[0] ? ` (its ${origin.field}@${state.language} cell)` : "";
    return `card field {${origin.field}}: ${origin.at} — a change edits this card${other} (bound in ${origin.template})`;
  }
  if (bench.place === "there" && origin.ours) return `from ${origin.at} — edit there (every layout extending it)`;
  return `from ${origin.at} — override here (${side.file})`;
}

function panelRow(piece, side, element, key, editable) {
  const length = LENGTHS.includes(key);
  const origin = (element.from || {})[key];
  const field = origin && origin.kind === "field" ? origin.field : null;
  const fields = { ...(piece.fields || {}), ...(side.fields || {}) };
  const shown = field ? fields[field] : element.values[key];
  const input = h("input", {
    name: key, value: shown === null || shown === undefined ? "" : String(shown), type: length ? "number" : "text",
    step: length ? "0.5" : null,
    readonly: !editable || (origin && !origin.ours && !(origin.kind === "parent" && bench.place === "here")),
  });
  input.addEventListener("change", () => {
    if (field) { benchField(piece, field, input.value); return; }
    benchEdit(side, element, key, length ? Number(input.value) : input.value);
  });
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") input.blur(); });
  return h("div", { class: "bench-row", "data-key": key },
    h("label", {}, h("span", {}, length ? `${key} (mm)` : key), input),
    origin ? h("small", { class: `origin ${origin.kind}`, "data-kind": origin.kind }, originWords(origin, side)) : null);
}

// Inherited values: override them in this side's own layout (the default) or edit the parent they come from.
function placeChoice(piece, which, side, element) {
  const inherited = Object.values(element.from || {}).filter((o) => o.kind === "parent");
  if (!inherited.length) return null;
  const choice = h("select", { id: "bench-place", name: "place" },
    h("option", { value: "here", selected: bench.place === "here", title: "this layout only" }, "override here"),
    h("option", { value: "there", selected: bench.place === "there", disabled: !inherited.some((o) => o.ours),
      title: "the parent layout: every layout extending it follows" }, "edit there"));
  choice.addEventListener("change", () => {
    bench.place = choice.value;
    fillPanel(piece, which, side, element);
  });
  return h("label", { class: "place" }, h("span", {}, "inherited values"), choice);
}

function fillPanel(piece, which, side, element) {
  const panel = document.getElementById("bench-panel");
  if (!panel) return;
  const editable = benchEditable();
  const rows = [...LENGTHS, ...WORDS].filter((key) => element.values[key] !== undefined)
    .map((key) => panelRow(piece, side, element, key, editable));
  const parts = [
    h("h4", {}, `element '${element.id}'`, h("span", { class: "meta" }, ` ${element.type} · ${which}`)),
    h("p", { class: "meta" }, "written in ", h("code", {}, element.source), " (layout ", side.layout, ")"),
    editable ? placeChoice(piece, which, side, element) : null,
    ...rows,
    editable ? null : h("p", { class: "meta" }, "read-only: open the address serve printed to edit")];
  panel.replaceChildren(...parts.filter((part) => part));
}

function stageOf(piece, which) {
  const picture = piece[which];
  const side = which === "front" ? piece.face : piece.reverse;
  if (!picture) return null;
  const img = h("img", { class: which, src: pictureUrl(picture.url), width: picture.width, height: picture.height, alt: which,
    draggable: "false" });
  if (!side || !side.elements) return h("div", { class: "stage" }, img);
  return h("div", { class: "stage", "data-side": which, "data-layout": side.layout },
    img,
    box("guide bleed", side.lines.bleed, { title: "bleed" }),
    box("guide trim", side.lines.trim, { title: "trim" }),
    box("guide safe", side.lines.safe, { title: "safe" }),
    ruler(side, 0), ruler(side, 1),
    side.elements.map((element) => elementBox(piece, which, side, element)));
}

// A millimetre ruler along the trim's top (axis 0) or left edge (axis 1): a tick every 5 mm, numbered every 10 mm.
function ruler(side, axis) {
  const trim = side.lines.trim;
  const length = side.size_mm[axis] * trim[axis + 2];
  const ticks = [];
  for (let mm = 0; mm <= length + 1e-6 && ticks.length < 400; mm += 5) {
    const at = `${(mm / length) * 100}%`;
    ticks.push(h("span", { class: mm % 10 === 0 ? "tick major" : "tick", style: axis ? `top:${at}` : `left:${at}` },
      mm % 10 === 0 ? String(mm) : ""));
  }
  const place = axis
    ? `top:${trim[1] * 100}%;height:${trim[3] * 100}%`
    : `left:${trim[0] * 100}%;width:${trim[2] * 100}%`;
  return h("div", { class: `ruler ${axis ? "left" : "top"}`, style: place, title: "millimetres from the trim" }, ticks);
}

// The large view of a piece: both sides as stages, the toolbar and the property panel.
function benchView(piece) {
  const view = h("div", { class: "bench" },
    h("div", { class: "bench-bar" },
      h("button", { id: "bench-undo", type: "button", disabled: !bench.undo, onclick: () => benchSend("/undo") }, "↶ Undo"),
      h("button", { id: "bench-redo", type: "button", disabled: !bench.redo, onclick: () => benchSend("/redo") }, "↷ Redo"),
      h("span", { id: "bench-hover", class: "meta" }, benchEditable() ? "hover an element; drag it, or select it and use the arrow keys" : ""),
      h("span", { id: "bench-message", class: bench.error ? "bench-message error" : "bench-message" }, bench.message)),
    h("div", { class: "large" }, stageOf(piece, "front"), stageOf(piece, "back"),
      h("div", { id: "bench-panel", class: "bench-panel" }, h("p", { class: "meta" }, "click an element to select it"))));
  return view;
}

// After the dialog is drawn: the selection (kept across rebuilds) back in the panel.
function benchRestore() {
  const found = selectedElement();
  if (found) fillPanel(found.piece, bench.selected.which, found.side, found.element);
}

// A card's fields, each editable in place where the loader knows where it is written.
function benchFieldsTable(piece) {
  const rows = Object.entries(piece.fields || {});
  if (!rows.length) return h("p", { class: "meta" }, "no fields");
  const editable = benchEditable();
  return h("table", { class: "fields" }, rows.map(([name, value]) => {
    const mark = (piece.marks || {})[name];
    const shown = value === null ? "—" : String(value);
    const langs = (state && state.languages) || [];
    const other = langs.length && state.language && state.language !== langs[0]
      ? ` (in ${state.language}: an edit goes to its ${name}@${state.language} cell)` : "";
    const cell = h("td", { contenteditable: editable && mark ? "plaintext-only" : null, "data-field": name,
      title: mark ? `written in ${mark}${other}` : null }, shown);
    if (editable && mark) {
      cell.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); cell.blur(); } });
      cell.addEventListener("blur", () => {
        if (cell.textContent !== shown) benchField(piece, name, cell.textContent);
      });
    }
    return h("tr", {}, h("th", {}, name), cell);
  }));
}

document.addEventListener("pointermove", benchMove);
document.addEventListener("pointerup", benchRelease);
document.addEventListener("keydown", nudge);

document.addEventListener("DOMContentLoaded", () => {
  const dialog = document.getElementById("piece-dialog");
  dialog.addEventListener("close", () => { bench.selected = null; bench.drag = null; });
  dialog.addEventListener("focusout", () => setTimeout(benchCatchUp, 0)); // a value typed and left
});
