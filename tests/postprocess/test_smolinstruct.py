"""SMolInstruct's yes/no readers against OpenCompass 0.5.4's recorded outputs (``scripts/record_oc_sci.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.registry import TEXT_POSTPROCESSORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))["postprocessors"]
CASES = [(name, reply, expected) for name, pairs in RECORDED.items() for reply, expected in pairs]
SHORT = {"smolinstruct_acc_postprocess": "smolinstruct-acc", "smolinstruct_acc_0shot_postprocess": "smolinstruct-acc-0shot"}


@pytest.mark.parametrize(("name", "reply", "expected"), CASES, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_output_equals_opencompass(name: str, reply: str, expected: str | None) -> None:
    assert TEXT_POSTPROCESSORS.get(name)(reply) == expected
    assert TEXT_POSTPROCESSORS.get(SHORT[name]) is TEXT_POSTPROCESSORS.get(name)
