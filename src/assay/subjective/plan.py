"""Planning the judge tasks of a run config, as OpenCompass 0.5.4's ``SubjectiveNaivePartitioner`` plans them.

A dataset is subjective when its evaluator is ``LMEvaluator``
(:func:`is_subjective`).  Its tasks come from:

* the models: ``eval.partitioner.models`` when given and not empty, else the
  config's ``models``;
* the judges: ``eval.partitioner.judge_models`` (OpenCompass's place for
  them), else a top-level ``judge_models``; every task is planned once per
  judge;
* the dataset's ``mode``: ``singlescore`` (one task per model),
  ``allpair`` (every pair of models, in config order), ``m2n`` (each of the
  dataset's ``base_models`` with each model, a pair of a model with itself
  left out, and of two pairs with the same two abbrs, in either order, the
  first kept); ``fixed`` plans nothing in OpenCompass 0.5.4 (its partitioner
  fails on it) and is refused here with that reason;
* the dataset's ``infer_order`` (``random``, ``double`` or none), handed to
  the task.

A task's result is ``results/<models>_judged-by--<judge>/<dataset>.json``
(:func:`assay.rundir.judged.judged_abbr`); the base model of a pair comes
first.  A meta review (``meta_judge_model``) is not planned: the library's
configs use none, and a config that asks for one is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

from assay._dataclass import FACTORY, DataclassMethods
from assay.config.abbr import dataset_abbr, model_abbr
from assay.config.loader import RunConfig
from assay.errors import ConfigError

__all__ = ["MODES", "SubjectiveTask", "is_subjective", "judge_models", "plan_subjective"]

#: The dataset modes OpenCompass's subjective partitioner accepts.
MODES = ("singlescore", "allpair", "m2n", "fixed")
INFER_ORDERS = ("random", "double", None)


def _type_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec.rsplit(".", 1)[-1]
    return str(getattr(spec, "__name__", ""))


def is_subjective(dataset: dict[str, Any]) -> bool:
    """Whether a dataset is scored by a judge through the subjective task (its evaluator is ``LMEvaluator``).

    >>> is_subjective(dict(eval_cfg=dict(evaluator=dict(type='LMEvaluator'))))
    True
    >>> is_subjective(dict(eval_cfg=dict(evaluator=dict(type='AccEvaluator'))))
    False
    """
    eval_cfg = dataset.get("eval_cfg")
    evaluator = eval_cfg.get("evaluator") if isinstance(eval_cfg, dict) else None
    return isinstance(evaluator, dict) and _type_name(evaluator.get("type")) == "LMEvaluator"


@dataclass(init=False, repr=False, eq=False)
class SubjectiveTask(DataclassMethods):
    """One judge task: a model (or a pair: base first) on one dataset, judged by one judge."""

    models: tuple[dict[str, Any], ...]
    dataset: dict[str, Any]
    dataset_abbr: str
    judge: dict[str, Any]
    judge_abbr: str
    infer_order: str | None
    config: RunConfig
    #: the dataset's ``given_pred``: ``[{'abbr', 'path'}]``, models whose answers are read from ``path``
    given_pred: list[dict[str, Any]] = field(default_factory=list)

    def __init__(
        self,
        models: tuple[dict[str, Any], ...],
        dataset: dict[str, Any],
        dataset_abbr: str,
        judge: dict[str, Any],
        judge_abbr: str,
        infer_order: str | None,
        config: RunConfig,
        given_pred: list[dict[str, Any]] = FACTORY,
    ) -> None:
        self.models = models
        self.dataset = dataset
        self.dataset_abbr = dataset_abbr
        self.judge = judge
        self.judge_abbr = judge_abbr
        self.infer_order = infer_order
        self.config = config
        self.given_pred = [] if given_pred is FACTORY else given_pred

    @property
    def model_abbrs(self) -> list[str]:
        return [model_abbr(m) for m in self.models]

    @property
    def folder(self) -> str:
        """The results folder: ``<models>_judged-by--<judge>``."""
        from assay.rundir.judged import judged_abbr

        return judged_abbr(self.model_abbrs, self.judge_abbr)

    @property
    def name(self) -> str:
        return f"{self.folder}/{self.dataset_abbr}"


def judge_models(config: RunConfig) -> list[dict[str, Any]]:
    """The judge models of a config: ``eval.partitioner.judge_models``, else ``judge_models``."""
    partitioner = config.eval.get("partitioner")
    partitioner = partitioner if isinstance(partitioner, dict) else {}
    judges = partitioner.get("judge_models") or config.variables.get("judge_models") or []
    if isinstance(judges, dict):
        judges = [judges]
    if not isinstance(judges, (list, tuple)) or not all(isinstance(j, dict) for j in judges):
        raise ConfigError(f"{config.path}: judge_models must be a list of model configs, got {judges!r:.100}")
    return list(judges)


def _pairs(mode: str, models: list[dict[str, Any]], base_models: list[dict[str, Any]], where: str) -> list[tuple[dict[str, Any], ...]]:
    if mode == "allpair":
        if len(models) < 2:
            raise ConfigError(f"{where}: mode='allpair' compares models in pairs and needs two models or more, got {len(models)}")
        return [tuple(c) for c in combinations(models, 2)]
    if mode == "m2n":
        if not base_models:
            raise ConfigError(f"{where}: mode='m2n' needs base_models (the models every model is compared with)")
        seen: set[tuple[str, str]] = set()
        pairs: list[tuple[dict[str, Any], ...]] = []
        for base, other in product(base_models, models):
            if base == other:
                continue
            names = (model_abbr(base), model_abbr(other))
            key = (min(names), max(names))
            if names[0] == names[1] or key in seen:
                continue
            seen.add(key)
            pairs.append((base, other))
        return pairs
    raise ConfigError(
        f"{where}: mode='fixed' plans no task: OpenCompass 0.5.4's subjective partitioner fails on it "
        "(it returns no model combination); use mode='m2n' with base_models"
    )


def plan_subjective(config: RunConfig) -> list[SubjectiveTask]:
    """The judge tasks of the config's subjective datasets, in OpenCompass's order (dataset, models, judge).

    Raises:
        ConfigError: naming the config and the dataset, for subjective datasets without judge models,
            a meta review, a mode or ``infer_order`` OpenCompass does not accept, or ``base_models``
            that are not model configs.
    """
    datasets = [d for d in config.datasets if is_subjective(d)]
    if not datasets:
        return []
    partitioner = config.eval.get("partitioner")
    partitioner = partitioner if isinstance(partitioner, dict) else {}
    if partitioner.get("meta_judge_model"):
        raise ConfigError(f"{config.path}: eval.partitioner.meta_judge_model (a meta review of the judgements) is not supported")
    judges = judge_models(config)
    if not judges:
        raise ConfigError(
            f"{config.path}: {len(datasets)} dataset(s) are judged by an LLM (LMEvaluator), but the config names no "
            "judge: give eval.partitioner.judge_models (or judge_models) a list of judge model configs"
        )
    models = list(partitioner.get("models") or config.models)
    tasks: list[SubjectiveTask] = []
    for dataset in datasets:
        abbr = dataset_abbr(dataset)  # OpenCompass's derivation, '/' never part of a file name
        where = f"{config.path}: dataset {abbr!r}"
        mode = dataset.get("mode")
        if mode not in MODES:
            raise ConfigError(f"{where}: mode={mode!r}; a judged dataset needs mode one of {', '.join(MODES)}")
        infer_order = dataset.get("infer_order")
        if infer_order not in INFER_ORDERS:
            raise ConfigError(f"{where}: infer_order={infer_order!r}; expected 'random', 'double' or none")
        base = dataset.get("base_models") or []
        if isinstance(base, dict):
            base = [base]
        if not isinstance(base, (list, tuple)) or not all(isinstance(b, dict) and "abbr" in b for b in base):
            raise ConfigError(f"{where}: base_models must be a list of model configs with an abbr, got {base!r:.100}")
        combos: list[tuple[dict[str, Any], ...]]
        combos = [(m,) for m in models] if mode == "singlescore" else _pairs(str(mode), models, list(base), where)
        given = dataset.get("given_pred") or []
        if not isinstance(given, (list, tuple)) or not all(isinstance(g, dict) and "abbr" in g and "path" in g for g in given):
            raise ConfigError(f"{where}: given_pred must be a list of dict(abbr=..., path=...), got {given!r:.100}")
        for combo in combos:
            for judge in judges:
                tasks.append(SubjectiveTask(tuple(combo), dataset, abbr, judge, model_abbr(judge), infer_order, config, list(given)))
    return tasks
