"""Text-overlap evaluators: BLEU (sacrebleu) and ROUGE (rouge-score, or jieba words for Chinese)."""

from __future__ import annotations

import logging
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import CORPUS_BLEU, BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, mean_of
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["BleuEvaluator", "JiebaRougeEvaluator", "RougeEvaluator"]

logger = logging.getLogger(__name__)

_ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _reference_list(ref: Any) -> list[str]:
    if isinstance(ref, (list, tuple)):
        refs = [str(r) for r in ref if r is not None]
        return refs or [""]
    return ["" if ref is None else str(ref)]


@ICL_EVALUATORS.register_module()
class BleuEvaluator(BaseEvaluator):
    """Corpus BLEU with sacrebleu.

    Inputs: ``predictions`` and ``references`` (a string, or a list of
    acceptable references per sample; samples may have different numbers of
    them).  Metrics, OpenCompass's keys: ``score`` (corpus BLEU, 0–100), plus
    ``counts``, ``totals`` and ``precisions`` (n-gram matches, n-gram counts
    and precisions for n = 1…4), ``bp`` (brevity penalty, 0–1), ``sys_len``
    and ``ref_len`` (token counts); the summarizer shows only numbers.  Details per sample: ``pred``, ``answer`` and
    ``bleu`` (sentence BLEU with effective order, 0–100; informative only —
    the corpus score is not their mean).  No correctness is defined.

    Options: ``tokenize`` (sacrebleu tokenizer, default ``'13a'``; ``'zh'``
    for Chinese), ``lowercase``.  Limitation: corpus BLEU does not split into
    per-sample parts, so results of shards cannot be merged exactly.

    >>> round(BleuEvaluator().score(['the cat sat on the mat'], ['the cat sat on the mat'])['score'], 6)
    100.0
    """

    sample_outcome = SampleOutcome(scores={"score": CORPUS_BLEU})

    sample_decomposable = False

    def __init__(self, tokenize: str = "13a", lowercase: bool = False, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.tokenize = tokenize
        self.lowercase = lowercase

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        import sacrebleu

        hyps = ["" if p is None else str(p) for p in predictions]
        refs = [_reference_list(r) for r in references]
        # Reference streams must be equally long: pad with a copy of a sample's
        # own first reference, which changes neither clipped counts nor the
        # closest reference length.
        width = max(len(r) for r in refs)
        streams = [[r[i] if i < len(r) else r[0] for r in refs] for i in range(width)]
        corpus = sacrebleu.corpus_bleu(hyps, streams, tokenize=self.tokenize, lowercase=self.lowercase)
        details = []
        for hyp, ref in zip(hyps, refs):
            sentence = sacrebleu.sentence_bleu(hyp, ref, tokenize=self.tokenize, lowercase=self.lowercase)
            details.append({"pred": hyp, "answer": ref if len(ref) > 1 else ref[0], "bleu": float(sentence.score)})
        return {
            "score": float(corpus.score),
            "counts": [int(c) for c in corpus.counts],
            "totals": [int(t) for t in corpus.totals],
            "precisions": [float(p) for p in corpus.precisions],
            "bp": float(corpus.bp),
            "sys_len": int(corpus.sys_len),
            "ref_len": int(corpus.ref_len),
            "details": details,
        }


class _WhitespaceTokenizer:
    """rouge-score tokenizer for text that is already segmented into space-separated words."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


class _RougeBase(BaseEvaluator):
    sample_decomposable = True
    rouge_types: tuple[str, ...] = _ROUGE_KEYS
    bootstrap = False

    def _scorer(self) -> Any:
        raise NotImplementedError

    def _prepare(self, text: str) -> str:
        return text

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        scorer = self._scorer()
        totals = dict.fromkeys(self.rouge_types, 0.0)
        details = []
        per_sample = []
        for pred, ref in zip(predictions, references):
            hyp = self._prepare("" if pred is None else str(pred))
            targets = [self._prepare(r) for r in _reference_list(ref)]
            if len(targets) == 1 and not (self.bootstrap and isinstance(references[0], (list, tuple))):
                scores = scorer.score(targets[0], hyp)
            else:
                scores = scorer.score_multi(targets, hyp)
            per_sample.append(scores)
            sample = {key: 100.0 * float(scores[key].fmeasure) for key in self.rouge_types}
            for key, value in sample.items():
                totals[key] += value
            details.append({"pred": pred, "answer": ref, **sample})
        count = len(predictions)
        if self.bootstrap:
            return {**_bootstrap_mid(per_sample), "details": details}
        return {**{key: totals[key] / count for key in self.rouge_types}, "details": details}


def _bootstrap_mid(per_sample: list[Any]) -> dict[str, float]:
    """OpenCompass's ROUGE aggregate: rouge-score's bootstrap median F1 × 100, NumPy's global generator seeded 0.

    The generator's state is restored afterwards, as OpenCompass does.
    """
    import numpy as np
    from rouge_score import scoring

    state = np.random.get_state()
    np.random.seed(0)
    try:
        aggregator = scoring.BootstrapAggregator()
        for scores in per_sample:
            aggregator.add_scores(scores)
        result = aggregator.aggregate()
    finally:
        np.random.set_state(state)
    return {key: float(result[key].mid.fmeasure) * 100 for key in result}


@ICL_EVALUATORS.register_module()
class RougeEvaluator(_RougeBase):
    """ROUGE F1 (rouge-score), averaged over samples.

    Inputs: ``predictions`` and ``references`` (a string or a list of
    references; with several, the best-matching one counts).  Metrics:
    ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum``, each the mean per-sample
    F1 × 100, in [0, 100]; ``rougeLsum`` treats newlines as sentence breaks.
    Details carry the four per-sample values.  No correctness is defined.

    As in OpenCompass (the HF ``rouge`` metric), each aggregate is the median
    of rouge-score's 1000 bootstrap resamples of the mean, NumPy's global
    generator seeded 0 (``aggregate='bootstrap'``, the default), so the values
    are OpenCompass's to the last bit.  ``aggregate='mean'`` (assay's option)
    reports the plain mean instead, which splits into per-sample parts so that
    results of shards merge exactly.  Limitation: rouge-score's default
    tokenizer keeps only ``[a-z0-9]`` — use :class:`JiebaRougeEvaluator` for
    Chinese.  ``use_stemmer`` (default False, as in OpenCompass) enables
    Porter stemming.

    >>> round(RougeEvaluator().score(['the cat sat'], ['the cat sat'])['rouge1'], 6)
    100.0
    """

    sample_outcome = SampleOutcome(scores={k: k for k in _ROUGE_KEYS})

    sample_decomposable = False  # the default bootstrap aggregate is not a mean of per-sample parts

    def __init__(self, use_stemmer: bool = False, aggregate: str = "bootstrap", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if aggregate not in ("bootstrap", "mean"):
            raise ValueError(f"RougeEvaluator: aggregate must be 'bootstrap' or 'mean', got {aggregate!r}")
        self.use_stemmer = use_stemmer
        self.bootstrap = aggregate == "bootstrap"

    def _scorer(self) -> Any:
        from rouge_score import rouge_scorer

        return rouge_scorer.RougeScorer(list(self.rouge_types), use_stemmer=self.use_stemmer)


@ICL_EVALUATORS.register_module()
class JiebaRougeEvaluator(_RougeBase):
    """ROUGE F1 over jieba words, for Chinese.

    Predictions and references are cleaned with
    :func:`~assay.postprocess.general.general_postprocess` (cut at the first
    newline, ``.`` or ``,``; punctuation removed), segmented with jieba, and
    compared word by word.  Metrics: ``rouge1``, ``rouge2``, ``rougeL``, the
    mean per-sample F1 × 100, in [0, 100]; an empty side scores 0.  Details
    carry the per-sample values.  No correctness is defined.

    >>> JiebaRougeEvaluator().score(['我爱北京'], ['我爱北京'])['rouge1']
    100.0
    """

    sample_outcome = SampleOutcome(scores={k: k for k in ("rouge1", "rouge2", "rougeL")})

    rouge_types = ("rouge1", "rouge2", "rougeL")
    sample_sums = MappingProxyType({key: (key, mean_of) for key in rouge_types})

    def _scorer(self) -> Any:
        from rouge_score import rouge_scorer

        return rouge_scorer.RougeScorer(list(self.rouge_types), tokenizer=_WhitespaceTokenizer())

    def _prepare(self, text: str) -> str:
        cleaned = general_postprocess(text)
        if not cleaned:
            return ""
        import jieba

        return " ".join(word for word in jieba.cut(cleaned) if word.strip())
