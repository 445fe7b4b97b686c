"""The pairwise families' dict postprocessors against OpenCompass 0.5.4's, on recorded judge outputs.

``tests/data/subjective/pairwise/postprocess.json`` holds, for each family's
postprocessor, judge outputs as OpenCompass's ``LMEvaluator`` hands them over
(three models against one base model, both orders or a random one, replies that
are verdicts, unparseable, or written the other way round) and what
OpenCompass's own function returned, or the error it raised.  assay's function
is reached by the name a config gives it, through assay's registry.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS
from tests.subjective._recorded import postprocess_cases, tokens_available

CASES = postprocess_cases()


def _id(case: dict[str, Any]) -> str:
    return f"{case['case']}-{case['model']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_postprocessor_returns_what_opencompass_returns(case: dict[str, Any]) -> None:
    if "bradleyterry" in case["function"]:
        tokens_available()
    proc = DICT_POSTPROCESSORS.get(case["function"])
    output = copy.deepcopy(case["output"])
    if case["error"] is not None:
        with pytest.raises(Exception) as info:
            proc(output, case["output_path"], **case["kwargs"])
        assert "2 classes" in case["error"] and "model_a" in str(info.value)
        return
    got = json.loads(json.dumps(proc(output, case["output_path"], **case["kwargs"]), ensure_ascii=False))
    if got.get("details") == case["output"]:
        got["details"] = "<output>"
    assert got == case["result"]
    # the same keys in the same order: OpenCompass writes the dict as it is
    assert list(got) == list(case["result"])
    assert output == case["output"], "the judge output handed in must not change"


def test_every_pairwise_postprocessor_is_recorded() -> None:
    names = {c["function"] for c in CASES}
    assert {"arenahard_postprocess", "arenahard_bradleyterry_postprocess"} <= names
    for name in names:
        assert DICT_POSTPROCESSORS.lookup(name) is not None, name
