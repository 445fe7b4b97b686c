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
import statistics
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
    parser.add_argument("--repeat", type=int, default=5, help="rounds of floor + runs (best and median are reported)")
    args = parser.parse_args()

    root = args.root.resolve()
    config = make_work_dir(root, models=args.models, datasets=args.datasets, samples=args.samples)
    extra = ["--workers", str(args.workers)] if args.workers else []
    size = f"{args.models} models × {args.datasets} datasets × {args.samples} samples"
    labels = {"eval + summary tables (run --no-report)": ["--no-report"], "eval + summary + intervals + HTML report (run)": []}
    # the floor is measured again right before each round, so that every ratio compares runs of the same moment
    # (a shared machine's speed drifts from minute to minute)
    floors: list[float] = []
    times: dict[str, list[float]] = {label: [] for label in labels}
    ratios: dict[str, list[float]] = {label: [] for label in labels}
    count = 0
    for i in range(args.repeat):
        floor, count = measure_floor(root)
        floors.append(floor)
        for label, flags in labels.items():
            shutil.rmtree(root / "work" / RUN / "results", ignore_errors=True)
            shutil.rmtree(root / "work" / RUN / "summary", ignore_errors=True)
            measured = run_assay(["run", str(config), "-w", str(root / "work"), "-r", RUN, "--force", *flags, *extra], cwd=root)
            report(f"{label}, {size} (round {i + 1})", measured, count, floor)
            times[label].append(measured.seconds)
            ratios[label].append(measured.seconds / floor)
    floor = min(floors)
    print(f"floor: best {floor:.3f} s, median {statistics.median(floors):.3f} s over {args.repeat} rounds")
    for label in labels:
        seconds = min(times[label])
        print(
            f"{label}: best {seconds:.2f} s ({count / seconds:,.0f} predictions/s), {seconds / floor:.2f}x the best floor; "
            f"ratio to the floor of its round: median {statistics.median(ratios[label]):.2f}x, best {min(ratios[label]):.2f}x"
        )
    reuse = run_assay(["eval", str(config), "-w", str(root / "work"), "-r", RUN, *extra], cwd=root)
    report("assay eval -r (every result reused)", reuse, count, floor)
    help_run = run_assay(["--help"], cwd=root)
    print(f"== assay --help: {help_run.seconds:.3f} s")


if __name__ == "__main__":
    main()
