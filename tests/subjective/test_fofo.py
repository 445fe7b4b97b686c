"""FoFo's format verdicts read and summarized, and its prompts loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS, LOAD_DATASET, SUMMARIZERS
from assay.subjective.fofo import fofo_postprocess
from tests.subjective.recorded import (
    library_config,
    library_rows,
    recorded,
    run_postprocess,
    summary_files,
    write_results,
)

REC = recorded("fofo")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """``overall``, per domain and per general format; ``"format_correctness": 10`` counts as 10, as in OpenCompass."""
    rec = REC["postprocess"][case]
    assert list(run_postprocess(fofo_postprocess, rec).items()) == list(rec["result"].items())
    assert DICT_POSTPROCESSORS.get("fofo") is fofo_postprocess is DICT_POSTPROCESSORS.get("fofo_postprocess")


def test_the_summarizer_writes_opencompass_reports(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bilingual config's two datasets, two models (one without a readable verdict on one dataset, one model
    of the run not judged): OpenCompass's returned values and report files."""
    rec: dict[str, Any] = REC["summary"]["bilingual"]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"]}}
    summarizer = cfg["datasets"][0]["summarizer"]
    assert summarizer["type"] is SUMMARIZERS.get("FofoSummarizer")
    write_results(tmp_path / "work", rec)
    assert summarizer["type"](config=cfg, **rec["options"]).summarize(time_str=rec["time"]) == rec["returned"]
    assert summary_files(tmp_path / "work") == rec["files"]


def test_the_loader_reads_opencompass_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]


def test_a_prompt_without_its_format_is_named(tmp_path: Path) -> None:
    from assay.errors import InputFileError

    (tmp_path / "fofo_x.json").write_text('[{"instruction": "q", "id": 1, "domain": "Law", "sub_domain": "s", "format_type": "general"}]')
    with pytest.raises(InputFileError, match=r"fofo_x\.json, prompt 0 has no 'format' field"):
        LOAD_DATASET.get("FofoDataset").load(path=str(tmp_path), name="fofo_x")
