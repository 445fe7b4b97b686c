"""Builders for the summarizer tests: result folders made from small descriptions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GEN = "opencompass.openicl.icl_inferencer.GenInferencer"
PPL = "opencompass.openicl.icl_inferencer.PPLInferencer"
FIXED_TIME = "20240101_000000"


def infer_cfg(inferencer: str) -> dict[str, Any]:
    """The infer_cfg of reference §3.5 with the given inferencer type (dotted string, as in a dumped config)."""
    return {
        "prompt_template": {"type": "opencompass.openicl.icl_prompt_template.PromptTemplate", "template": "{q}"},
        "retriever": {"type": "opencompass.openicl.icl_retriever.ZeroRetriever"},
        "inferencer": {"type": inferencer},
    }


def write_result(run_dir: Path, model: str, abbr: str, result: Any, *, indent: int | None = 4) -> Path:
    path = run_dir / "results" / model / f"{abbr}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=indent))
    return path


# The fixed result set of reference §3.7.
REFERENCE_RESULTS: dict[str, dict[str, dict[str, Any]]] = {
    "m1": {
        "sub_a": {
            "accuracy": 50,
            "details": [{"pred": "A", "answer": "A", "correct": True}, {"pred": "B", "answer": "C", "correct": False}],
        },
        "sub_b": {"accuracy": 70, "score": 1},
        "sub_c": {"accuracy": 90, "score": 3},
        "broken": {"error": "score() raised ValueError: boom"},
        "multi": {"bp": 1.0, "f1": 10.5, "accuracy": 33.333, "extra": "str", "nested": {"a": 1}, "flag": True},
    },
    "m2": {
        "sub_a": {"accuracy": 60},
        "sub_b": {"accuracy": 80, "score": 4},
        "multi": {"bp": 1.0, "f1": 11, "accuracy": 40, "extra": "str", "nested": {"a": 1}, "flag": False},
    },
}

REFERENCE_GROUPS: list[dict[str, Any]] = [
    {"name": "grp_naive", "subsets": ["sub_a", "sub_b", "sub_c"]},
    {"name": "grp_weighted", "subsets": ["sub_a", "sub_b"], "weights": {"sub_a": 1, "sub_b": 3}},
    {"name": "grp_pairs", "subsets": [["sub_a", "accuracy"], ["multi", "f1"]]},
    {"name": "grp_std", "subsets": ["sub_a", "sub_b"], "std": True},
    {"name": "grp_sum", "subsets": ["sub_a", "sub_b"], "sum": True},
    {"name": "grp_hm", "subsets": ["sub_a", "sub_b"], "harmonic_mean": True},
    {"name": "grp_metric", "subsets": ["sub_a", "sub_b"], "metric": "my_avg"},
    {"name": "grp_transform", "subsets": ["sub_a", "sub_b"], "transforms": {"sub_a": "100 - x"}},
    {"name": "grp_missing", "subsets": ["sub_a", "sub_c"]},
    {"name": "grp_with_broken", "subsets": ["sub_a", "broken"]},
    {"name": "grp_nested", "subsets": ["grp_naive", "sub_a"]},
    # not in the reference: every input missing for both models (OpenCompass drops it silently)
    {"name": "grp_all_missing", "subsets": [["broken", "accuracy"], ["sub_c", "accuracy"]]},
]


def reference_config(run_dir: Path, **summarizer: Any) -> dict[str, Any]:
    """Write the §3.7 result files under ``run_dir`` and return the run config."""
    for model, results in REFERENCE_RESULTS.items():
        for abbr, result in results.items():
            write_result(run_dir, model, abbr, result)
    datasets = [
        {"abbr": abbr, "infer_cfg": infer_cfg(PPL if abbr == "sub_c" else GEN), "eval_cfg": {}}
        for abbr in ("sub_a", "sub_b", "sub_c", "broken", "multi")
    ]
    return {
        "models": [{"abbr": "m1"}, {"abbr": "m2", "summarizer_abbr": "M2-nice"}],
        "datasets": datasets,
        "work_dir": str(run_dir),
        "summarizer": {"summary_groups": REFERENCE_GROUPS, **summarizer},
    }
