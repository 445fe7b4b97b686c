"""The typed record of one result file: what a worker derives once from the bytes it wrote.

The process that writes a result file takes, right after writing it, a
:class:`ResultRecord` of it: where it is, its identity on disk, the SHA-256
of the bytes written, the result without its details (as JSON, as the file
spells it), the number of details and, when they were computed then, the
statistics of the result as the run index keeps them.  The driver records it
in the run index (:meth:`assay.rundir.index.RunIndex.record`) and decides
the task's status from it; readers that find the index stale rebuild the
same record from the file.  Its typed views — the numeric metrics, ``_meta``,
the ``_meta.incomplete`` marks — are parsed once, when first asked for,
instead of each reader looking keys up by name (the extraction audit is read
from its ``result`` by :func:`assay.audit.record_of`).

Example:
    >>> import pathlib, tempfile
    >>> from assay.rundir.results import write_result
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> result = {"accuracy": 50.0, "_meta": {"incomplete": [{"kind": "unjudged", "count": 1, "detail": "1 reply"}]}}
    >>> digest = write_result(root / "m" / "d.json", result)
    >>> record = ResultRecord.of_written(root, root / "m" / "d.json", result, digest)
    >>> record.path, record.metrics, record.incomplete
    ('m/d.json', {'accuracy': 50.0}, (Incomplete(kind='unjudged', count=1, detail='1 reply'),))
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from assay._dataclass import DataclassMethods, FrozenMethods
from assay.errors import InputFileError
from assay.rundir.results import META_KEY, numeric_metrics

__all__ = ["FileIdentity", "Incomplete", "ResultRecord", "encode_head", "incomplete_of", "judge_line"]



class FileIdentity(NamedTuple):
    """A file's identity on disk: size, modification and change times (ns), inode."""

    size: int
    mtime_ns: int
    ctime_ns: int
    ino: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileIdentity:
        """The identity in a ``stat`` result."""
        return cls(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@dataclass(init=False, repr=False, eq=False)
class Incomplete(FrozenMethods):
    """One entry of a result's ``_meta.incomplete``: why its number stands on fewer samples than it claims.

    ``kind`` is a short snake_case word (``partial_predictions``, ``unjudged``,
    ``duplicate_keys``, …), ``count`` the samples affected (``None``: unknown),
    ``detail`` a one-line explanation naming the files or parts.
    """

    kind: str
    count: int | None
    detail: str

    def __init__(self, kind: str, count: int | None, detail: str) -> None:
        self.kind = kind
        self.count = count
        self.detail = detail

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "detail": self.detail}


def incomplete_of(meta: Any) -> tuple[Incomplete, ...]:
    """The ``incomplete`` entries of a result's ``_meta`` (anything else there is ignored).

    >>> incomplete_of({"incomplete": [{"kind": "unjudged", "count": 2, "detail": "x"}, "junk", {"count": 1}]})
    (Incomplete(kind='unjudged', count=2, detail='x'), Incomplete(kind='incomplete', count=1, detail=''))
    >>> incomplete_of(None)
    ()
    """
    entries = meta.get("incomplete") if isinstance(meta, Mapping) else None
    if not isinstance(entries, list):
        return ()
    out = []
    for e in entries:
        if not isinstance(e, Mapping):
            continue
        count = e.get("count")
        out.append(Incomplete(
            str(e.get("kind") or "incomplete"),
            count if isinstance(count, int) and not isinstance(count, bool) else None,
            str(e.get("detail") or ""),
        ))
    return tuple(out)


