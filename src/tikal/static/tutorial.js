// "Learn to play": steps come from /api/tutorial, the engine judges every action.
// This page knows no rule: it shows the step, sends what the player clicked and
// explains the server's answer.
"use strict";

const TUT = {
  lang: "en", ui: {}, outline: null, steps: [], key: null, data: null,
  rotation: 0, sel: null, cell: null, live: false, solved: false, busy: false,
};
window.tutorial = TUT; // for tests and the curious

const STORE = "tikal.tutorial";
const h = TK.h;

function loadProgress() {
  try {
    const p = JSON.parse(localStorage.getItem(STORE) || "{}");
    return { marks: p.marks || {}, current: p.current || null };
  } catch (e) {
    return { marks: {}, current: null };
  }
}
function saveProgress(p) { localStorage.setItem(STORE, JSON.stringify(p)); }
let PROGRESS = loadProgress();

function t(key, params) {
  let s = TUT.ui[key] || key;
  for (const [k, v] of Object.entries(params || {})) s = s.replace("{" + k + "}", v);
  return s;
}
const $ = (id) => document.getElementById(id);

function indexOf(key) { return TUT.steps.findIndex((s) => s.key === key); }

async function init() {
  const q = new URLSearchParams(location.search);
  TUT.lang = ["en", "de", "ja"].includes(q.get("lang")) ? q.get("lang") : "en";
  TUT.outline = await TK.api(`/api/tutorial?lang=${TUT.lang}`);
  TUT.ui = TUT.outline.ui;
  document.documentElement.lang = TUT.lang;
  document.title = t("page_title");
  $("heading").textContent = t("heading");
  $("home-link").textContent = t("home");
  $("rules-link").textContent = t("rules_link");
  $("rules-link").href = `/rules?lang=${TUT.lang}`;
  $("repeat-btn").textContent = t("repeat");
  $("skip-btn").textContent = t("skip");
  $("next-btn").textContent = t("next");
  for (const part of TUT.outline.parts) {
    for (const s of part.steps) TUT.steps.push({ key: `${part.id}/${s.id}`, part: part.id, id: s.id, title: s.title, rule: s.rule });
  }
  $("repeat-btn").addEventListener("click", () => show(TUT.key));
  $("skip-btn").addEventListener("click", skip);
  $("next-btn").addEventListener("click", next);
  $("board").addEventListener("click", boardClick);
  const fromHash = decodeURIComponent(location.hash.slice(1));
  const start = indexOf(fromHash) >= 0 ? fromHash : (indexOf(PROGRESS.current) >= 0 ? PROGRESS.current : TUT.steps[0].key);
  await show(start);
}

async function show(key) {
  const info = TUT.steps[indexOf(key)];
  TUT.key = key;
  PROGRESS.current = key;
  saveProgress(PROGRESS);
  history.replaceState(null, "", `#${key}`);
  TUT.live = false;
  $("feedback").hidden = true;
  const data = await TK.api(`/api/tutorial/${info.part}/${info.id}?lang=${TUT.lang}`);
  TUT.data = data;
  TUT.rotation = 0;
  TUT.sel = null;
  TUT.cell = null;
  TUT.live = true;
  TUT.solved = false;
  $("next-btn").disabled = true;
  $("feedback").hidden = true;
  $("feedback").className = "card tut-feedback";
  renderStep();
  renderBoard(data.board);
  renderTile();
  renderActions();
  renderProgress();
  renderFinish();
}

function renderStep(after) {
  const d = Object.assign({}, TUT.data, after || {});
  const n = indexOf(TUT.key) + 1;
  const part = TUT.outline.parts.find((p) => p.id === d.part);
  const status = h("div", { class: "tut-status" },
    h("span", {}, t(`phase.${d.phase}`)),
    d.ap_max && (d.phase === "turn" || d.phase === "scoring") ? h("span", {}, t("ap") + ": ", h("strong", { id: "ap-left" }, `${d.ap} / ${d.ap_max}`)) : null,
    h("span", {}, t("scores") + ": ", Object.entries(d.scores).map(([who, pts]) => `${who} ${pts}`).join(" · ")),
    d.treasures.some((x) => x) ? h("span", {}, t("treasures") + ": ", Object.keys(d.scores).map((who, i) => `${who} ${d.treasures[i] || "–"}`).join(" · ")) : null);
  $("step-card").replaceChildren(
    h("div", { class: "tut-count" }, `${part ? part.title : ""} · ${t("step_of", { n, total: TUT.steps.length })}`),
    h("h1", { id: "step-title" }, d.title),
    h("p", { class: "tut-text", id: "step-text" }, d.text),
    legend(d),
    h("div", { class: "tut-rule" },
      h("a", { href: d.rule_url, target: "_blank", class: "rule-link", "data-rule": d.rule }, `${t("rule")} ${d.rule}`),
      h("span", { class: "rule-text" }, d.rule_text)),
    status);
}

