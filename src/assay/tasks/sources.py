"""Other tools' logged replies scored again by assay: a dataset whose predictions come from a source.

A ``datasets`` entry with a ``predictions`` dict takes its replies from the
output of another tool instead of a prediction file::

    dict(abbr='arith-assay',
         predictions=dict(source='lm_eval', path='lm_out', task='assay_arith',
                          models={'EleutherAI/pythia-160m': 'pythia'},   # optional: the tool's name → abbr
                          extraction='strict-match'),                   # optional: the tool's own answers to compare
         eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'),
                       pred_postprocessor=dict(type='gsm8k_postprocess'),
                       dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')))

Its tasks are one per model of the tool's output that ran ``task`` (the
config's model of the same abbr lends its ``pred_postprocessor``; a model the
config does not list is added).  Each sample the tool logged becomes one
prediction record (:func:`ordered_samples`: lm-evaluation-harness's by ``doc_id``,
the others' in the order the tool logged them): the raw reply
(:attr:`~assay.sources.model.ExternalSample.reply`) as ``prediction``, the
logged target as ``gold`` (a one-element list of references, as HELM logs
them, as that element), the prompt as ``origin_prompt``, the tool's identity
of the sample as ``source_key`` and, with ``extraction``, the tool's own answer
as ``source_extracted``.  References come from ``gold`` unless the entry names
a loader (``type``, ``path``) whose test set is on disk: then the record of row
``i`` must be the reply to row ``i``, and :func:`row_mapping_problem` says when the
tool's identities do not give that (the run is refused rather than paired by guess).  The result is
assay's score of the replies; its ``_meta.rescored`` names the tool, its
version, the files and the task (:meth:`SourceFeed.describe`).

Nothing here writes: :func:`read_feeds` reads and checks every entry of a
config, :func:`prediction_records` gives the records, and
:func:`assay.rundir.sources.write_source_predictions` writes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay._dataclass import FACTORY, DataclassMethods
from assay.errors import ConfigError, InputFileError

if TYPE_CHECKING:  # the records are built by the readers, imported only when a dataset names another tool's output
    from assay.sources.model import ExternalResult, ExternalRun, ExternalSample

__all__ = [
    "FEED_KEYS", "SourceFeed", "feed_spec", "ordered_samples", "prediction_records", "read_feed", "read_feeds", "row_mapping_problem",
    "source_models", "source_only",
]

#: The keys of a dataset's ``predictions`` dict.
FEED_KEYS = ("source", "path", "task", "models", "extraction")


def feed_spec(dataset: Any) -> dict[str, Any] | None:
    """The ``predictions`` dict of a dataset whose replies come from another tool (``None``: they do not).

    >>> feed_spec({'abbr': 'a', 'predictions': {'source': 'lm_eval', 'path': 'out', 'task': 'arith'}})['task']
    'arith'
    >>> feed_spec({'abbr': 'a'}) is None
    True
    """
    spec = dataset.get("predictions") if isinstance(dataset, Mapping) else None
    return dict(spec) if isinstance(spec, Mapping) else None


@dataclass(init=False, repr=False, eq=False)
class SourceFeed(DataclassMethods):
    """One dataset's replies from another tool: per model abbr, the tool's run and its result on the task."""

    tool: str
    path: str
    task: str
    extraction: str | None = None
    #: model abbr in the run → (the tool's run, its result on ``task``)
    runs: dict[str, tuple[ExternalRun, ExternalResult]] = field(default_factory=dict)

    def __init__(
        self,
        tool: str,
        path: str,
        task: str,
        extraction: str | None = None,
        runs: dict[str, tuple[ExternalRun, ExternalResult]] = FACTORY,
    ) -> None:
        self.tool = tool
        self.path = path
        self.task = task
        self.extraction = extraction
        self.runs = {} if runs is FACTORY else runs

    def describe(self, model: str) -> dict[str, Any]:
        """What ``_meta.rescored`` says of the replies of ``model`` (its abbr): the tool, its version, the files, the task;
        with several epochs logged (inspect_ai), ``epochs``: how many, and that only the first epoch's replies are scored."""
        run, result = self.runs[model]
        out: dict[str, Any] = {
            "tool": run.tool, "version": run.version, "path": result.source.path, "samples_path": result.samples_path,
            "model": run.model, "task": self.task, "samples": len(result.samples),
        }
        if self.extraction is not None:
            out["extraction"] = self.extraction
        epochs = max((len(s.doc["epochs"]) for s in result.samples if s.doc and isinstance(s.doc.get("epochs"), list)), default=1)
        if epochs > 1:  # inspect_ai's epochs: the reply of the first is the one scored
            out["epochs"] = {"logged": epochs, "scored": 1}
        return out


