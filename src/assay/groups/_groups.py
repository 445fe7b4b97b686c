"""Summary groups: typed, validated aggregates over datasets and earlier groups (R-7.3).

A group config is a plain dict::

    dict(name='grp', subsets=[['sub_a', 'accuracy'], ['sub_b', 'accuracy']],
         weights={'sub_a': 1, 'sub_b': 3})

:func:`parse_summary_groups` turns a list of such dicts into :class:`SummaryGroup`
objects and reports every mistake at once, before any result is read.
:func:`apply_groups` computes the groups for every model.

Behaviour where OpenCompass is silent or fragile:

* Any missing input makes the group an error for that model (``missing
  metrics: [...]``), also when *every* input is missing.  A group none of whose
  subsets names a dataset of the run or an earlier group is not applicable to
  the run and is skipped (a shared summarizer file may define groups for many
  benchmarks).
* The aggregation is OpenCompass's: decided by the output's name
  (:func:`aggregation_of`), which ``metric`` gives, else the first of
  ``std``, ``sum``, ``weights``, ``harmonic_mean`` that is set.  A group with
  ``std=True`` (or ``sum``, ``harmonic_mean``) *and* another ``metric`` is
  thus an average under that name, as there; a warning names the keys left
  unused.

The arithmetic is OpenCompass 0.5.4's, so that every cell prints as OpenCompass
prints it (see :func:`aggregate`): sums run left to right in subset order (a
weighted sum in the order of the ``weights`` dict), a mean is that sum divided by
the count, and ``harmonic_mean`` over a value ≤ 0 clamps every value to at
least 1, with a warning.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from assay._dataclass import FACTORY, FrozenMethods
from assay.errors import ConfigError
from assay.groups._expr import Transform, TransformError, compile_transform
from assay.groups._model import CellMark, Scores, SummaryIssue

__all__ = [
    "GROUP_KEYS",
    "OWN_SOURCE",
    "Aggregation",
    "Subset",
    "SummaryGroup",
    "aggregate",
    "apply_groups",
    "group_source",
    "left_sum",
    "parse_summary_groups",
]

logger = logging.getLogger(__name__)

Aggregation = Literal["mean", "std", "sum", "harmonic_mean"]

#: The keys a summary-group dict may have.
GROUP_KEYS: tuple[str, ...] = ("name", "subsets", "metric", "weights", "std", "sum", "harmonic_mean", "transforms")


@dataclass(init=False, repr=False, eq=False)
class Subset(FrozenMethods):
    """One input of a group: ``[abbr, metric]`` (``metric`` set) or a bare abbr (``metric`` is ``None``)."""

    abbr: str
    metric: str | None = None

    def __init__(self, abbr: str, metric: str | None = None) -> None:
        self.abbr = abbr
        self.metric = metric

    @property
    def label(self) -> str:
        """``abbr@metric`` for a pair, ``abbr`` for a bare string."""
        return self.abbr if self.metric is None else f"{self.abbr}@{self.metric}"


@dataclass(init=False, repr=False, eq=False)
class SummaryGroup(FrozenMethods):
    """A validated summary group.

    Attributes:
        name: the abbr of the new row(s).
        subsets: the inputs, all pairs or all bare abbrs.
        metric: the name of the default aggregate (``naive_average``, …, or the configured ``metric``).
        aggregation: ``mean`` (weighted when ``weights``), ``std`` (population), ``sum`` or ``harmonic_mean``.
        weights: ``abbr`` or ``abbr@metric`` → weight; empty means unweighted.
        transforms: ``abbr`` → expression applied first to each input from that abbr (OpenCompass applies
            no ``abbr@metric`` key: such keys are left out, with a warning).

    >>> g = SummaryGroup.from_config({'name': 'g', 'subsets': ['a', 'b'], 'weights': {'a': 1, 'b': 3}})
    >>> g.metric, g.aggregation, g.bare
    ('weighted_average', 'mean', True)
    """

    name: str
    subsets: tuple[Subset, ...]
    metric: str
    aggregation: Aggregation = "mean"
    weights: Mapping[str, float] = field(default_factory=dict)
    transforms: Mapping[str, Transform] = field(default_factory=dict)

    def __init__(
        self,
        name: str,
        subsets: tuple[Subset, ...],
        metric: str,
        aggregation: Aggregation = "mean",
        weights: Mapping[str, float] = FACTORY,
        transforms: Mapping[str, Transform] = FACTORY,
    ) -> None:
        self.name = name
        self.subsets = subsets
        self.metric = metric
        self.aggregation = aggregation
        self.weights = {} if weights is FACTORY else weights
        self.transforms = {} if transforms is FACTORY else transforms

    @property
    def bare(self) -> bool:
        """True when the subsets are bare abbrs (aggregate shared metrics and primary metrics)."""
        return self.subsets[0].metric is None

    @property
    def abbrs(self) -> list[str]:
        """The subsets' abbrs, in order, each once."""
        return list(dict.fromkeys(s.abbr for s in self.subsets))

    def weight_for(self, abbr: str, metric: str | None) -> float | None:
        """The weight of one input (``abbr@metric`` first, then ``abbr``), or ``None``."""
        if metric is not None:
            w = self.weights.get(f"{abbr}@{metric}")
            if w is not None:
                return w
        return self.weights.get(abbr)

    def transform_for(self, abbr: str, metric: str | None) -> Transform | None:
        """The transform of one input (``abbr@metric`` first, then ``abbr``), or ``None``."""
        if metric is not None:
            t = self.transforms.get(f"{abbr}@{metric}")
            if t is not None:
                return t
        return self.transforms.get(abbr)

    @classmethod
    def from_config(cls, cfg: Any, *, where: str = "summary group") -> SummaryGroup:
        """Build a group from its config dict.

        Raises:
            ConfigError: naming the group and the offending key, with every problem found.
        """
        problems: list[str] = []
        group = _parse_group(cfg, where, problems)
        if problems or group is None:
            raise ConfigError(_join_problems(problems))
        return group


