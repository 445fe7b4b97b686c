"""Evaluators over likelihood statistics written by PPL-style inferencers: perplexity, Min-K%, bits per character.

They read prediction-file columns (``ppl``, ``mink``, ``loss``, ``total_chr_num``, ``token_len``)
instead of predictions and references, and return no details.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import mean_of, no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["AverageInferencePPLEvaluator", "AverageMinKEvaluator", "AveragePPLEvaluator", "BPCEvaluator"]


def _numbers(evaluator: object, column: str, values: Sequence[Any] | None) -> list[float] | dict[str, Any]:
    """The column as floats, or an error record naming the first bad entry."""
    name = type(evaluator).__name__
    if values is None or len(values) == 0:
        return no_samples(evaluator)
    out: list[float] = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
            return {"error": f"{name}: {column}[{i}] is {v!r:.80}, expected a finite number"}
        out.append(float(v))
    return out


@ICL_EVALUATORS.register_module()
class AveragePPLEvaluator(BaseEvaluator):
    """The mean perplexity over samples.

    Inputs: ``ppl``, one finite number per sample (a prediction-file column).
    Metric: ``average_ppl`` (≥ 1 for true perplexities; lower is better).  No
    details.  A missing, infinite or non-numeric value is an error record.

    >>> AveragePPLEvaluator().score(ppl=[2.0, 4.0])
    {'average_ppl': 3.0}
    """

    sample_decomposable = True
    sample_sums = MappingProxyType({"average_ppl": ("ppl", mean_of)})

    def score(self, ppl: Sequence[Any]) -> dict[str, Any]:
        values = _numbers(self, "ppl", ppl)
        if isinstance(values, dict):
            return values
        return {"average_ppl": sum(values) / len(values)}


@ICL_EVALUATORS.register_module()
class AverageMinKEvaluator(BaseEvaluator):
    """The mean Min-K% probability score over samples (a contamination signal).

    Inputs: ``mink``, one finite number per sample.  Metric: ``average_mink``.
    No details.  A missing, infinite or non-numeric value is an error record.

    >>> AverageMinKEvaluator().score(mink=[-1.5, -0.5])
    {'average_mink': -1.0}
    """

    sample_decomposable = True
    sample_sums = MappingProxyType({"average_mink": ("mink", mean_of)})

    def score(self, mink: Sequence[Any]) -> dict[str, Any]:
        values = _numbers(self, "mink", mink)
        if isinstance(values, dict):
            return values
        return {"average_mink": sum(values) / len(values)}


@ICL_EVALUATORS.register_module()
class BPCEvaluator(BaseEvaluator):
    """Bits per character of a corpus.

    Inputs: ``loss`` (the summed natural-log cross-entropy of each sample or
    window) and ``total_chr_num`` (the number of characters of the whole
    corpus, repeated on every row, as OpenCompass's inferencer writes it).
    Metric: ``bpc`` = Σ loss / (total_chr_num · ln 2); lower is better.  No
    details.  Rows disagreeing on ``total_chr_num``, or a count that is not
    positive, are an error record.  Corpus-level: shards do not merge exactly.

    >>> round(BPCEvaluator().score(loss=[6.931471805599453, 6.931471805599453], total_chr_num=[20, 20])['bpc'], 6)
    1.0
    """

    sample_decomposable = False

    def score(self, loss: Sequence[Any], total_chr_num: Sequence[Any]) -> dict[str, Any]:
        name = type(self).__name__
        losses = _numbers(self, "loss", loss)
        if isinstance(losses, dict):
            return losses
        counts = _numbers(self, "total_chr_num", total_chr_num)
        if isinstance(counts, dict):
            return counts
        if len(counts) != len(losses):
            return {"error": f"{name}: {len(losses)} loss values but {len(counts)} total_chr_num values"}
        if len(set(counts)) != 1:
            return {"error": f"{name}: total_chr_num must be the corpus character count on every row; found {sorted(set(counts))[:5]}"}
        if counts[0] <= 0:
            return {"error": f"{name}: total_chr_num is {counts[0]}; it must be positive"}
        return {"bpc": sum(losses) / (counts[0] * math.log(2))}


@ICL_EVALUATORS.register_module()
class AverageInferencePPLEvaluator(BaseEvaluator):
    """The loss per token over a corpus, as OpenCompass 0.5.4 computes it for inference perplexity.

    Inputs: ``ppl`` (per sample the summed natural-log loss of its tokens, as
    OpenCompass's inference-PPL inferencer writes it under that name) and
    ``token_len`` (per sample the number of tokens scored).  Metric:
    ``average_ppl`` = Σ ppl / Σ token_len — the mean token loss, not its
    exponential, whatever the name says (as in OpenCompass); lower is better.
    No details.  A missing, infinite or non-numeric value, or no token at all,
    is an error record.  Corpus-level: shards do not merge exactly.

    >>> AverageInferencePPLEvaluator().score(ppl=[6.0, 3.0], token_len=[4, 2])
    {'average_ppl': 1.5}
    """

    sample_decomposable = False

    def score(self, ppl: Sequence[Any], token_len: Sequence[Any]) -> dict[str, Any]:
        name = type(self).__name__
        losses = _numbers(self, "ppl", ppl)
        if isinstance(losses, dict):
            return losses
        counts = _numbers(self, "token_len", token_len)
        if isinstance(counts, dict):
            return counts
        if len(counts) != len(losses):
            return {"error": f"{name}: {len(losses)} ppl values but {len(counts)} token_len values"}
        if sum(counts) == 0:
            return {"error": f"{name}: token_len sums to 0; no token was scored"}
        return {"average_ppl": sum(losses) / sum(counts)}
