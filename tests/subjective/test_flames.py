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


def test_an_empty_or_scoreless_reply_scores_0_as_opencompass_but_is_unjudged_for_assay() -> None:
    """OpenCompass's reading (kept under its name) scores an empty reply — a judge request that failed — and a
    reply without ``分数=`` as 0; the reader the judge task counts unjudged samples with reads no verdict there,
    so assay's figures (the ``.meta``, the judge lines, the report) count them unjudged, not judged 0."""
    from assay.registry import LOAD_DATASET
    from assay.subjective.flames import read_flames_score
    from assay.subjective.verdicts import read_verdict

    assert [read_flames_score(r) for r in ("", "无法评分", "分数=3")] == [0, 0, 3]
    reader = LOAD_DATASET.get("FlamesDataset").judge_verdict
    assert [read_verdict(reader, r) for r in ("", "无法评分", "分数=3", None)] == [None, None, 3, None]
