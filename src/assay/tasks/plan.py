"""Planning: one :class:`EvalTask` per (model, dataset) of a config, and the check of a plan.

:func:`plan_tasks` lists the tasks; :func:`check_plan` (what ``--dry-run``
prints) says for each task which implementation serves each component, where
its references come from, and whether it can run.

Where references come from (the *gold rule*, :func:`reference_source`): a
task's references are the test set's output column, as in OpenCompass, unless
the test set cannot be read — its files are not on disk, or its loader is a
stand-in for a name assay does not implement.  Then they are taken from the
``gold`` field OpenCompass's inferencers write into every prediction record
(with the ``dataset_postprocessor`` applied, as on the test set), provided the
evaluator needs nothing else from the test set (see :func:`reads_test_set`);
otherwise the task cannot run, and the reason names the data path looked for.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import FACTORY, DataclassMethods, FrozenMethods
from assay.config.abbr import model_abbr
from assay.config.loader import RunConfig
from assay.config.validate import validate_datasets, validate_models
from assay.datasets.location import DataLocation, locate_data
from assay.opencompass import is_standin, origin, standin_for_type_name, standin_name
from assay.opencompass import unavailable_message as how_to_get
from assay.rundir.layout import RunDir
from assay.subjective.plan import is_subjective

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_SHARD_SIZE",
    "Component",
    "EvalOptions",
    "EvalTask",
    "ReferenceSource",
    "TaskCheck",
    "check_plan",
    "check_tasks",
    "plan_tasks",
    "reads_test_set",
    "reference_source",
    "unavailable_components",
    "unavailable_message",
]


#: Default number of samples per shard of a sample-decomposable evaluation.
DEFAULT_SHARD_SIZE = 10_000


@dataclass(init=False, repr=False, eq=False)
class EvalOptions(FrozenMethods):
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
            predictions are in memory, and write it beside the result (see
            :func:`assay.rundir.sidecar.save_stats`): the summary, report,
            compare and verify that follow, in this process or another, then
            need not read the result and prediction files again.
        allow_partial: score a task whose predictions do not cover its test
            set (split files with a gap, or fewer records than rows) on the
            samples there are, recording what is missing in the result's
            ``_meta.incomplete`` (kind ``partial_predictions``); without it,
            such a task fails naming the missing parts (R-12.2).

    >>> EvalOptions(RunDir(Path('out/run'))).shard_size
    10000
    """

    run_dir: RunDir
    dump_details: bool = True
    force: bool = False
    shard_size: int = DEFAULT_SHARD_SIZE
    prepare_stats: bool = False
    allow_partial: bool = False

    def __init__(
        self,
        run_dir: RunDir,
        dump_details: bool = True,
        force: bool = False,
        shard_size: int = DEFAULT_SHARD_SIZE,
        prepare_stats: bool = False,
        allow_partial: bool = False,
    ) -> None:
        self.run_dir = run_dir
        self.dump_details = dump_details
        self.force = force
        self.shard_size = shard_size
        self.prepare_stats = prepare_stats
        self.allow_partial = allow_partial


@dataclass(init=False, repr=False, eq=False)
class ReferenceSource(FrozenMethods):
    """Where a task's references come from (see :func:`reference_source`).

    Attributes:
        source: ``'data'`` (the test set's output column) or ``'gold'`` (the
            prediction records' ``gold`` field).
        reason: why the test set is not read (``''`` for ``'data'``).
        problem: why the task cannot run (``''`` when it can): the test set
            cannot be read and the evaluator needs more of it than references.
    """

    source: str = "data"
    reason: str = ""
    problem: str = ""

    def __init__(self, source: str = "data", reason: str = "", problem: str = "") -> None:
        self.source = source
        self.reason = reason
        self.problem = problem


