"""AlignBench's judge ratings read and summarized as OpenCompass 0.5.4 reads and summarizes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective.alignbench import alignbench_postprocess, read_alignbench_rating
from tests.subjective.recorded import library_config, recorded, run_postprocess, summary_files, write_results

REC = recorded("alignbench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """Every capability, both category totals (numpy's rounding: 3.335 → 3.34) and 总分, in OpenCompass's order."""
    rec = REC["postprocess"][case]
    result = run_postprocess(alignbench_postprocess, rec)
    assert list(result.items()) == list(rec["result"].items())


def test_the_postprocessor_is_registered_under_opencompass_names() -> None:
    assert DICT_POSTPROCESSORS.get("alignbench") is alignbench_postprocess
    assert DICT_POSTPROCESSORS.get("alignbench_postprocess") is alignbench_postprocess


def test_replies_read_and_left_unread() -> None:
    """A rating dict on one line is read; a line-by-line reply only by the postprocessor's reading; a
    rating out of 0–10 or an unknown dimension leaves the reply unread."""
    assert read_alignbench_rating("{'事实正确性': 8, '综合得分': 9}") == {"rating": {"事实正确性": 8, "综合得分": 9}, "score": 9}
    lines = "1. 事实正确性：得分：7\n2. 满足用户需求：8\n3. 清晰度：6\n4. 完备性：5\n综合得分：6\n"
    assert read_alignbench_rating(lines)["score"] == 6
    assert read_alignbench_rating(lines.replace("2. 满足用户需求：8\n", "")) is None  # a dimension of its kind missing
    assert read_alignbench_rating(lines, line_by_line=False) is None
    assert read_alignbench_rating("{'事实正确性': 8, '综合得分': 11}") is None
    assert read_alignbench_rating("{'流畅度': 8, '综合得分': 6}") is None


@pytest.mark.parametrize("judge_type", ["general", "general_plus", "judgelm", "autoj"])
def test_the_summarizer_writes_opencompass_files(judge_type: str, tmp_path: Path, oc_library: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's AlignBench config names the summarizer; run on two models' results (one model without),
    it returns OpenCompass's scores and writes its csv files byte for byte."""
    case: dict[str, Any] = REC["summary"][judge_type]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(case["datasets_import"])], case)
    summarizer = cfg["datasets"][0]["summarizer"]
    assert summarizer["type"] is SUMMARIZERS.get("AlignmentBenchSummarizer")
    write_results(tmp_path / "work", case)
    returned = summarizer["type"](config=cfg, **case["options"]).summarize(time_str=case["time"])
    assert returned == case["returned"]
    assert summary_files(tmp_path / "work") == case["files"]


def test_an_unknown_judge_type_is_named() -> None:
    from assay.errors import ConfigError

    with pytest.raises(ConfigError, match=r"judge_type.*'gpt'"):
        SUMMARIZERS.get("AlignmentBenchSummarizer")(config={}, judge_type="gpt")
