"""The generation families' evaluators against OpenCompass 0.5.4's recordings (``scripts/record_oc_gen.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "data" / "oc_families" / "gen" / "recorded.json").read_text(encoding="utf-8"))

ROUGE = RECORDED["JiebaRougeEvaluator"]


def _metrics(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "details"}


@pytest.mark.parametrize("case", ROUGE["each"], ids=[f"{c['prediction']!r}-{c['reference']!r}" for c in ROUGE["each"]])
def test_jieba_rouge_scores_each_pair_as_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("JiebaRougeEvaluator")().score([case["prediction"]], [case["reference"]])
    assert _metrics(result) == case["scores"]  # to the last bit


@pytest.mark.parametrize("batch", ROUGE["batches"], ids=[str(len(b["predictions"])) for b in ROUGE["batches"]])
def test_jieba_rouge_averages_a_batch_as_opencompass(batch: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("JiebaRougeEvaluator")().score(batch["predictions"], batch["references"])
    assert _metrics(result) == batch["scores"]
    assert len(result["details"]) == len(batch["predictions"])
