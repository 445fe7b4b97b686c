"""OpenCompass's ``HFDataset`` and the CLUE/SuperGLUE label loaders: where the data is, and without it.

The rows and scores on the data are compared with OpenCompass 0.5.4's in
``tests/benchmarks_oc`` (the CLUE, FewCLUE, GLUE, SuperGLUE and SummEdits
runs); here: the library's PPL configs scored from the prediction files'
``gold`` when the data is not on disk, the data file a ``path='json'`` config
names decides where references come from, and what a Hub dataset without a
local copy, or a label outside a loader's mapping, says.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.datasets.clue import AXDatasetV2, CMNLIDatasetV2, COPADatasetV2
from assay.datasets.huggingface import HFDataset
from assay.errors import InputFileError
from assay.rundir.results import read_result
from tests.benchmarks_oc._knowledge import ROOT, knowledge, metrics, same_number
from tests.benchmarks_oc.families import MODEL_ABBR, RUNS, build_data

RUN = "20250101_000000"


def _eval(run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    run = next(r for r in RUNS if r.run_id == run_id)
    work = tmp_path / "work"
    shutil.copytree(ROOT / run_id / "predictions", work / RUN / "predictions", dirs_exist_ok=True)
    config = tmp_path / "eval_config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {run.module} import {run.variable}\n\n"
        f"datasets = [d for d in {run.variable} if d['abbr'] in {list(run.abbrs)!r}]\n"
        f"models = [dict(abbr={MODEL_ABBR!r}, path='oc/model')]\n",
        encoding="utf-8",
    )
    rc = main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    assert rc == 0, capsys.readouterr().err[-2000:]
    return {abbr: read_result(work / RUN / "results" / MODEL_ABBR / f"{abbr}.json") for abbr in knowledge(run_id)["datasets"]}


def _same_metrics(results: dict[str, dict[str, Any]], run_id: str) -> None:
    for abbr, entry in knowledge(run_id)["datasets"].items():
        want, got = metrics(entry["result"]), metrics(results[abbr])
        assert want and set(want) <= set(got), (abbr, got)
        for key, value in want.items():
            assert same_number(got[key], value), f"{abbr} {key}: assay {got[key]} != OpenCompass {value}"


@pytest.mark.parametrize(
    ("run_id", "missing"),
    [("CLUE_afqmc_ppl_378c5b", "'./data/CLUE/AFQMC/dev.json' not found"), ("GLUE_MRPC_ppl", "'glue' not found"),
     ("SuperGLUE_COPA_ppl_9f3618", "'./data/SuperGLUE/COPA/val.jsonl' not found")],
)
def test_ppl_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The loader is assay's own; the references come from ``gold`` because the data it names is not on disk."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(run_id, tmp_path, capsys)
    for result in results.values():
        assert result["_meta"]["references"] == "gold"
        note = result["_meta"]["references_note"]
        assert note.startswith("the test set is not on disk: ") and missing in note, note
    _same_metrics(results, run_id)


def test_the_data_file_of_a_json_builder_config_is_read_and_decides_the_references(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``path='json'`` names no file; ``data_files`` (under ``$COMPASS_DATA_CACHE``) does, so the test set is read."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    build_data("CLUE_afqmc", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    results = _eval("CLUE_afqmc_ppl_378c5b", tmp_path, capsys)
    assert results["afqmc-dev"]["_meta"].get("references") != "gold"
    _same_metrics(results, "CLUE_afqmc_ppl_378c5b")
    # the data file is an input of the result: changed, the task is scored again, on the new labels
    data = tmp_path / "cache" / "data" / "CLUE" / "AFQMC" / "dev.json"
    data.write_text(data.read_text(encoding="utf-8").replace('"label": "0"', '"label": "1"'), encoding="utf-8")
    capsys.readouterr()
    again = _eval("CLUE_afqmc_ppl_378c5b", tmp_path, capsys)
    assert "[changed: the test-set file]" in capsys.readouterr().err
    assert again["afqmc-dev"]["accuracy"] != results["afqmc-dev"]["accuracy"]


def test_hub_dataset_without_a_local_copy_names_what_to_download_and_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputFileError) as info:
        HFDataset.load(path="glue", name="cola")
    message = str(info.value)
    assert "HFDataset: glue (name='cola') is not on disk" in message
    assert "Hugging Face Hub" in message and "$COMPASS_DATA_CACHE" in message and "beside the config" in message


def test_hub_dataset_from_a_local_copy_and_a_missing_data_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    build_data("GLUE", tmp_path)
    loaded = HFDataset.load(path="glue", name="mrpc")
    assert sorted(loaded) == ["test", "train", "validation"]
    assert loaded["test"]["label"][:2] == [-1, -1]
    with pytest.raises(InputFileError, match=r"data file .*data/CLUE/AFQMC/dev\.json does not exist"):
        HFDataset.load(path="json", data_files="./data/CLUE/AFQMC/dev.json", split="train")


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_label_outside_a_loaders_mapping_is_an_error_naming_file_line_and_value(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "dev.json", [{"sentence1": "a", "label": "neutral"}, {"sentence1": "b", "label": "unsure"}])
    with pytest.raises(InputFileError, match=r"CMNLIDatasetV2: file .*dev\.json, line 2: label 'unsure' is not one of"):
        CMNLIDatasetV2.load_table(path, local_mode=True)
    path = _jsonl(tmp_path / "ax.jsonl", [{"sentence1": "a", "label": "entailed"}])
    with pytest.raises(InputFileError, match=r"AXDatasetV2: file .*ax\.jsonl, line 1: label 'entailed'"):
        AXDatasetV2.load_table(path)


def test_copa_indexes_its_letters_with_the_label_as_opencompass_does(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "val.jsonl", [{"premise": "p", "label": 0}, {"premise": "q", "label": 1}, {"premise": "r", "label": -1}])
    assert COPADatasetV2.load(path)["label"] == ["A", "B", "B"]
    _jsonl(tmp_path / "val.jsonl", [{"premise": "p", "label": "1"}])
    with pytest.raises(InputFileError, match="label '1' is not an int indexing 'AB'"):
        COPADatasetV2.load(path)