@dataclass(init=False, repr=False, eq=False)
class ResolvedChain(FrozenMethods):
    """A task's prediction postprocessors, resolved once by :func:`plan_tasks` for its scoring and its audit.

    Attributes:
        types: the functions the ``type`` of the model's, the dataset's and the
            evaluator's ``pred_postprocessor`` resolve to (``None`` where there
            is none, or where it cannot be resolved: scoring then says why).
        audit: the extraction audit of the chain (an :class:`~assay.audit.plan.AuditPlan`),
            ``None`` when no postprocessor of it has a corrected counterpart.
    """

    types: tuple[Any, Any, Any]
    audit: Any

    def __init__(self, types: tuple[Any, Any, Any], audit: Any) -> None:
        self.types = types
        self.audit = audit


def resolve_chain(model: dict[str, Any], dataset: dict[str, Any]) -> ResolvedChain:
    """The postprocessor chain of (``model``, ``dataset``): each ``type`` resolved, and its extraction audit."""
    from assay.audit import audit_plan, chain_configs
    from assay.postprocess.chain import resolve_postprocessor_type

    eval_cfg = dict(dataset.get("eval_cfg") or {})
    evaluator_cfg = dict(eval_cfg.get("evaluator") or {})
    configs = chain_configs(model, eval_cfg, evaluator_cfg)
    types = (resolve_postprocessor_type(configs[0]), resolve_postprocessor_type(configs[1]), resolve_postprocessor_type(configs[2]))
    return ResolvedChain(types, audit_plan(model, eval_cfg, evaluator_cfg, types=types))


@dataclass(init=False, repr=False, eq=False)
class EvalTask(DataclassMethods):
    """Scoring one model on one dataset."""

    model: dict[str, Any]
    dataset: dict[str, Any]
    model_abbr: str
    dataset_abbr: str
    prediction_dir: Path
    config: RunConfig
    #: Position of the dataset in ``config.datasets`` (tasks of one dataset share its test set).
    dataset_index: int = 0
    #: Where the dataset's ``path`` points (``None``: the config gives no ``path``).
    data: DataLocation | None = None
    #: Where the references come from; ``references.source == 'gold'``: the prediction records' ``gold``.
    references: ReferenceSource = field(default_factory=ReferenceSource)
    #: Why the dataset's config keeps the task from running (``''``: nothing does); see
    #: :func:`~assay.config.validate.validate_datasets`.
    config_problem: str = ""
    #: Its postprocessor chain resolved when it was planned (``None``: the task resolves it itself).
    chain: ResolvedChain | None = None
    #: Where its replies come from when another tool logged them (a :class:`~assay.tasks.sources.SourceFeed`;
    #: ``None``: the prediction files).
    source: Any = None

    def __init__(
        self,
        model: dict[str, Any],
        dataset: dict[str, Any],
        model_abbr: str,
        dataset_abbr: str,
        prediction_dir: Path,
        config: RunConfig,
        dataset_index: int = 0,
        data: DataLocation | None = None,
        references: ReferenceSource = FACTORY,
        config_problem: str = "",
        chain: ResolvedChain | None = None,
        source: Any = None,
    ) -> None:
        self.model = model
        self.dataset = dataset
        self.model_abbr = model_abbr
        self.dataset_abbr = dataset_abbr
        self.prediction_dir = prediction_dir
        self.config = config
        self.dataset_index = dataset_index
        self.data = data
        self.references = ReferenceSource() if references is FACTORY else references
        self.config_problem = config_problem
        self.chain = chain
        self.source = source

    @property
    def name(self) -> str:
        return f"{self.model_abbr}/{self.dataset_abbr}"


