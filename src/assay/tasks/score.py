"""The scoring step: predictions in, a result dict out.

For one (model, dataset): the model's and the dataset's ``pred_postprocessor``
run over the raw predictions, the evaluator of ``eval_cfg.evaluator`` is
built, and its ``evaluate()`` gets the postprocessed predictions, the
references and the fields ``score()`` asks for.  When no ``details`` come
back, plain ones (raw reply, extracted answer, reference) are added; with an
extraction audit planned (:mod:`assay.audit`), the corrected extractors are
scored too and the result gets its audit record.

Everything around it — whether a result can be reused, reading the
predictions and the test set, shards, writing the result — is
:mod:`assay.tasks.run`'s.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay.datasets.build import TestSet
from assay.errors import AssayError, EvaluationError
from assay.evaluate.base import JUDGE_KEY, merge_judge_usage
from assay.tasks.plan import EvalTask, reads_test_set

logger = logging.getLogger(__name__)

__all__ = ["TOOL_EXTRACTION_KEY", "ScoreStep", "estimate_judging", "is_judged", "needed_fields", "score"]

#: The key under which :func:`score` returns the comparison of another tool's own answers with the chain's
#: (the task writes it as ``_meta.rescored.extraction_audit``).
TOOL_EXTRACTION_KEY = "__tool_extraction__"


@dataclass(init=False, repr=False, eq=False)
class ScoreStep(DataclassMethods):
    """What scoring a task needs of its config: where it is (for messages), ``eval_cfg``, the evaluator.

    Attributes:
        where: ``"dataset '<abbr>'"``, for messages.
        eval_cfg: the dataset's ``eval_cfg``.
        evaluator_cfg: its ``evaluator`` (``type`` and keyword arguments).
        evaluator_type: the evaluator class ``type`` resolves to.
        audit: the extraction audit's substitutions, planned with the task, when a
            postprocessor of the chain has a corrected counterpart (else ``None``).
        postprocessor_types: the functions the ``type`` of the model's and the
            dataset's ``pred_postprocessor`` resolve to, resolved once when the
            task was planned (:class:`~assay.tasks.plan.ResolvedChain`; ``None``
            where there is none, or where it cannot be resolved: scoring then says why).
    """

    where: str
    eval_cfg: dict[str, Any]
    evaluator_cfg: dict[str, Any]
    evaluator_type: Any
    audit: Any
    postprocessor_types: tuple[Any, Any]

    def __init__(
        self,
        where: str,
        eval_cfg: dict[str, Any],
        evaluator_cfg: dict[str, Any],
        evaluator_type: Any,
        audit: Any,
        postprocessor_types: tuple[Any, Any],
    ) -> None:
        self.where = where
        self.eval_cfg = eval_cfg
        self.evaluator_cfg = evaluator_cfg
        self.evaluator_type = evaluator_type
        self.audit = audit
        self.postprocessor_types = postprocessor_types


def needed_fields(evaluator_type: Any) -> tuple[str, ...] | None:
    """The prediction-file fields ``score()`` can receive, or ``None`` for all of them."""
    try:
        return _score_parameters(evaluator_type)
    except TypeError:  # an unhashable evaluator type: not remembered
        return _score_parameters.__wrapped__(evaluator_type)


@lru_cache(maxsize=64)
def _score_parameters(evaluator_type: Any) -> tuple[str, ...] | None:
    import inspect

    try:
        params = inspect.signature(evaluator_type.score).parameters
    except (TypeError, ValueError, AttributeError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    return tuple(name for name in params if name != "self")


def score(
    task: EvalTask, setup: ScoreStep, fields: dict[str, Any], test: TestSet, location: str, out_dir: str, scratch: str | None = None,
    *, tool_answers: list[Any] | None = None,
) -> dict[str, Any]:
    """Postprocess the predictions, build the evaluator and call its ``evaluate``: the result dict (details kept).

    Args:
        task: the (model, dataset) scored; its model's ``pred_postprocessor`` runs first.
        setup: the dataset's evaluation config and evaluator type.
        fields: the prediction file's columns by field name (``prediction``
            and whatever ``score()`` takes); ``predictions``, ``references``,
            ``test_set`` are filled in here.
        test: the test set, ``n`` runs of ``size`` rows.
        location: the prediction file(s), for messages.
        out_dir: where an evaluator may write side files (the result path without ``.json``).
        scratch: where temporary folders go (the run directory's scratch folder, emptied
            when the next writer starts, so a killed run leaves none behind); ``None``:
            the system's temporary folder.
        tool_answers: the answers another tool extracted from the same replies (one per
            reply, run-major), when the task scores that tool's replies and names its
            extraction: compared with the chain's final answers and scored by the same
            evaluator, the comparison under :data:`TOOL_EXTRACTION_KEY` (an
            :class:`~assay.audit.AuditRecord`: the chain as ``official``, the tool as
            ``corrected``).

    Raises:
        EvaluationError: a postprocessor or the evaluator failed; the message
            names the component, the dataset and the sample.
    """
    size, n = test.size, test.n
    test_dataset, raw, predictions, stage_outputs = _prepare(task, setup, fields, test, location)

    result = _call_evaluator(task, setup, setup.evaluator_cfg, fields, test_dataset, n, location, out_dir)
    if "error" in result:
        return result
    if "details" not in result and predictions is not None:
        result["details"] = _plain_details(raw or [], predictions, fields["references"], size, n)
    if setup.audit is not None and raw is not None and predictions is not None:
        result = _with_audit(task, setup, fields, test_dataset, location, result, raw, stage_outputs, size, n, scratch, out_dir)
    if tool_answers is not None and predictions is not None:
        result[TOOL_EXTRACTION_KEY] = _tool_extraction(task, setup, fields, test_dataset, location, predictions, tool_answers, size, n)
    return result


def _tool_extraction(
    task: EvalTask, setup: ScoreStep, fields: dict[str, Any], test_dataset: Any, location: str,
    predictions: list[Any], tool_answers: list[Any], size: int, n: int,
) -> Any:
    """Another tool's answers against the chain's final ones: the replies read differently, each such sample's
    readings, and every metric of the evaluator given the tool's answers (no evaluator-level postprocessor);
    an :class:`~assay.audit.AuditRecord` (never raises: a failure is its ``error``)."""
    import tempfile

    from assay.audit import AuditRecord, Reading
    from assay.audit.run import compare_chains, plain_reading
    from assay.postprocess.chain import apply_postprocessor, build_postprocessor
    from assay.rundir.results import numeric_metrics
    from assay.stats import sample_correctness

    feed = task.source
    chain = [cfg.get("type") if isinstance(cfg, dict) else cfg for cfg in (
        task.model.get("pred_postprocessor"), setup.eval_cfg.get("pred_postprocessor"), setup.evaluator_cfg.get("pred_postprocessor"))]
    names = [c if isinstance(c, str) else getattr(c, "__name__", repr(c)) for c in chain if c]
    corrections = [{"at": "source extraction", "official": " → ".join(names) or "the raw reply",
                    "corrected": f"{feed.tool} {feed.extraction}"}]
    try:
        final = apply_postprocessor(build_postprocessor(setup.evaluator_cfg.get("pred_postprocessor"),
                                                        where=f"{setup.where} eval_cfg.evaluator.pred_postprocessor"), predictions)
        differ, samples = compare_chains(final, tool_answers, size, n)
        evaluator_cfg = {k: v for k, v in setup.evaluator_cfg.items() if k != "pred_postprocessor"}
        with tempfile.TemporaryDirectory(prefix="assay-source-") as folder:
            scored = _call_evaluator(task, setup, evaluator_cfg, {**fields, "predictions": list(tool_answers)}, test_dataset, n,
                                     location, str(Path(folder) / task.dataset_abbr))
        if "error" in scored:
            raise RuntimeError(f"the evaluator failed on {feed.tool}'s answers: {scored['error']}")
        details = scored.get("details")
        readings = []
        for j in samples:
            rows = [r * size + j for r in range(n)]
            verdicts = sample_correctness(details[j]) if isinstance(details, list) and j < len(details) else None
            readings.append(Reading([plain_reading(final[i]) for i in rows], [plain_reading(tool_answers[i]) for i in rows],
                                    verdicts if verdicts and any(v is not None for v in verdicts) else None))
        return AuditRecord(corrections, len(final), differ, samples, readings, dict(numeric_metrics(scored)))
    except Exception as exc:
        logger.warning("%s: comparing %s's answers failed: %s: %s", task.name, feed.tool, type(exc).__name__, exc, exc_info=True)
        return AuditRecord.failed(corrections, f"{type(exc).__name__}: {exc}")


def _prepare(task: EvalTask, setup: ScoreStep, fields: dict[str, Any], test: TestSet, location: str) -> tuple[Any, Any, Any, list[list[Any]]]:
    """Fill ``fields`` with what ``evaluate()`` takes: the predictions through the model's and the dataset's
    ``pred_postprocessor``, the references, the test set; ``(test set, raw predictions, predictions,
    the chain's output after each level for the extraction audit)``."""
    from assay.postprocess.chain import build_postprocessor

    audit = setup.audit
    # the datasets.Dataset only for an evaluator that reads the test set; else a light view of the table
    test_dataset = test.dataset if reads_test_set(setup.evaluator_type) else test.view
    raw = fields.get("prediction")
    predictions: list[Any] | None = list(raw) if raw is not None else None
    stage_outputs: list[list[Any]] = []  # for the extraction audit: the chain after each level
    if predictions is not None:
        for stage, label, cfg in (
            (0, f"model {task.model_abbr!r} pred_postprocessor", task.model.get("pred_postprocessor")),
            (1, f"{setup.where} eval_cfg.pred_postprocessor", setup.eval_cfg.get("pred_postprocessor")),
        ):
            # with an audit, its plan holds the official chain, built once for both
            fn = audit.postprocessor(stage) if audit is not None else build_postprocessor(
                cfg, where=label, resolved=setup.postprocessor_types[stage])
            if fn is not None:
                predictions = _postprocess(fn, predictions, label, location)
            if audit is not None:
                stage_outputs.append(predictions)
    fields["predictions"] = predictions
    fields["references"] = list(test.references) if test.references is not None else None
    fields["test_set"] = test_dataset
    if fields.get("origin_prompt") is None:
        fields["origin_prompt"] = [None] * (test.size * test.n)
    return test_dataset, raw, predictions, stage_outputs


def is_judged(evaluator_type: Any) -> bool:
    """Whether an evaluator asks an LLM judge and can say beforehand what it would ask (``judge_conversations``)."""
    return callable(getattr(evaluator_type, "judge_conversations", None))


def estimate_judging(task: EvalTask, setup: ScoreStep, fields: dict[str, Any], test: TestSet, location: str, out_dir: str) -> Any:
    """The judge calls scoring this task would make and at most what they cost
    (:class:`assay.judge.JudgeEstimate`), nothing sent and nothing written.

    The predictions go through the postprocessors as :func:`score` takes them,
    the evaluator is built as it builds it (its judge's reply cache placed by
    ``out_dir``, opened read-only) and its ``judge_conversations`` renders
    every run's prompts; see :func:`assay.judge.estimate_judge_calls`.  With an extraction audit, the
    prompts of the answers its corrected reading changes are added: the audit asks the judge for them.
    """
    import inspect

    from assay.evaluate.base import judge_requests
    from assay.judge import estimate_judge_calls, open_cache_readonly

    test_dataset, raw, _, stage_outputs = _prepare(task, setup, fields, test, location)

    def requests(evaluator_cfg: dict[str, Any], predictions: Any) -> tuple[Any, list[Any]]:
        kwargs = {k: v for k, v in evaluator_cfg.items() if k != "type"}
        try:
            evaluator = setup.evaluator_type(**kwargs)
        except TypeError as exc:
            raise EvaluationError(f"{setup.where}: cannot build {getattr(setup.evaluator_type, '__name__', setup.evaluator_type)}: {exc}") from exc
        evaluator._out_dir = out_dir
        evaluator.dataset_abbr = task.dataset_abbr
        takes = inspect.signature(evaluator.judge_conversations).parameters
        given = {k: v for k, v in {**fields, "predictions": predictions}.items() if k in takes}
        return evaluator, judge_requests(evaluator, test.n, test_dataset, **given)

    evaluator, conversations = requests(setup.evaluator_cfg, fields.get("predictions"))
    if setup.audit is not None and raw is not None and fields.get("predictions") is not None:
        conversations += _audit_requests(setup, raw, stage_outputs, test, conversations, requests)
    cache = open_cache_readonly(evaluator.judge_cache_file())
    try:
        bound = evaluator.judge_count_bound
        return estimate_judge_calls(evaluator.uncached_judge(), conversations, cache=cache, upper_bound=bool(bound), why=bound)
    finally:
        if cache is not None:
            cache.close()


def _audit_requests(
    setup: ScoreStep, raw: Any, stage_outputs: list[list[Any]], test: TestSet, scoring: list[Any],
    requests: Any,
) -> list[Any]:
    """The judge prompts the extraction audit would add to ``scoring``'s: those of the corrected reading's answers
    that differ from every prompt the scoring sends (the others are answered from the run's judge cache)."""
    from assay.audit.run import compare_chains, read_both
    from assay.fileio import dumps_json

    plan = setup.audit
    if plan.option_error() is not None:  # the audit fails before it scores anything
        return []
    corrected, official_final, corrected_final = read_both(plan, raw, stage_outputs)
    differ, _ = compare_chains(official_final, corrected_final, test.size, test.n)
    if not differ:
        return []
    evaluator_cfg = dict(setup.evaluator_cfg)
    evaluator_pp = plan.corrected_config(2)
    if evaluator_pp is not None:
        evaluator_cfg["pred_postprocessor"] = evaluator_pp
    _, audited = requests(evaluator_cfg, corrected)
    seen = {dumps_json(c, indent=False) for c in scoring}
    added = []
    for conversation in audited:
        key = dumps_json(conversation, indent=False)
        if key not in seen:
            seen.add(key)
            added.append(conversation)
    return added


def _call_evaluator(
    task: EvalTask,
    setup: ScoreStep,
    evaluator_cfg: dict[str, Any],
    fields: dict[str, Any],
    test_dataset: Any,
    n: int,
    location: str,
    out_dir: str,
    judge_cache: str | None = None,
) -> dict[str, Any]:
    """Build the evaluator of ``evaluator_cfg`` and call ``evaluate`` on ``fields``; its result (a new dict).

    ``judge_cache``: the judge-reply cache its judge uses by default (``None``: the run's of ``out_dir``,
    :func:`assay.evaluators.llm_judge.run_judge_cache`).
    """
    from assay.evaluate.assemble import assemble_score_kwargs

    where = setup.where
    evaluator_type = setup.evaluator_type
    kwargs = {k: v for k, v in evaluator_cfg.items() if k != "type"}
    try:
        evaluator = evaluator_type(**kwargs)
    except TypeError as exc:
        raise EvaluationError(f"{where}: cannot build {getattr(evaluator_type, '__name__', evaluator_type)}({', '.join(kwargs)}): {exc}") from exc
    evaluator._out_dir = out_dir
    if judge_cache is not None:
        evaluator._judge_cache = judge_cache
    evaluator.dataset_abbr = task.dataset_abbr
    name = type(evaluator).__name__
    score_kwargs = assemble_score_kwargs(evaluator.score, fields, evaluator=name, source=location)
    try:
        result = evaluator.evaluate(task.dataset.get("k", 1), n, test_dataset, **score_kwargs)
    except AssayError:
        raise
    except Exception as exc:
        raise EvaluationError(f"{name} failed on {where} ({location}): {type(exc).__name__}: {exc}") from exc
    if not isinstance(result, dict):
        raise EvaluationError(f"{name}.evaluate() returned {type(result).__name__}, expected a dict")
    result = dict(result)
    if "error" in result:
        result["error"] = f"{name} on {where}: {result['error']}"
    return result


def _with_audit(
    task: EvalTask,
    setup: ScoreStep,
    fields: dict[str, Any],
    test_dataset: Any,
    location: str,
    result: dict[str, Any],
    raw: list[Any],
    stage_outputs: list[list[Any]],
    size: int,
    n: int,
    scratch: str | None = None,
    out_dir: str | None = None,
) -> dict[str, Any]:
    """``result`` with its audit record (before ``details``); the official values untouched.

    The evaluator scoring the corrected answers writes its side files elsewhere (``scratch``) but
    judges through the run's judge cache (of ``out_dir``, as the scoring did): a request the scoring
    sent (an answer both readings take alike) is answered from there, not sent again.  What its
    judge calls cost is added to the result's (:data:`~assay.evaluate.base.JUDGE_KEY`, the task's
    ``_meta.judge``).
    """
    from assay.audit import attach
    from assay.audit.run import SampleRescore, run_audit
    from assay.rundir.layout import run_dir_of_output
    from assay.tasks.shards import ShardPart, exact_metrics, sample_subdivisions, shard_sums

    judge_cache = None if out_dir is None else str(run_dir_of_output(out_dir).judge_cache)

    def call(evaluator_pp: Any, given: dict[str, Any], dataset: Any) -> dict[str, Any]:
        evaluator_cfg = dict(setup.evaluator_cfg)
        if evaluator_pp is not None:
            evaluator_cfg["pred_postprocessor"] = evaluator_pp
        if scratch is None:  # side files of the evaluator (if any) go to a folder of their own, removed after
            import tempfile

            with tempfile.TemporaryDirectory(prefix="assay-audit-") as folder:
                return _call_evaluator(task, setup, evaluator_cfg, given, dataset, n, location, str(Path(folder) / task.dataset_abbr),
                                       judge_cache)
        # in the run directory's scratch folder, side files are named after a prefix of their own, removed
        # after (or, when the process is killed, with the folder by the next writer of the run directory):
        # no folder is made and removed for each audit
        Path(scratch).mkdir(parents=True, exist_ok=True)
        prefix = f"assay-audit-{os.getpid()}-{next(_AUDIT_CALLS)}-"
        try:
            return _call_evaluator(task, setup, evaluator_cfg, given, dataset, n, location, os.path.join(scratch, prefix + task.dataset_abbr),
                                   judge_cache)
        finally:
            _remove_named(scratch, prefix)

    audit_usage: list[Any] = []

    def judged(scored: dict[str, Any]) -> dict[str, Any]:
        """The audit evaluator's result, what its judge calls cost kept for the task's."""
        audit_usage.append(scored.get(JUDGE_KEY))
        return scored

    def rescore(predictions: list[Any], evaluator_pp: Any) -> dict[str, Any]:
        return judged(call(evaluator_pp, {**fields, "predictions": predictions}, test_dataset))

    def rescore_samples(samples: list[int], predictions: list[Any], evaluator_pp: Any) -> dict[str, Any]:
        rows = [r * size + j for r in range(n) for j in samples]
        dataset = _rows_of_test_set(test_dataset, rows)
        given = {name: _rows_of_column(value, rows, size * n) for name, value in fields.items()}
        given.update(predictions=predictions, test_set=dataset)
        return judged(call(evaluator_pp, given, dataset))

    declared = getattr(setup.evaluator_type, "sample_sums", None)

    def metrics_of(details: list[Any], wanted: list[str]) -> dict[str, Any]:
        """Every metric from every sample's details, as the shards of a split task are merged."""
        g_pass = any(_G_PASS.fullmatch(key.rpartition("/")[2]) for key in wanted)
        sums = shard_sums(details, declared, n, g_pass, sample_subdivisions(test_dataset, size, task.dataset_abbr) if g_pass else [])
        return exact_metrics([ShardPart({}, size, sums=sums)], declared, n, task.dataset.get("k", 1))

    samples_only = None
    if getattr(setup.evaluator_type, "sample_decomposable", False) and declared:
        samples_only = SampleRescore({name for name, _ in declared.values()}, metrics_of, rescore_samples)
    record = run_audit(setup.audit, raw=raw, stage_outputs=stage_outputs, official=result, size=size, n=n,
                       rescore=rescore, samples_only=samples_only)
    attach(result, record)
    if any(audit_usage):  # the audit's judge requests are the task's too
        result[JUDGE_KEY] = merge_judge_usage([result.get(JUDGE_KEY), *audit_usage])
    return result


#: A G-Pass@k metric name (as :meth:`~assay.evaluate.base.BaseEvaluator.evaluate` adds them).
_G_PASS = re.compile(r"m?G-Pass@\d+(_[0-9.]+)?")


#: Numbers the extraction audits of this process, for the names of their side files.
_AUDIT_CALLS = itertools.count()


def _remove_named(folder: str, prefix: str) -> None:
    """Remove the files and folders in ``folder`` whose name starts with ``prefix``."""
    import shutil

    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix)]
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            logger.warning("could not remove %s, a side file of the extraction audit", entry.path)


def _rows_of_column(value: Any, rows: list[int], total: int) -> Any:
    """The given rows of a field that holds one value per row (``total`` of them); any other field as it is."""
    if isinstance(value, (list, tuple)) and len(value) == total:
        return [value[i] for i in rows]
    return value


def _rows_of_test_set(dataset: Any, rows: list[int]) -> Any:
    """The given rows of the test set an evaluator gets: a light view reads only the columns asked for."""
    from assay.datasets.table import TableView

    if isinstance(dataset, TableView):
        return TableView(dict.fromkeys(dataset.column_names), num_rows=len(rows),
                         column=lambda name: [dataset.column(name)[i] for i in rows])
    return dataset.select(rows)


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
