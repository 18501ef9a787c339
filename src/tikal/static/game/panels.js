// The cards beside the board: status line, turn card, drawn tile, auction, actions, the
// selected space, players, log, links, final scores. Each is built from the view when
// what it shows changed (main.js decides from the keys a message touched); the log
// appends and cuts lines instead.
import { act, askHint, undo } from "./connection.js";
import { clockFor, controlText, seatControls } from "./clock.js";
import { endingControls } from "./ending.js";
import { $ } from "./notice.js";
import { pointsBySource } from "./progress.js";
import { endTurn } from "./settings.js";
import { OWN_CONTROLS, allLegal, apPhase, hotseat, legal, mine, redraw, rotate, seat, store, view } from "./state.js";
import { TEXT } from "./texts.js";

const h = TK.h;
const ui = store.ui;

// Whether a name is the word "you" itself (games named their seat so once): it gets no
// "(you)" after it, which read "Du (du)".
const isYouWord = (name) => name.trim().toLocaleLowerCase(TK.lang) === TEXT.youTag().toLocaleLowerCase(TK.lang);

// The one seat this screen plays, if it plays one (in hot-seat every seat is "you", so
// the seat to play is named instead).
const soleSeat = () => (view().you.length === 1 ? view().you[0] : null);

// A seat's name with its mark; "(you)" only for the one seat this screen plays.
function seatLabel(p, withChip = true) {
  const s = seat(p);
  const you = soleSeat() === p && !isYouWord(s.name);
  const text = you ? TEXT.seatYou(s.name) : s.kind === "bot" ? TEXT.seatBot(s.name, s.level) : s.name;
  return h("span", { class: "who" }, withChip ? TK.chip(s) : null, " ", text);
}

function costBadge(cost) { return cost === undefined || cost === null ? null : h("span", { class: "cost" }, TEXT.cost(cost)); }

function button(label, action, opts = {}) {
  const b = h("button", { class: "btn " + (opts.cls || ""), type: "button", title: opts.title || action, "data-action": action, id: opts.id }, label, costBadge(opts.cost));
  b.addEventListener("click", () => act(action));
  return b;
}

const treasureIcon = TK.treasureIcon;

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

// ------------------------------------------------------------------ status, turn card

export function renderStatus() {
  const S = view();
  const title = TEXT.title(S.rules, S.over ? null : seat(S.current).name);
  document.title = mine() && !S.over ? TK.t("game.title_your_turn", { title }) : title;
  TK.turnBadge(mine() && !S.over);
  $("status").replaceChildren(statusLine());
}

function statusLine() {
  const S = view();
  if (S.over) return h("span", {}, TEXT.gameOver());
  // your own turn is a sentence of its own in each language ("Du bist am Zug"), never a
  // name with a verb for someone else
  const byBot = S.standins && S.standins[S.current];
  const line = soleSeat() === S.current && !byBot ? h("span", {}, TK.chip(seat(S.current)), " ", TEXT.yourTurnStatus(TEXT.phase(S.phase)))
    : h("span", {}, ...TEXT.toPlay(seatLabel(S.current), TEXT.phase(S.phase)));
  return S.spectator ? h("span", {}, ...TEXT.watching(line)) : line;
}

// The hot-seat hand-over: the player to act now, by name and mark.
export const passDeviceTo = (p) => h("span", {}, ...TEXT.passDevice(seatLabel(p)));