def judge_line(judge: Any) -> str:
    """One line of a result's ``_meta.judge`` (what its judge calls cost), for logs, the summary and the report.

    Unknown tokens or cost read ``unknown``, never 0.

    Example:
        >>> judge_line({'model': 'gpt-4o', 'calls': 5, 'cached': 2, 'failed': 0, 'requests': 3, 'prompt_tokens': 900,
        ...             'completion_tokens': 15, 'seconds': 1.25, 'cost': 0.00240})
        'judge gpt-4o: 5 calls (2 cached, 0 failed, 3 requests), tokens 900 in / 15 out, 1.2 s, cost 0.0024'
        >>> judge_line({'model': 'j', 'calls': 1, 'cached': 0, 'failed': 0, 'requests': 1, 'prompt_tokens': None,
        ...             'completion_tokens': None, 'seconds': 0.5, 'cost': None})
        'judge j: 1 calls (0 cached, 0 failed, 1 requests), tokens unknown, 0.5 s, cost unknown'
    """
    if not isinstance(judge, Mapping):
        return "judge: no usage recorded"
    model = judge.get("model")
    name = ", ".join(map(str, model)) if isinstance(model, list) else str(model)
    prompt, completion = judge.get("prompt_tokens"), judge.get("completion_tokens")
    tokens = "tokens unknown" if prompt is None or completion is None else f"tokens {prompt} in / {completion} out"
    cost = judge.get("cost")
    money = "cost unknown" if cost is None else f"cost {float(cost):.4g}"
    line = (
        f"judge {name}: {judge.get('calls', 0)} calls ({judge.get('cached', 0)} cached, {judge.get('failed', 0)} failed,"
        f" {judge.get('requests', 0)} requests), {tokens}, {float(judge.get('seconds') or 0):.1f} s, {money}"
    )
    return line + _judged_part(judge)


def _judged_part(judge: Mapping[str, Any]) -> str:
    """What a subjective result's usage adds to its line: the base models, the samples left unjudged.

    >>> _judged_part({'against': ['gpt4-0314'], 'unjudged': 2, 'samples': 6})
    '; against gpt4-0314; 2 of 6 samples unjudged'
    """
    part = ""
    against = judge.get("against")
    if isinstance(against, list) and against:
        part += f"; against {', '.join(map(str, against))}"
    if "unjudged" in judge:
        unjudged, samples = judge.get("unjudged"), judge.get("samples")
        part += f"; {'unknown' if unjudged is None else unjudged} of {'?' if samples is None else samples} samples unjudged"
    return part


def encode_head(head: Mapping[str, Any]) -> bytes:
    """A result without details as the index keeps it: compact JSON that parses back to ``head``.

    Non-finite numbers stay numbers (``NaN``, ``Infinity``), as read from a
    file that spells them so.

    >>> encode_head({'accuracy': float('nan')})
    b'{"accuracy":NaN}'
    """
    from assay.fileio import dumps_json, has_non_finite

    if has_non_finite(dict(head)):
        import json

        return json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return dumps_json(dict(head), indent=False)


def _relative(results_root: str | os.PathLike[str], result_path: str | os.PathLike[str]) -> str:
    """``result_path`` relative to ``results_root``, ``/``-separated; raises ``ValueError`` outside it."""
    return Path(os.path.abspath(result_path)).relative_to(os.path.abspath(results_root)).as_posix()


