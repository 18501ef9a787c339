// The game's chat (docs/web.md, Chat): the seats write, everyone reads; quick phrases are
// sent as keys and shown in each reader's language; a reader may mute a seat (kept in this
// browser). Lines come live as `chat` messages and are read whole when the page connects.
import { send } from "./connection.js";
import { $ } from "./notice.js";
import { store } from "./state.js";

const MUTED_KEY = "tikal.chat.muted";
const lines = new Map(); // seq -> line
let phrases = [];
let spectatorsWrite = false; // the creator's choice (GET .../chat, then live)
const SPECTATORS = -1; // a spectator's lines: one "seat" for muting

// The game's creator: its first human seat (the one that chooses whether spectators write).
const creatorSeat = (view) => { const s = view.seats.find((x) => x.kind !== "bot"); return s ? s.seat : null; };

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
  const watcher = line.seat === SPECTATORS ? TK.h("span", { class: "tag" }, TK.t("chat.spectator_tag")) : null;
  return TK.h("li", { class: "chat-line" + (quiet ? " muted" : ""), "data-seq": line.seq, "data-seat": line.seat },
    seat ? TK.chip(seat) : null, TK.h("strong", {}, line.name), watcher,
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
  const writer = !!view && (!view.spectator || spectatorsWrite);
  $("chat-form").hidden = !writer;
  $("chat-phrases").hidden = !writer;
  $("chat-readonly").hidden = writer;
  $("chat-name").hidden = !view || !view.spectator;
  const mutes = $("chat-mutes");
  if (!view) return;
  const creator = creatorSeat(view);
  $("chat-room").hidden = creator === null || !(view.you || []).includes(creator);
  $("chat-spectators").checked = spectatorsWrite;
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
  if ([...lines.values()].some((l) => l.seat === SPECTATORS) && !view.spectator) {
    const quiet = silent.has(SPECTATORS);
    const button = TK.h("button", { type: "button", class: "btn small", "aria-pressed": quiet ? "true" : "false" },
      TK.t(quiet ? "chat.unmute_spectators" : "chat.mute_spectators"));
    button.addEventListener("click", () => {
      setMuted(quiet ? muted().filter((n) => n !== SPECTATORS) : [...muted(), SPECTATORS]);
      renderChat();
    });
    mutes.append(button);
  }
}

// The creator's choice arrived (or was read with the lines).
export function takeChatRoom(allowed) {
  spectatorsWrite = !!allowed;
  renderChat();
}

const spectatorName = () => (store.view && store.view.spectator ? { name: $("chat-name").value } : {});

export function takeChatLine(line) {
  lines.set(line.seq, line);
  renderChat();
}

// The whole chat (on connecting, and again after a reconnection: nothing missed stays out).
export function loadChat() {
  TK.api(`/api/games/${encodeURIComponent(store.gameId)}/chat`).then((data) => {
    for (const line of data.lines) lines.set(line.seq, line);
    spectatorsWrite = !!data.spectators;
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
    button.addEventListener("click", () => send({ type: "chat", phrase: key, ...spectatorName() }));
    return button;
  }));
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("chat-error").textContent = "";
    input.removeAttribute("aria-invalid");
    if (!input.value.trim()) return;
    send({ type: "chat", text: input.value, ...spectatorName() });
    input.value = "";
  });
  $("chat-spectators").addEventListener("change", async (event) => {
    const box = event.target;
    box.disabled = true;
    try {
      await TK.api(`/api/games/${encodeURIComponent(store.gameId)}/chat/room`, {
        method: "POST", headers: { "Content-Type": "application/json", "X-Tikal-Token": store.token },
        body: JSON.stringify({ token: store.token, spectators: box.checked }),
      });
    } catch (err) { box.checked = !box.checked; $("chat-error").textContent = err.message; }
    box.disabled = false;
  });
  renderChat();
}
