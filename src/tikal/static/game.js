// The game page: live position over a WebSocket, board interaction, actions.
"use strict";

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
const ui = { rotation: 0, fig: null, cell: null, hint: null, refusal: null, hover: null };

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
  c.title = on ? TK.t("conn.on") : TK.t("conn.off");
  if (!on && S) $("status").textContent = TK.t("status.reconnecting");
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else TK.toast(TK.t("toast.not_connected"), "error");
}

function act(action) {
  if (!S) return;
  ui.hint = null;
  send({ type: "action", action, state: S.state });
}

// ------------------------------------------------------------------ protocol (docs/web.md)

// Set (or, for a path alone, delete) the value at a path of keys and indexes.
function patch(target, op) {
  const path = op[0];
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1];
  if (op.length === 1) { if (Array.isArray(target)) target.splice(last, 1); else delete target[last]; }
  else target[last] = op[1];
}

// Legal actions arrive per verb as one key list and rows of values.
function expandLegal(legal) {
  const out = {};
  for (const [verb, table] of Object.entries(legal || {})) {
    out[verb] = table.rows.map((row) => {
      const e = { verb };
      table.keys.forEach((k, i) => { if (row[i] !== null) e[k] = row[i]; });
      return e;
    });
  }
  return out;
}

// The drawn tile's picture in each rotation, from the board's shapes (size 40 of 50).
function tilePicture(group) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="tk tile-svg" viewBox="-42 -36.64 84 73.28" width="84" height="73.28"><g transform="scale(0.8)">${group}</g></svg>`;
}

function derive(r) {
  const s = Object.assign({}, r);
  const b = r.board;
  s.svg = b.root + b.head + Object.values(b.defs).join("") + b.mid + b.order.map((c) => b.spaces[c]).join("") + b.tail;
  s.position = Object.assign({}, r.position, { board: Object.values(r.position.board || {}) });
  s.ap_max = r.rule_set.action_points;
  s.costs = r.rule_set.costs;
  s.player_info = r.player_info.map((p, i) => Object.assign({}, r.seats[i], p));
  s.legal = expandLegal(r.legal);
  if (r.drawn) s.drawn = Object.assign({}, r.drawn, { svgs: r.drawn.groups.map(tilePicture) });
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
      $("status").textContent = TK.t("game.no_such_game");
      $("board").innerHTML = "";
      $("turn-card").replaceChildren(h("p", {}, msg.message), h("a", { class: "btn", href: "/" }, TK.t("game.start_new")));
      return;
    }
    if (msg.code === "bad_token") {
      token = null; // reconnect as a spectator
      TK.toast(TK.t("toast.bad_token"), "error");
      return;
    }
    if (msg.code === "stale") { TK.toast(TK.t("toast.stale")); return; }
    if (msg.code === "hint_busy") return; // the hint asked for earlier is on its way
    if (msg.code === "rate_limited") { TK.toast(TK.t("toast.slow_down", { message: msg.message }), "error"); return; }
    ui.refusal = msg;
    TK.toast(TK.refusal(msg), "error");
    renderTurnCard();
  } else if (msg.type === "hint") {
    ui.hint = msg;
    renderTurnCard();
    decorateBoard();
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
// Legal actions come from the server, each with its notation (action), cost, the spaces it
// touches (cells) and its text; the page knows no rule.
const legal = (verb) => (S && S.legal && S.legal[verb]) || [];
const allLegal = () => Object.values((S && S.legal) || {}).flat();
const figOf = (e) => (e.leader ? "L" : "W");
const target = (e) => e.cells[e.cells.length - 1];
// Verbs with their own controls: tiles and moves on the board, end in the turn card,
// bids and picks in the auction card. Every other legal action is a button.
const OWN_CONTROLS = new Set(["tile", "move", "end", "bid", "pass", "pick"]);

function seatLabel(p, withChip = true) {
  const s = seat(p);
  const you = S.you.includes(p) && s.name.toLowerCase() !== "you" && s.name !== TK.t("player.you");
  const text = you ? TK.t("seat.you", { name: s.name }) : s.kind === "bot" ? TK.t("seat.bot", { name: s.name, level: s.level }) : s.name;
  return h("span", { class: "who" }, withChip ? TK.chip(s) : null, " ", text);
}

function costBadge(cost) { return cost === undefined || cost === null ? null : h("span", { class: "cost" }, TK.t("cost", { cost })); }

function button(label, action, opts = {}) {
  const b = h("button", { class: "btn " + (opts.cls || ""), title: opts.title || action, "data-action": action }, label, costBadge(opts.cost));
  b.addEventListener("click", () => act(action));
  return b;
}

// ------------------------------------------------------------------ render

function render() {
  document.title = S.over ? TK.t("title.over", { rules: TK.t("ruleset." + S.rules) }) : TK.t("title.to_play", { rules: TK.t("ruleset." + S.rules), name: seat(S.current).name });
  if (S.drawn && S.drawn.tile !== lastDrawn) {
    lastDrawn = S.drawn.tile;
    const rots = new Set(legal("tile").map((e) => e.rotation));
    ui.rotation = rots.size && !rots.has(0) ? Math.min(...rots) : 0;
  }
  if (!S.drawn) lastDrawn = null;
  if (lastCurrent !== null && lastCurrent !== S.current && S.you.length > 1 && S.you.includes(S.current) && !S.over) {
    TK.toast(h("span", {}, ...TK.tn("toast.pass_device", { player: seatLabel(S.current) })));
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
  if (S.over && !overShown) { overShown = true; showGameOver(); }
}

function statusLine() {
  if (S.over) return h("span", {}, TK.t("status.game_over"));
  const who = seatLabel(S.current);
  const phase = h("span", {}, ...(["tile", "turn", "scoring", "auction", "pick"].includes(S.phase) ? TK.tn("phase." + S.phase, { player: who }) : [who, " ", S.phase]));
  return S.spectator ? h("span", {}, ...TK.tn("status.watching", { status: phase })) : phase;
}

function figureExists(f) {
  const g = document.createElement("div");
  g.innerHTML = S.svg;
  return !!g.querySelector(`g.fig[data-seat="${S.current}"][data-fig="${f.fig}"][data-cell="${f.cell}"]`);
}

function renderTurnCard() {
  const card = $("turn-card");
  if (!S) return;
  const parts = [];
  const cur = seat(S.current);
  if (S.over) {
    const names = TK.list(S.winners.map((p) => seat(p).name));
    parts.push(h("div", { class: "turn-banner" }, S.winners.length > 1 ? TK.t("over.shared", { names }) : TK.t("over.winner", { name: names })));
    parts.push(h("div", { class: "row" }, h("button", { class: "btn primary", onclick: showGameOver }, TK.t("game.final_scores")), h("a", { class: "btn", href: `/replay/${gameId}` }, TK.t("nav.replay"))));
  } else {
    const banner = h("div", { class: "turn-banner" + (mine() ? " mine" : "") });
    if (mine()) banner.append(TK.chip(cur), " " + (S.you.length > 1 ? TK.t("game.your_turn_as", { name: cur.name }) : TK.t("game.your_turn")));
    else if (cur.kind === "bot") banner.append(TK.chip(cur), " " + TK.t("game.bot_thinking", { name: cur.name }));
    else banner.append(TK.chip(cur), " " + TK.t("game.waiting_for", { name: cur.name }));
    parts.push(banner);
    parts.push(h("p", { class: "hint-text" }, phaseHelp()));
    if (S.phase === "turn" || S.phase === "scoring") parts.push(apPips());
    if (mine()) {
      const row = h("div", { class: "row" });
      if (S.phase === "turn" || S.phase === "scoring") {
        const end = legal("end")[0];
        row.append(button(S.phase === "scoring" ? TK.t("game.end_turn_score") : TK.t("game.end_turn"), end ? end.action : "end", { cls: "primary", title: end ? end.text : "" }));
      }
      const undo = h("button", { class: "btn", id: "undo", disabled: !S.can_undo, title: TK.t("game.undo_title") }, TK.t("game.undo"));
      undo.addEventListener("click", () => send({ type: "undo", state: S.state }));
      const hint = h("button", { class: "btn", id: "hint", title: TK.t("game.hint_title") }, TK.t("game.hint"));
      hint.addEventListener("click", () => { if (askHint()) { hint.disabled = true; hint.textContent = TK.t("game.thinking"); } });
      if (S.phase !== "auction" && S.phase !== "pick") row.append(undo);
      row.append(hint);
      parts.push(row);
    }
  }
  if (ui.hint && S && ui.hint.state === S.state) {
    const play = h("button", { class: "btn small primary" }, TK.t("game.play_it"));
    play.addEventListener("click", () => act(ui.hint.action));
    parts.push(h("div", { class: "refusal", style: "border-color:#b02fa0;background:#fbeefa", id: "hint-box" },
      h("strong", {}, TK.t("game.suggestion"), " "), ui.hint.text, " ", h("code", {}, ui.hint.action), " ", play));
  }
  if (ui.refusal) parts.push(h("div", { class: "refusal", id: "refusal" }, TK.refusal(ui.refusal)));
  card.replaceChildren(...parts);
}

function phaseHelp() {
  const cur = seat(S.current);
  if (S.phase === "tile") return mine() ? TK.t("help.tile_mine") : TK.t("help.tile_other", { name: cur.name });
  if (S.phase === "turn") return mine() ? TK.t("help.turn_mine") : TK.t("help.turn_other", { name: cur.name });
  if (S.phase === "scoring") {
    const order = S.scoring.queue.map((p) => seat(p).name).join(" \u2192 ");
    return S.scoring.final ? TK.t("help.final_scoring", { order }) : TK.t("help.scoring_round", { round: S.scoring.rounds, order });
  }
  if (S.phase === "auction") return TK.t("help.auction");
  if (S.phase === "pick") return mine() ? TK.t("help.pick_mine") : TK.t("help.pick_other", { name: cur.name });
  return "";
}

function apPips() {
  const box = h("div", { class: "ap", "aria-label": TK.t("ap.label", { ap: S.ap, max: S.ap_max }) });
  for (let i = 0; i < S.ap_max; i++) box.append(h("span", { class: "pip" + (i < S.ap ? " full" : "") }));
  box.append(h("span", { class: "ap-text", id: "ap" }, TK.t("ap.left", { ap: S.ap })));
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
  const items = [h("h2", {}, mine() ? TK.t("tile.yours") : TK.t("tile.drawn")), h("div", { class: "tile-pic" }, pic, h("div", {}, h("strong", {}, S.drawn.describe), h("div", { class: "hint-text" }, TK.t("tile.turned", { tile: S.drawn.tile, rotation: ui.rotation }))))];
  if (mine()) {
    const left = h("button", { class: "btn", id: "rot-left", title: TK.t("tile.left_title"), "aria-label": TK.t("tile.left") }, "\u27f2");
    const right = h("button", { class: "btn", id: "rot-right", title: TK.t("tile.right_title"), "aria-label": TK.t("tile.right") }, "\u27f3");
    left.addEventListener("click", () => rotate(-1));
    right.addEventListener("click", () => rotate(1));
    const fits = legal("tile").filter((e) => e.rotation === ui.rotation).length;
    items.push(h("div", { class: "row" }, left, right, h("span", { class: "hint-text" }, fits ? TK.t("tile.fits", { count: fits }) : TK.t("tile.no_fit"))));
  }
  card.replaceChildren(...items);
}

function rotate(d) {
  ui.rotation = (ui.rotation + d + 6) % 6;
  renderTileCard();
  decorateBoard();
}

// ------------------------------------------------------------------ auction

function renderAuction() {
  const card = $("auction-card");
  const show = (S.phase === "auction" || S.phase === "pick") && !S.over;
  if (!show && !(S.rule_set.auction && S.display.length)) { card.hidden = true; return; }
  card.hidden = false;
  const items = [h("h2", {}, TK.t("auction.title"))];
  const disp = h("div", { class: "auction-display" });
  const picks = new Map(legal("pick").map((e) => [e.tile_id, e]));
  for (const d of S.display) {
    const cell = h("div", { class: "disp" }, h("div", { html: d.svg }), d.describe);
    const pick = picks.get(d.tile);
    if (pick) cell.append(button(TK.t("auction.pick"), pick.action, { cls: "small primary", title: pick.text }));
    disp.append(cell);
  }
  items.push(disp);
  if (S.phase === "auction") {
    const a = S.auction;
    const high = a.high_bidder === null ? TK.t("auction.no_bid") : TK.t("auction.bids", { name: seat(a.high_bidder).name, amount: a.high_bid });
    items.push(h("p", {}, TK.t("auction.highest", { high }), " ", a.passed.length ? TK.t("auction.passed", { names: TK.list(a.passed.map((p) => seat(p).name)) }) : ""));
    if (mine()) {
      const bids = legal("bid");
      const min = bids.length ? bids[0].amount : null;
      const max = bids.length ? bids[bids.length - 1].amount : null;
      const input = h("input", { type: "number", id: "bid-amount", min: min ?? 0, max: max ?? 0, value: min ?? 0, "aria-label": TK.t("auction.amount") });
      const bid = h("button", { class: "btn primary", id: "bid", disabled: min === null }, TK.t("auction.bid"));
      bid.addEventListener("click", () => {
        const offer = bids.find((e) => String(e.amount) === String(input.value));
        act(offer ? offer.action : `bid ${input.value}`); // an amount not on offer: the engine explains
      });
      const pass = legal("pass")[0];
      items.push(h("div", { class: "bid-row" }, input, bid, button(TK.t("auction.pass"), pass ? pass.action : "pass")), h("p", { class: "hint-text" }, min === null ? TK.t("auction.cannot") : TK.t("auction.range", { min, max })));
    }
  }
  card.replaceChildren(...items);
}

// ------------------------------------------------------------------ actions

function actionButton(e, cls) {
  return button(e.text, e.action, { cost: e.cost, cls: "small" + (cls ? " " + cls : ""), title: e.action });
}

function renderActions() {
  const card = $("actions-card");
  if (!mine() || !(S.phase === "turn" || S.phase === "scoring")) { card.hidden = true; return; }
  card.hidden = false;
  const list = h("div", { class: "actions-list" });
  for (const [verb, entries] of Object.entries(S.legal || {})) {
    if (OWN_CONTROLS.has(verb) || !entries.length) continue;
    const title = (S.verbs && S.verbs[verb]) || verb;
    list.append(h("div", { class: "group-title" }, title.charAt(0).toUpperCase() + title.slice(1)));
    const row = h("div", { class: "row" });
    for (const e of entries.slice(0, 24)) row.append(actionButton(e));
    list.append(row);
  }
  if (!list.children.length) list.append(h("p", { class: "hint-text" }, TK.t("actions.only_moves")));
  card.replaceChildren(h("h2", {}, TK.t("actions.title")), list);
}

// The selected space: what is on it, and the legal actions on it alone (moves are made
// by selecting a figure, then its target).
function spaceActions(cell) {
  return allLegal().filter((e) => !OWN_CONTROLS.has(e.verb) && e.cells.length === 1 && e.cells[0] === cell);
}

function describeSpace(entry) {
  const parts = [TK.term("kind." + entry.kind, entry.kind)];
  if (entry.level !== undefined) parts.push(entry.printed !== undefined && entry.level !== entry.printed ? TK.t("space.value_printed", { level: entry.level, printed: entry.printed }) : TK.t("space.value", { level: entry.level }));
  if (entry.tokens !== undefined) parts.push(TK.t("space.tokens", { count: entry.tokens }));
  return parts.join(TK.lang === "ja" ? "、" : ", ");
}

function renderSelection() {
  const card = $("selection-card");
  if (!ui.cell || !S) { card.hidden = true; return; }
  const entry = (S.position.board || []).find((b) => b.at === ui.cell);
  card.hidden = false;
  const items = [h("h2", {}, TK.t("space.title", { cell: ui.cell }))];
  if (!entry) {
    items.push(h("p", {}, TK.t("space.empty")));
  } else {
    items.push(h("p", {}, describeSpace(entry)));
    if (entry.camp !== undefined) items.push(h("p", {}, ...TK.tn("space.camp", { player: seatLabel(entry.camp) })));
    if (entry.guard) items.push(h("p", {}, ...TK.tn("space.guard", { player: seatLabel(entry.guard.player) })));
    const figs = [];
    S.position.figures.forEach((f, p) => {
      const n = f.workers[ui.cell] || 0;
      const lead = f.leader === ui.cell;
      if (n || lead) figs.push(h("div", {}, ...TK.tn(lead ? "space.workers_leader" : "space.workers", { player: seatLabel(p), count: n })));
    });
    if (figs.length) items.push(...figs);
  }
  if (mine() && (S.phase === "turn" || S.phase === "scoring")) {
    const here = spaceActions(ui.cell);
    if (here.length) items.push(h("div", { class: "row" }, ...here.map((e) => actionButton(e))));
    else if (entry) items.push(h("p", { class: "hint-text" }, TK.t("space.no_action")));
  }
  const close = h("button", { class: "btn small" }, TK.t("close"));
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
    if (S.you.includes(p.seat)) tags.push(h("span", { class: "tag" }, TK.t("player.you")));
    if (p.kind === "bot") tags.push(h("span", { class: "tag" }, TK.t("player.bot", { level: p.level })));
    if (S.over && S.winners.includes(p.seat)) tags.push(h("span", { class: "tag" }, TK.t("player.winner")));
    if (p.seat === S.current && !S.over) tags.push(h("span", { class: "tag" }, TK.t("player.to_play")));
    row.append(h("div", { class: "name" }, p.name, ...tags));
    row.append(h("div", { class: "score", title: TK.t("player.score") }, p.score));
    const details = h("div", { class: "details" });
    const tr = h("span", { title: TK.t("player.treasures") });
    const types = Object.entries(p.treasures);
    if (types.length) types.forEach(([t, n]) => tr.append(TK.treasure(t, n), " "));
    else tr.append(TK.t("player.no_treasures"));
    details.append(tr);
    details.append(h("span", {}, TK.t(p.leader === "supply" ? "player.supply_leader" : "player.supply", { workers: p.supply_workers })));
    if (actions.includes("camp")) details.append(h("span", {}, TK.t("player.camps", { count: p.camps_left })));
    if (actions.includes("guard")) details.append(h("span", {}, TK.t("player.guards", { count: p.guards_left })));
    if (S.rule_set.auction) details.append(h("span", {}, p.marker ? TK.t("player.marker_up") : TK.t("player.marker_down")));
    details.append(h("span", { title: TK.t("player.worth_title") }, TK.t("player.worth", { points: p.temple_points + p.treasure_points })));
    row.append(details);
    box.append(row);
  }
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  box.replaceChildren();
  const lines = S.log.slice(-250);
  for (const line of lines) {
    const s = seat(line.seat);
    const kind = line.kind === "action" ? "" : line.kind;
    const text = line.text;
    box.append(h("div", { class: "line " + kind }, TK.chip(s, false, 16), h("span", {}, TK.t("log.line", { name: s.name, text })), line.notation && kind !== "chance" ? h("span", { class: "notation" }, line.notation) : null));
  }
  if (atBottom || lines.length < 12) box.scrollTop = box.scrollHeight;
}

function renderLinks() {
  const card = $("links-card");
  const saved = TK.myGames()[gameId] || {};
  const spectator = `${location.origin}/play/${gameId}`;
  const items = [h("h2", {}, TK.t("links.title"))];
  if (saved.links && saved.links.length) {
    for (const l of saved.links) {
      const b = h("button", { class: "btn small" }, TK.t("copy"));
      b.addEventListener("click", () => TK.copy(l.url, b));
      items.push(h("div", { class: "row" }, TK.t("links.invite", { name: l.name }), b));
    }
  }
  const sb = h("button", { class: "btn small" }, TK.t("copy"));
  sb.addEventListener("click", () => TK.copy(spectator, sb));
  items.push(h("div", { class: "row" }, TK.t("links.spectator"), sb));
  items.push(h("div", { class: "row" }, h("a", { class: "btn small", href: `/api/games/${gameId}/record`, download: `tikal-${gameId}.json` }, TK.t("links.download")), h("a", { class: "btn small", href: `/replay/${gameId}` }, TK.t("nav.replay")), h("a", { class: "btn small", href: TK.ruleUrl(), target: "_blank" }, TK.t("nav.rules"))));
  if (S.spectator) items.push(h("p", { class: "hint-text" }, TK.t("links.watching")));
  if (S.seeded) items.push(h("p", { class: "hint-text", id: "seeded" }, TK.t("links.seeded")));
  card.replaceChildren(...items);
  $("replay-link").href = `/replay/${gameId}`;
  $("record-link").href = `/api/games/${gameId}/record`;
}

function showGameOver() {
  document.querySelector(".modal")?.remove();
  const rows = S.player_info.slice().sort((a, b) => b.score - a.score).map((p) => h("tr", {}, h("td", {}, TK.chip(p), " ", S.winners.includes(p.seat) ? TK.t("final.winner", { name: p.name }) : p.name), h("td", { class: "num" }, p.score), h("td", {}, Object.entries(p.treasures).map(([t, n]) => TK.treasure(t, n)))));
  const close = h("button", { class: "btn" }, TK.t("close"));
  const modal = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" }, h("div", { class: "box" },
    h("h2", { id: "over-title" }, TK.t("game.final_scores")),
    h("table", { class: "scores", id: "final-scores" }, h("tr", {}, h("th", {}, TK.t("final.player")), h("th", { class: "num" }, TK.t("final.score")), h("th", {}, TK.t("final.treasures"))), ...rows),
    h("div", { class: "row" }, h("a", { class: "btn primary", href: `/replay/${gameId}` }, TK.t("final.watch_replay")), h("a", { class: "btn", href: `/api/games/${gameId}/record`, download: `tikal-${gameId}.json` }, TK.t("links.download")), h("a", { class: "btn", href: "/" }, TK.t("nav.new_game")), close)));
  close.addEventListener("click", () => modal.remove());
  modal.addEventListener("click", (e) => { if (e.target === modal) modal.remove(); });
  document.body.append(modal);
}

// ------------------------------------------------------------------ board

function renderBoard() {
  $("board").innerHTML = S.svg;
  const svg = $("board").querySelector("svg");
  svg.addEventListener("click", onBoardClick);
  svg.addEventListener("mouseover", onBoardHover);
  svg.addEventListener("mouseleave", () => { ui.hover = null; drawGhost(); });
  decorateBoard();
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
  Object.values(sp).forEach((g) => g.classList.remove("target", "target-weak", "picked", "hint"));
  svg.querySelectorAll("g.fig").forEach((g) => g.classList.remove("mine", "selected", "movable"));
  svg.classList.toggle("interactive", !!mine());
  if (ui.cell && sp[ui.cell]) sp[ui.cell].classList.add("picked");
  if (mine() && S.phase === "tile") {
    const byCell = tileRotations();
    for (const [cell, rots] of Object.entries(byCell)) {
      if (!sp[cell]) continue;
      sp[cell].classList.add(rots.has(ui.rotation) ? "target" : "target-weak");
    }
  }
  if (mine() && (S.phase === "turn" || S.phase === "scoring")) {
    const movable = new Set(legal("move").concat(legal("path")).map((e) => `${figOf(e)}@${e.cells[0]}`));
    svg.querySelectorAll(`g.fig[data-seat="${S.current}"]`).forEach((g) => {
      g.classList.add("mine");
      if (movable.has(`${g.dataset.fig}@${g.dataset.cell}`)) g.classList.add("movable");
      if (ui.fig && ui.fig.cell === g.dataset.cell && ui.fig.fig === g.dataset.fig) g.classList.add("selected");
    });
    for (const [dst, e] of Object.entries(moveTargets())) {
      const g = sp[dst];
      if (!g) continue;
      g.classList.add("target");
      badge(overlay, g, `${e.cost}`, e.verb);
    }
  }
  if (ui.hint && ui.hint.state === S.state) {
    for (const c of ui.hint.cells || []) if (sp[c]) sp[c].classList.add("hint");
  }
  drawGhost();
}

function badge(overlay, g, text) {
  const x = +g.dataset.x, y = +g.dataset.y;
  overlay.append(svgEl("circle", { cx: x + 33, cy: y - 2, r: 12, class: "badge-bg" }));
  const t = svgEl("text", { x: x + 33, y: y + 2, "text-anchor": "middle", class: "badge-text" });
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
  const cell = space ? space.dataset.cell : null;
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
      TK.toast(TK.t("toast.turned", { cell }));
      return;
    }
    act(`tile ${cell} ${ui.rotation}`); // the engine explains why not
    return;
  }
  const apPhase = mine() && (S.phase === "turn" || S.phase === "scoring");
  if (apPhase && fig && +fig.dataset.seat === S.current) {
    const f = { cell: fig.dataset.cell, fig: fig.dataset.fig };
    if (ui.fig && ui.fig.cell === f.cell && ui.fig.fig === f.fig) ui.fig = null;
    else if (ui.fig && ui.fig.cell !== f.cell && moveTargets()[f.cell]) { act(moveTargets()[f.cell].action); return; }
    else ui.fig = f;
    ui.cell = f.cell;
    renderSelection();
    decorateBoard();
    return;
  }
  if (!cell) return;
  if (apPhase && ui.fig) {
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

document.addEventListener("keydown", (ev) => {
  if (!S || ev.target.closest("input, textarea, select")) return;
  if (ev.key === "Escape") { ui.fig = null; ui.cell = null; renderSelection(); decorateBoard(); document.querySelector(".modal")?.remove(); }
  if (!mine()) return;
  if ((ev.key === "r" || ev.key === "R") && S.phase === "tile") rotate(ev.shiftKey ? -1 : 1);
  if (ev.key === "u" && S.can_undo) send({ type: "undo", state: S.state });
  if (ev.key === "h") askHint();
});

// For tests and debugging: the current state message.
window.tikal = { get state() { return S; }, ui };

if (token) TK.saveGame(gameId, { token });
TK.loadRules();
connect();
setInterval(() => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" })); }, 25000);