@dataclass(init=False, repr=False, eq=False)
class ResultRecord(DataclassMethods):
    """One result file as written (by a worker) or as indexed (by a reader).

    Attributes:
        path: the file relative to ``results/``, ``/``-separated (``'<model>/<dataset>.json'``).
        identity: the file's identity when the record was taken.
        checked_ns: when it was taken (wall clock, ns); it stands for the file while the file's
            identity is unchanged and its change time is older by more than the file system's
            timestamp granularity (:data:`assay.rundir.index.RACY_NS`).
        digest: the SHA-256 (hex) of the file's bytes.
        details: how many ``details`` entries the file holds (``None``: no details list).
        head: the result without ``details``, as JSON bytes.
        written: the SHA-256 of the bytes assay wrote when it computed the result (``None``: not
            written by assay, or, when recorded, the index's value is kept).
        stats: the result's statistics as the run index keeps them, ``(settings, data)``, when the
            worker computed them from the bytes it wrote (see :func:`assay.rundir.sidecar.save_stats`).
        samples: what the report reads of every sample (per-sample values, the sample browser's
            columns) as the run index keeps it, ``(settings, data)``, when the worker computed it
            (see :func:`assay.rundir.stats_index.index_samples`).
    """

    path: str
    identity: FileIdentity
    checked_ns: int
    digest: str
    details: int | None
    head: bytes
    written: str | None = None
    stats: tuple[str, bytes] | None = field(default=None, compare=False)
    samples: tuple[str, bytes] | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        path: str,
        identity: FileIdentity,
        checked_ns: int,
        digest: str,
        details: int | None,
        head: bytes,
        written: str | None = None,
        stats: tuple[str, bytes] | None = None,
        samples: tuple[str, bytes] | None = None,
    ) -> None:
        self.path = path
        self.identity = identity
        self.checked_ns = checked_ns
        self.digest = digest
        self.details = details
        self.head = head
        self.written = written
        self.stats = stats
        self.samples = samples

    @classmethod
    def of_written(cls, results_root: str | os.PathLike[str], result_path: str | os.PathLike[str],
                   result: Mapping[str, Any], digest: str) -> ResultRecord | None:
        """The record of a result file just written from ``result`` (``digest``: of the bytes written).

        Taken by the process that wrote the file, right after writing it; its
        written digest is ``digest``: later bytes of the file are a change made
        after assay computed the result.  ``None`` when the file cannot be
        stat'ed or lies outside ``results_root``.
        """
        try:
            st = os.stat(result_path)
            rel = _relative(results_root, result_path)
        except (OSError, ValueError):
            return None
        checked = time.time_ns()
        details = result.get("details")
        head = {k: v for k, v in result.items() if k != "details"}
        from assay.fileio import dumps_finite_json

        # as the file spells it: non-finite numbers as strings (see assay.rundir.results.write_result)
        return cls(rel, FileIdentity.of(st), checked, digest, len(details) if isinstance(details, list) else None,
                   dumps_finite_json(head, indent=False), written=digest)

    @classmethod
    def of_file(cls, results_root: str | os.PathLike[str], result_path: str | os.PathLike[str]) -> ResultRecord | None:
        """The record of a result file assay just wrote, read back from the file (results written in
        pieces, e.g. merged from shards); its written digest is that of the bytes read.  ``None`` when
        the file cannot be read, is not a result, changed while it was read, or lies outside ``results_root``."""
        from assay.rundir.results import result_head

        try:
            st = os.stat(result_path)
            rel = _relative(results_root, result_path)
            with open(result_path, "rb") as fh:
                data = fh.read()
            head, count = result_head(data, os.fspath(result_path), count_details=True)
            if FileIdentity.of(st) != FileIdentity.of(os.stat(result_path)):
                return None  # changed while it was read: readers index what is there
        except (OSError, ValueError, InputFileError):
            return None
        digest = hashlib.sha256(data).hexdigest()
        return cls(rel, FileIdentity.of(st), time.time_ns(), digest, count, encode_head(head), written=digest)

    def row(self) -> tuple[Any, ...]:
        """The record as a row of the run index's ``files`` table."""
        s = self.identity
        return (self.path, s.size, s.mtime_ns, s.ctime_ns, s.ino, self.checked_ns, self.digest, self.details, self.head,
                self.written)

    @property
    def key(self) -> str:
        """``'<model>/<dataset>'``: the result's name without ``.json``."""
        return self.path[: -len(".json")] if self.path.endswith(".json") else self.path

    def stats_row(self) -> tuple[str, str, str, bytes] | None:
        """The statistics as a row for :meth:`assay.rundir.index.RunIndex.record` (``None``: none computed)."""
        return None if self.stats is None else (self.key, self.digest, *self.stats)

    @cached_property
    def result(self) -> dict[str, Any]:
        """The result without its details, parsed (once)."""
        from assay.fileio import loads_json

        value = loads_json(self.head)
        return value if isinstance(value, dict) else {}

    @property
    def metrics(self) -> dict[str, float | int]:
        """The numeric metrics, in the file's order (see :func:`assay.rundir.results.numeric_metrics`)."""
        return numeric_metrics(self.result)

    @property
    def meta(self) -> dict[str, Any]:
        """The result's ``_meta`` (empty when it has none)."""
        meta = self.result.get(META_KEY)
        return meta if isinstance(meta, dict) else {}

    @property
    def incomplete(self) -> tuple[Incomplete, ...]:
        """The result's ``_meta.incomplete`` entries."""
        return incomplete_of(self.meta)

    @property
    def error(self) -> str | None:
        """The message of an error record (``None``: a result)."""
        return str(self.result["error"]) if "error" in self.result else None
