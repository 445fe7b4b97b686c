"""CompassArena's subjective bench scored point by point, and its and CompassBench's checklist files loaded,
as OpenCompass 0.5.4 scores and reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.registry import DICT_POSTPROCESSORS
from assay.subjective.compass_arena_subjective import compassarena_subjectiveeval_pointwise_postprocess as pointwise
from tests.subjective.recorded import library_rows, recorded, run_postprocess

REC = recorded("compass_arena_subjective")


def test_the_pointwise_postprocessor_gives_opencompass_scores() -> None:
    """``Average_score`` then category × difficulty, in OpenCompass's order; ``[[4]]`` or ``评分：4分`` unread."""
    rec = REC["postprocess"]["every"]
    assert list(run_postprocess(pointwise, rec).items()) == list(rec["result"].items())
    assert DICT_POSTPROCESSORS.get("compassarena_subjectiveeval_pointwise") is pointwise


def test_no_score_read_is_an_error_record_not_a_crash() -> None:
    out = {"0": {"prediction": "评分：4分", "gold": {"category": "推理", "difficulty": "简单"}}}
    assert pointwise(out, "x") == {"error": "No valid judgements were parsed.", "details": out}


@pytest.mark.parametrize("kind", sorted(REC["loader"]))
def test_the_loaders_read_opencompass_rows(kind: str, tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Single- and multi-turn items with both judge prompts (each category's rule, braces in a question kept);
    CompassBench's eight checklist files."""
    rec = REC["loader"][kind]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]


def test_a_category_without_a_rule_is_named(tmp_path: Path) -> None:
    from assay.errors import InputFileError
    from assay.registry import LOAD_DATASET

    (tmp_path / "singleturn.json").write_text('[{"category": "数学", "difficulty": "难", "question": {"content": "q"}}]')
    with pytest.raises(InputFileError, match=r"singleturn\.json, item 0 has the category '数学'"):
        LOAD_DATASET.get("CompassArenaSubjectiveBench").load(path=str(tmp_path), name="singleturn")
