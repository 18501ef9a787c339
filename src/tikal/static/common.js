// Shared helpers for the Tikal pages (vanilla JS, no build step).
"use strict";

const TK = {};

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

TK.treasure = function (letter, count) {
  const cls = count >= 3 ? "treasure triple" : count === 2 ? "treasure pair" : "treasure";
  return TK.h("span", { class: cls, title: `treasure ${letter.toUpperCase()}: ${count}` },
    letter.toUpperCase() + (count > 1 ? "\u00d7" + count : ""));
};

// Rule texts for explaining refused moves.
TK.rules = null;
TK.loadRules = async function () {
  if (TK.rules) return TK.rules;
  try {
    const r = await fetch("/api/rules");
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
  const close = TK.h("button", { class: "close", "aria-label": "close" }, "\u00d7");
  const t = TK.h("div", { class: "toast " + (kind || "") }, close, content);
  close.addEventListener("click", () => t.remove());
  box.append(t);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => t.remove(), ms || (kind === "error" ? 9000 : 3500));
  return t;
};

// A refused action: the engine's reason and a link to the rule.
TK.refusal = function (err) {
  const parts = [TK.h("strong", {}, "Not allowed: "), err.message || "refused"];
  if (err.rule && err.rule !== "NOTATION") {
    const text = TK.rules && TK.rules[err.rule];
    parts.push(" ", TK.h("a", { href: "/rules#" + err.rule, target: "_blank", class: "rule-link" }, "Rule " + err.rule));
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

TK.copy = async function (text, btn) {
  try {
    await navigator.clipboard.writeText(text);
    if (btn) { const old = btn.textContent; btn.textContent = "Copied"; setTimeout(() => (btn.textContent = old), 1200); }
  } catch (e) {
    window.prompt("Copy this link:", text);
  }
};

TK.api = async function (path, opts) {
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { message: r.statusText }; }
  if (!r.ok) { const err = new Error(data.message || r.statusText); err.data = data; throw err; }
  return data;
};
