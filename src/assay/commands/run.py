"""``assay run CONFIG``: evaluate every (model, dataset), then summarize; ``assay eval`` (:mod:`assay.commands.eval`)
is the same without the summary.

Exit status: 0 when every task succeeded, 1 when any task failed or is partial (each is
named with its log file), 2 for a usage or configuration error, or a run directory
another command is writing (nothing was run); 128 + the signal's number when SIGTERM or
SIGHUP ended it (its workers stopped, what was written is complete).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import IO, Any

from assay.commands._options import (
    add_common,
    add_summary_options,
    import_sources,
    load,
    read_sources,
    run_dir_as_work_dir,
    summarize,
    summary_config,
    terminated_by_signals,
    work_dir,
)

NAME = "run"
HELP = "evaluate, then summarize"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay run``."""
    add_common(parser)
    add_eval_options(parser)
    add_summary_options(parser)


def run(args: argparse.Namespace) -> int:
    """Evaluate, then summarize; the exit status (see the module)."""
    return evaluate(args, then_summarize=True)


def add_eval_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--force", action="store_true", help="recompute every result, even when its inputs are unchanged")
    p.add_argument("--workers", type=int, default=None, metavar="N", help="parallel worker processes (default: number of cores)")
    p.add_argument(
        "--shard-size",
        type=int,
        default=None,
        metavar="N",
        help="split a dataset with more samples than N into shards scored in parallel, when its evaluator "
        "allows it (default: the config's eval.shard_size, else 10000; 0 never splits)",
    )
    p.add_argument("--ray", metavar="ADDRESS", default=None, help="run the tasks on the Ray cluster at ADDRESS ('auto': the local one)")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="load and plan only: one line per task (its components, which implementation serves each, "
        "where references come from); exit 0 when every task can run, 1 when some cannot",
    )
    p.add_argument(
        "--allow-partial",
        action="store_true",
        default=None,
        help="score a dataset whose predictions are incomplete (split files with a gap, fewer records than "
        "test rows) on the samples there are, marked as partial in its result and the summary (default: the "
        "config's eval.allow_partial, else off: such a task fails naming what is missing)",
    )
    p.add_argument(
        "--wait",
        action="store_true",
        help="when another command is writing the run directory, wait for it to end (default: stop with exit status 2)",
    )
    p.add_argument(
        "--dump-eval-details",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep per-sample details in result files (default: on)",
    )


class _Progress:
    """Progress of tasks: a live line on a terminal, one line per task otherwise.

    The live line shows tasks done/total, how many were scored, reused and
    failed, shards of split tasks, and samples per second.  Without a
    terminal, each task gets one line with its status and why it was reused
    or recomputed.
    """

    def __init__(self, stream: IO[str], total: int) -> None:
        self.stream = stream
        self.total = total
        self.tty = stream.isatty()
        self.start = time.perf_counter()
        self.samples = 0
        self.done = 0
        self.counts = {"ok": 0, "reused": 0, "failed": 0, "partial": 0}
        self.shard_samples: dict[str, int] = {}
        self.shards_done = 0
        self.shards_total: dict[str, int] = {}

    def _rate(self) -> float:
        return self.samples / max(time.perf_counter() - self.start, 1e-9)

    def _live(self, final: bool = False) -> None:
        shards = ""
        if self.shards_total:
            shards = f" | shards {self.shards_done}/{sum(self.shards_total.values())}"
        partial = f", partial {self.counts['partial']}" if self.counts["partial"] else ""
        line = (
            f"\r[{self.done}/{self.total}] scored {self.counts['ok']}, reused {self.counts['reused']}, "
            f"failed {self.counts['failed']}{partial}{shards} | {self._rate():,.0f} samples/s"
        )
        self.stream.write(line + ("\n" if final else ""))
        self.stream.flush()

    def shard(self, name: str, done: int, total: int, samples: int) -> None:
        """A shard of task ``name`` finished (``done`` of ``total``)."""
        self.shard_samples[name] = self.shard_samples.get(name, 0) + samples
        self.samples += samples
        self.shards_total[name] = total
        self.shards_done += 1
        if self.tty:
            self._live()

    def __call__(self, outcome: Any, done: int, total: int) -> None:
        self.done = done
        self.counts[outcome.status] = self.counts.get(outcome.status, 0) + 1
        self.samples += max(0, outcome.samples - self.shard_samples.pop(outcome.name, 0))
        if self.tty:
            self._live(final=done == total)
            return
        extra = ""
        if outcome.failed:
            extra = f": {outcome.message}"
        elif outcome.reason:
            extra = f" ({outcome.reason})" if outcome.status == "reused" else f" [{outcome.reason}]"
        shards = f", {outcome.shards} shards" if getattr(outcome, "shards", 0) else ""
        if outcome.status == "reused":
            self.stream.write(f"[{done}/{total}] {outcome.name} reused{extra}\n")
        elif outcome.status == "partial":  # "partial: 3 of 9 samples unjudged"
            self.stream.write(
                f"[{done}/{total}] {outcome.name} {outcome.message} ({outcome.samples} samples{shards}, {outcome.seconds:.2f}s){extra}\n"
            )
        else:
            self.stream.write(
                f"[{done}/{total}] {outcome.name} {outcome.status} ({outcome.samples} samples{shards}, {outcome.seconds:.2f}s){extra}\n"
            )
        self.stream.flush()


