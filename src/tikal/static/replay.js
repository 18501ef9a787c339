// The replay page: step through a finished (or uploaded) game move by move.
"use strict";

const h = TK.h;
const replayId = decodeURIComponent(location.pathname.split("/")[2] || "");
const cache = new Map();
let R = null;
let step = 0;
let timer = null;

async function frame(n) {
  if (!cache.has(n)) cache.set(n, TK.api(`/api/replays/${encodeURIComponent(replayId)}/frames/${n}`));
  return cache.get(n);
}

async function show(n) {
  n = Math.max(0, Math.min(n, R.total));
  step = n;
  const f = await frame(n);
  if (step !== n) return;
  document.getElementById("board").innerHTML = f.svg;
  analysisShown(n);
  document.getElementById("slider").value = n;
  document.getElementById("counter").textContent = `${n} / ${R.total}`;
  const s = n > 0 ? R.steps[n - 1] : null;
  const now = document.getElementById("now");
  if (s) {
    now.replaceChildren(TK.chip(R.seats[s.seat], false, 16), " " + TK.t("log.line", { name: R.seats[s.seat].name, text: s.text }), s.chance.length ? ` (${s.chance.join(", ")})` : "", " ", h("code", {}, s.notation));
    for (const sc of s.scores || []) now.append(h("div", {}, TK.t("log.line", { name: R.seats[sc.seat].name, text: sc.text })));
  }
  else now.textContent = TK.t("replay.start_of_game");
  if (R.ended_early && n === R.total) now.append(" ", h("strong", { id: "ended-early" }, TK.t("ending.ended")));
  if (f.over) now.append(" ", h("strong", {}, f.winners.length > 1 ? TK.t("over.shared", { names: TK.list(f.winners.map((p) => R.seats[p].name)) }) : TK.t("over.winner", { name: R.seats[f.winners[0]].name })));
  const players = document.getElementById("players");
  players.replaceChildren();
  R.seats.forEach((p, i) => {
    const tr = h("span", {});
    Object.entries(f.treasures[i]).forEach(([t, c]) => tr.append(TK.treasureIcon(t, c), " "));
    players.append(h("div", { class: "player" + (f.current === i && !f.over ? " current" : "") }, TK.chip(p, false, 24), h("div", { class: "name" }, p.name), h("div", { class: "score" }, f.scores[i]), h("div", { class: "details" }, tr)));
  });
  document.querySelectorAll("#steps .line").forEach((el) => el.classList.toggle("now", +el.dataset.step === n));
  const cur = document.querySelector(`#steps .line[data-step="${n}"]`);
  if (cur) keepInList(document.getElementById("steps"), cur);
  for (const k of [n + 1, n + 2, n - 1]) if (k >= 0 && k <= R.total) frame(k);
}

// The step's line brought into view inside the list only: scrollIntoView scrolled the
// whole page too, and took the board and the judged decision out of view.
function keepInList(list, line) {
  const top = line.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + line.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + line.offsetHeight - list.clientHeight;
}

function togglePlay() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = TK.t("replay.play"); return; }
  if (step >= R.total) show(0);
  b.textContent = TK.t("replay.pause");
  timer = setInterval(() => { if (step >= R.total) togglePlay(); else show(step + 1); }, 700);
}

async function main() {
  try {
    R = await TK.api(`/api/replays/${encodeURIComponent(replayId)}`);
  } catch (e) {
    document.getElementById("board").replaceChildren(h("p", { class: "refusal" }, TK.t("replay.cannot", { message: e.message })));
    return;
  }
  document.getElementById("status").textContent = TK.t("replay.status", { rules: TK.term("ruleset." + R.rules, R.rules), players: R.seats.map((s) => s.name).reduce((a, b) => TK.t("replay.versus", { first: a, second: b })) });
  const rec = document.getElementById("record-link");
  if (replayId.startsWith("r")) rec.hidden = true;
  else { rec.href = `/api/games/${replayId}/record`; rec.setAttribute("download", `tikal-${replayId}.json`); }
  const slider = document.getElementById("slider");
  slider.max = R.total;
  slider.addEventListener("input", () => show(+slider.value));
  const list = document.getElementById("steps");
  list.append(h("div", { class: "line", "data-step": 0 }, TK.t("replay.start_line")));
  for (const s of R.steps) {
    const seat = R.seats[s.seat];
    const level = R.by && R.by[s.step - 1];
    const byBot = level ? h("span", { class: "tag by-bot", title: TK.t("standin.log_title", { level: TK.levelName(level) }) }, TK.t("standin.log_tag")) : null;
    list.append(h("div", { class: "line", "data-step": s.step }, TK.chip(seat, false, 16), h("span", {}, TK.t("replay.step_line", { step: s.step, name: seat.name, text: s.text })), byBot, h("span", { class: "notation" }, s.notation)));
    for (const sc of s.scores || []) {
      list.append(h("div", { class: "line score", "data-step": s.step }, TK.chip(R.seats[sc.seat], false, 16), h("span", {}, TK.t("log.line", { name: R.seats[sc.seat].name, text: sc.text }))));
    }
  }
  list.addEventListener("click", (e) => { const l = e.target.closest(".line"); if (l) show(+l.dataset.step); });
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(R.total);
  document.getElementById("play").onclick = togglePlay;
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(step - 1);
    else if (e.key === "ArrowRight") show(step + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(R.total);
    else if (e.key === " ") { e.preventDefault(); togglePlay(); }
  });
  const start = +(new URLSearchParams(location.hash.slice(1)).get("step") || (R.over ? R.total : 0));
  show(start);
  initAnalysis();
  showChat();
}

