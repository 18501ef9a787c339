"""Time controls, the seats a bot plays while their player is away, and the watch that
hands a seat over when its time runs out (docs/web.md, Time controls)."""
