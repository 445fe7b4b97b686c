"""Record OpenCompass 0.5.4's summary table for many realistic per-subject numbers.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_summarizer.py [--out DIR]

It draws per-subject MMLU accuracies for several models from a fixed seed (each
``100 * correct / n`` with ``n`` the subject's size, and for some models the same
rounded to two decimals, as published tables give them), writes them as result
files of a work dir, and runs OpenCompass's ``DefaultSummarizer`` on it with
OpenCompass's own MMLU summary groups (the four categories, ``mmlu`` and the
size-weighted ``mmlu-weighted``) and further groups: standard deviation, sum,
harmonic mean, a weighted sum whose weights are listed in another order than
the subsets, a group of groups, and groups of 2 to 40 subjects (sizes whose mean of two-decimal values can fall exactly halfway between two printed cells).

Output, under ``tests/data/summarize/opencompass_mmlu`` (default):
``inputs.json`` (models, subjects, values, dataset configs, groups) and
``summary.csv``, the table OpenCompass wrote.  ``tests/summarize/
test_summarize_opencompass_mmlu.py`` runs assay's summarizer on the same inputs.

A second recording, under ``tests/data/summarize/opencompass_groups``, holds
the group forms whose numbers follow OpenCompass's own rules rather than
their keys' names: a ``metric`` name beside ``std``/``sum``/``harmonic_mean``
or ``weights`` (OpenCompass aggregates by the output's name), transforms with
conditional expressions, comparisons and boolean operators (which it
evaluates with ``eval``), and a transform keyed ``abbr@metric`` (which it
never applies).  ``tests/summarize/test_summarize_opencompass_groups.py``
compares assay's table with it.  ``--which`` records one of the two.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "summarize" / "opencompass_mmlu"
GROUPS_OUT = ROOT / "tests" / "data" / "summarize" / "opencompass_groups"
TIME = "20240101_000000"
GEN = "opencompass.openicl.icl_inferencer.GenInferencer"


def _infer_cfg() -> dict[str, Any]:
    return {
        "prompt_template": {"type": "opencompass.openicl.icl_prompt_template.PromptTemplate", "template": "{q}"},
        "retriever": {"type": "opencompass.openicl.icl_retriever.ZeroRetriever"},
        "inferencer": {"type": GEN},
    }


def build_inputs(seed: int = 13, models: int = 8) -> dict[str, Any]:
    from opencompass.configs.summarizers.groups.mmlu import mmlu_summary_groups

    groups: list[dict[str, Any]] = [dict(g) for g in mmlu_summary_groups]
    weighted = next(g for g in groups if g["name"] == "mmlu-weighted")
    sizes: dict[str, int] = dict(weighted["weights"])
    subjects: list[str] = list(next(g for g in groups if g["name"] == "mmlu")["subsets"])
    rng = random.Random(seed)
    values: dict[str, dict[str, float]] = {}
    for m in range(models):
        model = f"model_{m}"
        low, high = rng.uniform(0.2, 0.5), rng.uniform(0.6, 0.95)
        row: dict[str, float] = {}
        for subject in subjects:
            n = sizes[subject]
            value = 100 * rng.randint(int(low * n), int(high * n)) / n
            row[subject] = round(value, 2) if m % 2 == 1 else value
        values[model] = row
    pairs = [[s, "accuracy"] for s in subjects]
    reordered = sorted(subjects, key=lambda s: (len(s), s))
    groups += [
        {"name": "mmlu-std", "subsets": pairs, "std": True},
        {"name": "mmlu-sum", "subsets": pairs, "sum": True},
        {"name": "mmlu-harmonic", "subsets": subjects, "harmonic_mean": True},
        {"name": "mmlu-wsum", "subsets": pairs, "sum": True, "weights": {s: sizes[s] for s in reordered}},
        {"name": "mmlu-weighted-pairs", "subsets": pairs, "weights": {f"{s}@accuracy": sizes[s] for s in reordered}},
        {
            "name": "mmlu-categories",
            "subsets": [["mmlu-humanities", "naive_average"], ["mmlu-stem", "naive_average"],
                        ["mmlu-social-science", "naive_average"], ["mmlu-other", "naive_average"]],
        },
        {"name": "mmlu-metric", "subsets": subjects[:20], "metric": "my_average"},
    ]
    # Groups whose size divides a power of ten: the mean of two-decimal values
    # can then be exactly halfway between two printed cells, where the last bit
    # of the sum decides the printed digit.
    for start, size in ((0, 2), (2, 4), (6, 5), (11, 8), (19, 10), (29, 20), (49, 8), (0, 40), (17, 25)):
        groups.append({"name": f"mmlu-{start}-{start + size}", "subsets": subjects[start : start + size]})
    return {
        "about": "Per-subject MMLU accuracies drawn by scripts/record_oc_summarizer.py; summary.csv is OpenCompass's table for them.",
        "opencompass": importlib.metadata.version("opencompass"),
        "models": list(values),
        "subjects": subjects,
        "values": values,
        "groups": groups,
        "time": TIME,
    }


def run_opencompass(inputs: dict[str, Any], work_dir: Path) -> str:
    from mmengine.config import ConfigDict
    from opencompass.summarizers import DefaultSummarizer

    for model, row in inputs["values"].items():
        folder = work_dir / "results" / model
        folder.mkdir(parents=True, exist_ok=True)
        for subject, value in row.items():
            (folder / f"{subject}.json").write_text(json.dumps({"accuracy": value}), encoding="utf-8")
    config = ConfigDict(
        models=[{"abbr": m} for m in inputs["models"]],
        datasets=[{"abbr": s, "infer_cfg": _infer_cfg(), "eval_cfg": {}} for s in inputs["subjects"]],
        work_dir=str(work_dir),
    )
    DefaultSummarizer(config, summary_groups=inputs["groups"]).summarize(time_str=inputs["time"])
    return (work_dir / "summary" / f"summary_{inputs['time']}.csv").read_text(encoding="utf-8")


def build_group_inputs() -> dict[str, Any]:
    """Four datasets with one or two metrics, two models, and the group forms to record."""
    results = {
        "model_a": {
            "d1": {"accuracy": 0.8, "score": 40.0},
            "d2": {"accuracy": 1.6, "score": 55.5},
            "d3": {"accuracy": 62.5},
            "d4": {"accuracy": 2.4, "score": 0.0},
        },
        "model_b": {
            "d1": {"accuracy": 2.0, "score": 12.25},
            "d2": {"accuracy": 1.0, "score": 0.5},
            "d3": {"accuracy": 0.75},
            "d4": {"accuracy": 88.0, "score": 3.5},
        },
    }
    pairs = [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "accuracy"]]
    weights = {"d3": 3, "d1": 1, "d2": 2}
    groups: list[dict[str, Any]] = [
        # a metric name beside an aggregation key: OpenCompass aggregates by the name
        {"name": "std-named", "subsets": pairs, "std": True, "metric": "spread"},
        {"name": "sum-named", "subsets": pairs, "sum": True, "metric": "total"},
        {"name": "hm-named", "subsets": pairs, "harmonic_mean": True, "metric": "hm"},
        {"name": "named-sum", "subsets": pairs, "metric": "sum"},
        {"name": "named-std", "subsets": pairs, "metric": "standard_deviation"},
        {"name": "named-hm", "subsets": pairs, "metric": "harmonic_mean"},
        {"name": "hm-named-std", "subsets": pairs, "harmonic_mean": True, "metric": "standard_deviation"},
        {"name": "weighted-named-sum", "subsets": pairs, "weights": weights, "metric": "sum"},
        {"name": "weighted-std-named", "subsets": pairs, "std": True, "weights": weights, "metric": "w"},
        {"name": "weighted-named-hm", "subsets": pairs, "weights": weights, "metric": "harmonic_mean"},
        {"name": "bare-sum-named", "subsets": ["d1", "d2", "d4"], "sum": True, "metric": "total"},
        {"name": "bare-named-sum", "subsets": ["d1", "d2", "d4"], "metric": "sum"},
        {"name": "bare-std-named-accuracy", "subsets": ["d1", "d2"], "std": True, "metric": "accuracy"},
        {"name": "nested-named", "subsets": [["std-named", "spread"], ["named-sum", "sum"]], "sum": True, "metric": "x"},
        # transforms OpenCompass evaluates with eval
        {"name": "conditional", "subsets": pairs,
         "transforms": {"d1": "x - 0.5 if x > 1 else x", "d2": "(x > 1) + (x > 1.5) * 10", "d3": "x > 1 and 100 - x or x"}},
        {"name": "boolean-bare", "subsets": ["d1", "d2", "d4"],
         "transforms": {"d1": "not x > 1", "d2": "0 < x <= 1.5", "d4": "x if x != 0 else -1"}},
        {"name": "conditional-weighted", "subsets": pairs, "weights": weights,
         "transforms": {"d3": "100 - x if x >= 50 else x * 2"}},
        # a transform keyed abbr@metric: OpenCompass looks transforms up by the abbr only
        {"name": "transform-at-key", "subsets": pairs, "transforms": {"d1@accuracy": "100 - x"}},
    ]
    return {
        "about": "Result metrics and group forms of scripts/record_oc_summarizer.py; summary.csv is OpenCompass's table for them.",
        "opencompass": importlib.metadata.version("opencompass"),
        "models": list(results),
        "datasets": ["d1", "d2", "d3", "d4"],
        "results": results,
        "groups": groups,
        "time": TIME,
    }


def run_opencompass_groups(inputs: dict[str, Any], work_dir: Path) -> str:
    from mmengine.config import ConfigDict
    from opencompass.summarizers import DefaultSummarizer

    for model, row in inputs["results"].items():
        folder = work_dir / "results" / model
        folder.mkdir(parents=True, exist_ok=True)
        for abbr, result in row.items():
            (folder / f"{abbr}.json").write_text(json.dumps(result), encoding="utf-8")
    config = ConfigDict(
        models=[{"abbr": m} for m in inputs["models"]],
        datasets=[{"abbr": d, "infer_cfg": _infer_cfg(), "eval_cfg": {}} for d in inputs["datasets"]],
        work_dir=str(work_dir),
    )
    DefaultSummarizer(config, summary_groups=[dict(g) for g in inputs["groups"]]).summarize(time_str=inputs["time"])
    return (work_dir / "summary" / f"summary_{inputs['time']}.csv").read_text(encoding="utf-8")


def _record(inputs: dict[str, Any], run: Any, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        csv_text = run(inputs, Path(tmp) / TIME)
    out.mkdir(parents=True, exist_ok=True)
    (out / "inputs.json").write_text(json.dumps(inputs, indent=1) + "\n", encoding="utf-8")
    (out / "summary.csv").write_text(csv_text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="the folder of the one recording --which names")
    parser.add_argument("--which", choices=("mmlu", "groups", "all"), default="all")
    args = parser.parse_args()
    if args.out is not None and args.which == "all":
        parser.error("--out needs --which mmlu or --which groups")
    if args.which in ("mmlu", "all"):
        _record(build_inputs(), run_opencompass, args.out or OUT)
    if args.which in ("groups", "all"):
        _record(build_group_inputs(), run_opencompass_groups, args.out or GROUPS_OUT)


if __name__ == "__main__":
    main()
