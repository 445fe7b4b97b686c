"""LV-Eval's evaluators as OpenCompass 0.5.4 computes them.

Each scores a sample against its **first** reference only (OpenCompass's loops stop after one), the
metric being the per-sample values summed in order / n × 100: ``f1`` (``LVEvalF1Evaluator``),
``LVEval_f1`` (``LVEvalOPTF1Evaluator``), ``LVEval_rouge`` (``LVEvalOPTRougeEvaluator``).  Details
hold each sample's ``pred``, ``answer`` and value, never the prompt.
"""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.evaluators._longtext import (
    jieba_words,
    normalize_answer,
    normalize_zh_answer,
    rouge_l_f,
    token_f1,
    zh_tokens,
)
from assay.registry import ICL_EVALUATORS

__all__ = ["ABANDON_WORDS_EN", "ABANDON_WORDS_ZH", "LVEvalF1Evaluator", "LVEvalOPTF1Evaluator", "LVEvalOPTRougeEvaluator"]

#: English words LV-Eval leaves out of keyword recall and ROUGE.
ABANDON_WORDS_EN: tuple[str, ...] = (
    "and", "to", "of", "in", "her", "was", "with", "for", "it", "from", "is", "that", "his", "he", "by", "she",
    "they", "or", "at", "because", "be", "on", "are", "their", "what", "as", "had", "were", "about", "being",
    "this", "who", "but", "have", "has", "when", "which", "does",
)
#: Chinese words (and symbols) LV-Eval leaves out of keyword recall and ROUGE.
ABANDON_WORDS_ZH: tuple[str, ...] = (
    "的", "和", "是", "等", "在", "年", "可以", "为", "与", "‰", "了", "或", "一种", "月", "c", "至", "日", "有", "进行", "于", "不",
    "中", "×", "根据", "小", "由", "亩", "也", "要", "指", "法", "会", "元", "主要", "以及", "通过", "首先", "对", "然后", "号", "以",
    "所", "后", "丁", "包括", "无", "将", "用", "能", "形", "方面", "因素", "位于", "而", "从", "到", "一定", "用于", "但", "使用", "让",
    "具有", "并", "亿元", "万元", "上", "类", "基于", "才", "来", "地", "片", "其他", "个", "或者", "变得", "时", "给", "你", "使", "条",
    "受", "已经", "带", "度",
)


def _language(value: str, evaluator: str) -> str:
    if value not in ("en", "zh"):
        raise ValueError(f"{evaluator}: language must be 'en' or 'zh', got {value!r}")
    return value


class _FirstReference(BaseEvaluator):
    metric = "score"
    sample_decomposable = True

    def __init__(self, language: str = "en", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.language = _language(language, type(self).__name__)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.sample_outcome = SampleOutcome(scores={cls.metric: cls.metric})
        cls.sample_sums = MappingProxyType({cls.metric: (cls.metric, share_percent)})

    def sample_score(self, prediction: str, references: list[Any]) -> float:
        raise NotImplementedError

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        total = 0.0
        details = []
        for prediction, reference in zip(predictions, references):
            value = self.sample_score(prediction, reference) if len(reference) else 0.0
            total += value
            details.append({"pred": prediction, "answer": reference, self.metric: value})
        return {self.metric: total / len(predictions) * 100, "details": details}


def _tokens(text: str, language: str) -> list[str]:
    return normalize_answer(text).split() if language == "en" else zh_tokens(text)


@ICL_EVALUATORS.register_module()
class LVEvalF1Evaluator(_FirstReference):
    """Token F1 (LongBench's tokenization: ``normalize_answer`` words in English, normalized jieba
    words in Chinese) against the first reference; metric ``f1``.

    >>> LVEvalF1Evaluator().score(['Paris', 'Paris'], [['Paris', 'x'], ['London', 'Paris']])['f1']
    50.0
    """

    metric = "f1"

    def sample_score(self, prediction: str, references: list[Any]) -> float:
        return float(token_f1(_tokens(prediction, self.language), _tokens(references[0], self.language)))


@ICL_EVALUATORS.register_module()
class LVEvalOPTF1Evaluator(_FirstReference):
    """Keyword-gated token F1 against the first reference; metric ``LVEval_f1``.

    The sample's last reference is its answer keywords (the loaders append them).  English: when the
    keywords are not empty and fewer than 20 % of their words (common words of
    :data:`ABANDON_WORDS_EN` not counted as found) occur in the reply, the sample scores 0.  Chinese:
    the keywords (or the first reference, when they are empty) must be recalled to 40 %
    (:data:`ABANDON_WORDS_ZH` not counted).  Otherwise the F1 of the first reference.

    >>> LVEvalOPTF1Evaluator().score(['Paris is big', 'It is Rome'], [['Paris', 'Paris'], ['Rome', 'Paris']])['LVEval_f1']
    25.0
    """

    metric = "LVEval_f1"

    def sample_score(self, prediction: str, references: list[Any]) -> float:
        keyword = references[-1]
        reference = references[0]
        if self.language == "en":
            pred_tokens, ref_tokens = normalize_answer(prediction).split(), normalize_answer(reference).split()
            if keyword:
                keyword_tokens = normalize_answer(keyword).split()
                if _recall(pred_tokens, keyword_tokens, ABANDON_WORDS_EN) < 0.2:
                    return 0.0
        else:
            pred_tokens, ref_tokens = zh_tokens(prediction), zh_tokens(reference)
            if not keyword:
                keyword = reference
            if keyword:
                keyword_tokens = zh_tokens(keyword)
                if _recall(pred_tokens, keyword_tokens, ABANDON_WORDS_ZH) < 0.4:
                    return 0.0
        return float(token_f1(pred_tokens, ref_tokens))


def _recall(pred_tokens: list[str], keyword_tokens: list[str], ignored: tuple[str, ...]) -> float:
    """The share of keyword tokens found in the reply (as a multiset), ignored words not counted.

    No keyword token (keywords of punctuation only) raises ``ZeroDivisionError``, as in OpenCompass.
    """
    common = Counter(pred_tokens) & Counter(keyword_tokens)
    same = sum(v for k, v in common.items() if k not in ignored)
    return 1.0 * same / len(keyword_tokens)


@ICL_EVALUATORS.register_module()
class LVEvalOPTRougeEvaluator(_FirstReference):
    """ROUGE-L F (the ``rouge`` package's, see :class:`~assay.evaluators.longbench.LongBenchRougeEvaluator`)
    of the reply and the first reference after dropping LV-Eval's common words; metric ``LVEval_rouge``.

    English: ``normalize_answer`` words; Chinese: jieba's words, each normalized (empty ones kept,
    as in OpenCompass).  A pair the package cannot score scores 0.

    >>> round(LVEvalOPTRougeEvaluator().score(['the cat sat'], [['a cat sat']])['LVEval_rouge'], 4)
    100.0
    """

    metric = "LVEval_rouge"

    def sample_score(self, prediction: str, references: list[Any]) -> float:
        reference = references[0]
        if self.language == "zh":
            ignored = ABANDON_WORDS_ZH
            pred_tokens = [normalize_zh_answer(t) for t in jieba_words(prediction)]
            ref_tokens = [normalize_zh_answer(t) for t in jieba_words(reference)]
        else:
            ignored = ABANDON_WORDS_EN
            pred_tokens, ref_tokens = normalize_answer(prediction).split(), normalize_answer(reference).split()
        value = rouge_l_f(" ".join(t for t in pred_tokens if t not in ignored), " ".join(t for t in ref_tokens if t not in ignored))
        return 0.0 if value is None else value
