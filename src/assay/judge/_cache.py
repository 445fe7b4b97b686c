"""A persistent SQLite cache of judge replies, keyed by (model, messages, parameters)."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["JudgeCache", "request_key"]


def request_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a request (the API key is never part of it).

    Example:
        >>> a = request_key('m', [{'role': 'user', 'content': 'hi'}], {'temperature': 0})
        >>> a == request_key('m', [{'role': 'user', 'content': 'hi'}], {'temperature': 0})
        True
        >>> a == request_key('m2', [{'role': 'user', 'content': 'hi'}], {'temperature': 0})
        False
    """
    blob = json.dumps({"model": model, "messages": messages, "params": params}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class JudgeCache:
    """Judge replies stored in one SQLite file; safe across threads and processes.

    Only replies that arrived are stored: a request that failed is asked again
    on the next run.

    Example:
        >>> import tempfile, os
        >>> cache = JudgeCache(os.path.join(tempfile.mkdtemp(), 'judge.sqlite'))
        >>> cache.put('k', 'm', 'A')
        >>> cache.get('k')
        'A'
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), timeout=60, check_same_thread=False, isolation_level=None)
        with self._lock:
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError:  # e.g. a file system without shared memory
                logger.debug("judge cache %s: WAL mode unavailable", self.path)
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS replies ("
                " key TEXT PRIMARY KEY, model TEXT NOT NULL, reply TEXT NOT NULL, created REAL NOT NULL)"
            )

    def get(self, key: str) -> str | None:
        """The stored reply for ``key``, or ``None``."""
        with self._lock:
            row = self._conn.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, model: str, reply: str) -> None:
        """Store ``reply`` under ``key`` (replacing an older one)."""
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, model, reply, created) VALUES (?, ?, ?, ?)",
                (key, model, reply, time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()
