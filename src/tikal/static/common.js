// Shared helpers for the Tikal pages (vanilla JS, no build step).
"use strict";

const TK = {};

// ------------------------------------------------------------------ texts (docs/i18n.md)
// Every text comes from the server's catalog: the page embeds its language's templates
// (web.* without the prefix, kind.*) and plural rule as JSON in #tk-texts.

TK.I18N = (() => {
  const el = document.getElementById("tk-texts");
  try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
})() || { lang: "en", plural: { one: 0, other: 1 }, texts: {}, languages: { en: "English" } };
TK.lang = TK.I18N.lang || document.documentElement.lang || "en";
// The catalog's form for n: the server maps each CLDR category to it (i18n.plural_forms).
TK.pluralIndex = (() => {
  const rules = new Intl.PluralRules(TK.lang);
  const forms = TK.I18N.plural || {};
  return (n) => forms[rules.select(n)] ?? 0;
})();
TK.numbers = new Intl.NumberFormat(TK.lang);

// The template of a key, its plural form chosen by the parameter the catalog names.
TK.template = function (key, params) {
  const entry = TK.I18N.texts[key];
  if (entry === undefined || entry === null) return key;
  if (typeof entry === "string") return entry;
  const n = params ? params[entry.counter] : 0;
  const forms = entry.forms;
  return forms[Math.min(TK.pluralIndex(typeof n === "number" ? n : 0), forms.length - 1)];
};

TK.format = function (value) {
  return typeof value === "number" ? TK.numbers.format(value) : String(value);
};

// A text: TK.t("game.end_turn"), TK.t("ap.left", { ap: 2 }).
TK.t = function (key, params) {
  params = params || {};
  return TK.template(key, params).replace(/\{(\w+)\}/g, (m, name) =>
    (name in params ? TK.format(params[name] instanceof Node ? params[name].textContent : params[name]) : m));
};

// A text whose parameters may be nodes (a player's chip and name): a list for TK.h.
TK.tn = function (key, params) {
  params = params || {};
  const out = [];
  const re = /\{(\w+)\}/g;
  const tpl = TK.template(key, params);
  let at = 0, m;
  while ((m = re.exec(tpl)) !== null) {
    if (m.index > at) out.push(tpl.slice(at, m.index));
    const v = params[m[1]];
    out.push(v === undefined ? m[0] : v instanceof Node ? v : TK.format(v));
    at = re.lastIndex;
  }
  if (at < tpl.length) out.push(tpl.slice(at));
  return out;
};

