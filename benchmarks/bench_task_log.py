"""The task log written again over an earlier run's: time per log, three ways of writing it.

A run scored again writes each task's log over the log of the earlier run.  Times, per 600-byte log whose
earlier content is on disk (``os.sync`` first): emptying the file and writing it again (``open(path, "w")``,
which ext4 flushes to disk at close: its replace-by-truncate heuristic); writing over it in place and cutting
it to the new length; and what assay does (``assay.tasks.run``'s log): removing it and writing a new file.
Prints figures (median and best of ``--repeat`` rounds of ``--logs`` files each).

Run:  python benchmarks/bench_task_log.py [--logs 200] [--repeat 5] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from assay.tasks.run import _Log

LINES = [f"2025-01-01T00:00:{i:02d} step {i} of the task: 2000 samples scored, 3 extraction differences" for i in range(7)]


def emptied(path: Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(LINES) + "\n")


def in_place(path: Path) -> None:
    with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o666), "w", encoding="utf-8") as fh:
        fh.write("\n".join(LINES) + "\n")
        fh.truncate()


def assay_log(path: Path) -> None:
    _Log(path, list(LINES)).flush()


def one_round(folder: Path, write: Callable[[Path], None], logs: int) -> float:
    paths = [folder / f"{i}.out" for i in range(logs)]
    for p in paths:  # the earlier run's logs, on disk
        p.write_text("earlier run\n" * 60, encoding="utf-8")
    os.sync()
    start = time.perf_counter()
    for p in paths:
        write(p)
    return (time.perf_counter() - start) / logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None, help="where to write the logs (a temporary folder)")
    args = parser.parse_args()
    ways = {"emptied and written again": emptied, "written over in place, cut": in_place, "removed, new file (assay)": assay_log}
    times: dict[str, list[float]] = {name: [] for name in ways}
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for _ in range(args.repeat):  # interleaved rounds
            for name, write in ways.items():
                times[name].append(one_round(Path(folder), write, args.logs))
    print(f"{len(LINES[0]) * len(LINES) + len(LINES)}-byte log over an earlier one on disk, {args.logs} logs × {args.repeat} rounds:")
    for name, ts in times.items():
        print(f"  {name:28} {statistics.median(ts) * 1e3:7.3f} ms median, {min(ts) * 1e3:7.3f} ms best per log")


if __name__ == "__main__":
    main()
