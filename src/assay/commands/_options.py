"""What the commands that read a config share: its options, finding the config and the run
directory, and writing a summary with its report."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from typing import Any

__all__ = [
    "DEFAULT_WORK_DIR",
    "Terminated",
    "add_common",
    "add_summary_options",
    "import_sources",
    "load",
    "read_sources",
    "run_dir_as_work_dir",
    "summarize",
    "summary_config",
    "terminated_by_signals",
    "work_dir",
]

DEFAULT_WORK_DIR = "outputs/default"


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "config",
        nargs="?",
        default=None,
        help="Python config file; without it, the newest config dumped in WORK_DIR/TIMESTAMP/configs/ "
        "(by OpenCompass or assay) of the run -r names",
    )
    p.add_argument("-w", "--work-dir", help="parent of the timestamped run directories, or one run directory (default: the config's work_dir, "
        "else outputs/default)")
    p.add_argument(
        "-r",
        "--reuse",
        nargs="?",
        const="latest",
        default=None,
        metavar="TIMESTAMP",
        help="use WORK_DIR/TIMESTAMP as the run directory; without TIMESTAMP, the newest run "
        "(WORK_DIR itself when it is a run directory)",
    )
    p.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")


def add_summary_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", help="summary .txt path (default: RUN_DIR/summary/summary_<time>.txt)")
    p.add_argument("--ci", action="store_true", help="show each value's 95%% interval in the text tables")
    p.add_argument(
        "--report",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="write the HTML report and the intervals (default: on; they read every per-sample detail)",
    )


def load(args: argparse.Namespace) -> Any:
    """The config file given, or the newest one dumped in the run directory ``-w``/``-r`` name.

    In the second case ``args.work_dir`` and ``args.reuse`` are set to that run
    (a dumped config's own ``work_dir`` is not used), which must not be one an
    import left unfinished (:func:`assay.rundir.imports.read_run`: its config,
    if any, may be older than its results).  The config is loaded
    with the OpenCompass layer (:mod:`assay.opencompass`).
    """
    import assay.opencompass  # noqa: F401 - configs import opencompass.* and mmengine.config names
    from assay.config import load_config

    if args.config is not None:
        return load_config(args.config)
    from assay.errors import ConfigError
    from assay.rundir.configs import newest_dumped_config
    from assay.rundir.imports import read_run

    if args.reuse is None:
        raise ConfigError(
            "no CONFIG given: name a config file, or a run directory with -w WORK_DIR -r TIMESTAMP "
            "(-r alone: the latest) to read the config dumped in its configs/ folder"
        )
    run_dir = read_run(args.work_dir or DEFAULT_WORK_DIR, args.reuse)  # not a run an import left half written
    path = newest_dumped_config(run_dir)
    args.work_dir, args.reuse = str(run_dir.root.parent), run_dir.root.name
    sys.stderr.write(f"config: {path}\n")
    return load_config(path)


def run_dir_as_work_dir(args: argparse.Namespace) -> None:
    """A run directory given as ``-w`` without ``-r`` means that run, as ``summarize`` reads it:
    ``-w`` becomes its parent and ``-r`` its name."""
    from pathlib import Path

    from assay.rundir.layout import is_run_dir

    if args.reuse is None and args.work_dir and is_run_dir(args.work_dir):
        run = Path(os.path.abspath(args.work_dir))
        args.work_dir, args.reuse = str(run.parent), run.name


def work_dir(args: argparse.Namespace, config: Any) -> str:
    return str(args.work_dir or config.work_dir or DEFAULT_WORK_DIR)


def summary_config(config: Any, run_root: str, imported: Any = None) -> dict[str, Any]:
    """The variables a summary of the run reads: the config's, ``work_dir`` the run, and — with
    ``imported`` (:func:`import_sources`) — the other tools' models, datasets and groups added."""
    variables = dict(config.variables)
    variables["work_dir"] = run_root
    rescored = _rescored_models(config, run_root)
    if rescored:  # the models of other tools' replies that the config's datasets score
        variables["models"] = [*(variables.get("models") or []), *rescored]
    if imported is not None:
        models = list(variables.get("models") or [])
        have = {m.get("abbr") for m in models if isinstance(m, dict)}
        models += [{"abbr": m, "source": imported.sources.get(m, [])} for m in imported.models if m not in have]
        datasets = list(variables.get("datasets") or [])
        have = {d.get("abbr") for d in datasets if isinstance(d, dict)}
        datasets += [{"abbr": d} for d in imported.datasets if d not in have]
        variables["models"], variables["datasets"] = models, datasets
        summarizer = dict(variables.get("summarizer") or {})
        if imported.groups:
            groups = list(summarizer.get("summary_groups") or variables.get("summary_groups") or [])
            groups += [{"name": label, "subsets": [[m, metric] for m in members], **({"weights": weights} if weights else {})}
                       for label, metric, members, weights in imported.groups]
            summarizer["summary_groups"] = groups
        rows = summarizer.get("dataset_abbrs")
        if isinstance(rows, list):
            # rows the config lists stay as listed; when it lists none of the other tools', theirs follow
            names = {label for label, *_ in imported.groups} | set(imported.datasets)
            listed = {r if isinstance(r, str) else r[0] for r in rows if isinstance(r, (str, list, tuple)) and r}
            if not names & listed:
                summarizer["dataset_abbrs"] = [*rows, *imported.rows()]
        if summarizer:
            variables["summarizer"] = summarizer
    return variables


def _rescored_models(config: Any, run_root: str) -> list[dict[str, Any]]:
    """The models that datasets taking another tool's replies add: those whose prediction file of such a dataset
    the run holds (written when their tasks ran), else — before any ran — the tool's
    (:func:`assay.tasks.sources.source_models`, which reads its output)."""
    fed = [d for d in config.datasets if isinstance(d, dict) and isinstance(d.get("predictions"), dict)]
    if not fed:  # the usual summary: nothing of the tasks package imported
        return []
    from pathlib import Path

    from assay.config import dataset_abbr, model_abbr
    from assay.errors import AssayError
    from assay.rundir.layout import RunDir
    from assay.rundir.sources import source_prediction_models

    have = {model_abbr(m) for m in config.models if isinstance(m, dict)}
    out: list[dict[str, Any]] = []
    for d in fed:
        for model in source_prediction_models(RunDir(Path(run_root)), dataset_abbr(d)):
            if model not in have:
                have.add(model)
                out.append({"abbr": model, "rescored_from": d["predictions"].get("source")})
    if out:
        return out
    from assay.tasks.sources import source_models

    try:
        return source_models(config)
    except AssayError as exc:
        logging.getLogger(__name__).warning("the models of other tools' replies are left out of the summary: %s", exc)
        return []


def read_sources(config: Any, tasks: list[Any] | None = None) -> list[tuple[dict[str, Any], list[Any]]]:
    """The config's ``sources`` (``[dict(type='lm_eval', path=…, models={…}, datasets={…}, percent=True)]``),
    each read: ``(its settings, its runs)``.

    Checked before anything is written: a ``type`` assay does not read, a path that
    does not exist, mappings that are not ``{name: abbr}``, and a source result that
    would land in the cell of another source or of one of the config's own ``tasks``
    are :class:`~assay.errors.ConfigError`\\ s naming the config and the entry.
    """
    specs = config.variables.get("sources")
    if not specs:  # the usual run: neither the readers nor the writer of other tools' files imported
        return []
    from assay.errors import ConfigError
    from assay.rundir.sources import safe_name
    from assay.sources import READERS, read_source

    where = f"{config.path}: sources"
    if not isinstance(specs, (list, tuple)):
        raise ConfigError(f"{where} must be a list of dicts, got {type(specs).__name__}")
    taken: dict[tuple[str, str], str] = {}
    if tasks is not None:
        own = [(task.model_abbr, task.dataset_abbr) for task in tasks]
    else:  # a summary: every (model, dataset) the config names
        from assay.config import dataset_abbr, model_abbr

        own = [(model_abbr(m), dataset_abbr(d)) for m in config.models for d in config.datasets
               if isinstance(m, dict) and isinstance(d, dict)]
    for model, dataset in own:
        taken[(model, dataset)] = f"the config's own dataset {dataset!r}"
    out = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict):
            raise ConfigError(f"{where}[{i}] must be a dict, got {spec!r}")
        unknown = set(spec) - {"type", "path", "models", "datasets", "percent"}
        if unknown:
            raise ConfigError(f"{where}[{i}]: unknown key(s) {sorted(unknown)}; known: type, path, models, datasets, percent")
        tool = spec.get("type")
        if tool not in READERS:
            raise ConfigError(f"{where}[{i}].type is {tool!r}; assay reads: {', '.join(sorted(READERS))}")
        if not isinstance(spec.get("path"), str) or not spec["path"]:
            raise ConfigError(f"{where}[{i}].path must be a file or folder path, got {spec.get('path')!r}")
        for key in ("models", "datasets"):
            mapping = spec.get(key) or {}
            if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in mapping.items()):
                raise ConfigError(f"{where}[{i}].{key} must map the tool's names to abbrs ({{name: abbr}}), got {mapping!r}")
        if not isinstance(spec.get("percent", True), bool):
            raise ConfigError(f"{where}[{i}].percent must be True or False, got {spec['percent']!r}")
        path = config.resolve_path(spec["path"])
        if not path.exists():
            raise ConfigError(f"{where}[{i}].path {spec['path']!r}: {path} does not exist")
        runs = read_source(tool, path)
        settings = {**spec, "path": str(path)}
        for run in runs:
            model = (spec.get("models") or {}).get(run.model) or safe_name(run.model)
            for name in [*run.results, *run.groups]:
                dataset = (spec.get("datasets") or {}).get(name) or safe_name(name)
                if name in run.groups and name not in (spec.get("datasets") or {}) and dataset in run.results:
                    continue
                other = taken.get((model, dataset))
                if other is not None and other != f"{where}[{i}]":
                    raise ConfigError(f"{where}[{i}]: {tool} result of model {run.model!r} on {name!r} would be "
                                      f"{model}/{dataset}, which {other} gives too; map one of them to another name")
                taken[(model, dataset)] = f"{where}[{i}]"
        out.append((settings, runs))
    return out


