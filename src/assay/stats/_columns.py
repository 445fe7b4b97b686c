"""What a sample browser shows of one (model, dataset): per sample, its id, reference, raw and extracted answer, correctness.

Texts come from the result's details and, where the details lack them, from
the prediction file's columns the caller gives (the raw reply ``prediction``
and the reference ``gold``, :class:`PredictionColumns`; read by
:func:`assay.rundir.sidecar.prediction_columns`); each is cut to a length limit.  The columns of the models of one
dataset are joined by the HTML report (:mod:`assay.report`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assay._dataclass import DataclassMethods
from assay.stats._details import Details

__all__ = ["SAMPLE_TEXT", "PredictionColumns", "SampleColumns", "sample_columns"]

#: Longest raw prediction, extracted answer or reference kept per sample (characters).
SAMPLE_TEXT = 600
REFERENCE_FIELDS = ("answer", "reference", "refr", "gold", "references")
EXTRACTED_FIELDS = ("pred", "prediction", "completion")
#: Details imported from another tool (:mod:`assay.rundir.sources`) keep the tool's extracted answers under
#: this key, and the raw reply under ``prediction``.
IMPORTED_EXTRACTED = "extracted"


@dataclass(repr=False, eq=False)
class SampleColumns(DataclassMethods):
    """One (model, dataset)'s columns of the sample browser, one entry per sample.

    Attributes:
        ids: ``example_abbr`` of each sample (``<abbr>_<i>`` without one).
        ref: the reference text (``""`` when unknown).
        raw: the raw prediction (``origin_prediction`` or the prediction file's ``prediction``).
        ext: the extracted answer (``pred``, ``prediction`` or ``completion``).
        ok: the share of runs judged correct, ``None`` without a verdict.
    """

    ids: list[str]
    ref: list[str]
    raw: list[str]
    ext: list[str]
    ok: list[float | None]

    @property
    def n(self) -> int:
        return len(self.ids)


def text(value: Any, limit: int) -> str:
    """A value as the browser shows it: a one-element list unwrapped, non-strings as JSON, cut to ``limit``.

    >>> text(['B'], 10), text({'k': 1}, 10), text('x' * 12, 10)
    ('B', '{"k": 1}', 'xxxxxxxxxx… [2 more characters]')
    """
    if value is None:
        return ""
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return value if len(value) <= limit else value[:limit] + f"… [{len(value) - limit} more characters]"


def first_run(value: Any) -> Any:
    """The first run of a per-run list, any other value as it is."""
    return value[0] if isinstance(value, list) and value else value


def _texts(values: list[Any], limit: int) -> list[str]:
    """``text`` of each value."""
    if set(map(type, values)) == {str} and max(map(len, values)) <= limit:
        return values
    return [v if type(v) is str and len(v) <= limit else text(v, limit) for v in values]


def _first_texts(view: Details, key: str, limit: int) -> list[str]:
    """``text(first_run(v))`` of each value of the column ``key`` (which every entry has)."""
    flat = view.runs(key)
    if flat is not None:  # the same runs in every sample: the first of each
        values, runs = flat
        return _texts(values[::runs] if runs > 1 else values, limit)
    values = view.column(key) or []
    return [v if type(v) is str and len(v) <= limit else text(first_run(v), limit) for v in values]


@dataclass(repr=False, eq=False)
class PredictionColumns(DataclassMethods):
    """What the browser shows of a prediction file: each record's raw ``prediction`` and ``gold`` (``None`` where absent)."""

    prediction: list[Any]
    gold: list[Any]


def sample_columns(
    details: list[Any] | Details,
    abbr: str,
    limit: int,
    predictions: Callable[[], PredictionColumns],
    correct: Any,
) -> SampleColumns:
    """The browser's columns of one (model, dataset).

    Args:
        details: the result's details (a non-empty list).
        abbr: the dataset abbr (for ids of samples without ``example_abbr``).
        limit: longest text kept.
        predictions: returns the prediction file's columns; called at most
            once, and only when a text is not in the details.
        correct: the details' correctness (:func:`~assay.stats._samples.correctness_of`).
    """
    view = details if isinstance(details, Details) else Details(details)
    items, n = view.items, view.n
    dicts: list[dict[str, Any]] | None = None
    loaded: list[PredictionColumns] = []

    def preds() -> PredictionColumns:
        if not loaded:
            loaded.append(predictions())
        return loaded[0]

    def entries() -> list[dict[str, Any]]:
        nonlocal dicts
        if dicts is None:
            dicts = [d if isinstance(d, dict) else {} for d in items]
        return dicts

    column = view.column("example_abbr")
    if column is not None:
        ids = column if view.types("example_abbr") == {str} else [v if type(v) is str else str(v) for v in column]
    else:
        ids = [str(d.get("example_abbr", f"{abbr}_{i}")) for i, d in enumerate(entries())]

    present = view.present(REFERENCE_FIELDS)
    if len(present) == 1 and view.column(present[0]) is not None and type(None) not in view.types(present[0]):
        ref = _first_texts(view, present[0], limit)
    elif view.all_dicts and not present:
        golds = preds().gold
        ref = _texts(golds[:n], limit) + [""] * (n - len(golds))
    else:
        ref = []
        for i, d in enumerate(entries()):
            key = next((k for k in REFERENCE_FIELDS if d.get(k) is not None), None)
            if key:
                ref.append(text(first_run(d[key]), limit))
            else:
                golds = preds().gold
                ref.append(text(golds[i] if i < len(golds) else None, limit))

    imported = IMPORTED_EXTRACTED in view.keys and "prediction" in view.keys
    if imported:  # another tool's samples: the reply and the tool's extracted answers
        raw = [text(d.get("prediction"), limit) for d in entries()]
        ext = [text(d.get(IMPORTED_EXTRACTED), limit) for d in entries()]
        return SampleColumns(ids, ref, raw, ext, _shares(correct, n))
    if view.column("origin_prediction") is not None:
        raw = _first_texts(view, "origin_prediction", limit)
    elif view.all_dicts and "origin_prediction" not in view.keys:
        raws = preds().prediction
        raw = _texts(raws[:n], limit) + [""] * (n - len(raws))
    else:
        raw = []
        for i, d in enumerate(entries()):
            if "origin_prediction" in d:
                raw.append(text(first_run(d["origin_prediction"]), limit))
            else:
                raws = preds().prediction
                raw.append(text(raws[i] if i < len(raws) else None, limit))

    present = view.present(EXTRACTED_FIELDS)
    if len(present) == 1 and view.column(present[0]) is not None:
        ext = _first_texts(view, present[0], limit)
    elif view.all_dicts and not present:
        ext = [""] * n
    else:
        ext = []
        for d in entries():
            key = next((k for k in EXTRACTED_FIELDS if k in d), None)
            ext.append(text(first_run(d[key]) if key else None, limit))

    return SampleColumns(ids, ref, raw, ext, _shares(correct, n))


def _shares(correct: Any, n: int) -> list[float | None]:
    """Per sample, the share of runs judged correct (no verdict counts as wrong); ``None`` without runs."""
    if correct is None:
        return [None] * n
    if hasattr(correct, "shape"):  # an array of 0/1 (see correctness_of): sums are exact
        runs = correct.shape[1]
        if runs == 1:
            return correct[:, 0].tolist()
        return [round(s / runs, 6) for s in correct.sum(axis=1).tolist()]
    out: list[float | None] = []
    for row in correct:
        if row:
            values = [0.0 if v is None else v for v in row]
            out.append(round(sum(values) / len(values), 6))
        else:
            out.append(None)
    return out
