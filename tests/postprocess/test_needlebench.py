"""NeedleBench's postprocessors against what OpenCompass 0.5.4's returned on the same replies.

The replies and OpenCompass's results are in
``tests/data/oc_families/needlebench/postprocess.json`` (``scripts/record_oc_needlebench.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.postprocess.needlebench import clean_atc_answer
from assay.registry import TEXT_POSTPROCESSORS

RECORDED = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "oc_families" / "needlebench" / "postprocess.json").read_text(encoding="utf-8")
)["postprocessors"]

#: the recorded function → the name a config gives it
_NAMES = {
    "needlebench_postprocess": "needlebench",
    "needlebench_dataset_postprocess": "needlebench_dataset",
    "v2.needlebench_postprocess": "needlebench",
    "v2.needlebench_dataset_postprocess": "needlebench_dataset_postprocess",
    "needlebench_atc_postprocess_v2": "needlebench_atc_postprocess_v2",
}


@pytest.mark.parametrize("recorded", sorted(_NAMES))
def test_registered_postprocessor_gives_opencompass_output(recorded: str) -> None:
    fn = TEXT_POSTPROCESSORS.get(_NAMES[recorded])
    assert [[reply, fn(reply)] for reply, _ in RECORDED[recorded]] == RECORDED[recorded]


def test_clean_atc_answer_gives_opencompass_output() -> None:
    assert [[reply, clean_atc_answer(reply)] for reply, _ in RECORDED["clean_atc_answer"]] == RECORDED["clean_atc_answer"]
