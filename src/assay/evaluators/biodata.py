"""The biology-instruction tasks' evaluators (``biodata_task_gen``), as OpenCompass 0.5.4 computes them.

Every evaluator reads the reply after its last ``</think>`` (but for
``BiodataAccEvaluator``, which reads the whole reply) with one of three readers:

* :func:`read_boxed`: the last ``\\boxed{…}`` (one level of nested braces),
  stripped, ``\\text{…}`` unwrapped and every backslash escape dropped;
* :func:`read_number`: the last number in ``<NUMBER>…</NUMBER>`` or ``\\boxed{…}``;
* :func:`read_dict`: the last ``{…}`` without nested braces (none when it holds
  ``...``), read as JSON, else as a Python literal.

Replies must be text, and references of the types OpenCompass reads: where
OpenCompass fails on a value (a reply that is ``None`` or a number, a reference
in text for a correlation, …) assay raises an ``EvaluationError`` naming the
evaluator, the sample and the value.

The correlations are computed as SciPy 1.17 and scikit-learn compute them,
with NumPy (no SciPy, scikit-learn or PyTorch needed).  Their metrics are
corpus-level: the samples do not split into shards.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from assay.errors import ConfigError, EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.evaluators.choice import _trapezoid_roc_auc, matthews_corrcoef
from assay.registry import ICL_EVALUATORS

__all__ = [
    "BiodataAccEvaluator", "BiodataAucEvaluator", "BiodataECNumberEvaluator", "BiodataMCCEvaluator",
    "BiodataMixedScoreEvaluator", "BiodataPCCEvaluator", "BiodataR2Evaluator", "BiodataSpearmanEvaluator",
    "read_boxed", "read_dict", "read_number",
]

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|{[^{}]*})*)\}", re.DOTALL)
_TEXT = re.compile(r"\\text\{([^}]*)\}")
_ESCAPE = re.compile(r"\\(.)")
_NUMBER = re.compile(r"(?:<NUMBER>\s*|\\boxed\{)\s*(-?\d*\.?\d+)\s*(?:</NUMBER>|\})")
_DICT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_EC = re.compile(r"\d+\.\d+\.\d+\.\-?\d*")
_YES_NO = {"positive": "yes", "negative": "no"}


def _after_thinking(reply: Any) -> str:
    text = reply if isinstance(reply, str) else str(reply)
    return text.split("</think>")[-1]


def read_boxed(reply: Any) -> str | None:
    """The last ``\\boxed{…}`` of a reply, stripped, ``\\text{…}`` unwrapped, backslash escapes dropped; else ``None``.

    >>> read_boxed('\\\\boxed{no} then \\\\boxed{\\\\text{Yes}}'), read_boxed('EC \\\\boxed{EC3.5.4.\\\\-}'), read_boxed('yes')
    ('Yes', 'EC3.5.4.-', None)
    """
    found = _BOXED.findall(reply if isinstance(reply, str) else str(reply))
    if not found:
        return None
    return _ESCAPE.sub(r"\1", _TEXT.sub(r"\1", found[-1].strip()))


def read_number(reply: Any) -> float | None:
    """The last number written as ``<NUMBER>x</NUMBER>`` or ``\\boxed{x}`` (no exponent), else ``None``.

    >>> read_number('<NUMBER> -1.5 </NUMBER> or \\\\boxed{.25}'), read_number('\\\\boxed{1e3}')
    (0.25, None)
    """
    found = _NUMBER.findall(reply if isinstance(reply, str) else str(reply))
    return float(found[-1]) if found else None


def read_dict(reply: Any) -> Any:
    """The last ``{…}`` (no nested braces, no ``...``) read as JSON, else as a Python literal; ``None`` when unread.

    The value need not be a dict (``{1, 2}`` reads as a set), as OpenCompass reads it.

    >>> read_dict('first {"a": 1} then {\\'a\\': 2, \\'b\\': 3}'), read_dict('{"a": ...}'), read_dict('{a: 1}')
    ({'a': 2, 'b': 3}, None, None)
    """
    found = _DICT.findall(reply if isinstance(reply, str) else str(reply))
    if not found or "..." in found[-1]:
        return None
    try:
        return json.loads(found[-1])
    except Exception:
        pass
    try:
        return ast.literal_eval(found[-1])
    except Exception:  # anything literal_eval raises (syntax, recursion, values) leaves the reply unread
        return None


def _same_keys(pred: Any, ans: Any) -> bool:
    return bool(pred) and isinstance(pred, dict) and isinstance(ans, dict) and pred.keys() == ans.keys()


def _float_or(value: Any, default: float) -> float:
    try:
        return float(value)
    except Exception:  # OpenCompass's bare except: anything float() rejects
        return default


def _record_value(record: Any, key: Any, sample: int, evaluator: str) -> float:
    """A record reference's value for ``key`` as ``float()`` reads it (text such as ``' 2 '`` included, as in
    OpenCompass); what ``float()`` rejects (``None``, ``'abc'``, a list, an integer beyond float) is an error naming
    the sample, where OpenCompass fails."""
    try:
        return float(record[key])
    except (TypeError, ValueError, OverflowError):
        raise EvaluationError(f"{evaluator}: sample {sample}'s reference {record!r:.120} holds {record[key]!r:.80} "
                              f"under {key!r}, which is not a number") from None


def _reply(reply: Any, sample: int, evaluator: str) -> str:
    """A reply, which must be text (OpenCompass searches it with a regular expression and fails on anything else:
    ``None``, a number, a list)."""
    if not isinstance(reply, str):
        raise EvaluationError(f"{evaluator}: sample {sample}'s reply {reply!r:.80} is not text")
    return reply


def _text_reference(value: Any, sample: int, evaluator: str) -> str:
    """A reference that must be text (OpenCompass calls a string method on it and fails on anything else)."""
    if not isinstance(value, str):
        raise EvaluationError(f"{evaluator}: sample {sample}'s reference {value!r:.80} is not text")
    return value


def _correlation_references(references: Sequence[Any], evaluator: str) -> list[float]:
    """The references of a number task as OpenCompass's correlations read them: NumPy's array of the list,
    flattened, must hold numbers (booleans, integers, floats) and one per sample, so ``[[1.0], [2.0]]`` reads as
    ``[1.0, 2.0]``.

    Anything else fails in OpenCompass (text, even ``'2'``, in any sample; ``None``; a record; a list of several
    numbers; an integer beyond 64 bits): an error naming the first sample holding something other than a number.
    """
    import numpy as np

    try:
        values = np.array(references)
    except (TypeError, ValueError, OverflowError):
        values = None
    if values is not None and values.dtype.kind in "biuf" and values.size == len(references):
        return [float(v) for v in values.astype(np.float64).ravel()]
    plain = (bool, int, float, np.bool_, np.integer, np.floating)
    sample = next((i for i, value in enumerate(references)
                   if not isinstance(value, plain) or (isinstance(value, int) and not -2 ** 63 <= value < 2 ** 64)), 0)
    raise EvaluationError(f"{evaluator}: sample {sample}'s reference {references[sample]!r:.80} is not a number "
                          "(the references must all be numbers, or all lists of one number)")


_NUMERIC_TEXT = re.compile(r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)\s*",
                           re.IGNORECASE | re.ASCII)


def _coerced(value: Any, sample: int = 0, evaluator: str = "BiodataMixedScoreEvaluator") -> float:
    """``value`` as a number as ``pandas.to_numeric(errors='coerce')`` reads it: NaN for what is not a number (text
    other than an ASCII decimal, ``None``, a record).

    A list (or other sequence) and an integer beyond float are errors naming the
    sample: OpenCompass fails on them.

    Only ASCII digits and ASCII white space count, as pandas parses text.

    >>> _coerced('50'), _coerced(' 1e3 '), _coerced('abc'), _coerced(None), _coerced('1_000'), _coerced({'a': 1})
    (50.0, 1000.0, nan, nan, nan, nan)
    >>> _coerced('\\u0661\\u0662'), _coerced('\\xa05')
    (nan, nan)
    """
    if isinstance(value, str):
        return float(value) if _NUMERIC_TEXT.fullmatch(value) else math.nan
    if isinstance(value, bytes):
        return _coerced(value.decode("utf-8", "replace"))
    if (isinstance(value, (list, tuple, set, frozenset)) or hasattr(value, "__array__")) and getattr(value, "ndim", 1) != 0:
        raise EvaluationError(f"{evaluator}: sample {sample}'s reference {value!r:.80} is a sequence, not a number")
    try:
        return float(value)
    except OverflowError:
        raise EvaluationError(f"{evaluator}: sample {sample}'s reference {value!r:.80} is too large for a float") from None
    except (TypeError, ValueError):
        return math.nan


# -- the statistics, as SciPy 1.17 and scikit-learn compute them ---------------------------------------------------

def _pearson_r(x: Sequence[float], y: Sequence[float]) -> float:
    """``scipy.stats.pearsonr(x, y).statistic`` (NaN for a constant input or when the values overflow; ±1 for two
    points); ValueError under two."""
    import numpy as np

    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    if (a == a[0]).all() or (b == b[0]).all():
        return math.nan
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        am, bm = a - a.mean(), b - b.mean()
        amax, bmax = np.abs(am).max(), np.abs(bm).max()
        anorm = amax * np.sqrt(np.add.reduce((am / amax) * (am / amax)))
        bnorm = bmax * np.sqrt(np.add.reduce((bm / bmax) * (bm / bmax)))
        r = float(np.clip(np.dot(am / anorm, bm / bnorm), -1.0, 1.0))
    return float(np.round(r)) if a.size == 2 else r  # NumPy's rounding keeps a NaN (values overflowing the mean)


def _spearman_rho(x: Sequence[float], y: Sequence[float]) -> float:
    """``scipy.stats.spearmanr(x, y).statistic``: NaN for fewer than two points, a constant input or a NaN."""
    import numpy as np

    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size <= 1 or (a == a[0]).all() or (b == b[0]).all() or np.isnan(a).any() or np.isnan(b).any():
        return math.nan
    ranked = np.column_stack((_average_ranks(a), _average_ranks(b)))
    return float(np.corrcoef(ranked, rowvar=False)[1, 0])


def _average_ranks(values: Any) -> Any:
    """Ranks from 1, ties given their average rank (``scipy.stats.rankdata``'s default)."""
    import numpy as np

    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(values.size, dtype=np.float64)
    ordered = values[order]
    i = 0
    while i < values.size:
        j = i + 1
        while j < values.size and ordered[j] == ordered[i]:
            j += 1
        ranks[order[i:j]] = (i + 1 + j) / 2.0
        i = j
    return ranks


def _valid_and_infinite(y_true: Sequence[float], y_pred: Sequence[float]) -> tuple[Any, Any, int, int]:
    """The finite pairs (as two arrays), the count of infinite predictions, and of all pairs."""
    import numpy as np

    pred, true = np.asarray(y_pred, dtype=np.float64).ravel(), np.asarray(y_true, dtype=np.float64).ravel()
    infinite = np.isinf(pred)
    valid = ~infinite & np.isfinite(pred) & np.isfinite(true)
    return true[valid], pred[valid], int(infinite.sum()), pred.size


def _weighted_by_valid(score: float, valid: int, infinite: int, total: int) -> float:
    """A score over the finite pairs, scaled by their share where some prediction was infinite (its pairs score 0)."""
    return (score * valid + 0 * infinite) / total if infinite > 0 else score


def pearson_score(y_true: Sequence[float], y_pred: Sequence[float], evaluator: str = "BiodataPCCEvaluator") -> float:
    """Pearson's r over the pairs with a finite prediction and reference, scaled by their share when some prediction
    is infinite (unread); 0 with no such pair.  Fewer than two such pairs is an error, as in OpenCompass.

    >>> pearson_score([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 4.0, float('inf')])
    0.7364853795464741
    """
    true, pred, infinite, total = _valid_and_infinite(y_true, y_pred)
    if true.size == 0:
        return 0.0
    if true.size < 2:
        raise EvaluationError(f"{evaluator}: Pearson's r needs at least 2 answers read as numbers; got {true.size} "
                              f"of {total}")
    return _weighted_by_valid(_pearson_r(true, pred), true.size, infinite, total)


def spearman_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """Spearman's rho over the finite pairs, scaled by their share when some prediction is infinite (unread); 0 with
    no finite pair; NaN with one, or with a constant side.

    >>> spearman_score([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, float('inf')])
    0.375
    """
    true, pred, infinite, total = _valid_and_infinite(y_true, y_pred)
    if true.size == 0:
        return 0.0
    return _weighted_by_valid(_spearman_rho(true, pred), true.size, infinite, total)


def r_squared_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """The square of Pearson's r over the finite pairs, scaled by their share when some prediction is infinite; 0 with
    no finite pair; ``inf`` with one (OpenCompass's fallback when the correlation cannot be computed).

    >>> r_squared_score([1.0, 2.0], [3.0, float('inf')]), r_squared_score([1.0, 2.0, 3.0], [1.0, 3.0, 2.0])
    (inf, 0.2499999999999999)
    """
    true, pred, infinite, total = _valid_and_infinite(y_true, y_pred)
    if true.size == 0:
        return 0.0
    try:
        r2 = _pearson_r(true, pred) ** 2
    except ValueError:
        r2 = math.inf
    return _weighted_by_valid(r2, true.size, infinite, total)


def mixed_score(y_true: Sequence[float], y_pred: Sequence[float], low: float = 30.0, high: float = 1e3) -> float:
    """The siRNA efficiency score: ``(1 - MAE/100)/2 + (1 - range MAE/100) · F1/2`` over the pairs whose prediction is
    at most ``high`` in size, scaled by their share when some is not.

    F1 is of "below ``low``" on both sides, the range MAE over the predictions in
    ``[0, low]`` (100 when there is none), both MAEs capped at 100 (100 when
    there is no pair).

    >>> mixed_score([50.0, 20.0], [40.0, 35.0]), mixed_score([5.0], [2000.0])
    (0.4375, 0.0)
    """
    import numpy as np

    pred, true = np.asarray(y_pred, dtype=np.float64).ravel(), np.asarray(y_true, dtype=np.float64).ravel()
    too_large = np.abs(pred) > high
    valid = ~too_large & np.isfinite(pred) & np.isfinite(true)
    vpred, vtrue = pred[valid], true[valid]
    true_low, pred_low = vtrue < low, vpred < low
    hits = int((true_low & pred_low).sum())
    precision = hits / int(pred_low.sum()) if pred_low.any() else 0.0
    recall = hits / int(true_low.sum()) if true_low.any() else 0.0
    f1 = 2 * precision * recall / (precision + recall) if (precision + recall) != 0 else 0
    mae = float(np.mean(np.abs(vpred - vtrue))) if vpred.size else math.inf
    in_range = (vpred >= 0) & (vpred <= low)
    range_mae = float(np.mean(np.abs(vpred[in_range] - vtrue[in_range]))) if in_range.sum() > 0 else 100
    mae, range_mae = min(mae, 100), min(range_mae, 100)
    score = (1 - mae / 100) * 0.5 + (1 - range_mae / 100) * f1 * 0.5
    large = int(too_large.sum())
    return (score * int(valid.sum()) + 0 * large) / pred.size if large > 0 else score


def multiple_label_auc(y_true: Sequence[Sequence[int]], y_score: Sequence[Sequence[float]]) -> float:
    """The mean ROC AUC of the label columns with both classes (NaN when none has): scikit-learn's ``roc_auc_score``
    per column, averaged as ``numpy.nanmean``.

    >>> multiple_label_auc([[0, 1], [1, 1]], [[1, 1], [0, 1]]), multiple_label_auc([[0, 1]], [[0, 1]])
    (0.0, nan)
    """
    import numpy as np

    true, score = np.asarray(y_true), np.asarray(y_score)
    per_class = [math.nan if column.min() == column.max() else _trapezoid_roc_auc(column.tolist(), score[:, c].tolist())
                 for c, column in enumerate(true.T)]
    values = np.array(per_class, dtype=float)
    return float(np.nanmean(values)) if not np.isnan(values).all() else math.nan


# -- EC numbers: F1 at the best threshold, in single precision as OpenCompass's PyTorch code ------------------------

def f1_max(pred: Any, target: Any) -> float:
    """The best F1 over thresholds of multi-label scores (rows: samples, columns: labels), computed in float32 with
    cumulative sums taken in float64 and rounded to float32, as PyTorch does on the CPU.

    >>> f1_max([[1.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]])
    1.0
    """
    import numpy as np

    f32 = np.float32
    pred, target = np.asarray(pred, dtype=f32), np.asarray(target, dtype=f32)
    if pred.size == 0 or target.size == 0:
        return 0.0
    rows, cols = pred.shape

    def cumsum(values: Any, axis: int) -> Any:
        return np.cumsum(values.astype(np.float64), axis=axis).astype(f32)

    order = np.argsort(-pred, axis=1, kind="stable")
    target = np.take_along_axis(target, order, axis=1)
    precision = cumsum(target, 1) / cumsum(np.ones_like(target), 1)
    recall = cumsum(target, 1) / (target.sum(axis=1, keepdims=True, dtype=f32) + f32(1e-10))
    is_start = np.zeros(target.shape, dtype=bool)
    is_start[:, 0] = True
    scattered = np.zeros(target.shape, dtype=bool)
    np.put_along_axis(scattered, order, is_start, axis=1)
    all_order = np.argsort(-pred.ravel(), kind="stable")
    flat_order = (order + np.arange(rows)[:, None] * cols).ravel()
    inv_order = np.zeros_like(flat_order)
    inv_order[flat_order] = np.arange(flat_order.size)
    starts = scattered.ravel()[all_order]
    all_order = inv_order[all_order]
    precision, recall = precision.ravel(), recall.ravel()
    zero = np.zeros(1, dtype=f32)
    step_p = precision[all_order] - np.where(starts, zero, precision[all_order - 1])
    all_precision = cumsum(step_p, 0) / np.cumsum(starts).astype(f32)
    step_r = recall[all_order] - np.where(starts, zero, recall[all_order - 1])
    all_recall = cumsum(step_r, 0) / f32(rows)
    f1 = f32(2) * all_precision * all_recall / (all_precision + all_recall + f32(1e-10))
    if np.isnan(f1).any():
        return 0.0
    return float(f1.max())


def _ec_multihot(codes: Iterable[str], labels: dict[str, int]) -> list[float]:
    hot = [0.0] * len(labels)
    for code in codes:
        if code in labels:
            hot[labels[code]] = 1.0
    return hot


def ec_labels() -> list[str]:
    """The 538 EC numbers ``BiodataECNumberEvaluator`` scores (any other is ignored), in OpenCompass's order."""
    text = (Path(__file__).with_name("biodata_ec_labels.txt")).read_text(encoding="utf-8")
    return text.split()


def _label_index(labels: Sequence[str]) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, label in enumerate(labels):
        index.setdefault(label, i)
    return index


@ICL_EVALUATORS.register_module()
class BiodataECNumberEvaluator(BaseEvaluator):
    """Enzyme Commission numbers: ``score`` = 100 × the best F1 over thresholds (Fmax) of the EC numbers read from each
    reply's last ``\\boxed{…}`` against those in the reference, both as multi-hot rows over :func:`ec_labels`.

    Every pattern ``a.b.c.d`` (``d`` may be ``-``, or empty) is read, with or
    without the ``EC`` prefix; one not in the label list counts for nothing.
    The predictions are 0/1, so the threshold only separates predicted from not
    predicted.  Computed in float32, as OpenCompass computes it with PyTorch.
    Details: ``pred`` (the boxed text), ``answer``, ``score`` (the sample's own
    Fmax, 0–1).

    >>> BiodataECNumberEvaluator().score(['\\\\boxed{EC3.5.4.9, EC1.1.1.1}', 'none'], ['EC3.5.4.9', 'EC2.7.11.1'])['score']
    50.0
    """

    def __init__(self) -> None:
        super().__init__()
        self.ec_labels = ec_labels()
        self._index = _label_index(self.ec_labels)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        rows: list[list[float]] = []
        gold: list[list[float]] = []
        details = []
        for i, (pred, ans) in enumerate(zip(predictions, references)):
            boxed = read_boxed(_after_thinking(_reply(pred, i, "BiodataECNumberEvaluator")))
            row = _ec_multihot(_EC.findall(boxed) if boxed else [], self._index)
            truth = _ec_multihot(_EC.findall(_text_reference(ans, i, "BiodataECNumberEvaluator")), self._index)
            rows.append(row)
            gold.append(truth)
            details.append({"pred": boxed, "answer": ans, "score": f1_max([row], [truth])})
        return {"score": f1_max(rows, gold) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class BiodataAccEvaluator(BaseEvaluator):
    """Accuracy of the last ``\\boxed{…}`` answer: ``acc`` = the mean of 100 (the boxed text, lower-cased, equals the
    reference in any case) or 0.

    ``positive``/``negative`` read as ``yes``/``no`` on both sides (the
    reference only when written so in lower case).  The whole reply is read
    (``</think>`` is not looked for).  Details: ``pred``, ``answer``, ``acc``.

    >>> BiodataAccEvaluator().score(['\\\\boxed{Positive}', '\\\\boxed{tRNA}', 'tRNA'], ['yes', 'trna', 'tRNA'])['acc']
    66.66666666666667
    """

    sample_outcome = SampleOutcome(scores={"acc": "acc"})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        scores, details = [], []
        for i, (pred, ans) in enumerate(zip(predictions, references)):
            boxed = read_boxed(_reply(pred, i, "BiodataAccEvaluator"))
            if not boxed:
                details.append({"pred": boxed, "answer": ans, "acc": 0})
                scores.append(0)
                continue
            boxed = boxed.lower()
            ans = _YES_NO.get(ans, ans) if isinstance(ans, str) else _text_reference(ans, i, "BiodataAccEvaluator")
            boxed = _YES_NO.get(boxed, boxed)
            acc = 100 if boxed.lower() == str(ans).lower() else 0
            details.append({"pred": boxed, "answer": ans, "acc": acc})
            scores.append(acc)
        return {"acc": sum(scores) / len(scores), "details": details}


@ICL_EVALUATORS.register_module()
class BiodataMCCEvaluator(BaseEvaluator):
    """Matthews correlation of yes/no answers: ``mcc`` = 100 × MCC of the last ``\\boxed{…}`` answers
    (``yes``/``positive`` 1, ``no``/``negative`` 0, any case) against the references.

    A reply with no such answer counts as the opposite of its reference.  A
    reference other than those four words is an error naming it.  Details:
    ``pred``, ``answer``, ``score`` (1 when the sample's label is right).

    >>> BiodataMCCEvaluator().score(['\\\\boxed{yes}', '\\\\boxed{No}', 'yes', '\\\\boxed{no}'], ['positive', 'negative', 'yes', 'no'])['mcc']
    57.73502691896258
    """

    LABELS = {"positive": 1, "negative": 0, "yes": 1, "no": 0}

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        y_true, y_pred, details = [], [], []
        for i, (pred, ans) in enumerate(zip(predictions, references)):
            boxed = read_boxed(_after_thinking(_reply(pred, i, "BiodataMCCEvaluator")))
            truth = self.LABELS.get(_text_reference(ans, i, "BiodataMCCEvaluator").lower())
            if truth is None:
                raise EvaluationError(f"BiodataMCCEvaluator: the reference {ans!r} is not one of "
                                      f"{', '.join(self.LABELS)} (any case)")
            label = self.LABELS.get(boxed.lower()) if boxed else None
            label = 1 - truth if label is None else label
            y_true.append(truth)
            y_pred.append(label)
            details.append({"pred": boxed, "answer": ans, "score": 1 if label == truth else 0})
        return {"mcc": matthews_corrcoef(y_true, y_pred) * 100, "details": details}


def _read_dicts(predictions: list[Any], references: list[Any], evaluator: str,
                ) -> tuple[dict[Any, list[float]], dict[Any, list[float]], list[Any], list[dict[Any, float]]]:
    """Each reply's last dict (as read) and its values as numbers (``inf`` for one unread, or for every key when the
    keys differ from the reference's), with the values and the references' collected per key in the order the keys
    are first met."""
    y_true: dict[Any, list[float]] = {}
    y_pred: dict[Any, list[float]] = {}
    read: list[Any] = []
    numbers: list[dict[Any, float]] = []
    for i, (pred, ans) in enumerate(zip(predictions, references)):
        if not isinstance(ans, dict):
            raise EvaluationError(f"{evaluator}: sample {i}'s reference {ans!r:.80} is not a record of values by key")
        parsed = read_dict(_after_thinking(_reply(pred, i, evaluator)))
        values = ({key: math.inf for key in ans} if not _same_keys(parsed, ans)
                  else {key: _float_or(parsed[key], math.inf) for key in parsed})
        for key, value in values.items():
            y_true.setdefault(key, []).append(_record_value(ans, key, i, evaluator))
            y_pred.setdefault(key, []).append(value)
        read.append(parsed)
        numbers.append(values)
    if not y_true:  # OpenCompass stops with a ZeroDivisionError
        raise EvaluationError(f"{evaluator}: no reference holds a key to correlate (the first: {next(iter(references), None)!r:.80})")
    return y_true, y_pred, read, numbers


@ICL_EVALUATORS.register_module()
class BiodataPCCEvaluator(BaseEvaluator):
    """Pearson correlation of dict answers: ``pcc`` = 100 × the mean over the reference's keys of Pearson's r between
    the values each reply's last ``{…}`` gives for that key and the reference's (see :func:`pearson_score`).

    A reply without such a dict, or whose keys differ from the reference's,
    gives every key ``inf`` (counted as unread: the key's r is scaled by the
    share of read values).  Fewer than two read values for a key is an error,
    as in OpenCompass.  A reference's values are read by ``float()`` (``'2'``
    and ``True`` are numbers, as in OpenCompass); ``None``, ``'abc'`` or a list
    is an error naming the sample.  Details: ``pred`` (the dict read), ``answer``.

    >>> refs = [{'Dev': 1.0, 'Hk': 2.0}, {'Dev': 2.0, 'Hk': 1.0}, {'Dev': 3.0, 'Hk': 0.0}]
    >>> BiodataPCCEvaluator().score(['{"Dev": 1, "Hk": 2}', '{"Dev": 2.5, "Hk": 1}', "{'Dev': 3, 'Hk': 3}"], refs)['pcc']
    23.03844614152614
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        y_true, y_pred, read, _ = _read_dicts(predictions, references, "BiodataPCCEvaluator")
        scores = [pearson_score(y_true[key], y_pred[key]) for key in y_true]
        return {"pcc": sum(scores) / len(scores) * 100,
                "details": [{"pred": parsed, "answer": ans} for parsed, ans in zip(read, references)]}


def _numbers_read(predictions: list[Any], references: list[Any], evaluator: str) -> tuple[list[float], list[dict[str, Any]]]:
    """Each reply's last number after its thinking (``inf`` where none is read), and the details ``pred`` (the
    number read, or ``None``) and ``answer``, as the correlation evaluators read them."""
    numbers, details = [], []
    for i, (pred, ans) in enumerate(zip(predictions, references)):
        number = read_number(_after_thinking(_reply(pred, i, evaluator)))
        details.append({"pred": number, "answer": ans})
        numbers.append(math.inf if number is None else number)
    return numbers, details


@ICL_EVALUATORS.register_module()
class BiodataSpearmanEvaluator(BaseEvaluator):
    """Spearman correlation of numbers: ``spearman`` = 100 × :func:`spearman_score` of the last number in
    ``<NUMBER>…</NUMBER>`` or ``\\boxed{…}`` of each reply (``inf``, unread, when there is none) and the references.

    NaN when fewer than two are read, or either side is constant, as in
    OpenCompass.  The references must be numbers (booleans and integers
    included) or all lists of one number; text (even ``'2'``), ``None``, a
    record or a longer list, where OpenCompass fails, is an error naming the
    sample (see :func:`_correlation_references`).  Details: ``pred`` (the
    number read, or ``None``), ``answer``.

    >>> BiodataSpearmanEvaluator().score(['\\\\boxed{1}', '<NUMBER>3</NUMBER>', '\\\\boxed{2}', 'none'], [1.0, 2.0, 3.0, 4.0])['spearman']
    37.5
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        y_true = _correlation_references(references, "BiodataSpearmanEvaluator")
        y_pred, details = _numbers_read(predictions, references, "BiodataSpearmanEvaluator")
        return {"spearman": spearman_score(y_true, y_pred) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class BiodataMixedScoreEvaluator(BaseEvaluator):
    """The siRNA efficiency score: ``Mixed`` = 100 × :func:`mixed_score` of the last number in ``<NUMBER>…</NUMBER>``
    or ``\\boxed{…}`` of each reply (0 when there is none) against the references.

    A reference that is not a number (``'abc'``, ``None``, a record) is read as
    NaN, as OpenCompass's ``pandas.to_numeric(errors='coerce')`` reads it, and
    its sample is left out of the score's pairs (its own score is 0); text of a
    number (``' 50 '``) is that number.  A list, or an integer beyond float,
    where OpenCompass fails, is an error naming the sample.

    Details: ``pred`` (the number read, or ``None``), ``answer``, ``score`` (the
    sample's own mixed score × 100).

    >>> BiodataMixedScoreEvaluator().score(['\\\\boxed{40}', '<NUMBER>35</NUMBER>'], [50.0, 20.0])['Mixed']
    43.75
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        y_true, y_pred, details = [], [], []
        for i, (pred, ans) in enumerate(zip(predictions, references)):
            number = read_number(_after_thinking(_reply(pred, i, "BiodataMixedScoreEvaluator")))
            truth = _coerced(ans, i)
            value = 0.0 if number is None else number
            y_true.append(truth)
            y_pred.append(value)
            details.append({"pred": number, "answer": ans, "score": mixed_score([truth], [value]) * 100})
        return {"Mixed": mixed_score(y_true, y_pred) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class BiodataR2Evaluator(BaseEvaluator):
    """The squared Pearson correlation: ``r^2`` = 100 × :func:`r_squared_score`, of numbers or of dict answers.

    When the first reference is a dict, each reply's last ``{…}`` is read as in
    :class:`BiodataPCCEvaluator` and the score is the mean over the keys;
    otherwise the references must be numbers (the first a float, as OpenCompass
    asserts; none text or ``None``, see :func:`_correlation_references`) and
    each reply's last number in ``<NUMBER>…</NUMBER>`` or
    ``\\boxed{…}`` is read (``inf``, unread, when there is none).  ``inf`` when
    a key has one read value, NaN when a side is constant.  Details: ``pred``
    (the number or dict read, a dict's values as numbers), ``answer``.

    >>> BiodataR2Evaluator().score(['\\\\boxed{1}', '\\\\boxed{3}', '\\\\boxed{2}'], [1.0, 2.0, 3.0])['r^2']
    24.99999999999999
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if isinstance(references[0], dict):
            y_true, y_pred, _, records = _read_dicts(predictions, references, "BiodataR2Evaluator")
            scores = [r_squared_score(y_true[key], y_pred[key]) for key in y_true]
            return {"r^2": sum(scores) / len(scores) * 100,
                    "details": [{"pred": values, "answer": ans} for values, ans in zip(records, references)]}
        if not isinstance(references[0], float):
            raise EvaluationError(f"BiodataR2Evaluator: sample 0's reference {references[0]!r:.80} is neither a record of "
                                  "values by key nor a float")
        truths = _correlation_references(references, "BiodataR2Evaluator")
        numbers, details = _numbers_read(predictions, references, "BiodataR2Evaluator")
        return {"r^2": r_squared_score(truths, numbers) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class BiodataAucEvaluator(BaseEvaluator):
    """Multi-label ROC AUC: ``auc`` = 100 × the mean over ``predefined_labels`` (those present and absent in some
    reference) of the ROC AUC of the labels named in each reply's last ``\\boxed{…}`` (comma-separated, any case).

    As in OpenCompass each label is encoded 0 when named and 1 when not, on
    both sides, so a reply naming nothing, or with no boxed answer, counts as
    naming every label.  A sample's own ``auc`` detail is NaN (one sample has
    one class per label).  Details: ``pred`` (the boxed text), ``answer``, ``auc``.
    OpenCompass averages the labels' AUCs in the order of a set (its hash
    order, which changes from run to run), so its own value moves in the last
    bits; assay averages them in the order listed.

    >>> BiodataAucEvaluator(predefined_labels=['m6a', 'psi']).score(['\\\\boxed{m6A}', '\\\\boxed{psi}'], ['m6A', 'm6A, Psi'])['auc']
    100.0
    """

    def __init__(self, predefined_labels: Sequence[str] | None = None) -> None:
        super().__init__()
        if not predefined_labels:
            raise ConfigError("BiodataAucEvaluator: predefined_labels must list the labels to score "
                              f"(got {predefined_labels!r})")
        self.predefined_labels = list(dict.fromkeys(predefined_labels))

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        y_true, y_pred, details = [], [], []
        for i, (pred, ans) in enumerate(zip(predictions, references)):
            boxed = read_boxed(_after_thinking(_reply(pred, i, "BiodataAucEvaluator")))
            if not boxed:
                row = [0] * len(self.predefined_labels)
            else:
                named = {p.lower().strip() for p in boxed.split(",") if p.strip()}
                row = [0 if label in named else 1 for label in self.predefined_labels]
            gold = {a.lower().strip() for a in _text_reference(ans, i, "BiodataAucEvaluator").split(",") if a.strip()}
            truth = [0 if label in gold else 1 for label in self.predefined_labels]
            y_true.append(truth)
            y_pred.append(row)
            details.append({"pred": boxed, "answer": ans, "auc": multiple_label_auc([truth], [row]) * 100})
        return {"auc": multiple_label_auc(y_true, y_pred) * 100, "details": details}
