// The game at a glance: the tiles left (per letter of the stack), the scoring rounds
// done and to come, the volcanoes drawn; and at the end each player's points by source.
// All of it is read from the state message (stack_left, position.stack, scoring,
// score_events, player_info) and from /api/meta (the volcanoes among a rule set's
// tiles): the page counts nothing the server does not send.
import { $ } from "./notice.js";
import { seat, store, view } from "./state.js";
import { TEXT } from "./texts.js";

const h = TK.h;

// Scoring rounds started, done and under way; volcanoes drawn (each starts a round [SCORE-1],
// all but the final one, which the end of the stack starts [END-1]); rounds to come: one
// per volcano not yet drawn and the final one, unless it has started.
export function roundsOf(S, volcanoes) {
  const started = S.scoring.rounds;
  const under = S.phase === "scoring" && !S.over;
  const seen = started - (S.scoring.final ? 1 : 0);
  const left = volcanoes === null ? null : Math.max(0, volcanoes - seen) + (S.scoring.final ? 0 : 1);
  return { started, under, done: started - (under ? 1 : 0), seen, left };
}

export function renderProgress() {
  const card = $("progress-card");
  const S = view();
  if (!card || !S) return;
  const rs = store.meta && store.meta.rulesets[S.rules];
  const volcanoes = rs && typeof rs.volcanoes === "number" ? rs.volcanoes : null;
  const r = roundsOf(S, volcanoes);
  const items = [h("h2", { id: "progress-heading" }, TEXT.progress())];
  const tiles = h("p", { class: "progress-line" }, h("strong", { id: "tiles-left", "data-count": S.stack_left }, TEXT.tilesLeft(S.stack_left)));
  const stack = S.position.stack || {};
  const letters = Object.keys(stack).sort();
  if (letters.length > 1) {
    tiles.append(" ", h("span", { class: "letters", id: "tiles-by-letter", role: "list", "aria-label": TEXT.lettersLabel() },
      ...letters.map((letter) => h("span", { class: "letter", role: "listitem", "data-letter": letter, "data-count": stack[letter] }, TEXT.letterLeft(letter, stack[letter])))));
  }
  items.push(tiles);
  const rounds = h("p", { class: "progress-line", id: "rounds", "data-done": r.done, "data-left": r.left === null ? "" : r.left });
  if (r.left !== null) rounds.append(TEXT.roundsDone(r.done, r.left));
  if (r.under) rounds.append(" ", h("strong", { class: "round-now" }, S.scoring.final ? TEXT.finalNow() : TEXT.roundNow(r.started)));
  if (rounds.childNodes.length) items.push(rounds);
  if (volcanoes !== null) items.push(h("p", { class: "progress-line", id: "volcanoes", "data-seen": r.seen }, TEXT.volcanoes(r.seen, volcanoes)));
  card.replaceChildren(...items);
  card.hidden = false;
}

// ------------------------------------------------------------------ the end: points by source

// Per player: temple and treasure points of each scoring round, their sums, the bids paid
// (auction) and the total; the treasure sets held at the end.
export function pointsBySource() {
  const S = view();
  const rounds = [...new Set(S.score_events.map((e) => e.round))].sort((a, b) => a - b);
  const last = rounds[rounds.length - 1];
  const auction = S.rule_set.auction;
  const head = [h("th", { scope: "col" }, TEXT.player()),
    ...rounds.map((n) => h("th", { scope: "col", class: "num" }, n === last && S.scoring.final ? TEXT.summaryFinal() : TEXT.summaryRound(n))),
    h("th", { scope: "col", class: "num" }, TEXT.summaryTemples()), h("th", { scope: "col", class: "num" }, TEXT.summaryTreasures()),
    auction ? h("th", { scope: "col", class: "num" }, TEXT.summaryBids()) : null,
    h("th", { scope: "col", class: "num" }, TEXT.summaryTotal()), h("th", { scope: "col" }, TEXT.summarySets())];
  const rows = S.player_info.map((p) => {
    const mine = S.score_events.filter((e) => e.player === p.seat);
    const temples = mine.reduce((sum, e) => sum + e.temples, 0);
    const treasures = mine.reduce((sum, e) => sum + e.treasures, 0);
    const cells = rounds.map((n) => {
      const e = mine.find((x) => x.round === n);
      const t = e ? e.temples : 0, g = e ? e.treasures : 0;
      return h("td", { class: "num", "data-temples": t, "data-treasures": g, title: TEXT.summaryCellTitle(t, g) }, TEXT.summaryCell(t, g));
    });
    const sets = Object.entries(p.treasures).sort().map(([t, n]) => TK.treasureIcon(t, n));
    return h("tr", { "data-seat": p.seat },
      h("th", { scope: "row" }, TK.chip(seat(p.seat), false, 18), " ", p.name), ...cells,
      h("td", { class: "num", "data-sum": "temples" }, TK.format(temples)),
      h("td", { class: "num", "data-sum": "treasures" }, TK.format(treasures)),
      auction ? h("td", { class: "num", "data-sum": "bids" }, TK.format(-p.bids_paid)) : null,
      h("td", { class: "num total", "data-sum": "total" }, TK.format(p.score)),
      h("td", { class: "sets" }, sets.length ? sets : TEXT.noTreasures()));
  });
  // a region of its own: on a phone the table scrolls sideways inside it, by keyboard too
  return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": TEXT.summary() }, h("table", { class: "scores by-source", id: "points-by-source" },
    h("caption", {}, TEXT.summary()), h("thead", {}, h("tr", {}, ...head)), h("tbody", {}, ...rows)));
}
