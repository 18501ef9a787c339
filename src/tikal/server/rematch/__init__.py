"""Rematch (issue 29): at a game's end one player offers, the other players accept or
decline, and once all accepted the same game starts again with the seat order rotated.
Logic in :mod:`.model` and :mod:`.service`, storage in :mod:`.store`, routes in
:mod:`.routes`."""
