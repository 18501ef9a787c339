// What the page adds to the board picture: spaces as named buttons with one tab stop, the
// marks of this moment (targets, the tile's fits, the selection, a hint) as classes and an
// overlay, the tile under the pointer (ghost), and short animations of what a move changed.
// Each is changed where it differs from the last time: a delta costs the spaces it
// touched and the marks that come or go, not a pass over the whole board.
import { motionWanted } from "./prefs.js";
import { apPhase, figOf, legal, mine, moveTargets, store, tileRotations, view } from "./state.js";
import { TEXT } from "./texts.js";

const SPACE_MARKS = ["target", "target-weak", "picked", "hint"];
const FIGURE_MARKS = ["mine", "selected", "movable"];
const MOTION = ["fresh", "arrive", "slide"];
const NONE = new Set();

function svgEl(tag, attrs) {
  const n = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

// What a space shows for the animations: whether a tile lies there, its figures per
// seat and kind ("0 W" -> count).
function contents(g) {
  const counts = {};
  g.querySelectorAll("g.fig").forEach((f) => { counts[`${f.dataset.seat} ${f.dataset.fig}`] = +f.dataset.count; });
  return { placed: !g.classList.contains("empty"), counts };
}

const push = (map, key, item) => { if (!map.has(key)) map.set(key, []); map.get(key).push(item); };

export class BoardMarks {
  constructor(picture) {
    this.picture = picture;
    this.spaceMarks = new Map(); // label -> its marks, as last set
    this.figureMarks = new Map(); // figure node -> its marks, as last set
    this.extra = new Map(); // label -> what choosing it does now (in its name), as last set
    this.bases = new WeakMap(); // space node -> its name without the extra
    this.overlayKey = null; // what the overlay draws, as last drawn
    this.ghostKey = null;
    this.seen = null; // label -> contents(), as last drawn
    this.moving = []; // nodes the last message animated
  }

  // After the picture changed (`change`, from BoardPicture.update): the new spaces made
  // buttons, the focus kept on the board if it was there, the changes animated, the marks.
  afterUpdate(change, hadFocus) {
    const pic = this.picture;
    const ui = store.ui;
    if (!pic.svg) return;
    if (change.root) {
      pic.svg.setAttribute("role", "group");
      pic.svg.setAttribute("aria-label", TEXT.boardName());
    }
    if (change.whole) this.overlayKey = this.ghostKey = null;
    for (const cell of change.changed) {
      const g = pic.nodes.get(cell);
      g.setAttribute("tabindex", "-1");
      g.setAttribute("role", "button");
      g.setAttribute("focusable", "true");
    }
    if (!ui.focus || !pic.nodes.has(ui.focus)) ui.focus = this.initialFocus();
    const focus = pic.nodes.get(ui.focus);
    if (focus) focus.setAttribute("tabindex", "0");
    this.animate(change);
    this.decorate(change.changed);
    if (hadFocus && focus && document.activeElement !== focus) focus.focus({ preventScroll: true });
  }

  initialFocus() {
    const spaces = this.picture.spaces();
    const placed = spaces.find(([, g]) => !g.classList.contains("empty"));
    return (placed || spaces[0] || [null])[0];
  }

  // One tab stop on the board: the space `g`.
  setRoving(g) {
    this.picture.svg.querySelectorAll('g.space[tabindex="0"]').forEach((n) => { if (n !== g) n.setAttribute("tabindex", "-1"); });
    g.setAttribute("tabindex", "0");
  }

  // Short animations: a tile placed since the last picture grows in; a figure that left one
  // space for another slides over from where it was (one that came from the supply pops up).
  // None when the reader asked for reduced motion or turned animations off (app.css
  // turns the CSS ones off too).
  // Only the spaces drawn anew can differ; the marks of the last message go.
  animate(change) {
    for (const node of this.moving) node.classList.remove(...MOTION);
    this.moving = [];
    const pic = this.picture;
    const cells = change.whole ? pic.spaces().map(([cell]) => cell) : change.changed;
    const previous = this.seen;
    const was = new Map(cells.map((c) => [c, previous && previous.get(c)]));
    const now = new Map(cells.map((c) => [c, contents(pic.nodes.get(c))]));
    if (change.whole || !previous) this.seen = new Map(now);
    else {
      for (const cell of previous.keys()) if (!pic.nodes.has(cell)) previous.delete(cell);
      for (const [cell, c] of now) previous.set(cell, c);
    }
    if (!previous) return;
    const still = !motionWanted();
    const mark = (node, cls) => { node.classList.add(cls); this.moving.push(node); };
    const ordered = pic.spaces().filter(([cell]) => now.has(cell));
    for (const [cell, g] of ordered) {
      const before = was.get(cell);
      if (now.get(cell).placed && !(before && before.placed)) mark(g, "fresh");
      g.querySelectorAll("g.fig").forEach((f) => {
        const who = `${f.dataset.seat} ${f.dataset.fig}`;
        if (((before && before.counts[who]) || 0) >= +f.dataset.count) return;
        const from = ordered.find(([c]) => (now.get(c).counts[who] || 0) < ((was.get(c) && was.get(c).counts[who]) || 0));
        if (!from || still || !f.animate) { mark(f, "arrive"); return; }
        const dx = from[1].dataset.x - g.dataset.x;
        const dy = from[1].dataset.y - g.dataset.y;
        mark(f, "slide");
        f.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 380, easing: "ease-out" });
      });
    }
  }

  // The marks of this moment, from the state and this screen's choices; `drawn` names the
  // spaces drawn anew since the last call (their names are set whatever else changed).
  decorate(drawn = []) {
    const pic = this.picture;
    const S = view();
    const ui = store.ui;
    if (!pic.svg || !S) return;
    const marks = new Map();
    const figures = new Map();
    const extra = new Map(); // what the accessible name of a space adds to its description
    const overlay = []; // [kind, node, text]
    const mark = (cell, cls) => { if (!marks.has(cell)) marks.set(cell, new Set()); marks.get(cell).add(cls); };
    if (ui.cell && pic.nodes.has(ui.cell)) { mark(ui.cell, "picked"); push(extra, ui.cell, TEXT.selected()); }
    if (mine() && S.phase === "tile") {
      for (const [cell, rots] of Object.entries(tileRotations())) {
        if (!pic.nodes.has(cell)) continue;
        const fits = rots.has(ui.rotation);
        mark(cell, fits ? "target" : "target-weak");
        push(extra, cell, fits ? TEXT.fits() : TEXT.fitsTurned());
      }
    }
    if (apPhase()) this.markFigures(S, figures, extra, overlay, mark);
    if (ui.hint && ui.hint.state === S.state) {
      for (const c of ui.hint.cells || []) if (pic.nodes.has(c)) { mark(c, "hint"); push(extra, c, TEXT.hinted()); }
    }
    for (const cell of new Set([...this.spaceMarks.keys(), ...marks.keys()])) {
      const g = pic.nodes.get(cell);
      const want = marks.get(cell) || NONE;
      if (g) for (const cls of SPACE_MARKS) g.classList.toggle(cls, want.has(cls));
    }
    for (const g of this.figureMarks.keys()) if (!figures.has(g)) g.classList.remove(...FIGURE_MARKS);
    for (const [g, want] of figures) for (const cls of FIGURE_MARKS) g.classList.toggle(cls, want.has(cls));
    this.spaceMarks = marks;
    this.figureMarks = figures;
    pic.svg.classList.toggle("interactive", !!mine());
    this.drawOverlay(overlay, drawn);
    this.name(new Set([...drawn, ...this.extra.keys(), ...extra.keys()]), extra);
    this.extra = extra;
    this.ghost();
  }

  // The figures of the player to act: theirs, movable, the one picked up (a ring around
  // it); the picked-up figure's targets with their cost.
  markFigures(S, figures, extra, overlay, mark) {
    const ui = store.ui;
    const movable = new Set(legal("move").concat(legal("path")).map((e) => `${figOf(e)}@${e.cells[0]}`));
    this.picture.svg.querySelectorAll(`g.fig[data-seat="${S.current}"]`).forEach((g) => {
      const marks = new Set(["mine"]);
      if (movable.has(`${g.dataset.fig}@${g.dataset.cell}`)) marks.add("movable");
      if (ui.fig && ui.fig.cell === g.dataset.cell && ui.fig.fig === g.dataset.fig) {
        marks.add("selected");
        overlay.push(["ring", g]);
        push(extra, g.dataset.cell, TEXT.selectedFigure((g.querySelector("title") || {}).textContent || ""));
      }
      figures.set(g, marks);
    });
    for (const [dst, e] of Object.entries(moveTargets())) {
      const g = this.picture.nodes.get(dst);
      if (!g) continue;
      mark(dst, "target");
      overlay.push(["badge", g, TK.format(e.cost)]);
      push(extra, dst, TEXT.target(e.cost));
    }
  }

  // The overlay (rings, cost badges), drawn again only when what it shows changed or a
  // space under it was drawn anew.
  drawOverlay(items, drawn) {
    const layer = this.picture.overlay();
    const key = JSON.stringify(items.map(([kind, g, text]) => [kind, g.dataset.cell, g.dataset.fig || "", text || ""]));
    const moved = items.some(([, g]) => drawn.includes(g.dataset.cell));
    if (key === this.overlayKey && !moved) return;
    this.overlayKey = key;
    this.ghostKey = null;
    layer.replaceChildren();
    for (const [kind, g, text] of items) (kind === "ring" ? ring : badge)(layer, g, text);
  }

  // The accessible names of `cells`: the server's description (label, tile, temple value,
  // camp, guard), the figures on it per player, and what choosing it would do now.
  name(cells, extra) {
    const sep = TEXT.separator();
    for (const cell of cells) {
      const g = this.picture.nodes.get(cell);
      if (!g) continue;
      let base = this.bases.get(g);
      if (base === undefined) this.bases.set(g, (base = this.baseName(g)));
      const more = extra.get(cell);
      const label = more ? base + sep + more.join(sep) : base;
      if (g.getAttribute("aria-label") !== label) g.setAttribute("aria-label", label);
    }
  }

  baseName(g) {
    const title = g.querySelector(":scope > title, :scope > g.tile > title");
    const words = [title ? title.textContent : g.dataset.cell];
    g.querySelectorAll("g.fig").forEach((f) => {
      const who = view().seats[+f.dataset.seat];
      const t = f.querySelector("title");
      const figure = t ? t.textContent : "";
      words.push(who ? TEXT.figureOf(who.name, figure) : figure);
    });
    return words.join(TEXT.separator());
  }

  // The drawn tile laid where the pointer is (if it fits there), or where a hint says.
  ghost() {
    const pic = this.picture;
    const S = view();
    const ui = store.ui;
    if (!pic.svg || !S) return;
    let cell = null, rot = ui.rotation;
    if (S.drawn && mine() && S.phase === "tile" && ui.hover) {
      const rots = tileRotations()[ui.hover];
      if (rots) { cell = ui.hover; if (!rots.has(rot)) rot = [...rots][0]; }
    }
    if (S.drawn && ui.hint && ui.hint.state === S.state && ui.hint.verb === "tile" && !cell) {
      cell = ui.hint.cells[0];
      rot = ui.hint.rotation;
    }
    const g = cell && pic.nodes.get(cell);
    const key = g ? `${cell}|${S.drawn.groups[rot]}` : null;
    if (key === this.ghostKey) return;
    this.ghostKey = key;
    pic.svg.querySelectorAll(".ghost").forEach((n) => n.remove());
    if (!g) return;
    const ghost = svgEl("g", { class: "ghost", transform: `translate(${g.dataset.x},${g.dataset.y})` });
    ghost.innerHTML = S.drawn.groups[rot];
    pic.overlay().append(ghost);
  }
}

// A strong mark around the selected figure: a thick ring, drawn over everything.
function ring(overlay, fig) {
  const space = fig.closest("g.space");
  let box;
  try { box = fig.getBBox(); } catch (e) { return; }
  const x = +space.dataset.x + box.x + box.width / 2;
  const y = +space.dataset.y + box.y + box.height / 2;
  const r = Math.max(box.width, box.height) / 2 + 5;
  overlay.append(svgEl("circle", { cx: x, cy: y, r: r + 2, class: "sel-ring-bg" }));
  overlay.append(svgEl("circle", { cx: x, cy: y, r, class: "sel-ring" }));
}

function badge(overlay, g, text) {
  const x = +g.dataset.x, y = +g.dataset.y;
  overlay.append(svgEl("circle", { cx: x + 30, cy: y - 14, r: 13, class: "badge-bg" }));
  const t = svgEl("text", { x: x + 30, y: y - 9.5, "text-anchor": "middle", class: "badge-text" });
  t.textContent = text;
  overlay.append(t);
}
