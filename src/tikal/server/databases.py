""":func:`open_storage` under its old name: it lives in :mod:`tikal.server.store` now."""

from .store import is_postgres_url, open_storage

__all__ = ["is_postgres_url", "open_storage"]
