// The page's two ways of telling: one notice line in the turn card (in the page's flow, it
// never covers the board or the buttons) and the live region screen readers hear.
import { store } from "./state.js";

export const $ = (id) => document.getElementById(id);

// A new notice replaces the last one; it goes after `ms` (8 s).
export function notify(content, kind, ms) {
  const box = $("notice");
  clearTimeout(store.noticeTimer);
  box.className = "notice" + (kind ? " " + kind : "");
  box.replaceChildren(content instanceof Node ? content : document.createTextNode(String(content)));
  store.noticeTimer = setTimeout(() => box.replaceChildren(), ms || 8000);
}

// Screen readers hear other players' moves and whose turn it is: each news its own line
// (the texts come whole from the catalogs and the server; nothing is joined into a sentence).
export function announce(news) {
  const box = $("announce");
  box.textContent = "";
  setTimeout(() => { box.replaceChildren(...news.map((text) => TK.h("div", {}, text))); }, 30);
}
