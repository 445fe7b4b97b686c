"""Throughput of ``MATHEvaluator`` on 100k replies, and pathological answers that must not stall a run.

Prints samples per second for ``MATHEvaluator`` (``version='v1'`` and
``'v2'``) on generated MATH-style answers (fractions, decimals, units,
``\\text{}``, intervals, thousands separators, LaTeX noise), with the answers
mixed so that about half are equivalent to their reference.  Then it scores
pathological answers — a 200 000-character run of ``\\frac``, deeply nested
braces, ``\\sqrt`` at the end — and reports the time each took; and it runs
``MATHVerifyEvaluator`` on a batch containing a tower of powers that SymPy
cannot settle, showing that the per-sample time limit of its worker
processes turns it into a ``timeout`` while the other samples are scored.

Usage::

    python benchmarks/bench_math.py [--n 100000] [--verify-n 200] [--timeout 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from assay.evaluators import MATHEvaluator, MATHVerifyEvaluator

_FORMS = (
    ("\\frac{{{a}}}{{{b}}}", "\\dfrac{a}{b}"),
    ("{a}/{b}", "\\frac{a}{b}"),
    ("{a}.5", "{a}.50"),
    ("{a}\\text{{ cm}}", "{a}"),
    ("{a},000", "{a}000"),
    ("x = {a}", "{a}"),
    ("[{a}, {b})", "[{a},{b})"),
    ("\\sqrt{{{a}}}", "\\sqrt{a}"),
    ("{a}\\%", "{a}"),
    ("\\left( {a}, {b} \\right)", "({a},{b})"),
)


def _pairs(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    preds, refs = [], []
    for _ in range(n):
        ref_form, pred_form = rng.choice(_FORMS)
        a, b = rng.randint(1, 999), rng.randint(2, 999)
        ref = ref_form.format(a=a, b=b)
        if rng.random() < 0.5:
            pred = pred_form.replace("{a}", str(a)).replace("{b}", str(b))
        else:
            pred = ref_form.format(a=a + rng.randint(1, 9), b=b)
        preds.append(pred)
        refs.append(ref)
    return preds, refs


def _timed(fn: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


PATHOLOGICAL = {
    "200k \\frac": "\\frac" * 40_000,
    "nested braces": "{" * 50_000 + "1" + "}" * 50_000,
    "\\sqrt at the end": "2\\sqrt",
    "many slashes": "1/" * 50_000 + "2",
    "long text": "the answer is " * 20_000 + "5",
}
TOWER = "\\boxed{9^{9^{9^{9^{9^{9}}}}}}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="replies for MATHEvaluator")
    parser.add_argument("--verify-n", type=int, default=200, help="replies for MATHVerifyEvaluator")
    parser.add_argument("--timeout", type=float, default=5.0, help="MATHVerifyEvaluator's per-sample time limit")
    args = parser.parse_args()
    out = sys.stdout

    preds, refs = _pairs(args.n)
    for version in ("v1", "v2"):
        evaluator = MATHEvaluator(version=version)
        result, seconds = _timed(lambda ev=evaluator: ev.score(preds, refs))
        out.write(f"MATHEvaluator {version}: {args.n} replies in {seconds:.2f} s = {args.n / seconds:,.0f} samples/s "
                  f"(accuracy {result['accuracy']:.1f})\n")

    for name, text in PATHOLOGICAL.items():
        for version in ("v1", "v2"):
            _, seconds = _timed(lambda v=version, t=text: MATHEvaluator(version=v).score([t], ["5"]))
            out.write(f"pathological {name!r} ({len(text):,} chars), {version}: {seconds * 1000:.1f} ms\n")

    vpreds, vrefs = _pairs(args.verify_n, seed=1)
    vpreds = [f"$\\boxed{{{p}}}$" for p in vpreds]
    vpreds[len(vpreds) // 2] = TOWER
    evaluator = MATHVerifyEvaluator(timeout=args.timeout)
    result, seconds = _timed(lambda: evaluator.score(vpreds, vrefs))
    statuses: dict[str, int] = {}
    for d in result["details"]:
        statuses[d["status"]] = statuses.get(d["status"], 0) + 1
    out.write(f"MATHVerifyEvaluator x{evaluator.workers}: {args.verify_n} replies (one a tower of powers) in {seconds:.1f} s = "
              f"{args.verify_n / seconds:,.1f} samples/s; outcomes {statuses}\n")


if __name__ == "__main__":
    main()
