"""The lobby (issue 29): open tables that players create, join and leave, started as a
game when full or filled with bots.  Pure logic in :mod:`.model` (what a table is, who may
do what to it), the tables' storage in :mod:`.store` (a seat is taken by one insert:
two players on two processes asking for the last seat, one gets it), the server's side
in :mod:`.service` (players, starting a game, telling the lobby's connections), the
routes and the WebSocket topic in :mod:`.routes`."""
