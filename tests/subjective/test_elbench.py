"""ELBench's judge verdicts, choice and math answers scored, and its files loaded, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, LOAD_DATASET
from assay.subjective import elbench
from tests.subjective.recorded import DATA, library_rows, recorded, run_postprocess

REC = recorded("elbench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessors_give_opencompass_scores(case: str) -> None:
    """Percentages per subset (``安全回答`` named ``应回答``), the last ``[[n]]`` in range, ``score: 1`` when no
    bracket; without any verdict, OpenCompass's error record (and no details)."""
    rec = REC["postprocess"][case]
    func = elbench.elbench_highlevel_edu_postprocess if case.startswith("edu") else elbench.elbench_safety_postprocess
    if "error" in rec["result"]:
        assert func(dict(rec["samples"]), "x") == rec["result"]
    else:
        assert list(run_postprocess(func, rec).items()) == list(rec["result"].items())


def test_the_postprocessors_are_registered_under_opencompass_names() -> None:
    assert DICT_POSTPROCESSORS.get("elbench_safety") is elbench.elbench_safety_postprocess
    assert DICT_POSTPROCESSORS.get("elbench_highlevel_edu_postprocess") is elbench.elbench_highlevel_edu_postprocess


@pytest.mark.parametrize("name", sorted(REC["evaluators"]))
def test_the_evaluators_score_as_opencompass(name: str) -> None:
    """Letters after a marker or a last line of letters only; boxed answers under MATH normalization."""
    rec = REC["evaluators"][name]
    evaluator = ICL_EVALUATORS.get(name)()
    assert evaluator.score(rec["predictions"], rec["references"]) == rec["result"]
    assert evaluator.score(rec["predictions"], rec["references"][:-1]) == rec["unequal"]


def test_the_loaders_read_opencompass_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``elbench_gen`` (the four loaders over safety, omni, edu and the six general subsets) from local files."""
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]


def test_a_missing_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(DATA))
    with pytest.raises(InputFileError, match=r"ELBenchGeneralDataset: no such file: .*通用/nothing\.jsonl"):
        LOAD_DATASET.get("ELBenchGeneralDataset").load(path="通用", name="nothing")
