"""A persistent SQLite cache of judge replies, keyed by (model, messages, parameters).

Each reply is committed in its own transaction as it arrives (write-ahead
log, ``synchronous=NORMAL``: a committed reply survives the process being
killed), so a run killed while judging asks again only for the prompts it
had no reply to.  The reply's token usage is stored with it, so that a
reply served from the cache is known to have cost nothing this time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

logger = logging.getLogger(__name__)

__all__ = ["CachedReply", "JudgeCache", "request_key"]


class CachedReply(NamedTuple):
    """A stored reply and the token usage it was paid with (``None``: the server did not say)."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


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
        >>> cache.put('k', 'm', 'A', usage=(120, 3))
        >>> cache.get('k')
        'A'
        >>> cache.lookup('k')
        CachedReply(text='A', prompt_tokens=120, completion_tokens=3)
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
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS replies ("
                " key TEXT PRIMARY KEY, model TEXT NOT NULL, reply TEXT NOT NULL, created REAL NOT NULL,"
                " prompt_tokens INTEGER, completion_tokens INTEGER)"
            )
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(replies)")}
            for column in ("prompt_tokens", "completion_tokens"):  # a cache written before usage was kept
                if column not in columns:
                    self._conn.execute(f"ALTER TABLE replies ADD COLUMN {column} INTEGER")

    def get(self, key: str) -> str | None:
        """The stored reply for ``key``, or ``None``."""
        hit = self.lookup(key)
        return None if hit is None else hit.text

    def lookup(self, key: str) -> CachedReply | None:
        """The stored reply for ``key`` with its token usage, or ``None``."""
        with self._lock:
            row = self._conn.execute(
                "SELECT reply, prompt_tokens, completion_tokens FROM replies WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else CachedReply(str(row[0]), row[1], row[2])

    def count_present(self, keys: list[str]) -> int:
        """How many of ``keys`` have a stored reply."""
        found = 0
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                row = self._conn.execute(f"SELECT COUNT(*) FROM replies WHERE key IN ({marks})", chunk).fetchone()
                found += int(row[0])
        return found

    def put(self, key: str, model: str, reply: str, usage: tuple[int | None, int | None] | None = None) -> None:
        """Store ``reply`` under ``key`` (replacing an older one), with its ``(prompt, completion)`` token usage;
        committed before it returns."""
        prompt, completion = usage if usage is not None else (None, None)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, model, reply, created, prompt_tokens, completion_tokens)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, model, reply, time.time(), prompt, completion),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()