def plan_tasks(config: RunConfig, run_dir: RunDir) -> list[EvalTask]:
    """Validate the config and list its (model, dataset) tasks in config order.

    A model's predictions are read from ``<run_dir>/predictions/<model_abbr>/``,
    or from the folder its ``predictions`` key names (relative to the working
    directory if it exists there, else to the config file's folder).  A
    dataset's ``path`` is located with :func:`~assay.datasets.location.locate_data`
    (or the loader's own ``data_location(path)``, where it has one: a path that
    names a Hugging Face Hub dataset, or its ``config_data_location(options,
    config_dir)``: data named by other options, ``HFDataset``'s ``data_files``)
    and its reference source decided by
    :func:`reference_source`.

    A dataset an LLM judges through the subjective task (its evaluator is
    ``LMEvaluator``: :func:`assay.subjective.plan.is_subjective`) has no task
    here; :func:`assay.subjective.plan.plan_subjective` plans its judge tasks.

    A dataset whose config is wrong still has its tasks, with the mistake in
    :attr:`EvalTask.config_problem` (they cannot run; :func:`check_tasks`
    says so); a dataset that repeats an earlier one exactly has none.

    Raises:
        ConfigError: an invalid config as a whole (the ``models`` list, a
            ``datasets`` entry without a name), or a dataset id while
            ``DATASET_SOURCE`` asks for a hub.
    """
    from assay.registry import ICL_EVALUATORS, LOAD_DATASET, resolve_type
    from assay.tasks.sources import read_feeds, source_models, source_only

    validate_models(config)
    checks = validate_datasets(config)
    feeds = read_feeds(config)  # other tools' replies: read and checked before anything runs
    per_dataset: list[tuple[DataLocation | None, ReferenceSource]] = []
    repeats = []
    for d_index, (dataset, check) in enumerate(zip(config.datasets, checks)):
        if check.repeats is not None:
            repeats.append(f"datasets[{d_index}] = datasets[{check.repeats}] ({check.abbr!r})")
        path = dataset.get("path")
        data = locate_data(path, config.path.parent) if isinstance(path, str) and path else None
        if check.problem or check.repeats is not None:
            per_dataset.append((data, ReferenceSource("data")))
            continue
        if d_index in feeds and dataset.get("type") is None:  # no loader: the tool's logged targets
            evaluator = resolve_type(((dataset.get("eval_cfg") or {}).get("evaluator") or {}).get("type"), ICL_EVALUATORS)
            why = f"the replies and their targets come from {feeds[d_index].tool}'s output and no loader is named"
            per_dataset.append((None, ReferenceSource("gold", why) if not reads_test_set(evaluator) else ReferenceSource(
                "gold", why, f"{_name(evaluator)} reads the test set beyond its references: name the loader "
                "(type, path) of a test set on disk")))
            continue
        loader = resolve_type(dataset.get("type"), LOAD_DATASET)
        locate = getattr(loader, "data_location", None)
        if callable(locate) and isinstance(path, str) and path:
            data = locate(path)  # a loader whose path is not a file location (a Hugging Face Hub id)
        data = _loader_location(loader, dataset, config.path.parent, data)
        evaluator = resolve_type(((dataset.get("eval_cfg") or {}).get("evaluator") or {}).get("type"), ICL_EVALUATORS)
        per_dataset.append((data, reference_source(loader=loader, evaluator=evaluator, data=data)))
    if repeats:
        logger.warning(
            "%s: %d datasets repeat an earlier one exactly (same abbr, same config) and are scored once: %s%s",
            config.path, len(repeats), ", ".join(repeats[:5]), ", …" if len(repeats) > 5 else "",
        )
    tasks: list[EvalTask] = []
    models = [*config.models, *source_models(config, feeds)]
    added = source_only(models)
    for model in models:
        m_abbr = model_abbr(model)
        folder = model.get("predictions")
        pred_dir = config.resolve_path(folder) if isinstance(folder, str) else run_dir.prediction_dir(m_abbr)
        for d_index, dataset in enumerate(config.datasets):
            check = checks[d_index]
            if check.repeats is not None or is_subjective(dataset):  # judged by the subjective task
                continue
            feed = feeds.get(d_index)
            if (feed is None and m_abbr in added) or (feed is not None and m_abbr not in feed.runs):
                continue  # a dataset of the config's own predictions, or of a tool's run without this model
            data, refs = per_dataset[d_index]
            chain = None
            if not check.problem:  # resolved once here, for every worker that scores it
                try:
                    chain = resolve_chain(model, dataset)
                except Exception:  # a config the task itself reports on when it runs
                    logger.debug("resolving the postprocessors of %s/%s failed", m_abbr, check.abbr, exc_info=True)
            tasks.append(EvalTask(model, dataset, m_abbr, check.abbr, run_dir.prediction_dir(m_abbr) if feed is not None else pred_dir,
                                  config, d_index, data, refs, check.problem, chain, feed))
    return tasks


