"""SciReasoner's Mol-Instructions protein evaluators, as OpenCompass 0.5.4 computes them.

* ``Mol_Instructions_Evaluator_Protein`` (``catalytic_activity``, ``domain_motif``,
  ``general_function``, ``protein_function``): OpenCompass's ``RougeEvaluator``
  under another name (the ``task`` it is given changes nothing);
* ``Mol_Instructions_Evaluator_Protein_Design`` (``protein_design``): the
  normalised Smith-Waterman score of each designed sequence against the
  reference — the best local alignment's score (BLOSUM45, a gap of ``k``
  residues costing ``10 + 0.5 (k - 1)``) over the geometric mean of the two
  sequences' self-scores (the sums of their residues' BLOSUM45 diagonal),
  at most 1, in percent; 0 when either side is empty, the alignment scores
  0 or less, or a self-score is 0 or less.
"""

from __future__ import annotations

import math
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.evaluators.text import RougeEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["BLOSUM45", "Mol_Instructions_Evaluator_Protein", "Mol_Instructions_Evaluator_Protein_Design",
           "normalized_smith_waterman"]

_ALPHABET = "ARNDCQEGHILKMFPSTWYVBZX*"
_ROWS = """
 5 -2 -1 -2 -1 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -2 -2  0 -1 -1  0 -5
-2  7  0 -1 -3  1  0 -2  0 -3 -2  3 -1 -2 -2 -1 -1 -2 -1 -2 -1  0 -1 -5
-1  0  6  2 -2  0  0  0  1 -2 -3  0 -2 -2 -2  1  0 -4 -2 -3  4  0 -1 -5
-2 -1  2  7 -3  0  2 -1  0 -4 -3  0 -3 -4 -1  0 -1 -4 -2 -3  5  1 -1 -5
-1 -3 -2 -3 12 -3 -3 -3 -3 -3 -2 -3 -2 -2 -4 -1 -1 -5 -3 -1 -2 -3 -2 -5
-1  1  0  0 -3  6  2 -2  1 -2 -2  1  0 -4 -1  0 -1 -2 -1 -3  0  4 -1 -5
-1  0  0  2 -3  2  6 -2  0 -3 -2  1 -2 -3  0  0 -1 -3 -2 -3  1  4 -1 -5
 0 -2  0 -1 -3 -2 -2  7 -2 -4 -3 -2 -2 -3 -2  0 -2 -2 -3 -3 -1 -2 -1 -5
-2  0  1  0 -3  1  0 -2 10 -3 -2 -1  0 -2 -2 -1 -2 -3  2 -3  0  0 -1 -5
-1 -3 -2 -4 -3 -2 -3 -4 -3  5  2 -3  2  0 -2 -2 -1 -2  0  3 -3 -3 -1 -5
-1 -2 -3 -3 -2 -2 -2 -3 -2  2  5 -3  2  1 -3 -3 -1 -2  0  1 -3 -2 -1 -5
-1  3  0  0 -3  1  1 -2 -1 -3 -3  5 -1 -3 -1 -1 -1 -2 -1 -2  0  1 -1 -5
-1 -1 -2 -3 -2  0 -2 -2  0  2  2 -1  6  0 -2 -2 -1 -2  0  1 -2 -1 -1 -5
-2 -2 -2 -4 -2 -4 -3 -3 -2  0  1 -3  0  8 -3 -2 -1  1  3  0 -3 -3 -1 -5
-1 -2 -2 -1 -4 -1  0 -2 -2 -2 -3 -1 -2 -3  9 -1 -1 -3 -3 -3 -2 -1 -1 -5
 1 -1  1  0 -1  0  0  0 -1 -2 -3 -1 -2 -2 -1  4  2 -4 -2 -1  0  0  0 -5
 0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -1 -1  2  5 -3 -1  0  0 -1  0 -5
-2 -2 -4 -4 -5 -2 -3 -2 -3 -2 -2 -2 -2  1 -3 -4 -3 15  3 -3 -4 -2 -2 -5
-2 -1 -2 -2 -3 -1 -2 -3  2  0  0 -1  0  3 -3 -2 -1  3  8 -1 -2 -2 -1 -5
 0 -2 -3 -3 -1 -3 -3 -3 -3  3  1 -2  1  0 -3 -1  0 -3 -1  5 -3 -3 -1 -5
-1 -1  4  5 -2  0  1 -1  0 -3 -3  0 -2 -3 -2  0  0 -4 -2 -3  4  2 -1 -5
-1  0  0  1 -3  4  4 -2  0 -3 -2  1 -1 -3 -1  0 -1 -2 -2 -3  2  4 -1 -5
 0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1  0  0 -2 -1 -1 -1 -1 -1 -5
-5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5  1
"""
#: BLOSUM45 (Henikoff and Henikoff), over the 20 amino acids, B, Z, X and the stop ``*``.
BLOSUM45: dict[tuple[str, str], int] = {
    (a, b): int(v)
    for a, row in zip(_ALPHABET, _ROWS.split("\n")[1:-1]) for b, v in zip(_ALPHABET, row.split())
}
OPEN_GAP = -10.0
EXTEND_GAP = -0.5


def _codes(seq: str, name: str) -> list[int]:
    index = {a: i for i, a in enumerate(_ALPHABET)}
    try:
        return [index[c] for c in seq]
    except KeyError as exc:
        raise EvaluationError(f"{name}: {seq[:60]!r} holds {exc.args[0]!r}, which BLOSUM45 does not score "
                              f"(its letters: {_ALPHABET})") from None


