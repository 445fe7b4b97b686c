"""SeedBench's evaluators as OpenCompass 0.5.4 computes them.

* ``F1ScoreEvaluator``: multiple-select answers, ``F1Score`` in [0, 100];
* ``AverageRougeScoreEvaluator``: fill-in-the-blank answers, ``AvgRougeScore``
  in [0, 100] (ROUGE-L as the ``rouge_chinese`` package computes it, on jieba's words);
* ``AccScoreStr_Evaluator``: ``ACCStrScore`` in [0, 100], the reference found in the reply.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["AccScoreStr_Evaluator", "AverageRougeScoreEvaluator", "F1ScoreEvaluator", "rouge_chinese_l"]

_NOT_CHOICE = re.compile(r"[^A-Da-d,]+")
_ANSWER_LABEL = re.compile(r"(正确答案[:：]|correct answer[:：])", re.IGNORECASE)
#: where the rouge_chinese package ends a sentence: after 。！？? (not before a closing quote), six dots,
#: two ellipses, or a closing quote after 。！？? (not before more punctuation)
_SENTENCE_ENDS = (
    (re.compile(r"([。！？?])([^”’])"), r"\1\n\2"),
    (re.compile(r"(\.{6})([^”’])"), r"\1\n\2"),
    (re.compile(r"(…{2})([^”’])"), r"\1\n\2"),
    (re.compile(r"([。！？?][”’])([^，。！？?])"), r"\1\n\2"),
)
_EMPTY = "无内容"


def _choices(text: str) -> set[str]:
    return {part.strip() for part in _NOT_CHOICE.sub("", text.lower()).split(",")}


@ICL_EVALUATORS.register_module()
class F1ScoreEvaluator(BaseEvaluator):
    """Micro F1 (metric ``F1Score``, in [0, 100]) of the chosen letters over all samples.

    Each side is lower-cased, stripped of everything but ``a``–``d`` and commas
    and split at the commas into a set — an empty reply is the set of ``''``,
    which counts as one wrong choice, as in OpenCompass 0.5.4.  Details:
    ``pred`` and ``answer`` (the cleaned texts), ``correct`` (the sample's
    own F1 × 100).

    >>> round(F1ScoreEvaluator().score(['A, B', 'C'], ['A, C', 'C'])['F1Score'], 2)
    66.67
    """

    # F1Score is a micro F1 over all samples, not a mean of the samples' own F1: no per-sample field backs it

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        tp = fp = fn = 0
        details = []
        for hyp, ref in zip(predictions, references):
            hyp_text, ref_text = _NOT_CHOICE.sub("", hyp.lower()), _NOT_CHOICE.sub("", ref.lower())
            hyps, refs = _choices(hyp), _choices(ref)
            s_tp, s_fp, s_fn = len(hyps & refs), len(hyps - refs), len(refs - hyps)
            tp, fp, fn = tp + s_tp, fp + s_fp, fn + s_fn
            details.append({"pred": hyp_text, "answer": ref_text, "correct": _f1(s_tp, s_fp, s_fn) * 100})
        return {"F1Score": _f1(tp, fp, fn) * 100, "details": details}


def _f1(tp: int, fp: int, fn: int) -> float:
    precision = tp / (tp + fp) if tp + fp > 0 else 0
    recall = tp / (tp + fn) if tp + fn > 0 else 0
    return (2 * precision * recall) / (precision + recall) if precision + recall > 0 else 0


def _sentences(text: str) -> list[str]:
    for pattern, repl in _SENTENCE_ENDS:
        text = pattern.sub(repl, text)
    return [" ".join(s.split()) for s in text.rstrip().split("\n") if len(s) > 0]


def _lcs_length(x: list[str], y: list[str]) -> int:
    previous = [0] * (len(y) + 1)
    for a in x:
        current = [0]
        for j, b in enumerate(y, 1):
            current.append(previous[j - 1] + 1 if a == b else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def rouge_chinese_l(hypothesis: str, reference: str) -> float:
    """ROUGE-L F of two texts of space-separated words, as the ``rouge_chinese`` package (1.0.3) computes it.

    Each text is cut into sentences (after ``。！？?`` and a closing quote,
    six dots or two ellipses), each sentence's spaces normalized; the words are
    all the sentences' words split at single spaces (an emptied sentence counts
    one empty word), and the score is the longest common subsequence of the two
    word lists: ``2·P·R / (P + R + 1e-8)``.

    Raises:
        ValueError: a text with no sentence, as there.

    >>> round(rouge_chinese_l('今天 天气 很 好', '今天 天气 不错'), 6)
    0.571429
    """
    hyp, ref = _sentences(hypothesis), _sentences(reference)
    if not hyp or not ref:
        raise ValueError("Hypothesis is empty." if not hyp else "Reference is empty.")
    hyp_words = [w for s in hyp for w in s.split(" ")]
    ref_words = [w for s in ref for w in s.split(" ")]
    lcs = _lcs_length(ref_words, hyp_words)
    recall, precision = lcs / len(ref_words), lcs / len(hyp_words)
    return 2.0 * ((precision * recall) / (precision + recall + 1e-8))


@ICL_EVALUATORS.register_module()
class AverageRougeScoreEvaluator(BaseEvaluator):
    """Mean ROUGE-L (metric ``AvgRougeScore``, in [0, 100]) of fill-in-the-blank replies, blank by blank.

    ``正确答案:``/``correct answer:`` (either colon, any case) is removed from
    the reply, which is stripped.  The reference's ``，`` become ``,``, and it is
    split at the commas into blanks; with one blank the whole reply answers it,
    with more the reply is split at ``,`` (not ``，``), padded with ``无内容`` or
    cut to the number of blanks.  Each (answer, blank) pair is segmented by
    jieba (an empty answer reads ``无内容``) and scored with
    :func:`rouge_chinese_l`; a sample's score is its blanks' mean × 100.
    Details: ``pred`` and ``answer`` (the lists of blanks), ``correct`` (the
    sample's score).  A blank that is empty (a reference ending with a comma)
    makes OpenCompass 0.5.4's evaluation fail; here the result is an error
    record naming the sample.

    The reply's own ``，`` does not separate blanks, so this one answers the first blank with both:

    >>> round(AverageRougeScoreEvaluator().score(['正确答案：氮肥，磷肥'], ['氮肥，磷肥'])['AvgRougeScore'], 6)
    25.0
    >>> round(AverageRougeScoreEvaluator().score(['correct answer: 氮肥, 磷肥'], ['氮肥，磷肥'])['AvgRougeScore'], 6)
    100.0
    """

    sample_outcome = SampleOutcome(scores={"AvgRougeScore": "correct"})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        from assay.evaluators._longtext import jieba_words

        scores: list[float] = []
        details = []
        for i, (prediction, reference) in enumerate(zip(predictions, references)):
            hyp = _ANSWER_LABEL.sub("", prediction).strip()
            blanks = [r.strip() for r in reference.replace("，", ",").split(",")]
            if len(blanks) == 1:
                answers = [hyp]
            else:
                answers = [h.strip() for h in hyp.split(",")]
                answers = answers[: len(blanks)] + [_EMPTY] * (len(blanks) - len(answers))
            pairs = []
            for answer, blank in zip(answers, blanks):
                words = " ".join(jieba_words(answer))
                pairs.append((words if words.strip() != "" else _EMPTY, " ".join(jieba_words(blank))))
            try:
                values = [rouge_chinese_l(h, r) for h, r in pairs]
            except ValueError as exc:
                return {"error": f"{type(self).__name__}: sample {i} cannot be scored ({exc}): reference {reference!r} "
                                 "(OpenCompass 0.5.4 fails on it too)"}
            sample = sum(values) / len(values) * 100
            scores.append(sample)
            details.append({"pred": answers, "answer": blanks, "correct": sample})
        return {"AvgRougeScore": sum(scores) / len(scores), "details": details}


@ICL_EVALUATORS.register_module()
class AccScoreStr_Evaluator(BaseEvaluator):
    """Accuracy (metric ``ACCStrScore``, in [0, 100]): the stripped, lower-cased reference occurs in the
    stripped, lower-cased reply.  Details: ``pred``, ``answer``, ``correct`` (1 or 0).

    >>> AccScoreStr_Evaluator().score(['The answer is Nitrogen.', 'no'], ['nitrogen', 'yes'])['ACCStrScore']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")
    sample_decomposable = True
    sample_sums = MappingProxyType({"ACCStrScore": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for hyp, ref in zip(predictions, references):
            details.append({"pred": hyp, "answer": ref, "correct": 1 if ref.strip().lower() in hyp.strip().lower() else 0})
        return {"ACCStrScore": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}
