"""Start-up cost of checked programs: sandboxed runs vs plain subprocesses (programs per second).

Both sides run the same trivial test (``x = 1`` and ``assert x >= 0``),
``--workers`` at a time:

* ``sandbox``: a checked run in :class:`assay.sandbox.Sandbox` as the code
  evaluators make it (namespaces when available, limits, a private working
  directory; the program in one process, the assertion in a second that reads
  ``x`` through the pipe);
* ``subprocess``: ``python -c <program>`` per program in a thread pool, nothing else.

Usage: python benchmarks/bench_code.py [--workers 2] [--programs 200]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from assay.evaluators._code_exec import Checked, checked_program
from assay.sandbox import Limits, Sandbox


def _plain(programs: list[str], workers: int) -> float:
    def one(src: str) -> int:
        return subprocess.run([sys.executable, "-s", "-c", src], capture_output=True, timeout=30).returncode

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        codes = list(pool.map(one, programs))
    elapsed = time.perf_counter() - start
    assert all(c == 0 for c in codes), "a trivial program failed in a plain subprocess"
    return elapsed


def _sandboxed(sandbox: Sandbox, runs: list[Checked]) -> float:
    start = time.perf_counter()
    results = sandbox.run_many([r.program for r in runs], checkers=[r.checker for r in runs])
    elapsed = time.perf_counter() - start
    assert all(r.passed for r in results), [r.message for r in results if not r.passed][:3]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="best of this many rounds")
    args = parser.parse_args()

    programs = [f"x = {i}\nassert x >= 0" for i in range(args.programs)]
    runs = [checked_program([f"x = {i}"], ["assert x >= 0"]) for i in range(args.programs)]
    sandbox = Sandbox(Limits(timeout=10), max_workers=args.workers)
    sandbox.run(runs[0].program, checker=runs[0].checker)  # warm up
    _plain(programs[:4], args.workers)
    plain = min(_plain(programs, args.workers) for _ in range(args.rounds))
    boxed = min(_sandboxed(sandbox, runs) for _ in range(args.rounds))
    n = len(programs)
    print(f"isolation:   {sandbox.isolation.value} ({sandbox.isolation_note})")
    print(f"workers:     {args.workers}, programs: {n}, best of {args.rounds}")
    print(f"subprocess:  {n / plain:7.1f} programs/s  ({1000 * plain * args.workers / n:6.1f} ms per program per worker)")
    print(f"sandbox:     {n / boxed:7.1f} programs/s  ({1000 * boxed * args.workers / n:6.1f} ms per program per worker)")
    print(f"overhead:    {boxed / plain:.2f}x the plain subprocess time")


if __name__ == "__main__":
    main()