def _where(config_path: Any, index: int, dataset: Mapping[str, Any]) -> str:
    return f"{config_path}: datasets[{index}] ({dataset.get('abbr')!r}) predictions"


def read_feed(
    spec: Mapping[str, Any], where: str, resolve_path: Callable[[str], Path], cache: dict[tuple[str, str], list[ExternalRun]] | None = None,
) -> SourceFeed:
    """Read and check one ``predictions`` dict (``where`` names it in errors: the config file, the entry).

    Raises:
        ConfigError: an unknown key or tool, a path that does not exist, a task the tool's output lacks, a
            model mapping that is not ``{name: abbr}``, an ``extraction`` no sample has, or a sample
            without a logged reply (a log-likelihood task has nothing to re-score).
        InputFileError: the tool's output cannot be read (none there, a file that is not what the tool
            writes); the message starts with ``where`` and the path as the config gives it.
    """
    from assay.rundir.sources import safe_name
    from assay.sources import READERS, read_source

    unknown = set(spec) - set(FEED_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {sorted(unknown)}; known: {', '.join(FEED_KEYS)}")
    tool = spec.get("source")
    if tool not in READERS:
        raise ConfigError(f"{where}.source is {tool!r}; assay reads: {', '.join(sorted(READERS))}")
    raw_path, task = spec.get("path"), spec.get("task")
    if not isinstance(raw_path, str) or not raw_path:
        raise ConfigError(f"{where}.path must be the {tool} output's file or folder, got {raw_path!r}")
    if not isinstance(task, str) or not task:
        raise ConfigError(f"{where}.task must name the {tool} task whose replies are scored, got {task!r}")
    mapping = spec.get("models") or {}
    if not isinstance(mapping, Mapping) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in mapping.items()):
        raise ConfigError(f"{where}.models must map the tool's model names to abbrs ({{name: abbr}}), got {mapping!r}")
    extraction = spec.get("extraction")
    if extraction is not None and (not isinstance(extraction, str) or not extraction):
        raise ConfigError(f"{where}.extraction must name one of the tool's extractions (a filter, a scorer), got {extraction!r}")
    path = resolve_path(raw_path)
    if not path.exists():
        raise ConfigError(f"{where}.path {raw_path!r}: {path} does not exist")
    key = (str(tool), str(path))
    runs = cache.get(key) if cache is not None else None
    if runs is None:
        try:
            runs = read_source(str(tool), path)
        except InputFileError as exc:  # an empty folder, an unreadable file: say which entry of which config named it
            raise InputFileError(f"{where}.path {raw_path!r}: {exc}") from exc
        if cache is not None:
            cache[key] = runs
    feed = SourceFeed(str(tool), str(path), task, extraction)
    for run in runs:
        result = run.results.get(task)
        if result is None:
            continue
        abbr = mapping.get(run.model) or safe_name(run.model)
        if abbr in feed.runs:
            raise ConfigError(f"{where}: {tool} runs of two models are both {abbr!r} ({feed.runs[abbr][0].model!r}, {run.model!r}); "
                              "map them to abbrs of their own with models={name: abbr}")
        _check_samples(result, where, tool, run.model, task, extraction)
        feed.runs[abbr] = (run, result)
    if not feed.runs:
        tasks = sorted({name for run in runs for name in run.results})
        raise ConfigError(f"{where}.task {task!r}: the {tool} output at {path} has no such task; it has: {', '.join(tasks) or 'none'}")
    return feed


def _check_samples(result: ExternalResult, where: str, tool: str, model: str, task: str, extraction: str | None) -> None:
    what = f"{where}: {tool} task {task!r} of model {model!r} ({result.samples_path or result.source.path})"
    if not result.samples:
        raise ConfigError(f"{what} logged no samples: there are no replies to score (lm-evaluation-harness: run with --log_samples)")
    for sample in result.samples:
        if sample.reply is None:
            raise ConfigError(f"{what}: sample {sample.key!r} has no logged reply (a log-likelihood task?): nothing to re-score")
    if extraction is not None:
        names = sorted({name for s in result.samples for name in s.extracted})
        if extraction not in names:
            raise ConfigError(f"{what} has no extraction {extraction!r}; it has: {', '.join(names) or 'none'}")


