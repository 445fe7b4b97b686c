"""``assay report``: write the HTML report of a run (``summary/summary_<time>.html``)."""

from __future__ import annotations

import argparse
import sys

NAME = "report"
HELP = "write the HTML report of a run (ranked leaderboard with intervals, full table, pictures, sample browser)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay report``."""
    parser.add_argument("config", nargs="?", default=None, help="config file: summarize it first (optional)")
    parser.add_argument(
        "-w", "--work-dir", required=True, help="a run directory, or the parent of the timestamped run directories"
    )
    parser.add_argument("-r", "--reuse", metavar="TIMESTAMP", default=None, help="the run directory in WORK_DIR (default: the newest)")
    parser.add_argument("--ranks", action=argparse.BooleanOptionalAction, default=None,
                        help="compute the rank intervals of every column and the paired comparisons of the top models "
                             "(default: every column for runs of at most 5,000 results, the top-level summary groups "
                             "for larger ones; --no-ranks: none)")
    parser.add_argument("--embed", action=argparse.BooleanOptionalAction, default=None,
                        help="embed every dataset's samples in the page (one file to share) or write them beside it "
                             "(default: embedded when they are at most 4 MB in all)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")


def run(args: argparse.Namespace) -> int:
    """Summarize (with a config) or read the newest summary, then write the report; 0 on success.

    SIGTERM and SIGHUP stop it as they stop ``assay eval``: its child processes are stopped and no
    half-written file is left (:func:`assay.commands._options.terminated_by_signals`).
    """
    from assay.commands._options import terminated_by_signals

    with terminated_by_signals():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """:func:`run`."""
    from assay.report import write_html_report
    from assay.rundir.imports import read_run
    from assay.rundir.layout import new_timestamp

    run_dir = read_run(args.work_dir, args.reuse)  # not a run an import left half written
    summary = None
    time_str = new_timestamp()
    if args.config:
        import assay.opencompass  # noqa: F401 - configs import opencompass.* and mmengine.config names
        from assay.config import load_config
        from assay.summarize import run_summarizer

        variables = dict(load_config(args.config).variables)
        variables["work_dir"] = str(run_dir.root)
        summary = run_summarizer(variables, time_str=time_str)
    else:
        from assay.summarize import newest_summary_json

        newest = newest_summary_json(run_dir.root)
        if newest is not None:
            time_str = newest.stem.removeprefix("summary_")
    path = write_html_report(run_dir.root, summary, time_str, ranks=args.ranks, embed=args.embed)
    sys.stdout.write(f"{path}\n")
    return 0
