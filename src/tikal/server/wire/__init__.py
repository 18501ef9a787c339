"""The protocol between the server and its clients (docs/web.md, "WebSocket" and
"Protocol"): every message as a typed structure (:mod:`.schema`), the one encoder and
decoder of their JSON (:mod:`.codec`), the delta encoder (:mod:`.diff`), the legal-table
codec (:mod:`.legal`) and a client's decoder (:mod:`.client`).

Nothing here knows the game: the server's :mod:`tikal.server.round` builds the messages
from games, and the load test's client reads them with this package alone.
"""
