// The wire protocol of the game page (docs/web.md: "The state message", "Legal tables",
// "Protocol: states and deltas"), decoded in one place: the client's copy of the state
// message kept up to date from deltas, what each message touched, the legal tables as
// entries and the view the page draws from. No DOM and no page state: tests run it in
// Chromium over the recorded traffic of tests/fixtures/wire (tests/test_web_protocol.py).

// Set (or, for a path alone, delete) the value at a path of keys and indexes; four
// items splice a string: keep its first op[2] and last op[3] characters around op[1].
export function applyOp(target, op) {
  const path = op[0];
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1];
  if (op.length === 1) {
    if (Array.isArray(target)) target.splice(last, 1);
    else delete target[last];
  } else if (op.length === 4) {
    const old = target[last];
    target[last] = old.slice(0, op[2]) + op[1] + old.slice(old.length - op[3]);
  } else target[last] = op[1];
}

// What a message changed, for the page to redraw no more than that: `all` after a full
// state; else the top-level keys it set, the board's spaces and shapes (<defs>) by name,
// its other parts (root, head, mid, tail, order; "spaces" or "defs" when set whole) and
// the first log line it replaced.
function touchedNothing(all) {
  return { all, keys: new Set(), spaces: new Set(), defs: new Set(), board: new Set(), logFrom: null };
}

function note(touched, path) {
  touched.keys.add(path[0]);
  if (path[0] !== "board") return;
  if (path.length === 1) touched.board.add("all");
  else if ((path[1] === "spaces" || path[1] === "defs") && path.length > 2) touched[path[1]].add(path[2]);
  else touched.board.add(path[1]);
}

// Whether a message changed any of `keys` (top-level fields of the state message).
export function touches(touched, ...keys) {
  return touched.all || keys.some((key) => touched.keys.has(key));
}

// A message applied to `held`, the client's copy (the last full state with every delta
// since applied): { held, touched }; null for a delta that does not follow on `held`
// (its base is another state: the client asks for the full state).
export function receive(held, msg) {
  if (msg.type === "state") return { held: msg, touched: touchedNothing(true) };
  if (!held || msg.base !== held.state) return null;
  const touched = touchedNothing(false);
  for (const op of msg.set || []) {
    applyOp(held, op);
    note(touched, op[0]);
  }
  if (msg.log) {
    held.log.splice(msg.log.from, held.log.length, ...msg.log.lines);
    touched.keys.add("log");
    touched.logFrom = msg.log.from;
  }
  if (msg.state !== held.state) touched.keys.add("state");
  held.state = msg.state;
  return { held, touched };
}

// Legal actions arrive per verb as one key list and rows of values: columns equal in
// every row come once ("same"), list columns as the fields they are made of ("lists"),
// and a column with templates holds an index, the row's own fields written into {field}.
export function expandLegal(legal) {
  const out = {};
  for (const [verb, table] of Object.entries(legal || {})) {
    if (Array.isArray(table)) { out[verb] = table; continue; } // entries already
    const templates = table.templates || {};
    out[verb] = table.rows.map((row) => {
      const e = Object.assign({ verb }, table.same || {});
      table.keys.forEach((k, i) => { e[k] = row[i]; });
      for (const [k, names] of Object.entries(table.lists || {})) e[k] = names.map((f) => e[f]);
      for (const [k, texts] of Object.entries(templates)) {
        e[k] = texts[e[k]].replace(/\{([a-z_]+)\}/g, (m, f) => String(e[f]));
      }
      for (const k of Object.keys(e)) if (e[k] === null) delete e[k];
      return e;
    });
  }
  return out;
}

// The shapes (<defs>) in id order, as the server draws them (a delta adds new ones last).
export function defIds(board) {
  return Object.keys(board.defs).sort();
}

// The whole board picture, as tikal.svg.board draws it.
export function boardSvg(board) {
  return board.root + board.head + defIds(board).map((k) => board.defs[k]).join("") + board.mid +
    board.order.map((c) => board.spaces[c]).join("") + board.tail;
}

// The drawn tile's picture in each rotation, from the board's shapes (size 40 of 50).
function tilePicture(group) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="tk tile-svg" viewBox="-42 -36.64 84 73.28" width="84" height="73.28" aria-hidden="true"><g transform="scale(0.8)">${group}</g></svg>`;
}

function drawnView(drawn) {
  const t = drawn.rotations; // six pictures as head + middles[r] + tail
  const groups = t.middles.map((m) => t.head + m + t.tail);
  return Object.assign({}, drawn, { groups, svgs: groups.map(tilePicture) });
}

// The state as the page reads it: the held copy with the positions' board as a list,
// seats merged into player_info, legal entries expanded and the drawn tile's pictures.
// Parts a delta did not touch are taken over from `before` (the last view), so a move
// expands only what it changed. `svg` is the whole board as held now (joined on demand).
export function deriveView(held, touched, before) {
  const s = Object.assign({}, held);
  const again = (...keys) => !before || touches(touched, ...keys);
  s.position = again("position") ? Object.assign({}, held.position, { board: Object.values(held.position.board || {}) }) : before.position;
  s.ap_max = held.rule_set.action_points;
  s.costs = held.rule_set.costs;
  s.player_info = again("player_info", "seats") ? held.player_info.map((p, i) => Object.assign({}, held.seats[i], p)) : before.player_info;
  s.legal = again("legal") ? expandLegal(held.legal) : before.legal;
  if (held.drawn) s.drawn = again("drawn") || !before.drawn ? drawnView(held.drawn) : before.drawn;
  Object.defineProperty(s, "svg", { enumerable: true, get: () => boardSvg(held.board) });
  return s;
}
