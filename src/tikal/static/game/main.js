// The game page (game.html): live position over a WebSocket, board interaction, actions.
// The modules: protocol.js (the wire decoded), state.js (the page's state), board.js (the
// picture, patched where a delta changed it), marks.js (what the page adds to it),
// panels.js (the cards), input.js (mouse and keyboard), connection.js, notice.js,
// texts.js. This one wires them: a message is taken in, then each part is drawn again
// only if what it shows was touched.
import { BoardPicture } from "./board.js";
import { chatRefused, installChat, loadChat, renderChat, takeChatLine, takeChatRoom } from "./chat.js";
import { installClock, takeTime } from "./clock.js";
import { connect, keepAlive, send } from "./connection.js";
import { BoardInput } from "./input.js";
import { BoardMarks } from "./marks.js";
import { $, announce, notify } from "./notice.js";
import {
  LogView, passDeviceTo, renderActions, renderAuction, renderLinks, renderPlayers, renderSelection,
  renderStatus, renderTileCard, renderTurnCard, showGameOver,
} from "./panels.js";
import { prefs } from "./prefs.js";
import { renderProgress } from "./progress.js";
import { touches } from "./protocol.js";
import { renderRematch, take as takeRematch } from "./rematch.js";
import { installPrefs, sendPace } from "./settings.js";
import { play, played } from "./sound.js";
import { canGoOn, figureExists, hotseat, legal, mine, seat, store, take, view } from "./state.js";
import { TEXT } from "./texts.js";

const ui = store.ui;
const picture = new BoardPicture($("board"));
const marks = new BoardMarks(picture);
const input = new BoardInput(picture, marks);
const log = new LogView($("log"));

// The state's fields each card shows (beyond this screen's choices, handled apart).
const SHOWS = {
  status: ["over", "current", "seats", "phase", "spectator", "you", "rules", "standins", "your_turn"],
  turn: ["state", "over", "winners", "seats", "current", "your_turn", "you", "phase", "scoring", "ap", "rule_set", "legal", "can_undo", "standins", "end_offers", "ended_early"],
  tile: ["drawn", "over", "your_turn", "legal"],
  auction: ["phase", "over", "rule_set", "display", "legal", "auction", "seats", "your_turn", "player_info", "current", "log"],
  actions: ["your_turn", "phase", "legal", "verbs"],
  selection: ["position", "seats", "you", "your_turn", "phase", "legal"],
  players: ["player_info", "seats", "current", "over", "winners", "you", "rule_set", "clock", "standins"],
  links: ["spectator", "seeded"],
  dock: ["phase", "over"],
  // position.stack changes only with stack_left (a tile drawn): a move leaves it alone
  progress: ["stack_left", "scoring", "phase", "over", "rules"],
};

// The board's box, as wide as it is laid out (kept by a ResizeObserver: fitting the
// picture after a move reads no layout). A hex is never drawn wider than MAX_HEX px.
const MAX_HEX = 150;
let boxWidth = $("board-scroll").clientWidth;
let fittedSpaces = -1; // how many spaces the view box was fitted to

function fitBoard() {
  if (!picture.svg) return;
  fittedSpaces = picture.nodes.size;
  TK.fitBoard(picture.svg, picture.serverViewBox(), boxWidth, MAX_HEX);
}

if (window.ResizeObserver) {
  new ResizeObserver((entries) => {
    const width = entries[entries.length - 1].contentRect.width;
    if (width && Math.abs(width - boxWidth) > 1) { boxWidth = width; fitBoard(); }
  }).observe($("board-scroll"));
}

// A redraw replaces the cards' buttons: the focus goes back to the same button if it is
// still there, else to the board, so that keyboard users never fall back to the page's top.
function keepFocus(draw) {
  const active = document.activeElement;
  const inPage = active && active !== document.body && active.closest && active.closest("main");
  const key = inPage && !active.closest("#board") ? { id: active.id, action: active.dataset && active.dataset.action } : null;
  draw();
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const again = (key.id && $(key.id)) || (key.action && document.querySelector(`main [data-action="${CSS.escape(key.action)}"]`));
  if (again && !again.disabled) { again.focus({ preventScroll: true }); return; }
  const space = ui.focus && picture.nodes.get(ui.focus);
  if (space) space.focus({ preventScroll: true });
}

// This screen's choices that follow the state: a new tile to place starts turned as it
// first fits; a picked-up figure that is gone is put down. Which parts they redraw.
function followState() {
  const S = view();
  const again = new Set();
  const drawnKey = S.drawn ? `${S.drawn.tile}|${S.current}|${legal("tile").length > 0}` : null;
  if (S.drawn && drawnKey !== store.shown.drawn) {
    store.shown.drawn = drawnKey;
    const rots = new Set(legal("tile").map((e) => e.rotation));
    const rotation = rots.size && !rots.has(0) ? Math.min(...rots) : 0;
    if (rotation !== ui.rotation) { ui.rotation = rotation; again.add("tile"); }
  }
  if (!S.drawn) store.shown.drawn = null;
  if (ui.fig && (!figureExists(ui.fig) || (ui.fig.auto && !canGoOn(ui.fig)))) ui.fig = null;
  return again;
}

