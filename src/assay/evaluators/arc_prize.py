"""The ARC Prize grids' evaluator as OpenCompass 0.5.4 computes it (``ARCPrizeEvaluator``)."""

from __future__ import annotations

import ast
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, mean_of
from assay.registry import ICL_EVALUATORS

__all__ = ["ARCPrizeEvaluator", "arc_prize_grid"]

#: What fills the cells a grid lacks when two grids of different shapes are compared.
PAD = -1


def arc_prize_grid(text: str) -> list[list[Any]]:
    """The grid a reply gives: the text from its first ``[[`` to the first ``]]`` after it,
    read as a Python literal; ``[[0]]`` when there is none, it does not parse, or a cell is
    not an integer (``True``/``False`` count as integers, as in Python).

    >>> arc_prize_grid('The output is [[1, 2], [3, 4]].')
    [[1, 2], [3, 4]]
    >>> arc_prize_grid('[[[1]]]'), arc_prize_grid('[[1, 2.5]]'), arc_prize_grid('no grid')
    ([[0]], [[0]], [[0]])
    """
    try:
        start = text.index("[[")
        array = ast.literal_eval(text[start:text.index("]]", start) + 2])
    except (ValueError, SyntaxError):
        return [[0]]
    if all(isinstance(row, list) for row in array) and all(isinstance(cell, int) for row in array for cell in row):
        return array
    return [[0]]


def _compare(generated: list[list[Any]], correct: list[list[Any]]) -> tuple[bool, float]:
    """Whether the grids agree on every cell, and the share of agreeing cells in percent.

    Both are padded with :data:`PAD` to the larger number of rows and the longest row of
    either; a cell counts when both grids hold the same value there and neither holds
    ``-1`` — so a reference with a ``-1`` cell is never matched, as in OpenCompass.
    """
    rows = max(len(generated), len(correct))
    cols = max(max(map(len, generated)), max(map(len, correct)))

    def cell(grid: list[list[Any]], i: int, j: int) -> Any:
        return int(grid[i][j]) if i < len(grid) and j < len(grid[i]) else PAD

    right = sum(1 for i in range(rows) for j in range(cols)
                if cell(generated, i, j) == cell(correct, i, j) != PAD)
    total = rows * cols
    return right == total, (right / total * 100 if total else float("nan"))


@ICL_EVALUATORS.register_module()
class ARCPrizeEvaluator(BaseEvaluator):
    """Exact grids: a reply is right when the grid :func:`arc_prize_grid` reads from it
    equals the reference grid cell for cell.

    Inputs: ``predictions`` (replies) and ``references`` (grids: lists of rows of
    integers).  Metric: ``accuracy``, the share of right replies as a fraction in
    [0, 1] (OpenCompass's ``np.mean``, not a percentage).  Details:
    ``correct`` (1 or 0), ``correct_percentage`` (the share of matching cells
    of the padded grids, in percent) and ``generated_solution`` (the grid read).

    A reference that is not a list of rows of integers, or a cell too large for
    a 64-bit integer (where OpenCompass stops), gives an error record naming
    the sample.

    >>> ARCPrizeEvaluator().score(['[[1, 2]]', 'I think [[1], [2]]'], [[[1, 2]], [[1, 2]]])['accuracy']
    0.5
    """

    sample_decomposable = True
    sample_outcome = SampleOutcome(scores={"accuracy": "correct"})
    sample_sums = MappingProxyType({"accuracy": ("correct", mean_of)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        details: list[dict[str, Any]] = []
        right_count = 0
        for i, (reply, reference) in enumerate(zip(predictions, references)):
            if not isinstance(reply, str):
                return {"error": f"ARCPrizeEvaluator: sample {i}: the prediction is {type(reply).__name__}, not text"}
            if (not isinstance(reference, list) or not reference
                    or not all(isinstance(row, list) and all(isinstance(c, int) for c in row) for row in reference)):
                return {"error": f"ARCPrizeEvaluator: sample {i}: the reference {str(reference)[:80]!r} is not a grid "
                                 "(a non-empty list of rows of integers)"}
            grid = arc_prize_grid(reply)
            if any(not -(2**63) <= c < 2**63 for row in grid + reference for c in row):
                return {"error": f"ARCPrizeEvaluator: sample {i}: a cell of {str(grid)[:80]!r} does not fit a 64-bit integer"}
            right, share = _compare(grid, reference)
            right_count += right
            details.append({"correct": 1 if right else 0, "correct_percentage": share, "generated_solution": grid})
        return {"accuracy": mean_of(right_count, len(details)), "details": details}
