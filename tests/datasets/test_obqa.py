"""OpenBookQA's loaders: bad lines named (the rows themselves are compared with OpenCompass's in ``tests/benchmarks_oc``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.registry import LOAD_DATASET


def _write(root: Path, rel: str, lines: list[dict]) -> None:
    path = root / "data" / "openbookqa" / rel
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _line(stem: str, n: int = 4) -> dict:
    return {"question": {"stem": stem, "choices": [{"text": f"t{k}", "label": "ABCD"[k]} for k in range(n)]}, "answerKey": "B"}


def test_v2_asks_what_where_the_stem_is_no_question(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    _write(tmp_path, "Additional/test_complete.jsonl", [_line("Plants need"), _line("Why?")])
    v1 = LOAD_DATASET.get("OBQADataset").load("opencompass/openbookqa_fact", name="additional")
    v2 = LOAD_DATASET.get("OBQADatasetV2").load("opencompass/openbookqa_fact", name="additional")
    assert v1["question_stem"] == ["Plants need", "Why?"]
    assert v2["question_stem"] == ["Plants need what?", "Why?"]
    assert v1.column_names == ["A", "B", "C", "D", "question_stem", "answerKey"]


def test_a_question_with_three_choices_names_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    _write(tmp_path, "Main/test.jsonl", [_line("a?"), _line("b?", n=3)])
    with pytest.raises(InputFileError, match=r"OBQADataset: .*Main/test\.jsonl, line 2: 'question.choices' must list at least 4"):
        LOAD_DATASET.get("OBQADataset").load("opencompass/openbookqa_test")
