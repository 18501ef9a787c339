"""Game chat (issue 29): the seats of a game talk, spectators read; stored with the game
and shown in its replay.  Logic in :mod:`.model` and :mod:`.service`, storage in
:mod:`.store`, the HTTP routes in :mod:`.routes` (the game's WebSocket carries ``chat``
messages too, :mod:`tikal.server.routes_ws`)."""
