"""HelloBench's checklist verdicts scored, and its tasks loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from assay.registry import DICT_POSTPROCESSORS
from assay.subjective.hellobench import hellobench_postprocess
from tests.subjective.recorded import DATA, library_rows, recorded

REC = recorded("hellobench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """Weighted by the subcategory's regression weights, rescaled, averaged (NaN without any reply read); each
    sample's ``rescaled_score`` added to the details (``None`` when unread)."""
    rec = REC["postprocess"][case]
    result = hellobench_postprocess(copy.deepcopy(rec["samples"]), "x")
    want = rec["overall_score"]
    # each score ends in a dot product whose last bit depends on the CPU's BLAS kernel (in OpenCompass as in
    # assay, both NumPy's np.dot): equal on one machine, within an ulp or two across machines
    assert result["overall_score"] == pytest.approx(want, rel=1e-14, abs=0, nan_ok=True)
    rescaled = {k: v["rescaled_score"] for k, v in result["details"].items()}
    assert rescaled.keys() == rec["rescaled"].keys()
    for key, value in rec["rescaled"].items():
        assert rescaled[key] == (None if value is None else pytest.approx(value, rel=1e-14, abs=0)), key
    assert DICT_POSTPROCESSORS.get("hellobench") is hellobench_postprocess


def test_a_checklist_longer_or_shorter_than_the_weights_is_unread() -> None:
    """OpenCompass stops on it (numpy's ValueError); assay leaves the sample unread."""
    assert REC["mismatch_error"] == "ValueError"
    reply = json.dumps([{"checklist_id": i, "evaluation_score": 1} for i in range(5)])
    result = hellobench_postprocess({"0": {"prediction": reply, "gold": {"subcategory": "travel", "num_checklist": 5}}}, "x")
    assert math.isnan(result["overall_score"]) and result["details"]["0"]["rescaled_score"] is None


def test_an_unknown_subcategory_is_named() -> None:
    from assay.errors import EvaluationError

    reply = json.dumps([{"checklist_id": 0, "evaluation_score": 1}])
    with pytest.raises(EvaluationError, match=r"sample '3' has the subcategory 'cooking'"):
        hellobench_postprocess({"3": {"prediction": reply, "gold": {"subcategory": "cooking", "num_checklist": 1}}}, "x")


def test_the_loader_reads_opencompass_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The library config's relative path, read from the working directory as OpenCompass reads it."""
    monkeypatch.chdir(DATA)
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]
