"""Flames' judge scores summarized, and its items loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import SUMMARIZERS
from tests.subjective.recorded import library_config, library_rows, recorded, summary_files, write_results

REC = recorded("flames")


@pytest.mark.parametrize("case", sorted(REC["summary"]))
def test_the_summarizer_writes_opencompass_json(case: str, tmp_path: Path, oc_library: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The ten Flames datasets: one table shared by the models (the second model's three datasets over the first
    one's, the running ``average`` counted in the next average, NaN for a dataset without replies), and a model
    without results that writes the table again."""
    rec: dict[str, Any] = REC["summary"][case]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"]}}
    cfg["judge_models"] = cfg["judge_models"][0]  # Flames' summarizer reads one judge dict
    write_results(tmp_path / "work", rec)
    summarizer = SUMMARIZERS.get("FlamesSummarizer")(config=cfg, **rec["options"])
    assert summarizer.summarize(time_str=rec["time"]) is rec["returned"] is None
    assert summary_files(tmp_path / "work") == rec["files"]


def test_the_loader_reads_opencompass_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each item with its judge instructions (braces in them kept as text) before the prompt."""
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]
