"""PHYBench's loader and EED evaluator against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_phy.py`` with OpenCompass
installed: its own eval task scored the prediction file under
``tests/data/oc_families/phy/predictions`` on a local
``PHYBench-fullques_v1.json`` (``cache/data/phybench``) with each library
config, and its ``EED`` was run on further pairs of LaTeX answers.  The cases
import the library's configs unchanged and run ``assay eval`` on the same
predictions with the data on disk (the files' ``gold`` replaced, so that only the
data gives the references); the metric and every sample's score must be
OpenCompass's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import MODEL, library_config, with_data

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "phy"
CASES = ("phybench_gen", "phybench_rawprompt_gen")
CORPUS = json.loads((ROOT / "expected" / "eed_corpus.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"


def _record(case: str) -> dict[str, Any]:
    return json.loads((ROOT / "expected" / f"{case}.json").read_text(encoding="utf-8"))


def _one(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


@pytest.mark.parametrize("case", CASES)
def test_library_config_scores_as_opencompass(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(case)
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(library_config(record["config"], record["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in record["datasets"].items():
        expected = entry["result"]
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert result["accuracy"] == expected["accuracy"], abbr
        got = [{k: _one(d[k]) for k in ("pred", "ref", "pred_clean", "score")} for d in result["details"]]
        assert got == [{k: _one(d[k]) for k in ("pred", "ref", "pred_clean", "score")} for d in expected["details"]], abbr


@pytest.mark.parametrize("case", CASES)
def test_library_config_loads_opencompass_rows(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    record = _record(case)
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(library_config(record["config"], record["variable"]), encoding="utf-8")
    (ds,) = load_config(config).variables["datasets"]
    assert ds["type"].__module__ == "assay.datasets.phybench"
    rows = ds["type"].load(path=ds["path"]).to_list()
    assert rows == [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in record["datasets"][ds["abbr"]]["test_rows"]]


def _stage_or_raise(fn: Any, text: Any) -> Any:
    try:
        return fn(text)
    except Exception as exc:  # the type is what OpenCompass's recording names
        return {"raises": type(exc).__name__}


def test_latex_clean_up_is_opencompass_s() -> None:
    from assay.evaluators._phybench_eed import first_stage, second_stage

    for pair in CORPUS["pairs"]:
        for side in ("reference", "answer"):
            first = _stage_or_raise(first_stage, pair[side])
            second = _stage_or_raise(second_stage, first) if isinstance(first, str) else first
            assert {"first": first, "second": second} == pair["stages"][side], pair[side]


@pytest.mark.slow
def test_eed_numbers_are_opencompass_s() -> None:
    from assay.evaluators._phybench_eed import eed

    for pair in CORPUS["pairs"]:
        assert list(eed(pair["reference"], pair["answer"])) == pair["eed"], (pair["reference"], pair["answer"])


def test_a_clean_up_that_fails_scores_zero_as_opencompass() -> None:
    """A command still there after its one removal (``\\mathrm`` twice, ``\\text`` in two ``\\textbf``, two ``\\bar``
    in one ``\\vec{…}``, a second ``\\boxed``) fails OpenCompass's clean-up: the pair scores 0."""
    from assay.evaluators._phybench_eed import eed

    failing = [p for p in CORPUS["pairs"] if any(isinstance(s["second"], dict) for s in p["stages"].values())]
    assert ("m_1 + m_2", "\\mathrm{m}_2 + \\mathrm{m}_1") in [(p["reference"], p["answer"]) for p in failing]
    for pair in failing:
        assert list(eed(pair["reference"], pair["answer"])) == pair["eed"], (pair["reference"], pair["answer"])
    evaluator = ICL_EVALUATORS.get("MathEEDEvaluator")(workers=1)
    result = evaluator.score(["so \\boxed{\\mathrm{m}_2 + \\mathrm{m}_1}", "so \\boxed{m_2 + m_1}"], ["m_1 + m_2", "m_1 + m_2"])
    assert [d["score"] for d in result["details"]] == [0, 100]


def test_boxed_answer_is_read_as_opencompass_reads_it() -> None:
    from assay.evaluators.phybench import extract_boxed_latex

    assert [extract_boxed_latex(b["reply"]) for b in CORPUS["boxed"]] == [b["clean"] for b in CORPUS["boxed"]]


def test_sample_past_the_time_limit_scores_zero_and_says_so() -> None:
    evaluator = ICL_EVALUATORS.get("MathEEDEvaluator")(timeout=0.001, workers=1)
    result = evaluator.score(["\\boxed{\\frac{m v^2}{2}}"], ["\\frac{1}{2} m v^2"])
    assert result["accuracy"] == 0
    assert result["details"][0]["score"] == 0 and "no score within" in result["details"][0]["error"]


def test_bad_input_is_an_error_record_naming_the_sample() -> None:
    evaluator = ICL_EVALUATORS.get("MathEEDEvaluator")()
    result = evaluator.score(["\\boxed{x}", None], ["x", "y"])
    assert set(result) == {"error"} and "sample 1" in result["error"] and "MathEEDEvaluator" in result["error"]
    assert evaluator.score([], []) == {"error": "MathEEDEvaluator: no samples to score"}


def test_missing_file_is_an_error_naming_the_loader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "phy").mkdir()
    with pytest.raises(InputFileError, match=r"PhyBenchDataset: no such file: .*PHYBench-fullques_v1\.json"):
        LOAD_DATASET.get("PhyBenchDataset").load(path=str(tmp_path / "phy"))
    (tmp_path / "phy" / "PHYBench-fullques_v1.json").write_text('[{"content": "q"}]', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"PhyBenchDataset: .*problem 0 has no 'answer' field"):
        LOAD_DATASET.get("PhyBenchDataset").load(path=str(tmp_path / "phy"))