def _dump_details(args: argparse.Namespace, config: Any) -> bool:
    if args.dump_eval_details is not None:
        return bool(args.dump_eval_details)
    task = ((config.eval.get("runner") or {}).get("task") or {}) if isinstance(config.eval.get("runner"), dict) else {}
    value = task.get("dump_details") if isinstance(task, dict) else None
    return True if value is None else bool(value)


def _workers(args: argparse.Namespace, config: Any) -> int | None:
    if args.workers is not None:
        return int(args.workers)
    runner = config.eval.get("runner")
    if isinstance(runner, dict) and isinstance(runner.get("max_num_workers"), int):
        return int(runner["max_num_workers"])
    return None


def _shard_size(args: argparse.Namespace, config: Any) -> int:
    from assay.errors import ConfigError
    from assay.tasks.plan import DEFAULT_SHARD_SIZE

    value = args.shard_size if args.shard_size is not None else config.eval.get("shard_size", DEFAULT_SHARD_SIZE)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"shard size must be a non-negative integer (0 never splits), got {value!r}")
    return int(value)


def _allow_partial(args: argparse.Namespace, config: Any) -> bool:
    from assay.errors import ConfigError

    value = args.allow_partial if args.allow_partial is not None else config.eval.get("allow_partial", False)
    if not isinstance(value, bool):
        raise ConfigError(f"eval.allow_partial must be True or False, got {value!r}")
    return value


def _runner(args: argparse.Namespace, config: Any) -> dict[str, Any] | None:
    """``{'type': 'RayRunner', 'address': ...}`` when the work goes to a Ray cluster, else ``None``."""
    if args.ray:
        return {"type": "RayRunner", "address": args.ray}
    runner = config.eval.get("runner")
    if not isinstance(runner, dict):
        return None
    kind = runner.get("type")
    name = kind if isinstance(kind, str) else getattr(kind, "__name__", "")
    if name.rsplit(".", 1)[-1] == "RayRunner":
        return {"type": "RayRunner", "address": runner.get("address")}
    return None


