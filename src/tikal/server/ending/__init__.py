"""Ending a game early by unanimous agreement: offered, accepted by every player or
declined, the scores as they stand (docs/web.md, Ending early)."""