function draw(touched, bottom) {
  const S = view();
  const shows = (part) => touches(touched, ...SHOWS[part]);
  const again = followState();
  const turnChanged = store.shown.current !== S.current;
  if (store.shown.current !== null && turnChanged && hotseat() && S.you.includes(S.current) && !S.over) {
    notify(passDeviceTo(S.current));
  }
  store.shown.current = S.current;
  if (shows("status")) renderStatus();
  const hadFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("#board"));
  const change = picture.update(store.held.board, touched);
  if (change.whole) { input.attach(picture.svg); input.applyZoom(); }
  // spaces keep their places: the view changes only as spaces come (or the server's does)
  if (change.whole || change.root || picture.nodes.size !== fittedSpaces) fitBoard();
  marks.afterUpdate(change, hadFocus);
  if (shows("turn")) renderTurnCard();
  if (shows("tile") || again.has("tile")) renderTileCard();
  if (shows("auction")) renderAuction();
  if (shows("actions")) renderActions();
  if (shows("selection")) renderSelection();
  if (shows("players")) renderPlayers();
  if (touched.all || touches(touched, "seats")) log.update(null, bottom);
  else if (touched.logFrom !== null) log.update(touched.logFrom, bottom);
  if (shows("links")) renderLinks();
  if (shows("progress")) renderProgress();
  announceNews(turnChanged);
  chime(turnChanged);
  sendPace();
  if (shows("dock")) $("dock").classList.toggle("docked", !(S.phase === "auction" || S.phase === "pick") || S.over);
  if (S.over && !store.shown.over) { store.shown.over = true; showGameOver(); }
}

// The sounds (if the player wants them): this screen's turn has come; a scoring round
// has started. Never for what the page found when it opened.
function chime(turnChanged) {
  const S = view();
  const rounds = S.scoring.rounds;
  const opening = store.shown.rounds === null;
  if (!opening && rounds > store.shown.rounds && !S.over) play("scoring");
  else if (!opening && turnChanged && mine() && !S.over) play("turn");
  if (!opening && turnChanged && mine() && !S.over && prefs.notify) {
    TK.notifyOnce(`tikal-${store.gameId}-${S.state}`, TK.t("notify.title"), TK.t("notify.body", { rules: TK.t("ruleset." + S.rules) }));
  }
  store.shown.rounds = rounds;
}

// Screen readers hear the other players' moves since the last message, and whose turn it is.
function announceNews(turnChanged) {
  const S = view();
  const lines = S.log;
  const news = [];
  if (store.shown.announced >= 0) {
    for (const line of lines.slice(store.shown.announced)) {
      if (line.kind === "action" && S.you.includes(line.seat)) continue; // your own moves you know
      news.push(line.kind === "chance" ? line.text : TEXT.logLine(seat(line.seat).name, line.text));
    }
  }
  store.shown.announced = lines.length;
  if (turnChanged && !S.over) news.push(mine() ? (hotseat() ? TEXT.announceYoursAs(seat(S.current).name) : TEXT.announceYours()) : TEXT.announceTurn(seat(S.current).name));
  if (S.over && turnChanged) news.push(TEXT.announceOver());
  if (news.length) announce(news.slice(-4));
}

// After a choice of this screen (state.js `redraw`): the parts it names.
const PARTS = {
  tile: renderTileCard,
  selection: renderSelection,
  turn: renderTurnCard,
  marks: () => marks.decorate(),
};
store.redraw = (parts) => { for (const part of parts) PARTS[part](); };

function onError(msg) {
  if (msg.code === "unknown_game") {
    $("status").textContent = TEXT.noSuchGame();
    picture.clear();
    $("turn-body").replaceChildren(TK.h("p", {}, msg.message), TK.h("a", { class: "btn", href: "/" }, TEXT.startNew()));
    return;
  }
  if (msg.code === "bad_token") {
    store.token = null; // reconnect as a spectator
    notify(TEXT.badToken(), "error");
    return;
  }
  if (msg.code === "stale") { notify(TEXT.stale()); return; }
  if (msg.code === "bad_chat" || msg.code === "chat_spectator") { chatRefused(msg); return; }
  if (msg.code === "hint_busy") return; // the hint asked for earlier is on its way
  if (msg.code === "rate_limited") { notify(TEXT.slowDown(msg.message), "error"); return; }
  ui.refusal = msg; // shown once: in the turn card, announced as an alert
  keepFocus(renderTurnCard);
}

function onMessage(msg) {
  if (msg.type === "state" || msg.type === "delta") {
    const bottom = log.atBottom(); // read before anything changes: no layout of its own
    takeTime(msg);
    const took = take(msg);
    if (!took) { send({ type: "sync" }); return; }
    if (msg.type === "state") loadChat(); // connected (again): the whole chat
    if (touches(took.touched, "seats", "you", "spectator")) renderChat();
    if (touches(took.touched, "over", "you")) renderRematch();
    if (took.changed) { ui.refusal = null; ui.hint = null; }
    keepFocus(() => draw(took.touched, bottom));
  } else if (msg.type === "error") {
    onError(msg);
  } else if (msg.type === "hint") {
    ui.hint = msg;
    keepFocus(() => { renderTurnCard(); marks.decorate(); });
  } else if (msg.type === "chat") {
    if (msg.line) takeChatLine(msg.line);
    if ("spectators" in msg) takeChatRoom(msg.spectators);
  } else if (msg.type === "rematch") {
    takeRematch(msg);
  } // "ack": the move was stored; the delta that follows shows it
}

// For tests and debugging (read only): the state as drawn, and this screen's choices.
window.tikal = Object.freeze({ get state() { return store.view; }, ui, prefs, sounds: played });

input.install();
installPrefs();
installClock();
TK.api("/api/meta").then((meta) => { store.meta = meta; installChat(meta); if (store.view) renderProgress(); }).catch(() => { /* shown without the totals */ });
if (store.token) TK.saveGame(store.gameId, { token: store.token });
if (store.token) TK.claimSeat(store.gameId, store.token);
TK.loadRules().then(() => { if (store.view) renderAuction(); });
connect(onMessage);
keepAlive();
