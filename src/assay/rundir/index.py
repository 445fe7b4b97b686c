"""The run index: what a summary needs of every result file of a run, in one file.

A leaderboard of 100 models × 500 datasets is 50,000 result files; opening
and parsing each one is what makes a summary slow, while the numbers a
summary needs of each are a few dozen bytes.  The index keeps, per result
file, its metrics and ``_meta`` (the result without ``details``, as JSON),
the number of its details, the SHA-256 of its bytes and its identity on disk
(size, modification and change times, inode), the SHA-256 of the bytes
assay wrote when it computed the result (see below); and, per (model, dataset),
the statistics of :mod:`assay.rundir.statistics` (intervals, unscorable counts) computed
from those bytes, in the layout of :mod:`assay.rundir.stats_index`.

It is an SQLite database, ``<run_dir>/index.sqlite``:

* SQLite ships with Python (no dependency), updates a few rows without
  rewriting the file, and makes every update one transaction: a process
  killed while writing leaves the previous content (the rollback journal is
  replayed on the next open), never a half-written index.  The journal stays
  in ``DELETE`` mode, which, unlike ``WAL``, works on network file systems.
* Columnar formats (Parquet) would need a large dependency and a rewrite of
  the whole file for every added result.

Who writes it: the process that plans a run (the driver), from what the
workers return with each outcome (:meth:`~assay.rundir.record.ResultRecord.of_written`), so workers on
other machines never touch it; and any reader that finds an entry stale,
missing or corrupt, after reading the file again (:meth:`RunIndex.snapshot`).

When it is trusted: an entry stands for its file while the file's identity
is unchanged *and* the entry was taken well after the file's last change
(more than :data:`RACY_NS`).  Every change to a file — an edit in place, a
replacement by rename, a copy with its times restored — sets the change
time to the current time, which no file operation can set back; an entry taken
within the file system's timestamp granularity of the last change cannot
tell a later change in the same tick, so such an entry is checked by
content (its SHA-256) until it is old enough — but by the summary of the
command that wrote the file and still holds the run directory's writer lock
(``written``, :meth:`RunIndex.snapshot`), whose workers hashed the bytes as
they wrote them.  An index copied to another
machine or path sees other inodes and change times: each entry is then
checked by content once and kept when the bytes are the same.
``assay verify`` checks every entry by content, whatever its identity says.

A large summary need not wait for that check: with ``deferred``
(:meth:`RunIndex.snapshot`), it computes from the index as it is while a
forked child stats and checks the files (:mod:`assay._beside`), and
:meth:`Snapshot.confirm` tells, before anything is written, whether every
file was as indexed; when not, the summary computes again from a snapshot
that reads and repairs what changed.

Results changed after assay computed them: an entry keeps, apart from the
digest of the file's present bytes (which a repair updates), the digest of
the bytes assay's worker wrote (:meth:`~assay.rundir.record.ResultRecord.of_written`).  A repair never
replaces the written digest with the present one, so a result edited or
replaced after it was computed is told by its entry alone
(:meth:`Snapshot.written`), on every path, the deferred one included.  A
result assay did not write (OpenCompass's) has no written digest; an entry
built from the files (a new or rebuilt index) takes it from the ``.stats``
file the worker wrote beside the result, when there is one.

The statistics of a result that is one file are kept in that file's row (one
table to read); those of results split into parts, in a table of their own.
What the report reads of every sample of a result file (its per-sample values,
packed, and the sample browser's columns; see
:func:`assay.rundir.stats_index.index_samples`) is kept in a third table,
read only by the report (:meth:`Snapshot.samples`), with the digest of the
bytes it was computed from; an index written before it had that table gains it
on its next update, and its readers read the ``.stats`` files meanwhile.

Deleting the index loses nothing: it is rebuilt from the result files (and
the ``.stats`` files beside them) on the next use.

Example:
    >>> import pathlib, tempfile
    >>> run = pathlib.Path(tempfile.mkdtemp())
    >>> (run / 'results' / 'm').mkdir(parents=True)
    >>> _ = (run / 'results' / 'm' / 'd.json').write_text('{"accuracy": 50.0}')
    >>> snap = RunIndex(run).snapshot()
    >>> snap.head('m/d.json'), snap.added
    (({'accuracy': 50.0}, None), ['m/d.json'])
    >>> RunIndex(run).snapshot().added  # the second reader takes the entry from the index
    []
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sqlite3
import time
import weakref
from collections.abc import Iterable, Mapping
from contextlib import closing, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from assay._dataclass import FACTORY, DataclassMethods
from assay.errors import InputFileError
from assay.fileio import loads_json
from assay.rundir.layout import INDEX_NAME, STATS_SUFFIX, RunDir
from assay.rundir.record import FileIdentity, ResultRecord, encode_head

if TYPE_CHECKING:
    from assay._beside import Beside

__all__ = [
    "FORMAT",
    "INDEX_FILE",
    "RACY_NS",
    "RunIndex",
    "Snapshot",
    "index_disabled",
    "stats_written_digest",
]

logger = logging.getLogger(__name__)

_K = TypeVar("_K")

#: The index's file name in a run directory.
INDEX_FILE = INDEX_NAME
#: The layout version; an index of another version is rebuilt.
FORMAT = "3"
#: An entry taken less than this long after its file's last change is checked by content
#: (covers the timestamp granularity of common file systems, FAT's 2 s included).
RACY_NS = 2_000_000_000
#: How long a writer waits for another process's transaction before giving up (seconds).
LOCK_TIMEOUT = 30.0
#: An index of at least this many entries may be checked against the files in a child process
#: while its reader goes on (:meth:`RunIndex.snapshot` with ``deferred``).
DEFER_MIN_FILES = 2_000

# what the report reads of every sample of a result file, computed from the bytes with this digest
_SAMPLES_TABLE = ("CREATE TABLE IF NOT EXISTS samples ("
                  " path TEXT PRIMARY KEY, digest TEXT NOT NULL, settings TEXT NOT NULL, data BLOB NOT NULL)")

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # a result file, with the statistics of its result (s_*) when the result is this one file
    "CREATE TABLE IF NOT EXISTS files ("
    " path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,"
    " ino INTEGER NOT NULL, checked_ns INTEGER NOT NULL, digest TEXT NOT NULL, details INTEGER, head BLOB NOT NULL,"
    " written TEXT, s_digests TEXT, s_settings TEXT, s_data BLOB)",
    # the statistics of results that are not one indexed file (split into parts)
    "CREATE TABLE IF NOT EXISTS stats ("
    " result TEXT PRIMARY KEY, digests TEXT NOT NULL, settings TEXT NOT NULL, data BLOB NOT NULL)",
    _SAMPLES_TABLE,
)


def index_disabled() -> bool:
    """True when ``ASSAY_NO_INDEX`` is set (to anything but ``0`` or empty): readers use the result files alone."""
    return os.environ.get("ASSAY_NO_INDEX", "") not in ("", "0")


#: Positions in a :attr:`Snapshot.rows` tuple: the index's columns of the file (:meth:`ResultRecord.row`), then
#: the statistics recorded for it: their digests, settings and data (``None`` when there are none).
(PATH, SIZE, MTIME, CTIME, INO, CHECKED, DIGEST, DETAILS, HEAD, WRITTEN, STATS_DIGESTS, STATS_SETTINGS, STATS) = range(13)

#: The ``result_digest`` field near the start of a ``.stats`` file (see :func:`assay.rundir.sidecar.save_stats`).
_STATS_DIGEST = re.compile(rb'"result_digest"\s*:\s*"([0-9a-f]{64})"')


def stats_written_digest(stats_file: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a result's bytes as assay wrote them, from the ``.stats`` file its worker wrote beside it.

    ``None`` when there is no such file or it records no digest.  Only its
    first bytes are read (the digest is its second field); a file of another
    layout is read whole.
    """
    try:
        with open(stats_file, "rb") as fh:
            start = fh.read(512)
            found = _STATS_DIGEST.search(start)
            if found is None and len(start) == 512:
                start += fh.read()
                found = _STATS_DIGEST.search(start)
    except OSError:
        return None
    return found.group(1).decode("ascii") if found is not None else None


