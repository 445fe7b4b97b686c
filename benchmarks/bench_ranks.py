"""Rank intervals of a leaderboard of 100 models × 500 datasets × 50 samples: the time of ``run_ranking``.

The leaderboard has 10 summary groups of 50 datasets each and an ``overall``
group of the ten (so 511 columns are ranked: ``overall`` and the 500 datasets,
the ten inner groups through ``overall``) and 1,000 rounds; the paired
comparison matrix is of the top 10 by ``overall``.  The per-sample values are
given in the statistics (as ``run_stats(..., keep_samples=True)`` keeps them),
so the time is the mathematics alone; then the same with ``only=["overall"]``
(the datasets resampled for the group, not ranked themselves); ``--files`` writes the run's result and
``.stats`` files and times ``run_ranking`` reading the per-sample values from them.

Prints the best wall time, the peak memory of the process (MB), the size of
the JSON and its SHA-256 (the same digest from two versions: the same rankings,
every number to the bit); asserts nothing.  ``--models 5 --datasets 20
--samples 2000`` is the shape of ``bench_eval.py``'s run (few models: their
counts of right answers summed at the drawn samples, see :mod:`assay.stats._ranks`).

``--runs R`` gives every sample R runs (its value the share right), ``--missing F`` leaves out that
share of the (model, dataset) results (those models unranked on the dataset, the groups without their value).

Run: python benchmarks/bench_ranks.py [--models 100] [--datasets 500] [--samples 50] [--rounds 1000]
     [--runs 1] [--missing 0] [--repeat 3] [--files]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import tempfile
import time
from pathlib import Path


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def build(models: int, datasets: int, samples: int, runs: int = 1, missing: float = 0.0) -> tuple[object, object]:
    """A leaderboard and its statistics with every dataset cell's per-sample values (0/1 of one run, else the share
    of ``runs`` runs right); with ``missing``, that share of the (model, dataset) cells has no result."""
    import numpy as np

    from assay.groups import Scores, SummaryGroup, apply_groups
    from assay.rundir.statistics import RunStats
    from assay.stats import CellStat, SampleValues, cell_stat
    from assay.summarize.leaderboard import Leaderboard, Row

    rng = np.random.default_rng(0)
    names = [f"model_{i:03d}" for i in range(models)]
    abbrs = [f"dataset_{d:03d}" for d in range(datasets)]
    skill = rng.uniform(0.3, 0.8, models)
    difficulty = rng.uniform(-0.2, 0.2, (datasets, samples))
    scores = Scores(columns=names, dataset_abbrs=list(abbrs), metrics={a: ["accuracy"] for a in abbrs})
    stats = RunStats()
    for d, abbr in enumerate(abbrs):
        chance = np.clip(skill[None, :] - difficulty[d][:, None], 0, 1)
        flags = sum((rng.random((samples, models)) < chance).astype(float) for _ in range(runs)) / runs
        absent = rng.random(models) < missing if missing else np.zeros(models, dtype=bool)
        for j, name in enumerate(names):
            if absent[j]:
                continue
            sv = SampleValues("binary" if runs == 1 else "mean", flags[:, j], 100.0, runs, "correct")
            value = sv.estimate()
            scores.set_values(name, abbr, {"accuracy": value})
            stats.samples[(name, abbr, "accuracy")] = sv
            stats.cells[(name, abbr, "accuracy")] = cell_stat(sv, value)
    per = max(1, datasets // 10)
    definitions = [{"name": f"group_{g}", "subsets": [[a, "accuracy"] for a in abbrs[g * per:(g + 1) * per]]}
                   for g in range((datasets + per - 1) // per)]
    definitions.append({"name": "overall", "subsets": [[d["name"], "naive_average"] for d in definitions]})
    groups = [SummaryGroup.from_config(d) for d in definitions]
    apply_groups(scores, groups)
    rows = [Row(a, metric=scores.metrics[a][0], values={m: scores.value(m, a, scores.metrics[a][0]) for m in names})
            for a in [*scores.groups, *abbrs]]
    board = Leaderboard.from_scores(scores, rows, group_definitions=definitions)
    for name in names:  # the group cells' statistics, as run_stats has them
        for g in scores.groups:
            for metric, value in scores.values[name].get(g, {}).items():
                stats.cells[(name, g, metric)] = CellStat(value, 1.0, value - 2.0, value + 2.0, "propagated")
    return board, stats


def write_files(run: Path, board: object, stats: object) -> None:
    """Each (model, dataset)'s result file with its details, and its ``.stats`` file."""
    from functools import partial

    from assay.rundir.results import content_digest
    from assay.rundir.sidecar import prediction_columns, save_stats

    for (name, abbr, _), sv in stats.samples.items():  # type: ignore[attr-defined]
        path = run / "results" / name / f"{abbr}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        details = [{"pred": ["A"], "answer": ["A" if f else "B"], "correct": [bool(f)]} for f in sv.units]
        path.write_text(json.dumps({"accuracy": sv.estimate(), "details": details}))
        save_stats(path, content_digest(path), abbr, partial(prediction_columns, run, name, abbr))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--datasets", type=int, default=500)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=1, help="runs per sample (the share of them right)")
    parser.add_argument("--missing", type=float, default=0.0, help="the share of (model, dataset) cells without a result")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", action="store_true", help="also time reading the per-sample values from files")
    args = parser.parse_args()
    from assay.rundir.ranking import run_ranking

    start = time.perf_counter()
    board, stats = build(args.models, args.datasets, args.samples, args.runs, args.missing)
    print(f"{args.models} models × {args.datasets} datasets × {args.samples} samples built in "
          f"{time.perf_counter() - start:.1f} s")
    run = Path(tempfile.mkdtemp()) / "20250101_000000"
    run.mkdir(parents=True)
    best = cpu = float("inf")
    out: dict = {}
    before = _peak_mb()
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = run_ranking(run, board, stats, rounds=args.rounds)
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    text = json.dumps(out, sort_keys=True)
    print(f"run_ranking, per-sample values in memory: {best:.3f} s (best of {args.repeat}; CPU {cpu:.3f} s), "
          f"{len(out['rankings'])} columns ranked, peak {_peak_mb():.0f} MB (before: {before:.0f} MB), "
          f"JSON {len(text) / 1e6:.1f} MB, SHA-256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    best = cpu = float("inf")
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = run_ranking(run, board, stats, rounds=args.rounds, only=["overall"])
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    text = json.dumps(out, sort_keys=True)
    print(f"run_ranking of the top-level group alone (every dataset resampled, none ranked): {best:.3f} s "
          f"(best of {args.repeat}; CPU {cpu:.3f} s), SHA-256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    if args.files:
        start = time.perf_counter()
        write_files(run, board, stats)
        print(f"result and .stats files written in {time.perf_counter() - start:.1f} s")
        from assay.rundir.statistics import RunStats

        cells_only = RunStats(cells=stats.cells)  # type: ignore[attr-defined]
        for what in ("the run index built", "the run index up to date"):
            start, start_cpu = time.perf_counter(), time.process_time()
            run_ranking(run, board, cells_only, rounds=args.rounds)
            print(f"run_ranking, per-sample values from the .stats files, {what}: "
                  f"{time.perf_counter() - start:.3f} s (CPU {time.process_time() - start_cpu:.3f} s), "
                  f"peak {_peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
