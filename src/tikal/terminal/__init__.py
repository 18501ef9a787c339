"""The terminal front end: the hex map in characters (:mod:`~tikal.terminal.textboard`) and a
human against bots (:mod:`~tikal.terminal.play`).  Built on the engine and the bots only."""