def _loader_location(loader: Any, dataset: dict[str, Any], config_dir: Path, default: DataLocation | None) -> DataLocation | None:
    """Where the loader says a dataset's data is (its ``config_data_location(options, config_dir)``), else ``default``.

    A loader whose data is not named by ``path`` alone (``HFDataset``'s
    ``path='json'`` with ``data_files``) declares it so; the location decides
    the gold rule and is hashed into the input fingerprint.
    """
    locate = getattr(loader, "config_data_location", None)
    if not callable(locate):
        return default
    from assay.datasets.build import FRAMEWORK_KEYS

    options = {k: v for k, v in dataset.items() if k not in FRAMEWORK_KEYS}
    found = locate(options, config_dir)
    return found if isinstance(found, DataLocation) else default


# -- the gold rule ---------------------------------------------------------------------------


def reads_test_set(evaluator_type: Any) -> bool:
    """Whether an evaluator needs the test set for more than its references: the one rule.

    True when the class says so (a ``reads_test_set`` class attribute, for
    evaluators that read data by other means; ``False`` there declares that
    its code reads nothing of the test set but its length and sample ids),
    when it has an ``evaluate`` of its own (not the standard algorithm of
    assay's or OpenCompass's ``BaseEvaluator``), or when its ``score()`` takes
    ``test_set`` or ``**kwargs``.  Such an evaluator cannot be scored from the
    prediction records' ``gold`` alone, and it is the one the scoring step
    hands the test set as a ``datasets.Dataset`` (any other gets a light
    read-only view: :class:`~assay.datasets.table.TableView`).

    >>> from assay.registry import ICL_EVALUATORS
    >>> reads_test_set(ICL_EVALUATORS.get('AccEvaluator')), reads_test_set(ICL_EVALUATORS.get('HumanEvalEvaluator'))
    (False, True)
    """
    flag = getattr(evaluator_type, "reads_test_set", None)
    if isinstance(flag, bool):
        return flag
    if not _standard_evaluate(getattr(evaluator_type, "evaluate", None)):
        return True
    try:
        params = inspect.signature(evaluator_type.score).parameters
    except (TypeError, ValueError, AttributeError):
        return True
    return "test_set" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _standard_evaluate(evaluate: Any) -> bool:
    from assay.evaluate.base import BaseEvaluator

    if evaluate is BaseEvaluator.evaluate:
        return True
    module = getattr(evaluate, "__module__", "") or ""
    # OpenCompass's own algorithm reads only the length and the subdivision/idx columns
    return getattr(evaluate, "__qualname__", "") == "BaseEvaluator.evaluate" and module.startswith("opencompass.openicl")


