// The start page: create games, list games, open record files.
"use strict";

const h = TK.h;
let META = null;

function rulesName() { return document.querySelector("input[name=rules]:checked").value; }
// A newcomer's first opponent is the easy bot; the stronger ones are one click away.
const FIRST_OPPONENT = "easy";
function opponent() { return META.bots.includes(FIRST_OPPONENT) ? FIRST_OPPONENT : META.hint_bot; }

// A seat's look (colour, shape, default name) from the server's seat table.
function seatLook(i) {
  const look = META.seats[i % META.seats.length];
  return { ...look, colour_name: (META.colour_names || [])[i % META.seats.length] || look.name };
}

// A bot level as the seat list offers it: with its rating in the chosen rule set, once it
// has one (calibrated by `tikal ratings calibrate`, then moved by rated games).
function botLabel(level) {
  const rated = ((META.bot_ratings || {})[level] || {})[rulesName()];
  if (!rated) return TK.t("index.bot", { level: TK.levelName(level) });
  const key = rated.provisional ? "index.bot_rated_provisional" : "index.bot_rated";
  return TK.t(key, { level: TK.levelName(level), rating: new Intl.NumberFormat(document.documentElement.lang).format(rated.shown) });
}

function seatRow(i, kind, level) {
  const look = seatLook(i);
  const sel = h("select", { name: "kind", "aria-label": TK.t("index.seat_kind", { seat: i + 1 }) });
  sel.append(h("option", { value: "human" }, TK.t("index.human")));
  for (const b of META.bots) sel.append(h("option", { value: "bot:" + b }, botLabel(b)));
  sel.value = kind === "bot" ? "bot:" + (level || opponent()) : "human";
  return h("div", { class: "seat-row", "data-seat": i }, TK.chip(look),
    h("input", { name: "name", placeholder: look.colour_name, maxlength: 24, "aria-label": TK.t("index.seat_name", { seat: i + 1 }) }), sel, h("span", { class: "hint-text" }, TK.t("index.seat", { seat: i + 1 })));
}

function setSeats(n, kinds) {
  const box = document.getElementById("seats");
  const old = [...box.children].map((r) => r.querySelector("select").value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const k = kinds ? kinds[i] : (old[i] || (i === 0 ? "human" : "bot:" + opponent()));
    const row = seatRow(i, k.startsWith("bot") ? "bot" : "human", k.split(":")[1]);
    box.append(row);
  }
}

function onRulesChange() {
  const rs = META.rulesets[rulesName()];
  const count = document.getElementById("seats").children.length;
  const n = Math.min(Math.max(count, rs.players[0]), rs.players[rs.players.length - 1]);
  setSeats(n);
  const opts = document.getElementById("options");
  opts.replaceChildren();
  for (const [k, v] of Object.entries(rs.options)) {
    opts.append(h("label", {}, h("input", { type: "checkbox", name: k, checked: !!v }), " ", rs.option_texts[k] || k), h("br"));
  }
  document.getElementById("options-box").hidden = !Object.keys(rs.options).length;
}

async function create(body) {
  const btn = document.getElementById("create-btn");
  btn.disabled = true;
  try {
    const res = await TK.api("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const humans = res.seats.filter((s) => s.kind === "human");
    const links = humans.map((s) => ({ name: s.name, url: s.url, seat: s.seat }));
    const names = res.seats.map((s) => s.name);
    if (body.hotseat || humans.length <= 1) {
      const tok = res.hotseat_token || (humans[0] && humans[0].token);
      TK.saveGame(res.id, { token: tok, rules: body.rules, names, links: [] });
      location.href = tok ? `/play/${res.id}#t=${tok}` : `/play/${res.id}`;
      return;
    }
    TK.saveGame(res.id, { token: humans[0].token, rules: body.rules, names, links });
    showLinks(res, links);
  } catch (e) {
    TK.toast(e.message, "error");
  } finally {
    btn.disabled = false;
  }
}

function showLinks(res, links) {
  const box = document.getElementById("created");
  box.hidden = false;
  const rows = links.map((l) => {
    const input = h("input", { value: l.url, readonly: true, "aria-label": TK.t("index.invite_for", { name: l.name }) });
    const copy = h("button", { class: "btn small", type: "button" }, TK.t("copy"));
    copy.addEventListener("click", () => TK.copy(l.url, copy));
    return h("div", { class: "link-row" }, h("span", {}, TK.t("index.seat_of", { name: l.name, seat: l.seat + 1 })), input, copy, h("a", { class: "btn small", href: l.url, target: "_blank" }, TK.t("index.open")));
  });
  const spect = h("input", { value: res.spectator_url, readonly: true, "aria-label": TK.t("index.spectator_link") });
  const sc = h("button", { class: "btn small", type: "button" }, TK.t("copy"));
  sc.addEventListener("click", () => TK.copy(res.spectator_url, sc));
  box.replaceChildren(h("div", { class: "links" }, h("h2", {}, TK.t("index.created")),
    h("p", { class: "hint-text" }, TK.t("index.secret")),
    ...rows, h("div", { class: "link-row" }, h("span", {}, TK.t("index.spectators")), spect, sc, h("span")),
    h("a", { class: "btn primary", href: links[0].url, id: "play-first" }, TK.t("index.play_as", { name: links[0].name }))));
  document.getElementById("create").hidden = true;
  renderMine();
}

function formBody() {
  const seats = [...document.getElementById("seats").children].map((row) => {
    const v = row.querySelector("select").value;
    const input = row.querySelector("input");
    const name = input.value.trim() || input.placeholder || null; // the colour, in the page's language
    return v === "human" ? { kind: "human", name } : { kind: "bot", level: v.split(":")[1], name };
  });
  const options = {};
  document.querySelectorAll("#options input[type=checkbox]").forEach((c) => (options[c.name] = c.checked));
  const hotseat = document.querySelector("input[name=mode]:checked").value === "hotseat";
  const body = { rules: rulesName(), seats, options, hotseat };
  if (document.getElementById("rated").checked && !document.getElementById("rated-box").hidden) {
    body.rated = true; // by invite link: each player on a seat of their own (docs/web.md, Ratings)
    body.hotseat = false;
  }
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) body.seed = +seed; // reproducible shuffles (tests, puzzles)
  return body;
}

