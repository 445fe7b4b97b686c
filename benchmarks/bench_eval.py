"""Benchmark: eval + summary of 5 models × 20 datasets × 2,000 samples.

AccEvaluator with first_option_postprocess on messy replies, run as a user
would (``python -m assay run``, with and without ``--no-report``), against the
floor: reading and parsing every prediction file and running one regex per
prediction, in this process.

Usage::

    python benchmarks/bench_eval.py [--root DIR] [--workers N] [--models 5 --datasets 20 --samples 2000]

The generated work directory is kept under ``--root`` (default: a folder in
the system temporary directory) and reused by later runs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import RUN, make_work_dir, measure_floor, report, run_assay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_eval")
    parser.add_argument("--models", type=int, default=5)
    parser.add_argument("--datasets", type=int, default=20)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="measured runs (the best is reported too)")
    args = parser.parse_args()

    root = args.root.resolve()
    config = make_work_dir(root, models=args.models, datasets=args.datasets, samples=args.samples)
    floor, count = measure_floor(root)
    floor = min(floor, *(measure_floor(root)[0] for _ in range(2)))
    extra = ["--workers", str(args.workers)] if args.workers else []
    size = f"{args.models} models × {args.datasets} datasets × {args.samples} samples"
    best: dict[str, float] = {}
    for label, flags in (("eval + summary tables (run --no-report)", ["--no-report"]), ("eval + summary + intervals + HTML report (run)", [])):
        times = []
        for i in range(args.repeat):
            shutil.rmtree(root / "work" / RUN / "results", ignore_errors=True)
            shutil.rmtree(root / "work" / RUN / "summary", ignore_errors=True)
            measured = run_assay(["run", str(config), "-w", str(root / "work"), "-r", RUN, "--force", *flags, *extra], cwd=root)
            report(f"{label}, {size} (run {i + 1})", measured, count, floor)
            times.append(measured.seconds)
        best[label] = min(times)
    print(f"floor (best of 3): {floor:.3f} s")
    for label, seconds in best.items():
        print(f"best of {args.repeat}, {label}: {seconds:.2f} s, {count / seconds:,.0f} predictions/s, {seconds / floor:.2f}x the floor")
    reuse = run_assay(["eval", str(config), "-w", str(root / "work"), "-r", RUN, *extra], cwd=root)
    report("assay eval -r (every result reused)", reuse, count, floor)
    help_run = run_assay(["--help"], cwd=root)
    print(f"== assay --help: {help_run.seconds:.3f} s")


if __name__ == "__main__":
    main()
