"""Running one (model, dataset) task: predictions in, one result file out (R-6.1).

A task that fails writes ``{"error": ...}`` (with the component and file that
failed) to its result file and a traceback to its log; it never raises, so
the other tasks carry on (R-5.6).
"""

from __future__ import annotations

import logging
import time
import traceback
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from assay import __version__
from assay.errors import AssayError, EvaluationError, InputFileError
from assay.fileio import atomic_write_text
from assay.results import META_KEY, read_result, write_result
from assay.tasks.fingerprint import files_digest, task_fingerprint
from assay.tasks.plan import EvalOptions, EvalTask

logger = logging.getLogger(__name__)

__all__ = ["TaskOutcome", "run_task"]


@dataclass
class TaskOutcome:
    """What happened to one task."""

    name: str
    status: str  # "ok", "reused" or "failed"
    result_path: str
    log_path: str
    message: str = ""
    seconds: float = 0.0
    samples: int = 0

    @property
    def failed(self) -> bool:
        return self.status == "failed"


class _Log:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []

    def __call__(self, msg: str) -> None:
        self.lines.append(f"{datetime.now().isoformat(timespec='seconds')} {msg}")

    def flush(self) -> None:
        atomic_write_text(self.path, "\n".join(self.lines) + "\n")


def run_task(task: EvalTask, options: EvalOptions) -> TaskOutcome:
    """Score one task and write its result file; never raises for a task's own failure."""
    run_dir = options.run_dir
    result_path = run_dir.result_path(task.model_abbr, task.dataset_abbr)
    log = _Log(run_dir.log_path(task.model_abbr, task.dataset_abbr))
    start = time.perf_counter()
    log(f"task {task.name} (assay {__version__})")
    outcome = TaskOutcome(task.name, "ok", str(result_path), str(log.path))
    try:
        status, samples, message = _score(task, options, result_path, log)
        outcome.status, outcome.samples, outcome.message = status, samples, message
    except Exception as exc:
        message = _describe(exc)
        log(f"FAILED: {message}")
        log(traceback.format_exc())
        outcome.status, outcome.message = "failed", message
        write_result(
            result_path,
            {
                "error": message,
                META_KEY: {
                    "assay_version": __version__,
                    "model": task.model_abbr,
                    "dataset": task.dataset_abbr,
                    "error_type": type(exc).__name__,
                    "log": str(log.path),
                },
            },
        )
    outcome.seconds = time.perf_counter() - start
    log(f"{outcome.status} in {outcome.seconds:.2f}s")
    try:
        log.flush()
    except OSError:
        logger.warning("could not write the log %s", log.path)
    return outcome


