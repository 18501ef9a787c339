// Mouse, touch and keyboard on the game page (the keyboard model of docs/web.md "Pages"):
// the board is one tab stop, arrow keys walk its hex grid, Enter or Space chooses a space
// as a click would; R, U, H, Escape and +/- act on the whole page.
import { act, askHint, undo } from "./connection.js";
import { $, notify } from "./notice.js";
import { apPhase, legal, mine, moveTargets, redraw, rotate, store, tileRotations, view } from "./state.js";
import { TEXT } from "./texts.js";

const ui = store.ui;
const ZOOMS = [1, 1.5, 2, 3];

export class BoardInput {
  constructor(picture, marks) {
    this.picture = picture;
    this.marks = marks;
  }

  // The board's handlers, on a picture drawn whole (a new <svg>).
  attach(svg) {
    svg.addEventListener("click", (ev) => this.onClick(ev));
    svg.addEventListener("mouseover", (ev) => this.onHover(ev));
    svg.addEventListener("keydown", (ev) => this.onKey(ev));
    svg.addEventListener("focusin", (ev) => {
      const g = ev.target.closest && ev.target.closest("g.space");
      if (!g) return;
      ui.focus = g.dataset.cell;
      this.marks.setRoving(g);
      if (view().phase === "tile") { ui.hover = g.dataset.cell; this.marks.ghost(); }
    });
  }

  onHover(ev) {
    const g = ev.target.closest && ev.target.closest("g.space");
    const cell = g ? g.dataset.cell : null;
    if (cell !== ui.hover) { ui.hover = cell; if (view() && view().phase === "tile") this.marks.ghost(); }
  }

  onClick(ev) {
    if (!view()) return;
    const fig = ev.target.closest("g.fig");
    const space = ev.target.closest("g.space");
    if (space) ui.focus = space.dataset.cell;
    this.choose(space ? space.dataset.cell : null, fig ? { cell: fig.dataset.cell, fig: fig.dataset.fig, seat: +fig.dataset.seat } : null);
  }

  // Choosing a space (a click, a tap, Enter): place the tile, pick up or put down a figure,
  // move the picked-up figure there, or show the space's actions.
  // A figure that just moved stays picked up if it can go on (`auto`): a click on it then
  // keeps it (never puts it down, which took a second click in 6 of 15 moves of a game),
  // a click on another figure of yours picks that one. Only a figure the player picked
  // themself moves onto a target by a click on a figure there.
  choose(cell, fig) {
    const S = view();
    if (mine() && S.phase === "tile") { this.placeTile(cell); return; }
    if (apPhase() && fig && fig.seat === S.current) {
      const f = { cell: fig.cell, fig: fig.fig };
      const held = ui.fig;
      const same = held && held.cell === f.cell && held.fig === f.fig;
      if (same && !held.auto) ui.fig = null;
      else if (held && !held.auto && held.cell !== f.cell && moveTargets()[f.cell]) { this.moveTo(f.cell); return; }
      else ui.fig = f;
      ui.cell = f.cell;
      redraw("selection", "marks");
      return;
    }
    if (!cell) return;
    if (apPhase() && ui.fig) {
      if (moveTargets()[cell]) { this.moveTo(cell); return; }
      // Not a target: ask anyway, so the engine says why not (not neighbours, no stones...).
      if (cell !== ui.fig.cell) act(`move ${ui.fig.fig} ${ui.fig.cell} ${cell}`);
      ui.fig = null;
    }
    ui.cell = ui.cell === cell ? null : cell;
    redraw("selection", "marks");
  }

  // The picked-up figure onto `cell` (one of its targets): it stays picked up there, as a
  // guess (`auto`) that main.js drops when the figure cannot go on.
  moveTo(cell) {
    act(moveTargets()[cell].action);
    ui.fig = { cell, fig: ui.fig.fig, auto: true };
    ui.cell = cell;
  }

  // The drawn tile onto `cell`: as turned if it fits so, else turned to the next rotation
  // that fits (said in the notice), else sent anyway so that the engine says why not.
  placeTile(cell) {
    if (!cell) return;
    const rots = tileRotations()[cell];
    const fits = legal("tile").find((e) => e.cells[0] === cell && e.rotation === ui.rotation);
    if (fits) { act(fits.action); return; }
    if (rots) {
      const order = [1, 2, 3, 4, 5].map((k) => (ui.rotation + k) % 6);
      ui.rotation = order.find((r) => rots.has(r));
      redraw("tile", "marks");
      notify(TEXT.turnedToFit(cell));
      return;
    }
    act(`tile ${cell} ${ui.rotation}`);
  }