class _Unusable(Exception):
    """The index cannot be opened or read for a reason other than corruption (locked, read-only)."""


@dataclass(init=False, repr=False, eq=False)
class Snapshot(DataclassMethods):
    """The result files of a run as they are now, with what the index knew of them.

    Attributes:
        root: the run directory.
        rows: relative path (under ``results/``) → the index's row of every
            readable result file, as it is now (positions: :data:`PATH` …).
        folders: folder relative to ``results/`` → the names of the files in it.
        added: files the index did not hold (new, or the index was missing or rebuilt).
        changed: files whose bytes differ from what the index held.
        removed: indexed files that no longer exist.
        rechecked: files checked by content whose bytes were unchanged.
        unreadable: result files (``*.json``) that could not be read or are not a result (not JSON,
            truncated, not an object), each with what is wrong; they have no entry.
        persisted: whether the index file could be read and written.
    """

    root: Path
    rows: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    folders: dict[str, set[str]] = field(default_factory=dict)
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rechecked: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    persisted: bool = False
    _index: RunIndex | None = None
    _stats: dict[str, tuple[str, str, bytes]] | None = None
    _pending_stats: list[tuple[str, str, str, bytes]] = field(default_factory=list)
    _samples: dict[str, tuple[str, str, bytes]] | None = None
    _pending_samples: list[tuple[str, str, str, bytes]] = field(default_factory=list)
    _check: Beside | None = None
    _finalizer: Any = None
    _folders_from_rows: bool = False
    #: the process that took the snapshot: only it writes into the index (a forked child's copy keeps what is
    #: put into it to itself; its parent computes and writes the same)
    _owner: int = field(default_factory=os.getpid)

    def __init__(
        self,
        root: Path,
        rows: dict[str, tuple[Any, ...]] = FACTORY,
        folders: dict[str, set[str]] = FACTORY,
        added: list[str] = FACTORY,
        changed: list[str] = FACTORY,
        removed: list[str] = FACTORY,
        rechecked: list[str] = FACTORY,
        unreadable: list[tuple[str, str]] = FACTORY,
        persisted: bool = False,
        _index: RunIndex | None = None,
        _stats: dict[str, tuple[str, str, bytes]] | None = None,
        _pending_stats: list[tuple[str, str, str, bytes]] = FACTORY,
        _samples: dict[str, tuple[str, str, bytes]] | None = None,
        _pending_samples: list[tuple[str, str, str, bytes]] = FACTORY,
        _check: Beside | None = None,
        _finalizer: Any = None,
        _folders_from_rows: bool = False,
        _owner: int = FACTORY,
    ) -> None:
        self.root = root
        self.rows = {} if rows is FACTORY else rows
        self.folders = {} if folders is FACTORY else folders
        self.added = [] if added is FACTORY else added
        self.changed = [] if changed is FACTORY else changed
        self.removed = [] if removed is FACTORY else removed
        self.rechecked = [] if rechecked is FACTORY else rechecked
        self.unreadable = [] if unreadable is FACTORY else unreadable
        self.persisted = persisted
        self._index = _index
        self._stats = _stats
        self._pending_stats = [] if _pending_stats is FACTORY else _pending_stats
        self._samples = _samples
        self._pending_samples = [] if _pending_samples is FACTORY else _pending_samples
        self._check = _check
        self._finalizer = _finalizer
        self._folders_from_rows = _folders_from_rows
        self._owner = os.getpid() if _owner is FACTORY else _owner

    @property
    def deferred(self) -> bool:
        """Whether the files are still being checked against the index (see :meth:`confirm`)."""
        return self._check is not None

    def abandon(self) -> None:
        """Stop the check of a deferred snapshot that will not be used (nothing computed from it is kept)."""
        check, self._check = self._check, None
        if check is not None:
            if self._finalizer is not None:
                self._finalizer.detach()
            check.discard()
            self._pending_stats = []
            self._pending_samples = []

    def confirm(self) -> bool:
        """Wait for the check of a deferred snapshot (:meth:`RunIndex.snapshot`); True when every
        result file is as indexed: the snapshot is then what an immediate one would have been (files
        whose bytes were checked again are recorded in the index).  False when any file was added,
        removed, changed or could not be checked: what was computed from this snapshot must be
        computed again from a new one.  True at once for a snapshot that was not deferred.
        """
        check, self._check = self._check, None
        if check is None:
            return True
        if self._finalizer is not None:
            self._finalizer.detach()
        fresh = check.wait()[1]
        if fresh is None:
            self._pending_stats = []  # computed from files the snapshot may not describe
            self._pending_samples = []
            return False
        for entry in fresh:
            row = self.rows.get(entry.path)
            if row is not None:
                self.rows[entry.path] = (entry.path, *entry.identity, entry.checked_ns, *row[DIGEST:])
            self.rechecked.append(entry.path)
        if fresh and self.persisted and self._index is not None:
            self.persisted = self._index.record(fresh)
        self.flush()
        return True

    def paths(self) -> list[str]:
        """Every readable result file, relative to ``results/``, sorted."""
        return sorted(self.rows)

    def names(self, folder: str) -> set[str]:
        """The file names in ``results/<folder>`` (empty when there is no such folder); those of the
        result files (``*.json``) at least, which are all a deferred snapshot knows."""
        if self._folders_from_rows:  # a deferred snapshot: the indexed files (confirm() checks them)
            self._folders_from_rows = False
            folders = self.folders
            for rel in self.rows:
                parent, _, name = rel.rpartition("/")
                names = folders.get(parent)
                if names is None:
                    names = folders[parent] = set()
                names.add(name)
        return self.folders.get(folder, set())

    def head(self, rel: str) -> tuple[dict[str, Any], int | None] | None:
        """``(result without details, details count)`` of ``results/<rel>``; ``None`` when it is not a readable result.

        The dict is new: the caller's to modify.
        """
        row = self.rows.get(rel)
        if row is None:
            return None
        return loads_json(row[HEAD]), row[DETAILS]  # NaN and infinities too

    def digest(self, rel: str) -> str | None:
        """The SHA-256 of ``results/<rel>``'s present bytes, when it is a readable result."""
        row = self.rows.get(rel)
        return row[DIGEST] if row is not None else None

    def digests(self, rels: Mapping[_K, str]) -> dict[_K, str | None]:
        """:meth:`digest` of many result files at once: each key of ``rels`` → the digest of its path."""
        get = self.rows.get
        out: dict[_K, str | None] = {}
        for key, rel in rels.items():
            row = get(rel)
            out[key] = row[DIGEST] if row is not None else None
        return out

    def written(self, rel: str) -> str | None:
        """The SHA-256 of the bytes assay wrote when it computed ``results/<rel>`` (``None``: a result
        assay did not write, or one the snapshot does not hold); the file changed after it was computed
        when this differs from :meth:`digest`."""
        row = self.rows.get(rel)
        return row[WRITTEN] if row is not None else None

    def stats(self, key: str, digests: str, settings: str) -> bytes | None:
        """The statistics saved for ``key`` (``'<model>/<dataset>'``), computed from files with these
        digests with these settings (see :meth:`RunIndex.record`)."""
        row = self.rows.get(f"{key}.json")
        if row is not None and row[STATS_DIGESTS] == digests and row[STATS_SETTINGS] == settings:
            return row[STATS]
        found = self.all_stats().get(key)
        return found[2] if found is not None and found[0] == digests and found[1] == settings else None

    def all_stats(self) -> dict[str, tuple[str, str, bytes]]:
        """The index's statistics records not kept in a file's row (results split into parts): key →
        (digests, settings, data); read once."""
        if self._stats is None:
            self._stats = self._index._load_stats() if self._index is not None and self.persisted else {}
        return self._stats

    def put_stats(self, key: str, digests: str, settings: str, data: bytes) -> None:
        """Keep statistics computed from the files (written by :meth:`flush`)."""
        rel = f"{key}.json"
        row = self.rows.get(rel)
        if row is not None:
            self.rows[rel] = (*row[:STATS_DIGESTS], digests, settings, data)
        elif self._stats is not None:
            self._stats[key] = (digests, settings, data)
        self._pending_stats.append((key, digests, settings, data))

    def samples(self, rel: str) -> tuple[str, bytes] | None:
        """What the report reads of every sample of ``results/<rel>`` (see
        :func:`assay.rundir.stats_index.index_samples`), ``(settings, data)``, when it was computed from the
        file's present bytes; ``None`` otherwise.  The index's samples are read once, on the first call."""
        found = self.all_samples().get(rel)
        if found is None:
            return None
        row = self.rows.get(rel)
        return (found[1], found[2]) if row is not None and row[DIGEST] == found[0] else None

    def all_samples(self) -> dict[str, tuple[str, str, bytes]]:
        """Every result's samples the index holds: path → (digest, settings, data), whatever bytes they were
        computed from (their digest is to be compared with :meth:`digest`, as :meth:`samples` does); read once."""
        if self._samples is None:
            self._samples = self._index._load_samples() if self._index is not None and self.persisted else {}
        return self._samples

    def current_samples(self, rels: Iterable[str]) -> dict[str, tuple[str, str, bytes]]:
        """:meth:`samples` of many result files at once: path → (digest, settings, data) of those whose
        samples were computed from the file's present bytes."""
        held, rows = self.all_samples().get, self.rows.get
        out = {}
        for rel in rels:
            found = held(rel)
            if found is not None and (row := rows(rel)) is not None and row[DIGEST] == found[0]:
                out[rel] = found
        return out

    def put_samples(self, rel: str, digest: str, settings: str, data: bytes) -> None:
        """Keep what the report reads of every sample of ``results/<rel>``, computed from the bytes with
        ``digest`` (written by :meth:`flush`)."""
        if self._samples is not None:
            self._samples[rel] = (digest, settings, data)
        self._pending_samples.append((rel, digest, settings, data))

    def flush(self) -> None:
        """Write the statistics kept by :meth:`put_stats` (and the samples kept by :meth:`put_samples`) into
        the index (when it is usable); for a deferred snapshot, once :meth:`confirm` has found the files as
        indexed; only from the process that took the snapshot (a forked child's copy — the report's ranking
        child computing the statistics for itself — writes nothing: the process it was forked from computes
        and writes them)."""
        if self._check is not None:
            return
        if os.getpid() != self._owner:  # a forked child's copy: nothing written from it
            self._pending_stats, self._pending_samples = [], []
            return
        pending, self._pending_stats = self._pending_stats, []
        samples, self._pending_samples = self._pending_samples, []
        if (pending or samples) and self._index is not None and self.persisted:
            self._index.record((), pending, samples=samples)