export function renderTurnCard() {
  const card = $("turn-body");
  const S = view();
  if (!S) return;
  const parts = [];
  const cur = seat(S.current);
  if (S.over) {
    parts.push(h("div", { class: "turn-banner" }, TEXT.winners(S.winners.map((p) => seat(p).name))));
    const early = endingControls();
    if (early) parts.push(early);
    parts.push(h("div", { class: "row" }, h("button", { class: "btn primary", type: "button", onclick: showGameOver }, TEXT.finalScores()), h("a", { class: "btn", href: `/replay/${store.gameId}` }, TEXT.replay())));
  } else {
    const banner = h("div", { class: "turn-banner" + (mine() ? " mine" : "") });
    const standin = S.standins && S.standins[S.current];
    if (mine()) banner.append(TK.chip(cur), " " + (hotseat() ? TEXT.yourTurnAs(cur.name) : TEXT.yourTurn()));
    else if (standin) banner.append(TK.chip(cur), " " + TK.t("standin.playing", { name: cur.name, level: TK.levelName(standin) }));
    else if (cur.kind === "bot") banner.append(TK.chip(cur), " " + TEXT.thinking(cur.name));
    else banner.append(TK.chip(cur), " " + TEXT.waiting(cur.name));
    parts.push(banner);
    parts.push(h("p", { class: "hint-text help" }, phaseHelp()));
    const bar = h("div", { class: "action-bar" });
    if (S.phase === "turn" || S.phase === "scoring") bar.append(apPips());
    if (mine()) {
      if (S.phase === "turn" || S.phase === "scoring") {
        const end = legal("end")[0];
        const label = S.phase === "scoring" ? TEXT.endScore() : TEXT.endTurn();
        const action = end ? end.action : "end";
        const endButton = h("button", { class: "btn primary", type: "button", id: "end-turn", title: end ? end.text : action, "data-action": action }, label);
        endButton.addEventListener("click", () => endTurn(action, label));
        bar.append(endButton);
      }
      if (S.phase !== "auction" && S.phase !== "pick") {
        const undoButton = h("button", { class: "btn", id: "undo", type: "button", disabled: !S.can_undo, title: TEXT.undoTitle() }, TEXT.undo());
        undoButton.addEventListener("click", undo);
        bar.append(undoButton);
      }
      const hint = h("button", { class: "btn", id: "hint", type: "button", title: TEXT.hintTitle() }, TEXT.hint());
      hint.addEventListener("click", () => { if (askHint()) { hint.disabled = true; hint.textContent = TEXT.hintThinking(); } });
      bar.append(hint);
    }
    if (bar.children.length) parts.push(bar);
    const seatBox = seatControls();
    if (seatBox) parts.push(seatBox);
    const endBox = endingControls();
    if (endBox) parts.push(endBox);
  }
  if (ui.hint && ui.hint.state === S.state) {
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
  const S = view();
  const cur = seat(S.current);
  if (S.phase === "tile") return mine() ? TEXT.helpTile() : TEXT.helpTileOther(cur.name);
  if (S.phase === "turn") return mine() ? TEXT.helpTurn() : TEXT.helpTurnOther(cur.name);
  if (S.phase === "scoring") return TEXT.helpScoring(S.scoring.final, S.scoring.rounds, S.scoring.queue.map((p) => seat(p).name).join(" \u2192 ")); // the order to score in
  if (S.phase === "auction") return TEXT.helpAuction();
  if (S.phase === "pick") return mine() ? TEXT.helpPick() : TEXT.helpPickOther(cur.name);
  return "";
}

function apPips() {
  const S = view();
  const box = h("div", { class: "ap", role: "img", "aria-label": TEXT.apLeft(S.ap, S.ap_max) });
  for (let i = 0; i < S.ap_max; i++) box.append(h("span", { class: "pip" + (i < S.ap ? " full" : "") }));
  box.append(h("span", { class: "ap-text", id: "ap", "aria-hidden": "true" }, TEXT.apShort(S.ap)));
  return box;
}

// ------------------------------------------------------------------ tile card

export function renderTileCard() {
  const card = $("tile-card");
  const S = view();
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

// ------------------------------------------------------------------ auction

// The bids and passes of the auction under way: the log's last lines, back to the last
// line that is neither.
function auctionHistory() {
  const S = view();
  const out = [];
  for (let i = S.log.length - 1; i >= 0; i--) {
    const line = S.log[i];
    const verb = (line.notation || "").split(" ")[0];
    if (line.kind !== "action" || (verb !== "bid" && verb !== "pass")) break;
    out.unshift(line);
  }
  return out;
}

export function renderAuction() {
  const card = $("auction-card");
  const S = view();
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
  if (S.phase === "auction" && !S.over) items.push(...auctionUnderWay());
  card.replaceChildren(...items);
}

// The auction's state, what winning buys, the bid box (for the bidder) and the bids so far.
function auctionUnderWay() {
  const S = view();
  const items = [];
  const a = S.auction;
  const high = a.high_bidder === null ? TEXT.noBid() : TEXT.bids(seat(a.high_bidder).name, a.high_bid);
  items.push(h("p", { class: "auction-state" }, TEXT.highest(high), " ", a.passed.length ? TEXT.passed(a.passed.map((p) => seat(p).name)) : ""));
  const rule = TK.rules && TK.rules["AUC-5"];
  if (rule) items.push(h("p", { class: "win-buys" }, h("strong", {}, TEXT.winBuys()), " ", rule, " ", h("a", { href: TK.ruleUrl("AUC-5"), target: "_blank", hreflang: TK.lang }, TEXT.rule("AUC-5"))));
  if (mine()) items.push(...bidBox(a));
  const hist = auctionHistory();
  const list = h("ol", { class: "bid-history", "aria-label": TEXT.history() });
  for (const line of hist) list.append(h("li", {}, TK.chip(seat(line.seat), false, 16), " ", TEXT.logLine(seat(line.seat).name, line.text)));
  items.push(h("h3", {}, TEXT.history()), hist.length ? list : h("p", { class: "hint-text" }, TEXT.noBidsYet()));
  return items;
}

function bidBox(a) {
  const S = view();
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
  return [
    h("div", { class: "bid-row" }, input, bid, ...quick, button(TEXT.pass(), pass ? pass.action : "pass", { title: pass ? pass.text : "" })),
    h("p", { class: "hint-text" }, min === null ? TEXT.cannotOutbid() : TEXT.bidRange(min, max), " ", TEXT.price(S.player_info[S.current].score)),
  ];
}

// ------------------------------------------------------------------ actions

function actionButton(e, cls) {
  const label = [e.text];
  if (e.verb === "swap" && e.give && e.take) {
    label.unshift(h("span", { class: "swap-icons" }, treasureIcon(e.give), "\u2192", treasureIcon(e.take)));
  }
  return button(label, e.action, { cost: e.cost, cls: "small" + (cls ? " " + cls : ""), title: e.action });
}

export function renderActions() {
  const card = $("actions-card");
  const S = view();
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

export function renderSelection() {
  const card = $("selection-card");
  const S = view();
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
  close.addEventListener("click", () => { ui.cell = null; redraw("selection", "marks"); });
  items.push(close);
  card.replaceChildren(...items);
}

// ------------------------------------------------------------------ players, log, links

export function renderPlayers() {
  const S = view();
  const box = $("players");
  box.replaceChildren();
  if (S.clock) box.append(h("p", { class: "help clock-control" }, controlText(S.clock.control)));
  const actions = S.rule_set.actions;
  for (const p of S.player_info) {
    const row = h("div", { class: "player" + (p.seat === S.current && !S.over ? " current" : ""), "data-seat": p.seat });
    row.append(TK.chip(p, false, 24));
    const tags = [];
    if (S.you.includes(p.seat) && !hotseat() && !isYouWord(p.name)) tags.push(h("span", { class: "tag" }, TEXT.youTag()));
    if (p.kind === "bot") tags.push(h("span", { class: "tag" }, TEXT.bot(p.level)));
    const standin = S.standins && S.standins[p.seat];
    if (standin) tags.push(h("span", { class: "tag standin" }, TK.t("standin.tag", { level: TK.levelName(standin) })));
    if (S.over && S.winners.includes(p.seat)) tags.push(h("span", { class: "tag" }, TEXT.winner()));
    if (p.seat === S.current && !S.over) tags.push(h("span", { class: "tag" }, TEXT.toPlayTag()));
    row.append(h("div", { class: "name" }, p.name, ...tags));
    row.append(h("div", { class: "score", title: TEXT.score() }, TK.format(p.score)));
    const clock = clockFor(p.seat);
    if (clock) row.append(clock);
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

// The log's last lines (LOG_LINES at most), kept as the log changes: a delta's lines are
// appended, an undo cuts them back, and the oldest shown go (or come back) so that the
// box always shows what drawing it whole would.
const LOG_LINES = 250;

export class LogView {
  constructor(box) {
    this.box = box;
    this.first = 0; // the log index of the first line shown
  }

  // Whether the reader is at the bottom (read before anything on the page changes, so
  // that it costs no layout of its own).
  atBottom() {
    const box = this.box;
    return box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  }

  // Chance lines (tiles drawn, treasures found) are the game's, not a player's: no name.
  line(line) {
    const s = seat(line.seat);
    const kind = line.kind === "action" ? "" : line.kind;
    const who = kind === "chance" ? h("span", { class: "chance-mark", "aria-hidden": "true" }, "\u21b3") : TK.chip(s, false, 16);
    const text = kind === "chance" ? line.text : TEXT.logLine(s.name, line.text);
    const found = kind === "chance" && /^\*token [a-h]$/.test(line.notation || "") ? treasureIcon(line.notation.slice(-1)) : null;
    const byBot = line.by ? h("span", { class: "tag by-bot", title: TK.t("standin.log_title", { level: TK.levelName(line.by) }) }, TK.t("standin.log_tag")) : null;
    return h("div", { class: "line " + kind }, who, h("span", {}, text), byBot, found, line.notation && kind !== "chance" ? h("span", { class: "notation" }, line.notation) : null);
  }

  // The log after a message: all of it drawn (`from` null), or its lines from `from` on
  // replaced; `bottom` is what atBottom() said before the message changed the page.
  update(from, bottom) {
    const lines = view().log;
    const box = this.box;
    const start = Math.max(0, lines.length - LOG_LINES);
    if (from === null) {
      box.replaceChildren(...lines.slice(start).map((l) => this.line(l)));
    } else {
      const keep = Math.max(0, Math.min(box.childElementCount, from - this.first));
      while (box.childElementCount > keep) box.lastElementChild.remove();
      box.append(...lines.slice(this.first + keep).map((l) => this.line(l)));
      for (let i = this.first; i < start; i++) box.firstElementChild.remove();
      if (start < this.first) box.prepend(...lines.slice(start, this.first).map((l) => this.line(l)));
    }
    this.first = start;
    if (bottom || lines.length - start < 12) box.scrollTop = box.scrollHeight;
  }
}

export function renderLinks() {
  const S = view();
  const gameId = store.gameId;
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

export function showGameOver() {
  const S = view();
  const gameId = store.gameId;
  document.querySelector(".modal")?.remove();
  const rows = S.player_info.slice().sort((a, b) => b.score - a.score).map((p) => h("tr", {}, h("td", {}, TK.chip(p), " ", S.winners.includes(p.seat) ? TEXT.finalWinner(p.name) : p.name), h("td", { class: "num" }, TK.format(p.score)), h("td", {}, Object.entries(p.treasures).map(([t, n]) => treasureIcon(t, n)))));
  const close = h("button", { class: "btn", type: "button" }, TEXT.close());
  const opener = document.activeElement;
  const modal = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" }, h("div", { class: "box wide" },
    h("h2", { id: "over-title" }, TEXT.finalScores()),
    S.ended_early ? h("p", { class: "ended-early" }, TK.t("ending.ended")) : null,
    h("table", { class: "scores", id: "final-scores" }, h("tr", {}, h("th", {}, TEXT.player()), h("th", { class: "num" }, TEXT.finalScore()), h("th", {}, TEXT.treasures())), ...rows),
    pointsBySource(),
    h("div", { class: "row" }, h("a", { class: "btn primary", href: `/replay/${gameId}` }, TEXT.watchReplay()), h("a", { class: "btn", href: `/api/games/${gameId}/record`, download: `tikal-${gameId}.json` }, TEXT.download()), h("a", { class: "btn", href: "/" }, TEXT.newGame()), close)));
  const shut = () => { modal.remove(); if (opener && opener.focus) opener.focus(); };
  close.addEventListener("click", shut);
  modal.addEventListener("click", (e) => { if (e.target === modal) shut(); });
  document.body.append(modal);
  close.focus();
}
