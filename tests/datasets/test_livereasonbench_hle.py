"""LiveReasonBench's, HLE's and Earth-Silver's loaders on OpenCompass's layouts, checked against OpenCompass 0.5.4's recorded rows.

The recording is made by ``scripts/record_oc_longtail2.py`` with OpenCompass
installed, from the data files under ``tests/data/oc_families/longtail2``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "longtail2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the data files; the working folder holds ``cais/hle``, ``skylenage-ai/HLE-Verified`` and ``ai-earth/Earth-Silver``."""
    for sub in ("cache", "cais", "skylenage-ai", "ai-earth"):
        shutil.copytree(DATA / sub, tmp_path / sub)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: nothing comes from the Hub's cache
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _splits(ds: Any) -> dict[str, list[dict[str, Any]]]:
    return {name: [dict(r) for r in ds[name]] for name in ds}


CALLS = [(loader, call) for loader in ("LiveReasonBenchDataset", "HLEDataset", "HLEVerifiedDataset") for call in RECORDED[loader]]


@pytest.mark.parametrize(("loader", "call"), CALLS, ids=[f"{lo}-{json.dumps(c['args'])}" for lo, c in CALLS])
def test_loader_rows_equal_opencompass(data: Path, loader: str, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get(loader).load(**call["args"])) == call["splits"]


def test_earth_silver_reads_the_multiple_choice_split_as_opencompass_does(data: Path) -> None:
    (call,) = RECORDED["Earth_Silver_MCQDataset"]
    assert [dict(r) for r in LOAD_DATASET.get("Earth_Silver_MCQDataset").load(**call["args"])] == call["rows"]


def test_earth_silver_refuses_a_prompt_mode_opencompass_does_not_implement(data: Path) -> None:
    with pytest.raises(ConfigError, match=r"prompt_mode='few-shot' is not supported"):
        LOAD_DATASET.get("Earth_Silver_MCQDataset").load("ai-earth/Earth-Silver", prompt_mode="few-shot")


def test_livereasonbench_num_examples_draws_opencompass_s_sample_in_its_order(data: Path) -> None:
    full = LOAD_DATASET.get("LiveReasonBenchDataset").load(path="opencompass/LiveReasonBench")["test"]
    drawn = LOAD_DATASET.get("LiveReasonBenchDataset").load(path="opencompass/LiveReasonBench", num_examples=4)["test"]
    assert drawn["id"] != full["id"][:4] and set(drawn["id"]) <= set(full["id"])


def test_livereasonbench_missing_release_names_the_file(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"LiveReasonBenchDataset.*livereasonbench-20990101\.json"):
        LOAD_DATASET.get("LiveReasonBenchDataset").load(path="opencompass/LiveReasonBench", version="livereasonbench-20990101")


def test_livereasonbench_refuses_a_sample_with_repeats(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"num_examples=3 .*n_repeats=1, got n_repeats=2"):
        LOAD_DATASET.get("LiveReasonBenchDataset").load(path="opencompass/LiveReasonBench", num_examples=3, n_repeats=2)


def test_livereasonbench_file_not_a_list_names_it(data: Path) -> None:
    (data / "cache" / "data" / "LiveReasonBench" / "livereasonbench-20241202.json").write_text('{"question": "q"}')
    with pytest.raises(InputFileError, match=r"livereasonbench-20241202\.json holds a JSON dict, not a list"):
        LOAD_DATASET.get("LiveReasonBenchDataset").load(path="opencompass/LiveReasonBench")


def test_hle_without_local_folder_or_cached_copy_says_where_it_looked(data: Path) -> None:
    shutil.rmtree(data / "cais")
    with pytest.raises(InputFileError, match=r"HLEDataset: 'cais/hle' is neither a local folder nor a dataset in the "
                                             r"Hugging Face Hub's cache.*huggingface-cli download cais/hle"):
        LOAD_DATASET.get("HLEDataset").load(path="cais/hle")


