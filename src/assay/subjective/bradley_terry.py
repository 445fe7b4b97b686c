"""Bradley-Terry ratings of pairwise matches, with and without style control, as CompassArena's summary fits them.

A *match* is one record of a ``*_bradleyterry_postprocess`` output
(``{'matches': [...]}``): ``model_a``, ``model_b``, ``winner`` (``'model_a'``,
``'model_b'``, anything else a tie), ``conv_metadata`` (the answers' style
counts: ``sum_assistant_tokens_a``/``_b``, ``header_count_a``/``_b``,
``list_count_a``/``_b``, ``bold_count_a``/``_b``, each a number or a dict of
numbers, summed) and any group columns.

* :func:`fit_bt`: the log-odds of *a* beating *b* is ``ln 10 · (β_a − β_b)``, a
  tie half a win and half a loss, the likelihood maximized exactly (Newton's
  method in the subspace where the ratings sum to zero, which is where a
  gradient method started at zero stays).
* :func:`fit_style_control`: the same with the style features added to the
  log-odds (each ``(x_a − x_b) / (x_a + x_b + 1)``, normalized to mean 0 and
  standard deviation 1 over the matches unless told otherwise, then the group
  columns one-hot), and an L2 penalty ``reg/2 · ‖θ‖²`` on every parameter
  (``reg`` 0.5): strictly convex, fitted exactly by Newton's method.
* Ratings are ``400 · β + 1000``, shifted so that the base model is at 1000.

OpenCompass 0.5.4 fits both with SciPy's L-BFGS-B (gradient tolerance
``1e-6``, at most 100 iterations), which stops near these solutions: on the
recorded summaries its ratings agree with these to within 0.05, its
coefficients to within 1e-3 (``tests/summarize/test_bradley_terry.py``).  When a model never loses (or never wins) without
the penalty, the likelihood has no maximum; the fit stops after 100 Newton
steps, where OpenCompass's optimizer stops elsewhere.

Its bootstraps: :func:`bootstrap_bt` draws the counts of each distinct (pair,
outcome) from a multinomial with NumPy's ``default_rng(seed)``, seed 0 by
default — the draws OpenCompass makes, since it seeds it with 0 too;
:func:`bootstrap_style_control` resamples the matches with ``default_rng(seed)``
(seed 0 by default), where OpenCompass draws them unseeded from NumPy's global
generator, so that its intervals change from run to run and assay's do not.

Example:
    >>> matches = [dict(model_a='a', model_b='b', winner=w) for w in ('model_a', 'model_a', 'model_b', 'tie')]
    >>> {m: round(r, 2) for m, r in bt_ratings(matches, baseline='b').items()}
    {'a': 1088.74, 'b': 1000.0}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import InputFileError

__all__ = [
    "STYLE_FEATURES",
    "bootstrap_bt",
    "bootstrap_style_control",
    "bt_ratings",
    "fit_bt",
    "fit_style_control",
    "models_of",
    "style_features",
]

#: The style features of CompassArena's style control, in the order of its coefficients.
STYLE_FEATURES = ("sum_assistant_tokens", "header_count", "list_count", "bold_count")
ALPHA = math.log(10.0)
SCALE = 400.0
INIT = 1000.0
_MAX_STEPS = 100


def models_of(matches: Sequence[Mapping[str, Any]]) -> list[str]:
    """The models in order of first appearance: every ``model_a`` first, then every ``model_b``."""
    seen: dict[str, None] = {}
    for key in ("model_a", "model_b"):
        for m in matches:
            seen.setdefault(str(m[key]), None)
    return list(seen)


def _arrays(matches: Sequence[Mapping[str, Any]]) -> tuple[Any, Any, list[str]]:
    import numpy as np

    for i, m in enumerate(matches):
        if not isinstance(m, Mapping) or "model_a" not in m or "model_b" not in m or "winner" not in m:
            raise InputFileError(f"Bradley-Terry: match {i} is not a dict with 'model_a', 'model_b' and 'winner': {m!r:.120}")
    models = models_of(matches)
    index = {m: i for i, m in enumerate(models)}
    pairs = np.array([[index[str(m["model_a"])], index[str(m["model_b"])]] for m in matches], dtype=np.intp).reshape(-1, 2)
    outcomes = np.array([1.0 if m["winner"] == "model_a" else 0.0 if m["winner"] == "model_b" else 0.5 for m in matches])
    return pairs, outcomes, models


def _newton(n_ratings: int, pairs: Any, features: Any, outcomes: Any, weights: Any, reg: float) -> Any:
    """The parameters (ratings, then feature coefficients) minimizing the weighted logistic loss plus ``reg/2 · ‖θ‖²``.

    A rating no match weighs on stays at 0 (the least-norm Newton step), as a gradient method leaves it."""
    import numpy as np

    k = features.shape[1]
    size = n_ratings + k
    design = np.zeros((len(outcomes), size))
    rows = np.arange(len(outcomes))
    np.add.at(design, (rows, pairs[:, 0]), ALPHA)
    np.add.at(design, (rows, pairs[:, 1]), -ALPHA)
    design[:, n_ratings:] = features
    theta = np.zeros(size)
    # without a penalty the ratings are fixed only up to a constant: keep them summing to zero
    center = np.zeros((size, size))
    if reg == 0:
        center[:n_ratings, :n_ratings] = 1.0
    for _ in range(_MAX_STEPS):
        logits = design @ theta
        probs = 1.0 / (1.0 + np.exp(-logits))
        grad = -design.T @ ((outcomes - probs) * weights) + reg * theta
        hess = (design * (probs * (1 - probs) * weights)[:, None]).T @ design + reg * np.eye(size) + center
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        theta = theta - step
        if np.max(np.abs(step)) < 1e-12:
            break
    return theta


def fit_bt(matches: Sequence[Mapping[str, Any]], weights: Any = None) -> tuple[list[str], Any]:
    """(the models, their natural-scale ratings β) of the plain Bradley-Terry fit; ``weights`` per match (default 1)."""
    import numpy as np

    pairs, outcomes, models = _arrays(matches)
    w = np.ones(len(outcomes)) if weights is None else np.asarray(weights, dtype=float)
    return models, _newton(len(models), pairs, np.zeros((len(outcomes), 0)), outcomes, w, 0.0)


def scaled(ratings: Any, models: Sequence[str], baseline: str | None) -> Any:
    """``400 · β + 1000``, shifted so that ``baseline`` (when among ``models``) is at 1000 (per row of a 2-D array)."""
    out = ratings * SCALE + INIT
    if baseline is not None and baseline in models:
        i = list(models).index(baseline)
        out = out + (INIT - out[..., [i]])
    return out


def bt_ratings(matches: Sequence[Mapping[str, Any]], baseline: str | None = None) -> dict[str, float]:
    """Each model's Bradley-Terry rating on the Elo scale (see :func:`scaled`)."""
    models, beta = fit_bt(matches)
    return {m: float(v) for m, v in zip(models, scaled(beta, models, baseline))}


