"""Planning: one :class:`EvalTask` per (model, dataset) of a config."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr
from assay.config.loader import RunConfig
from assay.config.validate import validate_datasets, validate_models
from assay.workdir import RunDir

__all__ = ["DEFAULT_SHARD_SIZE", "EvalOptions", "EvalTask", "plan_tasks", "unavailable_components", "unavailable_message"]


#: Default number of samples per shard of a sample-decomposable evaluation.
DEFAULT_SHARD_SIZE = 10_000


@dataclass(frozen=True)
class EvalOptions:
    """Options shared by every task of one invocation.

    Attributes:
        run_dir: the run directory results are written to.
        dump_details: keep per-sample details in result files.
        force: recompute every result, even when its inputs are unchanged.
        shard_size: a dataset with more samples than this, scored by a
            sample-decomposable evaluator, is split into shards of this many
            samples (each holding every run of its samples) that are scored in
            parallel and merged; ``0`` never splits.
        prepare_stats: after writing a result, also compute what the
            summary's statistics and HTML report want of it, while its
            predictions are in memory (see :func:`assay.stats._tasks.prepare`);
            for ``assay run``, whose summary would otherwise read every
            prediction file again.

    >>> EvalOptions(RunDir(Path('out/run'))).shard_size
    10000
    """

    run_dir: RunDir
    dump_details: bool = True
    force: bool = False
    shard_size: int = DEFAULT_SHARD_SIZE
    prepare_stats: bool = False


@dataclass
class EvalTask:
    """Scoring one model on one dataset."""

    model: dict[str, Any]
    dataset: dict[str, Any]
    model_abbr: str
    dataset_abbr: str
    prediction_dir: Path
    config: RunConfig
    #: Position of the dataset in ``config.datasets`` (tasks of one dataset share its test set).
    dataset_index: int = 0

    @property
    def name(self) -> str:
        return f"{self.model_abbr}/{self.dataset_abbr}"


def plan_tasks(config: RunConfig, run_dir: RunDir) -> list[EvalTask]:
    """Validate the config and list its (model, dataset) tasks in config order.

    A model's predictions are read from ``<run_dir>/predictions/<model_abbr>/``,
    or from the folder its ``predictions`` key names (relative to the working
    directory if it exists there, else to the config file's folder).
    """
    validate_models(config)
    validate_datasets(config)
    tasks: list[EvalTask] = []
    for model in config.models:
        m_abbr = model_abbr(model)
        folder = model.get("predictions")
        pred_dir = config.resolve_path(folder) if isinstance(folder, str) else run_dir.prediction_dir(m_abbr)
        for d_index, dataset in enumerate(config.datasets):
            tasks.append(EvalTask(model, dataset, m_abbr, dataset_abbr(dataset), pred_dir, config, d_index))
    return tasks


def unavailable_components(dataset: dict[str, Any], model: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """``(config key, dotted name)`` of each OpenCompass component of a task that assay does not implement.

    Looks through the dataset config (its loader ``type``, ``eval_cfg``, loader
    options; not ``infer_cfg``, which evaluation never runs) and the model's
    ``pred_postprocessor`` for stand-ins (see :mod:`assay.config.compat`) that no
    registered implementation replaces.  A task with any cannot run.

    >>> from assay.config.compat import _standin
    >>> ds = dict(type=_standin('opencompass.datasets.x.XDataset', 'c'), eval_cfg=dict(evaluator=dict(type=dict)))
    >>> unavailable_components(ds)
    [('type', 'opencompass.datasets.x.XDataset')]
    """
    from assay.config.compat import is_standin, standin_for_type_name, standin_name
    from assay.registry import replacement

    found: list[tuple[str, str]] = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, str) and (key == "type" or key.endswith(".type")):
            value = standin_for_type_name(value)  # a name OpenCompass registers, given as a string
        if is_standin(value):
            if replacement(value) is None:
                found.append((key, standin_name(value)))
        elif isinstance(value, dict):
            for k, v in value.items():
                if not (key == "" and k in ("infer_cfg", "reader_cfg")):
                    walk(v, f"{key}.{k}" if key else str(k))
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                walk(v, f"{key}[{i}]")

    walk(dataset, "")
    if model is not None:
        walk(model.get("pred_postprocessor"), "model pred_postprocessor")
    return found


def unavailable_message(task: EvalTask) -> str | None:
    """Why a task cannot run (its components assay does not implement), or ``None``."""
    from assay.config.compat import unavailable_message as how

    missing = unavailable_components(task.dataset, task.model)
    if not missing:
        return None
    parts = [f"{key} is {dotted}" for key, dotted in missing]
    return f"{task.name} cannot run: {'; '.join(parts)}. {how(sorted({d for _, d in missing}))}"
