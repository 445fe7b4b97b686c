"""Running one judge task as OpenCompass 0.5.4's ``SubjectiveEvalTask`` runs it.

For a model (or a pair) on a dataset, judged by one judge:

1. each model's answers are read as ``_load_model_pred`` reads them: its
   prediction file(s) (``<dataset>.json``, or ``<dataset>_0.json``, … —
   from the folder the dataset's ``given_pred`` names for the model, else the
   model's ``predictions`` folder, else ``predictions/<model>/``), the
   records' ``prediction`` in key order, ``reader_cfg.test_range`` applied;
   then the postprocessors: the model's ``pred_postprocessor`` entry whose
   pattern matches the dataset's abbr, else the evaluator's
   ``pred_postprocessor``; then again the matching entry, else the model's
   ``pred_postprocessor`` (OpenCompass applies the matching entry twice).
   ``pred_role`` changes nothing: OpenCompass's extraction of the role's
   text never cuts (its test of the role's begin and end strings always
   passes);
2. the test set is loaded (its ``dataset_postprocessor`` applied to the
   references), and :class:`~assay.evaluators.lm_evaluator.LMEvaluator` is
   built from ``eval_cfg.evaluator`` with the judge, the dataset and the
   result's path, and scores the answers (``infer_order`` from the dataset);
3. the result goes to ``results/<models>_judged-by--<judge>/<dataset>.json``
   in OpenCompass's format (:mod:`assay.rundir.judged`), and what assay adds
   beside it (``<dataset>.meta``): the input fingerprint, what the judging
   cost, the unjudged samples (``incomplete``: the requests that failed;
   ``unreadable``: replies the benchmark's reading gets no verdict from).

A result already there is reused when its inputs (prediction files, test set,
evaluator and judge configs, ``infer_order``) are unchanged and every judge
request of it got a reply (a partial result is judged again: the replies it
has come from the cache, the failed requests are sent again), or when it was
written by OpenCompass (no ``.meta``: OpenCompass, too, skips a task whose
result exists); ``force`` judges again (from the reply cache: a rerun sends
no request it has sent before).  A task that fails leaves the result that
was there as it was, and its reason in the ``.meta``.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay.errors import AssayError, ConfigError, InputFileError
from assay.rundir.layout import RunDir
from assay.subjective.plan import SubjectiveTask

logger = logging.getLogger(__name__)

__all__ = ["SubjectiveOutcome", "load_answers", "pending_calls", "run_subjective_task"]


@dataclass(repr=False, eq=False)
class SubjectiveOutcome(DataclassMethods):
    """How one judge task ended: ``status`` ``ok``, ``reused``, ``partial`` or ``failed``."""

    name: str
    status: str
    message: str = ""
    samples: int = 0
    seconds: float = 0.0
    requests: int = 0
    unjudged: int = 0
    unreadable: int = 0

    @property
    def failed(self) -> bool:
        return self.status == "failed"


def _prediction_folder(task: SubjectiveTask, model: dict[str, Any], run_dir: RunDir) -> Path:
    from assay.config.abbr import model_abbr
    from assay.datasets.location import get_data_path

    abbr = model_abbr(model)
    folder: Path | None = None
    for given in task.given_pred:
        if given["abbr"] == abbr:
            folder = Path(get_data_path(str(given["path"]), local_mode=True))
    if folder is not None:
        return folder
    own = model.get("predictions")
    return task.config.resolve_path(own) if isinstance(own, str) else run_dir.prediction_dir(abbr)


def _read_answers(files: list[Path]) -> list[Any]:
    from assay.fileio import read_json

    answers: list[Any] = []
    for file in files:
        records = read_json(file, what="prediction file")
        if not isinstance(records, dict):
            raise InputFileError(f"{file}: a prediction file must hold a JSON object of records, got {type(records).__name__}")
        for i in range(len(records)):
            record = records.get(str(i))
            if not isinstance(record, dict) or "prediction" not in record:
                raise InputFileError(f"{file}: record {i} is missing or has no 'prediction' (records are keyed '0'..'{len(records) - 1}')")
            answers.append(record["prediction"])
    return answers


def _postprocessor(spec: Any, where: str) -> Any:
    from assay.registry import TEXT_POSTPROCESSORS, resolve_type

    options = copy.deepcopy(dict(spec))
    fn = resolve_type(options.pop("type", None), TEXT_POSTPROCESSORS, key=f"{where}.type")
    return lambda text: fn(text, **options)


def load_answers(task: SubjectiveTask, model: dict[str, Any], run_dir: RunDir) -> tuple[dict[str, Any], list[Path]]:
    """One model's answers as the judge gets them (``{'model_name', 'model_preds'}``, see the module),
    and the files they were read from.

    Raises:
        InputFileError: naming the folder and the files looked for, or the file and record at fault.
    """
    from assay.config.abbr import model_abbr
    from assay.rundir.predictions import find_prediction_files

    folder = _prediction_folder(task, model, run_dir)
    files = find_prediction_files(folder, task.dataset_abbr)
    answers = _read_answers(files)
    test_range = (task.dataset.get("reader_cfg") or {}).get("test_range")
    if test_range:
        from assay.datasets.reader import select_indices

        answers = [answers[i] for i in select_indices(len(answers), test_range)]
    evaluator = (task.dataset.get("eval_cfg") or {}).get("evaluator") or {}
    patterns = model.get("pred_postprocessor") or {}
    matched = None
    if isinstance(patterns, dict) and "type" not in patterns:
        matched = next((patterns[p] for p in patterns if fnmatch.fnmatch(task.dataset_abbr, p)), None)
    first = matched or evaluator.get("pred_postprocessor")
    if first:
        fn = _postprocessor(first, "eval_cfg.evaluator.pred_postprocessor")
        answers = [fn(a) for a in answers]
    second = matched or model.get("pred_postprocessor")
    if second and "type" in second:
        fn = _postprocessor(second, f"model {model_abbr(model)!r} pred_postprocessor")
        answers = [fn(a) for a in answers]
    return {"model_name": model_abbr(model), "model_preds": answers}, files


def _raw_test_set(test: Any) -> Any:
    """The test set's rows as the loader gave them (``test_range`` applied), as a ``datasets.Dataset``."""
    import datasets

    from assay.datasets.table import RowTable

    table = test.source.to_arrow() if isinstance(test.source, RowTable) else test.source
    if test.indices is not None:
        table = table.take(test.indices)
    return datasets.Dataset(table)