// The game's chat beside its moves (games played here; an uploaded record has none).
async function showChat() {
  if (replayId.startsWith("r")) return;
  let lines = [];
  try { lines = (await TK.api(`/api/games/${encodeURIComponent(replayId)}/chat`)).lines; } catch (e) { return; }
  if (!lines.length) return;
  const box = document.getElementById("chat-lines");
  box.replaceChildren(...lines.map((line) => h("li", { class: "chat-line", "data-seq": line.seq },
    R.seats[line.seat] ? TK.chip(R.seats[line.seat], false, 16) : null, h("strong", {}, line.name),
    h("span", { class: "chat-text" }, line.phrase ? TK.t("chat.phrase." + line.phrase) : line.text),
    h("span", { class: "meta" }, new Date(line.at * 1000).toLocaleTimeString(TK.lang)))));
  document.getElementById("chat-card").hidden = false;
}

// ---------------------------------------------------------------- analysis
// The server judges every decision from the mover's view (a background job); the page
// draws the numbers it sends: a win-chance graph per player, the classified decisions,
// and the better turn's spaces on the board (texts and spaces come from the engine).

const SVGNS = "http://www.w3.org/2000/svg";
const VERDICTS = { blunder: "??", mistake: "?", inaccuracy: "?!" };
const G = { w: 900, h: 190, left: 40, right: 12, top: 12, bottom: 24 };
let A = null; // the analysis once done
let picked = null; // the decision whose better turn is shown
let polling = null;

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const PERCENT = new Intl.NumberFormat(TK.lang, { style: "percent", maximumFractionDigits: 0 });
const pct = (x) => PERCENT.format(x);
const gx = (step) => G.left + (A.steps ? step / A.steps : 0) * (G.w - G.left - G.right);
const gy = (chance) => G.top + (1 - chance) * (G.h - G.top - G.bottom);

function analysisStatus(text, done, total) {
  document.getElementById("analysis-status").textContent = text;
  const bar = document.getElementById("analysis-progress");
  bar.hidden = total === undefined;
  if (total !== undefined) { bar.max = Math.max(1, total); bar.value = done; }
}

// A verdict's name (best, good, inaccuracy, mistake, blunder: web.analysis.verdict.*).
const verdictName = (v) => TK.term("analysis.verdict." + v, v);

// A decision's numbers as shown: the mover's win chance right after the turn as played
// and after the best turn found (the same estimate, on the same deals), in whole percent,
// and what was lost as their difference, so that the three add up as read ("74%", "56%",
// "18% lost"; the loss of the unrounded chances once read "19%").
function shownChances(d) {
  const played = Math.round(d.played_chance * 100), best = Math.round(d.best_chance * 100);
  return { played: played / 100, best: best / 100, lost: Math.max(0, best - played) / 100 };
}

function decisionLabel(d) {
  const name = verdictName(d.verdict);
  const c = shownChances(d);
  const verdict = VERDICTS[d.verdict] ? TK.t("analysis.verdict_loss", { verdict: name, loss: pct(c.lost) }) : name;
  return TK.t("analysis.decision", { number: d.index + 1, step: d.step + 1, name: R.seats[d.player].name, verdict, chance: pct(c.played) });
}