def reference_source(*, loader: Any, evaluator: Any, data: DataLocation | None) -> ReferenceSource:
    """Decide where a dataset's references come from (the gold rule).

    Args:
        loader: the resolved loader (class or function).
        evaluator: the resolved evaluator class.
        data: where the dataset's ``path`` points (``None``: no ``path``, the
            loader finds its data itself; it is assumed to be there).

    Returns:
        ``'data'`` when the loader is usable and its files are on disk;
        ``'gold'`` when they are not (or the loader is a stand-in, or declares
        with a ``test_set_generated`` reason that its test set is generated
        for a tokenizer, as RULER's are) and the evaluator does not
        :func:`read the test set <reads_test_set>`;
        otherwise a :class:`ReferenceSource` with ``problem`` set.

    >>> from assay.datasets.location import DataLocation
    >>> from assay.registry import ICL_EVALUATORS, LOAD_DATASET
    >>> absent = DataLocation('d.jsonl', Path('d.jsonl'), False, ('d.jsonl',))
    >>> reference_source(loader=LOAD_DATASET.get('JsonlDataset'), evaluator=ICL_EVALUATORS.get('AccEvaluator'), data=absent).source
    'gold'
    """
    generated = getattr(loader, "test_set_generated", None)
    if isinstance(generated, str) and generated:
        why = generated  # a loader that generates its test set for the tokenizer of the run (RULER)
    elif origin(loader) == "stand-in":
        why = f"the loader {_name(loader)} is a stand-in (assay does not implement it)"
        if data is not None and not data.exists:
            why += f", and the test set is not on disk: {data.describe()}"
    elif data is not None and not data.exists:
        why = f"the test set is not on disk: {data.describe()}"
    else:
        return ReferenceSource("data")
    if origin(evaluator) == "stand-in":
        return ReferenceSource("gold", why)  # the evaluator's own check reports it
    if reads_test_set(evaluator):
        return ReferenceSource(
            "data",
            why,
            f"{why}; {_name(evaluator)} reads the test set (not only its references), "
            "so the `gold` references in the prediction files are not enough",
        )
    return ReferenceSource("gold", why)


# -- checking a plan -------------------------------------------------------------------------


@dataclass(init=False, repr=False, eq=False)
class Component(FrozenMethods):
    """One component of a task as the config names it, and which implementation serves it.

    ``origin`` is that of :func:`assay.opencompass.origin`: ``'built in'``,
    ``'OpenCompass'``, ``'user-registered'`` or ``'stand-in'``; or ``'missing'``
    (the config names none) or ``'unknown'`` (no registry knows the name: the
    task's config problem says so).
    """

    role: str
    name: str
    origin: str

    def __init__(self, role: str, name: str, origin: str) -> None:
        self.role = role
        self.name = name
        self.origin = origin

    def describe(self) -> str:
        """``'AccEvaluator [built in]'``."""
        return f"{self.name} [{self.origin}]"


@dataclass(init=False, repr=False, eq=False)
class TaskCheck(FrozenMethods):
    """Whether one (model, dataset) task can run, and with what.

    Attributes:
        model, dataset: the task's abbrs.
        loader, evaluator: the task's loader and evaluator.
        postprocessors: the postprocessors that apply (``role`` says which:
            ``'model pred'``, ``'pred'``, ``'evaluator pred'``, ``'dataset'``).
        references: ``'data'`` or ``'gold'`` (see :func:`reference_source`).
        data: where the dataset's ``path`` points (``None``: no ``path``).
        problems: why the task cannot run (empty when it can).
        notes: what else is worth knowing (why references come from ``gold``).
    """

    model: str
    dataset: str
    loader: Component
    evaluator: Component
    postprocessors: tuple[Component, ...]
    references: str
    data: DataLocation | None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __init__(
        self,
        model: str,
        dataset: str,
        loader: Component,
        evaluator: Component,
        postprocessors: tuple[Component, ...],
        references: str,
        data: DataLocation | None,
        problems: tuple[str, ...] = (),
        notes: tuple[str, ...] = (),
    ) -> None:
        self.model = model
        self.dataset = dataset
        self.loader = loader
        self.evaluator = evaluator
        self.postprocessors = postprocessors
        self.references = references
        self.data = data
        self.problems = problems
        self.notes = notes

    @property
    def can_run(self) -> bool:
        return not self.problems

    @property
    def name(self) -> str:
        return f"{self.model}/{self.dataset}"

    def line(self) -> str:
        """The task on one line: its components with their origins and where references come from."""
        posts = ", ".join(f"{c.role} {c.describe()}" for c in self.postprocessors) or "none"
        refs = "references from gold" if self.references == "gold" else "references from data"
        return (
            f"{'ok    ' if self.can_run else 'CANNOT'} {self.name}: loader {self.loader.describe()}; "
            f"evaluator {self.evaluator.describe()}; postprocessors {posts}; {refs}"
        )


