"""MuSR's loader and evaluator against OpenCompass 0.5.4's recordings: the options no library config sets.

The library's configs themselves are scored end to end in ``tests/benchmarks_oc``;
this file's recording is made by ``scripts/record_oc_longtail2.py`` on the same
data files (``tests/benchmarks_oc/families.py``'s MuSR stories).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, InputFileError
from assay.evaluators.musr import MusrEvaluator, musr_choice
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "longtail2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "musr"


@pytest.mark.parametrize("call", RECORDED["MusrDataset"], ids=[json.dumps(c["args"]) for c in RECORDED["MusrDataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("MusrDataset").load(**call["args"])] == call["rows"]


def test_contrastive_stories_kept_and_left_out_partition_the_stories(cache: Path) -> None:
    load = LOAD_DATASET.get("MusrDataset").load
    whole = load(path="opencompass/musr", name="murder_mysteries")["context"]
    first = load(path="opencompass/musr", name="murder_mysteries", exclude_contrastive_examples=True)["context"]
    later = load(path="opencompass/musr", name="murder_mysteries", exclude_contrastive_examples=True,
                 reverse_contrastive_sample=True)["context"]
    assert sorted(set(first) | set(later)) == sorted(set(whole)) and not set(first) & set(later)


def test_evaluator_equals_opencompass_reply_by_reply_and_together() -> None:
    rec = RECORDED["MusrEvaluator"]
    assert MusrEvaluator().score(rec["predictions"], rec["references"])["accuracy"] == rec["accuracy"]
    for prediction, reference, expected in zip(rec["predictions"], rec["references"], rec["each"]):
        assert MusrEvaluator().score([prediction], [reference])["accuracy"] == expected, prediction
    assert ICL_EVALUATORS.get("MusrEvaluator") is MusrEvaluator


def test_the_choice_is_read_from_the_first_answer_line_only() -> None:
    assert musr_choice("ANSWER: unsure\nANSWER: 2") is None
    assert musr_choice("ANSWER: 3 or 2") == 3


def test_unknown_task_names_the_tasks(cache: Path) -> None:
    with pytest.raises(ConfigError, match=r"name='murders' is not a MuSR task; one of 'murder_mysteries'"):
        LOAD_DATASET.get("MusrDataset").load(path="opencompass/musr", name="murders")


def test_question_without_answer_names_file_story_and_question(cache: Path) -> None:
    file = cache / "team_allocation.json"
    stories = json.loads(file.read_text(encoding="utf-8"))
    del stories[1]["questions"][1]["answer"]
    file.write_text(json.dumps(stories), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"team_allocation\.json, story 1 kept, question 1 has no 'answer' field"):
        LOAD_DATASET.get("MusrDataset").load(path="opencompass/musr", name="team_allocation")


def test_a_reply_that_is_not_text_is_an_error_naming_it() -> None:
    assert "prediction 1 is None" in MusrEvaluator().score(["ANSWER: 1", None], [1, 2])["error"]
