"""The ``.stats`` file kept beside each result file: writing, reading and checking it.

The worker that scores a (model, dataset) computes, from the bytes of the
result it has just written and the predictions still in memory, what the
report pass will want of it — each metric's interval, the unscorable counts,
the sample browser's columns, the per-sample values of paired comparisons —
and writes it as ``results/<model>/<abbr>.stats`` (:func:`save_stats`;
:func:`assay.rundir.layout.stats_path_of`), with
the SHA-256 of the result's bytes and the options used.  A reader takes it
only while the result file still has those bytes (:func:`load_stats`) and,
for a summary, while the summary shows the values it was computed for
(:meth:`SavedStats.output_for`).  A file of another layout or version
(:data:`STATS_FORMAT`) is ignored, and the statistics computed again from the
result.

The sample browser's raw replies and references are read from the prediction
file by :func:`prediction_columns` — by the worker when the predictions it
scored are kept elsewhere, and by every reader that computes the columns again.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay._gc import bulk_allocations
from assay.rundir.layout import STATS_SUFFIX, RunDir, stats_path_of
from assay.stats import (
    SAMPLE_TEXT,
    CellStat,
    PredictionColumns,
    ResultStats,
    SampleColumns,
    StatsOptions,
    Unscorable,
    result_stats,
)

__all__ = [
    "REPORT_OPTIONS",
    "STATS_FORMAT",
    "SavedStats",
    "load_stats",
    "load_stats_samples",
    "prediction_columns",
    "save_stats",
    "stats_json_bytes",
]

logger = logging.getLogger(__name__)

#: The version of the statistics' layout and of the rules that compute them; statistics of
#: another version (a ``.stats`` file, an entry of the run index) are computed again.
STATS_FORMAT = 2

#: The options of the summary's statistics and report pass: what :func:`save_stats` computes with.
REPORT_OPTIONS = StatsOptions(text_limit=SAMPLE_TEXT)


@dataclass(repr=False, eq=False)
class SavedStats(DataclassMethods):
    """What the report pass wants of one result file, computed once from it (see :func:`save_stats`).

    Attributes:
        result_digest: the :func:`~assay.rundir.results.content_digest` of the result file it was computed from.
        fingerprint: the result's input fingerprint (``_meta.fingerprint``), for the reader.
        options: the options it was computed with.
        values: each numeric metric's value, as the summary reads it.
        output: the statistics of every metric in ``values``, the unscorable
            counts (with bounds for each of them) and the sample browser's columns.
        samples: metric → its per-sample values (:meth:`SampleValues.to_json`),
            for paired comparisons; ``no_samples``: the metrics that have none, with why.
        details: the number of details entries, and ``examples`` each one's
            ``example_abbr`` (``None`` when no entry has one): what a paired
            comparison checks the two models' samples are the same by.
    """

    result_digest: str
    fingerprint: str | None
    options: StatsOptions
    values: dict[str, float]
    output: ResultStats
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)
    no_samples: dict[str, str] = field(default_factory=dict)
    details: int | None = None
    examples: list[Any] | None = None

    def output_for(self, have: Mapping[str, float], options: StatsOptions, *, columns: bool = False) -> ResultStats | None:
        """What :func:`assay.stats.result_stats` would compute of the values ``have`` with ``options``
        (and the browser's ``columns``), or ``None`` when these statistics cannot stand in for it.

        The intervals must have been computed with the same settings, for the
        same values; the sample browser's columns, when wanted, with the same text limit.
        """
        mine = self.options
        if options.keep_samples or (options.confidence, options.resamples, options.seed) != (
            mine.confidence, mine.resamples, mine.seed
        ):
            return None
        if columns and options.text_limit != mine.text_limit:
            return None
        if any(self.values.get(metric) != value for metric, value in have.items()):
            return None  # the summary shows a value the file did not hold
        done = self.output
        if any(metric not in done.cells for metric in have):
            return None
        out = ResultStats(
            cells={metric: done.cells[metric] for metric in have},
            columns=done.columns if columns else None,
        )
        if have and done.unscorable is not None:
            bounds = {metric: b for metric, b in done.unscorable.bounds.items() if metric in have}
            out.unscorable = dataclasses.replace(done.unscorable, bounds=bounds)
        return out

    def to_json(self) -> dict[str, Any]:
        """The JSON the statistics file holds."""
        out = self.output
        return {
            "format": STATS_FORMAT,
            "result_digest": self.result_digest,
            "fingerprint": self.fingerprint,
            "options": dataclasses.asdict(self.options),
            "values": self.values,
            "cells": {m: dataclasses.asdict(c) for m, c in out.cells.items()},
            "unscorable": None if out.unscorable is None else dataclasses.asdict(out.unscorable),
            # the columns field by field: dataclasses.asdict would copy every string of them
            "columns": None if out.columns is None else {f.name: getattr(out.columns, f.name) for f in dataclasses.fields(out.columns)},
            "samples": self.samples,
            "no_samples": self.no_samples,
            "details": self.details,
            "examples": self.examples,
        }

    @classmethod
    def from_bytes(cls, data: bytes) -> SavedStats | None:
        """:meth:`from_json` of a statistics file's bytes; ``None`` when unreadable."""
        from assay.fileio import loads_json

        try:
            return cls.from_json(loads_json(data))
        except ValueError:
            return None

    @classmethod
    def from_json(cls, data: Any) -> SavedStats | None:
        """The inverse of :meth:`to_json`; ``None`` for a file of another layout or version."""
        if not isinstance(data, dict) or data.get("format") != STATS_FORMAT:
            return None
        try:
            unscorable = data["unscorable"]
            if unscorable is not None:
                unscorable = Unscorable(**{**unscorable, "bounds": {m: tuple(b) for m, b in unscorable["bounds"].items()}})
            columns = data["columns"]
            output = ResultStats(
                cells={m: CellStat(**c) for m, c in data["cells"].items()},
                unscorable=unscorable,
                columns=None if columns is None else SampleColumns(**columns),
            )
            return cls(str(data["result_digest"]), data["fingerprint"], StatsOptions(**data["options"]),
                       {m: float(v) for m, v in data["values"].items()}, output, dict(data["samples"]),
                       dict(data["no_samples"]), data["details"], data["examples"])
        except (KeyError, TypeError, AttributeError, ValueError):
            return None


def save_stats(
    result_path: str | os.PathLike[str], result_digest: str, abbr: str, predictions: Callable[[], PredictionColumns],
    written: bytes | None = None,
) -> SavedStats | None:
    """Compute what the report pass will want of a result file just written and write it beside it.

    Computed with :data:`REPORT_OPTIONS` for every finite numeric metric of the
    file, read back as the pass would read it: from ``written``, the bytes
    written, when given, else from the file if it still has them;
    ``result_digest`` is the digest of those bytes, which the statistics are
    kept with (a reader whose file has other bytes computes them again);
    ``predictions`` returns the columns of the prediction file it was scored
    from.  ``None`` (and no file) when the result cannot be read.
    """
    from assay.fileio import atomic_write_bytes, loads_json
    from assay.rundir.results import META_KEY, content_digest, numeric_metrics, read_result

    path = os.path.abspath(result_path)
    target = stats_path_of(path)
    with suppress(OSError):
        target.unlink()
    try:
        if written is not None:
            result = loads_json(written)
        else:
            result = read_result(path)
            if content_digest(path) != result_digest:
                return None  # replaced meanwhile: the report pass reads whatever is there
        values = {} if "error" in result else {m: float(v) for m, v in numeric_metrics(result).items() if math.isfinite(v)}
        meta = result.get(META_KEY)
        fingerprint = meta.get("fingerprint") if isinstance(meta, dict) else None
        with bulk_allocations():
            output = result_stats(result, values, dataclasses.replace(REPORT_OPTIONS, keep_samples=True),
                                  columns=True, abbr=abbr, predictions=predictions)
        samples: dict[str, dict[str, Any]] = {}
        for metric, sv in output.samples.items():
            data_sv = sv.to_json()
            if data_sv is not None:
                samples[metric] = data_sv
        no_samples = {m: c.reason or "no per-sample values" for m, c in output.cells.items()
                      if m not in output.samples}
        details = result.get("details")
        count = len(details) if isinstance(details, list) else None
        examples = None
        if isinstance(details, list) and any(isinstance(d, dict) and "example_abbr" in d for d in details):
            examples = [d.get("example_abbr") if isinstance(d, dict) else None for d in details]
        output.samples = {}
        saved = SavedStats(result_digest, fingerprint, REPORT_OPTIONS, values, output, samples, no_samples, count, examples)
        data = stats_json_bytes(saved.to_json())
        atomic_write_bytes(target, data, durable=False)
    except Exception as exc:  # the report pass reads the file again and says what is wrong
        logger.debug("could not save the statistics of %s: %s", path, exc)
        return None
    return saved


def stats_json_bytes(data: dict[str, Any] | list[Any], non_finite: bool | None = None) -> bytes:
    """Statistics as compact JSON; NaN and infinities stay numbers (orjson alone would write ``null``).

    ``non_finite``: whether ``data`` holds any, when the caller knows already.

    >>> stats_json_bytes({'se': float('nan')}), stats_json_bytes({'se': 1.5})
    (b'{"se":NaN}', b'{"se":1.5}')
    """
    from assay.fileio import dumps_json, has_non_finite

    if non_finite is None:
        non_finite = has_non_finite({k: v for k, v in data.items() if k != "columns"} if isinstance(data, dict) else data)
    if non_finite:
        import json

        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return dumps_json(data, indent=False)


def load_stats(result_path: str | os.PathLike[str], digest: str | None = None) -> SavedStats | None:
    """The statistics saved beside a result file, when they were computed from its present content.

    ``None`` when there are none, they cannot be read, or the result file's
    bytes are not those they were computed from (checked by content digest;
    ``digest`` is the file's present digest when the caller knows it).
    """
    from assay.rundir.results import content_digest

    target = stats_path_of(result_path)
    try:
        data = target.read_bytes()
    except OSError:
        return None
    saved = SavedStats.from_bytes(data)
    if saved is None:
        logger.debug("ignoring unreadable statistics %s", target)
        return None
    if (digest if digest is not None else content_digest(result_path)) != saved.result_digest:
        logger.debug("statistics %s are stale: the result file changed", target)
        return None
    return saved


def load_stats_samples(
    result_path: str, digest: str | None = None
) -> tuple[dict[str, float], dict[str, Any], dict[str, str]] | None:
    """The per-sample values saved beside a result file, without the rest of its statistics:
    ``(values, samples, no_samples)`` as :class:`SavedStats` holds them.

    ``None`` under the conditions of :func:`load_stats` (no file, another layout, a result whose
    bytes are not those they were computed from).  Faster than it for many files: the path is a
    string, and the cells and the sample browser's columns are not built.
    """
    from assay.fileio import loads_json
    from assay.rundir.results import content_digest

    stem, _ = os.path.splitext(result_path)
    try:
        with open(stem + STATS_SUFFIX, "rb") as fh:
            data = loads_json(fh.read())
    except (OSError, ValueError):
        return None
    try:
        if data.get("format") != STATS_FORMAT:
            return None
        if (digest if digest is not None else content_digest(result_path)) != data["result_digest"]:
            return None
        values = {str(m): float(v) for m, v in data["values"].items()}
        return values, dict(data["samples"]), {str(m): str(r) for m, r in data["no_samples"].items()}
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def prediction_columns(run_dir: str | os.PathLike[str], model_dir: str, abbr: str) -> PredictionColumns:
    """The columns of a (model, dataset)'s prediction file; empty when there is none or it cannot be read."""
    folder = RunDir(Path(run_dir)).prediction_dir(model_dir)
    if not folder.is_dir():
        return PredictionColumns([], [])
    from assay.rundir.predictions import load_predictions

    try:
        columns = load_predictions(folder, abbr, keep=("gold",)).columns(only=("prediction", "gold"))
    except Exception as exc:  # no readable prediction file: raw predictions stay empty
        logger.debug("report: no predictions for %s/%s: %s", model_dir, abbr, exc)
        return PredictionColumns([], [])
    raw = columns.get("prediction") or []
    return PredictionColumns(raw, columns.get("gold") or [None] * len(raw))


def load_columns(result_path: str | os.PathLike[str], digest: str | None, text_limit: int) -> SampleColumns | None:
    """Only the sample browser's columns saved beside a result file (what the HTML report reads of the
    ``.stats`` file), when they were computed from its present content with this text limit; else ``None``.

    The statistics around them are not built into objects: the report reads
    tens of thousands of these files.  ``digest`` is the result file's present
    digest when the caller knows it, else it is computed from the file.
    """
    from assay.fileio import loads_json
    from assay.rundir.results import content_digest

    try:
        data = loads_json(stats_path_of(result_path).read_bytes())
    except (OSError, ValueError):
        return None
    try:
        if data.get("format") != STATS_FORMAT or data["options"]["text_limit"] != text_limit:
            return None
        columns = data["columns"]
        if columns is None:
            return None
        if (digest if digest is not None else content_digest(result_path)) != data["result_digest"]:
            return None
        return SampleColumns(**columns)
    except (AttributeError, KeyError, TypeError):
        return None
