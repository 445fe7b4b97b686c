"""``assay index``: build or repair the run index of a run directory (``<run_dir>/index.sqlite``).

Every result file is taken from the index while it still matches it, else
read; the statistics the summary needs (each metric's interval, unscorable
counts) are computed for every result that lacks them.  Summaries, reports
and comparisons do this themselves for what they read; the command does it
ahead of time, for an OpenCompass work dir or a run copied from elsewhere.
Prints what was added, changed and removed since the index was written,
and every result file that cannot be read (not JSON, truncated, not a
result) or is missing though the index or a ``.stats`` file beside it
records it.  With ``--check``, any such file makes the exit status 1.
"""

from __future__ import annotations

import argparse
import sys

NAME = "index"
HELP = "build or repair a run's index (what summaries read instead of every result file)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay index``."""
    parser.add_argument("work_dir", metavar="WORK_DIR", help="a run directory, or the parent of the timestamped run directories")
    parser.add_argument("-r", "--reuse", metavar="TIMESTAMP", default=None, help="the run directory in WORK_DIR (default: the newest)")
    parser.add_argument(
        "--check", action="store_true", help="check every entry by content (SHA-256), not by the file's size and times"
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")


def run(args: argparse.Namespace) -> int:
    """Index the run; print the counts, every changed or removed file and every problem; 0 on success, 1 without a
    usable index or, with ``--check``, with a result file unreadable or missing."""
    from assay.rundir.imports import read_run
    from assay.rundir.layout import STATS_SUFFIX
    from assay.rundir.statistics import index_run

    run_dir = read_run(args.work_dir, args.reuse)  # not a run an import left half written
    snapshot = index_run(run_dir.root, check_content=args.check)
    for rel in snapshot.changed:
        sys.stdout.write(f"changed since indexed: results/{rel}\n")
    for rel in snapshot.removed:
        sys.stdout.write(f"removed since indexed: results/{rel}\n")
    problems = [f"results/{rel}: {what}" for rel, what in snapshot.unreadable]
    problems += [f"results/{rel}: missing: the run index recorded it, the file no longer exists" for rel in snapshot.removed]
    for folder, names in sorted(snapshot.folders.items()):
        for name in sorted(names):
            stem = name[: -len(STATS_SUFFIX)]
            if name.endswith(STATS_SUFFIX) and f"{stem}.json" not in names:
                problems.append(f"results/{folder}/{stem}.json: missing: its statistics results/{folder}/{name} "
                                "were written with it, the result file is gone")
    for problem in problems:
        sys.stdout.write(f"problem: {problem}\n")
    sys.stdout.write(
        f"{run_dir.index}: {len(snapshot.rows)} results, {len(snapshot.added)} added, "
        f"{len(snapshot.changed)} changed, {len(snapshot.removed)} removed\n"
    )
    if not snapshot.persisted:
        sys.stderr.write(f"assay index: FAILED: {run_dir.index} cannot be written (see the log)\n")
        return 1
    if problems and args.check:
        sys.stderr.write(f"assay index: FAILED: {len(problems)} result file(s) unreadable or missing (listed above)\n")
        return 1
    return 0