def _feature(conv: Any, name: str, where: str) -> float:
    if not isinstance(conv, Mapping) or name not in conv:
        raise InputFileError(f"Bradley-Terry style control: {where} has no conv_metadata[{name!r}]")
    value = conv[name]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, Mapping):
        return float(sum(value.values()))
    raise InputFileError(f"Bradley-Terry style control: {where}: conv_metadata[{name!r}] must be an integer or a dict of "
                         f"counts, got {value!r:.80}")


def style_features(matches: Sequence[Mapping[str, Any]], groups: Sequence[str] = (), normalize: bool = True) -> tuple[Any, list[str]]:
    """The features of each match (a row each) and their names: the style features, then the groups' one-hot columns.

    A style feature is ``(x_a − x_b) / (x_a + x_b + 1)``, the counts truncated to
    32-bit integers as OpenCompass stores them; ``normalize`` makes each mean 0,
    standard deviation 1 over the matches.  Each group column ``g`` adds one
    column per value, ``g_<value>`` in sorted order, 1 where the match has it.
    """
    import numpy as np

    n = len(matches)
    counts = np.zeros((2, len(STYLE_FEATURES), n))
    for i, m in enumerate(matches):
        for s, suffix in enumerate(("_a", "_b")):
            for j, name in enumerate(STYLE_FEATURES):
                counts[s, j, i] = _feature(m.get("conv_metadata"), name + suffix, f"match {i}")
    counts = counts.astype(np.int32).astype(float)
    diff = (counts[0] - counts[1]) / (counts[0] + counts[1] + 1.0)
    if normalize:
        diff = (diff - diff.mean(axis=1, keepdims=True)) / diff.std(axis=1, keepdims=True)
    columns = [diff.T]
    names = list(STYLE_FEATURES)
    for group in groups:
        values = sorted({m.get(group) for m in matches}, key=lambda v: (str(type(v)), v))
        for value in values:
            names.append(f"{group}_{value}")
            columns.append(np.array([[1.0 if m.get(group) == value else 0.0] for m in matches]))
    return np.hstack(columns), names