// The board as the server drew it, fitted to the spaces drawn (on a phone the demo's
// first spaces filled a third of the box), then marked.
// What the marks on the board mean: the goal's star, the tile's dashed places.
function legend(d) {
  const items = [];
  if ((d.highlight || []).length) items.push(h("span", { class: "tut-key" }, h("span", { class: "key-goal", "aria-hidden": "true" }, "\u2605"), " ", t("legend_goal")));
  if (d.phase === "tile") items.push(h("span", { class: "tut-key" }, h("span", { class: "key-fit", "aria-hidden": "true" }), " ", t("legend_fit")));
  return items.length ? h("p", { class: "tut-legend", id: "tut-legend" }, ...items) : null;
}

function renderBoard(svg) {
  const box = $("board");
  box.innerHTML = svg;
  const pic = box.querySelector("svg");
  if (pic) TK.fitBoard(pic, pic.getAttribute("viewBox"), box.clientWidth, 150);
  markBoard();
}

function spaceOf(cell) { return $("board").querySelector(`g.space[data-cell="${CSS.escape(cell)}"]`); }

function walksFrom(sel) {
  return TUT.data.legal.filter((e) => (e.verb === "move" || e.verb === "path") && e.cells[0] === sel.cell && e.action.split(" ")[1] === sel.fig);
}

// Placements of the drawn tile at the current rotation (from the legal list).
function fits() {
  return TUT.data.legal.filter((e) => e.verb === "tile" && e.action.split(" ")[2] === String(TUT.rotation));
}

// The step's goal (the spaces the server highlights) looks like nothing else on the
// board: a solid pink ring and a star, while the tile's legal places are dashed yellow.
function markGoal(board) {
  board.querySelectorAll(".tut-star").forEach((n) => n.remove());
  const overlay = board.querySelector("svg > g.overlay");
  if (!TUT.live || !overlay) return;
  for (const cell of TUT.data.highlight || []) {
    const sp = spaceOf(cell);
    if (!sp) continue;
    sp.classList.add("tut-goal");
    const x = +sp.dataset.x + 26, y = +sp.dataset.y - 24;
    const points = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 5 : 12, a = Math.PI / 5 * i - Math.PI / 2;
      points.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
    }
    const star = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    star.setAttribute("points", points.join(" "));
    star.setAttribute("class", "tut-star");
    overlay.append(star);
  }
}

function markBoard() {
  const board = $("board");
  board.querySelectorAll(".tut-target, .tut-picked, .tut-fit, .tut-goal").forEach((n) => n.classList.remove("tut-target", "tut-picked", "tut-fit", "tut-goal"));
  markGoal(board);
  if (!TUT.live) return;
  if (TUT.data.phase === "tile") {
    for (const e of fits()) {
      const sp = spaceOf(e.cells[0]);
      if (sp) sp.classList.add("tut-fit");
    }
    return;
  }
  if (!TUT.sel) return;
  const own = spaceOf(TUT.sel.cell);
  if (own) own.classList.add("tut-picked");
  for (const e of walksFrom(TUT.sel)) {
    const sp = spaceOf(e.cells[1]);
    if (sp) sp.classList.add("tut-target");
  }
}

function renderTile() {
  const card = $("tile-card");
  const tile = TUT.data.tile;
  const open = TUT.data.display || [];
  if (!tile && open.length && TUT.live) {
    card.hidden = false;
    card.replaceChildren(h("h2", {}, t("open_tiles")),
      h("div", { class: "tut-tile-row" }, open.map((x) => h("div", { class: "tut-open" }, h("div", { class: "tut-tile-pic", html: x.picture }), x.text))));
    return;
  }
  if (!tile || !TUT.live) { card.hidden = true; return; }
  card.hidden = false;
  const pic = h("div", { class: "tut-tile-pic", html: tile.pictures[TUT.rotation] });
  const turn = (by) => { TUT.rotation = (TUT.rotation + by + 6) % 6; renderTile(); markBoard(); renderActions(); };
  card.replaceChildren(
    h("h2", {}, t("drawn_tile")),
    h("div", { class: "tut-tile-row" }, pic,
      h("div", {},
        h("div", {}, tile.text),
        h("div", { id: "rotation" }, t("rotation", { r: TUT.rotation })),
        h("div", { class: "row" },
          h("button", { class: "btn small", type: "button", id: "rot-left", onclick: () => turn(-1) }, "⟲ " + t("rotate_left")),
          h("button", { class: "btn small", type: "button", id: "rot-right", onclick: () => turn(1) }, t("rotate_right") + " ⟳")))),
    h("p", { class: "hint-text" }, t("tile_help")));
}