@dataclass(repr=False, eq=False)
class _Prepared(DataclassMethods):
    evaluator: Any
    answers: Any
    references: list[Any] | None
    fingerprint: str


def _prepare(task: SubjectiveTask, run_dir: RunDir) -> _Prepared:
    from assay.datasets.build import build_test_set
    from assay.evaluators.lm_evaluator import LMEvaluator
    from assay.registry import LOAD_DATASET, resolve_type
    from assay.rundir.judged import judged_result_path
    from assay.subjective.verdicts import READERS

    dataset = task.dataset
    loaded = [load_answers(task, m, run_dir) for m in task.models]
    answers: Any = loaded[0][0] if len(loaded) == 1 else [a for a, _ in loaded]
    test = build_test_set(dict(dataset), where=f"dataset {task.dataset_abbr!r}")
    raw = _raw_test_set(test)
    output_column = (dataset.get("reader_cfg") or {}).get("output_column")
    references = None
    if output_column:
        references = list(test.post_values) if test.post_values is not None else list(raw[output_column])
    size = len(loaded[0][0]["model_preds"])
    for got, files in loaded:
        if len(got["model_preds"]) != size or size != len(raw):
            raise InputFileError(
                f"dataset {task.dataset_abbr!r}: {got['model_name']}'s predictions ({', '.join(map(str, files))}) hold "
                f"{len(got['model_preds'])} answers for {len(raw)} test rows")
    spec = copy.deepcopy(dict((dataset.get("eval_cfg") or {}).get("evaluator") or {}))
    spec.pop("type", None)
    out_path = judged_result_path(run_dir, task.folder, task.dataset_abbr)
    loader = resolve_type(dataset.get("type"), LOAD_DATASET, key="type")
    reader = getattr(loader, "judge_verdict", None)
    try:
        evaluator = LMEvaluator(**spec, judge_cfg=dict(task.judge), dataset_cfg=dict(dataset), output_path=str(out_path),
                                test_set=raw, cache_path=run_dir.judge_cache, verdict=READERS.get(reader) if reader else None)
    except TypeError as exc:
        raise ConfigError(f"dataset {task.dataset_abbr!r}: eval_cfg.evaluator (LMEvaluator): {exc}") from None
    digest = hashlib.sha256()
    for _, files in loaded:
        for file in files:
            digest.update(file.read_bytes())
    judge = {k: v for k, v in task.judge.items() if k not in ("key", "api_key")}
    for part in (test.fingerprint, spec, judge, task.infer_order, output_column):
        digest.update(json.dumps(part, sort_keys=True, ensure_ascii=False, default=repr).encode())
    return _Prepared(evaluator, answers, references, digest.hexdigest())


def pending_calls(task: SubjectiveTask, run_dir: RunDir) -> tuple[int, Any]:
    """``(samples, estimate)`` of a task: its judge's dataset's rows, and the judge calls they need beyond
    the reply cache with their cost at most (a :class:`assay.judge.JudgeEstimate`), without calling the judge."""
    prepared = _prepare(task, run_dir)
    ev = prepared.evaluator
    refs = copy.deepcopy(prepared.references) if prepared.references is not None else None
    rows = ev.judge_rows(prepared.answers, None, refs, False, task.infer_order)
    return len(rows), ev.estimate(rows)


