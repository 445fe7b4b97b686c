"""Up-front validation of a run config (R-2.6).

Every mistake found here is reported before any work starts, naming the config
file, the component (``datasets[2] 'gsm8k'``) and the offending key or value.
A mistake in the ``models`` list, or one that leaves a dataset without a name,
concerns the whole config (:class:`~assay.errors.ConfigError`); any other
mistake in one dataset fails only that dataset's tasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assay._dataclass import FrozenMethods
from assay.config.abbr import dataset_abbr, model_abbr
from assay.config.loader import RunConfig
from assay.datasets.reader import select_indices
from assay.errors import ConfigError, RegistryError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS, resolve_type

__all__ = ["DatasetCheck", "validate_datasets", "validate_models"]


def _components(config: RunConfig, key: str) -> list[tuple[str, dict[str, Any]]]:
    """``(where, component)`` for each entry of the ``key`` list (``"<file>: datasets[2] ('gsm8k')"``)."""
    items = config.variables.get(key)
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{config.path}: `{key}` must be a non-empty list of dicts, got {items!r:.80}")
    out = []
    for i, item in enumerate(items):
        abbr = item.get("abbr") if isinstance(item, dict) else None
        where = f"{config.path}: {key}[{i}]" + (f" ({abbr!r})" if abbr else "")
        if not isinstance(item, dict):
            raise ConfigError(f"{where}: expected a dict, got {type(item).__name__}")
        out.append((where, item))
    return out


def _check_postprocessor(cfg: Any, where: str) -> None:
    if cfg is None or cfg == {}:
        return
    if not isinstance(cfg, dict):
        raise ConfigError(f"{where}: expected dict(type=...), got {cfg!r}")
    if "type" not in cfg:
        raise ConfigError(f"{where}: no 'type' key in {cfg!r}")
    resolve_type(cfg["type"], TEXT_POSTPROCESSORS, key=f"{where}.type")


def validate_models(config: RunConfig) -> list[str]:
    """Check the ``models`` list; return the model abbrs in order."""
    abbrs: list[str] = []
    datasets = config.variables.get("datasets")
    if not config.variables.get("models") and isinstance(datasets, list) and datasets and all(
        isinstance(d, dict) and isinstance(d.get("predictions"), dict) for d in datasets
    ):
        return abbrs  # every dataset takes its replies from another tool, whose models are the run's
    for where, m in _components(config, "models"):
        try:
            abbr = model_abbr(m)
            _check_postprocessor(m.get("pred_postprocessor"), f"{where} pred_postprocessor")
        except (ConfigError, RegistryError) as exc:
            raise ConfigError(f"{where}: {exc}") from None
        preds = m.get("predictions")
        if preds is not None and not isinstance(preds, str):
            raise ConfigError(f"{where}: 'predictions' must be a folder path, got {preds!r}")
        if abbr in abbrs:
            raise ConfigError(f"{where}: model abbr {abbr!r} is used twice; results would overwrite each other")
        abbrs.append(abbr)
    return abbrs


@dataclass(init=False, repr=False, eq=False)
class DatasetCheck(FrozenMethods):
    """The check of one entry of ``datasets``.

    Attributes:
        abbr: its name (its ``abbr``, else derived as OpenCompass derives it).
        problem: why its tasks cannot run (``''`` when they can); the other
            datasets' tasks run all the same.
        repeats: the index of an earlier entry with the same abbr and the same
            config: this entry is the same tasks again and is not planned.
    """

    abbr: str
    problem: str = ""
    repeats: int | None = None

    def __init__(self, abbr: str, problem: str = "", repeats: int | None = None) -> None:
        self.abbr = abbr
        self.problem = problem
        self.repeats = repeats


def validate_datasets(config: RunConfig) -> list[DatasetCheck]:
    """Check the ``datasets`` list for evaluation; one :class:`DatasetCheck` per entry, in order.

    A mistake in one dataset (no loader ``type``, an evaluator name nothing
    registers, a ``reader_cfg`` that is not a dict, ``k`` above ``n``, …) is
    that dataset's problem: its tasks cannot run, the others can.  Datasets
    that share an abbr would share one prediction and one result file: an
    entry that repeats an earlier one exactly (same abbr, same config) is the
    same tasks and is planned once; entries that differ are each a problem,
    since the predictions under that name cannot be told apart.

    Raises:
        ConfigError: ``datasets`` is not a non-empty list of dicts, or an entry
            has no ``abbr`` and no ``path`` to derive one from.
    """
    import json

    from assay.config.dump import plainify

    entries = _components(config, "datasets")
    abbrs: list[str] = []
    for where, d in entries:
        try:
            abbrs.append(dataset_abbr(d))
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    checks: list[DatasetCheck] = []
    first: dict[str, int] = {}
    plain: dict[int, str] = {}

    def same(i: int, j: int) -> bool:
        if entries[i][1] is entries[j][1]:
            return True
        for k in (i, j):
            if k not in plain:
                plain[k] = json.dumps(plainify(entries[k][1]), sort_keys=True, default=repr)
        return plain[i] == plain[j]

    users: dict[str, list[int]] = {}
    for i, abbr in enumerate(abbrs):
        users.setdefault(abbr, []).append(i)
    for i, ((where, d), abbr) in enumerate(zip(entries, abbrs)):
        others = users[abbr]
        if len(others) > 1:
            if abbr in first and same(first[abbr], i):
                checks.append(DatasetCheck(abbr, repeats=first[abbr]))
                continue
            first.setdefault(abbr, i)
            distinct = [k for k in others if k == first[abbr] or not same(first[abbr], k)]
            if len(distinct) > 1:
                listed = ", ".join(f"datasets[{k}]" for k in distinct)
                checks.append(DatasetCheck(abbr, (
                    f"{where}: dataset abbr {abbr!r} is used by {listed} with different configs: they would share one "
                    "prediction file and one result file, so neither can be scored; give each its own abbr"
                )))
                continue
        problem = _dataset_problem(d)
        checks.append(DatasetCheck(abbr, f"{where}: {problem}" if problem else ""))
    return checks


def _dataset_problem(d: dict[str, Any]) -> str:
    """Why one dataset's tasks cannot run (``''``: they can)."""
    try:
        if "type" in d:
            resolve_type(d["type"], LOAD_DATASET, key="type")
        elif not isinstance(d.get("predictions"), dict):  # replies of another tool: references from its logged targets
            raise ConfigError("no loader 'type'")
        reader = d.get("reader_cfg") or {}
        if not isinstance(reader, dict):
            raise ConfigError(f"reader_cfg must be a dict, got {reader!r:.200}")
        unknown = set(reader) - {"input_columns", "output_column", "train_split", "test_split", "train_range", "test_range"}
        if unknown:
            raise ConfigError(f"reader_cfg has unknown keys {sorted(unknown)}")
        select_indices(0, reader.get("test_range"))
        n, k = d.get("n", 1), d.get("k", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ConfigError(f"n={n!r} must be a positive integer")
        ks = [k] if isinstance(k, int) else k
        if not isinstance(ks, (list, tuple)) or not ks or not all(isinstance(x, int) and x >= 1 for x in ks):
            raise ConfigError(f"k={k!r} must be a positive integer or a list of them")
        if max(ks) > n and n > 1:
            raise ConfigError(f"k={k!r} exceeds n={n}")
        eval_cfg = d.get("eval_cfg")
        if not isinstance(eval_cfg, dict):
            raise ConfigError("no eval_cfg dict")
        evaluator = eval_cfg.get("evaluator")
        if not isinstance(evaluator, dict) or "type" not in evaluator:
            raise ConfigError(f"eval_cfg.evaluator must be dict(type=...), got {evaluator!r:.200}")
        evaluator_type = resolve_type(evaluator["type"], ICL_EVALUATORS, key="eval_cfg.evaluator.type")
        check = getattr(evaluator_type, "check_config", None)  # an evaluator's own check of its arguments
        wrong = check(evaluator) if callable(check) else ""
        if wrong:
            raise ConfigError(f"eval_cfg.evaluator: {wrong}")
        _check_postprocessor(evaluator.get("pred_postprocessor"), "eval_cfg.evaluator.pred_postprocessor")
        _check_postprocessor(eval_cfg.get("pred_postprocessor"), "eval_cfg.pred_postprocessor")
        _check_postprocessor(eval_cfg.get("dataset_postprocessor"), "eval_cfg.dataset_postprocessor")
    except (ConfigError, RegistryError) as exc:
        return str(exc)
    return ""
