// The game page: live position over a WebSocket, board interaction, actions.
"use strict";

// Every sentence this page writes itself (the rest comes from the server: action texts, log,
// refusals, tile descriptions), each from the catalog of the page's language (docs/i18n.md):
// TK.t formats a template, numbers included; TK.tn keeps nodes (a player's chip and name).
const TEXT = {
  connected: () => TK.t("conn.on"),
  reconnectingTitle: () => TK.t("conn.off"),
  reconnecting: () => TK.t("status.reconnecting"),
  notConnected: () => TK.t("toast.not_connected"),
  noSuchGame: () => TK.t("game.no_such_game"),
  startNew: () => TK.t("game.start_new"),
  badToken: () => TK.t("toast.bad_token"),
  stale: () => TK.t("toast.stale"),
  slowDown: (message) => TK.t("toast.slow_down", { message }),
  title: (rules, name) => {
    const ruleSet = TK.t("ruleset." + rules);
    return name === null ? TK.t("title.over", { rules: ruleSet }) : TK.t("title.to_play", { rules: ruleSet, name });
  },
  watching: (status) => TK.tn("status.watching", { status }),
  gameOver: () => TK.t("status.game_over"),
  toPlay: (player, phase) => TK.tn("status.to_play", { player, phase }),
  phase: (phase) => (["tile", "turn", "scoring", "auction", "pick"].includes(phase) ? TK.t("status.phase." + phase) : phase),
  youTag: () => TK.t("player.you"),
  seatYou: (name) => TK.t("seat.you", { name }),
  seatBot: (name, level) => TK.t("seat.bot", { name, level }),
  bot: (level) => TK.t("player.bot", { level }),
  passDevice: (player) => TK.tn("toast.pass_device", { player }),
  winners: (winners) => (winners.length > 1 ? TK.t("over.shared", { names: TK.list(winners) }) : TK.t("over.winner", { name: winners[0] })),
  finalScores: () => TK.t("game.final_scores"),
  replay: () => TK.t("nav.replay"),
  yourTurn: () => TK.t("game.your_turn"),
  yourTurnAs: (name) => TK.t("game.your_turn_as", { name }),
  thinking: (name) => TK.t("game.bot_thinking", { name }),
  waiting: (name) => TK.t("game.waiting_for", { name }),
  endTurn: () => TK.t("game.end_turn"),
  endScore: () => TK.t("game.end_turn_score"),
  undo: () => TK.t("game.undo"),
  undoTitle: () => TK.t("game.undo_title"),
  hint: () => TK.t("game.hint"),
  hintTitle: () => TK.t("game.hint_title"),
  hintThinking: () => TK.t("game.thinking"),
  playIt: () => TK.t("game.play_it"),
  suggestion: () => TK.t("game.suggestion"),
  notAllowed: () => TK.t("refusal.not_allowed"),
  refused: () => TK.t("refusal.refused"),
  rule: (rule) => TK.t("refusal.rule", { rule }),
  ruleLine: (rule, text) => TK.tn("refusal.rule_line", { rule, text }),
  dismiss: () => TK.t("refusal.dismiss"),
  helpTile: () => TK.t("help.tile_mine"),
  helpTileOther: (name) => TK.t("help.tile_other", { name }),
  helpTurn: () => TK.t("help.turn_mine"),
  helpTurnOther: (name) => TK.t("help.turn_other", { name }),
  helpScoring: (final, round, order) => (final ? TK.t("help.final_scoring", { order }) : TK.t("help.scoring_round", { round, order })),
  helpAuction: () => TK.t("help.auction"),
  helpPick: () => TK.t("help.pick_mine"),
  helpPickOther: (name) => TK.t("help.pick_other", { name }),
  apLeft: (ap, max) => TK.t("ap.label", { ap, max }),
  apShort: (ap) => TK.t("ap.short", { ap }),
  cost: (cost) => TK.t("cost", { cost }),
  yourTile: () => TK.t("tile.yours"),
  drawnTile: () => TK.t("tile.drawn"),
  turned: (tile, rotation) => TK.t("tile.turned", { tile, rotation }),
  turnLeft: () => TK.t("tile.left"),
  turnLeftTitle: () => TK.t("tile.left_title"),
  turnRight: () => TK.t("tile.right"),
  turnRightTitle: () => TK.t("tile.right_title"),
  fitsAsTurned: (count) => TK.t("tile.fits", { count }),
  noFit: () => TK.t("tile.no_fit"),
  turnedToFit: (cell) => TK.t("toast.turned", { cell }),
  auction: () => TK.t("auction.title"),
  offers: (offer, tile) => TK.tn("auction.offers", { offer, tile }),
  pick: () => TK.t("auction.pick"),
  highest: (high) => TK.t("auction.highest", { high }),
  noBid: () => TK.t("auction.no_bid"),
  bids: (name, amount) => TK.t("auction.bids", { name, amount }),
  passed: (names) => TK.t("auction.passed", { names: TK.list(names) }),
  bid: () => TK.t("auction.bid"),
  bidAmount: () => TK.t("auction.amount"),
  raise: (by, amount) => TK.t("auction.raise", { by, amount }),
  bidAt: (amount) => TK.t("auction.bid_at", { amount }),
  pass: () => TK.t("auction.pass"),
  cannotOutbid: () => TK.t("auction.cannot"),
  bidRange: (min, max) => TK.t("auction.range", { min, max }),
  winBuys: () => TK.t("auction.win_buys"),
  price: (score) => TK.t("auction.price", { score }),
  history: () => TK.t("auction.history"),
  noBidsYet: () => TK.t("auction.no_bids"),
  actionsNow: () => TK.t("actions.title"),
  onlyMoves: () => TK.t("actions.only_moves"),
  space: (cell) => TK.t("space.title", { cell }),
  emptySpace: () => TK.t("space.empty"),
  value: (level, printed) => (printed !== undefined && printed !== level ? TK.t("space.value_printed", { level, printed }) : TK.t("space.value", { level })),
  tokensLeft: (count) => TK.t("space.tokens", { count }),
  campOf: (player) => TK.tn("space.camp", { player }),
  guardedBy: (player) => TK.tn("space.guard", { player }),
  figuresHere: (player, count, lead) => TK.tn(lead ? "space.workers_leader" : "space.workers", { player, count }),
  noActionHere: () => TK.t("space.no_action"),
  close: () => TK.t("close"),
  noTreasures: () => TK.t("player.no_treasures"),
  treasuresTitle: () => TK.t("player.treasures"),
  supply: (workers, lead) => TK.t(lead ? "player.supply_leader" : "player.supply", { workers }),
  camps: (count) => TK.t("player.camps", { count }),
  guards: (count) => TK.t("player.guards", { count }),
  markerUp: () => TK.t("player.marker_up"),
  markerDown: () => TK.t("player.marker_down"),
  worth: (points) => TK.t("player.worth", { points }),
  worthTitle: () => TK.t("player.worth_title"),
  score: () => TK.t("player.score"),
  winner: () => TK.t("player.winner"),
  toPlayTag: () => TK.t("player.to_play"),
  finalWinner: (name) => TK.t("final.winner", { name }),
  logLine: (name, text) => TK.t("log.line", { name, text }),
  links: () => TK.t("links.title"),
  inviteFor: (name) => TK.t("links.invite", { name }),
  copy: () => TK.t("copy"),
  spectatorLink: () => TK.t("links.spectator"),
  download: () => TK.t("links.download"),
  rules: () => TK.t("nav.rules"),
  watchingNote: () => TK.t("links.watching"),
  seeded: () => TK.t("links.seeded"),
  player: () => TK.t("final.player"),
  finalScore: () => TK.t("final.score"),
  treasures: () => TK.t("final.treasures"),
  watchReplay: () => TK.t("final.watch_replay"),
  newGame: () => TK.t("nav.new_game"),
  boardName: () => TK.t("board.keys_label"),
  target: (cost) => TK.t("board.target", { cost }),
  fits: () => TK.t("board.fits"),
  fitsTurned: () => TK.t("board.fits_turned"),
  selected: () => TK.t("board.selected"),
  selectedFigure: (figure) => TK.t("board.selected_figure", { figure }),
  hinted: () => TK.t("board.hinted"),
  figureOf: (name, figure) => TK.t("board.figure", { name, figure }),
  separator: () => TK.t("board.separator"),
  zoomed: () => TK.t("board.zoomed"),
  keysCue: () => TK.t("board.keys_cue"),
  treasure: (name, count) => (count === undefined || count === null ? TK.t("treasure.name", { name }) : TK.t("treasure.name_count", { name, count })),
  announceTurn: (name) => TK.t("announce.turn", { name }),
  announceYours: () => TK.t("announce.yours"),
  announceYoursAs: (name) => TK.t("announce.yours_as", { name }),
  announceOver: () => TK.t("announce.game_over"),
  // The keyboard help: the keys (letters and arrows are the keys themselves) and what they do.
  keys: () => [
    [TK.t("keys.tab_key"), TK.t("keys.tab")],
    ["\u2190 \u2191 \u2192 \u2193", TK.t("keys.arrows")],
    [TK.t("keys.enter_key"), TK.t("keys.enter")],
    [TK.t("keys.rotate_key"), TK.t("keys.rotate")],
    ["U", TK.t("keys.undo")],
    ["H", TK.t("keys.hint")],
    [TK.t("keys.escape_key"), TK.t("keys.escape")],
    ["+ / \u2212", TK.t("keys.zoom")],
  ],
};

