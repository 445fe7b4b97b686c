"""Benchmark: the fixed cost of a small run — ``assay run examples/quickstart/config.py --no-report``.

Runs the quickstart (2 models × 3 datasets, 52 samples) ``--repeat`` times as a
user would (``python -m assay run``, a fresh interpreter each time, compiled
modules cached) and prints the median and best wall time and the median CPU
time (user + system) of the whole process tree: the driver and every worker
it forked and waited for, read with ``os.wait4``.  On a shared machine the
CPU time is the steadier figure.

``--against REV_OR_DIR`` measures another version of assay in the same
invocation (a directory holding ``src/assay``, or a git revision of this
repository, checked out into a temporary worktree), the two alternating run by
run, and prints both versions' figures side by side with their ratio.

Usage::

    python benchmarks/bench_quickstart.py [--repeat 12] [--against REV_OR_DIR] [-- EXTRA ASSAY ARGS]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_eval import REPO, version_source

CONFIG = REPO / "examples" / "quickstart" / "config.py"


def run_once(src: Path, work: Path, extra: list[str]) -> tuple[float, float]:
    """One ``assay run`` of the quickstart with ``PYTHONPATH=src``: (wall seconds, CPU seconds of the process tree)."""
    shutil.rmtree(work, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    command = [sys.executable, "-m", "assay", "run", str(CONFIG), "-w", str(work), "-r", "bench", "--no-report", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=work.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"assay run with PYTHONPATH={src} exited {proc.returncode}:\n{stderr.decode(errors='replace')[-3000:]}")
    return seconds, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=12, help="runs of each version (medians and best are reported)")
    parser.add_argument("--against", metavar="REV_OR_DIR", help="also measure this version of assay (see above)")
    parser.add_argument("extra", nargs="*", help="more arguments for assay run (after --)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="assay_bench_quickstart_"))
    try:
        with version_source(args.against) if args.against else contextlib.nullcontext() as other:
            versions = {"this checkout": REPO / "src"}
            if other is not None:
                versions[other[1]] = other[0]
            figures: dict[str, list[tuple[float, float]]] = {name: [] for name in versions}
            for src in versions.values():  # one run each first, so that every version's modules are compiled
                run_once(src, root / "work", args.extra)
            for _ in range(args.repeat):
                for name, src in versions.items():
                    figures[name].append(run_once(src, root / "work", args.extra))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"== assay run {CONFIG.relative_to(REPO)} --no-report {' '.join(args.extra)}: {args.repeat} runs of each version")
    print(f"{'':16}  {'wall median':>11}  {'wall best':>9}  {'CPU median':>10}  {'CPU best':>8}")
    rows = {}
    for name, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        rows[name] = (statistics.median(walls), min(walls), statistics.median(cpus), min(cpus))
        print(f"{name[:16]:16}  {rows[name][0]:10.3f}s  {rows[name][1]:8.3f}s  {rows[name][2]:9.3f}s  {rows[name][3]:7.3f}s")
    if len(rows) == 2:
        mine, theirs = rows.values()
        print(f"{'this/other':16}  " + "  ".join(f"{a / b:{w}.2f}x" for a, b, w in zip(mine, theirs, (10, 8, 9, 7))))


if __name__ == "__main__":
    main()
