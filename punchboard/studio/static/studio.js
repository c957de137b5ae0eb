// punchboard studio: draws /state.json and redraws it whenever /events says it changed.
// No framework, no build step. Every text from the game goes in through textContent.
"use strict";

let state = null;
let openPiece = null; // id of the piece shown large, kept open across rebuilds
let proofing = false; // the "CMYK proof" toggle: pictures shown through the press profile (/proof/…)
const drawn = {}; // section id -> the JSON it was last drawn from: unchanged sections are left alone

function once(id, data, draw) {
  const key = JSON.stringify(data === undefined ? null : data);
  if (drawn[id] === key) return;
  drawn[id] = key;
  fill(id, draw(data));
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function fill(id, ...children) {
  const el = document.getElementById(id);
  el.replaceChildren(...children.flat().filter((c) => c));
  return el;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// A warning's text without the "game / component / card 'Name': " it starts with (the tile says that),
// and the layout line it points at.
function shortWarning(text) {
  const at = text.match(/\s*\[([^\]]+)\]$/);
  let body = at ? text.slice(0, at.index) : text;
  const colon = body.indexOf(": ");
  if (colon >= 0 && body.slice(0, colon).includes("/")) body = body.slice(colon + 2);
  return { body, where: at ? at[1] : "" };
}

function warningList(warnings, cls) {
  return h("ul", { class: cls || "warning-list" },
    warnings.map((w) => {
      const { body, where } = shortWarning(w);
      return h("li", { title: w }, h("span", { class: "icon" }, "⚠"), " ", body, where ? h("code", {}, where) : null);
    }));
}

// A studio picture's address: its soft proof while the "CMYK proof" toggle is on.
function pictureUrl(url) {
  return proofing && url.startsWith("/files/studio/") ? "/proof/" + url.slice("/files/".length) : url;
}

function picture(side, cls) {
  if (!side) return null;
  return h("img", { class: cls, src: pictureUrl(side.url), width: side.width, height: side.height, alt: cls, loading: "lazy" });
}

function pieceTile(component, piece, showBack) {
  const warned = piece.warnings.length > 0;
  return h("figure", {
    class: "piece" + (warned ? " warned" : ""), "data-piece": piece.id, tabindex: "0",
    title: warned ? piece.warnings.join("\n") : `${piece.name}: click for fields and layout`,
    onclick: () => showPiece(piece.id),
    onkeydown: (e) => { if (e.key === "Enter") showPiece(piece.id); },
  },
  h("div", { class: "sides" }, picture(piece.front, "front"), showBack ? picture(piece.back, "back") : null),
  h("figcaption", {},
    h("div", { class: "label" },
      h("span", { class: "count" }, `×${piece.count}`), " ",
      h("span", { class: "name" }, piece.name),
      warned ? h("span", { class: "badge" }, `⚠ ${piece.warnings.length}`) : null),
    warned ? h("div", { class: "tile-warning" }, shortWarning(piece.warnings[0]).body) : null));
}

// The one back every piece shares (a deck's), or null when backs differ.
function commonBack(component) {
  const urls = new Set(component.pieces.map((p) => (p.back ? p.back.url : "")));
  return component.pieces.length > 1 && urls.size === 1 && component.pieces[0].back ? component.pieces[0].back : null;
}

function componentSection(component) {
  const distinct = component.pieces.length;
  const back = commonBack(component);
  return h("section", { class: "component", id: `component-${component.id}`, "data-component": component.id },
    h("div", { class: "component-head" },
      h("h2", {}, component.name),
      h("span", { class: "meta" },
        `${component.kind} · ${component.count} ${component.count === 1 ? "piece" : "pieces"}`,
        distinct !== component.count ? ` · ${distinct} distinct` : "",
        " · ", h("code", {}, component.file)),
      component.pdf ? h("a", { class: "pdf", href: component.pdf, target: "_blank" }, "PDF") : null),
    component.warnings.length ? warningList(component.warnings, "warning-list component-warnings") : null,
    h("div", { class: "grid" },
      component.pieces.map((p) => pieceTile(component, p, !back)),
      back ? h("figure", { class: "piece common-back", title: "every piece of this component has this back" },
        h("div", { class: "sides" }, picture(back, "back")),
        h("figcaption", {}, h("span", { class: "name" }, "common back"))) : null));
}

function fieldsTable(fields) {
  const rows = Object.entries(fields || {});
  if (!rows.length) return h("p", { class: "meta" }, "no fields");
  return h("table", { class: "fields" },
    rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v === null ? "—" : String(v)))));
}

function sideInfo(label, side) {
  if (!side) return null;
  const extra = Object.keys(side.fields || {}).length ? fieldsTable(side.fields) : null;
  return h("div", { class: "side-info" },
    h("h4", {}, label),
    h("p", {}, "layout ", h("strong", {}, side.layout), side.file ? [" in ", h("code", {}, side.file)] : null),
    extra);
}

function findPiece(id) {
  for (const component of (state && state.components) || []) {
    for (const piece of component.pieces) if (piece.id === id) return { component, piece };
  }
  return null;
}

