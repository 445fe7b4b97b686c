"""The JSON Lines export's reply of each sample is the model's raw reply, read from the run's prediction files, also
where an evaluator keeps the answer it read from the reply as a detail's ``prediction`` (ProcessBench's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from tests.evaluators.test_oc_reason import EXPECTED, MODEL, _eval


def test_the_raw_reply_is_exported_where_the_details_keep_the_extracted_answer(
    oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = _eval("processbench_gen", tmp_path, monkeypatch, oc_library, with_data=False)
    run = results.parents[1]
    out = tmp_path / "export.jsonl"
    assert main(["export", str(run), "--format", "jsonl", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    checked = 0
    for abbr in EXPECTED["processbench_gen"]["datasets"]:
        replies = json.loads((run / "predictions" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        details = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))["details"]
        details = list(details.values()) if isinstance(details, dict) else details
        samples = [s for s in lines if s["kind"] == "sample" and s["dataset"] == abbr]
        assert [s["prediction"] for s in samples] == [replies[str(i)]["prediction"] for i in range(len(samples))]
        assert [s.get("extracted") for s in samples] == [d["prediction"] for d in details]  # the evaluator's reading
        checked += sum(s["prediction"] != d["prediction"][0] for s, d in zip(samples, details))
    assert checked > 0  # the evaluator's answers are not the replies
