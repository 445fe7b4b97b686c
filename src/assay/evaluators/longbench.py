"""LongBench's and LongBench v2's evaluators as OpenCompass 0.5.4 computes them.

Every metric is ``score`` (``accuracy`` and its breakdowns for v2), the sum of per-sample values
divided by the number of samples, × 100, summed in sample order as OpenCompass sums them.  Details
hold each sample's ``pred``, ``answer`` and value, never the prompt.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.evaluators._longtext import fuzz_ratio, normalize_answer, rouge_l_f, token_f1, zh_tokens
from assay.registry import ICL_EVALUATORS

__all__ = [
    "LongBenchClassificationEvaluator",
    "LongBenchCodeSimEvaluator",
    "LongBenchCountEvaluator",
    "LongBenchF1Evaluator",
    "LongBenchRetrievalEvaluator",
    "LongBenchRougeEvaluator",
    "LongBenchv2Evaluator",
]


def _language(value: str, evaluator: str) -> str:
    if value not in ("en", "zh"):
        raise ValueError(f"{evaluator}: language must be 'en' or 'zh', got {value!r}")
    return value


def _total(evaluator: BaseEvaluator, predictions: list[Any], references: list[Any], per_sample: Any) -> dict[str, Any]:
    """OpenCompass's accumulation: each sample's value added in order, the sum / n × 100."""
    error = check_batch(evaluator, predictions, references)
    if error:
        return error
    total = 0.0
    details = []
    for prediction, reference in zip(predictions, references):
        value = per_sample(prediction, reference)
        total += value
        details.append({"pred": prediction, "answer": reference, "score": value})
    return {"score": total / len(predictions) * 100, "details": details}


class _PerSample(BaseEvaluator):
    sample_outcome = SampleOutcome(scores={"score": "score"})
    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("score", share_percent)})

    def sample_score(self, prediction: Any, references: Any) -> float:
        raise NotImplementedError

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return _total(self, predictions, references, self.sample_score)


class _PerReference(_PerSample):
    # each reference adds to OpenCompass's running sum on its own: shards would sum in another order
    sample_decomposable = False
    sample_sums = MappingProxyType({})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        total = 0.0
        details = []
        for prediction, reference in zip(predictions, references):
            value = 0.0
            for part in self.reference_parts(prediction, reference):
                total += part
                value += part
            details.append({"pred": prediction, "answer": reference, "score": value})
        return {"score": total / len(predictions) * 100, "details": details}

    def reference_parts(self, prediction: Any, references: Any) -> list[float]:
        raise NotImplementedError


@ICL_EVALUATORS.register_module()
class LongBenchF1Evaluator(_PerSample):
    """Token F1 against the best of a sample's answers (metric ``score``, 0–100).

    English: answers and reply through ``normalize_answer`` (lower-cased, punctuation and articles
    removed), split at whitespace.  Chinese (``language='zh'``): jieba's words, each lower-cased with
    ASCII and Chinese punctuation and whitespace removed, the empty ones dropped.

    >>> LongBenchF1Evaluator().score(['The Eiffel tower', 'no'], [['Eiffel Tower'], ['yes']])['score']
    50.0
    """

    def __init__(self, language: str = "en", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.language = _language(language, "LongBenchF1Evaluator")

    def sample_score(self, prediction: Any, references: Any) -> float:
        best = 0.0
        for reference in references:
            if self.language == "en":
                pred_tokens, ref_tokens = normalize_answer(prediction).split(), normalize_answer(reference).split()
            else:
                pred_tokens, ref_tokens = zh_tokens(prediction), zh_tokens(reference)
            best = max(best, token_f1(pred_tokens, ref_tokens))
        return best


@ICL_EVALUATORS.register_module()
class LongBenchCountEvaluator(_PerReference):
    """Passage count: per answer, the share of the reply's numbers (runs of digits) equal to it.

    A reply without digits scores 0; every answer of a sample adds its share (so a sample with two
    answers can add up to 2, as in OpenCompass).

    >>> LongBenchCountEvaluator().score(['There are 3 passages', '3 or 4'], [[3], [3]])['score']
    75.0
    """

    def reference_parts(self, prediction: Any, references: Any) -> list[float]:
        numbers = re.findall(r"\d+", prediction)
        parts = []
        for reference in references:
            right = sum(1 for number in numbers if str(number) == str(reference))
            parts.append(0.0 if len(numbers) == 0 else float(right / len(numbers)))
        return parts


@ICL_EVALUATORS.register_module()
class LongBenchRetrievalEvaluator(_PerReference):
    """Passage retrieval: the answer's paragraph number (``Paragraph N``; ``段落N`` for
    ``language='zh'``), and the share of the reply's numbers equal to it.

    An answer without that pattern raises ``IndexError``, as in OpenCompass.

    >>> LongBenchRetrievalEvaluator().score(['Paragraph 2', 'Paragraph 1 or 2'], [['Paragraph 2'], ['Paragraph 2']])['score']
    75.0
    """

    def __init__(self, language: str = "en", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.language = _language(language, "LongBenchRetrievalEvaluator")

    def reference_parts(self, prediction: Any, references: Any) -> list[float]:
        pattern = r"Paragraph (\d+)" if self.language == "en" else r"段落(\d+)"
        parts = []
        for reference in references:
            reference_id = re.findall(pattern, reference)[0]
            numbers = re.findall(r"\d+", prediction)
            right = sum(1 for number in numbers if str(number) == str(reference_id))
            parts.append(0.0 if len(numbers) == 0 else float(right / len(numbers)))
        return parts


@ICL_EVALUATORS.register_module()
class LongBenchRougeEvaluator(_PerSample):
    """ROUGE-L F of the ``rouge`` package (distinct words, sentences split at ``.``) against the best
    answer; a pair the package cannot score (an empty side, a sentence too long for its recursive
    walk) scores 0.

    Chinese (``language='zh'``): reply and answer are jieba's words joined by spaces — and, as in
    OpenCompass, the reply segmented for one answer is what is segmented again for the next.

    >>> round(LongBenchRougeEvaluator().score(['the cat sat'], [['the cat sat']])['score'], 4)
    100.0
    """

    def __init__(self, language: str = "en", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.language = _language(language, "LongBenchRougeEvaluator")

    def sample_score(self, prediction: Any, references: Any) -> float:
        from assay.evaluators._longtext import jieba_words

        best = 0.0
        for reference in references:
            if self.language == "zh":
                prediction = " ".join(jieba_words(prediction))
                reference = " ".join(jieba_words(reference))
            value = rouge_l_f(prediction, reference)
            best = max(best, 0.0 if value is None else value)
        return best


@ICL_EVALUATORS.register_module()
class LongBenchCodeSimEvaluator(_PerSample):
    """Code similarity: the reply's first line (after leading newlines) without a backtick, ``#`` or
    ``//`` (``''`` if none), against each answer by ``fuzzywuzzy``'s ratio (an integer 0–100,
    computed with rapidfuzz), the best / 100.

    >>> LongBenchCodeSimEvaluator().score(['```\\nx = 1'], [['x = 1']])['score']
    100.0
    """

    def sample_score(self, prediction: Any, references: Any) -> float:
        best = 0.0
        for reference in references:
            lines = prediction.lstrip("\n").split("\n")
            prediction = ""
            for line in lines:
                if "`" not in line and "#" not in line and "//" not in line:
                    prediction = line
                    break
            best = max(best, fuzz_ratio(prediction, reference) / 100)
        return best


@ICL_EVALUATORS.register_module()
class LongBenchClassificationEvaluator(_PerReference):
    """Few-shot classification (TREC, LSHT): references are ``{'answers': [...], 'all_classes': [...]}``.

    For each answer, the classes named in the reply are collected; those that are part of the answer
    (but not it) are dropped — removing while iterating, so a class right after a dropped one is
    kept; the sample adds ``1 / len(matches)`` when the answer is among them.  OpenCompass's fallback
    to the most similar class never runs (its test compares the list with ``0``), so a reply naming
    no class adds 0.

    >>> refs = [{'answers': ['Dog'], 'all_classes': ['Dog', 'Cat']}] * 2
    >>> LongBenchClassificationEvaluator().score(['Dog', 'Dog or Cat'], refs)['score']
    75.0
    """

    def reference_parts(self, prediction: Any, references: Any) -> list[float]:
        parts = []
        for reference in references["answers"]:
            matches = [name for name in references["all_classes"] if name in prediction]
            matches = _drop_parts_of(matches, reference)
            if reference in matches:
                parts.append(1.0 / len(matches))
            else:
                parts.append(0.0)
        return parts


def _drop_parts_of(matches: list[str], reference: str) -> list[str]:
    """OpenCompass's loop ``for m in matches: if m in reference and m != reference: matches.remove(m)``,
    with its skipping of the element after each removal and ``remove`` taking the first equal item."""
    out = list(matches)
    i = 0
    while i < len(out):
        term = out[i]
        if term in reference and term != reference:
            out.remove(term)
        i += 1
    return out


@ICL_EVALUATORS.register_module()
class LongBenchv2Evaluator(BaseEvaluator):
    """LongBench v2 multiple choice: ``accuracy`` (exact equality of the extracted letter with the
    answer), and ``accuracy_easy``/``accuracy_hard``, ``accuracy_short``/``accuracy_medium``/``accuracy_long``
    over the samples of each ``difficulty`` and ``length`` of the test set (a breakdown without samples
    is left out).  Reads the test set's ``difficulty`` and ``length``; no samples is an error record,
    and an empty test set beside predictions raises ``ValueError``, as in OpenCompass.
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if not test_set:
            raise ValueError("LongBenchv2Evaluator: the test set is empty")
        total = [0, 0]
        groups: dict[str, list[int]] = {g: [0, 0] for g in ("easy", "hard", "short", "medium", "long")}
        details = []
        for pred, ref, sample in zip(predictions, references, test_set):
            correct = pred == ref
            total[0] += correct
            total[1] += 1
            for key in ("difficulty", "length"):
                value = sample.get(key, "unknown") if hasattr(sample, "get") else "unknown"
                if (key == "difficulty" and value in ("easy", "hard")) or (key == "length" and value in ("short", "medium", "long")):
                    groups[value][0] += correct
                    groups[value][1] += 1
            details.append({"pred": pred, "answer": ref, "correct": correct})
        results: dict[str, Any] = {"accuracy": total[0] / total[1] * 100}
        for name in ("easy", "hard", "short", "medium", "long"):
            right, count = groups[name]
            if count > 0:
                results[f"accuracy_{name}"] = right / count * 100
        results["details"] = details
        return results
