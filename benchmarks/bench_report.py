"""Report generation for a run with 50,000 samples × 2 models: time and file size.

Run: python benchmarks/bench_report.py [N]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    from assay.report import write_html_report

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    rng = random.Random(0)
    run = Path(tempfile.mkdtemp()) / "20240101_000000"
    for model, p in (("m1", 0.7), ("m2", 0.6)):
        details = [{"pred": [rng.choice("ABCD")], "answer": ["A"], "correct": [rng.random() < p],
                    "example_abbr": f"big_{i}"} for i in range(n)]
        acc = 100.0 * sum(d["correct"][0] for d in details) / n
        path = run / "results" / model / "big.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"accuracy": acc, "details": details}, indent=4))
    start = time.perf_counter()
    out = write_html_report(run, None, "20240101_000000")
    print(f"{n} samples × 2 models: {time.perf_counter() - start:.2f} s, {out.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
