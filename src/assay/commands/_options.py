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
    "load",
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
    (a dumped config's own ``work_dir`` is not used).  The config is loaded
    with the OpenCompass layer (:mod:`assay.opencompass`).
    """
    import assay.opencompass  # noqa: F401 - configs import opencompass.* and mmengine.config names
    from assay.config import load_config

    if args.config is not None:
        return load_config(args.config)
    from assay.errors import ConfigError
    from assay.rundir.configs import newest_dumped_config
    from assay.rundir.layout import resolve_run_dir

    if args.reuse is None:
        raise ConfigError(
            "no CONFIG given: name a config file, or a run directory with -w WORK_DIR -r TIMESTAMP "
            "(-r alone: the latest) to read the config dumped in its configs/ folder"
        )
    run_dir = resolve_run_dir(args.work_dir or DEFAULT_WORK_DIR, args.reuse, must_exist=True)
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


def summary_config(config: Any, run_root: str) -> dict[str, Any]:
    variables = dict(config.variables)
    variables["work_dir"] = run_root
    return variables


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the command: raised where it was, so that workers are stopped and files finished."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def terminated_by_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` while the block runs (main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def summarize(config: Any, run_root: str, args: argparse.Namespace, time_str: str | None, written: Any = None) -> int:
    from assay.summarize import run_summarizer

    result = run_summarizer(
        summary_config(config, run_root),
        time_str=time_str,
        output_path=getattr(args, "output", None),
        ci=getattr(args, "ci", False),
        stats=getattr(args, "report", True),
        written=written,
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
            report = write_html_report(run_root, result, result.time_str, stats=result.stats)
        except Exception as exc:  # the summary files are already written
            logging.getLogger(__name__).warning("the HTML report could not be written: %s: %s", type(exc).__name__, exc)
        else:
            sys.stderr.write(f"wrote {report}\n")
    failed = getattr(result, "failed", None) or []
    for part in failed:
        sys.stderr.write(f"assay: error: not summarized: {part}\n")
    return 1 if failed else 0
