// The replay page: step through a finished (or uploaded) game move by move.
"use strict";

const h = TK.h;
const replayId = decodeURIComponent(location.pathname.split("/")[2] || "");
const cache = new Map();
let R = null;
let step = 0;
let timer = null;

async function frame(n) {
  if (!cache.has(n)) cache.set(n, TK.api(`/api/replays/${encodeURIComponent(replayId)}/frames/${n}`));
  return cache.get(n);
}

async function show(n) {
  n = Math.max(0, Math.min(n, R.total));
  step = n;
  const f = await frame(n);
  if (step !== n) return;
  document.getElementById("board").innerHTML = f.svg;
  document.getElementById("slider").value = n;
  document.getElementById("counter").textContent = `${n} / ${R.total}`;
  const s = n > 0 ? R.steps[n - 1] : null;
  const now = document.getElementById("now");
  if (s) {
    now.replaceChildren(TK.chip(R.seats[s.seat], false, 16), " " + TK.t("log.line", { name: R.seats[s.seat].name, text: s.text }), s.chance.length ? ` (${s.chance.join(", ")})` : "", " ", h("code", {}, s.notation));
    for (const sc of s.scores || []) now.append(h("div", {}, TK.t("log.line", { name: R.seats[sc.seat].name, text: sc.text })));
  }
  else now.textContent = TK.t("replay.start_of_game");
  if (f.over) now.append(" ", h("strong", {}, f.winners.length > 1 ? TK.t("over.shared", { names: TK.list(f.winners.map((p) => R.seats[p].name)) }) : TK.t("over.winner", { name: R.seats[f.winners[0]].name })));
  const players = document.getElementById("players");
  players.replaceChildren();
  R.seats.forEach((p, i) => {
    const tr = h("span", {});
    Object.entries(f.treasures[i]).forEach(([t, c]) => tr.append(TK.treasure(t, c), " "));
    players.append(h("div", { class: "player" + (f.current === i && !f.over ? " current" : "") }, TK.chip(p, false, 24), h("div", { class: "name" }, p.name), h("div", { class: "score" }, f.scores[i]), h("div", { class: "details" }, tr)));
  });
  document.querySelectorAll("#steps .line").forEach((el) => el.classList.toggle("now", +el.dataset.step === n));
  const cur = document.querySelector(`#steps .line[data-step="${n}"]`);
  if (cur) cur.scrollIntoView({ block: "nearest" });
  for (const k of [n + 1, n + 2, n - 1]) if (k >= 0 && k <= R.total) frame(k);
}

function togglePlay() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = TK.t("replay.play"); return; }
  if (step >= R.total) show(0);
  b.textContent = TK.t("replay.pause");
  timer = setInterval(() => { if (step >= R.total) togglePlay(); else show(step + 1); }, 700);
}

async function main() {
  try {
    R = await TK.api(`/api/replays/${encodeURIComponent(replayId)}`);
  } catch (e) {
    document.getElementById("board").replaceChildren(h("p", { class: "refusal" }, TK.t("replay.cannot", { message: e.message })));
    return;
  }
  document.getElementById("status").textContent = TK.t("replay.status", { rules: TK.term("ruleset." + R.rules, R.rules), players: R.seats.map((s) => s.name).reduce((a, b) => TK.t("replay.versus", { first: a, second: b })) });
  const rec = document.getElementById("record-link");
  if (replayId.startsWith("r")) rec.hidden = true;
  else { rec.href = `/api/games/${replayId}/record`; rec.setAttribute("download", `tikal-${replayId}.json`); }
  const slider = document.getElementById("slider");
  slider.max = R.total;
  slider.addEventListener("input", () => show(+slider.value));
  const list = document.getElementById("steps");
  list.append(h("div", { class: "line", "data-step": 0 }, TK.t("replay.start_line")));
  for (const s of R.steps) {
    const seat = R.seats[s.seat];
    list.append(h("div", { class: "line", "data-step": s.step }, TK.chip(seat, false, 16), h("span", {}, TK.t("replay.step_line", { step: s.step, name: seat.name, text: s.text })), h("span", { class: "notation" }, s.notation)));
    for (const sc of s.scores || []) {
      list.append(h("div", { class: "line score", "data-step": s.step }, TK.chip(R.seats[sc.seat], false, 16), h("span", {}, TK.t("log.line", { name: R.seats[sc.seat].name, text: sc.text }))));
    }
  }
  list.addEventListener("click", (e) => { const l = e.target.closest(".line"); if (l) show(+l.dataset.step); });
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(R.total);
  document.getElementById("play").onclick = togglePlay;
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(step - 1);
    else if (e.key === "ArrowRight") show(step + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(R.total);
    else if (e.key === " ") { e.preventDefault(); togglePlay(); }
  });
  const start = +(new URLSearchParams(location.hash.slice(1)).get("step") || (R.over ? R.total : 0));
  show(start);
}

main();
