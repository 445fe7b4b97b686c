"""S3Eval's evaluator as OpenCompass 0.5.4 computes it (``S3EvalEvaluator``)."""

from __future__ import annotations

import re
import string
from collections import Counter
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["S3EvalEvaluator", "s3eval_score"]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string.punctuation)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _normalize(text: str) -> str:
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _f1(shared: int, predicted: int, gold: int) -> float:
    precision = shared / predicted
    recall = shared / gold
    return 2 * (precision * recall) / (precision + recall)


def _table_rows(text: str) -> list[tuple[str, ...]]:
    """A Markdown table's body rows (from the third line on), each cell stripped; blank lines skipped."""
    return [tuple(cell.strip() for cell in line.split("|")[1:-1]) for line in text.split("\n")[2:] if line.strip()]


def _table_f1(pred: list[tuple[str, ...]], gold: list[tuple[str, ...]]) -> float:
    pred_counts, gold_counts = Counter(pred), Counter(gold)
    hits = sum(min(n, gold_counts[row]) for row, n in pred_counts.items())
    extra = sum(max(0, n - gold_counts[row]) for row, n in pred_counts.items())
    missed = sum(max(0, n - pred_counts[row]) for row, n in gold_counts.items())
    return 0 if hits == 0 else _f1(hits, hits + extra, hits + missed)


def _list_f1(prediction: str, reference: str) -> float:
    pred = {item.strip() for item in prediction.split(",")}
    gold = {item.strip() for item in reference.split(",")}
    hits = len(pred & gold)
    return 0 if hits == 0 else _f1(hits, hits + len(pred - gold), hits + len(gold - pred))


def _answer_f1(prediction: str, reference: str) -> float:
    if _is_number(prediction) and _is_number(reference):
        return 1 if float(prediction) == float(reference) else 0
    pred, gold = _normalize(prediction).split(), _normalize(reference).split()
    shared = sum((Counter(pred) & Counter(gold)).values())
    return 0 if shared == 0 else _f1(shared, len(pred), len(gold))


def s3eval_score(prediction: str, reference: str) -> float:
    """One answer's score in [0, 1], by the reference's form.

    A reference holding ``|`` is a Markdown table: F1 over the rows (as
    tuples of stripped cells, counted with multiplicity) of both tables'
    bodies.  Else one holding ``,`` is a list: F1 over the sets of stripped
    items.  Else two numbers score 1 when equal as floats, and other answers
    the token F1 of SQuAD's normalization (lower case, punctuation and
    articles removed).

    >>> s3eval_score('3.0', '3'), s3eval_score('b, a', 'a,b,c'), s3eval_score('The Cat sat', 'cat')
    (1, 0.8, 0.6666666666666666)
    """
    if "|" in reference:
        return _table_f1(_table_rows(prediction), _table_rows(reference))
    if "," in reference:
        return _list_f1(prediction, reference)
    return _answer_f1(prediction, reference)


@ICL_EVALUATORS.register_module()
class S3EvalEvaluator(BaseEvaluator):
    """S3Eval: the mean of :func:`s3eval_score` over the answers, × 100 (``score``).

    Details (assay's; OpenCompass gives none): ``pred``, ``answer``,
    ``score`` (the answer's score in [0, 1]).  The library's ``s3eval_gen``
    names no ``reader_cfg``, so no references reach the evaluator: the result
    is an error record saying so (OpenCompass stops earlier, building the
    dataset's reader).

    >>> S3EvalEvaluator().score(['3', 'no'], ['3.0', 'yes'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def score(self, predictions: list[Any], references: list[Any] | None) -> dict[str, Any]:
        if references is None:
            return {"error": "S3EvalEvaluator: no references: the dataset config names no reader_cfg output_column "
                             "(OpenCompass's s3eval_gen has no reader_cfg; its own eval task cannot build that dataset either)"}
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        scores: list[float] = []
        for pred, gold in zip(predictions, references):
            if not isinstance(pred, str) or not isinstance(gold, str):
                return {"error": f"S3EvalEvaluator: answers and references must be text, got {pred!r} and {gold!r}"}
            scores.append(s3eval_score(pred, gold))
        details = [{"pred": p, "answer": g, "score": v} for p, g, v in zip(predictions, references, scores)]
        return {"score": sum(scores) / len(scores) * 100, "details": details}