def _local_alignment_score(a: list[int], b: list[int]) -> float:
    """The best local alignment score (Gotoh's affine gaps), one row of the matrices at a time: memory
    linear in the longer sequence, a row per residue of the shorter (the score is symmetric, as BLOSUM45 is).

    Within a row the horizontal gaps are the running maximum of ``H[k] - k * extend`` (no gap's
    best start lies in a gap, as opening costs more than extending), so each row is a few
    vectorised passes.
    """
    import numpy as np

    if len(a) > len(b):
        a, b = b, a
    matrix = np.array([[BLOSUM45[x, y] for y in _ALPHABET] for x in _ALPHABET], dtype=float)
    cols = np.array(b)
    width = len(b)
    steps = np.arange(width + 1, dtype=float) * EXTEND_GAP
    h_prev = np.zeros(width + 1)
    e_prev = np.full(width + 1, -np.inf)
    best = 0.0
    for x in a:
        e = np.maximum(h_prev + OPEN_GAP, e_prev + EXTEND_GAP)  # gaps in b, coming down
        g = np.zeros(width + 1)
        g[1:] = np.maximum(h_prev[:-1] + matrix[x, cols], e[1:])
        np.maximum(g, 0.0, out=g)
        # horizontal gaps: F[j] = max over k < j of g[k] + open + (j - k - 1) * extend
        run = np.maximum.accumulate(g - steps)
        f = np.full(width + 1, -np.inf)
        f[1:] = run[:-1] + steps[1:] - EXTEND_GAP + OPEN_GAP
        h = np.maximum(g, f)
        h[0] = 0.0
        best = max(best, float(h.max()))
        h_prev, e_prev = h, e
    return best


def normalized_smith_waterman(seq1: str, seq2: str, name: str = "normalized_smith_waterman") -> float:
    """Normalised Smith-Waterman similarity of two protein sequences, in [0, 1] (see the module's description).

    An empty sequence fails, naming ``name``, as Biopython's aligner does in OpenCompass (its evaluator
    scores an empty side 0 without aligning).

    >>> normalized_smith_waterman('MKV', 'MKV'), round(normalized_smith_waterman('MKVLA', 'MKV'), 6)
    (1.0, 0.784465)
    """
    a, b = _codes(seq1, name), _codes(seq2, name)
    if not a or not b:
        raise EvaluationError(f"{name}: cannot align an empty sequence (seq1 {seq1[:60]!r}, seq2 {seq2[:60]!r})")
    raw = _local_alignment_score(a, b)
    if raw <= 0:
        return 0.0
    self1 = sum(BLOSUM45[c, c] for c in seq1)
    self2 = sum(BLOSUM45[c, c] for c in seq2)
    if self1 <= 0 or self2 <= 0:
        return 0.0
    return min(raw / math.sqrt(self1 * self2), 1.0)


@ICL_EVALUATORS.register_module()
class Mol_Instructions_Evaluator_Protein(RougeEvaluator):
    """Mol-Instructions' protein text tasks: :class:`~assay.evaluators.text.RougeEvaluator` (OpenCompass's
    bootstrap aggregate), accepting the ``task`` OpenCompass's configs give it, which changes nothing.

    >>> round(Mol_Instructions_Evaluator_Protein(task='domain_motif').score(['a kinase domain'], ['a kinase domain'])['rouge1'], 6)
    100.0
    """

    def __init__(self, task: str = "catalytic_activity", pred_postprocessor: Any = None, **kwargs: Any) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor, **kwargs)
        self.task = task


@ICL_EVALUATORS.register_module()
class Mol_Instructions_Evaluator_Protein_Design(BaseEvaluator):
    """Mol-Instructions' ``protein_design``: the normalised Smith-Waterman score (× 100) of each reply's
    sequence against the reference's (both read by ``Mol_Instructions_postprocess_Protein_Design``; of a
    list, the first).

    Metrics, OpenCompass's keys: ``Max SW score``, ``Min SW score``, ``Average SW score`` (every
    sample; an empty side scores 0) and ``valid average SW score`` (the samples scoring above 0; 0
    when none does).  Details (assay's): ``pred``, ``answer`` and the sample's ``score``.  A letter
    BLOSUM45 does not score (lower case, ``U``, ``O``, ``J``) fails the task naming it, as
    OpenCompass's aligner raises.

    >>> Mol_Instructions_Evaluator_Protein_Design().score(['MKV', ''], ['MKV', 'MKV'])['Average SW score']
    50.0
    """

    sample_outcome = SampleOutcome(scores={"Average SW score": "score"})

    def __init__(self, task: str = "protein_design", *args: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        scores: list[float] = []
        details = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            p = pred[0] if isinstance(pred, list) and pred else pred
            r = ref[0] if isinstance(ref, list) and ref else ref
            p = ("" if p is None else str(p)).strip()
            r = ("" if r is None else str(r)).strip()
            value = normalized_smith_waterman(p, r, f"{name}, sample {i}") * 100 if p and r else 0.0
            scores.append(value)
            details.append({"pred": p, "answer": r, "score": value})
        valid = [s for s in scores if s > 0]
        return {"Max SW score": max(scores), "Min SW score": min(scores), "Average SW score": sum(scores) / len(scores),
                "valid average SW score": sum(valid) / len(valid) if valid else 0.0, "details": details}
