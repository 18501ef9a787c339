// The leaderboard page (rendered by the server, tikal.server.rating.pages): the rule-set
// switcher's links are reached with Tab and opened with Enter; the arrow keys, Home and End
// also go along them, as they do in a row of tabs (docs/web.md, Ratings).
"use strict";

(function () {
  const bar = document.getElementById("rule-sets");
  if (!bar) return;
  const links = [...bar.querySelectorAll("a")];
  bar.addEventListener("keydown", (event) => {
    const at = links.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: links.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    links[(to + links.length) % links.length].focus();
  });
})();
