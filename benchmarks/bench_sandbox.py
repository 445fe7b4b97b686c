"""Sandbox throughput on the HumanEval canonical solutions (programs per second).

Usage: python benchmarks/bench_sandbox.py [--workers N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import time

from assay.datasets.humaneval import HumanevalDataset
from assay.evaluators.code import humaneval_check
from assay.sandbox import Limits, Sandbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    ds = HumanevalDataset.load("opencompass/humaneval")
    runs = [humaneval_check(r["prompt"], r["canonical_solution"], r["test"], r["entry_point"]) for r in ds] * args.repeat
    sandbox = Sandbox(Limits(timeout=10), max_workers=args.workers)
    sandbox.run("pass")  # warm up
    start = time.perf_counter()
    results = sandbox.run_many([r.program for r in runs], checkers=[r.checker for r in runs])
    elapsed = time.perf_counter() - start
    passed = sum(r.passed for r in results)
    print(f"isolation: {sandbox.isolation.value} ({sandbox.isolation_note})")
    print(f"workers:   {args.workers}")
    print(f"programs:  {len(runs)} checked ({passed} passed)")
    print(f"elapsed:   {elapsed:.2f} s")
    print(f"rate:      {len(runs) / elapsed:.1f} programs/s")
    print(f"latency:   {1000 * sum(r.duration for r in results) / len(results):.1f} ms mean per program")


if __name__ == "__main__":
    main()