class RunIndex:
    """The index of one run directory (see the module's documentation).

    >>> import tempfile
    >>> RunIndex(tempfile.mkdtemp()).path.name
    'index.sqlite'
    """

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.root = Path(run_dir)
        self.path = RunDir(self.root).index
        self.results = RunDir(self.root).results

    # -- the database ----------------------------------------------------------------------------

    def _connect(self, *, create: bool) -> sqlite3.Connection:
        """An open connection with the schema in place; a corrupt or foreign index is replaced by an empty one.

        Raises:
            _Unusable: the index is locked by another process, or cannot be created.
        """
        if not create and not self.path.exists():
            raise _Unusable("no index")
        for attempt in (1, 2):
            try:
                con = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None)
            except sqlite3.Error as exc:
                raise _Unusable(str(exc)) from None
            try:
                con.execute("PRAGMA journal_mode=DELETE")
                version = self._ensure_schema(con)
                if version == FORMAT:
                    return con
                con.close()
                reason = f"it has layout {version!r}, this version reads {FORMAT!r}"
            except sqlite3.DatabaseError as exc:
                con.close()
                if _is_busy(exc):
                    raise _Unusable(str(exc)) from None
                reason = f"it is unreadable ({exc})"
            if attempt == 2:
                raise _Unusable(reason)
            self._discard(reason)
        raise AssertionError("unreachable")

    def _ensure_schema(self, con: sqlite3.Connection) -> str | None:
        row = None
        with suppress(sqlite3.OperationalError):  # no table yet
            row = con.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is not None:
            return str(row[0])
        con.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                con.execute(statement)
            con.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('format', ?)", (FORMAT,))
            found = con.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            con.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise
        return str(found[0])

    def _discard(self, reason: str) -> None:
        """Remove an index that cannot be used (it is rebuilt from the result files)."""
        logger.warning("the run index %s is rebuilt from the result files: %s", self.path, reason)
        for suffix in ("", "-journal"):
            with suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")

    def _load_rows(self) -> dict[str, tuple[Any, ...]]:
        """path → the file's row, with the statistics recorded for its result (see :data:`PATH` …)."""
        with closing(self._connect(create=False)) as con:
            try:
                rows = con.execute(
                    "SELECT path, size, mtime_ns, ctime_ns, ino, checked_ns, digest, details, head, written,"
                    " s_digests, s_settings, s_data FROM files"
                ).fetchall()
            except sqlite3.DatabaseError as exc:
                if _is_busy(exc):
                    raise _Unusable(str(exc)) from None
                raise
        return {r[0]: r for r in rows}

    def _load_stats(self) -> dict[str, tuple[str, str, bytes]]:
        """The statistics records not kept in a file's row: ``'<model>/<dataset>'`` → (digests, settings, data)."""
        try:
            with closing(self._connect(create=False)) as con:
                rows = con.execute("SELECT result, digests, settings, data FROM stats").fetchall()
        except (_Unusable, sqlite3.Error) as exc:
            logger.info("the statistics in the run index %s cannot be read: %s", self.path, exc)
            return {}
        return {r[0]: (r[1], r[2], bytes(r[3])) for r in rows}

    def _load_samples(self) -> dict[str, tuple[str, str, bytes]]:
        """What the report reads of every sample of each result file: path → (digest, settings, data)."""
        try:
            with closing(self._connect(create=False)) as con:
                rows = con.execute("SELECT path, digest, settings, data FROM samples").fetchall()
        except (_Unusable, sqlite3.Error) as exc:  # an index written before the table was: none
            logger.debug("the samples in the run index %s cannot be read: %s", self.path, exc)
            return {}
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def record(
        self,
        entries: Iterable[ResultRecord],
        stats: Iterable[tuple[str, str, str, bytes]] = (),
        *,
        removed: Iterable[str] = (),
        samples: Iterable[tuple[str, str, str, bytes]] = (),
    ) -> bool:
        """Add or replace entries (and per-result statistics and samples), remove others — all in one transaction.

        The statistics an entry carries (:attr:`ResultRecord.stats`) are recorded with it; ``stats`` items are ``(key '<model>/<dataset>', the digests of its files joined by ',', the settings
        they were computed with, data)``; the index stores them as given (their layout is the statistics').
        Likewise the samples an entry carries (:attr:`ResultRecord.samples`) and ``samples`` items
        ``(path relative to results/, the digest of the bytes they were computed from, settings, data)``.
        The statistics of a result that is one indexed file are kept in its row.  A replaced entry keeps
        its statistics: they are keyed by the digests they were computed from; and its written digest,
        unless the new entry gives one.
        False (logged) when the index cannot be written; nothing is then changed.
        """
        entries = list(entries)
        rows = [e.row() for e in entries]
        stat_rows = [row for e in entries if (row := e.stats_row()) is not None] + list(stats)
        sample_rows = [(e.path, e.digest, *e.samples) for e in entries if e.samples is not None] + list(samples)
        gone = [(p,) for p in removed]
        if not rows and not stat_rows and not gone and not sample_rows:
            return True
        try:
            with closing(self._connect(create=True)) as con:
                con.execute("BEGIN IMMEDIATE")
                try:
                    con.executemany(
                        "INSERT INTO files (path, size, mtime_ns, ctime_ns, ino, checked_ns, digest, details, head,"
                        " written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET"
                        " size = excluded.size, mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns,"
                        " ino = excluded.ino, checked_ns = excluded.checked_ns, digest = excluded.digest,"
                        " details = excluded.details, head = excluded.head,"
                        " written = coalesce(excluded.written, files.written)",
                        rows,
                    )
                    con.executemany("DELETE FROM files WHERE path = ?", gone)
                    for key, digests, settings, data in stat_rows:
                        if con.execute(
                            "UPDATE files SET s_digests = ?, s_settings = ?, s_data = ? WHERE path = ?",
                            (digests, settings, data, f"{key}.json"),
                        ).rowcount:
                            con.execute("DELETE FROM stats WHERE result = ?", (key,))
                        else:
                            con.execute("INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?)", (key, digests, settings, data))
                    if sample_rows or gone:
                        con.execute(_SAMPLES_TABLE)  # an index of this layout written before the table was
                        con.executemany("INSERT OR REPLACE INTO samples VALUES (?, ?, ?, ?)", sample_rows)
                        con.executemany("DELETE FROM samples WHERE path = ?", gone)
                    con.execute("COMMIT")
                except BaseException:
                    with suppress(sqlite3.Error):
                        con.execute("ROLLBACK")
                    raise
        except (_Unusable, sqlite3.Error, OSError) as exc:
            logger.info("the run index %s was not updated: %s", self.path, exc)
            return False
        return True

    # -- reading ---------------------------------------------------------------------------------

    def snapshot(
        self, *, check_content: bool = False, write: bool = True, deferred: bool = False,
        written: Mapping[str, tuple[FileIdentity, str]] | None = None,
    ) -> Snapshot:
        """The result files as they are now, taken from the index where it still matches them.

        Every file under ``results/`` is listed and stat'ed; an entry is used
        while the file's identity is unchanged and its change time is more than
        :data:`RACY_NS` older than the entry (with ``check_content``, only when
        the file's SHA-256 equals the entry's).  ``written``: the files this
        process's workers wrote in the command that still holds the run
        directory's writer lock (relative path → identity and digest, as
        recorded; see :class:`assay.tasks.runner.IndexWriter`): their entries
        are used while file and entry keep that identity and digest, however
        recent, since no other writer has run since they were hashed as they
        were written.  Any other file is read again:
        its digest and head are taken from its bytes (its written digest kept,
        or, for a file the index did not hold, taken from the ``.stats`` file
        beside it), and the index is
        repaired (``write``) — stale and missing entries replaced, entries of
        deleted files removed — in one transaction.  A file that is not a
        readable result (not JSON, not an object) has no entry; readers of
        the files report it.

        The index is optional: when it cannot be read or written (a
        read-only run directory, a lock held too long), the snapshot is
        built from the files and ``persisted`` is false.

        ``deferred``: for a large index (:data:`DEFER_MIN_FILES` entries) on a
        machine with a second CPU, the snapshot is every entry of the index
        as it is, and the files are checked against it in a child process
        while the caller goes on; the caller must call
        :meth:`Snapshot.confirm` before it uses what it computed, and start
        again with a new snapshot when that says the files differ.
        """
        snap = Snapshot(self.root, _index=self)
        try:
            known = self._load_rows()
            snap.persisted = True
        except _Unusable:
            known = {}
            snap.persisted = write and self._writable()
        except sqlite3.DatabaseError as exc:  # a corrupt index that opened: start again
            self._discard(f"it is unreadable ({exc})")
            known = {}
            snap.persisted = write and self._writable()
        if deferred and not check_content and len(known) >= DEFER_MIN_FILES:
            from assay._beside import Beside

            check = Beside.start(partial(self._unchanged, known, written), "checking the run index against the result files")
            if check is not None:
                snap.rows = known
                snap._folders_from_rows = True  # the names of the indexed files, when first asked for
                snap._check = check
                snap._finalizer = weakref.finalize(snap, check.discard)
                return snap
        fresh = self._check_files(snap, known, check_content, None if check_content else written)
        snap.removed = sorted(known)
        if snap.persisted and (fresh or known):
            snap.persisted = self.record(fresh, removed=known)
        if snap.changed or snap.removed:
            logger.info("run index %s: %d result files changed and %d removed since indexed",
                        self.path, len(snap.changed), len(snap.removed))
        return snap

    def _check_files(
        self, snap: Snapshot, known: dict[str, tuple[Any, ...]], check_content: bool,
        written: Mapping[str, tuple[FileIdentity, str]] | None = None,
    ) -> list[ResultRecord]:
        """Take every result file into ``snap`` (its rows, added, changed, rechecked), popping the index's
        rows of the files found from ``known``; the entries to record (new, changed, rechecked).
        ``written``: see :meth:`snapshot`."""
        fresh: list[ResultRecord] = []
        written = written or {}
        rows = snap.rows
        racy = RACY_NS
        from assay.rundir.results import result_head

        pop = known.pop
        for rel_dir, folder, listing in self._listings(snap):
            for name, st in listing:
                rel = f"{rel_dir}{name}"
                row = pop(rel, None)
                ctime = st.st_ctime_ns
                if (
                    row is not None
                    and not check_content
                    and st.st_size == row[SIZE]
                    and st.st_mtime_ns == row[MTIME]
                    and ctime == row[CTIME]
                    and st.st_ino == row[INO]
                    and (ctime < row[CHECKED] - racy or written.get(rel) == (tuple(row[SIZE:CHECKED]), row[DIGEST]))
                ):
                    rows[rel] = row
                    continue
                path = os.path.join(folder, name)
                identity = FileIdentity(st.st_size, st.st_mtime_ns, ctime, st.st_ino)
                try:
                    data = _read(path)
                except OSError as exc:
                    logger.info("cannot read %s: %s", path, exc)
                    snap.unreadable.append((rel, f"cannot be read: {exc.strerror or exc}"))
                    continue
                digest = hashlib.sha256(data).hexdigest()
                now = time.time_ns()
                if row is not None and row[DIGEST] == digest:
                    if identity != tuple(row[SIZE:CHECKED]) or not ctime < row[CHECKED] - racy:
                        fresh.append(ResultRecord(rel, identity, now, digest, row[DETAILS], row[HEAD]))
                        row = (rel, *identity, now, *row[DIGEST:])
                    rows[rel] = row
                    snap.rechecked.append(rel)
                    continue
                (snap.added if row is None else snap.changed).append(rel)
                try:
                    head, count = result_head(data, path, count_details=True)
                except InputFileError as exc:
                    logger.debug("not indexed: %s", exc)
                    snap.unreadable.append((rel, f"cannot be read: {str(exc).replace(path, f'results/{rel}')}"))
                    continue
                before = row[WRITTEN] if row is not None else None
                by_assay = before
                stats_name = f"{name[: -len('.json')]}{STATS_SUFFIX}"
                if stats_name in snap.folders.get(rel_dir[:-1], ()):
                    recorded = stats_written_digest(os.path.join(folder, stats_name))
                    # these bytes are assay's (an entry its driver did not record), else the first it wrote
                    if recorded == digest or by_assay is None:
                        by_assay = recorded
                # a written digest the index holds stays (recorded meanwhile by a driver, if newer)
                new = ResultRecord(rel, identity, now, digest, count, encode_head(head), None if by_assay == before else by_assay)
                rows[rel] = (*new.row()[:WRITTEN], by_assay, None, None, None)
                fresh.append(new)
        return fresh

    def _unchanged(
        self, known: dict[str, tuple[Any, ...]], written: Mapping[str, tuple[FileIdentity, str]] | None = None
    ) -> list[ResultRecord] | None:
        """The entries to record when every result file is as ``known`` has it (files checked again by
        content being the same bytes); ``None`` when any was added, removed, changed or unreadable."""
        total = len(known)
        snap = Snapshot(self.root)
        fresh = self._check_files(snap, known, False, written)
        if snap.added or snap.changed or known or len(snap.rows) != total:
            return None
        return fresh

    def _writable(self) -> bool:
        return os.access(self.root, os.W_OK)

    def _listings(self, snap: Snapshot) -> Iterable[tuple[str, str, list[tuple[str, os.stat_result]]]]:
        """Every folder under ``results/`` (model folders and their subfolders) with its ``*.json`` files:
        (relative path with a trailing ``/``, path, [(file name, stat)]); records every folder's names
        in ``snap.folders``."""
        stack = [("", os.fspath(self.results))]
        while stack:
            rel_dir, folder = stack.pop()
            listing: list[tuple[str, os.stat_result]] = []
            names: set[str] = set()
            try:
                # stat'ed relative to the open folder: no walk of the whole path per file
                fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _SCANDIR_FD else None
            except OSError:
                continue
            try:
                it = os.scandir(fd if fd is not None else folder)
            except OSError:
                if fd is not None:
                    os.close(fd)
                continue
            try:
                with it:
                    for item in it:
                        name = item.name
                        try:
                            if item.is_dir():
                                stack.append((f"{rel_dir}{name}/", os.path.join(folder, name)))
                                continue
                            if not rel_dir:
                                continue  # results/<model>/… only
                            names.add(name)
                            if name.endswith(".json"):
                                listing.append((name, item.stat()))
                        except OSError:
                            continue
            finally:
                if fd is not None:
                    os.close(fd)
            if rel_dir:
                snap.folders[rel_dir[:-1]] = names
                yield rel_dir, folder, listing

    def remove(self) -> None:
        """Delete the index (it is rebuilt on the next use)."""
        for suffix in ("", "-journal"):
            with suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")


#: Whether :func:`os.scandir` lists an open folder (its entries are then stat'ed relative to it).
_SCANDIR_FD = os.scandir in os.supports_fd


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _is_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text or "readonly" in text or "unable to open" in text
