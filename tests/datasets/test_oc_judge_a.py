"""KCLE, LiveStemBench, ClimaQA, OlymMATH, PHYSICS, CARDBiomedBench, BeyondAIME, ClinicBench, PubMedQA and
ScienceQA: assay's loaders and the library's judged configs, checked against OpenCompass 0.5.4's recordings.

``scripts/record_oc_judge_a.py`` builds the data files under
``tests/data/oc_families/judge_a`` in OpenCompass's layouts and records, with
OpenCompass installed, the rows its loaders return (``loaders.json``) and, for
one library config per family imported unchanged, the requests its eval task
sends an LLM judge and the result it writes (``expected/``).  Here assay's
loaders must return the same rows, and ``assay eval`` of the same config, with
the same predictions, against a real local judge server answering each
request with the same canned reply (:func:`tests.judge.fake_server.hashed_verdict`),
must send the same requests and compute the same metrics and per-sample
verdicts.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import LOAD_DATASET
from tests.judge.fake_server import FakeJudge, hashed_verdict, in_stable_order, use_as_oc_judge, write_judged_config

ROOT = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "judge_a"
LOADERS = json.loads((ROOT / "loaders.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the data files: the working folder and ``$COMPASS_DATA_CACHE``; an empty Hub cache."""
    shutil.copytree(ROOT / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path / "cache")
    return tmp_path / "cache"


def _tables(ds: Any) -> Any:
    if hasattr(ds, "column_names") and not isinstance(ds.column_names, dict):
        return {"columns": list(ds.column_names), "rows": [dict(r) for r in ds]}
    return {name: _tables(ds[name]) for name in ds}


CALLS = [(loader, call) for loader, calls in LOADERS.items() for call in calls]


@pytest.mark.parametrize(("loader", "call"), CALLS, ids=[f"{lo}-{'-'.join(map(str, c['args'].values()))}" for lo, c in CALLS])
def test_loader_rows_equal_opencompass(data: Path, loader: str, call: dict[str, Any]) -> None:
    """Same splits, same columns in the same order, same rows: ClimaQA's options joined to the question
    only where present, PHYSICS's numbered answers, CARDBiomedBench's ``end`` of ``'@'``, PubMedQA's
    context written as a Python dict, ScienceQA without its image questions."""
    got = json.loads(json.dumps(_tables(LOAD_DATASET.get(loader).load(**call["args"])), ensure_ascii=False, default=repr))
    assert got == call["tables"]


def test_a_kcle_line_without_target_names_the_file_and_line(data: Path) -> None:
    (data / "data" / "kcle_diamond.jsonl").write_text('{"input": "q", "target": "a"}\n{"input": "q2"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"KCLEDataset: .*kcle_diamond\.jsonl line 2 has no 'target' field"):
        LOAD_DATASET.get("KCLEDataset").load(path="opencompass/kcle")


def test_a_livestembench_question_without_options_names_it(data: Path) -> None:
    (data / "data" / "livestembench" / "livestembench_bio.json").write_text('[{"question": "q", "answer": "a"}]', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"livestembench_bio\.json question 0 has no 'options' field"):
        LOAD_DATASET.get("LiveStemBenchDataset").load(path="opencompass/livestembench", version="livestembench_bio")


def test_a_missing_climaqa_task_folder_is_named(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"ClimaQADataset: no such folder: .*climaqa_gold/tf"):
        LOAD_DATASET.get("ClimaQADataset").load(path="opencompass/ClimaQA-Gold", task="tf")


def test_physics_answers_that_are_not_a_list_name_the_row(data: Path) -> None:
    folder = data / "data" / "PHYSICS-textonly" / "atomic_dataset_textonly"
    (folder / "data.jsonl").write_text('{"questions": "q", "final_answers": "42"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"PHYSICSDataset: .*atomic_dataset_textonly row 0: final_answers must be a list"):
        LOAD_DATASET.get("PHYSICSDataset").load(path="opencompass/PHYSICS-textonly", name="atomic_dataset_textonly")


def test_a_hub_dataset_neither_local_nor_cached_says_where_it_looked(data: Path) -> None:
    shutil.rmtree(data / "ByteDance-Seed")
    with pytest.raises(InputFileError, match=r"BeyondAIMEDataset: 'ByteDance-Seed/BeyondAIME' is neither a local folder nor a "
                                             r"dataset in the Hugging Face Hub's cache"):
        LOAD_DATASET.get("BeyondAIMEDataset").load(path="ByteDance-Seed/BeyondAIME")


def test_a_scienceqa_answer_outside_its_choices_names_the_row(data: Path) -> None:
    folder = data / "derek-thomas" / "ScienceQA"
    row = json.loads((folder / "test.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (folder / "test.jsonl").write_text(json.dumps(dict(row, answer=7)) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"ScienceQADataset: .*row 0: answer 7 is not the index of one of its choices"):
        LOAD_DATASET.get("ScienceQADataset").load(path="derek-thomas/ScienceQA")


# -- the judged configs, end to end -------------------------------------------------------------------


def _numbers(metrics: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


@pytest.mark.slow
@pytest.mark.parametrize("case", [p.stem for p in sorted((ROOT / "expected").glob("*.json"))])
def test_judged_config_sends_opencompass_requests_and_scores_as_it_does(case: str, oc_library: Path, data: Path,
                                                                        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.cli import main

    record = json.loads((ROOT / "expected" / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")

    with FakeJudge(lambda messages, attempt: ("reply", hashed_verdict(messages))) as server:
        use_as_oc_judge(server, monkeypatch)
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
        bodies = list(server.bodies)

    assert in_stable_order(bodies) == in_stable_order([b for entry in record["datasets"].values() for b in entry["requests"]])
    results = work / RUN / "results" / MODEL
    for abbr, entry in record["datasets"].items():
        assert "exception" not in entry, entry.get("exception")
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        expected = _numbers(entry["result"])
        assert expected and {k: result.get(k) for k in expected} == pytest.approx(expected, abs=1e-9), abbr
        assert len(result["details"]) == len(entry["details"])
        for i, (got, want) in enumerate(zip(result["details"], entry["details"])):
            if "cascade_correct" in want:
                assert got["cascade_correct"] == want["cascade_correct"], (abbr, i)
                judged = [x for x in got.get("llm_evaluation") or [] if x is not None]
                assert [(x["llm_correct"], x["judge_response"]) for x in judged] == [
                    (x["llm_correct"], x["prediction"]) for x in want.get("llm_evaluation") or []], (abbr, i)
            else:
                assert got["judge_response"] == want["prediction"], (abbr, i)
