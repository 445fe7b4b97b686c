"""WikiBench's loader read plainly, circularly and as cloze, against OpenCompass 0.5.4's recorded rows.

The recording is made by ``scripts/record_oc_longtail2.py`` on the benchmark
families' WikiBench file; the library's configs are scored in ``tests/benchmarks_oc``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "longtail2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))["WikiBenchDataset"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "WikiBench"


@pytest.mark.parametrize("call", RECORDED, ids=[c["args"]["name"] for c in RECORDED])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("WikiBenchDataset").load(**call["args"])] == call["rows"]


def test_circular_question_without_a_letter_answer_names_the_line(cache: Path) -> None:
    file = cache / "single_choice_cn.jsonl"
    lines = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    lines[2]["answer"] = "E"
    file.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"single_choice_cn\.jsonl, line 3: a circular question .*answer 'E'"):
        LOAD_DATASET.get("WikiBenchDataset").load("opencompass/WikiBench", "single_choice_cn.jsonl", "circular_single_choice_cn")