// Names as a list in the page's language ("Ann, Bo and Cy", "Ann、Bo、Cy").
TK.list = function (names) {
  try { return new Intl.ListFormat(TK.lang, { style: "long", type: "conjunction" }).format(names); }
  catch (e) { return names.length < 2 ? names.join("") : TK.t("list_and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] }); }
};

// A game term of the engine's catalog (kind.temple ...), else the word as sent.
TK.term = function (key, fallback) {
  return key in TK.I18N.texts ? TK.t(key) : fallback;
};

// A bot level's name (web.level.*), else the level as the server names it.
TK.levelName = function (level) { return TK.term("level." + level, level); };

// ------------------------------------------------------------------ language picker

TK.COOKIE = "tikal_lang";
TK.setLanguage = function (lang) {
  document.cookie = `${TK.COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
  try { localStorage.setItem("tikal.lang", lang); } catch (e) { /* private mode */ }
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) url.searchParams.set("lang", lang);
  if (url.href !== location.href) location.replace(url.href);
  else location.reload(); // the same page (and game: the token stays in the hash) in the new language
};

TK.picker = function () {
  const sel = TK.h("select", { id: "lang-picker", class: "lang-picker", "aria-label": TK.t("lang.label"), title: TK.t("lang.label") });
  for (const [code, name] of Object.entries(TK.I18N.languages || {})) {
    sel.append(TK.h("option", { value: code, lang: code, selected: code === TK.lang }, name));
  }
  sel.value = TK.lang;
  sel.addEventListener("change", () => TK.setLanguage(sel.value));
  return sel;
};

TK.installPicker = function () {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("lang-picker")) return;
  let nav = header.querySelector("nav");
  if (!nav) { nav = TK.h("nav"); header.append(nav); }
  nav.append(TK.picker());
  // A choice kept in this browser wins over the browser's language once the cookie is gone.
  let kept = null;
  try { kept = localStorage.getItem("tikal.lang"); } catch (e) { /* private mode */ }
  const cookie = document.cookie.split("; ").some((c) => c.startsWith(TK.COOKIE + "="));
  const asked = new URLSearchParams(location.search).has("lang");
  if (kept && !cookie && !asked && kept !== TK.lang && kept in (TK.I18N.languages || {})) TK.setLanguage(kept);
  else if (asked || cookie) { try { localStorage.setItem("tikal.lang", TK.lang); } catch (e) { /* private mode */ } }
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", TK.installPicker);
else TK.installPicker();

// The rulebook of the page's language, at a rule.
TK.ruleUrl = function (rule) { return `/rules/${TK.lang}` + (rule ? "#" + rule : ""); };

TK.h = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
};

TK.SHAPES = {
  circle: (c, s) => `<circle cx="11" cy="11" r="7.5" fill="${c}" stroke="#1b1b1b" stroke-width="${s}"/>`,
  square: (c, s) => `<rect x="4" y="4" width="14" height="14" rx="1.5" fill="${c}" stroke="#1b1b1b" stroke-width="${s}"/>`,
  triangle: (c, s) => `<polygon points="11,2.5 19.5,18 2.5,18" fill="${c}" stroke="#1b1b1b" stroke-width="${s}"/>`,
  diamond: (c, s) => `<polygon points="11,2 19.5,11 11,20 2.5,11" fill="${c}" stroke="#1b1b1b" stroke-width="${s}"/>`,
};

// A player's mark: colour *and* shape (colour-blind friendly); leader gets an L.
TK.chip = function (seat, leader, size) {
  size = size || 22;
  const shape = TK.SHAPES[seat.shape] || TK.SHAPES.circle;
  const label = leader ? `<text x="11" y="${seat.shape === "triangle" ? 16 : 14.5}" text-anchor="middle" font-size="9" font-weight="800" fill="${seat.ink}">L</text>` : "";
  const span = document.createElement("span");
  span.className = "chip";
  span.innerHTML = `<svg width="${size}" height="${size}" viewBox="0 0 22 22" role="img" aria-label="${seat.colour_name}">${shape(seat.colour, leader ? 2.2 : 1.2)}${label}</svg>`;
  span.title = `${seat.colour_name}: ${seat.name}`;
  return span;
};

// A treasure type as its icon: the page's sprite (tikal.server.sprites) defines one per
// type, colour and glyph, named in the page's language; `count` is shown beside it.
TK.treasureIcon = function (letter, count) {
  const def = document.getElementById(`tk-icon-treasure-${letter}`);
  const name = (def && def.getAttribute("data-name")) || letter.toUpperCase();
  const label = count === undefined || count === null ? TK.t("treasure.name", { name }) : TK.t("treasure.name_count", { name, count });
  const icon = TK.h("span", { class: "tr", title: label, role: "img", "aria-label": label });
  icon.innerHTML = `<svg viewBox="-12 -12 24 24" width="22" height="22" aria-hidden="true" focusable="false"><use href="#tk-icon-treasure-${letter}"/></svg>`;
  if (count !== undefined && count !== null) icon.append(TK.h("span", { class: "tr-n", "aria-hidden": "true" }, "\u00d7" + TK.format(count)));
  return icon;
};

// The board picture's view box fitted to the spaces drawn (the tiles placed and the
// spaces next to them), so that on a narrow screen the hexes fill the board's box: the
// demo plane's picture keeps 7 x 5 hexes in view, a third of a 390 px phone's box for the
// first 7 spaces. A hex is never drawn wider than `maxHex` px of a box `width` px wide,
// and the view never goes beyond the server's (`serverBox`: its view box). The page knows
// no geometry: the spaces' centres are their data-x/data-y, a hex's extent is measured
// once per picture (one getBBox; patched spaces keep the picture).
const HEX_EXTENT = new WeakMap();

TK.hexExtent = function (svg) {
  if (!HEX_EXTENT.has(svg)) {
    const hex = svg.querySelector(":scope > g.space:not(.empty) .hex") || svg.querySelector(":scope > g.space .hex");
    let box = null;
    try { box = hex && hex.getBBox(); } catch (e) { box = null; }
    HEX_EXTENT.set(svg, box && box.width > 0 ? { w: box.width, h: box.height } : null);
  }
  return HEX_EXTENT.get(svg);
};

TK.fitBoard = function (svg, serverBox, width, maxHex) {
  const spaces = svg.querySelectorAll(":scope > g.space");
  const box = (serverBox || "").split(/[\s,]+/).map(Number);
  const hex = TK.hexExtent(svg);
  if (!spaces.length || !hex || box.length !== 4 || box.some(isNaN) || !(width > 0)) return;
  const xs = [], ys = [];
  spaces.forEach((g) => { xs.push(+g.dataset.x); ys.push(+g.dataset.y); });
  const pad = hex.w / 8;
  let x0 = Math.min(...xs) - hex.w / 2 - pad, x1 = Math.max(...xs) + hex.w / 2 + pad;
  let y0 = Math.min(...ys) - hex.h / 2 - pad, y1 = Math.max(...ys) + hex.h / 2 + pad;
  const least = (width / maxHex) * hex.w; // the narrowest view that keeps hexes small enough
  if (x1 - x0 < least) { const grow = (least - (x1 - x0)) / 2; x0 -= grow; x1 += grow; }
  const [bx, by, bw, bh] = box;
  const clamp = (lo, hi, min, max) => {
    if (hi - lo >= max - min) return [min, max];
    if (lo < min) return [min, min + (hi - lo)];
    if (hi > max) return [max - (hi - lo), max];
    return [lo, hi];
  };
  [x0, x1] = clamp(x0, x1, bx, bx + bw);
  [y0, y1] = clamp(y0, y1, by, by + bh);
  const fitted = [x0, y0, x1 - x0, y1 - y0].map((v) => Math.round(v * 100) / 100).join(" ");
  if (svg.getAttribute("viewBox") !== fitted) svg.setAttribute("viewBox", fitted);
};

// Rule texts for explaining refused moves.
TK.rules = null;
TK.loadRules = async function () {
  if (TK.rules) return TK.rules;
  try {
    const r = await fetch("/api/rules?lang=" + encodeURIComponent(TK.lang));
    TK.rules = r.ok ? await r.json() : {};
  } catch (e) {
    TK.rules = {};
  }
  return TK.rules;
};

TK.toast = function (content, kind, ms) {
  let box = document.querySelector(".toasts");
  if (!box) {
    box = TK.h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const close = TK.h("button", { class: "close", "aria-label": TK.t("close") }, "\u00d7");
  const t = TK.h("div", { class: "toast " + (kind || "") }, close, content);
  close.addEventListener("click", () => t.remove());
  box.append(t);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => t.remove(), ms || (kind === "error" ? 9000 : 3500));
  return t;
};

// A refused action: the engine's reason and a link to the rule.
TK.refusal = function (err) {
  const parts = [TK.h("strong", {}, TK.t("refusal.not_allowed"), " "), err.message || TK.t("refusal.refused")];
  if (err.rule && err.rule !== "NOTATION") {
    const text = TK.rules && TK.rules[err.rule];
    parts.push(" ", TK.h("a", { href: TK.ruleUrl(err.rule), target: "_blank", class: "rule-link", hreflang: TK.lang }, TK.t("refusal.rule", { rule: err.rule })));
    if (text) parts.push(TK.h("span", { class: "rule-text" }, text));
  }
  return TK.h("span", { class: "refusal-text" }, ...parts);
};

// Games this browser created or joined (tokens stay in this browser only).
TK.myGames = function () {
  try { return JSON.parse(localStorage.getItem("tikal.games") || "{}"); } catch (e) { return {}; }
};
TK.saveGame = function (id, data) {
  const all = TK.myGames();
  all[id] = Object.assign(all[id] || {}, data, { seen: Date.now() });
  localStorage.setItem("tikal.games", JSON.stringify(all));
};

// A signed-in player who opens a seat's invite link takes the seat for the account (so a
// rated game knows who played it); guests and seats bound already change nothing.
TK.claimSeat = async function (game, token) {
  try {
    const me = await TK.api("/api/account");
    if (!me.signed_in) return;
    await TK.api("/api/account/seats", { method: "POST", body: JSON.stringify({ seats: [{ game, token }] }),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf } });
  } catch (e) { /* offline or refused: the seat plays on by its link */ }
};

TK.copy = async function (text, btn) {
  try {
    await navigator.clipboard.writeText(text);
    if (btn) { const old = btn.textContent; btn.textContent = TK.t("copied"); setTimeout(() => (btn.textContent = old), 1200); }
  } catch (e) {
    window.prompt(TK.t("copy_prompt"), text);
  }
};

TK.api = async function (path, opts) {
  // the page's language, unless the path names one itself (the tutorial's own switch)
  const named = /[?&]lang=/.test(path);
  const r = await fetch(named ? path : path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(TK.lang), opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { message: r.statusText }; }
  if (!r.ok) { const err = new Error(data.message || r.statusText); err.data = data; throw err; }
  return data;
};

// The header's account link names who is signed in (the account page keeps it itself).
(function () {
  const link = document.getElementById("account-link");
  if (!link || document.querySelector(".account-page")) return;
  fetch("/api/account").then((r) => r.json()).then((me) => {
    if (me && me.signed_in) link.textContent = me.name;
  }).catch(() => { /* offline: the link keeps its word */ });
})();

// Turn-based play calls the player back (docs/web.md, Call-backs): the tab's icon gets a
// red dot while a game waits for this player's move (the pages put it in the title too).
TK.turnBadge = function (waiting) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  const href = waiting ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.turn = waiting ? "yours" : "";
};

// A browser notification (if the player turned them on and the browser allows them),
// only while this tab is hidden; one per `tag` (a game and its state), never repeated.
TK.notifyOnce = function (tag, title, body) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return false;
  TK.notified = TK.notified || new Set();
  if (TK.notified.has(tag)) return false;
  TK.notified.add(tag);
  try {
    const note = new Notification(title, { body, tag, icon: "/static/favicon.svg" });
    note.onclick = () => { window.focus(); note.close(); };
    return true;
  } catch (e) { return false; } // a browser that only notifies from a service worker
};

// Installable as a web app: the service worker keeps the static files for the next visit
// (games still need the server). Only where browsers allow workers (https, localhost).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* the pages work without it */ });
}
