"""The seed's complete InverseIFEval example, run on a generated results folder.

The two config files under ``tests/data/summarize/inverse_ifeval/`` are the
seed's text verbatim, including ``from mmengine.config import read_base``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from assay import load_config
from assay.summarize import run_summarizer, validate_summarizer_config
from tests.summarize.builders import FIXED_TIME, GEN, infer_cfg, write_result

CONFIG = Path(__file__).parents[1] / "data" / "summarize" / "inverse_ifeval" / "inverse_ifeval.py"
TYPES = ["QC", "ITF", "CC", "CCF", "DIA", "II", "MIM", "CA"]
COUNTS = {"QC": 90, "ITF": 86, "CC": 198, "CCF": 82, "DIA": 186, "II": 154, "MIM": 108, "CA": 108}
SUBSETS = [f"InverseIFEval_{lang}_{t}" for lang in ("zh", "en") for t in TYPES]
# distinct, non-round accuracies so that weighted and macro averages differ
ACCURACY = {abbr: round(37.5 + 3.7 * i + (i % 3) * 1.9, 3) for i, abbr in enumerate(SUBSETS)}


@pytest.fixture
def config(run_dir: Path) -> dict[str, Any]:
    loaded = load_config(CONFIG).variables
    for model, offset in (("model_a", 0.0), ("model_b", 5.0)):
        for abbr in SUBSETS:
            write_result(run_dir, model, abbr, {"accuracy": ACCURACY[abbr] + offset, "details": [{"correct": True}]})
    return {
        "models": [{"abbr": "model_a"}, {"abbr": "model_b"}],
        "datasets": [{"abbr": abbr, "infer_cfg": infer_cfg(GEN)} for abbr in SUBSETS],
        "work_dir": str(run_dir),
        "summarizer": loaded["summarizer"],
    }


def _weighted(abbrs: list[str], offset: float) -> float:
    weights = {a: COUNTS[a.rsplit("_", 1)[1]] // 2 for a in abbrs}
    return sum(weights[a] * (ACCURACY[a] + offset) for a in abbrs) / sum(weights.values())


def test_rows_follow_the_seed_order(config: dict[str, Any]) -> None:
    validate_summarizer_config(config)
    table = run_summarizer(config, time_str=FIXED_TIME).table
    assert [(r[0], r[2]) for r in table[1:]] == [
        ("InverseIFEval", "weighted_average"),
        ("InverseIFEval_zh", "weighted_average"),
        ("InverseIFEval_macro", "naive_average"),
        *[(abbr, "accuracy") for abbr in SUBSETS],
    ]
    assert len(table) == 1 + 3 + 16


def test_weighted_and_macro_values(config: dict[str, Any]) -> None:
    result = run_summarizer(config, time_str=FIXED_TIME)
    values = result.leaderboard.scores
    zh = [a for a in SUBSETS if "_zh_" in a]
    for model, offset in (("model_a", 0.0), ("model_b", 5.0)):
        assert values[model]["InverseIFEval"]["weighted_average"] == pytest.approx(_weighted(SUBSETS, offset))
        assert values[model]["InverseIFEval_zh"]["weighted_average"] == pytest.approx(_weighted(zh, offset))
        macro = sum(ACCURACY[a] + offset for a in SUBSETS) / 16
        assert values[model]["InverseIFEval_macro"]["naive_average"] == pytest.approx(macro)
    # sample weighting is not the macro average here
    assert not math.isclose(_weighted(SUBSETS, 0.0), sum(ACCURACY.values()) / 16, rel_tol=1e-6)
    first = result.table[1]
    assert first[:4] == ["InverseIFEval", "-", "weighted_average", "gen"]
    assert first[4] == f"{_weighted(SUBSETS, 0.0):.2f}" and first[5] == f"{_weighted(SUBSETS, 5.0):.2f}"
    assert result.errors == []


def test_missing_subset_fails_the_groups_without_partial_score(config: dict[str, Any], run_dir: Path) -> None:
    (run_dir / "results" / "model_b" / "InverseIFEval_en_CA.json").unlink()
    result = run_summarizer(config, time_str=FIXED_TIME)
    board = result.leaderboard
    assert board.missing_reason("model_b", "InverseIFEval") == "missing metrics: ['InverseIFEval_en_CA@accuracy']"
    assert board.missing_reason("model_b", "InverseIFEval_zh") is None  # the Chinese group does not use it
    assert result.table[1][5] == "-" and result.table[2][5] != "-"


def test_seed_worked_example(run_dir: Path) -> None:
    # 60 and 90 with 100 and 200 samples: naive 75, weighted 80
    write_result(run_dir, "m", "s1", {"accuracy": 60})
    write_result(run_dir, "m", "s2", {"accuracy": 90})
    pairs = [["s1", "accuracy"], ["s2", "accuracy"]]
    config = {
        "models": [{"abbr": "m"}],
        "datasets": [{"abbr": "s1"}, {"abbr": "s2"}],
        "work_dir": str(run_dir),
        "summarizer": {
            "summary_groups": [
                {"name": "naive", "subsets": pairs},
                {"name": "weighted", "subsets": pairs, "weights": {"s1": 100, "s2": 200}},
            ],
            "dataset_abbrs": ["naive", "weighted"],
        },
    }
    table = run_summarizer(config, time_str=FIXED_TIME).table
    assert table[1:] == [
        ["naive", "-", "naive_average", "-", "75.00"],
        ["weighted", "-", "weighted_average", "-", "80.00"],
    ]
