// The clocks of a timed game and the seats a bot plays for their players (docs/web.md,
// Time controls). The server decides when time runs out; this page only counts down from
// what the last message said: each seat's time `left` as of `since`, counted on the
// server's clock (a message's `now` gives the offset from this machine's).
import { $ } from "./notice.js";
import { hotseat, store, view } from "./state.js";

const h = TK.h;
let offset = 0; // server time minus this machine's, in seconds
const LOW = 30; // seconds: a real-time clock under this is shown as running low

// A state or delta message arrived: remember how far the server's clock is from ours.
export function takeTime(msg) {
  if (typeof msg.now === "number") offset = msg.now - Date.now() / 1000;
}

const serverNow = () => Date.now() / 1000 + offset;

// Seconds `seat` has left now (negative once its time ran out), or null in an untimed game.
export function secondsLeft(seat) {
  const S = view();
  const clock = S && S.clock;
  if (!clock) return null;
  const left = clock.left[seat];
  return clock.running === seat ? left - (serverNow() - clock.since) : left;
}

// "4:05" / "1:02:03" for real time; "2 d 5 h", "5 h 12 min", "12 min", "45 s" for days.
export function formatLeft(seconds, kind) {
  const s = Math.max(0, Math.ceil(seconds));
  if (kind === "turn") {
    const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) return TK.t("clock.days", { days: d, hours: hr });
    if (hr) return TK.t("clock.hours", { hours: hr, minutes: m });
    if (m) return TK.t("clock.minutes", { minutes: m });
    return TK.t("clock.seconds", { seconds: s });
  }
  const hr = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return hr ? `${hr}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// What the game's time control is, in words (the players' panel heading says it).
export function controlText(control) {
  const d = (x) => formatLeft(x, "turn");
  if (control.kind === "turn") return TK.t("clock.turn_based", { per_turn: formatLeft(control.per_turn, "turn") });
  return TK.t("clock.real_time", { bank: d(control.bank), increment: d(control.increment) });
}

// A player's clock for its row in the players' panel (kept up to date by tick()).
export function clockFor(seat) {
  const S = view();
  if (!S || !S.clock) return null;
  const el = h("span", { class: "clock", "data-clock-seat": seat, role: "timer", "aria-label": TK.t("clock.label", { name: S.seats[seat].name }) });
  paint(el, seat);
  return el;
}

function paint(el, seat) {
  const S = view();
  const left = secondsLeft(seat);
  if (left === null) return;
  const text = formatLeft(left, S.clock.control.kind);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("running", S.clock.running === seat);
  el.classList.toggle("low", S.clock.control.kind === "realtime" && left < LOW && left > 0);
  el.classList.toggle("out", left <= 0 && !S.standins[seat]);
}

function tick() {
  if (!view() || !view().clock) return;
  for (const el of document.querySelectorAll("[data-clock-seat]")) paint(el, Number(el.dataset.clockSeat));
}

// The seats of this screen that a stand-in plays now.
export function myStandins() {
  const S = view();
  if (!S || !S.standins) return [];
  return (S.you || []).filter((n) => S.standins[n]);
}

async function seatRequest(which, button) {
  button.disabled = true;
  try {
    await TK.api(`/api/games/${encodeURIComponent(store.gameId)}/${which}`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Tikal-Token": store.token },
      body: JSON.stringify({ token: store.token }),
    });
  } catch (err) {
    button.disabled = false;
    $("seat-box").append(h("p", { class: "form-error", role: "alert" }, err.message));
  }
}

// The turn card's seat controls: take your seat back from its bot, or hand it to one.
export function seatControls() {
  const S = view();
  if (!S || S.over || !store.token || !(S.you || []).length) return null;
  const mine = myStandins();
  const box = h("div", { class: "seat-box", id: "seat-box" });
  if (mine.length) {
    const level = S.standins[mine[0]];
    const back = h("button", { class: "btn primary", type: "button", id: "take-seat-back" }, TK.t("standin.back"));
    back.addEventListener("click", () => seatRequest("back", back));
    box.append(h("p", { role: "status" }, TK.t("standin.yours", { level: TK.levelName(level) })), back);
  } else if (!hotseat() && (S.you || []).some((n) => S.seats[n].kind !== "bot")) {
    const away = h("button", { class: "btn small", type: "button", id: "hand-to-bot", title: TK.t("standin.away_title") }, TK.t("standin.away"));
    away.addEventListener("click", () => seatRequest("away", away));
    box.append(away);
  }
  return box;
}

export function installClock() {
  setInterval(tick, 250);
}
