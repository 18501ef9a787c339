// The lobby page: open tables, live (/ws/lobby), to create, join, leave and start; the
// player's own tables and the games to watch (docs/web.md, Lobby). A guest is known by a
// secret this browser keeps (X-Tikal-Guest); a signed-in player by the session cookie.
"use strict";

(function () {
  const h = TK.h;
  const el = (id) => document.getElementById(id);
  const GUEST_KEY = "tikal.lobby.guest";
  const NAME_KEY = "tikal.lobby.name";
  let META = null;
  let me = { signed_in: false };
  let you = null;
  let levels = { levels: [], fill: null };
  const open = new Map();   // table id -> table (status open)
  let mine = new Map();     // table id -> the asker's table (with your_seat, token)
  let playing = [];         // started tables, newest first
  const startedBefore = new Set(); // my games that had started when the page opened
  let ready = false;                // startedBefore is known

  // -- who asks ----------------------------------------------------------------------

  let memorySecret = null;
  function guestSecret() {
    let secret = null;
    try { secret = localStorage.getItem(GUEST_KEY); } catch (e) { secret = memorySecret; }
    if (!secret || !/^[A-Za-z0-9_-]{16,64}$/.test(secret)) {
      const bytes = new Uint8Array(24);
      crypto.getRandomValues(bytes);
      secret = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      try { localStorage.setItem(GUEST_KEY, secret); } catch (e) { memorySecret = secret; }
    }
    return secret;
  }

  function headers() {
    const out = { "Content-Type": "application/json", "X-Tikal-Guest": guestSecret() };
    if (me.signed_in) out["X-CSRF-Token"] = me.csrf;
    return out;
  }

  function guestName() {
    const name = el("guest-name").value.trim();
    try { if (name) localStorage.setItem(NAME_KEY, name); } catch (e) { /* private mode */ }
    return name || null;
  }

  const post = (path, body) => TK.api(path, { method: "POST", headers: headers(), body: JSON.stringify(body || {}) });

  // -- what a table looks like -------------------------------------------------------

  const isMine = (t) => t.seats.some((s) => s.tag && s.tag === you);

  function summary(t) {
    const parts = [TK.t("lobby.for_players", { rules: TK.t("ruleset." + t.rules), players: t.players })];
    const texts = (META && META.rulesets[t.rules] && META.rulesets[t.rules].option_texts) || {};
    const defaults = (META && META.rulesets[t.rules] && META.rulesets[t.rules].options) || {};
    for (const [name, on] of Object.entries(t.options || {})) {
      if (on !== !!defaults[name]) parts.push(on ? texts[name] || name : TK.t("lobby.option_off", { option: texts[name] || name }));
    }
    parts.push(TK.t("clock.preset." + (t.clock || "none")));
    return parts.join(" · ");
  }

  function badges(t) {
    const out = [];
    if (t.rated) out.push(h("span", { class: "badge rated" }, TK.t("lobby.rated_badge")));
    const turn = mine.has(t.id) ? mine.get(t.id).turn : null;
    if (turn) out.push(h("span", { class: "badge turn-" + turn }, TK.t("lobby.turn_" + turn)));
    if (t.quick) out.push(h("span", { class: "meta" }, TK.t("lobby.quick_match")));
    else out.push(h("span", { class: "meta" }, TK.t("lobby.bots_fill", { level: TK.levelName(t.fill) })));
    return out;
  }

  function seatList(t) {
    return h("ol", { class: "lobby-seats", "aria-label": TK.t("lobby.seats") }, t.seats.map((s) => {
      const look = META ? META.seats[s.seat % META.seats.length] : null;
      const label = s.name === null ? TK.t("lobby.free_seat")
        : s.tag === you ? TK.t("lobby.you_are", { name: s.name }) : s.name;
      return h("li", { class: s.name === null ? "free" : "taken", "data-seat": s.seat },
        look ? TK.chip(look) : null, h("span", {}, label));
    }));
  }

  function actionButton(label, run, primary) {
    const button = h("button", { class: "btn small" + (primary ? " primary" : ""), type: "button" }, label);
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await run(); } catch (err) { TK.toast(err.message, "error"); await refresh(); } finally { button.disabled = false; }
    });
    return button;
  }

  function actions(t) {
    const out = [];
    const seated = isMine(t);
    const free = t.seats.filter((s) => s.name === null).length;
    if (t.quick && t.status === "open") return out; // waiting: the quick-match card cancels
    if (t.status === "open" && !seated && free) {
      out.push(actionButton(TK.t("lobby.join"), async () => changed(await post(`/api/lobby/tables/${t.id}/join`, { name: guestName() })), true));
    }
    if (t.status === "open" && seated && t.creator === you) {
      const label = free ? TK.t("lobby.start_with_bots", { count: free }) : TK.t("lobby.start");
      out.push(actionButton(label, async () => changed(await post(`/api/lobby/tables/${t.id}/start`)), true));
    }
    if (t.status === "open" && seated) {
      out.push(actionButton(TK.t("lobby.leave"), async () => changed(await post(`/api/lobby/tables/${t.id}/leave`))));
    }
    const own = mine.get(t.id);
    if (t.status === "started" && own && own.token) {
      out.push(h("a", { class: "btn small primary", href: `/play/${t.game}#t=${own.token}` }, TK.t("lobby.play")));
    }
    return out;
  }

  function tableItem(t) {
    return h("li", { "data-table": t.id, "data-status": t.status, class: "lobby-table" },
      h("div", { class: "lobby-table-head" }, h("strong", {}, summary(t)), badges(t)),
      seatList(t), h("div", { class: "row" }, actions(t)));
  }

  function fillList(box, items, empty) {
    box.replaceChildren(...(items.length ? items : [h("li", { class: "hint-text" }, empty)]));
  }

  // The quick-match card: the form, or the table one waits at with its seats filled so far.
  let waitTimer = null;
  function renderQuick() {
    const waiting = [...mine.values()].find((t) => t.quick && t.status === "open");
    el("quick-form").hidden = !!waiting;
    el("quick-waiting").hidden = !waiting;
    clearInterval(waitTimer);
    if (!waiting) return;
    const show = () => {
      const seconds = Math.max(0, Math.round(Date.now() / 1000 - waiting.created));
      const taken = waiting.seats.filter((s) => s.name !== null).length;
      el("quick-status").textContent = TK.t("lobby.quick_waiting", {
        game: summary(waiting), seated: taken, players: waiting.players,
        time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
    };
    show();
    waitTimer = setInterval(show, 1000);
  }

  // "Your turn" in the tab's title while a game of mine waits for my move.
  const baseTitle = document.title;
  function renderTitle() {
    const waiting = [...mine.values()].filter((t) => t.turn === "yours").length;
    document.title = waiting ? TK.t("lobby.title_your_turn", { count: waiting, title: baseTitle }) : baseTitle;
    TK.turnBadge(waiting > 0);
  }

  function render() {
    renderQuick();
    renderTitle();
    const newest = (a, b) => b.created - a.created;
    fillList(el("open-tables"), [...open.values()].sort(newest).map(tableItem), TK.t("lobby.no_open_tables"));
    // in the server's order: the games waiting for my move first
    const own = [...mine.values()].filter((t) => t.status === "open" || t.status === "started");
    fillList(el("my-tables"), own.map(tableItem), TK.t("lobby.no_tables_of_yours"));
    fillList(el("playing-tables"), playing.map((t) => h("li", { "data-table": t.id },
      h("a", { href: `/play/${t.game}` }, summary(t)),
      h("span", { class: "meta" }, TK.list(t.seats.map((s) => s.name || TK.t("index.bot", { level: TK.levelName(t.fill) })))))),
    TK.t("lobby.nothing_to_watch"));
  }

  // -- the state of the lobby --------------------------------------------------------

  function take(t) {
    if (t.status === "open" && !t.quick) open.set(t.id, t); else open.delete(t.id);
    if (t.status === "started") playing = [t, ...playing.filter((p) => p.id !== t.id)].slice(0, 50);
    const own = mine.get(t.id);
    if (own) mine.set(t.id, { ...own, ...t });
  }

  function changed(t) {
    mine.set(t.id, t);
    take(t);
    render();
    openStartedGame();
  }

  async function refresh() {
    const data = await TK.api("/api/lobby", { headers: headers() });
    you = data.you;
    levels = { levels: data.fill_levels, fill: data.fill_default };
    open.clear();
    for (const t of data.tables) open.set(t.id, t);
    playing = data.playing;
    mine = new Map(data.mine.map((t) => [t.id, t]));
    render();
    openStartedGame();
  }

  // A game of mine that started while this page was open: off to it (the seat's token kept
  // in this browser as every game's is).
  function openStartedGame() {
    if (!ready) return;
    for (const t of mine.values()) {
      if (t.status !== "started" || !t.token || startedBefore.has(t.id)) continue;
      startedBefore.add(t.id);
      TK.saveGame(t.game, { token: t.token, rules: t.rules, names: t.seats.map((s) => s.name || TK.levelName(t.fill)) });
      location.href = `/play/${t.game}#t=${t.token}`;
      return;
    }
  }

  // -- live --------------------------------------------------------------------------

  let retry = 0;
  let refreshSoon = null;
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/lobby?lang=${encodeURIComponent(TK.lang)}`);
    ws.onopen = () => { retry = 0; el("lobby-live").textContent = TK.t("lobby.live"); };
    ws.onmessage = (event) => {
      let message = null;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "table") {
        take(message.table);
        render();
        // a table of mine changed: its own view (the seat's token once started) is asked for
        if (isMine(message.table) || mine.has(message.table.id)) {
          clearTimeout(refreshSoon);
          refreshSoon = setTimeout(() => refresh().catch(() => {}), 50);
        }
      } else if (message.type === "lobby" && retry === 0 && you !== null) {
        refresh().catch(() => {}); // connected again: what changed meanwhile
      }
    };
    ws.onclose = () => {
      el("lobby-live").textContent = TK.t("lobby.reconnecting");
      retry += 1;
      setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retry, 5)));
    };
  }

  // -- the new-table form -----------------------------------------------------------

  function onRulesChange() {
    const rs = META.rulesets[el("table-rules").value];
    const players = el("table-players");
    const was = Number(players.value) || rs.players[0];
    players.replaceChildren(...rs.players.map((n) => h("option", { value: n }, TK.format(n))));
    players.value = String(rs.players.includes(was) ? was : rs.players[0]);
    const box = el("table-options");
    box.replaceChildren(...Object.entries(rs.options).map(([name, on]) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: !!on }), " ", rs.option_texts[name] || name)));
    el("table-options-box").hidden = !Object.keys(rs.options).length;
  }

  // The time controls on offer: none, or one of the server's presets (GET /api/meta).
  function clockChoices(select) {
    const names = Object.keys((META && META.clock_presets) || {});
    select.replaceChildren(h("option", { value: "" }, TK.t("clock.preset.none")),
      ...names.map((name) => h("option", { value: name }, TK.t("clock.preset." + name))));
  }

  function buildForm() {
    const rules = el("table-rules");
    rules.replaceChildren(...Object.keys(META.rulesets).map((name) => h("option", { value: name }, TK.t("ruleset." + name))));
    rules.addEventListener("change", onRulesChange);
    onRulesChange();
    clockChoices(el("table-clock"));
    const fill = el("table-fill");
    fill.replaceChildren(...levels.levels.map((level) => h("option", { value: level }, TK.levelName(level))));
    fill.value = levels.fill;
    el("table-rated").disabled = !me.signed_in;
    el("rated-hint").textContent = TK.t(me.signed_in ? "lobby.rated_hint" : "lobby.rated_needs_account");
    el("guest-name-box").hidden = me.signed_in;
    try { el("guest-name").value = localStorage.getItem(NAME_KEY) || ""; } catch (e) { /* private mode */ }
    const form = el("table-form");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      el("table-error").textContent = "";
      for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
      const options = {};
      for (const box of el("table-options").querySelectorAll("input")) options[box.name] = box.checked;
      const button = el("table-submit");
      button.disabled = true;
      try {
        changed(await post("/api/lobby/tables", {
          rules: rules.value, players: Number(el("table-players").value), options,
          rated: el("table-rated").checked, fill: fill.value, clock: el("table-clock").value || null,
          name: me.signed_in ? null : guestName(),
        }));
        TK.toast(TK.t("lobby.table_opened"));
      } catch (err) {
        const data = err.data || {};
        el("table-error").textContent = data.message || err.message;
        const field = data.field === "name" ? el("guest-name") : data.field && form.querySelector(`[name="${data.field}"]`);
        if (field) { field.setAttribute("aria-invalid", "true"); field.focus(); }
      } finally { button.disabled = false; }
    });
  }

  function buildQuickForm() {
    const rules = el("quick-rules");
    const players = el("quick-players");
    rules.replaceChildren(...Object.keys(META.rulesets).map((name) => h("option", { value: name }, TK.t("ruleset." + name))));
    const counts = () => {
      const rs = META.rulesets[rules.value];
      players.replaceChildren(...rs.players.map((n) => h("option", { value: n }, TK.format(n))));
    };
    rules.addEventListener("change", counts);
    counts();
    clockChoices(el("quick-clock"));
    el("quick-rated").disabled = !me.signed_in;
    const form = el("quick-form");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      el("quick-error").textContent = "";
      const button = el("quick-submit");
      button.disabled = true;
      try {
        const answer = await post("/api/lobby/quick", {
          rules: rules.value, players: Number(players.value), rated: el("quick-rated").checked,
          clock: el("quick-clock").value || null, name: me.signed_in ? null : guestName(),
        });
        changed(answer);
      } catch (err) {
        el("quick-error").textContent = (err.data && err.data.message) || err.message;
      } finally { button.disabled = false; }
    });
    el("quick-cancel").addEventListener("click", async () => {
      try { changed(await post("/api/lobby/quick/cancel")); } catch (err) { TK.toast(err.message, "error"); await refresh(); }
    });
  }

  async function start() {
    [META, me] = await Promise.all([TK.api("/api/meta"), TK.api("/api/account").catch(() => ({ signed_in: false }))]);
    await refresh();
    for (const t of mine.values()) if (t.status === "started") startedBefore.add(t.id);
    ready = true;
    buildForm();
    buildQuickForm();
    render();
    connect();
    // moves in my games are not lobby changes: whose turn it is is read again now and then
    setInterval(() => {
      if ([...mine.values()].some((t) => t.turn === "yours" || t.turn === "theirs")) refresh().catch(() => {});
    }, 20000);
  }

  start().catch((err) => { el("lobby-live").textContent = err.message; });
})();