const h = TK.h;
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
let token = new URLSearchParams(location.hash.slice(1)).get("t");
const $ = (id) => document.getElementById(id);

let R = null; // the state as sent: the last full state with every delta since applied
let S = null; // the state as drawn: R with the board joined, seats merged, legal expanded
let hintAsked = 0; // when a hint was last asked for (one at a time, debounced)
let ws = null;
let retry = 0;
let lastDrawn = null;
let lastCurrent = null;
let overShown = false;
let announced = -1; // log lines announced to screen readers so far
let noticeTimer = null;
let previous = null; // what the board showed last time: placed cells, figures per seat and kind
const ui = { rotation: 0, fig: null, cell: null, hint: null, refusal: null, hover: null, focus: null, zoom: 1, lean: 1 };

// ------------------------------------------------------------------ connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}?lang=${encodeURIComponent(TK.lang)}`);
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: token || null }));
    setConn(true);
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    setConn(false);
    if (ev.code === 4404) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

function setConn(on) {
  const c = $("conn");
  c.className = "conn " + (on ? "on" : "off");
  c.title = on ? TEXT.connected() : TEXT.reconnectingTitle();
  if (!on && S) $("status").textContent = TEXT.reconnecting();
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else notify(TEXT.notConnected(), "error");
}

function act(action) {
  if (!S) return;
  ui.hint = null;
  send({ type: "action", action, state: S.state });
}

// One notification area (in the turn card, in the page's flow: it never covers the board or
// the buttons). A new notice replaces the last one.
function notify(content, kind, ms) {
  const box = $("notice");
  clearTimeout(noticeTimer);
  box.className = "notice" + (kind ? " " + kind : "");
  box.replaceChildren(content instanceof Node ? content : document.createTextNode(String(content)));
  noticeTimer = setTimeout(() => box.replaceChildren(), ms || 8000);
}

// Screen readers hear other players' moves and whose turn it is: each news its own line
// (the texts come whole from the catalogs and the server; nothing is joined into a sentence).
function announce(news) {
  const box = $("announce");
  box.textContent = "";
  setTimeout(() => { box.replaceChildren(...news.map((text) => h("div", {}, text))); }, 30);
}

// ------------------------------------------------------------------ protocol (docs/web.md)

// Set (or, for a path alone, delete) the value at a path of keys and indexes; four
// items splice a string: keep its first op[2] and last op[3] characters around op[1].
function patch(target, op) {
  const path = op[0];
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1];
  if (op.length === 1) { if (Array.isArray(target)) target.splice(last, 1); else delete target[last]; }
  else if (op.length === 4) {
    const old = target[last];
    target[last] = old.slice(0, op[2]) + op[1] + old.slice(old.length - op[3]);
  } else target[last] = op[1];
}