def _describe(exc: BaseException) -> str:
    if isinstance(exc, AssayError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _score(task: EvalTask, options: EvalOptions, result_path: Path, log: _Log) -> tuple[str, int, str]:
    from assay.datasets.build import build_test_set
    from assay.evaluate.assemble import assemble_score_kwargs
    from assay.postprocess.chain import build_postprocessor
    from assay.predictions import find_prediction_files, load_predictions
    from assay.registry import ICL_EVALUATORS, resolve_type

    dataset_cfg, model_cfg = task.dataset, task.model
    where = f"dataset {task.dataset_abbr!r}"
    eval_cfg = dict(dataset_cfg.get("eval_cfg") or {})
    evaluator_cfg = dict(eval_cfg.get("evaluator") or {})
    evaluator_type = resolve_type(evaluator_cfg.get("type"), ICL_EVALUATORS, key=f"{where} eval_cfg.evaluator.type")

    files = find_prediction_files(task.prediction_dir, task.dataset_abbr)
    test_files = [task.config.resolve_path(dataset_cfg["path"])] if isinstance(dataset_cfg.get("path"), str) else []
    fingerprint = task_fingerprint(
        predictions_digest=files_digest(files),
        dataset_cfg=dataset_cfg,
        model_cfg=model_cfg,
        test_files=test_files,
        evaluator_type=evaluator_type,
        dump_details=options.dump_details,
    )
    if not options.force and result_path.is_file():
        reason = _reuse_check(result_path, fingerprint)
        if reason is None:
            log(f"reused {result_path} (inputs unchanged)")
            return "reused", 0, "inputs unchanged"
        log(f"recomputing: {reason}")

    t0 = time.perf_counter()
    preds = load_predictions(task.prediction_dir, task.dataset_abbr)
    log(f"read {len(preds)} predictions from {preds.location}")
    test = build_test_set(dataset_cfg, resolve_path=task.config.resolve_path, where=where)
    total = test.size * test.n
    if len(preds) != total:
        runs = f" ({test.n} runs × {test.size} rows)" if test.n > 1 else ""
        raise InputFileError(
            f"prediction file {preds.location} has {len(preds)} records but the test set of {where} has {total} rows{runs}; "
            "check reader_cfg.test_range and n"
        )
    if total == 0:
        raise InputFileError(f"{where}: the test set is empty; nothing to score")

    fields: dict[str, Any] = dict(preds.columns())
    raw = fields.get("prediction")
    predictions: list[Any] | None = list(raw) if raw is not None else None
    if predictions is not None:
        for label, cfg in (
            (f"model {task.model_abbr!r} pred_postprocessor", model_cfg.get("pred_postprocessor")),
            (f"{where} eval_cfg.pred_postprocessor", eval_cfg.get("pred_postprocessor")),
        ):
            fn = build_postprocessor(cfg, where=label)
            if fn is not None:
                predictions = _postprocess(fn, predictions, label, preds.location)
    fields["predictions"] = predictions
    fields["references"] = test.references
    fields["test_set"] = test.dataset
    if fields.get("origin_prompt") is None:
        fields["origin_prompt"] = [None] * len(preds)

    kwargs = {k: v for k, v in evaluator_cfg.items() if k != "type"}
    try:
        evaluator = evaluator_type(**kwargs)
    except TypeError as exc:
        raise EvaluationError(f"{where}: cannot build {getattr(evaluator_type, '__name__', evaluator_type)}({', '.join(kwargs)}): {exc}") from exc
    evaluator._out_dir = str(result_path.with_suffix(""))
    evaluator.dataset_abbr = task.dataset_abbr
    name = type(evaluator).__name__
    score_kwargs = assemble_score_kwargs(evaluator.score, fields, evaluator=name, source=preds.location)
    try:
        result = evaluator.evaluate(dataset_cfg.get("k", 1), test.n, test.dataset, **score_kwargs)
    except AssayError:
        raise
    except Exception as exc:
        raise EvaluationError(f"{name} failed on {where} ({preds.location}): {type(exc).__name__}: {exc}") from exc
    if not isinstance(result, dict):
        raise EvaluationError(f"{name}.evaluate() returned {type(result).__name__}, expected a dict")
    result = dict(result)
    if "error" in result:
        result["error"] = f"{name} on {where}: {result['error']}"
    elif "details" not in result and predictions is not None:
        result["details"] = _plain_details(raw or [], predictions, test.references, test.size, test.n)
    if not options.dump_details:
        result.pop("details", None)
    result[META_KEY] = {
        "fingerprint": fingerprint,
        "assay_version": __version__,
        "model": task.model_abbr,
        "dataset": task.dataset_abbr,
        "evaluator": name,
        "num_samples": test.size,
        "n": test.n,
        "k": dataset_cfg.get("k", 1),
        "prediction_files": [str(f) for f in files],
        "seconds": round(time.perf_counter() - t0, 4),
    }
    write_result(result_path, result)
    if "error" in result:
        log(f"evaluator returned an error: {result['error']}")
        return "failed", total, str(result["error"])
    log(f"wrote {result_path}")
    return "ok", total, ""


def _postprocess(fn: Any, predictions: list[Any], label: str, location: str) -> list[Any]:
    from assay.postprocess.chain import apply_postprocessor

    try:
        return apply_postprocessor(fn, predictions)
    except Exception:
        # find the offending sample for the message
        for i, p in enumerate(predictions):
            try:
                apply_postprocessor(fn, [p])
            except Exception as exc:
                raise EvaluationError(
                    f"{label} ({getattr(fn, '__name__', fn)}) raised {type(exc).__name__}: {exc} "
                    f"on sample {i} of {location} (prediction {p!r:.80})"
                ) from exc
        raise


def _plain_details(raw: list[Any], processed: list[Any], refs: list[Any] | None, size: int, n: int) -> list[dict[str, Any]]:
    """Per-sample records (raw prediction, extracted answer, reference) when the evaluator gave none."""
    out: list[dict[str, Any]] = []
    for j in range(size):
        idx = [r * size + j for r in range(n)]
        out.append(
            {
                "origin_prediction": [raw[i] for i in idx],
                "prediction": [processed[i] for i in idx],
                "reference": [refs[i] for i in idx] if refs is not None else [None] * n,
            }
        )
    return out


def _reuse_check(result_path: Path, fingerprint: str) -> str | None:
    """``None`` when the existing result can be reused, else why not."""
    try:
        existing = read_result(result_path)
    except AssayError as exc:
        return f"the existing result is unreadable ({exc})"
    if "error" in existing:
        return "the existing result records an error"
    meta = existing.get(META_KEY)
    if not isinstance(meta, dict) or "fingerprint" not in meta:
        return "the existing result has no input fingerprint"
    if meta["fingerprint"] != fingerprint:
        return "its inputs changed (predictions, test set, config, evaluator source or assay version)"
    return None