def _join_problems(problems: list[str]) -> str:
    if len(problems) == 1:
        return problems[0]
    return f"{len(problems)} problems in the summarizer config:\n" + "\n".join(f"  - {p}" for p in problems)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _parse_group(cfg: Any, where: str, problems: list[str]) -> SummaryGroup | None:
    if not isinstance(cfg, Mapping):
        problems.append(f"{where} must be a dict with 'name' and 'subsets', got {type(cfg).__name__}: {cfg!r:.80}")
        return None
    name = cfg.get("name")
    if not isinstance(name, str) or not name:
        problems.append(f"{where}: key 'name' must be a non-empty string, got {name!r}")
        label = where
        name = ""
    else:
        label = f"{where} {name!r}"
    start = len(problems)

    for key in cfg:
        if key not in GROUP_KEYS:
            import difflib

            close = difflib.get_close_matches(str(key), GROUP_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{label}: unknown key {key!r}{hint}; allowed keys: {', '.join(GROUP_KEYS)}")

    subsets = _parse_subsets(cfg.get("subsets"), label, problems)

    flags: dict[str, bool] = {}
    for key in ("std", "sum", "harmonic_mean"):
        value = cfg.get(key, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            problems.append(f"{label}: key {key!r} must be True or False, got {value!r}")
            value = False
        flags[key] = value
    weights = _parse_weights(cfg.get("weights"), subsets, label, problems)
    transforms = _parse_transforms(cfg.get("transforms"), subsets, label, problems)

    metric = cfg.get("metric")
    if metric is not None and (not isinstance(metric, str) or not metric):
        problems.append(f"{label}: key 'metric' must be a non-empty string (the output name), got {metric!r}")
        metric = None

    # The output's name: `metric`, else the first of std, sum, weights, harmonic_mean that is set.
    if metric is not None:
        name_of = metric
    elif flags["std"]:
        name_of = "standard_deviation"
    elif flags["sum"]:
        name_of = "sum"
    elif weights:
        name_of = "weighted_average"
    elif flags["harmonic_mean"]:
        name_of = "harmonic_mean"
    else:
        name_of = "naive_average"
    aggregation = aggregation_of(name_of)
    _warn_ignored(label, flags, weights, metric, aggregation)

    if len(problems) > start or not subsets or not name:
        return None
    return SummaryGroup(
        name=name,
        subsets=tuple(subsets),
        metric=name_of,
        aggregation=aggregation,
        weights=weights,
        transforms=transforms,
    )


def aggregation_of(metric: str) -> Aggregation:
    """The aggregation OpenCompass 0.5.4 computes for a group whose output is named ``metric``.

    OpenCompass decides by the name, not by the ``std``/``sum``/``harmonic_mean``
    keys: ``standard_deviation`` is the standard deviation, ``harmonic_mean``
    the harmonic mean, ``sum`` the (weighted) sum, any other name the
    (weighted) mean.  Without ``metric`` the keys choose the name, so the two
    agree; with it, ``metric='total'`` and ``sum=True`` is an average, and
    ``metric='sum'`` without ``sum`` is a sum.

    >>> aggregation_of('sum'), aggregation_of('my_average'), aggregation_of('standard_deviation')
    ('sum', 'mean', 'std')
    """
    if metric == "standard_deviation":
        return "std"
    if metric == "harmonic_mean":
        return "harmonic_mean"
    if metric == "sum":
        return "sum"
    return "mean"


def _warn_ignored(label: str, flags: Mapping[str, bool], weights: Mapping[str, float], metric: str | None,
                  aggregation: Aggregation) -> None:
    """Say which keys the aggregation OpenCompass computes leaves unused."""
    chosen = [k for k, v in flags.items() if v]
    computed = {"std": "the standard deviation", "harmonic_mean": "the harmonic mean",
                "sum": "the weighted sum" if weights else "the sum",
                "mean": "the weighted average" if weights else "the naive average"}[aggregation]
    ignored = [k for k in chosen if k != aggregation]
    if weights and aggregation in ("std", "harmonic_mean"):
        ignored.append("weights")
    if metric is not None and ignored:
        logger.warning("%s: metric=%r names the output, and OpenCompass computes %s under that name: keys %s are "
                       "ignored", label, metric, computed, ", ".join(repr(k) for k in ignored))
    elif ignored:
        logger.warning("%s: keys %r choose several aggregations; OpenCompass computes %s: keys %s are ignored",
                       label, [*chosen, *(["weights"] if weights else [])], computed, ", ".join(repr(k) for k in ignored))
    elif metric is not None and metric in ("sum", "standard_deviation", "harmonic_mean") and aggregation not in chosen:
        logger.warning("%s: metric=%r makes OpenCompass compute %s", label, metric, computed)


def _parse_subsets(value: Any, label: str, problems: list[str]) -> list[Subset]:
    if value is None:
        problems.append(f"{label}: key 'subsets' is required (a list of [abbr, metric] pairs or of abbrs)")
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
        problems.append(f"{label}: key 'subsets' must be a non-empty list, got {value!r:.80}")
        return []
    subsets: list[Subset] = []
    kinds: set[str] = set()
    for i, item in enumerate(value):
        if isinstance(item, str):
            if not item:
                problems.append(f"{label}: subsets[{i}] is an empty string")
                continue
            subsets.append(Subset(item))
            kinds.add("bare")
        elif isinstance(item, Sequence) and len(item) == 2 and all(isinstance(p, str) and p for p in item):
            subsets.append(Subset(item[0], item[1]))
            kinds.add("pair")
        else:
            problems.append(
                f"{label}: subsets[{i}] must be an abbr string or an [abbr, metric] pair of strings, got {item!r:.80}"
            )
    if len(kinds) > 1:
        problems.append(
            f"{label}: key 'subsets' mixes [abbr, metric] pairs and bare abbr strings; use one form "
            "(pairs select each input metric explicitly)"
        )
        return []
    return subsets


def _names_subset(key: str, subsets: list[Subset]) -> bool:
    for s in subsets:
        if key == s.abbr:
            return True
        if s.metric is not None and key == f"{s.abbr}@{s.metric}":
            return True
        if s.metric is None and key.startswith(f"{s.abbr}@"):
            return True
    return False


def _parse_weights(value: Any, subsets: list[Subset], label: str, problems: list[str]) -> dict[str, float]:
    if value is None or (isinstance(value, Mapping) and not value):
        return {}
    if not isinstance(value, Mapping):
        problems.append(f"{label}: key 'weights' must be a dict {{abbr: weight}}, got {type(value).__name__}")
        return {}
    weights: dict[str, float] = {}
    for key, w in value.items():
        if not isinstance(key, str):
            problems.append(f"{label}: weights key {key!r} must be a string (abbr or abbr@metric)")
            continue
        if not _is_number(w) or not math.isfinite(w) or w < 0:
            problems.append(f"{label}: weights[{key!r}] must be a finite number ≥ 0, got {w!r}")
            continue
        if subsets and not _names_subset(key, subsets):
            problems.append(f"{label}: weights key {key!r} names no subset of the group")
            continue
        weights[key] = float(w)
    if not subsets or len(weights) != len(value):
        return weights
    unweighted: list[str] = []
    for s in subsets:
        if s.metric is not None:
            ok = f"{s.abbr}@{s.metric}" in weights or s.abbr in weights
        else:
            ok = s.abbr in weights or any(k.startswith(f"{s.abbr}@") for k in weights)
        if not ok:
            unweighted.append(s.label)
    if unweighted:
        problems.append(f"{label}: key 'weights' gives no weight to subsets {unweighted!r}")
    elif subsets[0].metric is not None:
        total = math.fsum(w for s in subsets if (w := _lookup(weights, s)) is not None)
        if total <= 0:
            problems.append(f"{label}: key 'weights' sums to zero over the subsets")
    return weights


def _lookup(weights: Mapping[str, float], s: Subset) -> float | None:
    w = weights.get(s.label)
    return w if w is not None else weights.get(s.abbr)


def _parse_transforms(value: Any, subsets: list[Subset], label: str, problems: list[str]) -> dict[str, Transform]:
    if value is None or (isinstance(value, Mapping) and not value):
        return {}
    if not isinstance(value, Mapping):
        problems.append(
            f"{label}: key 'transforms' must be a dict {{abbr: 'expression in x'}}, got {type(value).__name__}"
        )
        return {}
    out: dict[str, Transform] = {}
    abbrs = {s.abbr for s in subsets}
    for key, source in value.items():
        if not isinstance(key, str) or (subsets and not _names_subset(key, subsets)):
            problems.append(f"{label}: transforms key {key!r} names no subset of the group")
            continue
        try:
            transform = compile_transform(source)
        except TransformError as exc:
            problems.append(f"{label}: transforms[{key!r}] = {source!r:.80} is rejected: {exc}")
            continue
        if key not in abbrs:
            # OpenCompass looks a transform up by the input's abbr alone: an `abbr@metric` key is never applied.
            logger.warning("%s: transforms key %r is not applied: OpenCompass applies a transform to every metric of "
                           "the subset named by its key, and no subset is named %r; key it by the abbr %r",
                           label, key, key, key.split("@")[0])
            continue
        out[key] = transform
    return out


def parse_summary_groups(
    configs: Any,
    *,
    dataset_abbrs: Collection[str] = (),
    where: str = "summarizer.summary_groups",
) -> list[SummaryGroup]:
    """Validate a ``summary_groups`` list and return typed groups.

    Checks every group (keys, subsets, weights, transforms) and the list as a
    whole: duplicate names, a name that is also a dataset abbr of the run, a
    subset naming the group itself or a group defined later.

    Raises:
        ConfigError: listing every problem, each naming the group and the key.

    >>> [g.name for g in parse_summary_groups([{'name': 'g', 'subsets': ['a', 'b']}])]
    ['g']
    >>> parse_summary_groups([{'name': 'g', 'subsets': ['g', 'b']}])
    Traceback (most recent call last):
    ...
    assay.errors.ConfigError: summarizer.summary_groups[0] 'g': key 'subsets' names the group itself
    """
    if configs is None:
        return []
    if isinstance(configs, (Mapping, str, bytes)) or not isinstance(configs, Sequence):
        raise ConfigError(f"{where} must be a list of group dicts, got {type(configs).__name__}")
    problems: list[str] = []
    groups: list[SummaryGroup | None] = []
    for i, cfg in enumerate(configs):
        groups.append(_parse_group(cfg, f"{where}[{i}]", problems))

    datasets = set(dataset_abbrs)
    first_index: dict[str, int] = {}
    for i, cfg in enumerate(configs):
        name = cfg.get("name") if isinstance(cfg, Mapping) else None
        if not isinstance(name, str) or not name:
            continue
        if name in first_index:
            problems.append(f"{where}[{i}] {name!r}: key 'name' repeats the name of {where}[{first_index[name]}]")
            continue
        first_index[name] = i
        if name in datasets:
            problems.append(f"{where}[{i}] {name!r}: key 'name' is also a dataset abbr of the run; rename the group")

    for i, group in enumerate(groups):
        if group is None:
            continue
        for abbr in group.abbrs:
            j = first_index.get(abbr)
            if j is None or abbr in datasets:
                continue
            if j == i:
                problems.append(f"{where}[{i}] {group.name!r}: key 'subsets' names the group itself")
            elif j > i:
                problems.append(
                    f"{where}[{i}] {group.name!r}: key 'subsets' uses group {abbr!r}, which is defined later "
                    f"({where}[{j}]); move {abbr!r} before it"
                )
    if problems:
        raise ConfigError(_join_problems(problems))
    return [g for g in groups if g is not None]


def left_sum(values: Iterable[float]) -> float:
    """The sum of ``values`` added one by one from the left, starting from the integer 0.

    This is what OpenCompass's summarizer computes with the built-in ``sum`` on
    Python 3.11; Python 3.12 made ``sum`` of floats compensated, and
    :func:`math.fsum` is exact, and both print differently in the last decimal
    now and then.

    >>> left_sum([0.1, 0.2, 0.3])
    0.6000000000000001
    >>> left_sum([])
    0
    """
    total: float = 0
    for value in values:
        total = total + value
    return total


def aggregate(
    values: Sequence[float],
    how: Aggregation = "mean",
    weights: Sequence[float] | None = None,
    weight_total: float | None = None,
) -> float:
    """Aggregate input values exactly as OpenCompass 0.5.4's summarizer does.

    Every sum is :func:`left_sum` in the order given (OpenCompass: subset
    order; for a weighted sum, the order of the ``weights`` dict, which the
    caller gives).

    * ``mean``: Σx/n; with ``weights``, Σw·x (terms with w = 0 skipped, so a
      non-finite value with weight 0 cannot poison it) divided by
      ``weight_total`` (OpenCompass divides by the sum of *all* the group's
      weights; the sum of ``weights`` when not given);
    * ``sum``: Σx, or Σw·x with weights;
    * ``std``: the population standard deviation, √(Σ(x−m)²/n) with m = Σx/n;
    * ``harmonic_mean``: n/Σ(1/x); when a value is ≤ 0, OpenCompass's clamp:
      n/Σ(1/max(x, 1)) over *every* value, with a warning.

    Raises:
        ValueError: no values, or weights summing to zero.

    >>> aggregate([60, 90])
    75.0
    >>> aggregate([60, 90], weights=[100, 200])
    80.0
    >>> aggregate([50, 70], 'std')
    10.0
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to aggregate")
    if how == "std":
        mean = left_sum(values) / n
        return math.sqrt(left_sum((v - mean) ** 2 for v in values) / n)
    if how == "harmonic_mean":
        if any(v <= 0 for v in values):
            logger.warning("harmonic mean over a value ≤ 0: every value is taken as at least 1, as OpenCompass does")
            return n / left_sum(1 / max(v, 1) for v in values)
        return n / left_sum(1 / v for v in values)
    if weights is not None:
        numerator = left_sum(v * w for v, w in zip(values, weights) if w != 0)
        if how == "sum":
            return numerator
        total = left_sum(weights) if weight_total is None else weight_total
        if total == 0:
            raise ValueError("the weights of the inputs sum to zero")
        return numerator / total
    total_values = left_sum(values)
    return total_values if how == "sum" else total_values / n


def apply_groups(scores: Scores, groups: Sequence[SummaryGroup]) -> None:
    """Compute every applicable group for every model, in order, and record them in ``scores``.

    A group's metrics are the same for every model: for pairs, its default
    metric; for bare abbrs, the metrics shared by all subsets (in the first
    subset's order) followed by the default metric, computed over each subset's
    primary metric.  A model missing any input gets ``missing metrics: [...]``.
    """
    known = set(scores.dataset_abbrs) | set(scores.metrics)
    for group in groups:
        if not any(abbr in known for abbr in group.abbrs):
            logger.debug("summary group %r skipped: none of its subsets is in this run", group.name)
            continue
        plan = _plan(scores, group)
        scores.metrics[group.name] = list(plan)
        modes = {scores.modes[a] for a in group.abbrs if a in scores.modes and scores.modes[a] != "-"}
        scores.modes[group.name] = modes.pop() if len(modes) == 1 else ("mixed" if modes else "-")
        scores.groups.append(group.name)
        known.add(group.name)
        prepared = _prepare(group, plan)
        for column in scores.columns:
            _compute_for_model(scores, group, plan, column, prepared)


class _Input(NamedTuple):
    """One input of one group metric, with what does not depend on the model resolved once."""

    abbr: str
    metric: str | None  # None: the abbr has no metric at all
    transform: Transform | None
    weight: float | None


def _plan(scores: Scores, group: SummaryGroup) -> dict[str, list[_Input]]:
    """Output metric → its inputs."""
    if not group.bare:
        pairs: dict[str, list[tuple[str, str | None]]] = {group.metric: [(s.abbr, s.metric) for s in group.subsets]}
    else:
        abbrs = [s.abbr for s in group.subsets]
        first = scores.metrics.get(abbrs[0], [])
        others = [set(scores.metrics.get(a, [])) for a in abbrs[1:]]
        shared = [m for m in first if all(m in o for o in others) and m != group.metric]
        pairs = {m: [(a, m) for a in abbrs] for m in shared}
        pairs[group.metric] = [(a, scores.primary_metric(a)) for a in abbrs]
    # An input listed twice counts once, at its first place (OpenCompass keys its scores by "abbr@metric").
    return {
        out: [_Input(a, m, group.transform_for(a, m), group.weight_for(a, m)) for a, m in dict.fromkeys(inputs)]
        for out, inputs in pairs.items()
    }


def _weight_place(group: SummaryGroup, inp: _Input) -> int:
    """The place in the ``weights`` dict of the key that weighs ``inp``."""
    keys = list(group.weights)
    label = f"{inp.abbr}@{inp.metric}"
    return keys.index(label) if label in group.weights else keys.index(inp.abbr)


def _fail(scores: Scores, group: SummaryGroup, column: str, message: str) -> None:
    scores.raw[column][group.name] = {"error": message}
    scores.cell_errors[(column, group.name)] = message
    scores.values[column].pop(group.name, None)
    scores.add_issue(SummaryIssue("error", message, model=column, dataset=group.name))


class _Prepared(NamedTuple):
    """What computing one group metric needs that does not depend on the model."""

    inputs: list[_Input]
    #: weighted groups: the inputs' summation order (places in the weights dict), their weights in it,
    #: the sum of all weights, and how many inputs come before the first one without a weight
    order: list[int] | None = None
    weights: list[float] | None = None
    weight_total: float | None = None
    unweighted: int | None = None


def _prepare(group: SummaryGroup, plan: dict[str, list[_Input]]) -> dict[str, _Prepared]:
    if not (group.weights and group.aggregation in ("mean", "sum")):
        return {out: _Prepared(inputs) for out, inputs in plan.items()}
    out: dict[str, _Prepared] = {}
    total = left_sum(group.weights.values())
    for metric, inputs in plan.items():
        unweighted = next((k for k, inp in enumerate(inputs) if inp.weight is None), None)
        if unweighted is not None:
            out[metric] = _Prepared(inputs, unweighted=unweighted)
            continue
        places = [_weight_place(group, inp) for inp in inputs]
        # OpenCompass sums the weighted terms in the order of its weights dict
        # and divides by the sum of all its weights.
        order = sorted(range(len(inputs)), key=places.__getitem__)
        out[metric] = _Prepared(inputs, order, [inputs[i].weight for i in order], total)  # type: ignore[misc]
    return out


def _missing(group: SummaryGroup, plan: dict[str, list[_Input]], model_values: Mapping[str, Any]) -> list[str]:
    """The group's inputs this model lacks: absent abbrs first (bare groups), then ``abbr@metric`` labels."""
    missing: list[str] = [a for a in group.abbrs if a not in model_values] if group.bare else []
    for inputs in plan.values():
        for inp in inputs:
            got = model_values.get(inp.abbr)
            if got is None and group.bare:
                continue  # listed by abbr above
            if got is None or inp.metric is None or inp.metric not in got:
                label = inp.abbr if inp.metric is None else f"{inp.abbr}@{inp.metric}"
                if label not in missing:
                    missing.append(label)
    return missing


def _compute_for_model(scores: Scores, group: SummaryGroup, plan: dict[str, list[_Input]], column: str,
                       prepared: dict[str, _Prepared] | None = None) -> None:
    model_values = scores.values[column]
    if prepared is None:
        prepared = _prepare(group, plan)
    try:  # every input's value, or the inputs this model lacks
        raw = [[model_values[inp.abbr][inp.metric] for inp in p.inputs] for p in prepared.values()]  # type: ignore[index]
    except (KeyError, TypeError):
        _fail(scores, group, column, f"missing metrics: {_missing(group, plan, model_values)!r}")
        return
    result: dict[str, float] = {}
    for (out_metric, p), xs in zip(prepared.items(), raw):
        inputs = p.inputs
        limit = len(inputs) if p.unweighted is None else p.unweighted + 1
        for k in range(limit):
            transform = inputs[k].transform
            if transform is not None:
                try:
                    xs[k] = transform(xs[k])
                except TransformError as exc:
                    _fail(scores, group, column, f"transform of {inputs[k].abbr}@{inputs[k].metric} failed: {exc}")
                    return
        if p.unweighted is not None:
            inp = inputs[p.unweighted]
            _fail(scores, group, column, f"weights give no weight to {inp.abbr}@{inp.metric}")
            return
        weighted = p.order is not None
        if weighted:
            xs = [xs[i] for i in p.order]  # type: ignore[union-attr]
        try:
            value = aggregate(xs, group.aggregation, p.weights if weighted else None, p.weight_total)
        except ValueError as exc:
            message = str(exc)
            if group.aggregation == "harmonic_mean" and "input " in message:
                bad = [f"{i.abbr}@{i.metric}={x!r}" for i, x in zip(inputs, xs) if x <= 0]
                message = f"{out_metric}: harmonic mean is undefined for values ≤ 0: {', '.join(bad)}"
            else:
                message = f"{out_metric}: {message}"
            _fail(scores, group, column, message)
            return
        if not math.isfinite(value):
            _fail(scores, group, column, f"{out_metric}: the aggregate is {value!r}")
            return
        result[out_metric] = value
    scores.set_values(column, group.name, result)
    scores.raw[column][group.name] = dict(result)
    if scores.marks:
        marks = _inherited_marks(scores, group, column)
        if marks:
            scores.marks[(column, group.name)] = marks
    if scores.sources:
        source = group_source(scores, group.abbrs, column)
        if source is None:
            scores.sources.pop((column, group.name), None)
        else:
            scores.sources[(column, group.name)] = source


#: The tool name of a value assay computed itself, in a group's sources.
OWN_SOURCE = "assay"


def group_source(scores: Scores, abbrs: Sequence[str], column: str) -> dict[str, Any] | None:
    """Where a group's value came from when another tool gave any of its inputs (through nested groups
    too): ``{"tools": [...], "mixed": bool, "from": {dataset: tool}}``, ``assay`` naming the inputs assay
    scored itself; ``None`` when assay scored every input.

    >>> s = Scores(columns=['m'], sources={('m', 'a'): {'tool': 'lm_eval'}})
    >>> group_source(s, ['a', 'b'], 'm')
    {'tools': ['lm_eval', 'assay'], 'mixed': True, 'from': {'a': 'lm_eval', 'b': 'assay'}}
    >>> group_source(s, ['b'], 'm') is None
    True
    """
    leaves: dict[str, str] = {}
    for abbr in abbrs:
        source = scores.sources.get((column, abbr))
        if source is None:
            leaves.setdefault(abbr, OWN_SOURCE)
        elif isinstance(source.get("from"), dict):
            for leaf, tool in source["from"].items():
                leaves.setdefault(str(leaf), str(tool))
        else:
            leaves.setdefault(abbr, str(source.get("tool")))
    tools = list(dict.fromkeys(leaves.values()))
    if tools == [OWN_SOURCE] or not tools:
        return None
    return {"tools": tools, "mixed": len(tools) > 1, "from": leaves}


def _inherited_marks(scores: Scores, group: SummaryGroup, column: str) -> list[CellMark]:
    """A group computed from marked cells is marked: per kind, the marked datasets it was computed from
    (through nested groups too), each counted once, and the sum of their counts."""
    by_kind: dict[str, dict[str, int | None]] = {}
    for abbr in group.abbrs:
        for mark in scores.marks.get((column, abbr), ()):
            leaves = by_kind.setdefault(mark.kind, {})
            for leaf, count in mark.sources or ((abbr, mark.count),):
                leaves.setdefault(leaf, count)
    marks = []
    for kind, leaves in by_kind.items():
        counts = list(leaves.values())
        total = None if any(c is None for c in counts) else sum(c for c in counts if c is not None)
        marks.append(CellMark(kind, total, f"computed from {', '.join(leaves)}", tuple(leaves.items())))
    return marks