function actionButton(e, here) {
  return h("button", {
    class: "btn" + (here ? " tut-here" : "") + (e.verb === "bid" || e.verb === "pass" ? " small" : ""),
    type: "button", "data-action": e.action, onclick: () => send(e.action),
  }, h("span", {}, e.text), e.cost ? h("span", { class: "cost" }, `${e.cost} AP`) : null);
}

function renderActions() {
  const card = $("actions-card");
  if (!TUT.live) { card.hidden = true; return; }
  card.hidden = false;
  const d = TUT.data;
  const parts = [h("h2", {}, t("actions"))];
  if (d.phase === "tile") {
    parts.push(h("p", { class: "hint-text" }, t("tile_help")));
    parts.push(h("details", { class: "tut-more" }, h("summary", {}, t("fits_now")),
      h("div", { class: "tut-actions" }, fits().map((e) => actionButton(e, false)))));
    card.replaceChildren(...parts);
    return;
  }
  if (d.legal.some((e) => e.verb === "move" || e.verb === "path")) {
    parts.push(h("p", { class: "hint-text" }, t("figure_help")));
  }
  if (TUT.sel) {
    const what = TUT.sel.fig === "L" ? t("leader") : t("worker");
    parts.push(h("div", { class: "row", id: "selection" },
      h("strong", {}, t("selected", { what, cell: TUT.sel.cell })),
      h("button", { class: "btn small", type: "button", onclick: () => { TUT.sel = null; markBoard(); renderActions(); } }, t("clear"))));
    const walks = walksFrom(TUT.sel);
    if (walks.length) parts.push(h("div", { class: "tut-actions" }, walks.map((e) => actionButton(e, false))));
  }
  const others = d.legal.filter((e) => !["move", "path", "tile"].includes(e.verb));
  const here = others.filter((e) => TUT.cell && e.cells.includes(TUT.cell));
  const rest = others.filter((e) => !here.includes(e));
  const bids = rest.filter((e) => e.verb === "bid" || e.verb === "pass");
  const plain = rest.filter((e) => !bids.includes(e));
  parts.push(h("div", { class: "tut-actions" }, here.map((e) => actionButton(e, true)), plain.map((e) => actionButton(e, false))));
  if (bids.length) parts.push(h("div", { class: "row tut-bids" }, bids.map((e) => actionButton(e, false))));
  const walks = d.legal.filter((e) => e.verb === "move" || e.verb === "path");
  if (walks.length) {
    parts.push(h("details", { class: "tut-more" }, h("summary", {}, t("all_moves")),
      h("div", { class: "tut-actions" }, walks.map((e) => actionButton(e, false)))));
  }
  card.replaceChildren(...parts);
}

function boardClick(ev) {
  if (!TUT.live || TUT.busy) return;
  const d = TUT.data;
  const fig = ev.target.closest("g.fig");
  const space = ev.target.closest("g.space");
  if (!space) return;
  const cell = space.dataset.cell;
  if (d.phase === "tile") {
    send(`tile ${cell} ${TUT.rotation}`);
    return;
  }
  if (TUT.sel && cell !== TUT.sel.cell) {
    const walk = walksFrom(TUT.sel).find((e) => e.cells[1] === cell);
    send(walk ? walk.action : `move ${TUT.sel.fig} ${TUT.sel.cell} ${cell}`);
    return;
  }
  if (fig && Number(fig.dataset.seat) === d.seat) {
    TUT.sel = { cell, fig: fig.dataset.fig };
  } else {
    TUT.sel = null;
  }
  TUT.cell = cell;
  markBoard();
  renderActions();
}

function ruleLink(reason) {
  return h("span", {},
    h("a", { href: reason.url, target: "_blank", class: "rule-link", "data-rule": reason.rule }, `${t("rule")} ${reason.rule}`),
    reason.rule_text ? h("span", { class: "rule-text" }, reason.rule_text) : null);
}