// A graph point's name: the decision, and the graph's own number (the round's average).
function pointLabel(d) {
  return TK.t("analysis.point", { decision: decisionLabel(d), chance: pct(d.win_chance[d.player]) });
}

function drawGraph() {
  const box = document.getElementById("analysis-graph");
  const graph = svgEl("svg", { class: "analysis-graph", viewBox: `0 0 ${G.w} ${G.h}`, role: "group", "aria-labelledby": "analysis-graph-title analysis-graph-desc" },
    svgEl("title", { id: "analysis-graph-title" }, TK.t("analysis.graph_title")),
    svgEl("desc", { id: "analysis-graph-desc" }, TK.t("analysis.graph_desc", { count: A.decisions.length })));
  for (const v of [0, 0.5, 1]) {
    graph.append(svgEl("line", { class: "grid", x1: G.left, x2: G.w - G.right, y1: gy(v), y2: gy(v) }),
      svgEl("text", { class: "axis", x: G.left - 6, y: gy(v) + 4, "text-anchor": "end" }, pct(v)));
  }
  graph.append(svgEl("text", { class: "axis", x: G.left, y: G.h - 6, "text-anchor": "start" }, TK.t("analysis.axis_step", { step: 0 })),
    svgEl("text", { class: "axis", x: G.w - G.right, y: G.h - 6, "text-anchor": "end" }, TK.t("analysis.axis_step", { step: A.steps })));
  graph.append(svgEl("line", { class: "cursor", id: "analysis-cursor", x1: gx(step), x2: gx(step), y1: G.top, y2: G.h - G.bottom }));
  R.seats.forEach((seat, p) => {
    const points = A.decisions.map((d) => `${gx(d.step).toFixed(1)},${gy(d.win_chance[p]).toFixed(1)}`).join(" ");
    graph.append(svgEl("polyline", { class: "chance", points, stroke: seat.colour, "data-seat": p }));
  });
  for (const d of A.decisions) {
    const seat = R.seats[d.player];
    const x = gx(d.step), y = gy(d.win_chance[d.player]);
    const mark = VERDICTS[d.verdict];
    const point = svgEl("g", { class: `point verdict-${d.verdict}`, tabindex: 0, role: "button", "data-index": d.index, "aria-label": pointLabel(d) },
      svgEl("title", {}, pointLabel(d)),
      svgEl("circle", { cx: x, cy: y, r: mark ? 6.5 : 4, fill: seat.colour }));
    if (mark) point.append(svgEl("text", { class: "mark", x, y: y - 10, "text-anchor": "middle" }, mark));
    point.addEventListener("click", () => pick(d));
    point.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); pick(d); }
      else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
        e.preventDefault(); e.stopPropagation();
        const next = graph.querySelector(`.point[data-index="${d.index + (e.key === "ArrowLeft" ? -1 : 1)}"]`);
        if (next) next.focus();
      }
    });
    graph.append(point);
  }
  box.replaceChildren(graph);
  const legend = document.getElementById("analysis-legend");
  legend.replaceChildren(...R.seats.map((seat, p) => {
    const sum = A.summary[String(p)] || {};
    return h("span", { class: "legend-item" }, TK.chip(seat, false, 16), " ", TK.t("analysis.legend", {
      name: seat.name,
      blunders: TK.t("analysis.count.blunder", { count: sum.blunder || 0 }),
      mistakes: TK.t("analysis.count.mistake", { count: sum.mistake || 0 }),
      inexact: TK.t("analysis.count.inaccuracy", { count: sum.inaccuracy || 0 }),
      lost: pct(sum.mean_lost || 0),
    }));
  }));
}

function moveList(moves) {
  return h("ol", { class: "moves" }, moves.map((m) => h("li", {}, m.text, " ", h("code", {}, m.action))));
}

function turnDetails(d) {
  const seat = R.seats[d.player];
  const same = d.verdict === "best";
  const c = shownChances(d);
  return [
    h("div", { class: "turn-title" }, TK.chip(seat, false, 16), ` ${decisionLabel(d)}`),
    h("div", { class: "turn-moves" },
      h("div", { class: "played", "data-chance": c.played }, h("strong", {}, TK.t("analysis.played", { chance: pct(c.played) })), moveList(d.played_moves)),
      same ? h("div", { class: "better" }, h("strong", {}, TK.t("analysis.nothing_better")))
        : h("div", { class: "better", "data-chance": c.best, "data-lost": c.lost }, h("strong", {}, TK.t("analysis.better", { chance: pct(c.best), loss: pct(c.lost) })), moveList(d.best_moves))),
  ];
}

