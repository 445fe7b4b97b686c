"""FollowBench's constraint verdicts scored and summarized, and its items loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective.followbench import followbench_postprocess, read_followbench_verdict
from tests.subjective.recorded import (
    library_config,
    library_rows,
    recorded,
    run_postprocess,
    summary_files,
    write_results,
)

REC = recorded("followbench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_rates(case: str) -> None:
    """Per level and averaged, with OpenCompass's level counts (a fifth of all replies, less the unread ones):
    rates above 1 and levels of zero count included."""
    rec = REC["postprocess"][case]
    assert list(run_postprocess(followbench_postprocess, rec).items()) == list(rec["result"].items())
    assert DICT_POSTPROCESSORS.get("followbench") is followbench_postprocess


def test_the_judge_text_is_never_run() -> None:
    """A list written as an expression is unread, not evaluated."""
    assert read_followbench_verdict({"prediction": "['YES'] * 2", "gold": {"level": 2}}) == (-1, -1)
    assert read_followbench_verdict({"prediction": "['YES', 'N/A']", "gold": {"level": 2}}) == (0, 0.5)


def test_the_summarizer_returns_opencompass_rates(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec: dict[str, Any] = REC["summary"]["llm"]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    summarizer = cfg["datasets"][0]["summarizer"]
    assert summarizer["type"] is SUMMARIZERS.get("FollowBenchSummarizer")
    write_results(tmp_path / "work", rec)
    assert summarizer["type"](config=cfg, **rec["options"]).summarize(time_str=rec["time"]) == rec["returned"]
    assert summary_files(tmp_path / "work") == rec["files"] == {}


def test_the_loader_reads_opencompass_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]