def check_plan(config: RunConfig, run_dir: RunDir | None = None) -> list[TaskCheck]:
    """Plan a config and check every task, without running anything.

    Args:
        config: the loaded config.
        run_dir: the run directory whose predictions the tasks would read;
            with it, a task whose prediction file is missing cannot run.
            Without it, only models whose ``predictions`` key names a folder
            have their prediction files checked.

    Raises:
        ConfigError: the config itself is invalid (nothing can be planned).

    >>> import pathlib, tempfile
    >>> from assay.config import load_config
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / 'cfg.py').write_text(
    ...     "datasets = [dict(abbr='gsm8k', type='JsonlDataset', path='opencompass/gsm8k',"
    ...     " reader_cfg=dict(output_column='answer'), eval_cfg=dict(evaluator=dict(type='AccEvaluator')))]\\n"
    ...     "models = [dict(abbr='m')]\\n")
    >>> (check,) = check_plan(load_config(d / 'cfg.py'))
    >>> check.can_run, check.references, check.evaluator.describe()
    (True, 'gold', 'AccEvaluator [built in]')
    """
    tasks = plan_tasks(config, run_dir if run_dir is not None else RunDir(Path(config.work_dir or "outputs/default")))
    return check_tasks(tasks, predictions=True if run_dir is not None else None)


def check_tasks(tasks: list[EvalTask], *, predictions: bool | None = True, partial: bool = False) -> list[TaskCheck]:
    """Check planned tasks (see :func:`check_plan`).

    ``predictions``: ``True`` checks every task's prediction files, ``None``
    only those of models whose ``predictions`` key names a folder, ``False`` none.
    ``partial``: a partial score is asked for (``--allow-partial``): split
    prediction files with a gap are a note, not a reason the task cannot run.
    """
    from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

    checks: list[TaskCheck] = []
    for task in tasks:
        dataset = task.dataset
        eval_cfg = dataset.get("eval_cfg")
        eval_cfg = eval_cfg if isinstance(eval_cfg, dict) else {}
        evaluator_cfg = eval_cfg.get("evaluator")
        evaluator_cfg = evaluator_cfg if isinstance(evaluator_cfg, dict) else {}
        loader = _component("loader", dataset.get("type"), LOAD_DATASET)
        evaluator = _component("evaluator", evaluator_cfg.get("type"), ICL_EVALUATORS)
        posts = []
        for role, cfg in (
            ("model pred", task.model.get("pred_postprocessor")),
            ("pred", eval_cfg.get("pred_postprocessor")),
            ("evaluator pred", evaluator_cfg.get("pred_postprocessor")),
            ("dataset", eval_cfg.get("dataset_postprocessor")),
        ):
            if isinstance(cfg, dict) and "type" in cfg:
                posts.append(_component(role, cfg["type"], TEXT_POSTPROCESSORS))
            elif callable(cfg):
                posts.append(_component(role, cfg, TEXT_POSTPROCESSORS))
        refs = task.references
        problems: list[str] = [task.config_problem] if task.config_problem else []
        blocked = unavailable_message(task)
        if blocked:
            problems.append(blocked)
        if refs.problem:
            problems.append(refs.problem)
        notes = [f"references from the prediction files' `gold`: {refs.reason}"] if refs.source == "gold" else []
        notes.extend(_evaluator_notes(evaluator_cfg))
        if task.source is not None:  # another tool's replies, written as the run's prediction file when the task runs
            described = task.source.describe(task.model_abbr)
            tool = " ".join(str(x) for x in (described["tool"], described["version"]) if x)
            notes.append(f"replies of {tool} (task {described['task']!r}, model "
                         f"{described['model']!r}, {described['samples']} samples): {described['samples_path'] or described['path']}")
        elif predictions or (predictions is None and isinstance(task.model.get("predictions"), str)):
            missing = _missing_predictions(task)
            if missing and partial and not _missing_predictions(task, partial=True):
                notes.append(f"partial score asked for: {missing}")
            elif missing:
                problems.append(missing)
        checks.append(
            TaskCheck(task.model_abbr, task.dataset_abbr, loader, evaluator, tuple(posts), refs.source, task.data, tuple(problems), tuple(notes))
        )
    return checks