def test_hle_reads_the_hub_cache_s_copy(data: Path) -> None:
    # the layout huggingface_hub keeps a downloaded dataset in: a snapshot folder named by the revision
    snapshot = data / "hub" / "datasets--cais--hle" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (data / "hub" / "datasets--cais--hle" / "refs").mkdir()
    (data / "hub" / "datasets--cais--hle" / "refs" / "main").write_text("0" * 40)
    shutil.move(str(data / "cais" / "hle" / "test.jsonl"), snapshot / "test.jsonl")
    shutil.rmtree(data / "cais")
    assert _splits(LOAD_DATASET.get("HLEDataset").load(path="cais/hle")) == RECORDED["HLEDataset"][0]["splits"]
    assert LOAD_DATASET.get("HLEDataset").data_location("cais/hle").path == snapshot


def test_hle_verified_bad_json_column_names_the_row(data: Path) -> None:
    file = data / "skylenage-ai" / "HLE-Verified" / "train.jsonl"
    rows = [json.loads(line) for line in file.read_text().splitlines()]
    rows[3]["json"] = "not json"
    file.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(InputFileError, match=r"HLEVerifiedDataset: row 3 of 'skylenage-ai/HLE-Verified'.*'not json'"):
        LOAD_DATASET.get("HLEVerifiedDataset").load(path="skylenage-ai/HLE-Verified")


def test_hle_without_image_column_names_the_columns(data: Path) -> None:
    file = data / "cais" / "hle" / "test.jsonl"
    rows = [json.loads(line) for line in file.read_text().splitlines()]
    file.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "image"}) + "\n" for r in rows))
    with pytest.raises(InputFileError, match=r"HLEDataset: the 'test' split of 'cais/hle' has no column 'image'"):
        LOAD_DATASET.get("HLEDataset").load(path="cais/hle")


LIBRARY = {
    "livereasonbench.livereasonbench_genericllmeval_gen_f990de": ("livereasonbench_datasets", "LiveReasonBenchDataset"),
    "livereasonbench.livereasonbench_llmverify_20250428_gen_0484cb": ("livereasonbench_datasets", "LiveReasonBenchDataset"),
    "livereasonbench.livereasonbench_gen_f990de": ("livereasonbench_datasets", "LiveReasonBenchDataset"),
    "HLE.hle_llmverify_gen_6ff468": ("hle_datasets", "HLEDataset"),
    "HLE.hle_biomed_llm_verify_gen_6ff468": ("hle_datasets", "HLEDataset"),
    "HLE.hle_verified_rawprompt": ("hle_datasets", "HLEVerifiedDataset"),
    "Earth_Silver.Earth_Silver_gen": ("earth_silver_mcq_datasets", "Earth_Silver_MCQDataset"),
    "Earth_Silver.Earth_Silver_llmjudge_gen_46140c": ("earth_silver_mcq_datasets", "Earth_Silver_MCQDataset"),
}


@pytest.mark.parametrize("module", sorted(LIBRARY))
def test_library_configs_load_rows_as_opencompass_does(module: str, oc_library: Path, data: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    variable, loader = LIBRARY[module]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = data / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import {variable}\n", encoding="utf-8")
    (ds,) = load_config(config).variables[variable]
    assert ds["type"].__module__.startswith("assay.datasets.") and ds["type"].__name__ == loader
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}
    recorded = [c.get("splits", c.get("rows")) for c in RECORDED[loader] if c["args"] == args]
    assert recorded, f"no recording of {loader} with {args}"
    loaded = ds["type"].load(**args)
    assert (_splits(loaded) if "splits" in RECORDED[loader][0] else [dict(r) for r in loaded]) == recorded[0]
    dict_post = ds["eval_cfg"]["evaluator"].get("dict_postprocessor", {}).get("type")
    if module.startswith("livereasonbench"):
        assert dict_post.__module__ == "assay.judge._verdict" and dict_post.__name__ == "livereasonbench_postprocess"
