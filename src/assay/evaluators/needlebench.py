"""NeedleBench's evaluators, as OpenCompass 0.5.4 computes them.

OpenCompass has two versions of the benchmark, with evaluators of the same
names in two packages; assay gives each version its own classes:

* ``opencompass.datasets.needlebench.*`` (v1): :class:`NeedleBenchOriginEvaluator`
  (an edit-distance score, 100 when the needle's keyword is in the reply),
  :class:`NeedleBenchParallelEvaluator` (per depth, the share of replies
  naming that depth's keyword), :class:`NeedleBenchMultiEvaluator` (the share
  of the answer's words found in the reply);
* ``opencompass.datasets.needlebench_v2.*`` (v2):
  :class:`NeedleBenchV2OriginEvaluator` (100 when the keyword is in the reply,
  else 0), the same parallel evaluator, and :class:`NeedleBenchATCEvaluator`
  (the extracted name equals the answer).

Every one of them reads, besides the replies, the prediction records' ``gold``
field (OpenCompass's ``score(predictions, gold)``), never the test set: a
NeedleBench run is scored from its prediction files alone.  References are
strings in the loaders' encodings: ``'<needle>*<keyword>'`` (origin, v1
ATC), ``'<answer>*<keyword>'`` (multi), ``'<kw1>*<kw2>…#<depth1>*<depth2>…'``
(parallel), the bare name (v2 ATC).  A reference not in its encoding is an
error naming the sample and the value (OpenCompass stops with an
``IndexError``/``ValueError``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.registry import ICL_EVALUATORS

__all__ = [
    "NeedleBenchATCEvaluator",
    "NeedleBenchMultiEvaluator",
    "NeedleBenchOriginEvaluator",
    "NeedleBenchParallelEvaluator",
    "NeedleBenchV2OriginEvaluator",
]

_WHITESPACE = re.compile(r"\s+")


def _input_error(evaluator: object, predictions: Sequence[Any], gold: Sequence[Any]) -> dict[str, Any] | None:
    """OpenCompass's one check (its own message), then every reply and reference must be a string.

    No sample at all is an error (OpenCompass would score 0), as for every evaluator of assay's.
    """
    if len(predictions) != len(gold):
        return {"error": "predictions and gold have different lengths"}
    if not predictions:
        return {"error": f"{type(evaluator).__name__}: no samples to score"}
    for what, values in (("prediction", predictions), ("gold", gold)):
        for i, value in enumerate(values):
            if not isinstance(value, str):
                return {"error": f"{type(evaluator).__name__}: {what} {i} is {value!r}; expected a string"}
    return None


def _bad_reference(evaluator: object, i: int, value: str, form: str) -> dict[str, Any]:
    return {"error": f"{type(evaluator).__name__}: gold {i} is {value[:120]!r}; expected {form}"}


def _levenshtein(a: str, b: str) -> int:
    from rapidfuzz.distance import Levenshtein

    return int(Levenshtein.distance(a, b))


def _trim(prediction: str, reference: str) -> str:
    """OpenCompass's ``_trim_prediction``: the reply cut near the reference's length.

    The first ``1.2 × len(reference)`` characters are kept; when more than
    ``0.8 × len(reference)`` remain and the reference's last character occurs
    after that point, the reply ends at its first such occurrence.
    """
    short = int(0.8 * len(reference))
    long = int(1.2 * len(reference))
    kept = prediction[:long]
    if len(kept) > short and reference and reference[-1] in kept[short:]:
        kept = kept[: short + kept[short:].index(reference[-1]) + 1]
    return kept


def _mean(total: float, n: int) -> float:
    return total / n


@ICL_EVALUATORS.register_module()
class NeedleBenchOriginEvaluator(BaseEvaluator):
    """NeedleBench v1's single-needle score (``opencompass.datasets.needlebench.origin``).

    ``gold`` is ``'<needle>*<keyword>'``.  A reply containing the keyword (as
    written, whitespace included) scores 100; any other scores a fifth of
    ``100 × (1 − d / max(len))``, ``d`` being the Levenshtein distance between
    the reply and the needle with all whitespace removed (100 when both are
    empty).  ``use_trim`` first cuts the reply near the needle's length.
    Metric: ``score``, the mean.  Details: ``pred`` and ``answer`` (both
    without whitespace), ``edit_distance``, ``score``.

    OpenCompass's behaviour kept: the keyword is the text between the first
    and second ``*`` (a needle containing ``*`` shifts it); an empty keyword
    is in every reply.

    >>> e = NeedleBenchOriginEvaluator()
    >>> e.score(['It is Paris.', 'The city is Pari'], ['\\nThe city is Paris.\\n*Paris'] * 2)['score']
    58.66666666666667
    """

    sample_outcome = SampleOutcome(scores=MappingProxyType({"score": "score"}))

    def __init__(self, use_trim: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.use_trim = use_trim

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        error = _input_error(self, predictions, gold)
        if error:
            return error
        total = 0.0
        details = []
        for i, (raw, reference) in enumerate(zip(predictions, gold)):
            parts = reference.split("*")
            if len(parts) < 2:
                return _bad_reference(self, i, reference, "'<needle>*<keyword>'")
            keyword = parts[1]
            pred = _WHITESPACE.sub("", raw)
            answer = _WHITESPACE.sub("", parts[0])
            if self.use_trim:
                pred = _trim(pred, answer)
            distance = _levenshtein(pred, answer)
            longest = max(len(pred), len(answer))
            similarity = 100 * (1 - distance / longest) if longest != 0 else 100
            value = 100 if keyword in raw else 0.2 * similarity
            details.append({"pred": pred, "answer": answer, "edit_distance": distance, "score": value})
            total += value
        return {"score": total / len(predictions) if predictions else 0, "details": details}


@ICL_EVALUATORS.register_module()
class NeedleBenchV2OriginEvaluator(BaseEvaluator):
    """NeedleBench v2's single-needle score (``opencompass.datasets.needlebench_v2.origin``'s ``NeedleBenchOriginEvaluator``).

    ``gold`` is ``'<needle>*<keyword>'``; a reply containing the keyword (as
    written) scores 100, any other 0.  Metric: ``score``, the mean.  Details:
    ``pred`` and ``answer`` (both without whitespace), ``score``.

    >>> NeedleBenchV2OriginEvaluator().score(['Paris', 'Rome'], ['x*Paris', 'x*Paris'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(scores=MappingProxyType({"score": "score"}))

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        error = _input_error(self, predictions, gold)
        if error:
            return error
        total = 0
        details = []
        for i, (raw, reference) in enumerate(zip(predictions, gold)):
            parts = reference.split("*")
            if len(parts) < 2:
                return _bad_reference(self, i, reference, "'<needle>*<keyword>'")
            value = 100 if parts[1] in raw else 0
            details.append({"pred": _WHITESPACE.sub("", raw), "answer": _WHITESPACE.sub("", parts[0]), "score": value})
            total += value
        return {"score": total / len(predictions) if predictions else 0, "details": details}


@ICL_EVALUATORS.register_module()
class NeedleBenchParallelEvaluator(BaseEvaluator):
    """NeedleBench's several-needles-at-once score (v1 and v2 compute the same).

    ``gold`` is ``'<kw1>*<kw2>…#<depth1>*<depth2>…'``: the depths are read
    from the *first* sample's reference only and paired, in order, with each
    sample's keywords.  Each reply containing a depth's keyword adds
    ``100 / n`` to that depth (``n`` replies).  Metrics: ``Depth<d>`` per
    depth, in the order of the first reference, and ``average_score``, their
    mean.

    OpenCompass's behaviour kept: a depth listed twice is one metric (its two
    keywords both add to it) and counts once in the mean; keywords beyond the
    first reference's depths are ignored.  OpenCompass writes no details;
    assay's (its addition): ``pred``, ``answer``, ``matched`` (how many of the
    sample's paired keywords its reply contains).

    >>> r = NeedleBenchParallelEvaluator().score(['Paris and 7', 'Rome'], ['Paris*7#10*50', 'Rome*8#10*50'])
    >>> r['Depth10'], r['Depth50'], r['average_score']
    (100.0, 50.0, 75.0)
    """

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        error = _input_error(self, predictions, gold)
        if error:
            return error
        if not gold:
            return {"error": f"{type(self).__name__}: no samples to score"}
        first = gold[0]
        try:
            depths = [int(d) for d in first.split("#")[1].split("*")]
        except (IndexError, ValueError):
            return _bad_reference(self, 0, first, "'<keyword>*…#<depth>*…' with integer depths")
        by_depth: dict[int, float] = {depth: 0 for depth in depths}
        details = []
        for prediction, reference in zip(predictions, gold):
            keywords = reference.split("#")[0].split("*")
            matched = 0
            for keyword, depth in zip(keywords, depths):
                if keyword in prediction:
                    by_depth[depth] += 100 / len(predictions)
                    matched += 1
            details.append({"pred": prediction, "answer": reference, "matched": matched})
        average = sum(by_depth.values()) / len(by_depth)
        return {**{f"Depth{depth}": value for depth, value in by_depth.items()}, "details": details, "average_score": average}


@ICL_EVALUATORS.register_module()
class NeedleBenchMultiEvaluator(BaseEvaluator):
    """NeedleBench v1's multi-needle reasoning score (``opencompass.datasets.needlebench.multi``).

    ``gold`` is ``'<answer>*<keyword>'`` (exactly one ``*``); the keyword is
    lower-cased and split on whitespace, and a reply scores
    ``100 / (number of words)`` for each word its lower-cased text contains
    (0 when the keyword has no words).  Metric: ``score``, the mean.  Details:
    ``pred`` (lower-cased), ``answer``, ``matched_keywords``, ``score``.

    >>> NeedleBenchMultiEvaluator().score(['It was Jack Smith'], ['Jack Smith*Jack Smith'])['score']
    100.0
    >>> NeedleBenchMultiEvaluator().score(['jack'], ['Jack Smith*Jack Smith'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(scores=MappingProxyType({"score": "score"}))

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        error = _input_error(self, predictions, gold)
        if error:
            return error
        total = 0.0
        details = []
        for i, (prediction, reference) in enumerate(zip(predictions, gold)):
            parts = reference.split("*")
            if len(parts) != 2:
                return _bad_reference(self, i, reference, "'<answer>*<keyword>' (one '*')")
            words = parts[1].lower().split()
            pred = prediction.lower()
            each = 100 / len(words) if words else 0
            matched = sum(1 for word in words if word in pred)
            value = matched * each
            details.append({"pred": pred, "answer": reference, "matched_keywords": matched, "score": value})
            total += value
        return {"score": total / len(predictions) if predictions else 0, "details": details}


@ICL_EVALUATORS.register_module(["needlebench_atc_evaluator", "NeedleBenchATCEvaluator"])
class NeedleBenchATCEvaluator(BaseEvaluator):
    """NeedleBench v2's Ancestral Trace Challenge score (registered as ``needlebench_atc_evaluator``).

    A reply (after ``needlebench_atc_postprocess_v2``) is correct when it
    equals its ``gold`` name, both stripped.  Metric: ``score``, the share
    correct × 100.  Details: ``pred``, ``answer``, ``correct``.

    >>> NeedleBenchATCEvaluator().score(['Jack Smith ', 'None'], ['Jack Smith', 'Ann Lee'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        error = _input_error(self, predictions, gold)
        if error:
            return error
        correct = 0
        details = []
        for prediction, reference in zip(predictions, gold):
            hit = prediction.strip() == reference.strip()
            correct += hit
            details.append({"pred": prediction, "answer": reference, "correct": hit})
        return {"score": (correct / len(predictions)) * 100 if predictions else 0, "details": details}