function renderMine() {
  const box = document.getElementById("my-games");
  const mine = Object.entries(TK.myGames()).sort((a, b) => b[1].seen - a[1].seen).slice(0, 12);
  box.replaceChildren();
  if (!mine.length) box.append(h("li", { class: "hint-text" }, TK.t("index.no_mine")));
  for (const [id, g] of mine) {
    box.append(h("li", {}, h("a", { href: `/play/${id}${g.token ? "#t=" + g.token : ""}` }, `${g.rules ? TK.t("ruleset." + g.rules) : TK.t("index.game")} ${id}`), h("span", { class: "meta" }, (g.names || []).join(", ")), h("span", { class: "meta" }, new Date(g.seen).toLocaleString(TK.lang))));
  }
}

async function renderAll() {
  const box = document.getElementById("all-games");
  try {
    const games = await TK.api("/api/games");
    box.replaceChildren();
    if (!games.length) box.append(h("li", { class: "hint-text" }, TK.t("index.no_games")));
    for (const g of games.slice(0, 15)) {
      box.append(h("li", {}, h("span", { class: "pill " + g.status }, TK.term("status." + g.status, g.status)), TK.term("ruleset." + g.rules, g.rules), h("span", { class: "meta" }, TK.list(g.seats.map((s) => (s.kind === "bot" ? TK.t("index.bot_seat", { name: s.name }) : s.name))) + " · " + TK.t("index.moves", { count: g.moves })),
        h("a", { href: `/play/${g.id}` }, TK.t("index.watch")), h("a", { href: `/replay/${g.id}` }, TK.t("index.replay"))));
    }
  } catch (e) {
    box.replaceChildren(h("li", {}, TK.t("index.load_failed")));
  }
}

async function upload(file) {
  const msg = document.getElementById("upload-msg");
  try {
    const text = await file.text();
    const res = await TK.api("/api/replays", { method: "POST", headers: { "content-type": "application/json" }, body: text });
    location.href = res.url;
  } catch (e) {
    msg.replaceChildren(h("p", { class: "refusal" }, TK.t("index.bad_record", { message: e.message })));
  }
}

// One radio button per rule set the server offers, with its player counts and AP.
function renderRuleSets() {
  const box = document.getElementById("rulesets");
  box.replaceChildren();
  Object.entries(META.rulesets).forEach(([name, rs], i) => {
    const lo = Math.min(...rs.players), hi = Math.max(...rs.players);
    const players = lo === hi ? TK.t("index.players", { count: lo }) : TK.t("index.players_range", { low: lo, high: hi });
    box.append(h("label", {}, h("input", { type: "radio", name: "rules", value: name, checked: i === 0 }),
      TK.term("ruleset." + name, name), h("small", {}, TK.t(rs.auction ? "index.ruleset_line_auction" : "index.ruleset_line", { players, ap: rs.action_points }))));
  });
}

async function main() {
  META = await TK.api("/api/meta");
  renderRuleSets();
  document.querySelectorAll("input[name=rules]").forEach((r) => r.addEventListener("change", onRulesChange));
  setSeats(2, ["human", "bot:" + opponent()]);
  onRulesChange();
  document.getElementById("add-seat").addEventListener("click", () => {
    const rs = META.rulesets[rulesName()];
    const n = document.getElementById("seats").children.length;
    if (n < Math.max(...rs.players)) setSeats(n + 1);
  });
  document.getElementById("remove-seat").addEventListener("click", () => {
    const rs = META.rulesets[rulesName()];
    const n = document.getElementById("seats").children.length;
    if (n > Math.min(...rs.players)) setSeats(n - 1);
  });
  TK.api("/api/account").then((me) => { document.getElementById("rated-box").hidden = !me.signed_in; }).catch(() => {});
  document.getElementById("rated").addEventListener("change", (e) => {
    if (e.target.checked) document.querySelector("input[name=mode][value=invite]").checked = true;
  });
  document.getElementById("create").addEventListener("submit", (e) => { e.preventDefault(); create(formBody()); });
  // Quick games: you against easy bots, every seat named by its colour in the page's
  // language (a seat called "you" read "you (you)" and "Du (du) ist am Zug").
  const quick = (rules, bots) => create({ rules, hotseat: true, seats: [{ kind: "human", name: seatLook(0).colour_name },
    ...Array.from({ length: bots }, (_, i) => ({ kind: "bot", level: opponent(), name: seatLook(i + 1).colour_name }))] });
  document.getElementById("quick-demo").addEventListener("click", () => quick("demo", 1));
  document.getElementById("quick-standard").addEventListener("click", () => quick("standard", 2));
  document.getElementById("record-file").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); });
  renderMine();
  renderAll();
}

main();
