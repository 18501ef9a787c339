// Rematch at the game's end (docs/web.md, Rematch): offer, accept or decline; once every
// player accepted the new game starts with the seats moved one place on, and each player's
// page goes to its own new seat.
import { $ } from "./notice.js";
import { store } from "./state.js";

let offer = null;
let asked = false;

const path = () => `/api/games/${encodeURIComponent(store.gameId)}/rematch`;
const headers = () => ({ "Content-Type": "application/json", ...(store.token ? { "X-Tikal-Token": store.token } : {}) });
const names = (seats) => TK.list(seats.map((n) => store.view.seats[n].name));

async function send(suffix) {
  try { take(await TK.api(path() + suffix, { method: "POST", headers: headers(), body: JSON.stringify({ token: store.token || null }) })); }
  catch (err) { $("rematch-box").append(TK.h("p", { class: "form-error", role: "alert" }, err.message)); }
}

function button(label, suffix, primary) {
  const b = TK.h("button", { type: "button", class: "btn" + (primary ? " primary" : ""), "data-rematch": suffix || "offer" }, label);
  b.addEventListener("click", () => { b.disabled = true; send(suffix); });
  return b;
}

export function take(message) {
  offer = message;
  renderRematch();
  const started = offer && offer.status === "started" && offer.token;
  if (started && !store.rematchOpened) {
    store.rematchOpened = true;
    TK.saveGame(offer.game, { token: offer.token, rules: store.view.rules });
    location.href = `/play/${offer.game}#t=${offer.token}`;
  }
}

export function renderRematch() {
  const box = $("rematch-box");
  const S = store.view;
  if (!box || !S) return;
  box.hidden = !S.over;
  if (!S.over) return;
  if (!asked) {
    asked = true;
    TK.api(path(), { headers: headers() }).then(take).catch(() => { /* offered later, live */ });
  }
  const you = S.you || [];
  const player = you.some((n) => S.seats[n].kind !== "bot");
  const parts = [];
  const status = offer && offer.status;
  if (!status && player) parts.push(button(TK.t("rematch.offer"), "", true));
  else if (status === "offered" || status === "starting") {
    const mine = you.some((n) => offer.accepted.includes(n));
    if (mine || !player) parts.push(TK.h("p", {}, TK.t("rematch.waiting_for", { names: names(offer.waiting) })));
    else parts.push(TK.h("p", {}, TK.t("rematch.offered_by", { name: S.seats[offer.by].name })),
      TK.h("div", { class: "row" }, button(TK.t("rematch.accept"), "", true), button(TK.t("rematch.decline"), "/decline")));
  } else if (status === "declined") {
    parts.push(TK.h("p", {}, TK.t("rematch.declined_by", { name: S.seats[offer.declined_by].name })));
  } else if (status === "started") {
    parts.push(TK.h("p", {}, TK.t("rematch.started")), offer.token
      ? TK.h("a", { class: "btn primary", href: `/play/${offer.game}#t=${offer.token}` }, TK.t("rematch.play"))
      : TK.h("a", { class: "btn", href: `/play/${offer.game}` }, TK.t("rematch.watch")));
  }
  box.replaceChildren(...parts);
}
