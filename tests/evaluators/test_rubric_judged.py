"""Rubric- and verdict-judged families (CL-bench, AA-LCR, AdvancedIF, Inverse IFEval) against OpenCompass 0.5.4's recordings.

``scripts/record_oc_judge_c.py`` ran, with OpenCompass installed, each library
config on small files in the layouts OpenCompass's loaders read (local folders
named like the Hugging Face datasets, under
``tests/data/oc_families/judge_c/cache``), its judge a local server answering
each sample with a canned reply of the family, and recorded the loader's rows,
the requests the judge got and the results.  Here the same library configs,
imported unchanged (Inverse IFEval's with the ``judge_cfg`` OpenCompass
requires), load the same rows, and ``assay eval`` against a real local judge
server giving the same replies sends the same requests and computes
OpenCompass's metrics, per-sample verdicts and judge-reply files.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS, LOAD_DATASET
from tests.evaluators._library import config_datasets, judged_family_env
from tests.judge.fake_server import FakeJudge, by_item, use_as_oc_judge, write_judged_config

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge_c"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
CASES = sorted(p.stem for p in EXPECTED.glob("*.json"))


def _record(case: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))


def _unique(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted({json.dumps(b, sort_keys=True, ensure_ascii=False) for b in bodies})


@pytest.fixture
def oc_env(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    judged_family_env(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    return oc_library


@pytest.mark.parametrize("case", CASES)
def test_library_config_loads_opencompass_rows(case: str, oc_env: Path, tmp_path: Path) -> None:
    """The library config imported unchanged names assay's loader, which returns OpenCompass's rows."""
    record = _record(case)
    datasets = config_datasets(record["config"], tmp_path)
    assert sorted(d["abbr"] for d in datasets) == sorted(record["datasets"])
    for ds in datasets:
        loader = record["datasets"][ds["abbr"]]["loader"]
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "mode", "n", "k")}
        assert args == loader["args"]
        assert ds["type"].__module__ in ("assay.datasets.rubric_judged", "assay.datasets.atlas")
        loaded = ds["type"].load(**args)
        test = loaded["test"] if isinstance(loaded, dict) and "test" in loaded else loaded
        assert json.loads(json.dumps([dict(r) for r in test], ensure_ascii=False)) == loader["rows"], ds["abbr"]


def _eval(record: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[dict[str, Any]]]:
    """``assay eval`` of the recorded config against a judge server giving the recording's replies."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "predictions" / MODEL, work / RUN / "predictions" / MODEL)
    with FakeJudge(by_item(record["replies"])) as server:
        use_as_oc_judge(server, monkeypatch)
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        with contextlib.suppress(SystemExit):  # the command line's exit
            main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
        return work / RUN / "results", list(server.bodies)


@pytest.mark.parametrize("case", CASES)
def test_library_config_judges_as_opencompass(case: str, oc_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on the library config: OpenCompass's judge requests, metrics, per-sample verdicts and judge-reply files."""
    record = _record(case)
    results, bodies = _eval(record, tmp_path, monkeypatch)
    want = [b for e in record["datasets"].values() for b in e["requests"]]
    assert _unique(bodies) == _unique(want)
    if len(_unique(want)) == len(want):  # (a request repeated across runs is answered from assay's reply cache)
        assert len(bodies) == len(want)
    for abbr, entry in record["datasets"].items():
        result = json.loads((results / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, result
        numbers = {k: v for k, v in entry["result"].items() if isinstance(v, (int, float))}
        # a value that is not a number OpenCompass keeps per run, in a list; assay keeps a single run's as it is
        others = {k: v[0] for k, v in entry["result"].items() if k not in numbers}
        assert numbers and {k: result.get(k) for k in numbers} == pytest.approx(numbers, abs=1e-9), abbr
        assert {k: result.get(k) for k in others} == others, abbr
        assert len(result["details"]) == len(entry["details"])
        for got, want in zip(result["details"], entry["details"]):
            # (a loader returning splits: OpenCompass names samples <abbr>_test_<i>, assay <abbr>_<i>)
            assert {k: got.get(k) for k in want if k != "example_abbr"} == {k: v for k, v in want.items() if k != "example_abbr"}, abbr
        for name, records in entry["files"].items():
            assert json.loads((results / MODEL / name).read_text(encoding="utf-8")) == records, name


# -- the readers and loaders alone ------------------------------------------------------------


def test_clbench_scores_only_an_overall_score_of_one() -> None:
    """A score of 2, a word, or no score reads as 0; a fenced JSON object and "1 point" are read."""
    from assay.evaluators.llm_judge import judge_dataset

    fn = DICT_POSTPROCESSORS.get("clbench_llmjudge_postprocess")
    replies = ['{"Overall Score": 2}', '{"Overall Score": "one"}', "```json\n{\"Overall Score\": 1}\n```", "it earns 1 point", ""]
    rows = judge_dataset([{"context_category": "Rules" if i < 3 else None, "prediction": f"p{i}"} for i in range(5)])
    result = fn({str(i): {"prediction": r} for i, r in enumerate(replies)}, "unused.json", rows)
    assert [d["score"] for d in result["details"]] == [0, 0, 1, 1, 0]
    assert result["category_accuracy"] == {"Rules": pytest.approx(100 / 3), "Unknown": 50.0}
    assert [d["pred"] for d in result["details"]] == ["p0", "p1", "p2", "p3", "p4"]


def test_aa_lcr_missing_document_names_the_archive_and_row(oc_env: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lcr"
    (folder / "extracted_text").mkdir(parents=True)
    (folder / "AA-LCR_Dataset.csv").write_text(
        ",document_category,document_set_id,question_id,question,answer,data_source_filenames,data_source_urls,input_tokens\n"
        "0,Legal,s1,7,Who?,Me,missing.txt,,10\n", encoding="utf-8")
    with zipfile.ZipFile(folder / "extracted_text" / "AA-LCR_extracted-text.zip", "w") as archive:
        archive.writestr("lcr/Legal/s1/other.txt", "text")
    with pytest.raises(InputFileError, match=r"AALCRDataset: .*AA-LCR_Dataset\.csv, row 1: the archive .* has no document "
                                             r"'lcr/Legal/s1/missing\.txt'"):
        LOAD_DATASET.get("AALCRDataset").load(path=str(folder))


def test_advancedif_conversation_that_is_not_json_names_the_row(oc_env: Path, tmp_path: Path) -> None:
    folder = tmp_path / "advancedif"
    folder.mkdir()
    (folder / "train.jsonl").write_text(json.dumps({"benchmark_name": "x", "conversation_history": "[{broken",
                                                    "prompt_metadata": ""}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"AdvancedIFDataset: .*train row 0: conversation_history is not JSON"):
        LOAD_DATASET.get("AdvancedIFDataset").load(path=str(folder))
