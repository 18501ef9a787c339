// The preferences card (game.html's #prefs-card: bot speed, animations, sounds, asking
// before "End turn") and what follows from it: the bots' pace sent to the server, the
// question before a turn ends with action points left.
import { act } from "./connection.js";
import { $ } from "./notice.js";
import { PACES, applyMotion, onPrefChange, prefs, setPref } from "./prefs.js";
import { store, view } from "./state.js";
import { TEXT } from "./texts.js";

const h = TK.h;

// The card's controls, set from the preferences and wired to them (once).
export function installPrefs() {
  applyMotion();
  const pace = $("pref-pace");
  pace.replaceChildren(...PACES.map((p) => h("option", { value: p }, TEXT.paceName(p))));
  const boxes = { "pref-motion": "motion", "pref-sound": "sound", "pref-confirm": "confirmEnd", "pref-notify": "notify" };
  const show = () => {
    pace.value = prefs.pace;
    for (const [id, name] of Object.entries(boxes)) $(id).checked = prefs[name];
  };
  show();
  pace.addEventListener("change", () => setPref("pace", pace.value));
  for (const [id, name] of Object.entries(boxes)) {
    if (name !== "notify") $(id).addEventListener("change", (ev) => setPref(name, ev.target.checked));
  }
  $("pref-notify").addEventListener("change", (ev) => askToNotify(ev.target));
  notifyState();
  onPrefChange((name) => { show(); if (name === "pace") sendPace(); });
}

// Notifications of "your turn" while the tab is hidden: the browser's permission first.
async function askToNotify(box) {
  if (!box.checked) { setPref("notify", false); notifyState(); return; }
  if (!("Notification" in window)) { box.checked = false; notifyState(); return; }
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  setPref("notify", permission === "granted");
  box.checked = permission === "granted";
  notifyState();
}

function notifyState() {
  const note = $("pref-notify-state");
  if (!("Notification" in window)) note.textContent = TK.t("prefs.notify_unsupported");
  else if (Notification.permission === "denied") note.textContent = TK.t("prefs.notify_denied");
  else note.textContent = "";
}

// The bots' pace this player wants, told to the server (POST /api/games/{id}/pace) when
// the game has bots and this screen plays a seat: at the first state and on a change.
export function sendPace() {
  const S = view();
  if (!S || !store.token || S.spectator || !S.seats.some((s) => s.kind === "bot")) return;
  if (store.shown.pace === null && prefs.pace === "normal") { store.shown.pace = "normal"; return; } // the server's own pace
  if (store.shown.pace === prefs.pace) return;
  store.shown.pace = prefs.pace;
  TK.api(`/api/games/${encodeURIComponent(store.gameId)}/pace`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ pace: prefs.pace, token: store.token }),
  }).catch(() => { store.shown.pace = null; }); // told again at the next state
}

// "End turn": at once with no action points left (or when the player turned the question
// off), else a question first: ending with AP left is seldom meant.
export function endTurn(action, label) {
  const S = view();
  if (!(S.ap > 0) || !prefs.confirmEnd) { act(action); return; }
  askEndTurn(action, label, S.ap);
}

function askEndTurn(action, label, ap) {
  document.querySelector(".modal")?.remove();
  const opener = document.activeElement;
  const never = h("input", { type: "checkbox", id: "confirm-end-never" });
  const yes = h("button", { class: "btn primary", type: "button", id: "confirm-end-yes" }, label);
  const no = h("button", { class: "btn", type: "button", id: "confirm-end-no" }, TEXT.confirmEndNo());
  const modal = h("div", { class: "modal", id: "confirm-end", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-end-title", "aria-describedby": "confirm-end-text" },
    h("div", { class: "box" },
      h("h2", { id: "confirm-end-title" }, TEXT.confirmEndTitle()),
      h("p", { id: "confirm-end-text" }, TEXT.confirmEndText(ap)),
      h("p", {}, h("label", {}, never, " ", TEXT.confirmEndNever())),
      h("div", { class: "row" }, yes, no)));
  const shut = () => { modal.remove(); if (opener && opener.isConnected && opener.focus) opener.focus(); };
  yes.addEventListener("click", () => {
    if (never.checked) setPref("confirmEnd", false);
    modal.remove();
    act(action);
  });
  no.addEventListener("click", shut);
  modal.addEventListener("click", (e) => { if (e.target === modal) shut(); });
  modal.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); shut(); } });
  document.body.append(modal);
  no.focus();
}
