"""A game in play as its clients are told it (named after lichess's module for the same):
snapshots and the publisher (:mod:`.snapshot`), the board in pieces (:mod:`.board`,
its spaces drawn once per look in :mod:`.spaces`), the log (:mod:`.log`), the legal
tables (:mod:`.legal`) and texts (:mod:`.texts`).  The messages' form is
:mod:`tikal.server.wire`'s.
"""
