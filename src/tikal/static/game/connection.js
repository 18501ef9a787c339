// The WebSocket to the game (docs/web.md "WebSocket"): hello with this screen's token,
// reconnection with back-off, and what the page sends.
import { $, notify } from "./notice.js";
import { store } from "./state.js";
import { TEXT } from "./texts.js";

export function connect(onMessage) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(store.gameId)}?lang=${encodeURIComponent(TK.lang)}`);
  store.conn.ws = ws;
  ws.onopen = () => {
    store.conn.retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: store.token || null }));
    setConn(true);
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    setConn(false);
    if (ev.code === 4404) return;
    store.conn.retry = Math.min(store.conn.retry + 1, 6);
    setTimeout(() => connect(onMessage), 300 * 2 ** store.conn.retry);
  };
}

function setConn(on) {
  const c = $("conn");
  c.className = "conn " + (on ? "on" : "off");
  c.title = on ? TEXT.connected() : TEXT.reconnectingTitle();
  if (!on && store.view) $("status").textContent = TEXT.reconnecting();
}

const open = () => store.conn.ws && store.conn.ws.readyState === WebSocket.OPEN;

export function send(msg) {
  if (open()) store.conn.ws.send(JSON.stringify(msg));
  else notify(TEXT.notConnected(), "error");
}

// Play an action (its notation) on the state shown.
export function act(action) {
  if (!store.view) return;
  store.ui.hint = null;
  send({ type: "action", action, state: store.view.state });
}

export function undo() { send({ type: "undo", state: store.view.state }); }

// One hint at a time: a press within 2 s of the last, or while one is on its way for
// this position, sends nothing (the server would refuse it with hint_busy anyway).
export function askHint() {
  const now = Date.now();
  const ui = store.ui;
  if (now - store.hintAsked < 2000 || (ui.hint && ui.hint.state === store.view.state)) return false;
  store.hintAsked = now;
  send({ type: "hint" });
  return true;
}

// A ping every 25 s keeps the connection open through proxies.
export function keepAlive() {
  setInterval(() => { if (open()) store.conn.ws.send(JSON.stringify({ type: "ping" })); }, 25000);
}
