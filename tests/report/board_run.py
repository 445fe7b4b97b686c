"""A run of several models for the leaderboard tests: results written with assay's own writers.

Eight models on six datasets in two groups and an ``overall`` group of them;
``m_tie_a`` and ``m_tie_b`` have identical results (a tie in every column);
``m_unsc`` has replies that could not be extracted.  Every result has 40
samples, an ``example_abbr`` each, and its ``.stats`` beside it as the eval
workers write it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

TIME = "20240301_000000"
DATASETS = ("arith", "logic", "trivia", "geo", "bio", "chem")
MODELS = ("m_alpha", "m_beta", "m_gamma", "m_delta", "m_tie_a", "m_tie_b", "m_unsc", "m_zeta")
GROUPS: list[dict[str, Any]] = [
    {"name": "reasoning", "subsets": ["arith", "logic"]},
    {"name": "knowledge", "subsets": ["trivia", "geo", "bio", "chem"]},
    {"name": "overall", "subsets": ["reasoning", "knowledge"]},
]
N = 40


def _result(rng: random.Random, abbr: str, skill: float, blank: float) -> dict[str, Any]:
    details = []
    for i in range(N):
        answer = "ABCD"[i % 4]
        right = rng.random() < skill
        pred = answer if right else ("" if rng.random() < blank else "ABCD"[(i + 1) % 4])
        details.append({"pred": [pred], "answer": [answer], "correct": [right], "example_abbr": f"{abbr}_{i}"})
    unextracted = sum(1 for d in details if not d["pred"][0])
    return {"accuracy": 100.0 * sum(d["correct"][0] for d in details) / N,
            "extraction": {"unextracted": unextracted, "total": N}, "details": details,
            "_meta": {"evaluator": "AccEvaluator", "num_samples": N, "n": 1}}


def make_board_run(root: Path) -> tuple[Path, Path]:
    """Write the run under ``root``; (its run directory, its config file)."""
    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.stats import PredictionColumns

    run = root / "work" / TIME
    for m, model in enumerate(MODELS):
        seed = 4 if model == "m_tie_b" else m  # the two tied models: the same results
        rng = random.Random(seed)
        skill = {"m_tie_b": 0.3 + 0.08 * 4}.get(model, 0.3 + 0.08 * m)
        for abbr in DATASETS:
            path = run / "results" / model / f"{abbr}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            digest, written = write_result_keeping(path, _result(rng, abbr, skill, 0.9 if model == "m_unsc" else 0.0))
            save_stats(path, digest, abbr, lambda: PredictionColumns([], []), written)
    config = root / "config.py"
    config.write_text(
        f"models = [dict(abbr=m) for m in {list(MODELS)!r}]\n"
        f"datasets = [dict(abbr=a, eval_cfg=dict(evaluator=dict(type='AccEvaluator'))) for a in {list(DATASETS)!r}]\n"
        f"summarizer = dict(summary_groups={GROUPS!r})\n"
    )
    return run, config