// Legal actions arrive per verb as one key list and rows of values (docs/web.md):
// columns equal in every row come once ("same"), list columns as the fields they are
// made of ("lists"), and a column with templates holds an index, the row's own fields
// written into {field}.
function expandLegal(legal) {
  const out = {};
  for (const [verb, table] of Object.entries(legal || {})) {
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

// The drawn tile's picture in each rotation, from the board's shapes (size 40 of 50).
function tilePicture(group) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="tk tile-svg" viewBox="-42 -36.64 84 73.28" width="84" height="73.28" aria-hidden="true"><g transform="scale(0.8)">${group}</g></svg>`;
}

function derive(r) {
  const s = Object.assign({}, r);
  const b = r.board;
  // <defs> in id order, as the server draws it (shapes added by a delta come last in b.defs)
  s.svg = b.root + b.head + Object.keys(b.defs).sort().map((k) => b.defs[k]).join("") + b.mid + b.order.map((c) => b.spaces[c]).join("") + b.tail;
  s.position = Object.assign({}, r.position, { board: Object.values(r.position.board || {}) });
  s.ap_max = r.rule_set.action_points;
  s.costs = r.rule_set.costs;
  s.player_info = r.player_info.map((p, i) => Object.assign({}, r.seats[i], p));
  s.legal = expandLegal(r.legal);
  if (r.drawn) {
    const t = r.drawn.rotations; // six pictures as head + middles[r] + tail (docs/web.md)
    const groups = t.middles.map((m) => t.head + m + t.tail);
    s.drawn = Object.assign({}, r.drawn, { groups, svgs: groups.map(tilePicture) });
  }
  return s;
}

function applyDelta(msg) {
  if (!R || msg.base !== R.state) return false;
  for (const op of msg.set || []) patch(R, op);
  if (msg.log) R.log.splice(msg.log.from, R.log.length, ...msg.log.lines);
  R.state = msg.state;
  return true;
}

function onMessage(msg) {
  if (msg.type === "state" || msg.type === "delta") {
    if (msg.type === "state") R = msg;
    else if (!applyDelta(msg)) { send({ type: "sync" }); return; }
    const changed = !S || R.state !== S.state;
    S = derive(R);
    if (changed) { ui.refusal = null; ui.hint = null; }
    render();
  } else if (msg.type === "ack") {
    // the move was stored; the delta that follows shows it
  } else if (msg.type === "error") {
    if (msg.code === "unknown_game") {
      $("status").textContent = TEXT.noSuchGame();
      $("board").innerHTML = "";
      $("turn-body").replaceChildren(h("p", {}, msg.message), h("a", { class: "btn", href: "/" }, TEXT.startNew()));
      return;
    }
    if (msg.code === "bad_token") {
      token = null; // reconnect as a spectator
      notify(TEXT.badToken(), "error");
      return;
    }
    if (msg.code === "stale") { notify(TEXT.stale()); return; }
    if (msg.code === "hint_busy") return; // the hint asked for earlier is on its way
    if (msg.code === "rate_limited") { notify(TEXT.slowDown(msg.message), "error"); return; }
    ui.refusal = msg; // shown once: in the turn card, announced as an alert
    keepFocus(renderTurnCard);
  } else if (msg.type === "hint") {
    ui.hint = msg;
    keepFocus(() => { renderTurnCard(); decorateBoard(); });
  }
}

// One hint at a time: a press within 2 s of the last, or while one is on its way for
// this position, sends nothing (the server would refuse it with hint_busy anyway).
function askHint() {
  const now = Date.now();
  if (now - hintAsked < 2000 || (ui.hint && ui.hint.state === S.state)) return false;
  hintAsked = now;
  send({ type: "hint" });
  return true;
}

// ------------------------------------------------------------------ helpers

const seat = (p) => S.seats[p];
const mine = () => S && S.your_turn;
const apPhase = () => mine() && (S.phase === "turn" || S.phase === "scoring");
// Legal actions come from the server, each with its notation (action), cost, the spaces it
// touches (cells) and its text; the page knows no rule.
const legal = (verb) => (S && S.legal && S.legal[verb]) || [];
const allLegal = () => Object.values((S && S.legal) || {}).flat();
const figOf = (e) => (e.leader ? "L" : "W");
const target = (e) => e.cells[e.cells.length - 1];
const hotseat = () => S.you.length > 1;
// Verbs with their own controls: tiles and moves on the board, end in the turn card,
// bids and picks in the auction card. Every other legal action is a button.
const OWN_CONTROLS = new Set(["tile", "move", "end", "bid", "pass", "pick"]);

// A seat's name with its mark; "(you)" only when this screen plays one seat (in hot-seat
// every seat is "you", so the seat to play is named instead).
function seatLabel(p, withChip = true) {
  const s = seat(p);
  const you = S.you.length === 1 && S.you[0] === p && s.name.toLowerCase() !== "you" && s.name !== TEXT.youTag();
  const text = you ? TEXT.seatYou(s.name) : s.kind === "bot" ? TEXT.seatBot(s.name, s.level) : s.name;
  return h("span", { class: "who" }, withChip ? TK.chip(s) : null, " ", text);
}

function costBadge(cost) { return cost === undefined || cost === null ? null : h("span", { class: "cost" }, TEXT.cost(cost)); }

function button(label, action, opts = {}) {
  const b = h("button", { class: "btn " + (opts.cls || ""), type: "button", title: opts.title || action, "data-action": action, id: opts.id }, label, costBadge(opts.cost));
  b.addEventListener("click", () => act(action));
  return b;
}

// A treasure type as its icon (the board's <defs> define one per type: colour and glyph).
function treasureIcon(letter, count) {
  const def = document.getElementById(`tk-treasure-${letter}`);
  const name = (def && def.getAttribute("data-name")) || letter.toUpperCase();
  const label = TEXT.treasure(name, count);
  const icon = h("span", { class: "tr", title: label, role: "img", "aria-label": label });
  icon.innerHTML = `<svg viewBox="-12 -12 24 24" width="22" height="22" aria-hidden="true" focusable="false"><use href="#tk-treasure-${letter}"/></svg>`;
  if (count !== undefined && count !== null) icon.append(h("span", { class: "tr-n", "aria-hidden": "true" }, "\u00d7" + TK.format(count)));
  return icon;
}

// A refusal, once: the engine's reason, then the rule it rests on with its text.
function refusalView(err) {
  const parts = [h("strong", {}, TEXT.notAllowed()), " ", err.message || TEXT.refused()];
  if (err.rule && err.rule !== "NOTATION") {
    const text = TK.rules && TK.rules[err.rule];
    const link = h("a", { href: TK.ruleUrl(err.rule), target: "_blank", class: "rule-link", hreflang: TK.lang }, TEXT.rule(err.rule));
    parts.push(h("span", { class: "rule-line" }, ...(text ? TEXT.ruleLine(link, h("span", { class: "rule-text" }, text)) : [link])));
  }
  return h("span", { class: "refusal-text" }, ...parts);
}

// ------------------------------------------------------------------ render

// A re-render replaces the cards' buttons: the focus goes back to the same button if it is
// still there, else to the board, so that keyboard users never fall back to the page's top.
function keepFocus(draw) {
  const active = document.activeElement;
  const inPage = active && active !== document.body && active.closest && active.closest("main");
  const key = inPage && !active.closest("#board") ? { id: active.id, action: active.dataset && active.dataset.action } : null;
  draw();
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const again = (key.id && $(key.id)) || (key.action && document.querySelector(`main [data-action="${CSS.escape(key.action)}"]`));
  if (again && !again.disabled) { again.focus({ preventScroll: true }); return; }
  const space = ui.focus && spaces()[ui.focus];
  if (space) space.focus({ preventScroll: true });
}

function render() { keepFocus(draw); }

function draw() {
  document.title = TEXT.title(S.rules, S.over ? null : seat(S.current).name);
  // a new tile to place (for whoever places it): start turned as it first fits
  const drawnKey = S.drawn ? `${S.drawn.tile}|${S.current}|${legal("tile").length > 0}` : null;
  if (S.drawn && drawnKey !== lastDrawn) {
    lastDrawn = drawnKey;
    const rots = new Set(legal("tile").map((e) => e.rotation));
    ui.rotation = rots.size && !rots.has(0) ? Math.min(...rots) : 0;
  }
  if (!S.drawn) lastDrawn = null;
  const turnChanged = lastCurrent !== S.current;
  if (lastCurrent !== null && turnChanged && hotseat() && S.you.includes(S.current) && !S.over) {
    notify(h("span", {}, ...TEXT.passDevice(seatLabel(S.current))));
  }
  lastCurrent = S.current;
  if (ui.fig && !figureExists(ui.fig)) ui.fig = null;
  $("status").replaceChildren(statusLine());
  renderBoard();
  renderTurnCard();
  renderTileCard();
  renderAuction();
  renderActions();
  renderSelection();
  renderPlayers();
  renderLog();
  renderLinks();
  announceNews(turnChanged);
  $("dock").classList.toggle("docked", !(S.phase === "auction" || S.phase === "pick") || S.over);
  if (S.over && !overShown) { overShown = true; showGameOver(); }
}

function announceNews(turnChanged) {
  const lines = S.log;
  const news = [];
  if (announced >= 0) {
    for (const line of lines.slice(announced)) {
      if (line.kind === "action" && S.you.includes(line.seat)) continue; // your own moves you know
      news.push(line.kind === "chance" ? line.text : TEXT.logLine(seat(line.seat).name, line.text));
    }
  }
  announced = lines.length;
  if (turnChanged && !S.over) news.push(mine() ? (hotseat() ? TEXT.announceYoursAs(seat(S.current).name) : TEXT.announceYours()) : TEXT.announceTurn(seat(S.current).name));
  if (S.over && turnChanged) news.push(TEXT.announceOver());
  if (news.length) announce(news.slice(-4));
}

function statusLine() {
  if (S.over) return h("span", {}, TEXT.gameOver());
  const line = h("span", {}, ...TEXT.toPlay(seatLabel(S.current), TEXT.phase(S.phase)));
  return S.spectator ? h("span", {}, ...TEXT.watching(line)) : line;
}

function figureExists(f) {
  return !!(S.position.figures[S.current] && (f.fig === "L" ? S.position.figures[S.current].leader === f.cell : (S.position.figures[S.current].workers[f.cell] || 0) > 0));
}

function renderTurnCard() {
  const card = $("turn-body");
  if (!S) return;
  const parts = [];
  const cur = seat(S.current);
  if (S.over) {
    parts.push(h("div", { class: "turn-banner" }, TEXT.winners(S.winners.map((p) => seat(p).name))));
    parts.push(h("div", { class: "row" }, h("button", { class: "btn primary", type: "button", onclick: showGameOver }, TEXT.finalScores()), h("a", { class: "btn", href: `/replay/${gameId}` }, TEXT.replay())));
  } else {
    const banner = h("div", { class: "turn-banner" + (mine() ? " mine" : "") });
    if (mine()) banner.append(TK.chip(cur), " " + (hotseat() ? TEXT.yourTurnAs(cur.name) : TEXT.yourTurn()));
    else if (cur.kind === "bot") banner.append(TK.chip(cur), " " + TEXT.thinking(cur.name));
    else banner.append(TK.chip(cur), " " + TEXT.waiting(cur.name));
    parts.push(banner);
    parts.push(h("p", { class: "hint-text help" }, phaseHelp()));
    const bar = h("div", { class: "action-bar" });
    if (S.phase === "turn" || S.phase === "scoring") bar.append(apPips());
    if (mine()) {
      if (S.phase === "turn" || S.phase === "scoring") {
        const end = legal("end")[0];
        bar.append(button(S.phase === "scoring" ? TEXT.endScore() : TEXT.endTurn(), end ? end.action : "end", { cls: "primary", title: end ? end.text : "" }));
      }
      if (S.phase !== "auction" && S.phase !== "pick") {
        const undo = h("button", { class: "btn", id: "undo", type: "button", disabled: !S.can_undo, title: TEXT.undoTitle() }, TEXT.undo());
        undo.addEventListener("click", () => send({ type: "undo", state: S.state }));
        bar.append(undo);
      }
      const hint = h("button", { class: "btn", id: "hint", type: "button", title: TEXT.hintTitle() }, TEXT.hint());
      hint.addEventListener("click", () => { if (askHint()) { hint.disabled = true; hint.textContent = TEXT.hintThinking(); } });
      bar.append(hint);
    }
    if (bar.children.length) parts.push(bar);
  }
  if (ui.hint && S && ui.hint.state === S.state) {
    const play = h("button", { class: "btn small primary", type: "button" }, TEXT.playIt());
    play.addEventListener("click", () => act(ui.hint.action));
    parts.push(h("div", { class: "hint-box", id: "hint-box" },
      h("strong", {}, TEXT.suggestion()), " ", ui.hint.text, " ", h("code", {}, ui.hint.action), " ", play));
  }
  if (ui.refusal) {
    const close = h("button", { class: "close", type: "button", "aria-label": TEXT.dismiss() }, "\u00d7");
    close.addEventListener("click", () => { ui.refusal = null; renderTurnCard(); });
    parts.push(h("div", { class: "refusal", id: "refusal", role: "alert" }, close, refusalView(ui.refusal)));
  }
  card.replaceChildren(...parts);
}

function phaseHelp() {
  const cur = seat(S.current);
  if (S.phase === "tile") return mine() ? TEXT.helpTile() : TEXT.helpTileOther(cur.name);
  if (S.phase === "turn") return mine() ? TEXT.helpTurn() : TEXT.helpTurnOther(cur.name);
  if (S.phase === "scoring") return TEXT.helpScoring(S.scoring.final, S.scoring.rounds, S.scoring.queue.map((p) => seat(p).name).join(" \u2192 ")); // the order to score in
  if (S.phase === "auction") return TEXT.helpAuction();
  if (S.phase === "pick") return mine() ? TEXT.helpPick() : TEXT.helpPickOther(cur.name);
  return "";
}

function apPips() {
  const box = h("div", { class: "ap", role: "img", "aria-label": TEXT.apLeft(S.ap, S.ap_max) });
  for (let i = 0; i < S.ap_max; i++) box.append(h("span", { class: "pip" + (i < S.ap ? " full" : "") }));
  box.append(h("span", { class: "ap-text", id: "ap", "aria-hidden": "true" }, TEXT.apShort(S.ap)));
  return box;
}

// ------------------------------------------------------------------ tile card

function tileRotations() {
  const byCell = {};
  for (const e of legal("tile")) (byCell[e.cells[0]] = byCell[e.cells[0]] || new Set()).add(e.rotation);
  return byCell;
}

function renderTileCard() {
  const card = $("tile-card");
  if (!S.drawn || S.over) { card.hidden = true; return; }
  card.hidden = false;
  const pic = h("div", { html: S.drawn.svgs[ui.rotation] });
  const items = [h("h2", {}, mine() ? TEXT.yourTile() : TEXT.drawnTile()), h("div", { class: "tile-pic" }, pic, h("div", {}, h("strong", {}, S.drawn.describe), h("div", { class: "hint-text" }, TEXT.turned(S.drawn.tile, ui.rotation))))];
  if (mine()) {
    const left = h("button", { class: "btn", id: "rot-left", type: "button", title: TEXT.turnLeftTitle(), "aria-label": TEXT.turnLeft() }, "\u27f2");
    const right = h("button", { class: "btn", id: "rot-right", type: "button", title: TEXT.turnRightTitle(), "aria-label": TEXT.turnRight() }, "\u27f3");
    left.addEventListener("click", () => rotate(-1));
    right.addEventListener("click", () => rotate(1));
    const fits = legal("tile").filter((e) => e.rotation === ui.rotation).length;
    items.push(h("div", { class: "row" }, left, right, h("span", { class: "hint-text", role: "status" }, fits ? TEXT.fitsAsTurned(fits) : TEXT.noFit())));
  }
  card.replaceChildren(...items);
}

function rotate(d) {
  ui.rotation = (ui.rotation + d + 6) % 6;
  renderTileCard();
  decorateBoard();
}

// ------------------------------------------------------------------ auction

// The bids and passes of the auction under way: the log's last lines, back to the last
// line that is neither.
function auctionHistory() {
  const out = [];
  for (let i = S.log.length - 1; i >= 0; i--) {
    const line = S.log[i];
    const verb = (line.notation || "").split(" ")[0];
    if (line.kind !== "action" || (verb !== "bid" && verb !== "pass")) break;
    out.unshift(line);
  }
  return out;
}

function renderAuction() {
  const card = $("auction-card");
  const show = (S.phase === "auction" || S.phase === "pick") && !S.over;
  if (!show && !(S.rule_set.auction && S.display.length)) { card.hidden = true; return; }
  card.hidden = false;
  const items = [h("h2", {}, TEXT.auction())];
  const disp = h("ul", { class: "auction-display" });
  const picks = new Map(legal("pick").map((e) => [e.tile_id, e]));
  for (const d of S.display) {
    const cell = h("li", { class: "disp" }, h("div", { class: "disp-pic", html: d.svg }), h("div", { class: "disp-text" }, ...TEXT.offers(h("strong", {}, d.describe), d.tile).map((part) => (part instanceof Node ? part : h("span", { class: "hint-text" }, part)))));
    const pick = picks.get(d.tile);
    if (pick) cell.append(button(TEXT.pick(), pick.action, { cls: "primary", title: pick.text }));
    disp.append(cell);
  }
  items.push(disp);
  if (S.phase === "auction" && !S.over) {
    const a = S.auction;
    const high = a.high_bidder === null ? TEXT.noBid() : TEXT.bids(seat(a.high_bidder).name, a.high_bid);
    items.push(h("p", { class: "auction-state" }, TEXT.highest(high), " ", a.passed.length ? TEXT.passed(a.passed.map((p) => seat(p).name)) : ""));
    const rule = TK.rules && TK.rules["AUC-5"];
    if (rule) items.push(h("p", { class: "win-buys" }, h("strong", {}, TEXT.winBuys()), " ", rule, " ", h("a", { href: TK.ruleUrl("AUC-5"), target: "_blank", hreflang: TK.lang }, TEXT.rule("AUC-5"))));
    if (mine()) {
      const bids = legal("bid");
      const byAmount = new Map(bids.map((e) => [e.amount, e]));
      const min = bids.length ? bids[0].amount : null;
      const max = bids.length ? bids[bids.length - 1].amount : null;
      const input = h("input", { type: "number", id: "bid-amount", min: min ?? 0, max: max ?? 0, value: min ?? 0, "aria-label": TEXT.bidAmount(), inputmode: "numeric" });
      const bid = h("button", { class: "btn primary", id: "bid", type: "button", disabled: min === null }, TEXT.bid());
      bid.addEventListener("click", () => {
        const offer = bids.find((e) => String(e.amount) === String(input.value));
        act(offer ? offer.action : `bid ${input.value}`); // an amount not on offer: the engine explains
      });
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") bid.click(); });
      const quick = [];
      if (min !== null) {
        const base = a.high_bidder === null ? null : a.high_bid; // no bid yet: the first amounts
        for (const by of [1, 2]) {
          const amount = base === null ? min + by - 1 : base + by;
          const e = byAmount.get(amount);
          if (e) quick.push(button(base === null ? TEXT.bidAt(amount) : TEXT.raise(by, amount), e.action, { cls: "quick", title: e.text }));
        }
      }
      const pass = legal("pass")[0];
      items.push(h("div", { class: "bid-row" }, input, bid, ...quick, button(TEXT.pass(), pass ? pass.action : "pass", { title: pass ? pass.text : "" })));
      items.push(h("p", { class: "hint-text" }, min === null ? TEXT.cannotOutbid() : TEXT.bidRange(min, max), " ", TEXT.price(S.player_info[S.current].score)));
    }
    const hist = auctionHistory();
    const list = h("ol", { class: "bid-history", "aria-label": TEXT.history() });
    for (const line of hist) list.append(h("li", {}, TK.chip(seat(line.seat), false, 16), " ", TEXT.logLine(seat(line.seat).name, line.text)));
    items.push(h("h3", {}, TEXT.history()), hist.length ? list : h("p", { class: "hint-text" }, TEXT.noBidsYet()));
  }
  card.replaceChildren(...items);
}

// ------------------------------------------------------------------ actions

function actionButton(e, cls) {
  const label = [e.text];
  if (e.verb === "swap" && e.give && e.take) {
    label.unshift(h("span", { class: "swap-icons" }, treasureIcon(e.give), "\u2192", treasureIcon(e.take)));
  }
  return button(label, e.action, { cost: e.cost, cls: "small" + (cls ? " " + cls : ""), title: e.action });
}

function renderActions() {
  const card = $("actions-card");
  if (!apPhase()) { card.hidden = true; return; }
  card.hidden = false;
  const list = h("div", { class: "actions-list" });
  for (const [verb, entries] of Object.entries(S.legal || {})) {
    if (OWN_CONTROLS.has(verb) || !entries.length) continue;
    const title = (S.verbs && S.verbs[verb]) || verb;
    list.append(h("h3", { class: "group-title" }, title.charAt(0).toUpperCase() + title.slice(1)));
    const row = h("div", { class: "row" });
    for (const e of entries.slice(0, 24)) row.append(actionButton(e));
    list.append(row);
  }
  if (!list.children.length) list.append(h("p", { class: "hint-text" }, TEXT.onlyMoves()));
  card.replaceChildren(h("h2", {}, TEXT.actionsNow()), list);
}

// The selected space: what is on it, and the legal actions on it alone (moves are made
// by selecting a figure, then its target).
function spaceActions(cell) {
  return allLegal().filter((e) => !OWN_CONTROLS.has(e.verb) && e.cells.length === 1 && e.cells[0] === cell);
}

function describeSpace(entry) {
  const parts = [TK.term("kind." + entry.kind, entry.kind)];
  if (entry.level !== undefined) parts.push(TEXT.value(entry.level, entry.printed));
  if (entry.tokens !== undefined) parts.push(TEXT.tokensLeft(entry.tokens));
  return parts.join(TEXT.separator());
}

function renderSelection() {
  const card = $("selection-card");
  if (!ui.cell || !S) { card.hidden = true; return; }
  const entry = (S.position.board || []).find((b) => b.at === ui.cell);
  card.hidden = false;
  const items = [h("h2", {}, TEXT.space(ui.cell))];
  if (!entry) {
    items.push(h("p", {}, TEXT.emptySpace()));
  } else {
    items.push(h("p", {}, describeSpace(entry)));
    if (entry.camp !== undefined) items.push(h("p", {}, ...TEXT.campOf(seatLabel(entry.camp))));
    if (entry.guard) items.push(h("p", {}, ...TEXT.guardedBy(seatLabel(entry.guard.player))));
    S.position.figures.forEach((f, p) => {
      const n = f.workers[ui.cell] || 0;
      const lead = f.leader === ui.cell;
      if (n || lead) items.push(h("div", {}, ...TEXT.figuresHere(seatLabel(p), n, lead)));
    });
  }
  if (apPhase()) {
    const here = spaceActions(ui.cell);
    if (here.length) items.push(h("div", { class: "row" }, ...here.map((e) => actionButton(e))));
    else if (entry) items.push(h("p", { class: "hint-text" }, TEXT.noActionHere()));
  }
  const close = h("button", { class: "btn small", type: "button" }, TEXT.close());
  close.addEventListener("click", () => { ui.cell = null; renderSelection(); decorateBoard(); });
  items.push(close);
  card.replaceChildren(...items);
}

// ------------------------------------------------------------------ players, log, links

function renderPlayers() {
  const box = $("players");
  box.replaceChildren();
  const actions = S.rule_set.actions;
  for (const p of S.player_info) {
    const row = h("div", { class: "player" + (p.seat === S.current && !S.over ? " current" : ""), "data-seat": p.seat });
    row.append(TK.chip(p, false, 24));
    const tags = [];
    if (S.you.includes(p.seat) && !hotseat()) tags.push(h("span", { class: "tag" }, TEXT.youTag()));
    if (p.kind === "bot") tags.push(h("span", { class: "tag" }, TEXT.bot(p.level)));
    if (S.over && S.winners.includes(p.seat)) tags.push(h("span", { class: "tag" }, TEXT.winner()));
    if (p.seat === S.current && !S.over) tags.push(h("span", { class: "tag" }, TEXT.toPlayTag()));
    row.append(h("div", { class: "name" }, p.name, ...tags));
    row.append(h("div", { class: "score", title: TEXT.score() }, TK.format(p.score)));
    const details = h("div", { class: "details" });
    const tr = h("span", { class: "treasures", title: TEXT.treasuresTitle() });
    const types = Object.entries(p.treasures);
    if (types.length) types.forEach(([t, n]) => tr.append(treasureIcon(t, n)));
    else tr.append(TEXT.noTreasures());
    details.append(tr);
    details.append(h("span", {}, TEXT.supply(p.supply_workers, p.leader === "supply")));
    if (actions.includes("camp")) details.append(h("span", {}, TEXT.camps(p.camps_left)));
    if (actions.includes("guard")) details.append(h("span", {}, TEXT.guards(p.guards_left)));
    if (S.rule_set.auction) details.append(h("span", {}, p.marker ? TEXT.markerUp() : TEXT.markerDown()));
    details.append(h("span", { title: TEXT.worthTitle() }, TEXT.worth(p.temple_points + p.treasure_points)));
    row.append(details);
    box.append(row);
  }
}

// Chance lines (tiles drawn, treasures found) are the game's, not a player's: no name.
function renderLog() {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  box.replaceChildren();
  const lines = S.log.slice(-250);
  for (const line of lines) {
    const s = seat(line.seat);
    const kind = line.kind === "action" ? "" : line.kind;
    const who = kind === "chance" ? h("span", { class: "chance-mark", "aria-hidden": "true" }, "\u21b3") : TK.chip(s, false, 16);
    const text = kind === "chance" ? line.text : TEXT.logLine(s.name, line.text);
    const found = kind === "chance" && /^\*token [a-h]$/.test(line.notation || "") ? treasureIcon(line.notation.slice(-1)) : null;
    box.append(h("div", { class: "line " + kind }, who, h("span", {}, text), found, line.notation && kind !== "chance" ? h("span", { class: "notation" }, line.notation) : null));
  }
  if (atBottom || lines.length < 12) box.scrollTop = box.scrollHeight;
}

function renderLinks() {
  const card = $("links-card");
  const saved = TK.myGames()[gameId] || {};
  const spectator = `${location.origin}/play/${gameId}`;
  const items = [h("h2", {}, TEXT.links())];
  if (saved.links && saved.links.length) {
    for (const l of saved.links) {
      const b = h("button", { class: "btn small", type: "button" }, TEXT.copy());
      b.addEventListener("click", () => TK.copy(l.url, b));
      items.push(h("div", { class: "row" }, TEXT.inviteFor(l.name), b));
    }
  }
  const sb = h("button", { class: "btn small", type: "button" }, TEXT.copy());
  sb.addEventListener("click", () => TK.copy(spectator, sb));
  items.push(h("div", { class: "row" }, TEXT.spectatorLink(), sb));
  items.push(h("div", { class: "row" }, h("a", { class: "btn small", href: `/api/games/${gameId}/record`, download: `tikal-${gameId}.json` }, TEXT.download()), h("a", { class: "btn small", href: `/replay/${gameId}` }, TEXT.replay()), h("a", { class: "btn small", href: TK.ruleUrl(), target: "_blank", hreflang: TK.lang }, TEXT.rules())));
  if (S.spectator) items.push(h("p", { class: "hint-text" }, TEXT.watchingNote()));
  if (S.seeded) items.push(h("p", { class: "hint-text", id: "seeded" }, TEXT.seeded()));
  card.replaceChildren(...items);
  $("replay-link").href = `/replay/${gameId}`;
  $("record-link").href = `/api/games/${gameId}/record`;
}

function showGameOver() {
  document.querySelector(".modal")?.remove();
  const rows = S.player_info.slice().sort((a, b) => b.score - a.score).map((p) => h("tr", {}, h("td", {}, TK.chip(p), " ", S.winners.includes(p.seat) ? TEXT.finalWinner(p.name) : p.name), h("td", { class: "num" }, TK.format(p.score)), h("td", {}, Object.entries(p.treasures).map(([t, n]) => treasureIcon(t, n)))));
  const close = h("button", { class: "btn", type: "button" }, TEXT.close());
  const opener = document.activeElement;
  const modal = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" }, h("div", { class: "box" },
    h("h2", { id: "over-title" }, TEXT.finalScores()),
    h("table", { class: "scores", id: "final-scores" }, h("tr", {}, h("th", {}, TEXT.player()), h("th", { class: "num" }, TEXT.finalScore()), h("th", {}, TEXT.treasures())), ...rows),
    h("div", { class: "row" }, h("a", { class: "btn primary", href: `/replay/${gameId}` }, TEXT.watchReplay()), h("a", { class: "btn", href: `/api/games/${gameId}/record`, download: `tikal-${gameId}.json` }, TEXT.download()), h("a", { class: "btn", href: "/" }, TEXT.newGame()), close)));
  const shut = () => { modal.remove(); if (opener && opener.focus) opener.focus(); };
  close.addEventListener("click", shut);
  modal.addEventListener("click", (e) => { if (e.target === modal) shut(); });
  document.body.append(modal);
  close.focus();
}

// ------------------------------------------------------------------ board

function renderBoard() {
  const hadFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("#board"));
  $("board").innerHTML = S.svg;
  const svg = $("board").querySelector("svg");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", TEXT.boardName());
  svg.addEventListener("click", onBoardClick);
  svg.addEventListener("mouseover", onBoardHover);
  svg.addEventListener("mouseleave", () => { ui.hover = null; drawGhost(); });
  svg.addEventListener("keydown", onBoardKey);
  svg.addEventListener("focusin", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.space");
    if (g) { ui.focus = g.dataset.cell; setRoving(g); if (S.phase === "tile") { ui.hover = g.dataset.cell; drawGhost(); } }
  });
  animateChanges(svg);
  applyZoom();
  const sp = spaces();
  if (!ui.focus || !sp[ui.focus]) ui.focus = initialFocus(sp);
  for (const g of Object.values(sp)) { g.setAttribute("tabindex", "-1"); g.setAttribute("role", "button"); g.setAttribute("focusable", "true"); }
  if (sp[ui.focus]) sp[ui.focus].setAttribute("tabindex", "0");
  decorateBoard();
  if (hadFocus && sp[ui.focus]) sp[ui.focus].focus({ preventScroll: true });
}

function initialFocus(sp) {
  const placed = Object.values(sp).find((g) => !g.classList.contains("empty"));
  return (placed || Object.values(sp)[0] || { dataset: {} }).dataset.cell || null;
}

function setRoving(g) {
  $("board").querySelectorAll('g.space[tabindex="0"]').forEach((n) => { if (n !== g) n.setAttribute("tabindex", "-1"); });
  g.setAttribute("tabindex", "0");
}

// Short animations: a tile placed since the last picture grows in; a figure that left one
// space for another slides over from where it was (one that came from the supply pops up).
// None when the reader asked for reduced motion (app.css turns the CSS ones off too).
function animateChanges(svg) {
  const cells = new Set();
  const counts = {}; // "seat fig" -> {cell: count}
  svg.querySelectorAll("g.space:not(.empty)").forEach((g) => cells.add(g.dataset.cell));
  svg.querySelectorAll("g.fig").forEach((g) => {
    const who = `${g.dataset.seat} ${g.dataset.fig}`;
    (counts[who] = counts[who] || {})[g.dataset.cell] = +g.dataset.count;
  });
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (previous) {
    svg.querySelectorAll("g.space:not(.empty)").forEach((g) => { if (!previous.cells.has(g.dataset.cell)) g.classList.add("fresh"); });
    const sp = {};
    svg.querySelectorAll("g.space").forEach((g) => (sp[g.dataset.cell] = g));
    svg.querySelectorAll("g.fig").forEach((g) => {
      const who = `${g.dataset.seat} ${g.dataset.fig}`;
      const before = previous.counts[who] || {};
      if ((before[g.dataset.cell] || 0) >= +g.dataset.count) return;
      const now = counts[who] || {};
      const from = Object.keys(before).find((c) => (now[c] || 0) < before[c] && sp[c]);
      if (!from || still || !g.animate) { g.classList.add("arrive"); return; }
      const dx = sp[from].dataset.x - sp[g.dataset.cell].dataset.x;
      const dy = sp[from].dataset.y - sp[g.dataset.cell].dataset.y;
      g.classList.add("slide");
      g.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 380, easing: "ease-out" });
    });
  }
  previous = { cells, counts };
}

function spaces() {
  const map = {};
  $("board").querySelectorAll("g.space").forEach((g) => (map[g.dataset.cell] = g));
  return map;
}

function svgEl(tag, attrs) {
  const n = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

function moveTargets() {
  if (!ui.fig) return {};
  const out = {};
  for (const e of legal("move").concat(legal("path"))) {
    if (e.cells[0] !== ui.fig.cell || figOf(e) !== ui.fig.fig) continue;
    const dst = target(e);
    if (!out[dst] || e.cost < out[dst].cost) out[dst] = e;
  }
  return out;
}

function decorateBoard() {
  const svg = $("board").querySelector("svg");
  if (!svg || !S) return;
  const sp = spaces();
  const overlay = svg.querySelector("g.overlay");
  overlay.replaceChildren();
  const extra = {}; // what the accessible name of a space adds to its description
  const add = (cell, text) => (extra[cell] = extra[cell] || []).push(text);
  Object.values(sp).forEach((g) => g.classList.remove("target", "target-weak", "picked", "hint"));
  svg.querySelectorAll("g.fig").forEach((g) => g.classList.remove("mine", "selected", "movable"));
  svg.classList.toggle("interactive", !!mine());
  if (ui.cell && sp[ui.cell]) { sp[ui.cell].classList.add("picked"); add(ui.cell, TEXT.selected()); }
  if (mine() && S.phase === "tile") {
    for (const [cell, rots] of Object.entries(tileRotations())) {
      if (!sp[cell]) continue;
      const fits = rots.has(ui.rotation);
      sp[cell].classList.add(fits ? "target" : "target-weak");
      add(cell, fits ? TEXT.fits() : TEXT.fitsTurned());
    }
  }
  if (apPhase()) {
    const movable = new Set(legal("move").concat(legal("path")).map((e) => `${figOf(e)}@${e.cells[0]}`));
    svg.querySelectorAll(`g.fig[data-seat="${S.current}"]`).forEach((g) => {
      g.classList.add("mine");
      if (movable.has(`${g.dataset.fig}@${g.dataset.cell}`)) g.classList.add("movable");
      if (ui.fig && ui.fig.cell === g.dataset.cell && ui.fig.fig === g.dataset.fig) {
        g.classList.add("selected");
        ring(overlay, g);
        add(g.dataset.cell, TEXT.selectedFigure((g.querySelector("title") || {}).textContent || ""));
      }
    });
    for (const [dst, e] of Object.entries(moveTargets())) {
      const g = sp[dst];
      if (!g) continue;
      g.classList.add("target");
      badge(overlay, g, TK.format(e.cost));
      add(dst, TEXT.target(e.cost));
    }
  }
  if (ui.hint && ui.hint.state === S.state) {
    for (const c of ui.hint.cells || []) if (sp[c]) { sp[c].classList.add("hint"); add(c, TEXT.hinted()); }
  }
  for (const [cell, g] of Object.entries(sp)) g.setAttribute("aria-label", spaceName(g, extra[cell]));
  drawGhost();
}

// A space's accessible name: the server's description (label, tile, temple value, camp,
// guard), the figures on it per player, and what choosing it would do now.
function spaceName(g, extra) {
  const title = g.querySelector(":scope > title, :scope > g.tile > title");
  const words = [title ? title.textContent : g.dataset.cell];
  g.querySelectorAll("g.fig").forEach((f) => {
    const who = S.seats[+f.dataset.seat];
    const title = f.querySelector("title");
    const figure = title ? title.textContent : "";
    words.push(who ? TEXT.figureOf(who.name, figure) : figure);
  });
  if (extra) words.push(...extra);
  return words.join(TEXT.separator());
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

function drawGhost() {
  const svg = $("board").querySelector("svg");
  if (!svg || !S) return;
  svg.querySelectorAll(".ghost").forEach((n) => n.remove());
  if (!S.drawn) return;
  let cell = null, rot = ui.rotation;
  if (mine() && S.phase === "tile" && ui.hover) {
    const rots = tileRotations()[ui.hover];
    if (rots) { cell = ui.hover; if (!rots.has(rot)) rot = [...rots][0]; }
  }
  if (ui.hint && ui.hint.state === S.state && ui.hint.verb === "tile" && !cell) {
    cell = ui.hint.cells[0];
    rot = ui.hint.rotation;
  }
  if (!cell) return;
  const g = spaces()[cell];
  if (!g) return;
  const ghost = svgEl("g", { class: "ghost", transform: `translate(${g.dataset.x},${g.dataset.y})` });
  ghost.innerHTML = S.drawn.groups[rot];
  svg.querySelector("g.overlay").append(ghost);
}

function onBoardHover(ev) {
  const g = ev.target.closest && ev.target.closest("g.space");
  const cell = g ? g.dataset.cell : null;
  if (cell !== ui.hover) { ui.hover = cell; if (S && S.phase === "tile") drawGhost(); }
}

function onBoardClick(ev) {
  if (!S) return;
  const fig = ev.target.closest("g.fig");
  const space = ev.target.closest("g.space");
  if (space) ui.focus = space.dataset.cell;
  choose(space ? space.dataset.cell : null, fig ? { cell: fig.dataset.cell, fig: fig.dataset.fig, seat: +fig.dataset.seat } : null);
}

// Choosing a space (a click, a tap, Enter): place the tile, pick up or put down a figure,
// move the picked-up figure there, or show the space's actions.
function choose(cell, fig) {
  if (mine() && S.phase === "tile") {
    if (!cell) return;
    const rots = tileRotations()[cell];
    const fits = legal("tile").find((e) => e.cells[0] === cell && e.rotation === ui.rotation);
    if (fits) { act(fits.action); return; }
    if (rots) {
      const order = [1, 2, 3, 4, 5].map((k) => (ui.rotation + k) % 6);
      ui.rotation = order.find((r) => rots.has(r));
      renderTileCard();
      decorateBoard();
      notify(TEXT.turnedToFit(cell));
      return;
    }
    act(`tile ${cell} ${ui.rotation}`); // the engine explains why not
    return;
  }
  if (apPhase() && fig && fig.seat === S.current) {
    const f = { cell: fig.cell, fig: fig.fig };
    if (ui.fig && ui.fig.cell === f.cell && ui.fig.fig === f.fig) ui.fig = null;
    else if (ui.fig && ui.fig.cell !== f.cell && moveTargets()[f.cell]) { act(moveTargets()[f.cell].action); return; }
    else ui.fig = f;
    ui.cell = f.cell;
    renderSelection();
    decorateBoard();
    return;
  }
  if (!cell) return;
  if (apPhase() && ui.fig) {
    const t = moveTargets()[cell];
    if (t) { act(t.action); ui.fig = { cell, fig: ui.fig.fig }; ui.cell = cell; return; }
    // Not a target: ask anyway, so the engine says why not (not neighbours, no stones...).
    if (cell !== ui.fig.cell) act(`move ${ui.fig.fig} ${ui.fig.cell} ${cell}`);
    ui.fig = null;
  }
  ui.cell = ui.cell === cell ? null : cell;
  renderSelection();
  decorateBoard();
}

// Enter on a space: the figures of the player to act there are picked up in turn (worker,
// leader, then none), a target of the picked-up figure receives it, any other space is
// chosen as by a click.
function chooseByKey(cell) {
  if (apPhase()) {
    const own = [...spaces()[cell].querySelectorAll(`g.fig[data-seat="${S.current}"]`)].map((g) => ({ cell, fig: g.dataset.fig, seat: S.current }));
    const targets = moveTargets();
    if (ui.fig && ui.fig.cell !== cell && targets[cell]) { choose(cell, null); return; }
    if (own.length) {
      const at = ui.fig && ui.fig.cell === cell ? own.findIndex((f) => f.fig === ui.fig.fig) : -1;
      if (at + 1 < own.length) { ui.fig = null; choose(cell, own[at + 1]); }
      else { ui.fig = null; ui.cell = cell; renderSelection(); decorateBoard(); }
      return;
    }
  }
  choose(cell, null);
}

// Arrow keys walk the hex grid by the spaces' centres (data-x, data-y): up and down to the
// space straight above or below, left and right to the nearest space of the next column,
// alternating up and down so that repeated presses keep to a row.
function neighbour(from, key) {
  const sp = spaces();
  const a = sp[from];
  if (!a) return null;
  const ax = +a.dataset.x, ay = +a.dataset.y;
  let best = null, bestScore = Infinity;
  for (const [cell, g] of Object.entries(sp)) {
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

function onBoardKey(ev) {
  const g = ev.target.closest && ev.target.closest("g.space");
  if (!g || !S) return;
  const cell = g.dataset.cell;
  if (ev.key.startsWith("Arrow")) {
    ev.preventDefault();
    const next = neighbour(cell, ev.key);
    if (next) { const n = spaces()[next]; ui.focus = next; setRoving(n); n.focus(); }
    return;
  }
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    chooseByKey(cell);
  }
}

// ------------------------------------------------------------------ zoom

const ZOOMS = [1, 1.5, 2, 3];

function applyZoom() {
  const svg = $("board").querySelector("svg");
  const wrap = $("board-wrap");
  wrap.classList.toggle("zoomed", ui.zoom > 1);
  if (svg) svg.style.width = ui.zoom > 1 ? `${ui.zoom * 100}%` : "";
  const cue = $("pan-cue");
  cue.hidden = ui.zoom <= 1;
  cue.textContent = ui.zoom > 1 ? TEXT.zoomed() : "";
  $("zoom-out").disabled = ui.zoom <= ZOOMS[0];
  $("zoom-in").disabled = ui.zoom >= ZOOMS[ZOOMS.length - 1];
  $("zoom-fit").disabled = ui.zoom === 1;
}

function zoom(d) {
  const i = ZOOMS.indexOf(ui.zoom);
  ui.zoom = d === 0 ? 1 : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, i + d))];
  applyZoom();
  const f = ui.focus && spaces()[ui.focus];
  if (f && f.scrollIntoView) f.scrollIntoView({ block: "nearest", inline: "center" });
}

// ------------------------------------------------------------------ keys

document.addEventListener("keydown", (ev) => {
  if (!S || ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") {
    const modal = document.querySelector(".modal");
    if (modal) { modal.remove(); return; }
    ui.fig = null; ui.cell = null; renderSelection(); decorateBoard();
    return;
  }
  if (ev.key === "+" || ev.key === "=") { zoom(1); return; }
  if (ev.key === "-") { zoom(-1); return; }
  if (!mine()) return;
  if ((ev.key === "r" || ev.key === "R") && S.phase === "tile") rotate(ev.shiftKey ? -1 : 1);
  if ((ev.key === "u" || ev.key === "U") && S.can_undo) send({ type: "undo", state: S.state });
  if (ev.key === "h" || ev.key === "H") askHint();
});

function setupPage() {
  $("zoom-in").addEventListener("click", () => zoom(1));
  $("zoom-out").addEventListener("click", () => zoom(-1));
  $("zoom-fit").addEventListener("click", () => zoom(0));
  $("keys-cue").textContent = TEXT.keysCue();
  $("keys").replaceChildren(...TEXT.keys().flatMap(([k, what]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)]));
  applyZoom();
}

// For tests and debugging: the current state message.
window.tikal = { get state() { return S; }, ui };

setupPage();
if (token) TK.saveGame(gameId, { token });
TK.loadRules().then(() => { if (S) renderAuction(); });
connect();
setInterval(() => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" })); }, 25000);
