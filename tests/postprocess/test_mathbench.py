"""``mathbench_postprocess`` against what OpenCompass 0.5.4's evaluator received from it.

The recordings of ``scripts/record_oc_mathbench_squad20_lambada.py`` keep, for
each MathBench cloze dataset of a library config, the prediction records
(``predictions/<case>/<abbr>.json``) and the postprocessed predictions
OpenCompass's eval task handed its evaluator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.postprocess.mathbench import mathbench_postprocess

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathbench_squad20_lambada"


def _cases() -> list[Any]:
    cases = []
    for path in sorted((ROOT / "expected").glob("*mathbench*.json")):
        for abbr, entry in json.loads(path.read_text(encoding="utf-8"))["datasets"].items():
            post = entry["components"].get("pred_postprocessor") or {}
            if post.get("type") == "mathbench_postprocess":
                cases.append(pytest.param(path.stem, abbr, post["name"], entry, id=f"{path.stem}/{abbr}"))
    return cases


@pytest.mark.parametrize(("case", "abbr", "name", "entry"), _cases())
def test_replies_read_as_opencompass_read_them(case: str, abbr: str, name: str, entry: dict[str, Any]) -> None:
    records = json.loads((ROOT / "predictions" / case / f"{abbr}.json").read_text(encoding="utf-8"))
    got = [mathbench_postprocess(records[str(i)]["prediction"], name) for i in range(len(records))]
    assert got == entry["evaluator_got"]["predictions"]