  // Enter on a space: the figures of the player to act there are picked up in turn (worker,
  // leader, then none), a target of the picked-up figure receives it, any other space is
  // chosen as by a click.
  chooseByKey(cell) {
    const S = view();
    if (apPhase()) {
      const own = [...this.picture.nodes.get(cell).querySelectorAll(`g.fig[data-seat="${S.current}"]`)].map((g) => ({ cell, fig: g.dataset.fig, seat: S.current }));
      const targets = moveTargets();
      if (ui.fig && ui.fig.cell !== cell && targets[cell]) { this.choose(cell, null); return; }
      if (ui.fig && ui.fig.auto && ui.fig.cell === cell) { ui.fig = { cell, fig: ui.fig.fig }; redraw("selection", "marks"); return; }
      if (own.length) {
        const at = ui.fig && ui.fig.cell === cell ? own.findIndex((f) => f.fig === ui.fig.fig) : -1;
        if (at + 1 < own.length) { ui.fig = null; this.choose(cell, own[at + 1]); }
        else { ui.fig = null; ui.cell = cell; redraw("selection", "marks"); }
        return;
      }
    }
    this.choose(cell, null);
  }

  // Arrow keys walk the hex grid by the spaces' centres (data-x, data-y): up and down to the
  // space straight above or below, left and right to the nearest space of the next column,
  // alternating up and down so that repeated presses keep to a row.
  neighbour(from, key) {
    const a = this.picture.nodes.get(from);
    if (!a) return null;
    const ax = +a.dataset.x, ay = +a.dataset.y;
    let best = null, bestScore = Infinity;
    for (const [cell, g] of this.picture.spaces()) {
      if (cell === from) continue;
      const dx = +g.dataset.x - ax, dy = +g.dataset.y - ay;
      let score;
      if (key === "ArrowUp" || key === "ArrowDown") {
        if (Math.abs(dx) > 1 || (key === "ArrowUp" ? dy >= 0 : dy <= 0)) continue;
        score = Math.abs(dy);
      } else {
        if ((key === "ArrowLeft" ? dx >= -1 : dx <= 1) || Math.abs(dy) > Math.abs(dx)) continue;
        score = Math.abs(dx) * 1000 + Math.abs(dy) * 2 + (Math.sign(dy) === ui.lean ? 0 : 1);
      }
      if (score < bestScore) { bestScore = score; best = cell; }
    }
    if (best && (key === "ArrowLeft" || key === "ArrowRight")) ui.lean = -ui.lean;
    return best;
  }

  onKey(ev) {
    const g = ev.target.closest && ev.target.closest("g.space");
    if (!g || !view()) return;
    const cell = g.dataset.cell;
    if (ev.key.startsWith("Arrow")) {
      ev.preventDefault();
      const next = this.neighbour(cell, ev.key);
      if (next) { const n = this.picture.nodes.get(next); ui.focus = next; this.marks.setRoving(n); n.focus(); }
      return;
    }
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      this.chooseByKey(cell);
    }
  }

  // ---------------------------------------------------------------- zoom

  applyZoom() {
    const svg = this.picture.svg;
    $("board-wrap").classList.toggle("zoomed", ui.zoom > 1);
    if (svg) svg.style.width = ui.zoom > 1 ? `${ui.zoom * 100}%` : "";
    const cue = $("pan-cue");
    cue.hidden = ui.zoom <= 1;
    cue.textContent = ui.zoom > 1 ? TEXT.zoomed() : "";
    $("zoom-out").disabled = ui.zoom <= ZOOMS[0];
    $("zoom-in").disabled = ui.zoom >= ZOOMS[ZOOMS.length - 1];
    $("zoom-fit").disabled = ui.zoom === 1;
  }

  zoom(d) {
    const i = ZOOMS.indexOf(ui.zoom);
    ui.zoom = d === 0 ? 1 : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, i + d))];
    this.applyZoom();
    const f = ui.focus && this.picture.nodes.get(ui.focus);
    if (f && f.scrollIntoView) f.scrollIntoView({ block: "nearest", inline: "center" });
  }

  // ---------------------------------------------------------------- the page's keys

  // The page's keys and zoom buttons, once.
  install() {
    $("zoom-in").addEventListener("click", () => this.zoom(1));
    $("zoom-out").addEventListener("click", () => this.zoom(-1));
    $("zoom-fit").addEventListener("click", () => this.zoom(0));
    $("keys-cue").textContent = TEXT.keysCue();
    $("keys").replaceChildren(...TEXT.keys().flatMap(([k, what]) => [TK.h("dt", {}, TK.h("kbd", {}, k)), TK.h("dd", {}, what)]));
    this.applyZoom();
    document.addEventListener("keydown", (ev) => this.onPageKey(ev));
  }

  onPageKey(ev) {
    const S = view();
    if (!S || ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape") {
      const modal = document.querySelector(".modal");
      if (modal) { modal.remove(); return; }
      ui.fig = null; ui.cell = null; redraw("selection", "marks");
      return;
    }
    if (ev.key === "+" || ev.key === "=") { this.zoom(1); return; }
    if (ev.key === "-") { this.zoom(-1); return; }
    if (!mine()) return;
    if ((ev.key === "r" || ev.key === "R") && S.phase === "tile") rotate(ev.shiftKey ? -1 : 1);
    if ((ev.key === "u" || ev.key === "U") && S.can_undo) undo();
    if (ev.key === "h" || ev.key === "H") askHint();
  }
}
