"""Unscorable outcomes of one cell: predictions that could not be extracted, judged or executed.

Counts come from the result file: ``extraction.unextracted`` (every
evaluator), ``judge_failed_count`` (LLM judges: requests that never got a
reply; a reply without a verdict is *not attempted*, counted as not correct as
OpenCompass counts it) and the code evaluator's ``outcomes``; per-sample
flags come from the details.  Which detail marks a
sample unscorable is what the evaluator declares in its
:class:`~assay.evaluate.SampleOutcome` (``unscorable``, recorded in the
result's ``_meta.outcome``).  For a result that declares none the usual
fields are read: ``pred``/``prediction``/``completion`` left empty,
``judge_failed`` set, an ``outcome`` of ``timeout``, ``memory``, ``killed``
or ``sandbox-error``.  A program that ran and failed its tests is *wrong*,
not unscorable.

Bounds: for a metric backed by per-sample correctness (see
:mod:`assay.stats`), the value the metric would take if every unscorable
prediction had been wrong (``low``) or right (``high``).  They need the
per-sample flags; without them no bounds are given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods, FrozenMethods
from assay.evaluate.base import SANDBOX_UNSCORABLE, SampleOutcome, is_unextracted
from assay.stats._columns import EXTRACTED_FIELDS
from assay.stats._details import Details
from assay.stats._samples import CORRECTNESS_KEYS, base_metric, correctness_of, outcome_of

__all__ = ["NOT_EXECUTED", "Unscorable", "unscorable_in", "unscorable_of"]

#: Code-execution outcomes that give no verdict on the program.
NOT_EXECUTED: frozenset[str] = frozenset(SANDBOX_UNSCORABLE)


@dataclass(repr=False, eq=False)
class _Reader(FrozenMethods):
    """One details field that marks samples unscorable: a flag (``values`` ``None``: true = not
    judged) or a status whose listed values map to what they count as."""

    field: str
    values: Mapping[str, str] | None = None

    def kinds(self) -> set[str]:
        return {"judge_failed"} if self.values is None else set(self.values.values())


#: The fields read for a result whose evaluator declares no unscorable field.
_USUAL: tuple[_Reader, ...] = (_Reader("judge_failed"), _Reader("outcome", SANDBOX_UNSCORABLE))


def _readers(outcome: SampleOutcome | None) -> tuple[_Reader, ...]:
    """The fields that mark samples unscorable: the declared one, else the usual ones."""
    if outcome is None or outcome.unscorable is None:
        return _USUAL
    return (_Reader(outcome.unscorable, dict(outcome.unscorable_values) or None),)


@dataclass(repr=False, eq=False)
class Unscorable(DataclassMethods):
    """Unscorable predictions of one (model, dataset).

    Attributes:
        total: predictions scored (samples × runs).
        unextracted: predictions postprocessing left empty, or those the
            evaluator's declared field says it found no answer in (``None``: unknown).
        judge_failed: predictions the judge (or a verifier) gave no verdict on (an LLM judge: its
            request never got a reply).
        not_executed: programs without a verdict (timeout, memory, killed, sandbox error).
        outcomes: the code evaluator's outcome counts, when there are any.
        bounds: metric → ``(low, high)``: the metric if every unscorable
            prediction had been wrong / right.

    >>> Unscorable(total=10, unextracted=2).describe()
    '2 of 10 not extracted'
    """

    total: int | None = None
    unextracted: int | None = None
    judge_failed: int | None = None
    not_executed: int | None = None
    outcomes: dict[str, int] | None = None
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        """Unscorable predictions of every kind."""
        return sum(v or 0 for v in (self.unextracted, self.judge_failed, self.not_executed))

    def describe(self) -> str:
        """A short human description (empty when nothing is known)."""
        of = f" of {self.total}" if self.total is not None else ""
        parts = []
        if self.unextracted is not None:
            parts.append(f"{self.unextracted}{of} not extracted")
        if self.judge_failed is not None:
            parts.append(f"{self.judge_failed}{of} not judged")
        if self.not_executed is not None:
            parts.append(f"{self.not_executed} not executed")
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (unknown counts left out)."""
        out: dict[str, Any] = {}
        for key in ("total", "unextracted", "judge_failed", "not_executed", "outcomes"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        if self.bounds:
            out["bounds"] = {m: [lo, hi] for m, (lo, hi) in self.bounds.items()}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Unscorable:
        """The inverse of :meth:`to_json`.

        >>> u = Unscorable(total=10, unextracted=2, bounds={'accuracy': (40.0, 60.0)})
        >>> Unscorable.from_json(u.to_json()) == u
        True
        """
        bounds = data.get("bounds") or {}
        return cls(data.get("total"), data.get("unextracted"), data.get("judge_failed"), data.get("not_executed"),
                   data.get("outcomes"), {m: (b[0], b[1]) for m, b in bounds.items()})


def _runs(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(value)


def _outcome_counts(result: dict[str, Any]) -> dict[str, int] | None:
    raw = result.get("outcomes")
    items = raw if isinstance(raw, list) else [raw]
    total: dict[str, int] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        for k, v in item.items():
            n = _int(v)
            if n is not None:
                total[str(k)] = total.get(str(k), 0) + n
    return total or None


def unscorable_of(
    result: dict[str, Any], backed: Sequence[tuple[str, float]] = (), *, correct: Any = None
) -> Unscorable:
    """The unscorable counts of one result (with its details) and the bounds of the ``backed`` metrics.

    ``backed`` lists ``(metric, value)`` of metrics equal to ``100 × mean(correct)``;
    ``correct`` is the details' :func:`correctness_matrix` (or
    :func:`~assay.stats._samples.correctness_of`) when the caller already has it.

    >>> r = {'accuracy': 50.0, 'extraction': {'unextracted': 1, 'total': 4},
    ...      'details': [{'pred': [''], 'correct': [False]}, {'pred': ['A'], 'correct': [True]},
    ...                  {'pred': ['B'], 'correct': [True]}, {'pred': ['C'], 'correct': [False]}]}
    >>> u = unscorable_of(r, [('accuracy', 50.0)])
    >>> u.unextracted, u.bounds['accuracy']
    (1, (50.0, 75.0))
    """
    details = result.get("details")
    if isinstance(details, dict):
        details = list(details.values())
    if not isinstance(details, list):
        details = []
    return unscorable_in(result, Details(details), backed, correct=correct)


def unscorable_in(
    result: dict[str, Any], view: Details, backed: Sequence[tuple[str, float]] = (), *, correct: Any = None
) -> Unscorable:
    """:func:`unscorable_of` with the result's details (a list) already wrapped in a :class:`Details`."""
    details = view.items
    out = Unscorable()
    extraction = result.get("extraction")
    if isinstance(extraction, dict):
        out.unextracted = _int(extraction.get("unextracted"))
        out.total = _int(extraction.get("total"))

    outcome = outcome_of(result)
    readers = _readers(outcome)
    verdict = outcome.correct if outcome is not None else None
    flags: _Flags | _UniformFlags = _UniformFlags.of(view, readers) or _Flags(details, readers, verdict)
    if out.total is None and details:
        out.total = flags.total
    if flags.declares_extraction or (out.unextracted is None and details and flags.has_prediction):  # the evaluator's own field says which answers it could not extract
        out.unextracted = flags.unextracted
    ext_usable = out.unextracted is None or out.unextracted == flags.unextracted

    if flags.judge_failed is not None:
        out.judge_failed = flags.judge_failed
    else:
        key = next((k for k in result if base_metric(k) == "judge_failed_count"), None)
        n = _int(result.get(key)) if key else None
        if key is not None and n is not None:
            meta = result.get("_meta")
            n_runs = meta.get("n") if isinstance(meta, dict) else None
            runs = n_runs if isinstance(n_runs, int) else 1
            out.judge_failed = n * runs if key != "judge_failed_count" else n
    outcomes = _outcome_counts(result)
    if outcomes is not None:
        out.outcomes = outcomes
    if flags.not_executed is not None:
        out.not_executed = flags.not_executed
    elif outcomes is not None:
        out.not_executed = sum(v for k, v in outcomes.items() if k in NOT_EXECUTED)

    if correct is None and details and backed and ext_usable:
        correct = correctness_of(view, verdict)
    if correct is None or not backed or not ext_usable:
        return out
    bounds = flags.bounds(correct)
    if bounds is not None:
        for metric, _ in backed:
            out.bounds[metric] = bounds
    return out


class _Flags:
    """Per (sample, run) unscorable flags of any details, entry by entry.

    ``readers``: the fields that mark samples unscorable; ``verdict``: the
    declared verdict field, whose run count counts too.
    """

    def __init__(self, details: list[Any], readers: Sequence[_Reader] = _USUAL, verdict: str | None = None) -> None:
        dicts = [d if isinstance(d, dict) else {} for d in details]
        run_keys = (*CORRECTNESS_KEYS, *EXTRACTED_FIELDS) + ((verdict,) if verdict and verdict not in CORRECTNESS_KEYS else ())
        runs_per = [max((len(_runs(d[k])) for k in run_keys if k in d), default=1) for d in dicts]
        present = [r for r in readers if any(r.field in d for d in dicts)]
        judge_seen = any("judge_failed" in r.kinds() for r in present)
        exec_seen = any("not_executed" in r.kinds() for r in present)
        #: the declared field says which answers could not be extracted (empty predictions are not looked at)
        self.declares_extraction = any("unextracted" in r.kinds() for r in present)
        # per (sample, run): unscorable flags (extraction, judge) and the share of candidates not executed
        flags_ext: list[list[bool]] = []
        flags_judge: list[list[bool]] = []
        shares_exec: list[list[float]] = []
        exec_count = 0
        for d, runs in zip(dicts, runs_per):
            if self.declares_extraction:
                ext = [False] * runs
            else:
                pfield = next((k for k in EXTRACTED_FIELDS if k in d), None)
                preds = _runs(d[pfield]) if pfield else []
                ext = [bool(pfield) and r < len(preds) and is_unextracted(preds[r]) for r in range(runs)]
            judge = [False] * runs
            shares = [0.0] * runs
            for reader in present:
                values = _runs(d[reader.field]) if reader.field in d else []
                for r in range(min(runs, len(values))):
                    value = values[r]
                    if reader.values is None:
                        judge[r] = judge[r] or bool(value)
                        continue
                    cands = value if isinstance(value, (list, tuple)) else [value]
                    kinds = [reader.values.get(c) if isinstance(c, str) else None for c in cands]
                    ext[r] = ext[r] or "unextracted" in kinds
                    judge[r] = judge[r] or "judge_failed" in kinds
                    bad = kinds.count("not_executed")
                    exec_count += bad
                    shares[r] += bad / len(cands) if cands else 0.0
            flags_ext.append(ext)
            flags_judge.append(judge if judge_seen else [])
            shares_exec.append(shares if exec_seen else [])
        self.flags_ext = flags_ext
        self.flags_judge = flags_judge
        self.shares_exec = shares_exec
        self.total = sum(runs_per)
        self.has_prediction = self.declares_extraction or any(any(k in d for k in EXTRACTED_FIELDS) for d in dicts)
        self.unextracted = sum(sum(f) for f in flags_ext)
        self.judge_failed: int | None = sum(sum(f) for f in flags_judge) if judge_seen else None
        self.not_executed: int | None = exec_count if exec_seen else None

    def bounds(self, correct: Any) -> tuple[float, float] | None:
        """The backed metrics' value if every unscorable prediction were wrong / right."""
        rows = correct.tolist() if hasattr(correct, "tolist") else correct
        flags_ext, flags_judge, shares_exec = self.flags_ext, self.flags_judge, self.shares_exec
        lows: list[float] = []
        highs: list[float] = []
        for i, row in enumerate(rows):
            for r, c in enumerate(row):
                value = 0.0 if c is None else c
                ext = r < len(flags_ext[i]) and flags_ext[i][r]
                judge = r < len(flags_judge[i]) and flags_judge[i][r]
                share = shares_exec[i][r] if r < len(shares_exec[i]) else 0.0
                if ext or judge:
                    lows.append(0.0)
                    highs.append(1.0)
                else:
                    lows.append(value)
                    highs.append(min(1.0, value + share))
        if not lows:
            return None
        return 100.0 * math.fsum(lows) / len(lows), 100.0 * math.fsum(highs) / len(highs)


class _UniformFlags:
    """The same flags for uniform details, column by column.

    Applies when every entry is a dict, none has a field that marks samples
    unscorable (``judge_failed``, ``outcome`` or the declared one), and at
    most one correctness key and one prediction field occur, each in every
    entry with the same number of runs.
    """

    def __init__(
        self, view: Details, runs: int, predictions: tuple[list[Any], int] | None, readers: Sequence[_Reader] = _USUAL
    ) -> None:
        self.view = view
        self.readers = tuple(readers)
        self.total = view.n * runs
        self.has_prediction = predictions is not None
        self.judge_failed: int | None = None
        self.not_executed: int | None = None
        self.declares_extraction = False
        self.flags: list[bool] = []
        self.pred_runs = 0
        if predictions is not None:
            values, self.pred_runs = predictions
            self.flags = list(map(is_unextracted, values))
        self.unextracted = sum(self.flags)

    @classmethod
    def of(cls, view: Details, readers: Sequence[_Reader] = _USUAL) -> _UniformFlags | None:
        """The flags of ``view``, or ``None`` when its layout is not uniform or a field of ``readers`` occurs."""
        if not view.n or not view.all_dicts or any(r.field in view.keys for r in readers):
            return None
        counts: list[int] = []
        predictions = None
        for names in (CORRECTNESS_KEYS, EXTRACTED_FIELDS):
            present = view.present(names)
            if not present:
                continue
            flat = view.runs(present[0]) if len(present) == 1 else None
            if flat is None:
                return None
            counts.append(flat[1])
            if names is EXTRACTED_FIELDS:
                predictions = flat
        return cls(view, max(counts, default=1), predictions, readers)

    def bounds(self, correct: Any) -> tuple[float, float] | None:
        """As :meth:`_Flags.bounds`."""
        import numpy as np

        if not isinstance(correct, np.ndarray):
            return _Flags(self.view.items, self.readers).bounds(correct)
        n, runs = correct.shape
        flagged = np.zeros((n, runs), dtype=bool)
        if self.flags:
            width = min(runs, self.pred_runs)
            flagged[:, :width] = np.array(self.flags, dtype=bool).reshape(n, self.pred_runs)[:, :width]
        lows = np.where(flagged, 0.0, correct)
        highs = np.where(flagged, 1.0, correct)
        size = lows.size
        # every value is 0 or 1 (see correctness_of), so these sums are exact, as math.fsum's are
        return 100.0 * float(lows.sum()) / size, 100.0 * float(highs.sum()) / size

