"""Elo ratings from pairwise battles, as Arena-Hard computes them, and the win rates they predict.

A *battle* is ``(model_a, model_b, winner)`` with ``winner`` one of ``'model_a'``,
``'model_b'``, ``'tie'`` (or ``'tie (bothbad)'``).  :func:`mle_elo` fits the
Bradley-Terry model behind Arena-Hard's ratings: every battle counted twice, a
win as two wins, a tie as one win and one loss; the log-odds of *a* beating *b*
is ``ln 10 · (β_a − β_b)``; the rating is ``400 · β + 1000``, with ``gpt4-0314``
moved to 1000 when it takes part.  The fit is the exact maximum-likelihood
solution (Newton's method, started at zero, so that the ratings of each group
of models that met one another average 1000, as a gradient method started at
zero leaves them).  OpenCompass 0.5.4 fits it with scikit-learn's L-BFGS
(tolerance ``1e-8``), which stops near that solution: its ratings agree with
these to well within 0.001, and the win rates it reports, rounded to two
decimals, are the same.  When a model never loses (or never wins) the
likelihood has no maximum: the ratings grow with the iterations, and assay
stops after 100, where OpenCompass's optimizer stops elsewhere.

:func:`bootstrap_elo` resamples the battles with NumPy's legacy generator
seeded as OpenCompass seeds it (``42``), drawing the same battles OpenCompass
draws.

Example:
    >>> battles = [('a', 'b', 'model_a'), ('a', 'b', 'model_b'), ('a', 'b', 'model_a'), ('b', 'a', 'tie')]
    >>> {m: round(r, 2) for m, r in mle_elo(battles).items()}
    {'a': 1044.37, 'b': 955.63}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["ANCHOR", "bootstrap_elo", "mle_elo", "one_class", "predicted_win_rates", "resamples", "win_rate_against"]

#: The model Arena-Hard's ratings are anchored to (1000), when it takes part.
ANCHOR = "gpt4-0314"

Battle = tuple[str, str, str]


def _models(battles: Sequence[Battle]) -> list[str]:
    """The models in order of first appearance: first every ``model_a``, then every ``model_b``."""
    seen: dict[str, None] = {}
    for a, _, _ in battles:
        seen.setdefault(a, None)
    for _, b, _ in battles:
        seen.setdefault(b, None)
    return list(seen)


def _fit(index: Mapping[str, int], battles: Sequence[Battle], iterations: int = 100) -> Any:
    import numpy as np

    p = len(index)
    a = np.array([index[x] for x, _, _ in battles], dtype=np.intp)
    b = np.array([index[y] for _, y, _ in battles], dtype=np.intp)
    win = np.array([w == "model_a" for _, _, w in battles], dtype=float)
    tie = np.array([w in ("tie", "tie (bothbad)") for _, _, w in battles], dtype=float)
    # each battle twice: a win is two wins (y=1, y=1), a tie one win and one loss, a loss two losses
    ones = 2 * win + tie
    total = np.full(len(battles), 2.0)
    scale = math.log(10)
    beta = np.zeros(p)
    for _ in range(iterations):
        z = scale * (beta[a] - beta[b])
        prob = 1.0 / (1.0 + np.exp(-z))
        resid = ones - total * prob
        grad = np.zeros(p)
        np.add.at(grad, a, scale * resid)
        np.add.at(grad, b, -scale * resid)
        w = total * prob * (1.0 - prob) * scale * scale
        hess = np.zeros((p, p))
        np.add.at(hess, (a, a), w)
        np.add.at(hess, (b, b), w)
        np.add.at(hess, (a, b), -w)
        np.add.at(hess, (b, a), -w)
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        beta = beta + step
        if float(np.max(np.abs(step), initial=0.0)) < 1e-13:
            break
    return beta


def one_class(battles: Sequence[Battle]) -> str | None:
    """What every battle is when the regression sees one outcome only (all won by ``model_a``, or none won by it
    and none a tie), else ``None``."""
    wins = {w == "model_a" for _, _, w in battles}
    if len(wins) != 1 or any(w in ("tie", "tie (bothbad)") for _, _, w in battles):
        return None
    return "won by model_a" if True in wins else "lost by model_a, without a tie"


def resamples(n: int, rounds: int, seed: int = 42) -> Any:
    """The indices of ``rounds`` resamplings of ``n`` battles, as OpenCompass draws them after ``np.random.seed(seed)``."""
    import numpy as np

    rng = np.random.RandomState(seed)
    for _ in range(rounds):
        yield rng.choice(n, size=n, replace=True)


def mle_elo(battles: Sequence[Battle], scale: float = 400, init: float = 1000) -> dict[str, float]:
    """The Elo rating of each model, highest first (see the module's docstring).

    Raises:
        ValueError: no battles, or every battle won by ``model_a`` (or every one lost by it,
            none a tie): OpenCompass's regression refuses to fit one class.
    """
    if not battles:
        raise ValueError("no battles to rate: no judgement could be read")
    kind = one_class(battles)
    if kind is not None:
        # OpenCompass's logistic regression refuses such data ("needs samples of at least 2 classes")
        raise ValueError(f"every battle is {kind}: the ratings have no maximum-likelihood value")
    models = _models(battles)
    index = {m: i for i, m in enumerate(models)}
    beta = _fit(index, battles)
    ratings = [scale * float(x) + init for x in beta]
    if ANCHOR in index:
        shift = 1000 - ratings[index[ANCHOR]]
        ratings = [r + shift for r in ratings]
    order = sorted(range(len(models)), key=lambda i: -ratings[i])
    return {models[i]: ratings[i] for i in order}


def bootstrap_elo(battles: Sequence[Battle], rounds: int, seed: int = 42) -> list[dict[str, float]]:
    """The ratings of ``rounds`` resamplings of the battles (with replacement, as many as there are).

    The draws are NumPy's legacy ``RandomState(seed).choice(n, n)``, round after
    round, which is what OpenCompass's ``battles.sample(frac=1.0, replace=True)``
    draws after ``np.random.seed(42)``.
    """
    return [mle_elo([battles[int(i)] for i in picks]) for picks in resamples(len(battles), rounds, seed)]


def predicted_win_rates(ratings: Mapping[str, float], names: Sequence[str], scale: float = 400, base: float = 10) -> dict[str, dict[str, float]]:
    """``rates[a][b]``: the probability that ``a`` beats ``b`` by their ratings, computed in OpenCompass's order.

    For each ``a`` then each ``b`` of ``names`` it sets ``rates[a][b]`` to the
    expected score and ``rates[b][a]`` to its complement, later pairs
    overwriting earlier ones, so that each value is the same float OpenCompass's
    ``predict_win_rate`` leaves.
    """
    rates: dict[str, dict[str, float]] = {a: {} for a in names}
    for a in names:
        for b in names:
            ea = 1 / (1 + base ** ((ratings[b] - ratings[a]) / scale))
            rates[a][b] = ea
            rates[b][a] = 1 - ea
    return rates


def win_rate_against(ratings: Mapping[str, float], baseline: str, names: Sequence[str] | None = None) -> dict[str, float]:
    """Each model's predicted win rate against ``baseline``, in percent rounded to two decimals (the baseline: 50.0).

    ``names`` is the order OpenCompass computes the table in (the ratings' order
    by default; its summarizer sorts them).

    Raises:
        KeyError: ``baseline`` has no rating (OpenCompass fails the same way).
    """
    order = list(ratings) if names is None else list(names)
    if baseline not in ratings:
        raise KeyError(baseline)
    rates = predicted_win_rates(ratings, order)
    return {m: (50.0 if m == baseline else round(rates[m][baseline] * 100, 2)) for m in order}