def fit_style_control(matches: Sequence[Mapping[str, Any]], groups: Sequence[str] = (), normalize: bool = True,
                      reg: float = 0.5, picks: Any = None) -> tuple[list[str], Any, list[str], Any]:
    """(the models, their natural-scale ratings, the feature names, their coefficients) of the style-controlled fit,
    on the matches ``picks`` indexes (default: all), the features computed over all of them."""
    import numpy as np

    pairs, outcomes, models = _arrays(matches)
    features, names = style_features(matches, groups, normalize)
    if picks is not None:
        pairs, features, outcomes = pairs[picks], features[picks], outcomes[picks]
    theta = _newton(len(models), pairs, features, outcomes, np.ones(len(outcomes)), reg)
    return models, theta[: len(models)], names, theta[len(models):]


def bootstrap_bt(matches: Sequence[Mapping[str, Any]], rounds: int, seed: int = 0) -> tuple[list[str], Any]:
    """(the models, one row of natural-scale ratings per round): each round the counts of the distinct (pair, outcome)
    are drawn from a multinomial over their shares with ``default_rng(seed)`` and the fit weighted by them."""
    import numpy as np

    pairs, outcomes, models = _arrays(matches)
    schedule = np.column_stack([pairs, (outcomes * 2).astype(np.intp)])
    distinct, counts = np.unique(schedule, return_counts=True, axis=0)
    rng = np.random.default_rng(seed=seed)
    draws = rng.multinomial(n=len(matches), pvals=counts / counts.sum(), size=rounds)
    out = np.zeros((rounds, len(models)))
    none = np.zeros((len(distinct), 0))
    for r in range(rounds):
        out[r] = _newton(len(models), distinct[:, :2], none, distinct[:, 2] / 2.0, draws[r] / len(matches), 0.0)
    return models, out


def bootstrap_style_control(matches: Sequence[Mapping[str, Any]], rounds: int, groups: Sequence[str] = (),
                            normalize: bool = True, reg: float = 0.5, seed: int = 0) -> tuple[list[str], Any, Any]:
    """(the models, one row of natural-scale ratings per round, the coefficients' mean over the rounds): each round
    the matches resampled with ``default_rng(seed)``."""
    import numpy as np

    rng = np.random.default_rng(seed=seed)
    picks = rng.integers(0, len(matches), size=(rounds, len(matches)))
    ratings, coefs = [], []
    models: list[str] = []
    for row in picks:
        models, beta, _, coef = fit_style_control(matches, groups, normalize, reg, row)
        ratings.append(beta)
        coefs.append(coef)
    return models, np.array(ratings), np.array(coefs).mean(axis=0)
