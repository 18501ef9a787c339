"""A load benchmark for the web server: its own server(s) on 127.0.0.1, many games at once.

``tikal loadtest`` starts ``tikal serve`` in one or more child processes (on free ports
of 127.0.0.1, a temporary SQLite file unless ``--db`` names a database), creates games
over HTTP and plays them over WebSockets: each game has two human seats, each seat its
own connection (seat ``i`` on server ``i mod processes``, so several processes must pass
moves between them).  The seat to move picks a random legal action.  Every loop is
bounded by a deadline; nothing but 127.0.0.1 is contacted.

Measured: moves per second, move→ack (the mover's own answer) and move→update (the
other seat sees the new state counter) percentiles, the size of the messages that a
move causes, the bot reply delay in human-vs-bot games, the servers' peak RSS, errors.

The client understands both the full ``state`` message and the lean ``delta`` message
(docs/web.md), so the same command measures an older server too (``--server-path``).

Scenario ``lobby`` adds the lobby's load to paced games: open tables, clients on
``/ws/lobby`` and table changes at a pace (:mod:`.lobby`), with a second table of the
lobby's own figures.

Modules: :mod:`.servers` (the ``tikal serve`` processes), :mod:`.players` (one game's
seats over WebSockets and HTTP; their copies of the state are kept up to date by the
protocol's own client decoder, :mod:`tikal.server.wire.client`), :mod:`.lobby` (the lobby's
tables, clients and changes), :mod:`.run` (the scenarios' runs and their tables).
"""

from .run import Options, Result, lobby_cells, run, summary

__all__ = ["Options", "Result", "lobby_cells", "run", "summary"]