def _evaluator_notes(evaluator_cfg: dict[str, Any]) -> list[str]:
    """What the evaluator says about this machine before it runs (``dry_run_notes(cfg)``, where it has one:
    a code evaluator's missing toolchain)."""
    from assay.errors import ConfigError, RegistryError
    from assay.registry import ICL_EVALUATORS, resolve_type

    if evaluator_cfg.get("type") is None:
        return []
    try:
        obj = resolve_type(evaluator_cfg["type"], ICL_EVALUATORS, key="evaluator.type")
    except (ConfigError, RegistryError):
        return []
    hook = getattr(obj, "dry_run_notes", None)
    return [str(n) for n in hook(evaluator_cfg)] if callable(hook) else []


def _component(role: str, spec: Any, registry: Any) -> Component:
    from assay.errors import ConfigError, RegistryError
    from assay.registry import resolve_type

    if spec is None:
        return Component(role, "(none)", "missing")
    try:
        obj = resolve_type(spec, registry, key=f"{role}.type")
    except (ConfigError, RegistryError):
        return Component(role, _name(spec), "unknown")
    return Component(role, _name(spec if isinstance(spec, str) else obj), origin(obj))


def _name(obj: Any) -> str:
    if isinstance(obj, str):
        return obj
    module = getattr(obj, "__module__", "") or ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)
    return f"{module}.{name}" if module.startswith("opencompass") else str(name)


def _missing_predictions(task: EvalTask, *, partial: bool = False) -> str:
    from assay.errors import InputFileError
    from assay.rundir.predictions import find_prediction_files

    try:
        find_prediction_files(task.prediction_dir, task.dataset_abbr, partial=partial)
    except InputFileError as exc:
        return str(exc)
    return ""
def unavailable_components(dataset: dict[str, Any], model: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """``(config key, dotted name)`` of each OpenCompass component of a task that assay does not implement.

    Looks through the dataset config (its loader ``type``, ``eval_cfg``, loader
    options; not ``infer_cfg``, which evaluation never runs) and the model's
    ``pred_postprocessor`` for stand-ins (see :mod:`assay.opencompass`) that no
    registered implementation replaces.  A task with any cannot run.

    >>> from assay.opencompass.standins import _standin
    >>> ds = dict(type=_standin('opencompass.datasets.x.XDataset', 'c'), eval_cfg=dict(evaluator=dict(type=dict)))
    >>> unavailable_components(ds)
    [('type', 'opencompass.datasets.x.XDataset')]
    """
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
    """Why a task cannot run (components assay does not implement), or ``None``.

    The loader is left to :func:`reference_source`: with a stand-in loader a
    task still runs when its references can come from ``gold``.
    """
    # a stand-in loader is the gold rule's business (reference_source): the task may
    # still run from the prediction files' references
    missing = [(key, dotted) for key, dotted in unavailable_components(task.dataset, task.model) if key != "type"]
    if not missing:
        return None
    parts = [f"{key} is {dotted}" for key, dotted in missing]
    return f"{'; '.join(parts)}. {how_to_get(sorted({d for _, d in missing}))}"