def import_sources(run_dir: Any, sources: list[tuple[dict[str, Any], list[Any]]]) -> Any:
    """Write :func:`read_sources`' runs into ``run_dir`` (the caller holds its writer lock); what was written
    (an :class:`~assay.rundir.sources.ImportedSources` of them all), or ``None`` when there are none."""
    if not sources:
        return None
    from assay.rundir.sources import ImportedSources, write_sources

    total = ImportedSources()
    for settings, runs in sources:
        one = write_sources(run_dir, runs, models=settings.get("models") or {}, datasets=settings.get("datasets") or {},
                            percent=settings.get("percent", True))
        total.merge(one)
    return total


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the command: raised where it was, so that workers are stopped and files finished."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def terminated_by_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` while the block runs (main thread only); a signal the
    process was started ignoring (SIGHUP under ``nohup``) stays ignored."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)
                if signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def summarize(
    config: Any, run_root: str, args: argparse.Namespace, time_str: str | None, written: Any = None, imported: Any = None
) -> int:
    from pathlib import Path

    from assay.rundir.imports import check_import_finished
    from assay.rundir.layout import RunDir

    check_import_finished(RunDir(Path(run_root)))  # an import into the run that did not finish: no table of it
    want_report = getattr(args, "report", True)
    # the report, begun once the leaderboard is built (its rankings then start beside the statistics), else
    # once the statistics are computed
    begun: list[Any] = []
    log = logging.getLogger(__name__)

    def begin(board: Any, **how: Any) -> None:
        """Begin the report of ``board`` afresh: one begun before (from a snapshot the summary was computed again
        without, or without its statistics) is given up."""
        from assay.report import begin_html_report

        for report in begun:
            report.discard()
        begun.clear()
        try:
            begun.append(begin_html_report(run_root, board, board.time, **how))
        except Exception as exc:  # begun again later (once the summary files are written, and reported then)
            log.debug("the HTML report could not be begun: %s: %s", type(exc).__name__, exc)

    def built(board: Any, snapshot: Any, stats_later: Any) -> bool:
        begin(board, snapshot=snapshot, stats_later=stats_later)
        return bool(begun) and begun[-1].beside is not None  # its rankings computed by a child meanwhile

    def computed(board: Any, stats: Any, snapshot: Any) -> None:
        early = begun[-1] if begun else None
        if early is not None and early.stats_pending and early.context.view is board:
            try:
                early.take_stats(stats)
                return
            except Exception as exc:  # begun again below, whole
                log.debug("the HTML report could not take its statistics: %s: %s", type(exc).__name__, exc)
        begin(board, stats=stats, snapshot=snapshot)

    try:
        return _summarize(config, run_root, args, time_str, written, imported,
                          (built, computed) if want_report else None, begun)
    finally:
        for report in begun:  # a report not written (the summary failed, or it was interrupted): its child ends
            report.discard()


