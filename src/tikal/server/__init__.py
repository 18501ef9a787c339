"""The web app: ``create_app(db_path)`` (FastAPI), storage, live game manager, replays."""

from .app import create_app
from .storage import SqliteStorage, Storage

__all__ = ["SqliteStorage", "Storage", "create_app"]
