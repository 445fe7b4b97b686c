"""Evaluators under OpenCompass names compute OpenCompass 0.5.4's metrics: same keys, same values.

The cases and OpenCompass's results were recorded by ``scripts/record_oc_evaluators.py``
(``tests/data/evaluators/opencompass_evaluators.json``).  Values are compared
exactly: a metric computed as ``100 * c / n`` instead of OpenCompass's
``c / n * 100`` differs in the last bit and fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay.evaluators as ev

DATA = json.loads((Path(__file__).parents[1] / "data" / "evaluators" / "opencompass_evaluators.json").read_text(encoding="utf-8"))
CASES = [c for c in DATA["cases"] if "raises" not in c["opencompass"]]


def _id(case: dict[str, Any]) -> str:
    init = ",".join(f"{k}={v}" for k, v in case["init"].items())
    return f"{case['evaluator']}({init})-{len(case['predictions'])}"


def test_the_recording_is_opencompass_0_5_4() -> None:
    assert DATA["opencompass"] == "0.5.4"
    assert len({c["evaluator"] for c in CASES}) >= 8


#: Evaluators whose OpenCompass-exact version is not written yet (xfail, strict: a fix shows).
NOT_YET_EXACT: set[str] = set()


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=False, reason="not OpenCompass-exact yet"))
        if c["evaluator"] in NOT_YET_EXACT
        else c
        for c in CASES
    ],
    ids=[_id(c) for c in CASES],
)
def test_same_metrics_as_opencompass(case: dict[str, Any]) -> None:
    evaluator = getattr(ev, case["evaluator"])(**case["init"])
    result = evaluator.score(list(case["predictions"]), list(case["references"]))
    details = result.pop("details", None)
    assert result == case["opencompass"]["metrics"]
    if "detail_keys" in case["opencompass"]:
        assert details and set(case["opencompass"]["detail_keys"]) <= set(details[0])
