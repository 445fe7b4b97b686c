"""Benchmark: one dataset of 1,000,000 predictions (peak memory and sharding).

AccEvaluator with first_option_postprocess, run as a user would
(``python -m assay eval``); prints wall time, predictions/s, the peak RSS of
the whole process tree (polled) and of its largest process, and the ratio to
the floor (reading and parsing the prediction file and one regex per
prediction, in this process).

Usage::

    python benchmarks/bench_large.py [--root DIR] [--samples 1000000] [--workers N] [--shard-size N]
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
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_large")
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--shard-size", type=int, default=None)
    parser.add_argument("--no-details", action="store_true", help="leave per-sample details out of the result")
    args = parser.parse_args()

    root = args.root.resolve()
    config = make_work_dir(root, models=1, datasets=1, samples=args.samples)
    size = sum(p.stat().st_size for p in (root / "work" / RUN / "predictions").rglob("*.json"))
    print(f"prediction file: {size / 2**20:,.0f} MiB")
    floor, count = measure_floor(root)
    extra = []
    if args.workers:
        extra += ["--workers", str(args.workers)]
    if args.shard_size is not None:
        extra += ["--shard-size", str(args.shard_size)]
    if args.no_details:
        extra.append("--no-dump-eval-details")
    shutil.rmtree(root / "work" / RUN / "results", ignore_errors=True)
    measured = run_assay(["eval", str(config), "-w", str(root / "work"), "-r", RUN, "--force", *extra], cwd=root)
    report(f"assay eval, 1 dataset × {args.samples:,} predictions", measured, count, floor)
    result = root / "work" / RUN / "results" / "model_0" / "mcq_0.json"
    if result.exists():
        print(f"result file: {result.stat().st_size / 2**20:,.0f} MiB")


if __name__ == "__main__":
    main()
