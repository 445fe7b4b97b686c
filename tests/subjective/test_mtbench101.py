"""MT-Bench-101's turn ratings scored and summarized, and its dialogues loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective.mtbench101 import mtbench101_postprocess
from tests.subjective.recorded import (
    library_config,
    library_rows,
    recorded,
    run_postprocess,
    summary_files,
    write_results,
)

REC = recorded("mtbench101")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """A dialogue's lowest turn, each task's mean, ``avg`` to three decimals; none read: OpenCompass's warning."""
    rec = REC["postprocess"][case]
    assert list(run_postprocess(mtbench101_postprocess, rec).items()) == list(rec["result"].items())
    assert DICT_POSTPROCESSORS.get("mtbench101") is mtbench101_postprocess


def test_the_summarizer_writes_opencompass_table(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two models, the second with fewer tasks: its row has its own columns under the first one's header."""
    rec: dict[str, Any] = REC["summary"]["single"]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"]}}
    summarizer = cfg["datasets"][0]["summarizer"]
    assert summarizer["type"] is SUMMARIZERS.get("MTBench101Summarizer")
    write_results(tmp_path / "work", rec)
    assert summarizer["type"](config=cfg, **rec["options"]).summarize(time_str=rec["time"]) == rec["returned"]
    assert summary_files(tmp_path / "work") == rec["files"]


@pytest.mark.parametrize("kind", ["judge", "raw"])
def test_the_loaders_give_opencompass_rows(kind: str, tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every judged turn with its dialogue, judge prompts (reference solution for MR and GR, braces in a turn kept)
    and ``judge`` column; the raw-prompt loader leaves the turn's reply out of the dialogue."""
    rec = REC["loader"][kind]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]
