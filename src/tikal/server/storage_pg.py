"""The PostgreSQL backend under its old name: it lives in :mod:`tikal.server.store.postgres`
now (import it from there)."""

from .store.postgres import CHANNEL, PostgresStorage

__all__ = ["CHANNEL", "PostgresStorage"]