def run_subjective_task(task: SubjectiveTask, run_dir: RunDir, *, force: bool = False) -> SubjectiveOutcome:
    """Run one judge task (see the module); never raises for the task's own failures."""
    from assay.evaluate.base import incomplete_entry
    from assay.rundir.judged import (
        begin_judging,
        end_judging,
        judged_result_path,
        keep_previous_beside,
        read_judged_meta,
        recover_interrupted,
        write_judged_meta,
        write_judged_result,
    )

    began = time.perf_counter()
    out_path = judged_result_path(run_dir, task.folder, task.dataset_abbr)
    try:  # a run killed while judging left its previous result aside: put it back first
        old_meta = recover_interrupted(out_path, read_judged_meta(out_path))
    except OSError as exc:
        return _failed(task, out_path, None, f"could not restore the result an interrupted run left: {exc}", time.perf_counter())
    try:
        prepared = _prepare(task, run_dir)
    except (AssayError, OSError, KeyError, ValueError, TypeError) as exc:
        return _failed(task, out_path, old_meta, f"{type(exc).__name__}: {exc}", began)
    if out_path.is_file() and not force:
        if old_meta is None:
            return SubjectiveOutcome(task.name, "reused", "written by OpenCompass", seconds=time.perf_counter() - began)
        if old_meta.get("fingerprint") == prepared.fingerprint and "error" not in old_meta and not old_meta.get("incomplete"):
            return SubjectiveOutcome(task.name, "reused", "inputs unchanged", seconds=time.perf_counter() - began)
    evaluator = prepared.evaluator
    # a result assay did not write (OpenCompass's: no meta, or only a failure's): or one a partial result of
    # assay's was kept beside; assay's own results always have their fingerprint in the meta
    theirs = out_path.is_file() and (old_meta is None or "beside" in old_meta or "fingerprint" not in old_meta)
    try:
        begin_judging(out_path, old_meta)
    except OSError as exc:
        return _failed(task, out_path, old_meta, f"{type(exc).__name__}: {exc}", began)
    try:
        result = evaluator.score(prepared.answers, None, prepared.references, False, task.infer_order)
        if "error" in result:
            raise AssayError(str(result["error"]))
        write_judged_result(out_path, result)
    except BaseException as exc:  # a judge or a postprocessor failing: the task fails, the others go on
        logger.debug("judge task %s failed", task.name, exc_info=True)
        recover_interrupted(out_path, read_judged_meta(out_path))  # what was there before stays, with its meta
        if not isinstance(exc, Exception):  # Ctrl-C and the like stop the run, with the result back as it was
            raise
        return _failed(task, out_path, old_meta, f"{type(exc).__name__}: {exc}", began)
    finally:
        client = getattr(evaluator, "_client", None)
        if client is not None:
            client.close()
    extra = evaluator.meta
    unjudged = extra.get("unjudged") or {}
    failed = unjudged.get("failed") or {}
    unreadable = unjudged.get("unreadable") or []
    samples = int(extra.get("samples", 0))
    meta: dict[str, Any] = {
        "fingerprint": prepared.fingerprint,
        "models": task.model_abbrs,
        "judge_model": task.judge_abbr,
        "dataset": task.dataset_abbr,
        "infer_order": task.infer_order,
        "samples": samples,
        "judge": extra.get("judge"),
    }
    if failed or unreadable:
        meta["unjudged"] = {"count": len(failed) + len(unreadable), "failed": failed, "unreadable": unreadable}
    beside = None
    if failed:
        common = max(set(failed.values()), key=list(failed.values()).count)
        where = "their replies are empty in the result"
        if theirs:  # OpenCompass's complete result stays where it is; assay's partial one goes beside it
            try:
                beside = keep_previous_beside(out_path)
            except OSError as exc:
                recover_interrupted(out_path, read_judged_meta(out_path))
                return _failed(task, out_path, old_meta, f"{type(exc).__name__}: {exc}", began)
            meta["beside"] = beside.name
            where = (f"the result already there (not written by assay) is kept, and assay's, with their replies "
                     f"empty, is {beside.name} beside it")
        meta["incomplete"] = [incomplete_entry(
            "unjudged", len(failed),
            f"{len(failed)} of {samples} judge requests failed ({common}); {where}; run again to ask the judge for them")]
    try:
        write_judged_meta(out_path, meta)
    except OSError as exc:  # the meta still says judging: the next run puts the previous result back
        return _failed(task, out_path, old_meta, f"could not write {out_path.with_suffix('.meta')}: {exc}", began)
    end_judging(out_path, beside=beside is not None)
    status = "partial" if failed else "ok"
    message = ""
    if failed or unreadable:
        message = f"{len(failed) + len(unreadable)} of {samples} samples unjudged ({len(failed)} requests failed, {len(unreadable)} replies without a verdict)"
    return SubjectiveOutcome(task.name, status, message, samples, time.perf_counter() - began, int(extra.get("requests", 0)),
                             len(failed) + len(unreadable), len(unreadable))


def _failed(task: SubjectiveTask, out_path: Path, old_meta: dict[str, Any] | None, message: str, began: float) -> SubjectiveOutcome:
    from assay.rundir.judged import write_judged_meta

    logger.error("judge task %s failed: %s", task.name, message)
    meta = dict(old_meta or {})
    meta["error"] = message
    try:
        write_judged_meta(out_path, meta)
    except OSError:
        logger.warning("could not record the failure of %s beside %s", task.name, out_path, exc_info=True)
    return SubjectiveOutcome(task.name, "failed", message, seconds=time.perf_counter() - began)
