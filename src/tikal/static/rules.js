// The rulebook page: the rule in the address is marked, and a search box filters the
// rules by id (MOVE-2) or words, highlighting what matched (any script: no word splitting
// is needed, a query's parts are matched as they are written).
"use strict";

(function () {
  const main = document.querySelector("main.rules");
  const input = document.getElementById("rule-search");
  const count = document.getElementById("rule-count");
  if (!main) return;

  function markTarget() {
    main.querySelectorAll(".target-rule").forEach((n) => n.classList.remove("target-rule"));
    const id = decodeURIComponent(location.hash.slice(1));
    const el = id && document.getElementById(id);
    if (el) { (el.closest("li,p,h2,h3,tr") || el).classList.add("target-rule"); el.scrollIntoView({ block: "start" }); }
  }
  markTarget();
  window.addEventListener("hashchange", markTarget);
  if (!input) return;

  // The blocks a search shows or hides; headings stay when one of their blocks is shown.
  const blocks = [...main.querySelectorAll("p, li, tr, pre, blockquote")].filter((b) => !b.parentElement.closest("p, li, tr"));
  const headings = [...main.querySelectorAll("h1, h2, h3, h4")];
  const fold = (s) => s.normalize("NFKC").toLowerCase();

  function unmark() {
    main.querySelectorAll("mark.rule-hit").forEach((m) => m.replaceWith(document.createTextNode(m.textContent)));
    main.normalize();
  }

  function mark(block, terms) {
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.nodeValue;
      const low = fold(text);
      if (low.length !== text.length) continue; // folding changed the length: no exact spans
      const spans = [];
      for (const t of terms) {
        let at = low.indexOf(t);
        while (at >= 0) { spans.push([at, at + t.length]); at = low.indexOf(t, at + t.length); }
      }
      if (!spans.length) continue;
      spans.sort((a, b) => a[0] - b[0]);
      const frag = document.createDocumentFragment();
      let pos = 0;
      for (const [a, b] of spans) {
        if (a < pos) continue;
        frag.append(text.slice(pos, a), TK.h("mark", { class: "rule-hit" }, text.slice(a, b)));
        pos = b;
      }
      frag.append(text.slice(pos));
      node.replaceWith(frag);
    }
  }

  function search() {
    unmark();
    const terms = fold(input.value).split(/[\s\u3000]+/).filter(Boolean);
    if (!terms.length) {
      blocks.concat(headings).forEach((b) => (b.hidden = false));
      count.textContent = "";
      return;
    }
    let shown = 0;
    for (const b of blocks) {
      const text = fold(b.textContent);
      const hit = terms.every((t) => text.includes(t));
      b.hidden = !hit;
      if (hit) { shown++; mark(b, terms); }
    }
    // a heading stays when a block up to the next heading of its level or higher is shown
    for (const hd of headings) {
      let n = hd.nextElementSibling, any = false;
      while (n && !(/^H[1-4]$/.test(n.tagName) && n.tagName <= hd.tagName)) {
        if (!n.hidden && (n.matches("p, pre, blockquote") || n.querySelector("li:not([hidden]), tr:not([hidden])"))) { any = true; break; }
        n = n.nextElementSibling;
      }
      hd.hidden = !any;
    }
    count.textContent = shown ? TK.t("rules.matches", { count: shown }) : TK.t("rules.no_match");
  }

  input.addEventListener("input", search);
  const asked = new URLSearchParams(location.search).get("q");
  if (asked) { input.value = asked; search(); }
})();
