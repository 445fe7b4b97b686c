"""A run directory written file by file (results with details, predictions, config, summary).

Used by the stats, report and command tests; it needs no evaluator, only the
file layout of :mod:`assay.rundir.layout`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

TIME = "20240101_000000"
MODELS = ("m1", "m2")
GROUPS: list[dict[str, Any]] = [
    {"name": "core", "subsets": [["mcq", "accuracy"], ["qa", "accuracy"]]},
    {"name": "core_weighted", "subsets": [["mcq", "accuracy"], ["qa", "accuracy"]], "weights": {"mcq": 1, "qa": 3}},
    {"name": "spread", "subsets": [["mcq", "accuracy"], ["qa", "accuracy"]], "std": True},
    {"name": "overall", "subsets": [["core", "naive_average"], ["summ", "rouge1"]]},
]


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4, ensure_ascii=False))
    return path


def binary_result(flags: list[bool], *, preds: list[str], refs: list[str], abbr: str) -> dict[str, Any]:
    """An accuracy result with one run per sample."""
    details = [
        {"pred": [p], "answer": [r], "correct": [bool(f)], "example_abbr": f"{abbr}_{i}"}
        for i, (f, p, r) in enumerate(zip(flags, preds, refs))
    ]
    unextracted = sum(1 for p in preds if not p)
    return {
        "accuracy": 100.0 * sum(flags) / len(flags),
        "extraction": {"unextracted": unextracted, "total": len(flags)},
        "details": details,
        "_meta": {"evaluator": "AccEvaluator", "num_samples": len(flags), "n": 1},
    }


def runs_result(matrix: list[list[bool]], abbr: str) -> dict[str, Any]:
    """An accuracy result with several runs per sample."""
    runs = len(matrix[0])
    flat = [f for row in matrix for f in row]
    details = [{"pred": ["x"] * runs, "correct": list(row), "example_abbr": f"{abbr}_{i}"} for i, row in enumerate(matrix)]
    return {
        f"accuracy ({runs} runs average)": 100.0 * sum(flat) / len(flat),
        "extraction": {"unextracted": 0, "total": len(flat)},
        "details": details,
        "_meta": {"evaluator": "AccEvaluator", "num_samples": len(matrix), "n": runs},
    }


def rouge_result(scores: list[float]) -> dict[str, Any]:
    """A ROUGE-like result: the metric is the mean of a per-sample field of the same name."""
    details = [{"pred": f"summary {i}", "answer": f"reference {i}", "rouge1": s} for i, s in enumerate(scores)]
    return {"rouge1": sum(scores) / len(scores), "details": details, "_meta": {"evaluator": "RougeEvaluator"}}


def make_run(root: Path, *, n: int = 120, seed: int = 7, summarize: bool = True) -> Path:
    """Write a run directory under ``root/work`` and return it.

    Datasets: ``mcq`` (binary, with predictions files and some unextracted
    answers), ``qa`` (binary), ``rep`` (4 runs per sample), ``summ`` (ROUGE
    field), ``mcc`` (a metric no detail backs); m2 failed on ``broken``.
    """
    rng = random.Random(seed)
    run = root / "work" / TIME
    skill = {"m1": 0.75, "m2": 0.55}
    letters = "ABCD"
    refs = [rng.choice(letters) for _ in range(n)]
    for model in MODELS:
        p = skill[model]
        flags = [rng.random() < p for _ in range(n)]
        preds = []
        for f, r in zip(flags, refs):
            if f:
                preds.append(r)
            elif rng.random() < 0.2:
                preds.append("")
            else:
                preds.append(rng.choice([c for c in letters if c != r]))
        raw = {str(i): {"prediction": f"The answer is {pr or 'unclear'} <b> <!-- {i} --> </script>", "gold": r} for i, (pr, r) in enumerate(zip(preds, refs))}
        _write(run / "predictions" / model / "mcq.json", raw)
        _write(run / "results" / model / "mcq.json", binary_result(flags, preds=preds, refs=refs, abbr="mcq"))
        qa_flags = [rng.random() < p - 0.1 for _ in range(n // 2)]
        _write(run / "results" / model / "qa.json",
               binary_result(qa_flags, preds=["a"] * len(qa_flags), refs=["a"] * len(qa_flags), abbr="qa"))
        matrix = [[rng.random() < p for _ in range(4)] for _ in range(n // 3)]
        _write(run / "results" / model / "rep.json", runs_result(matrix, "rep"))
        _write(run / "results" / model / "summ.json", rouge_result([round(rng.uniform(0, 100 * p), 3) for _ in range(n // 2)]))
        mcc = {"matthews_correlation": 12.5 if model == "m1" else 3.0,
               "details": [{"pred": "yes", "answer": "no", "correct": False}] * 10}
        _write(run / "results" / model / "mcc.json", mcc)
        if model == "m1":
            _write(run / "results" / model / "broken.json", {"accuracy": 40.0})
        else:
            _write(run / "results" / model / "broken.json", {"error": "score() raised ValueError: boom"})
    datasets = [{"abbr": a} for a in ("mcq", "qa", "rep", "summ", "mcc", "broken")]
    config = {
        "models": [{"abbr": m} for m in MODELS],
        "datasets": datasets,
        "summarizer": {"summary_groups": GROUPS},
    }
    (run / "configs").mkdir(parents=True, exist_ok=True)
    (run / "configs" / f"{TIME}_1.py").write_text(
        "".join(f"{k} = {v!r}\n" for k, v in config.items())
    )
    if summarize:
        from assay.summarize import run_summarizer

        run_summarizer({**config, "work_dir": str(run)}, time_str=TIME)
    return run


def run_config(run: Path) -> dict[str, Any]:
    """The config written by :func:`make_run`, with ``work_dir`` set."""
    from assay.rundir.statistics import load_run_config

    config = load_run_config(run)
    assert config is not None
    return config
