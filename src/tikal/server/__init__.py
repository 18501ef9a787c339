"""The web app: ``create_app(db_path)`` (FastAPI) wiring storage, sessions, the game
manager, bots, the WebSocket hub, messages, replays and the page, API and WebSocket routes."""

from .app import create_app
from .store import SqliteStorage, Storage

__all__ = ["SqliteStorage", "Storage", "create_app"]