def read_feeds(config: Any) -> dict[int, SourceFeed]:
    """Every dataset of ``config`` whose replies come from another tool, read and checked: dataset index → feed.

    Raises:
        ConfigError: see :func:`read_feed`; the message names the config file and the dataset.
    """
    cache: dict[tuple[str, str], list[ExternalRun]] = {}
    out: dict[int, SourceFeed] = {}
    for i, dataset in enumerate(config.datasets):
        spec = feed_spec(dataset)
        if spec is not None:
            where = _where(config.path, i, dataset)
            feed = out[i] = read_feed(spec, where, config.resolve_path, cache)
            if dataset.get("type") is not None:  # a test set on disk: each reply must be placed on its row
                for abbr, (run, result) in feed.runs.items():
                    problem = row_mapping_problem(feed.tool, result, ordered_samples(feed, abbr))
                    if problem is not None:
                        raise ConfigError(
                            f"{where}: {feed.tool} task {feed.task!r} of model {run.model!r} ({result.samples_path or result.source.path}): "
                            f"cannot tell which row of the test set each reply answers: {problem}. Drop the dataset's type and path "
                            "to score the replies against the targets the tool logged")
    return out


def ordered_samples(feed: SourceFeed, model: str) -> list[ExternalSample]:
    """The samples of ``model``'s (its abbr) replies in the order their prediction records take.

    lm-evaluation-harness's by ``doc_id`` (its samples file is written rank by rank in a run on several
    devices, so the logged order may differ from one run to the next); inspect_ai's in the dataset's order
    as the log gives it (``eval.dataset.sample_ids``); HELM's as logged.
    """
    _run, result = feed.runs[model]
    samples = list(result.samples)
    if feed.tool == "lm_eval" and all(s.key.isdigit() for s in samples):
        samples.sort(key=lambda s: int(s.key))
    return samples


def row_mapping_problem(tool: str, result: ExternalResult, samples: Sequence[ExternalSample]) -> str | None:
    """Why the ``i``-th of ``samples`` (:func:`ordered_samples`) cannot be taken as the reply to row ``i`` of the
    test set on disk; ``None`` when it can.

    lm-evaluation-harness: its ``doc_id`` is the row of the task's documents, so the ids must be the rows
    ``0 … n-1``.  inspect_ai numbers samples without ids after any shuffle, so its ids are no rows: the log
    must hold every sample of a dataset it did not shuffle (``eval.dataset``), in the dataset's order.  HELM
    names instances by ids of its own: no mapping.
    """
    keys = [s.key for s in samples]
    if tool == "lm_eval":
        if keys != [str(i) for i in range(len(keys))]:
            missing = sorted(set(range(len(keys))) - {int(k) for k in keys if k.isdigit()})[:3]
            return (f"its doc_ids are not the rows 0 to {len(keys) - 1} of the task's documents"
                    + (f" (no doc_id {', '.join(map(str, missing))})" if missing else ""))
        return None
    if tool == "inspect_ai":
        logged = result.config.get("dataset")
        dataset: dict[str, Any] = logged if isinstance(logged, dict) else {}
        if dataset.get("shuffled"):
            return "inspect_ai shuffled the dataset, and numbers samples without ids after shuffling"
        ids = dataset.get("sample_ids")
        if not isinstance(ids, list) or dataset.get("samples") != len(ids) or [str(i) for i in ids] != keys:
            return (f"the log holds {len(keys)} samples, not every sample of the dataset ({dataset.get('samples')!r}) "
                    "in its order")
        return None
    return f"{tool} names its samples by ids of its own ({', '.join(keys[:2])} …), not by rows of a test set"


def source_models(config: Any, feeds: Mapping[int, SourceFeed] | None = None) -> list[dict[str, Any]]:
    """The models the config's source-fed datasets add to it: those of the tools' runs that it does not list
    (``{'abbr': …, 'rescored_from': tool}``), in order."""
    from assay.config import model_abbr

    feeds = read_feeds(config) if feeds is None else feeds
    have = {model_abbr(m) for m in config.models if isinstance(m, dict)}
    out: list[dict[str, Any]] = []
    for feed in feeds.values():
        for abbr in feed.runs:
            if abbr not in have:
                have.add(abbr)
                out.append({"abbr": abbr, "rescored_from": feed.tool})
    return out


def _reference(value: Any) -> Any:
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return value


def prediction_records(feed: SourceFeed, model: str) -> dict[str, dict[str, Any]]:
    """The prediction records of ``model``'s (its abbr) replies, as OpenCompass's prediction files hold them,
    in :func:`ordered_samples`'s order."""
    out: dict[str, dict[str, Any]] = {}
    for i, sample in enumerate(ordered_samples(feed, model)):
        record: dict[str, Any] = {"origin_prompt": sample.prompt, "prediction": sample.reply, "gold": _reference(sample.reference),
                                  "source_key": sample.key}
        if feed.extraction is not None:
            record["source_extracted"] = sample.extracted.get(feed.extraction)
        out[str(i)] = record
    return out


def source_only(models: Sequence[Mapping[str, Any]]) -> set[str]:
    """The abbrs of models that :func:`source_models` added (no other dataset is planned for them)."""
    return {str(m.get("abbr")) for m in models if isinstance(m, Mapping) and m.get("rescored_from")}