def _summarize(
    config: Any, run_root: str, args: argparse.Namespace, time_str: str | None, written: Any, imported: Any,
    begin: Any, begun: list[Any],
) -> int:
    """:func:`summarize`; ``begin`` (the summarizer's ``built`` and ``computed`` hooks, or ``None``) begins the
    report before the summary files are written (into ``begun``)."""
    from assay.summarize import run_summarizer

    built, computed = begin if begin is not None else (None, None)
    result = run_summarizer(
        summary_config(config, run_root, imported),
        time_str=time_str,
        output_path=getattr(args, "output", None),
        ci=getattr(args, "ci", False),
        stats=getattr(args, "report", True),
        written=written,
        computed=computed,
        built=built,
    )
    sys.stdout.write(result.text.rstrip("\n") + "\n")
    board = result.leaderboard
    changed = sorted(set(board.changed.values())) if board is not None else []
    for rel in changed:
        sys.stderr.write(f"warning: {rel} changed after assay computed it (its bytes are not those assay wrote); "
                         "its values are shown as they now are, marked *\n")
    if board is not None and board.judge_usage:
        from assay.rundir.record import judge_line

        for (column, abbr), usage in board.judge_usage.items():
            sys.stderr.write(f"{column}/{abbr}: {judge_line(usage)}\n")
    for path in result.paths.values():
        sys.stderr.write(f"wrote {path}\n")
    if getattr(args, "report", True) and result.time_str:
        from assay.report import write_html_report

        try:
            early = begun[-1] if begun else None
            if (early is not None and not early.stats_pending and early.time_str == result.time_str
                    and early.context.view is result.leaderboard):
                report = early.write()
            else:  # a summarizer that does not say when its statistics are computed: the report begins now
                report = write_html_report(run_root, result, result.time_str, stats=result.stats)
        except Exception as exc:  # the summary files are already written
            logging.getLogger(__name__).warning("the HTML report could not be written: %s: %s", type(exc).__name__, exc)
        else:
            sys.stderr.write(f"wrote {report}\n")
    failed = getattr(result, "failed", None) or []
    for part in failed:
        sys.stderr.write(f"assay: error: not summarized: {part}\n")
    return 1 if failed else 0