def evaluate(args: argparse.Namespace, *, then_summarize: bool) -> int:
    from assay._gc import bulk_allocations

    with bulk_allocations():  # the modules a run needs imported, the config loaded, the tasks planned: no cycles
        from assay.rundir.imports import check_import_finished
        from assay.rundir.layout import resolve_run_dir
        from assay.subjective.plan import plan_subjective
        from assay.tasks import EvalOptions, plan_tasks

        run_dir_as_work_dir(args)
        config = load(args)
        run_dir = resolve_run_dir(work_dir(args, config), args.reuse)
        if run_dir.root.is_dir():  # a run named by ``-r``: not one an import left half written
            check_import_finished(run_dir)
        tasks = plan_tasks(config, run_dir)
        judged = plan_subjective(config)
    if args.dry_run:
        if then_summarize:
            from assay.summarize import validate_summarizer_config

            validate_summarizer_config(summary_config(config, str(run_dir.root)))
        options = EvalOptions(run_dir=run_dir, dump_details=_dump_details(args, config), force=args.force,
                              allow_partial=_allow_partial(args, config))
        status = _dry_run(tasks, run_dir, partial=_allow_partial(args, config), options=options) if tasks or not judged else 0
        return max(status, _dry_run_judged(judged, run_dir)) if judged else status
    options = EvalOptions(
        run_dir=run_dir,
        dump_details=_dump_details(args, config),
        force=args.force,
        shard_size=_shard_size(args, config),
        prepare_stats=getattr(args, "report", True),
        allow_partial=_allow_partial(args, config),
    )
    runner = _runner(args, config)
    backend = None
    if runner is not None:
        from assay.tasks.ray_runner import ray_backend

        backend = ray_backend(runner.get("address"))
    if then_summarize:
        from assay.summarize import validate_summarizer_config

        validate_summarizer_config(summary_config(config, str(run_dir.root)))
    from assay.rundir.layout import writer_lock

    def waiting(holder: str) -> None:
        sys.stderr.write(f"run directory {run_dir.root} is being written by {holder}; waiting for it to end\n")

    sources = read_sources(config, tasks)  # every other tool's file read and checked before anything is written
    with writer_lock(run_dir, wait=args.wait, on_wait=waiting), terminated_by_signals():
        return _eval_locked(args, config, run_dir, tasks, options, backend, then_summarize, judged, sources)


def _eval_locked(
    args: argparse.Namespace, config: Any, run_dir: Any, tasks: list[Any], options: Any, backend: Any, then_summarize: bool,
    judged: list[Any] | None = None, sources: list[Any] | None = None,
) -> int:
    """Everything of ``run``/``eval`` that writes the run directory, while the command holds its writer lock."""
    from assay.config import dump_config_source
    from assay.rundir.configs import dump_config
    from assay.rundir.layout import new_timestamp
    from assay.tasks import run_tasks

    now = new_timestamp()
    dump_config(run_dir, dump_config_source(config.variables), now)
    sys.stderr.write(f"run directory: {run_dir.root}\n")
    tasks, blocked = _blocked_tasks(tasks, options)
    progress = _Progress(sys.stderr, len(tasks))
    written: dict[str, Any] = {}  # the result files this command's workers wrote (index entries recorded)
    judge_progress = bool(getattr(args, "verbose", 0) or sys.stderr.isatty())
    if judge_progress:  # a judge's progress line, from the workers too
        from assay.judge import enable_progress

        enable_progress(sys.stderr)
    try:
        outcomes = blocked + (run_tasks(
            tasks, options, workers=_workers(args, config), on_done=progress, on_shard=progress.shard, backend=backend,
            written=written,
        ) if tasks or not judged else [])
        outcomes += _run_judged(judged or [], run_dir, options.force)
    finally:
        if judge_progress:
            from assay.judge import disable_progress

            disable_progress()
    failed = [o for o in outcomes if o.failed]
    partial = [o for o in outcomes if o.status == "partial"]
    scored = sum(1 for o in outcomes if o.status == "ok")
    reused = sum(1 for o in outcomes if o.status == "reused")
    sys.stderr.write(
        f"{len(outcomes)} tasks: {scored} scored, {reused} reused, {len(failed)} failed"
        + (f", {len(partial)} partial" if partial else "") + "\n"
    )
    imported = import_sources(run_dir, sources or [])
    if imported is not None:
        sys.stderr.write(f"{len(imported.written)} results of other tools written ({', '.join(imported.models)})\n")
    status = 0
    if then_summarize:  # still under the writer lock: the files just written need no second digest
        status = summarize(config, str(run_dir.root), args, now, written, imported)
    if partial:  # results written, but not every sample has a verdict: not a clean run
        sys.stderr.write("partial tasks:\n")
        for o in partial:
            sys.stderr.write(f"  {o.name}: {o.message}\n    log: {o.log_path}\n")
    if failed:
        sys.stderr.write("failed tasks:\n")
        for o in failed:
            sys.stderr.write(f"  {o.name}: {o.message}\n    log: {o.log_path}\n")
    if failed or partial:
        return 1
    return status


