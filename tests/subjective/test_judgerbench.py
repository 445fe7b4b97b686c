"""JudgerBench's judge-of-judges scores and its prompts, as OpenCompass 0.5.4 computes and builds them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS
from tests.subjective.recorded import library_rows, recorded

REC = recorded("judgerbench")


def _same(got: dict[str, Any], want: dict[str, Any]) -> bool:
    """Equal keys in order and values, NaN equal to NaN."""
    return list(got) == list(want) and all(
        (isinstance(v, float) and math.isnan(v) and isinstance(got[k], float) and math.isnan(got[k])) or got[k] == v
        for k, v in want.items())


@pytest.mark.parametrize("case", sorted(REC["evaluator"]))
def test_the_evaluator_gives_opencompass_scores(case: str) -> None:
    """Part A's agreement with the human winner per category; part B's agreement with GPT-4o per benchmark
    and the correlations of the models' summed verdicts (NaN where one judge's sums are constant)."""
    rec = REC["evaluator"][case]
    got = ICL_EVALUATORS.get("JudgerBenchEvaluator")().score(rec["predictions"], rec["references"])
    assert _same(got, rec["result"]), (got, rec["result"])


def test_the_loader_builds_opencompass_prompts(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both languages of part A and every benchmark of part B (WildBench's history and checklist included)."""
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]


def test_an_unknown_benchmark_is_named(tmp_path: Path) -> None:
    from assay.errors import InputFileError
    from assay.registry import LOAD_DATASET

    (tmp_path / "judgerbench_B.json").write_text('[{"dataset_name": "mmlu", "prediction": "p", "others": {}, "gpt4o_pred": "A"}]')
    with pytest.raises(InputFileError, match=r"judgerbench_B\.json, item 0 has the dataset_name 'mmlu'"):
        LOAD_DATASET.get("JudgerBenchDataset").load(path=str(tmp_path), name="judgerbench_B")


def test_an_empty_alpacaeval_verdict_is_unread() -> None:
    """OpenCompass indexes the first character of the reply and stops; assay reads nothing from it."""
    from assay.subjective.judgerbench import judgerbench_verdict

    assert judgerbench_verdict("", "alpaca_eval") is None