async function send(action) {
  if (TUT.busy || !TUT.live) return;
  TUT.busy = true;
  const info = TUT.steps[indexOf(TUT.key)];
  let res;
  try {
    res = await TK.api(`/api/tutorial/${info.part}/${info.id}`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ action, lang: TUT.lang }),
    });
  } catch (e) {
    TK.toast(e.message, "error");
    return;
  } finally {
    TUT.busy = false;
  }
  const fb = $("feedback");
  fb.hidden = false;
  TUT.sel = null;
  TUT.cell = null;
  if (res.ok) {
    TUT.live = false;
    TUT.solved = true;
    fb.className = "card tut-feedback ok";
    fb.replaceChildren(
      h("div", { class: "tut-title" }, t("well_done")),
      h("p", {}, res.done),
      h("div", { class: "hint-text" }, t("what_happened") + ":"),
      h("ul", {}, res.played.map((line) => h("li", {}, line))),
      ...(res.over ? [h("p", {}, h("strong", {}, t("game_over")), " ", Object.entries(res.scores).map(([w, p]) => `${w} ${p}`).join(" · "))] : []));
    renderBoard(res.board);
    renderStep({ scores: res.scores, treasures: res.treasures, ap: res.ap === undefined ? TUT.data.ap : res.ap });
    mark(TUT.key, "done");
    $("next-btn").disabled = false;
    renderTile();
    renderActions();
    renderProgress();
    renderFinish();
    $("next-btn").focus();
    return;
  }
  const tried = h("p", { class: "hint-text" }, `${t("you_tried")}: ${res.tried}`);
  if (res.reason) {
    fb.className = "card tut-feedback refused";
    fb.replaceChildren(
      h("div", { class: "tut-title" }, t("not_allowed")),
      tried,
      h("p", { class: "tut-reason" }, res.reason.text),
      ruleLink(res.reason),
      h("p", {}, res.hint),
      h("p", {}, t("try_again")));
  } else {
    fb.className = "card tut-feedback miss";
    fb.replaceChildren(
      h("div", { class: "tut-title" }, t("not_this")),
      tried,
      h("p", {}, res.hint),
      h("p", {}, t("try_again")));
  }
  markBoard();
  renderActions();
}

function mark(key, how) {
  if (how === "skipped" && PROGRESS.marks[key] === "done") return;
  PROGRESS.marks[key] = how;
  saveProgress(PROGRESS);
}

function following() {
  const i = indexOf(TUT.key);
  return i + 1 < TUT.steps.length ? TUT.steps[i + 1].key : null;
}

function skip() {
  mark(TUT.key, "skipped");
  const nxt = following();
  if (nxt) show(nxt);
  else { renderProgress(); renderFinish(true); }
}

function next() {
  const nxt = following();
  if (nxt) show(nxt);
  else renderFinish(true);
}

function renderProgress() {
  const card = $("progress-card");
  const parts = [h("h2", {}, t("progress"))];
  for (const part of TUT.outline.parts) {
    parts.push(h("h3", {}, part.title));
    parts.push(h("ol", {}, part.steps.map((s) => {
      const key = `${part.id}/${s.id}`;
      const m = PROGRESS.marks[key];
      const cls = [m || "", key === TUT.key ? "current" : ""].join(" ").trim();
      const sign = m === "done" ? "✓" : m === "skipped" ? "↷" : key === TUT.key ? "▸" : "";
      return h("li", { class: cls || null, "data-step": key },
        h("span", { class: "tut-mark", "aria-label": m ? t(m === "done" ? "completed" : "skipped") : null }, sign),
        h("button", { type: "button", onclick: () => show(key) }, s.title));
    })));
  }
  parts.push(h("button", {
    class: "btn small", type: "button", id: "reset-btn",
    onclick: () => { PROGRESS = { marks: {}, current: null }; saveProgress(PROGRESS); show(TUT.steps[0].key); },
  }, t("reset")));
  card.replaceChildren(...parts);
}

function renderFinish(scroll) {
  const card = $("finish-card");
  const last = TUT.key === TUT.steps[TUT.steps.length - 1].key;
  const all = TUT.steps.every((s) => PROGRESS.marks[s.key]);
  if (!(all || (last && TUT.solved) || scroll)) { card.hidden = true; return; }
  card.hidden = false;
  card.replaceChildren(
    h("h2", {}, t("finish_title")),
    h("p", {}, t("finish_text")),
    h("button", { class: "btn primary", type: "button", id: "play-bot", onclick: playBot }, t("play_bot")));
  if (scroll) card.scrollIntoView({ block: "nearest" });
}

async function playBot() {
  const btn = $("play-bot");
  btn.disabled = true;
  try {
    // seats named by their colours in the page's language, as the start page names them
    // (a seat called "Du" read "Du (du) ist am Zug", a bot left unnamed was "Red")
    const meta = await TK.api(`/api/meta?lang=${TUT.lang}`);
    const names = meta.colour_names || [];
    const body = { rules: "demo", hotseat: true, seats: [{ kind: "human", name: names[0] || null }, { kind: "bot", level: "easy", name: names[1] || null }] };
    const res = await TK.api("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const human = res.seats.find((s) => s.kind === "human");
    const tok = res.hotseat_token || (human && human.token);
    TK.saveGame(res.id, { token: tok, rules: "demo", names: res.seats.map((s) => s.name), links: [] });
    location.href = `/play/${res.id}#t=${tok}`;
  } catch (e) {
    TK.toast(e.message, "error");
    btn.disabled = false;
  }
}

init().catch((e) => TK.toast(String(e.message || e), "error"));