def _dry_run(tasks: list[Any], run_dir: Any, *, partial: bool = False, options: Any = None) -> int:
    """Print the check of every task (see :func:`assay.tasks.plan.check_tasks`) and, for each judged task
    that can run, the judge calls it would make (:func:`assay.tasks.run.estimate_task_judging`);
    0 when all can run, else 1."""
    from assay.tasks.plan import check_tasks

    checks = check_tasks(tasks, predictions=True, partial=partial)
    out = sys.stdout
    out.write(f"run directory: {run_dir.root}{'' if run_dir.root.is_dir() else ' (new)'}\n")
    for task, check in zip(tasks, checks):
        out.write(check.line() + "\n")
        for note in check.notes:
            out.write(f"         {note}\n")
        for problem in check.problems:
            out.write(f"         cannot run: {problem}\n")
        if check.can_run and options is not None:
            from assay.tasks.run import estimate_task_judging

            estimate = estimate_task_judging(task, options)
            if estimate is not None:
                out.write(f"         {estimate if isinstance(estimate, str) else estimate.line()}\n")
    blocked = [c for c in checks if not c.can_run]
    out.write(f"{len(checks)} tasks: {len(checks) - len(blocked)} can run, {len(blocked)} cannot\n")
    if blocked:
        out.write("tasks that cannot run:\n")
        for c in blocked:
            out.write(f"  {c.name}: {'; '.join(c.problems)}\n")
    return 1 if blocked else 0


def _run_judged(judged: list[Any], run_dir: Any, force: bool) -> list[Any]:
    """Run the judge tasks of the subjective datasets one after the other (each judge's requests run
    concurrently), one line each on stderr; their outcomes."""
    if not judged:
        return []
    from assay.subjective.task import run_subjective_task

    outcomes = []
    for i, task in enumerate(judged, 1):
        outcome = run_subjective_task(task, run_dir, force=force)
        outcome.log_path = "(see the .meta beside the result)"  # type: ignore[attr-defined]
        detail = f" ({outcome.message})" if outcome.message else ""
        if outcome.status in ("ok", "partial"):
            line = f"{outcome.status}: {outcome.samples} samples, {outcome.requests} judge requests{detail}"
        else:
            line = f"{outcome.status}{detail}"
        sys.stderr.write(f"[judge {i}/{len(judged)}] {outcome.name} {line}\n")
        outcomes.append(outcome)
    return outcomes


def _dry_run_judged(judged: list[Any], run_dir: Any) -> int:
    """Print each judge task with its samples and the judge calls it needs beyond the reply cache;
    0 when all can run, else 1."""
    from assay.errors import AssayError
    from assay.subjective.task import pending_calls

    out = sys.stdout
    blocked = 0
    calls = 0
    for task in judged:
        try:
            samples, estimate = pending_calls(task, run_dir)
        except (AssayError, OSError, KeyError, ValueError, TypeError) as exc:
            blocked += 1
            out.write(f"CANNOT judge {task.name}: {type(exc).__name__}: {exc}\n")
            continue
        calls += estimate.calls
        order = f", infer_order {task.infer_order}" if task.infer_order else ""
        out.write(f"ok     judge {task.name}: {samples} samples{order}\n         {estimate.line()}\n")
    out.write(f"{len(judged)} judge tasks: {len(judged) - blocked} can run, {blocked} cannot; {calls} judge calls to make\n")
    return 1 if blocked else 0


def _blocked_tasks(tasks: list[Any], options: Any) -> tuple[list[Any], list[Any]]:
    """Split off the tasks that cannot run (a stand-in component, a test set needed but absent):
    each gets its error result now, before anything runs; the others are returned to run."""
    from assay.tasks.plan import check_tasks, unavailable_message
    from assay.tasks.run import fail_task

    runnable, blocked = [], []
    for task, check in zip(tasks, check_tasks(tasks, predictions=False)):
        if check.can_run:
            runnable.append(task)
            continue
        message = "; ".join(check.problems)
        sys.stderr.write(f"{task.name} cannot run: {message}\n")
        kind = "ComponentUnavailable" if unavailable_message(task) else "ConfigError"
        blocked.append(fail_task(task, options, message, error_type=kind))
    return runnable, blocked
