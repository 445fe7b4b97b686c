"""MT-Bench's single-answer ratings read and summarized as OpenCompass 0.5.4 reads and summarizes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective.mtbench import mtbench_postprocess, read_mtbench_rating
from tests.subjective.recorded import library_config, recorded, run_postprocess, summary_files, write_results

REC = recorded("mtbench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """``total`` and each capability met, in OpenCompass's order; without a rating read, every column empty."""
    rec = REC["postprocess"][case]
    result = run_postprocess(mtbench_postprocess, rec)
    assert list(result.items()) == list(rec["result"].items())


def test_the_postprocessor_is_registered_under_opencompass_names() -> None:
    assert DICT_POSTPROCESSORS.get("mtbench") is mtbench_postprocess is DICT_POSTPROCESSORS.get("mtbench_postprocess")


def test_a_rating_that_is_no_number_leaves_the_reply_unread() -> None:
    assert read_mtbench_rating("Rating: [[7.5.]]") is None
    assert read_mtbench_rating("Rating: [[4]] then Rating: [[9]]") == {"score": 4.0}


@pytest.mark.parametrize("case", ["single", "unread"])
def test_the_summarizer_writes_opencompass_files(case: str, tmp_path: Path, oc_library: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Run on the library's three MT-Bench temperatures (one model judged at one of them only, one model not at
    all), it returns OpenCompass's text values and writes its csv, row names by ``summarizer_abbr``."""
    rec: dict[str, Any] = REC["summary"][case]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    summarizer = cfg["datasets"][0]["summarizer"]
    assert summarizer["type"] is SUMMARIZERS.get("MTBenchSummarizer")
    write_results(tmp_path / "work", rec)
    returned = summarizer["type"](config=cfg, **rec["options"]).summarize(time_str=rec["time"])
    assert returned == rec["returned"]
    assert summary_files(tmp_path / "work") == rec["files"]


def test_a_summary_without_any_results_writes_nothing(tmp_path: Path) -> None:
    """OpenCompass fails on a name never set; assay returns no scores for the judge."""
    cfg = {"models": [{"abbr": "m"}], "datasets": [{"abbr": "mtbench_0.0"}], "judge_models": [{"abbr": "j"}],
           "work_dir": str(tmp_path)}
    assert SUMMARIZERS.get("MTBenchSummarizer")(cfg).summarize(time_str="t") == {"MTbench": {"j": {}}}
    assert list((tmp_path / "summary" / "t").iterdir()) == []


def test_a_judged_sample_without_a_reply_names_the_file(tmp_path: Path) -> None:
    from assay.errors import InputFileError

    folder = tmp_path / "results" / "m_judged-by--j"
    folder.mkdir(parents=True)
    (folder / "mtbench_0.0.json").write_text('{"0": {"gold": {"capability": "math"}}}')
    cfg = {"models": [{"abbr": "m"}], "datasets": [{"abbr": "mtbench_0.0"}], "judge_models": [{"abbr": "j"}],
           "work_dir": str(tmp_path)}
    with pytest.raises(InputFileError, match=r"mtbench_0\.0\.json: judged sample '0' is not a dict with a 'prediction'"):
        SUMMARIZERS.get("MTBenchSummarizer")(cfg).summarize(time_str="t")
