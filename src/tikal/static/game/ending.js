// Ending a game early by agreement (docs/web.md, Ending early): any player offers, every
// other player agrees or says no; a move withdraws the offers. The offers and the end are
// in the state (end_offers, ended_early): this card only asks the server.
import { $ } from "./notice.js";
import { store, view } from "./state.js";

const h = TK.h;
const names = (seats) => TK.list(seats.map((n) => view().seats[n].name));

async function ask(suffix, button) {
  button.disabled = true;
  try {
    await TK.api(`/api/games/${encodeURIComponent(store.gameId)}/end${suffix}`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Tikal-Token": store.token },
      body: JSON.stringify({ token: store.token }),
    });
  } catch (err) {
    button.disabled = false;
    $("end-box").append(h("p", { class: "form-error", role: "alert" }, err.message));
  }
}

function button(label, suffix, attrs = {}) {
  const b = h("button", { type: "button", class: "btn small", ...attrs }, label);
  b.addEventListener("click", () => ask(suffix, b));
  return b;
}

// The turn card's part: the offer, the answer to one, or how the game ended.
export function endingControls() {
  const S = view();
  if (!S) return null;
  if (S.over) return S.ended_early ? h("p", { class: "ended-early", id: "ended-early" }, TK.t("ending.ended")) : null;
  const players = S.seats.filter((s) => s.kind !== "bot").map((s) => s.seat);
  const you = (S.you || []).filter((n) => players.includes(n));
  if (!store.token || !you.length || players.length < 2) return null;
  const offers = S.end_offers || [];
  const box = h("div", { class: "end-box", id: "end-box", role: "group", "aria-label": TK.t("ending.offer") });
  if (!offers.length) {
    box.append(button(TK.t("ending.offer"), "", { id: "end-offer", title: TK.t("ending.offer_title") }));
  } else if (you.every((n) => offers.includes(n))) {
    box.append(h("p", { role: "status" }, TK.t("ending.waiting_for", { names: names(players.filter((n) => !offers.includes(n))) })));
  } else {
    box.append(h("p", { role: "status" }, TK.t("ending.offered_by", { names: names(offers) })),
      button(TK.t("ending.accept"), "", { id: "end-accept" }), button(TK.t("ending.decline"), "/decline", { id: "end-decline" }));
  }
  return box;
}
