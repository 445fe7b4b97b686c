"""SciReasoner's materials generation (loaders, reader, evaluators) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci2.py`` on the files under
``tests/data/oc_families/sci2``.  The evaluators need SMACT (``smact``, in the
optional extra ``chem``); their tests skip, saying so, where it is missing.
OpenCompass's evaluators write no details; their metrics are compared.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
PATH = "opencompass/SciReasoner-Conditional_generation"
BUILD = {"uncond_material_Evaluator": {}, "composition_Evaluator": {"data_path": PATH}, "material_Evaluator": {"data_path": PATH}}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "SciReasoner" / "Conditional_generation"


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


@pytest.mark.parametrize("loader", ["Composition_material_Dataset", "Bulk_modulus_material_Dataset"])
def test_rows_equal_opencompass(cache: Path, loader: str) -> None:
    for call in RECORDED[loader]:
        assert _splits(LOAD_DATASET.get(loader).load(**call["args"])) == call["splits"], call["args"]


def test_unconditional_rows_equal_opencompass() -> None:
    (call,) = RECORDED["Uncond_material_Dataset"]
    assert [dict(r) for r in LOAD_DATASET.get("Uncond_material_Dataset").load(**call["args"])] == call["rows"]
    with pytest.raises(ConfigError, match="num must be a count of rows, got '5'"):
        LOAD_DATASET.get("Uncond_material_Dataset").load(num="5", prompt="x")


def test_mini_set_of_too_few_materials_names_the_file(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"mini_set draws 150 questions and .*bulk_modulus_material/test/data\.json holds 12"):
        LOAD_DATASET.get("Bulk_modulus_material_Dataset").load(path=PATH, mini_set=True)


@pytest.mark.parametrize(("reply", "expected"), RECORDED["material_postprocessor"])
def test_reader_equals_opencompass(reply: Any, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("material_postprocessor")(reply) == expected


CASES = RECORDED["material_evaluators"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['evaluator']}-{i}" for i, c in enumerate(CASES)])
def test_metrics_equal_opencompass(cache: Path, case: dict[str, Any]) -> None:
    pytest.importorskip("smact", reason="SMACT (the chem extra) is not installed")
    evaluator = ICL_EVALUATORS.get(case["evaluator"])(**BUILD[case["evaluator"]])
    result = evaluator.score(list(case["predictions"]))
    assert len(result.pop("details")) == len(case["predictions"])
    assert result == case["result"]


def test_an_evaluator_without_its_test_file_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"material_Evaluator: cannot read its test file .*bulk_modulus_material/test/data\.json"):
        ICL_EVALUATORS.get("material_Evaluator")(data_path=PATH)


@pytest.mark.parametrize(("module", "variable", "evaluator"), [
    ("unconditional_material_gen", "uncond_material_datasets", "uncond_material_Evaluator"),
    ("unconditional_material_rawprompt_gen", "uncond_material_datasets", "uncond_material_Evaluator"),
    ("composition_material_gen", "composition_material_datasets", "composition_Evaluator"),
    ("composition_material_rawprompt_gen", "composition_material_datasets", "composition_Evaluator"),
    ("bulk_modulus_material_gen", "modulus_material_datasets", "material_Evaluator"),
    ("bulk_modulus_material_rawprompt_gen", "modulus_material_datasets", "material_Evaluator"),
])
def test_library_configs_load_and_score_with_these_components(module: str, variable: str, evaluator: str, oc_library: Path,
                                                              cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import {variable}, mini_{variable}\n",
                      encoding="utf-8")
    variables = load_config(config).variables
    (ds,) = variables[variable]
    (mini,) = variables[f"mini_{variable}"]
    for each in (ds, mini):
        assert each["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get(evaluator)
        assert each["eval_cfg"]["pred_postprocessor"]["type"] is TEXT_POSTPROCESSORS.get("material_postprocessor")
        args = {k: v for k, v in each.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        if evaluator == "uncond_material_Evaluator":
            rows = each["type"].load(**args)
            assert len(rows) == args["num"] and dict(rows[0]) == {"input": args["prompt"], "output": ""}
        elif evaluator == "material_Evaluator" and args.get("mini_set"):
            with pytest.raises(InputFileError, match="mini_set draws 150"):
                each["type"].load(**args)
        else:
            (call,) = [c for c in RECORDED[each["type"].__name__] if c["args"] == args]
            assert _splits(each["type"].load(**args)) == call["splits"]
    pytest.importorskip("smact", reason="SMACT (the chem extra) is not installed")
    (case,) = [c for c in CASES if c["evaluator"] == evaluator and len(c["predictions"]) == len(RECORDED["material_postprocessor"]) - 2]
    options = dict(ds["eval_cfg"]["evaluator"])
    built = options.pop("type")(**options)
    result = built.score(list(case["predictions"]))
    result.pop("details")
    assert result == case["result"]
