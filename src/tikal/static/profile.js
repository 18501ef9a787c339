// A player's page (rendered by the server, tikal.server.rating.pages): a game in progress
// whose seat this browser holds links to the seat itself (its invite token stays in this
// browser only, never on the server's page), so "my games" lead back into play.
"use strict";

(function () {
  const local = TK.myGames();
  for (const link of document.querySelectorAll("a.play-link[data-game]")) {
    const held = local[link.dataset.game];
    if (!held || !held.token) continue;
    link.href = `/play/${encodeURIComponent(link.dataset.game)}#t=${encodeURIComponent(held.token)}`;
    link.textContent = TK.t("profile.play_on");
  }
})();
