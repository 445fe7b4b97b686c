"""A persistent SQLite cache of judge replies, keyed by (endpoint, model, messages, parameters).

The endpoint is the judge's chat-completions URL as :func:`endpoint_id`
normalizes it, without its credentials: two judges serving the same model
name on different servers never share a reply.  A cache written before the
endpoint was part of the key still opens, but none of its replies is found
(their keys lack it): each such prompt is asked once more, and the
replies stay in the file unused (logged when it is first opened).

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
from urllib.parse import parse_qsl, urlencode, urlsplit

from assay.config.secrets import is_secret_key

logger = logging.getLogger(__name__)

__all__ = ["CachedReply", "JudgeCache", "endpoint_id", "request_key"]


class CachedReply(NamedTuple):
    """A stored reply and the token usage it was paid with (``None``: the server did not say)."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


def endpoint_id(url: str) -> str:
    """The judge's URL as the cache knows it: scheme and host in lower case, the default port left out,
    no trailing ``/``, no fragment, and no credentials — neither ``user:password@`` nor a query
    parameter with a secret name (``api_key``, ``token``, … as :func:`assay.config.secrets.is_secret_key`
    names them); other query parameters (an ``api-version``) are kept in their order.

    Example:
        >>> endpoint_id('HTTPS://me:sk-1@Judge.Example:443/v1/chat/completions/?api_key=sk-2&api-version=2024')
        'https://judge.example/v1/chat/completions?api-version=2024'
        >>> endpoint_id('http://127.0.0.1:8001/v1/chat/completions')
        'http://127.0.0.1:8001/v1/chat/completions'
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host = f"{host}:{port}"
    query = [(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True) if not is_secret_key(name)]
    path = parts.path.rstrip("/")
    return f"{scheme}://{host}{path}" + (f"?{urlencode(query)}" if query else "")


def request_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any], *, endpoint: str) -> str:
    """SHA-256 of the canonical JSON of a request sent to ``endpoint`` (an :func:`endpoint_id`;
    the API key and the URL's credentials are never part of it).

    Example:
        >>> url = 'http://127.0.0.1:8000/v1/chat/completions'
        >>> a = request_key('m', [{'role': 'user', 'content': 'hi'}], {'temperature': 0}, endpoint=url)
        >>> a == request_key('m', [{'role': 'user', 'content': 'hi'}], {'temperature': 0}, endpoint=url)
        True
        >>> a == request_key('m2', [{'role': 'user', 'content': 'hi'}], {'temperature': 0}, endpoint=url)
        False
        >>> a == request_key('m', [{'role': 'user', 'content': 'hi'}], {'temperature': 0},
        ...                  endpoint='http://127.0.0.1:8001/v1/chat/completions')
        False
    """
    blob = json.dumps({"endpoint": endpoint, "model": model, "messages": messages, "params": params},
                      sort_keys=True, ensure_ascii=False, default=str)
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
                " prompt_tokens INTEGER, completion_tokens INTEGER, endpoint TEXT)"
            )
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(replies)")}
            for column in ("prompt_tokens", "completion_tokens"):  # a cache written before usage was kept
                if column not in columns:
                    self._conn.execute(f"ALTER TABLE replies ADD COLUMN {column} INTEGER")
            if "endpoint" not in columns:  # written before the endpoint was part of the key
                self._conn.execute("ALTER TABLE replies ADD COLUMN endpoint TEXT")
                old = int(self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()[0])
                if old:
                    logger.warning("judge cache %s: its %d replies were stored without the judge's URL in their key, "
                                   "so none is reused: those prompts are asked again", self.path, old)

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

    def put(self, key: str, model: str, reply: str, usage: tuple[int | None, int | None] | None = None,
            endpoint: str | None = None) -> None:
        """Store ``reply`` under ``key`` (replacing an older one), with its ``(prompt, completion)`` token usage
        and the :func:`endpoint_id` it came from; committed before it returns."""
        prompt, completion = usage if usage is not None else (None, None)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, model, reply, created, prompt_tokens, completion_tokens, endpoint)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, model, reply, time.time(), prompt, completion, endpoint),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()