function showPiece(id) {
  const found = findPiece(id);
  const dialog = document.getElementById("piece-dialog");
  if (!found) {
    openPiece = null;
    if (dialog.open) dialog.close();
    return;
  }
  openPiece = id;
  const { component, piece } = found;
  const key = JSON.stringify([component.name, piece, state.editable, proofing]);
  if (dialog.open && dialog.dataset.drawn === key) return; // unchanged (a verifier verdict, a rebuild started)
  dialog.dataset.drawn = key;
  const shown = piece.numbers.slice(0, 12).map((n) => `#${n}`).join(", ");
  const numbers = piece.numbers.length > 12 ? `${shown}, …` : shown;
  fill("piece-detail",
    h("button", { class: "close", onclick: () => dialog.close(), "aria-label": "close" }, "×"),
    h("h3", {}, piece.name, h("span", { class: "meta" }, ` ${component.name} · ×${piece.count} (${numbers})`)),
    benchView(piece), // workbench.js: the sides with their lines and elements, the toolbar and the panel
    piece.warnings.length ? warningList(piece.warnings) : null,
    h("div", { class: "detail-columns" },
      h("div", {}, h("h4", {}, "Fields"), benchFieldsTable(piece)),
      h("div", {}, sideInfo("Face", piece.face), sideInfo("Back", piece.reverse))));
  benchRestore();
  if (!dialog.open) dialog.showModal();
}

function verifierSection(verify) {
  const head = h("h2", {}, "Verifier ", h("span", { class: "meta" }, "variant × player count"));
  if (!verify || (!verify.rows && verify.running)) return [head, h("p", { class: "meta" }, "simulating…")];
  const table = h("table", { class: "matrix" },
    h("tr", {}, h("th", {}, "variant"), verify.counts.map((c) => h("th", {}, plural(c, "player")))),
    verify.rows.map((row) => h("tr", {},
      h("th", {}, row.variant),
      row.cells.map((s) => h("td", { class: `cell ${s || "none"}` }, s || "·")))));
  const flagged = verify.results.filter((r) => r.status !== "pass");
  const findings = flagged.length
    ? h("ul", { class: "findings" }, flagged.flatMap((r) => r.findings.map((f) =>
      h("li", { class: f.severity }, h("span", { class: `tag ${f.severity}` }, f.severity), " ",
        h("strong", {}, r.where), ": ", f.text))))
    : h("p", { class: "ok" }, "Every setup, deal and box line holds.");
  return [head,
    h("p", { class: "meta" }, `${verify.trials} Monte Carlo runs of each setup, seed ${verify.seed}`,
      verify.running ? " · re-simulating…" : ""),
    verify.rows.length ? table : h("p", { class: "meta" }, "no setup.yaml: nothing to simulate"),
    findings, derivedSection(verify.derived), playoutSection(verify.playouts)];
}

function playoutSection(playouts) {
  if (!playouts || !playouts.length) return null;
  return h("div", { class: "playouts" },
    h("h3", {}, "Round models ", h("span", { class: "meta" }, "what verify --playouts plays; PLACEHOLDER: a guess, not the rulebook's")),
    playouts.map((p) => h("div", { class: "playout", "data-variant": p.variant },
      h("h4", {}, p.variant, p.model.say ? h("span", { class: "meta" }, ` ${p.model.say}`) : ""),
      p.model.placeholders.length
        ? h("p", { class: "warn placeholder-note" }, `${p.model.placeholders.length} amount(s) marked PLACEHOLDER`)
        : null,
      h("ol", {}, p.model.actions.map((a, i) => h("li", { class: a.placeholder ? "placeholder" : "" }, p.lines[i]))),
      p.model.end.length
        ? h("ul", { class: "ends" }, p.model.end.map((e) => h("li", {}, `end: ${e.condition} → ${e.means}`)))
        : null,
      p.played.map((c) => h("p", { class: "meta" }, `${plural(c.players, "player")}, ${c.games} games: `,
        [...c.outcomes, ...c.piles].join("; "))))));
}

function derivedSection(derived) {
  if (!derived || (!derived.sizes.length && !derived.sums.length)) return null;
  const tables = derived.sizes.map((t) => h("table", { class: "derived-sizes", "data-variant": t.variant },
    h("tr", {}, h("th", {}, t.variant), t.counts.map((c) => h("th", {}, plural(c, "player")))),
    t.rows.map((row) => h("tr", {}, h("th", {}, row.zone), row.cells.map((c) => h("td", { class: "num" }, c))))));
  const sums = derived.sums.length
    ? h("ul", { class: "derived-sums" }, derived.sums.map((s) =>
      h("li", { class: s.agrees ? "" : "fail" }, h("strong", {}, s.where), ": ", s.text)))
    : null;
  return h("div", { class: "derived" },
    h("h3", {}, "Derived numbers ", h("span", { class: "meta" }, "what each zone holds after setup; field sums")),
    tables, sums);
}

