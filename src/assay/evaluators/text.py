"""Text-overlap evaluators: BLEU (sacrebleu) and ROUGE (rouge-score, or jieba words and rouge_chinese's reading for Chinese)."""

from __future__ import annotations

import logging
import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import CORPUS_BLEU, BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
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


_SENTENCE_ENDS = (
    (re.compile("([。！？?])([^”’])"), "\\1\n\\2"),
    (re.compile("(\\.{6})([^”’])"), "\\1\n\\2"),
    (re.compile("(…{2})([^”’])"), "\\1\n\\2"),
    (re.compile("([。！？?][”’])([^，。！？?])"), "\\1\n\\2"),
)


def _sentence_words(text: str) -> list[str]:
    """The words of ``text`` as rouge_chinese reads a summary: cut into sentences after ``。！？?``, six dots
    or two ellipses, each sentence's whitespace runs made single spaces, the sentences' words (split at
    single spaces) in a row.  A piece holding only whitespace counts as one empty word, as there."""
    for pattern, repl in _SENTENCE_ENDS:
        text = pattern.sub(repl, text)
    pieces = [" ".join(piece.split()) for piece in text.rstrip().split("\n") if len(piece) > 0]
    return [word for piece in pieces for word in piece.split(" ")]


def _f1(overlap: int, hyp_count: int, ref_count: int) -> float:
    precision = overlap / hyp_count if hyp_count else 0.0
    recall = overlap / ref_count if ref_count else 0.0
    return 2.0 * ((precision * recall) / (precision + recall + 1e-8))


def _ngram_f1(hyp: list[str], ref: list[str], n: int) -> float:
    hyp_grams = {tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1)}
    ref_grams = {tuple(ref[i:i + n]) for i in range(len(ref) - n + 1)}
    return _f1(len(hyp_grams & ref_grams), len(hyp_grams), len(ref_grams))


def _lcs_f1(hyp: list[str], ref: list[str]) -> float:
    previous = [0] * (len(hyp) + 1)
    for word in ref:
        current = [0]
        for j, other in enumerate(hyp, 1):
            current.append(previous[j - 1] + 1 if word == other else max(previous[j], current[j - 1]))
        previous = current
    llcs = previous[-1]
    recall, precision = llcs / len(ref), llcs / len(hyp)
    return 2.0 * ((precision * recall) / (precision + recall + 1e-8))


@ICL_EVALUATORS.register_module()
class JiebaRougeEvaluator(BaseEvaluator):
    """ROUGE F1 over jieba words, for Chinese, as OpenCompass 0.5.4 computes it (with rouge_chinese).

    Predictions and references are cleaned with
    :func:`~assay.postprocess.general.general_postprocess` (cut at the first
    newline, ``.`` or ``,``; punctuation removed) and segmented with jieba;
    an empty one becomes a placeholder word (``__PREDPLACEHOLDER__``,
    ``__REFRPLACEHOLDER__``), so that it scores 0.  Each text is cut into
    sentences after ``。！？?`` (rouge_chinese's cut) and read as one run of
    words.  ROUGE-1 and ROUGE-2 count *distinct* n-grams (sets, as
    rouge_chinese's default); ROUGE-L is the longest common subsequence of the
    two runs of words.  Each F1 is rouge_chinese's
    ``2·p·r / (p + r + 1e-8)`` — a perfect match scores 0.999999995, not 1.
    Metrics: ``rouge1``, ``rouge2``, ``rougeL``, the mean F1 × 100 (the F1s
    summed in sample order, divided by the count, then scaled, as
    OpenCompass does).  Details carry each sample's three F1s (fractions).
    No correctness is defined.

    >>> JiebaRougeEvaluator().score(['我爱北京'], ['我爱北京'])['rouge1']
    99.9999995
    """

    sample_outcome = SampleOutcome(scores={k: k for k in ("rouge1", "rouge2", "rougeL")})

    sample_decomposable = True
    rouge_types = ("rouge1", "rouge2", "rougeL")
    sample_sums = MappingProxyType({key: (key, share_percent) for key in rouge_types})

    @staticmethod
    def _words(text: Any, placeholder: str) -> list[str]:
        cleaned = general_postprocess("" if text is None else str(text))
        if not cleaned:
            return [placeholder]
        import jieba

        return _sentence_words(" ".join(jieba.cut(cleaned)))

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        totals = dict.fromkeys(self.rouge_types, 0.0)
        details = []
        for pred, ref in zip(predictions, references):
            hyp = self._words(pred, "__PREDPLACEHOLDER__")
            target = self._words(ref, "__REFRPLACEHOLDER__")
            sample = {"rouge1": _ngram_f1(hyp, target, 1), "rouge2": _ngram_f1(hyp, target, 2), "rougeL": _lcs_f1(hyp, target)}
            for key, value in sample.items():
                totals[key] += value
            details.append({"pred": pred, "answer": ref, **sample})
        return {**{key: share_percent(totals[key], len(details)) for key in self.rouge_types}, "details": details}
