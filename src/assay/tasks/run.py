"""Running one (model, dataset) task: predictions in, one result file out (R-6.1).

The scoring itself (postprocess, evaluator, ``evaluate()``) is
:func:`assay.tasks.score.score`; this module decides whether a result can be
reused, reads the predictions and the test set, splits big tasks into
shards, and writes the result (and the statistics beside it).

A task that fails writes ``{"error": ...}`` (with the component and file that
failed) to its result file and a traceback to its log; it never raises, so
the other tasks carry on (R-5.6).  A failure never replaces a result that is
already there (R-12.1): a result OpenCompass wrote, or an earlier run, stays
byte for byte; the task is still failed, its log and message say that the
result was not re-scored and why, and a note beside the log
(:meth:`assay.rundir.layout.RunDir.kept_path`) tells the summary.  The error record
goes only where no result was, or where an error record was.

A big task whose evaluator is sample-decomposable is split: :func:`start_task`
writes the shards' inputs and returns a :class:`ShardPlan`; each shard is
scored by :func:`run_shard` (in parallel, by the runner) and
:func:`merge_shards` writes the one result file, identical to scoring the
task whole.  :func:`run_task` does all of it in this process.

Result files are deterministic: they hold no timings or host names, so the
same inputs give the same bytes whichever runner scored them; timings go to
the task's log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import re
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from assay import __version__
from assay._dataclass import FACTORY, DataclassMethods
from assay.audit import AuditRecord, attach, detach
from assay.datasets.build import TestSet
from assay.datasets.location import locate_data
from assay.errors import AssayError, EvaluationError, InputFileError
from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, SampleOutcome, incomplete_entry, merge_incomplete
from assay.fileio import atomic_write_chunks
from assay.rundir.kept import clear_kept_note, write_kept_note
from assay.rundir.record import Incomplete, ResultRecord, incomplete_of, judge_line
from assay.rundir.results import META_KEY, write_result, write_result_keeping
from assay.rundir.shards import ShardFolder
from assay.tasks.fingerprint import changed_inputs, files_digest, fingerprint_of, source_digest, task_inputs
from assay.tasks.plan import EvalOptions, EvalTask, resolve_chain, unavailable_message
from assay.tasks.score import TOOL_EXTRACTION_KEY, ScoreStep, estimate_judging, is_judged, needed_fields, score
from assay.tasks.shards import (
    ShardPart,
    exact_metrics,
    merge_metrics,
    sample_subdivisions,
    shard_indices,
    shard_ranges,
    shard_sums,
    splice_details,
)

logger = logging.getLogger(__name__)

__all__ = ["ShardPlan", "TaskOutcome", "estimate_task_judging", "fail_task", "merge_shards", "run_shard", "run_task", "start_task"]


@dataclass(init=False, repr=False, eq=False)
class TaskOutcome(DataclassMethods):
    """What happened to one task.

    ``status`` is ``"ok"``, ``"reused"``, ``"partial"`` (a result was
    written, but some of its samples could not be scored and the user did not
    ask for that: ``message`` says ``"partial: 3 of 9 samples unjudged"``;
    R-12.3) or ``"failed"``; ``reason`` says why a result was reused or
    recomputed (``"inputs unchanged"``, ``"no result yet"``, ``"changed: the
    prediction file"``, ``"--force"``, …).
    """

    name: str
    status: str
    result_path: str
    log_path: str
    message: str = ""
    seconds: float = 0.0
    samples: int = 0
    reason: str = ""
    shards: int = 0
    #: the record of the result file written, derived once from its bytes (with its statistics), for the driver
    record: ResultRecord | None = None

    def __init__(
        self,
        name: str,
        status: str,
        result_path: str,
        log_path: str,
        message: str = "",
        seconds: float = 0.0,
        samples: int = 0,
        reason: str = "",
        shards: int = 0,
        record: ResultRecord | None = None,
    ) -> None:
        self.name = name
        self.status = status
        self.result_path = result_path
        self.log_path = log_path
        self.message = message
        self.seconds = seconds
        self.samples = samples
        self.reason = reason
        self.shards = shards
        self.record = record

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    @property
    def partial(self) -> bool:
        return self.status == "partial"


#: ``_meta.incomplete`` kinds that do not make a task partial: a partial score the user asked for, and
#: sample keys repeated in a prediction file (scored as OpenCompass reads them, the last of each; marked only).
ASKED_INCOMPLETE = frozenset({"partial_predictions", "duplicate_keys"})
#: ``_meta.incomplete`` kinds that scoring again may complete: a result with them is not reused as is.
RETRIED_INCOMPLETE = frozenset({"unjudged"})


def _incomplete_message(entries: tuple[Incomplete, ...], total: int) -> str:
    """``"partial: 3 of 9 samples unjudged"`` for the entries the user did not ask for ('' when none)."""
    parts = []
    for e in entries:
        if e.kind in ASKED_INCOMPLETE:
            continue
        kind = e.kind.replace("_", " ")
        parts.append(f"{e.count if e.count is not None else 'some'} of {total} samples {kind}")
    return f"partial: {'; '.join(parts)}" if parts else ""


@dataclass(init=False, repr=False, eq=False)
class ShardPlan(DataclassMethods):
    """A task split into shards: ``pending`` still have to be scored, then merged."""

    name: str
    shards: int
    pending: list[int]
    samples: int
    reason: str = ""

    def __init__(self, name: str, shards: int, pending: list[int], samples: int, reason: str = "") -> None:
        self.name = name
        self.shards = shards
        self.pending = pending
        self.samples = samples
        self.reason = reason


@dataclass(init=False, repr=False, eq=False)
class _Log(DataclassMethods):
    path: Path
    lines: list[str] = field(default_factory=list)

    def __init__(self, path: Path, lines: list[str] = FACTORY) -> None:
        self.path = path
        self.lines = [] if lines is FACTORY else lines

    def __call__(self, msg: str) -> None:
        self.lines.append(f"{datetime.now().isoformat(timespec='seconds')} {msg}")

    def flush(self) -> None:
        # the earlier run's log is removed, then the new one written to a new file in one call: a crash or a
        # write error leaves no log or the start of the new one, never new lines followed by the earlier
        # run's (which fail_task would read and add to).  Not emptied and written again: a file emptied by
        # truncation is flushed to disk when it is closed (ext4's replace-by-truncate heuristic), which made
        # each task of a run scored again wait a millisecond or more for the disk; a new file is not
        data = ("\n".join(self.lines) + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.unlink(missing_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            try:
                view = memoryview(data)
                while view:  # one call, unless the system writes less than asked
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except OSError:
            logger.warning("could not write the log %s", self.path)


def run_task(task: EvalTask, options: EvalOptions) -> TaskOutcome:
    """Score one task and write its result file, shards included; never raises for a task's own failure."""
    started = start_task(task, options)
    if isinstance(started, TaskOutcome):
        return started
    for shard in started.pending:
        error = run_shard(task, options, shard)
        if error is not None:
            return fail_task(task, options, error)
    return merge_shards(task, options)


def start_task(task: EvalTask, options: EvalOptions) -> TaskOutcome | ShardPlan:
    """Reuse, score, or split one task; never raises for a task's own failure.

    Returns the task's outcome, or the :class:`ShardPlan` of a task that was
    split (its shards are then scored with :func:`run_shard` and merged with
    :func:`merge_shards`).
    """
    blocked = unavailable_message(task)
    if blocked is not None:  # an OpenCompass component assay lacks: fail before reading anything
        log = _Log(options.run_dir.log_path(task.model_abbr, task.dataset_abbr))
        log(f"task {task.name} (assay {__version__}): error: a component is not available, nothing was read")
        log.flush()
        return fail_task(task, options, blocked, error_type="ComponentUnavailable")
    run_dir = options.run_dir
    result_path = run_dir.result_path(task.model_abbr, task.dataset_abbr)
    log = _Log(run_dir.log_path(task.model_abbr, task.dataset_abbr))
    start = time.perf_counter()
    log(f"task {task.name} (assay {__version__})")
    outcome = TaskOutcome(task.name, "ok", str(result_path), str(log.path))
    try:
        if task.source is not None:  # another tool's replies: the run's prediction file of them first
            _write_source_predictions(task, options, log)
        done = _score(task, options, result_path, log, outcome)
        if isinstance(done, ShardPlan):
            return done
    except Exception as exc:
        _record_failure(task, options, outcome, log, exc)
    outcome.seconds = time.perf_counter() - start
    log(f"{outcome.status} in {outcome.seconds:.2f}s")
    log.flush()
    return outcome


def _write_source_predictions(task: EvalTask, options: EvalOptions, log: _Log) -> None:
    from assay.rundir.sources import write_source_predictions
    from assay.tasks.sources import prediction_records

    feed = task.source
    path = write_source_predictions(options.run_dir, task.model_abbr, task.dataset_abbr,
                                    prediction_records(feed, task.model_abbr), feed.tool)
    described = feed.describe(task.model_abbr)
    log(f"replies of {feed.tool} ({described['samples_path'] or described['path']}, task {feed.task!r}, "
        f"model {described['model']!r}) as {path}")


def _record_failure(task: EvalTask, options: EvalOptions, outcome: TaskOutcome, log: _Log, exc: BaseException) -> None:
    message = _describe(exc)
    log(f"FAILED: error: {message}")
    log(traceback.format_exc())
    outcome.status, outcome.message = "failed", message
    _write_failure(task, options, _error_result(task, message, type(exc).__name__, log.path), outcome, log)


def _write_failure(
    task: EvalTask, options: EvalOptions, record: dict[str, Any], outcome: TaskOutcome, log: Callable[[str], None]
) -> None:
    """Write a failed task's error record, unless a result is already there (R-12.1).

    A result already there (any file that is not an error record, or split
    results ``<abbr>_0.json``…) is left as it is: ``outcome.message`` and the
    log say it was not re-scored, and the note at
    :meth:`~assay.rundir.layout.RunDir.kept_path` records why, for the summary.
    """
    result_path = Path(outcome.result_path)
    kept = _result_already_there(result_path, task.dataset_abbr)
    if kept is None:
        write_result(result_path, record)
        _clear_kept_note(task, options)
        return
    note = f"not re-scored, so the result already there was kept ({kept})"
    log(f"{note}: {result_path}")
    logger.info("%s: %s: %s", task.name, note, outcome.message)
    outcome.message = f"{outcome.message} [{note}]"
    try:
        write_kept_note(options.run_dir, task.model_abbr, task.dataset_abbr, str(record.get("error", "")), kept)
    except OSError:
        logger.warning("could not write the note of the kept result of %s", task.name)


def _result_already_there(path: Path, abbr: str) -> str | None:
    """Who wrote the result at ``path`` that a failure must not replace, or ``None`` when there is none."""
    from assay.rundir.results import read_result_without_details, split_result_paths

    if not path.exists():
        try:
            parts = split_result_paths(path.parent, abbr)
        except AssayError:
            return f"split results {abbr}_*.json, not contiguous"
        return f"split results {abbr}_0.json … {parts[-1].name}" if parts else None
    try:
        existing, _ = read_result_without_details(path)
    except AssayError:
        return "a file assay cannot read"
    if "error" in existing:
        return None
    meta = existing.get(META_KEY)
    if isinstance(meta, dict) and meta.get("assay_version"):
        return f"written by assay {meta['assay_version']}"
    return "not written by assay, e.g. by OpenCompass"


def _clear_kept_note(task: EvalTask, options: EvalOptions) -> None:
    """The task wrote or reused its result: a note that an earlier failure kept the one before is void."""
    try:
        clear_kept_note(options.run_dir, task.model_abbr, task.dataset_abbr)
    except OSError:
        logger.warning("could not remove the note of the kept result of %s", task.name)


def _error_result(task: EvalTask, message: str, error_type: str, log_path: Path | str) -> dict[str, Any]:
    return {
        "error": message,
        META_KEY: {
            "assay_version": __version__,
            "model": task.model_abbr,
            "dataset": task.dataset_abbr,
            "error_type": error_type,
            "log": str(log_path),
        },
    }


def fail_task(task: EvalTask, options: EvalOptions, message: str, *, error_type: str = "EvaluationError") -> TaskOutcome:
    """Record a task as failed: an error result file and a line in its log."""
    run_dir = options.run_dir
    path = run_dir.result_path(task.model_abbr, task.dataset_abbr)
    log_path = run_dir.log_path(task.model_abbr, task.dataset_abbr)
    try:
        previous = log_path.read_text(encoding="utf-8")
    except OSError:
        previous = ""
    log = _Log(log_path, [previous.rstrip("\n")] if previous else [])
    log(f"FAILED: error: {message}")
    outcome = TaskOutcome(task.name, "failed", str(path), str(log_path), message)
    _write_failure(task, options, _error_result(task, message, error_type, log_path), outcome, log)
    log.flush()
    return outcome


def _describe(exc: BaseException) -> str:
    if isinstance(exc, AssayError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


# -- the inputs of a task --------------------------------------------------------------------


@dataclass(init=False, repr=False, eq=False)
class _Setup(ScoreStep):
    """What is known of a task before its predictions are read: the scoring step's config and the inputs."""

    files: list[Path]
    inputs: dict[str, str]
    fingerprint: str
    #: the bytes of the prediction files read for the fingerprint, for scoring to parse (big files are read again)
    contents: dict[Path, bytes] = field(default_factory=dict)

    def __init__(
        self,
        where: str,
        eval_cfg: dict[str, Any],
        evaluator_cfg: dict[str, Any],
        evaluator_type: Any,
        audit: Any,
        postprocessor_types: tuple[Any, Any],
        files: list[Path],
        inputs: dict[str, str],
        fingerprint: str,
        contents: dict[Path, bytes] = FACTORY,
    ) -> None:
        self.where = where
        self.eval_cfg = eval_cfg
        self.evaluator_cfg = evaluator_cfg
        self.evaluator_type = evaluator_type
        self.audit = audit
        self.postprocessor_types = postprocessor_types
        self.files = files
        self.inputs = inputs
        self.fingerprint = fingerprint
        self.contents = {} if contents is FACTORY else contents


def _setup(task: EvalTask, options: EvalOptions, *, fingerprint: bool = True) -> _Setup:
    from assay.registry import ICL_EVALUATORS, resolve_type
    from assay.rundir import predictions

    dataset_cfg = task.dataset
    where = f"dataset {task.dataset_abbr!r}"
    eval_cfg = dict(dataset_cfg.get("eval_cfg") or {})
    evaluator_cfg = dict(eval_cfg.get("evaluator") or {})
    evaluator_type = resolve_type(evaluator_cfg.get("type"), ICL_EVALUATORS, key=f"{where} eval_cfg.evaluator.type")
    files = predictions.find_prediction_files(task.prediction_dir, task.dataset_abbr, partial=options.allow_partial)
    # the postprocessor types of the chain and its audit, resolved when the task was planned
    chain = task.chain if task.chain is not None else resolve_chain(task.model, dataset_cfg)
    types, audit = chain.types, chain.audit
    if not fingerprint:
        return _Setup(where, eval_cfg, evaluator_cfg, evaluator_type, audit, (types[0], types[1]), files, {}, "")
    test_files = [task.data.path] if task.data is not None else []
    contents: dict[Path, bytes] = {}
    inputs = task_inputs(
        predictions_digest=files_digest(files, keep=contents, keep_below=predictions.STREAM_THRESHOLD),
        dataset_cfg=dataset_cfg,
        model_cfg=task.model,
        test_files=test_files,
        evaluator_type=evaluator_type,
        dump_details=options.dump_details,
        references=task.references.source,
        extraction_audit=audit.fingerprint_input(source_digest) if audit is not None else None,
    )
    return _Setup(where, eval_cfg, evaluator_cfg, evaluator_type, audit, (types[0], types[1]), files, inputs, fingerprint_of(inputs), contents)


def _reuse_check(
    result_path: Path, fingerprint: str, inputs: dict[str, str], outcome: TaskOutcome, *, allow_partial: bool = False
) -> str | None:
    """``None`` when the existing result can be reused, else why not.

    A result with judgements (or other samples) to ask again for is not
    reused, nor is a partial score when a partial score is not asked for.
    """
    from assay.rundir.results import read_result_without_details

    if not result_path.is_file():
        return "no result yet"
    try:
        existing, _ = read_result_without_details(result_path)
    except AssayError as exc:
        return f"the existing result is unreadable ({exc})"
    if "error" in existing:
        return "the existing result records an error"
    meta = existing.get(META_KEY)
    if not isinstance(meta, dict) or "fingerprint" not in meta:
        return "the existing result has no input fingerprint"
    if meta["fingerprint"] != fingerprint:
        changed = changed_inputs(meta.get("inputs"), inputs)
        if changed:
            return "changed: " + ", ".join(changed)
        return "its inputs changed (predictions, test set, config, evaluator source or assay version)"
    entries = incomplete_of(meta)
    retried = [e for e in entries if e.kind in RETRIED_INCOMPLETE]
    if retried:  # e.g. judge requests that failed: asked again (finished judgements come from the judge cache)
        return "the existing result is incomplete: " + "; ".join(
            f"{e.count if e.count is not None else 'some'} samples {e.kind}" for e in retried)
    if not allow_partial and any(e.kind == "partial_predictions" for e in entries):
        return "the existing result was scored on part of the predictions, and a partial score was not asked for"
    return None


# Test sets built in this process, by (dataset config digest, test-file digests): the tasks
# of one dataset (one per model) share it.  Evaluators only read it.
_TEST_SETS: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
_TEST_SET_CACHE = 2


def _test_set(task: EvalTask, setup: _Setup) -> Any:
    from assay.datasets.build import build_test_set

    key = (str(task.config.path), setup.inputs["dataset"], setup.inputs["test_files"])
    test = _TEST_SETS.get(key)
    if test is None:
        config_dir = task.config.path.parent
        test = build_test_set(task.dataset, resolve_path=lambda value: locate_data(value, config_dir).path, where=setup.where)
        _TEST_SETS[key] = test
        while len(_TEST_SETS) > _TEST_SET_CACHE:
            _TEST_SETS.popitem(last=False)
    else:
        _TEST_SETS.move_to_end(key)
    return test


def _gold_test_set(task: EvalTask, setup: _Setup, preds: Any, needed: tuple[str, ...] | None) -> TestSet:
    """The test set of a task scored from the prediction records' ``gold`` (see :func:`assay.tasks.plan.reference_source`)."""
    from assay.datasets.build import build_gold_test_set

    gold = preds.columns({"gold"}).get("gold")
    dataset = task.dataset
    reader = dataset.get("reader_cfg") or {}
    if task.source is not None and not reader.get("output_column"):  # another tool's targets: a column of their own
        dataset = {**dataset, "reader_cfg": {**reader, "output_column": "target"}}
    return build_gold_test_set(
        dataset,
        gold,
        length=len(preds),
        needs_references=needed is None or "references" in needed,
        where=setup.where,
        source=preds.location,
        reason=task.references.reason,
    )



def _partial_test_set(task: EvalTask, setup: _Setup, preds: Any, test: TestSet, from_gold: bool) -> tuple[TestSet, dict[str, Any]]:
    """The rows of ``test`` the predictions cover, and the ``_meta.incomplete`` entry saying what is missing.

    OpenCompass's partitioners cut a dataset into parts of one size (the last
    may be shorter): part ``k`` holds rows ``k*step`` onwards.  The size is
    taken from the parts there are; references from ``gold`` travel with their
    records, so only a test set read from the data needs the rows placed.
    """
    folder = task.prediction_dir
    total = test.size * test.n
    if test.n > 1 and not from_gold:
        raise InputFileError(f"{setup.where}: a partial score of a dataset with n={test.n} runs is not supported ({preds.location})")
    missing = preds.missing_parts
    step = None
    if preds.parts:
        full = {size for number, size in preds.parts[:-1]}  # every part but the last has the whole step
        if len(full) > 1:
            raise InputFileError(f"{setup.where}: the split prediction files in {folder} have different sizes {sorted(full)}; cannot tell which rows they hold")
        step = full.pop() if full else None
    if missing:
        names = ", ".join(f"{task.dataset_abbr}_{k}.json" for k in missing[:10]) + (" …" if len(missing) > 10 else "")
        count = step * len(missing) if step is not None else None  # the parts before the last are whole
        detail = f"{names} missing from {folder}; scored {len(preds)} samples of the {len(preds.parts)} parts there"
    else:
        count = total - len(preds)
        detail = f"predictions in {preds.location} cover {len(preds)} of {total} rows; scored those"
    if not from_gold:
        if step is None and missing:
            raise InputFileError(f"{setup.where}: cannot tell which rows the split prediction files in {folder} hold (one part, not the first)")
        rows = [r for number, size in (preds.parts or [(0, len(preds))]) for r in range(number * (step or 0), number * (step or 0) + size)]
        if rows and rows[-1] >= test.size:
            raise InputFileError(f"{setup.where}: the prediction files in {folder} hold more rows ({rows[-1] + 1}) than the test set ({test.size})")
        count = test.size - len(rows)
        test = dataclasses.replace(test.rows(rows), size=len(rows), n=1)
    return test, {"kind": "partial_predictions", "count": count, "detail": detail}


def estimate_task_judging(task: EvalTask, options: EvalOptions) -> Any:
    """What scoring ``task`` would ask its LLM judge: ``None`` when its evaluator asks none; a note
    (``str``) when no request would be made (the result would be reused) or the task cannot be
    estimated; else the :class:`assay.judge.JudgeEstimate` (see
    :func:`assay.tasks.score.estimate_judging`).  Reads the predictions and the test set as the
    run would, writes nothing.
    """
    from assay.registry import ICL_EVALUATORS, resolve_type
    from assay.rundir.predictions import load_predictions

    evaluator_cfg = dict((task.dataset.get("eval_cfg") or {}).get("evaluator") or {})
    try:
        evaluator_type = resolve_type(evaluator_cfg.get("type"), ICL_EVALUATORS, key="eval_cfg.evaluator.type")
    except AssayError:
        return None
    if not is_judged(evaluator_type):
        return None
    try:
        setup = _setup(task, options)
        result_path = options.run_dir.result_path(task.model_abbr, task.dataset_abbr)
        outcome = TaskOutcome(task.name, "ok", str(result_path), "")
        reason = "--force" if options.force else _reuse_check(
            result_path, setup.fingerprint, setup.inputs, outcome, allow_partial=options.allow_partial)
        if reason is None:
            return "no judge calls: the result would be reused (inputs unchanged)"
        needed = needed_fields(setup.evaluator_type)
        from_gold = task.references.source == "gold"
        if needed is not None and from_gold:
            needed = (*needed, "gold")
        preds = load_predictions(task.prediction_dir, task.dataset_abbr, keep=needed, contents=setup.contents, partial=options.allow_partial)
        setup.contents.clear()
        test = _gold_test_set(task, setup, preds, needed) if from_gold else _test_set(task, setup)
        if preds.missing_parts or (len(preds) < test.size * test.n and options.allow_partial):
            test, _ = _partial_test_set(task, setup, preds, test, from_gold)
        elif len(preds) != test.size * test.n:
            return f"cannot estimate the judge calls: {len(preds)} predictions for {test.size * test.n} rows"
        fields: dict[str, Any] = dict(preds.columns(None if needed is None else {*needed, "prediction"}))
        return estimate_judging(task, setup, fields, test, preds.location, str(result_path.with_suffix("")))
    except (AssayError, OSError, ValueError) as exc:
        return f"cannot estimate the judge calls: {exc}"


def _score(task: EvalTask, options: EvalOptions, result_path: Path, log: _Log, outcome: TaskOutcome) -> ShardPlan | None:
    from assay.rundir.predictions import load_predictions

    setup = _setup(task, options)
    reason = (
        "--force" if options.force
        else _reuse_check(result_path, setup.fingerprint, setup.inputs, outcome, allow_partial=options.allow_partial)
    )
    if reason is None:
        setup.contents.clear()
        _clear_kept_note(task, options)
        log(f"reused {result_path} (inputs unchanged)")
        outcome.status, outcome.message, outcome.reason = "reused", "inputs unchanged", "inputs unchanged"
        return None
    outcome.reason = reason
    log(f"scoring: {reason}")

    decomposable = _splittable(setup.evaluator_type) and options.shard_size > 0
    if decomposable:
        resumed = _resume_plan(task, options, setup, log, reason)
        if resumed is not None:
            return resumed

    t0 = time.perf_counter()
    needed = needed_fields(setup.evaluator_type)
    from_gold = task.references.source == "gold"
    if needed is not None and (options.prepare_stats or from_gold):
        needed = (*needed, "gold")  # the references, or what the report's sample browser shows
    preds = load_predictions(task.prediction_dir, task.dataset_abbr, keep=needed, contents=setup.contents, partial=options.allow_partial)
    setup.contents.clear()
    log(f"read {len(preds)} predictions from {preds.location} in {time.perf_counter() - t0:.2f}s")
    t0 = time.perf_counter()
    if from_gold:
        test = _gold_test_set(task, setup, preds, needed)
        log(f"references from the prediction files' `gold` ({task.references.reason})")
        logger.info("%s: references from the prediction files' `gold` (%s)", task.name, task.references.reason)
    else:
        test = _test_set(task, setup)
    log(f"test set of {test.size} rows × {test.n} runs ready in {time.perf_counter() - t0:.2f}s")
    total = test.size * test.n
    incomplete = None
    if preds.missing_parts or (len(preds) < total and options.allow_partial):
        test, incomplete = _partial_test_set(task, setup, preds, test, from_gold)
        total = test.size
        log(f"partial score (asked for): {incomplete['detail']}")
        outcome.reason = f"{reason}; partial: {incomplete['detail']}"
    elif len(preds) != total:
        runs = f" ({test.n} runs × {test.size} rows)" if test.n > 1 else ""
        short = (
            "; the samples without a prediction would not be scored (to score the others, ask for a partial score: "
            "assay eval --allow-partial, or eval=dict(allow_partial=True))"
            if len(preds) < total else ""
        )
        raise InputFileError(
            f"prediction file {preds.location} has {len(preds)} records but the test set of {setup.where} has {total} rows{runs}; "
            f"check reader_cfg.test_range and n{short}"
        )
    if total == 0:
        raise InputFileError(f"{setup.where}: the test set is empty; nothing to score")
    # the raw predictions always (postprocessing, details); other fields only when score() can take them
    extraction = task.source is not None and task.source.extraction is not None
    wanted = None if needed is None else {*needed, "prediction", *(["source_extracted"] if extraction else [])}
    fields: dict[str, Any] = dict(preds.columns(wanted))
    tool_answers = fields.pop("source_extracted", None) if extraction else None
    preds.records = []  # the columns hold the values now; free the per-record dicts
    for name in preds.dropped:
        fields.setdefault(name, None)  # not passed to score(), but named in its messages
    meta = {
        "fingerprint": setup.fingerprint,
        "inputs": setup.inputs,
        "assay_version": __version__,
        "model": task.model_abbr,
        "dataset": task.dataset_abbr,
        "evaluator": getattr(setup.evaluator_type, "__name__", str(setup.evaluator_type)),
        "num_samples": test.size,
        "n": test.n,
        "k": task.dataset.get("k", 1),
        "prediction_files": [str(f) for f in setup.files],
    }
    declared = SampleOutcome.of(setup.evaluator_type)
    if declared is not None:  # which per-sample field backs each metric, for the statistics
        meta["outcome"] = declared.to_json()
    if from_gold:
        meta["references"] = "gold"
        meta["references_note"] = task.references.reason
    if task.source is not None:  # assay's score of another tool's replies: which tool, version, files
        meta["rescored"] = task.source.describe(task.model_abbr)
    if incomplete is not None:
        meta["incomplete"] = [incomplete]
    repeated = preds.duplicates_meta()
    if repeated is not None:  # scored as OpenCompass reads them (the last wins), and reported
        meta["duplicate_keys"] = repeated
        log(f"prediction files give {repeated['count']} sample key(s) more than once; the last of each is used: {repeated['files']}")
        where = "; ".join(f"{Path(f).name}: {', '.join(map(repr, keys))}" for f, keys in repeated["files"].items())
        mark = incomplete_entry(
            "duplicate_keys", repeated["count"], f"sample keys given more than once, the last of each scored as OpenCompass does ({where})"
        )
        meta["incomplete"] = merge_incomplete([meta.get("incomplete"), [mark]])
    if decomposable and test.size > options.shard_size:
        return _write_shards(task, options, setup, fields, test, meta, preds.location, log, reason, tool_answers)

    t0 = time.perf_counter()
    raw, gold = fields.get("prediction"), fields.get("gold")
    result = score(task, setup, fields, test, preds.location, str(result_path.with_suffix("")), str(options.run_dir.scratch),
                   tool_answers=tool_answers)
    del fields  # raw predictions are not needed to write the result
    compared = result.pop(TOOL_EXTRACTION_KEY, None)
    if compared is not None:  # the tool's own answers against the chain's
        meta["rescored"]["extraction_audit"] = compared.to_json()
        if compared.ok:
            log(f"{compared.differ} of {compared.replies} replies read differently by {task.source.tool}'s "
                f"{task.source.extraction!r} and the postprocessors")
    log(f"scored in {time.perf_counter() - t0:.2f}s")
    if not options.dump_details:
        result.pop("details", None)
    incomplete = result.pop(INCOMPLETE_KEY, None)
    judged = result.pop(JUDGE_KEY, None)
    if judged:  # what the judge calls cost: calls, cache hits, tokens, seconds, money
        meta["judge"] = judged
        log(judge_line(judged))
    if incomplete:  # samples scored without a verdict: recorded beside what else is incomplete
        meta["incomplete"] = merge_incomplete([meta.get("incomplete"), incomplete])
        for entry in incomplete:
            log(f"incomplete: {entry.get('detail')}")
    result[META_KEY] = meta
    outcome.samples = total
    if "error" in result:
        log(f"evaluator returned an error: {result['error']}")
        outcome.status, outcome.message = "failed", str(result["error"])
        _write_failure(task, options, result, outcome, log)
        return None
    # no fsync: a result a power failure truncates is unreadable, and the next run recomputes it
    written: bytes | None = None
    if options.prepare_stats:  # the statistics are computed from the bytes written
        digest, written = write_result_keeping(result_path, result, durable=False)
    else:
        digest = write_result(result_path, result, durable=False)
        _drop_stale_stats(result_path)
    _clear_kept_note(task, options)
    log(f"wrote {result_path}")
    record = outcome.record = ResultRecord.of_written(options.run_dir.results, result_path, result, digest)
    partial = _incomplete_message(incomplete_of(meta), total)  # the meta just written (not the record's head parsed back)
    if partial:
        outcome.status, outcome.message = "partial", partial
        log(partial)
    if options.prepare_stats:
        del result
        saved = _save_stats(task, options, result_path, digest, raw, gold, written)
        del written
        if saved is not None and record is not None:
            from assay.rundir.stats_index import index_samples, index_stats

            record.stats = index_stats(saved.options, saved.output)
            record.samples = index_samples(saved)
    return None


def _drop_stale_stats(result_path: Path) -> None:
    """Remove the ``.stats`` file of an earlier result at ``result_path``: it describes other bytes
    (and its digest would make the result just written look changed since)."""
    from assay.rundir.layout import stats_path_of

    with contextlib.suppress(OSError):
        stats_path_of(result_path).unlink()


def _save_stats(
    task: EvalTask, options: EvalOptions, result_path: Path, digest: str, raw: list[Any] | None,
    gold: list[Any] | None, written: bytes | None = None,
) -> Any:
    """Write beside the result just written what the report pass wants of it, the raw replies taken from memory."""
    from functools import partial

    from assay.rundir.sidecar import prediction_columns, save_stats
    from assay.stats import PredictionColumns

    loader: Callable[[], PredictionColumns]
    if raw is not None and task.prediction_dir == options.run_dir.prediction_dir(task.model_abbr):
        # the columns the report pass would read from the same file
        columns = PredictionColumns(raw, gold if gold is not None else [None] * len(raw))
        loader = lambda: columns  # noqa: E731
    else:  # predictions kept elsewhere: what the report pass reads
        loader = partial(prediction_columns, options.run_dir.root, task.model_abbr, task.dataset_abbr)
    return save_stats(result_path, digest, task.dataset_abbr, loader, written)



# -- shards --------------------------------------------------------------------------------


def _splittable(evaluator_type: Any) -> bool:
    """Whether the evaluator's tasks may be split: sample-decomposable, with every metric's
    per-sample sum declared (``sample_sums``), so that the merge gives the bits of a whole run."""
    return bool(getattr(evaluator_type, "sample_decomposable", False)) and bool(getattr(evaluator_type, "sample_sums", None))


def _resume_plan(task: EvalTask, options: EvalOptions, setup: _Setup, log: _Log, reason: str) -> ShardPlan | None:
    """The plan of an interrupted split of the same inputs, with the shards still to score."""
    folder = ShardFolder.of(options.run_dir, task.model_abbr, task.dataset_abbr)
    if not folder.exists():
        return None
    plan = folder.read_plan()
    stale = _stale_plan(folder, plan, setup.fingerprint, options.shard_size)
    if options.force or stale is not None:
        if stale is not None and plan is not None:
            log(f"rebuilding the split: {stale}")
        folder.remove()
        return None
    assert plan is not None
    count = len(plan["ranges"])
    pending = [s for s in range(count) if not folder.done(s, setup.fingerprint)]
    missing = [s for s in pending if not folder.has_input(s)]
    if missing:  # a split another process removed or cut short: start it again
        log(f"rebuilding the split: the inputs of shards {missing} are missing")
        folder.remove()
        return None
    log(f"resuming a split into {count} shards: {count - len(pending)} already scored")
    plan["log"] = [*plan.get("log", []), *log.lines]
    folder.write_plan(plan)
    return ShardPlan(task.name, count, pending, plan["meta"]["num_samples"], reason=f"{reason}; resumed")


def _stale_plan(folder: ShardFolder, plan: dict[str, Any] | None, fingerprint: str, shard_size: int) -> str | None:
    """Why the shard plan in ``folder`` cannot be resumed, or ``None`` when it can."""
    if plan is None:
        return f"{folder.plan_path} is missing or unreadable"
    if plan.get("fingerprint") != fingerprint:
        return "the plan is of other inputs"
    if plan.get("shard_size") != shard_size:
        return "the plan has another shard size"
    ranges, meta = plan.get("ranges"), plan.get("meta")
    if (
        not isinstance(ranges, list)
        or not ranges
        or not all(isinstance(r, list) and len(r) == 2 for r in ranges)
        or not isinstance(meta, dict)
        or not isinstance(meta.get("num_samples"), int)
        or not isinstance(plan.get("location"), str)
    ):
        return "the plan is incomplete"
    return None


def _write_shards(
    task: EvalTask,
    options: EvalOptions,
    setup: _Setup,
    fields: dict[str, Any],
    test: Any,
    meta: dict[str, Any],
    location: str,
    log: _Log,
    reason: str,
    tool_answers: list[Any] | None = None,
) -> ShardPlan:
    """Write each shard's inputs and the plan; the shards are scored by :func:`run_shard`.

    ``tool_answers``: another tool's own answers to the replies (see :func:`assay.tasks.score.score`), each
    shard given its rows of them, so that each shard compares them and the merge puts the comparisons together.
    """
    folder = ShardFolder.of(options.run_dir, task.model_abbr, task.dataset_abbr)
    folder.start()
    t0 = time.perf_counter()
    ranges = shard_ranges(test.size, options.shard_size)
    columns = {name: col for name, col in fields.items() if col is not None}
    for s, (lo, hi) in enumerate(ranges):
        rows = shard_indices(lo, hi, test.size, test.n)
        payload = {
            "fields": {name: [col[i] for i in rows] for name, col in columns.items()},
            "none_fields": [name for name, col in fields.items() if col is None],
            "test": dataclasses.replace(test.rows(rows), size=hi - lo, n=test.n),  # the shard's rows of every run
        }
        if tool_answers is not None:
            payload["tool_answers"] = [tool_answers[i] for i in rows]
        folder.write_input(s, payload)
    log(f"split into {len(ranges)} shards of up to {options.shard_size} samples in {time.perf_counter() - t0:.2f}s")
    plan = {
        "fingerprint": setup.fingerprint,
        "shard_size": options.shard_size,
        "ranges": ranges,
        "location": location,
        "meta": meta,
        "log": log.lines,
    }
    folder.write_plan(plan)
    return ShardPlan(task.name, len(ranges), list(range(len(ranges))), test.size, reason=reason)


def run_shard(task: EvalTask, options: EvalOptions, shard: int) -> str | None:
    """Score one shard of a split task; ``None`` on success, else the error message.

    Writes ``out_<shard>.details`` then ``out_<shard>.json`` in the task's shard folder.
    """
    folder = ShardFolder.of(options.run_dir, task.model_abbr, task.dataset_abbr)
    try:
        t0 = time.perf_counter()
        plan = folder.read_plan()
        if plan is None:
            raise EvaluationError(f"{task.name}: the shard plan in {folder.path} is missing or unreadable")
        setup = _setup(task, options, fingerprint=False)
        payload = folder.read_input(shard)
        fields: dict[str, Any] = dict(payload["fields"])
        for name in payload["none_fields"]:
            fields[name] = None
        test: TestSet = payload["test"]
        size = test.size
        result_path = options.run_dir.result_path(task.model_abbr, task.dataset_abbr)
        result = score(task, setup, fields, test, plan["location"], str(result_path.with_suffix("")), str(options.run_dir.scratch),
                       tool_answers=payload.get("tool_answers"))
        compared = result.pop(TOOL_EXTRACTION_KEY, None)
        declared = getattr(setup.evaluator_type, "sample_sums", None) or {}
        kept_fields = {name: fields[name] for name, _ in declared.values() if fields.get(name) is not None}
        del payload, fields
        header: dict[str, Any] = {"fingerprint": plan["fingerprint"], "shard": shard, "samples": size}
        if "error" in result:
            header["error"] = result["error"]
        else:
            details = result.pop("details", None)
            if options.dump_details and details is not None:
                folder.write_details(shard, details)
            header["has_details"] = details is not None
            audit = detach(result)
            if audit is not None:
                header["audit"] = audit.to_json()
            if compared is not None:  # the tool's own answers against the chain's, on this shard's samples
                header["tool_audit"] = compared.to_json()
            header["result"] = result
            header["subdivisions"] = _subdivisions(test.view, size, task.dataset_abbr)
            g_pass = any(_G_PASS_KEY.fullmatch(key.rpartition("/")[2]) for key in result)
            header["sums"] = shard_sums(
                details, getattr(setup.evaluator_type, "sample_sums", None), test.n, g_pass,
                sample_subdivisions(test.view, size, task.dataset_abbr) if g_pass else [], kept_fields,
            )
        header["log"] = f"shard {shard} ({size} samples) scored in {time.perf_counter() - t0:.2f}s"
        folder.write_output(shard, header)
        return str(header["error"]) if "error" in header else None
    except Exception as exc:
        logger.debug("shard %d of %s failed", shard, task.name, exc_info=True)
        # the split cannot be trusted any more (inputs missing or unreadable): the next run builds it again
        folder.drop_plan()
        return f"shard {shard}: {_describe(exc)}"


_G_PASS_KEY = re.compile(r"m?G-Pass@\d+(_[0-9.]+)?")


def _subdivisions(dataset: Any, size: int, dataset_abbr: str) -> dict[str, int]:
    """Samples per subdivision among the first ``size`` rows, as BaseEvaluator groups G-Pass@k."""
    cols = getattr(dataset, "column_names", None) or []
    if "subdivision" in cols and "idx" in cols:
        counts: dict[str, int] = {}
        for sub in dataset.select_columns(["subdivision"])[:size]["subdivision"]:
            counts[str(sub)] = counts.get(str(sub), 0) + 1
        return counts
    return {dataset_abbr or "dataset": size}


def _merge_shard_audits(ranges: list[Any], headers: list[dict[str, Any]], key: str = "audit") -> AuditRecord:
    """The shards' audit records (under ``key`` in their headers: ``tool_audit`` for the comparison with another
    tool's own answers) merged; their would-be metrics as the shards' metrics are."""
    from assay.audit.merge import merge_records

    def merge(items: list[tuple[dict[str, Any], int, Any]]) -> dict[str, Any]:
        return merge_metrics([ShardPart(metrics, samples, dict(subs)) for metrics, samples, subs in items])[0]

    parts = [(AuditRecord.from_json(h[key]) if key in h else None, int(lo), h["samples"], h["subdivisions"])
             for (lo, _), h in zip(ranges, headers)]
    return merge_records(parts, merge)


def merge_shards(task: EvalTask, options: EvalOptions) -> TaskOutcome:
    """Merge the scored shards of a split task into its result file; never raises."""
    run_dir = options.run_dir
    folder = ShardFolder.of(run_dir, task.model_abbr, task.dataset_abbr)
    result_path = run_dir.result_path(task.model_abbr, task.dataset_abbr)
    log = _Log(run_dir.log_path(task.model_abbr, task.dataset_abbr))
    outcome = TaskOutcome(task.name, "ok", str(result_path), str(log.path))
    t0 = time.perf_counter()
    try:
        plan = folder.read_plan()
        if plan is None:
            raise EvaluationError(f"{task.name}: the shard plan in {folder.path} is missing or unreadable")
        log.lines.extend(plan.get("log", []))
        count = len(plan["ranges"])
        headers = [folder.read_output(s) for s in range(count)]
        for h in headers:
            log(str(h.get("log", "")))
        errors = [h for h in headers if "error" in h]
        meta = plan["meta"]
        outcome.samples = meta["num_samples"] * meta["n"]
        outcome.shards = count
        if errors:
            message = str(errors[0]["error"])
            log(f"evaluator returned an error: {message}")
            outcome.status, outcome.message = "failed", message
            _write_failure(task, options, _error_result(task, message, "EvaluationError", log.path), outcome, log)
        else:
            parts = [ShardPart(h["result"], h["samples"], h["subdivisions"], h.get("sums") or {}) for h in headers]
            merged, notes = merge_metrics(parts)
            declared = getattr(_setup(task, options, fingerprint=False).evaluator_type, "sample_sums", None)
            exact = exact_metrics(parts, declared, meta["n"], meta.get("k", 1))
            for key in merged:
                if key in exact:
                    merged[key] = exact[key]
                elif key != "extraction" and isinstance(merged[key], (int, float)) and not isinstance(merged[key], bool):
                    log(f"merging shards: {key!r} is not declared in the evaluator's sample_sums; "
                        "averaged over the shards, which may differ from an unsplit run in the last bits")
            if any("audit" in h for h in headers):
                attach(merged, _merge_shard_audits(plan["ranges"], headers))
            if any("tool_audit" in h for h in headers) and isinstance(meta.get("rescored"), dict):
                compared = _merge_shard_audits(plan["ranges"], headers, "tool_audit")
                meta = {**meta, "rescored": dict(meta["rescored"])}
                meta["rescored"]["extraction_audit"] = compared.to_json()
                if compared.ok:
                    log(f"{compared.differ} of {compared.replies} replies read differently by {meta['rescored'].get('tool')}'s "
                        f"{meta['rescored'].get('extraction')!r} and the postprocessors")
            for note in notes:
                log(f"merging shards: {note}")
            with_details = options.dump_details and all(h.get("has_details") for h in headers)
            if with_details:
                merged["details"] = []
            dropped = sorted({key for part in parts for key in part.result if key not in merged})
            merged[META_KEY] = {**meta, "dropped_metrics": dropped} if dropped else meta
            fragments = [folder.details_path(s) for s in range(count)]
            if with_details:
                atomic_write_chunks(result_path, splice_details(merged, fragments))
            else:
                write_result(result_path, merged, durable=False)
            _drop_stale_stats(result_path)
            outcome.record = ResultRecord.of_file(run_dir.results, result_path)
            _clear_kept_note(task, options)
            log(f"merged {count} shards into {result_path} in {time.perf_counter() - t0:.2f}s")
        folder.remove()
    except Exception as exc:
        _record_failure(task, options, outcome, log, exc)
    log(f"{outcome.status}")
    log.flush()
    return outcome
