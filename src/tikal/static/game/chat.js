// The game's chat (docs/web.md, Chat): the seats write, everyone reads; quick phrases are
// sent as keys and shown in each reader's language; a reader may mute a seat (kept in this
// browser). Lines come live as `chat` messages and are read whole when the page connects.
import { send } from "./connection.js";
import { $ } from "./notice.js";
import { store } from "./state.js";

const MUTED_KEY = "tikal.chat.muted";
const lines = new Map(); // seq -> line
let phrases = [];

function muted() {
  try { return JSON.parse(localStorage.getItem(MUTED_KEY) || "{}")[store.gameId] || []; } catch (e) { return []; }
}

function setMuted(seats) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    all[store.gameId] = seats;
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
  } catch (e) { /* private mode: muted for this page only */ }
}

const said = (line) => (line.phrase ? TK.t("chat.phrase." + line.phrase) : line.text);

function lineItem(line, quiet) {
  const seat = store.view && store.view.seats[line.seat];
  return TK.h("li", { class: "chat-line" + (quiet ? " muted" : ""), "data-seq": line.seq, "data-seat": line.seat },
    seat ? TK.chip(seat) : null, TK.h("strong", {}, line.name),
    TK.h("span", { class: "chat-text" }, quiet ? TK.t("chat.muted_line") : said(line)));
}

export function renderChat() {
  const box = $("chat-lines");
  if (!box) return;
  const silent = new Set(muted());
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  const items = [...lines.values()].sort((a, b) => a.seq - b.seq).map((l) => lineItem(l, silent.has(l.seat)));
  box.replaceChildren(...(items.length ? items : [TK.h("li", { class: "hint-text" }, TK.t("chat.empty"))]));
  if (atBottom) box.scrollTop = box.scrollHeight;
  renderControls(silent);
}

function renderControls(silent) {
  const view = store.view;
  const writer = !!view && !view.spectator;
  $("chat-form").hidden = !writer;
  $("chat-phrases").hidden = !writer;
  $("chat-readonly").hidden = writer;
  const mutes = $("chat-mutes");
  if (!view) return;
  const mine = new Set(view.you || []);
  mutes.replaceChildren(...view.seats.filter((s) => s.kind !== "bot" && !mine.has(s.seat)).map((s) => {
    const quiet = silent.has(s.seat);
    const button = TK.h("button", { type: "button", class: "btn small", "aria-pressed": quiet ? "true" : "false" },
      TK.t(quiet ? "chat.unmute" : "chat.mute", { name: s.name }));
    button.addEventListener("click", () => {
      setMuted(quiet ? muted().filter((n) => n !== s.seat) : [...muted(), s.seat]);
      renderChat();
    });
    return button;
  }));
}

export function takeChatLine(line) {
  lines.set(line.seq, line);
  renderChat();
}

// The whole chat (on connecting, and again after a reconnection: nothing missed stays out).
export function loadChat() {
  TK.api(`/api/games/${encodeURIComponent(store.gameId)}/chat`).then((data) => {
    for (const line of data.lines) lines.set(line.seq, line);
    renderChat();
  }).catch(() => { /* the live lines still come */ });
}

export function chatRefused(msg) {
  $("chat-error").textContent = msg.message;
  if (msg.code === "bad_chat") $("chat-input").setAttribute("aria-invalid", "true");
}

export function installChat(meta) {
  phrases = meta.chat_phrases || [];
  const input = $("chat-input");
  input.maxLength = meta.chat_max_length || 300;
  $("chat-phrases").replaceChildren(...phrases.map((key) => {
    const button = TK.h("button", { type: "button", class: "btn small", "data-phrase": key }, TK.t("chat.phrase." + key));
    button.addEventListener("click", () => send({ type: "chat", phrase: key }));
    return button;
  }));
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("chat-error").textContent = "";
    input.removeAttribute("aria-invalid");
    if (!input.value.trim()) return;
    send({ type: "chat", text: input.value });
    input.value = "";
  });
  renderChat();
}