function bomSection(bom) {
  const head = h("h2", {}, "Bill of materials");
  if (!bom) return [head];
  const rows = bom.components.map((c) => h("tr", {},
    h("td", { class: "num" }, c.count),
    h("td", {}, c.name, c.printed ? "" : h("span", { class: "meta" }, " (not printed)")),
    h("td", {}, c.kind, c.two_sided ? ", two-sided" : ""),
    h("td", { class: "meta" }, c.breakdown.length > 1
      ? `by ${c.by}: ` + c.breakdown.map((b) => `${b.label} ${b.count}`).join(", ") : "")));
  const supplies = bom.supplies.map((s) => h("tr", {},
    h("td", { class: "num" }, s.count), h("td", {}, s.name), h("td", {}, "bought"), h("td", { class: "meta" }, s.notes)));
  return [head, h("table", { class: "bom" },
    h("tr", {}, h("th", {}, "count"), h("th", {}, "component"), h("th", {}, "kind"), h("th", {}, "breakdown")),
    rows, supplies)];
}

function render(next) {
  if (state && next.version < state.version) return; // an answer overtaken by a newer one
  state = next;
  const status = document.getElementById("status");
  const label = next.building ? "rebuilding…" : next.status === "error" ? "error" : `built ${next.built} · ${next.seconds} s`;
  status.textContent = label;
  status.dataset.status = next.building ? "building" : next.status;
  status.dataset.version = next.version;
  document.title = `${next.game.title} · punchboard studio`;
  fill("game-title", next.game.title);
  const players = next.game.players ? `${next.game.players[0]}–${next.game.players[1]} players · ` : "";
  fill("game-meta", `${players}${next.game.folder}`);

  const problems = document.getElementById("problems");
  const lines = next.internal ? [next.internal] : next.problems;
  problems.hidden = !lines.length;
  if (lines.length) {
    fill("problems",
      h("h2", {}, "The last save did not build"),
      h("p", {}, next.components.length ? "Showing the last good build until the problem is fixed." : "Fix it and save; the page follows."),
      h("pre", {}, lines.join("\n")));
  }
  const gameWarnings = document.getElementById("game-warnings");
  gameWarnings.hidden = !next.warnings.length;
  if (next.warnings.length) fill("game-warnings", warningList(next.warnings));

  languageSwitch(next);
  once("pieces", [next.components, proofing], ([components]) => components.map(componentSection));
  const verify = next.verify;
  const pill = document.getElementById("verify-pill");
  pill.textContent = verify && verify.status ? verify.status : "";
  pill.className = `pill ${verify && verify.status ? verify.status : ""}`;
  once("verifier", verify, verifierSection);
  once("bom", next.bom, bomSection);
  once("files", next.files, (files) => files.length ? [h("h2", {}, "Print files"),
    h("ul", { class: "files" }, files.map((f) => h("li", {}, h("a", { href: f.url, target: "_blank" }, f.name))))] : []);
  if (openPiece && !benchBusy()) showPiece(openPiece); // not under a drag or a value being typed
}

// The language switch, when the game declares languages: the pictures are drawn in the one chosen (the server
// draws them: POST /language), and a text field edited then is written into its field@lang column.
function languageSwitch(next) {
  const languages = next.languages || [];
  const label = document.getElementById("language-switch");
  label.hidden = languages.length < 2;
  const select = document.getElementById("language");
  const options = languages.map((lang, n) => `${lang}${n === 0 ? " (source)" : ""}`);
  if (JSON.stringify([...select.options].map((o) => o.textContent)) !== JSON.stringify(options)) {
    select.replaceChildren(...languages.map((lang, n) => h("option", { value: lang }, options[n])));
  }
  if (document.activeElement !== select) select.value = next.language || "";
}

async function chooseLanguage(lang) {
  const token = new URLSearchParams(location.search).get("token") || "";
  const response = await fetch("/language", {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", "X-Punchboard-Token": token },
    body: JSON.stringify({ lang }),
  });
  if (!response.ok) document.getElementById("proof-note").textContent = (await response.text()).trim();
}

// The "CMYK proof" toggle: every picture again, through /proof/ (the reason shown when there is no profile).
async function toggleProof(on) {
  proofing = on;
  const note = document.getElementById("proof-note");
  note.textContent = "";
  if (state) render(state);
  const first = document.querySelector("img[src^='/proof/']");
  if (on && first) {
    const response = await fetch(first.getAttribute("src"));
    if (!response.ok) note.textContent = (await response.text()).trim();
  }
}

async function refresh() {
  try {
    const response = await fetch("/state.json", { cache: "no-store" });
    render(await response.json());
  } catch (err) {
    const status = document.getElementById("status");
    status.textContent = "server stopped";
    status.dataset.status = "offline";
  }
}

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("state", refresh);
  events.onerror = () => {
    const status = document.getElementById("status");
    status.textContent = "reconnecting…";
    status.dataset.status = "offline";
  };
}

document.addEventListener("DOMContentLoaded", () => {
  const dialog = document.getElementById("piece-dialog");
  dialog.addEventListener("close", () => { openPiece = null; delete dialog.dataset.drawn; });
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  const proof = document.getElementById("proof-toggle");
  proof.checked = false;
  proof.addEventListener("change", () => toggleProof(proof.checked));
  document.getElementById("language").addEventListener("change", (e) => chooseLanguage(e.target.value));
  connect();
});
