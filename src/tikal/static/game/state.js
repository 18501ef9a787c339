// The game page's state, in one object: what the server sent (held) and the view drawn
// from it, this screen's own choices (ui), the connection, and what the page has shown
// so far. Every module reads it here; only the functions below and the page's input
// handlers change it.
import { deriveView, receive } from "./protocol.js";

export const store = {
  gameId: decodeURIComponent(location.pathname.split("/")[2] || ""),
  token: new URLSearchParams(location.hash.slice(1)).get("t"),
  held: null, // the state as sent: the last full state with every delta since applied
  view: null, // the state as drawn: held with the board joined, seats merged, legal expanded
  ui: { rotation: 0, fig: null, cell: null, hint: null, refusal: null, hover: null, focus: null, zoom: 1, lean: 1 },
  conn: { ws: null, retry: 0 },
  hintAsked: 0, // when a hint was last asked for (one at a time, debounced)
  // tile, turn, end, log lines announced, the bots' pace told, scoring rounds started
  shown: { drawn: null, current: null, over: false, announced: -1, pace: null, rounds: null },
  meta: null, // GET /api/meta (the rule sets' volcanoes), once it has come
  noticeTimer: null,
  // The drawing of the page's parts after a choice of this screen (main.js installs it):
  // a module that changes `ui` names the parts to draw again ("tile", "marks", ...).
  redraw: () => {},
};

// A state or delta message taken in: what it touched and whether the state counter moved;
// null for a delta that does not follow on what is held (the page asks for the state).
export function take(msg) {
  const got = receive(store.held, msg);
  if (!got) return null;
  const before = store.view;
  store.held = got.held;
  store.view = deriveView(got.held, got.touched, got.touched.all ? null : before);
  return { touched: got.touched, changed: !before || before.state !== store.view.state };
}

export function redraw(...parts) { store.redraw(parts); }

// ------------------------------------------------------------------ what the state says

export const view = () => store.view;
export const seat = (p) => store.view.seats[p];
export const mine = () => store.view && store.view.your_turn;
export const apPhase = () => mine() && (store.view.phase === "turn" || store.view.phase === "scoring");
// Legal actions come from the server, each with its notation (action), cost, the spaces it
// touches (cells) and its text; the page knows no rule.
export const legal = (verb) => (store.view && store.view.legal && store.view.legal[verb]) || [];
export const allLegal = () => Object.values((store.view && store.view.legal) || {}).flat();
export const figOf = (e) => (e.leader ? "L" : "W");
export const target = (e) => e.cells[e.cells.length - 1];
export const hotseat = () => store.view.you.length > 1;
// Verbs with their own controls: tiles and moves on the board, end in the turn card,
// bids and picks in the auction card. Every other legal action is a button.
export const OWN_CONTROLS = new Set(["tile", "move", "end", "bid", "pass", "pick"]);

// The rotations in which the drawn tile fits, per space.
export function tileRotations() {
  const byCell = {};
  for (const e of legal("tile")) (byCell[e.cells[0]] = byCell[e.cells[0]] || new Set()).add(e.rotation);
  return byCell;
}

// Where the picked-up figure can go: the cheapest move or path to each target.
export function moveTargets() {
  const fig = store.ui.fig;
  if (!fig) return {};
  const out = {};
  for (const e of legal("move").concat(legal("path"))) {
    if (e.cells[0] !== fig.cell || figOf(e) !== fig.fig) continue;
    const dst = target(e);
    if (!out[dst] || e.cost < out[dst].cost) out[dst] = e;
  }
  return out;
}

// Whether the figure `f` has a legal move or path now (a figure kept picked up after its
// move is put down when it cannot go on).
export function canGoOn(f) {
  return legal("move").concat(legal("path")).some((e) => e.cells[0] === f.cell && figOf(e) === f.fig);
}

export function figureExists(f) {
  const S = store.view;
  const mineNow = S.position.figures[S.current];
  return !!(mineNow && (f.fig === "L" ? mineNow.leader === f.cell : (mineNow.workers[f.cell] || 0) > 0));
}

// Turn the drawn tile by `d` sixths (R, Shift+R, the tile card's buttons).
export function rotate(d) {
  store.ui.rotation = (store.ui.rotation + d + 6) % 6;
  redraw("tile", "marks");
}