function drawList() {
  const list = document.getElementById("analysis-list");
  const classified = A.decisions.filter((d) => VERDICTS[d.verdict]);
  list.replaceChildren(...classified.map((d) => h("li", { class: `verdict-${d.verdict}` },
    h("button", { class: "btn small", "data-index": d.index, onclick: () => pick(d), onkeydown: keepKey }, TK.t("analysis.show")), " ", ...turnDetails(d))));
  if (!classified.length) list.replaceChildren(h("li", { class: "hint-text" }, TK.t("analysis.none_found")));
}

function pick(d) {
  picked = d;
  document.getElementById("analysis-side").hidden = false;
  document.querySelectorAll("#analysis-graph .point").forEach((el) => el.classList.toggle("picked", +el.dataset.index === d.index));
  document.getElementById("analysis-turn").replaceChildren(...turnDetails(d));
  if (step === d.step) analysisShown(step);
  else show(d.step);
}

// Called whenever a frame is drawn: the cursor on the graph, the picked decision's
// better turn (and the turn played) on the board when the frame is its position.
function analysisShown(n) {
  const cursor = document.getElementById("analysis-cursor");
  if (cursor && A) { cursor.setAttribute("x1", gx(n)); cursor.setAttribute("x2", gx(n)); }
  if (!picked || picked.step !== n) return;
  const board = document.querySelector("#board svg.board") || document.querySelector("#board svg");
  if (!board) return;
  const mark = (moves, cls) => {
    for (const m of moves) for (const c of m.cells) {
      const space = board.querySelector(`g.space[data-cell="${CSS.escape(c)}"]`);
      if (space) space.classList.add(cls);
      board.querySelectorAll(`g.fig[data-cell="${CSS.escape(c)}"][data-seat="${picked.player}"]`).forEach((f) => f.classList.add(cls));
    }
  };
  mark(picked.played_moves, "played");
  if (picked.verdict !== "best") mark(picked.best_moves, "better");
}

function analysisDone(data) {
  A = data;
  stopPolling();
  document.getElementById("analyze").hidden = true;
  analysisStatus(TK.t("analysis.done", { count: A.decisions.length, samples: TK.t("analysis.samples", { budget: A.budget }), seed: String(A.seed) }));
  drawGraph();
  drawList();
  document.getElementById("analysis-side").hidden = false;
  document.body.classList.add("analysed");
  analysisShown(step);
}

function analysisState(data) {
  const button = document.getElementById("analyze");
  if (data.status === "done") return analysisDone(data);
  if (data.status === "queued") {
    button.disabled = true;
    analysisStatus(TK.t("analysis.queued", { position: data.position }), 0, data.total);
  } else if (data.status === "running") {
    button.disabled = true;
    analysisStatus(TK.t("analysis.running", { done: data.done, total: data.total }), data.done, data.total);
  } else if (data.status === "failed") {
    button.disabled = false;
    analysisStatus(TK.t("analysis.failed")); // the page's own words, not the server's message
    return stopPolling();
  } else {
    button.disabled = !data.over;
    analysisStatus(data.over ? "" : TK.t("analysis.not_finished"));
    return stopPolling();
  }
  if (!polling) polling = setInterval(pollAnalysis, 1000);
}

function stopPolling() { if (polling) { clearInterval(polling); polling = null; } }

async function pollAnalysis() {
  try { analysisState(await TK.api(`/api/replays/${encodeURIComponent(replayId)}/analysis`)); }
  catch (e) { stopPolling(); analysisStatus(TK.t("analysis.cannot_follow", { message: e.message })); }
}

async function startAnalysis() {
  const button = document.getElementById("analyze");
  button.disabled = true;
  try {
    analysisState(await TK.api(`/api/replays/${encodeURIComponent(replayId)}/analysis`, { method: "POST" }));
  } catch (e) {
    if (e.data && e.data.code === "analysis_running") return pollAnalysis();
    button.disabled = false;
    analysisStatus(e.message);
  }
}

// Space and Enter on the analysis buttons press them, not the replay's play button.
function keepKey(e) { if (e.key === " " || e.key === "Enter") e.stopPropagation(); }

function initAnalysis() {
  document.getElementById("analyze").addEventListener("click", startAnalysis);
  document.getElementById("analyze").addEventListener("keydown", keepKey);
  pollAnalysis();
}

window.tikalReplay = { show: (n) => show(n), step: () => step, analysis: () => A };

main();
