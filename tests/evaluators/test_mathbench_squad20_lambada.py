"""MathBench, SQuAD 2.0 and LAMBADA library configs scored by ``assay eval`` as OpenCompass 0.5.4 scores them.

Each case imports a dataset config of OpenCompass's library unchanged (inside
``read_base``), evaluates the prediction files recorded beside what
OpenCompass's eval task computed on them
(``tests/data/oc_families/mathbench_squad20_lambada``, written by
``scripts/record_oc_mathbench_squad20_lambada.py``) and compares every metric:
once with no data on disk (the references are the records' ``gold``: every
evaluator of these families reads references alone), once with the small
data files in OpenCompass's layout (the test sets built by assay's loaders).
From gold, only the configs scored with one of these families' own
postprocessor or evaluators are run (the others' scoring, openicl's
``CircularEvaluator``, ``AccEvaluator`` and ``math_postprocess_v2``, is
covered on the data).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.lambada import LambadaEvaluator
from assay.evaluators.squad20 import SQuAD20Evaluator

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathbench_squad20_lambada"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"


#: The scoring components these families brought; a config scored with none of them from gold scores as before.
FAMILY_COMPONENTS = {"mathbench_postprocess", "SQuAD20Evaluator", "LambadaEvaluator"}


def _cases(*, scoring_of_the_family: bool = False) -> list[Any]:
    cases = []
    for path in sorted(EXPECTED.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        kinds = {c["type"] for entry in record["datasets"].values() for c in entry["components"].values()}
        if not scoring_of_the_family or kinds & FAMILY_COMPONENTS:
            cases.append(pytest.param(path.stem, id=path.stem))
    return cases


def _metrics(result: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in result.items() if k != "details" and isinstance(v, (int, float)) and not isinstance(v, bool)}


def _eval(case: str, record: dict[str, Any], tmp_path: Path) -> Path:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {module} import {record['variable']}\n\n"
        f"datasets = {record['variable']}\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / case / f"{abbr}.json", predictions / f"{abbr}.json")
    main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"])
    return tmp_path / "work" / RUN / "results" / MODEL


def _check(results: Path, record: dict[str, Any], *, from_gold: bool) -> None:
    for abbr, entry in record["datasets"].items():
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert (result["_meta"].get("references") == "gold") is from_gold, (abbr, result["_meta"])
        expected = _metrics(entry["result"])
        assert expected, abbr
        got = _metrics(result)
        assert set(got) >= set(expected), (abbr, got)
        for key, value in expected.items():
            assert got[key] == pytest.approx(value, abs=1e-9), (abbr, key)
        assert len(result["details"]) == len(entry["evaluator_got"]["predictions"]), abbr


@pytest.mark.parametrize("case", _cases(scoring_of_the_family=True))
def test_library_config_scored_from_gold_gives_opencompass_metrics(
    case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    _check(_eval(case, record, tmp_path), record, from_gold=True)


@pytest.mark.parametrize("case", _cases())
def test_library_config_scored_on_the_local_data_gives_opencompass_metrics(
    case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    _check(_eval(case, record, tmp_path), record, from_gold=False)


def _evaluator_cases(prefix: str) -> list[Any]:
    cases = []
    for path in sorted(EXPECTED.glob(f"{prefix}*.json")):
        for abbr, entry in json.loads(path.read_text(encoding="utf-8"))["datasets"].items():
            cases.append(pytest.param(entry, id=f"{path.stem}/{abbr}"))
    return cases


@pytest.mark.parametrize("entry", _evaluator_cases("squad20") + _evaluator_cases("lambada"))
def test_evaluator_on_what_opencompass_handed_its_evaluator(entry: dict[str, Any]) -> None:
    got = entry["evaluator_got"]
    evaluator = SQuAD20Evaluator() if isinstance(got["references"][0], list) else LambadaEvaluator()
    result = evaluator.score(got["predictions"], got["references"])
    assert _metrics(result) == pytest.approx(_metrics(entry["result"]), abs=1e-9)


def test_squad_reply_is_read_on_its_first_line_after_its_last_answer_is() -> None:
    result = SQuAD20Evaluator().score(
        ["I think the answer is: the Seine.\nNo, the answer is Loire", "\nParis", "THE SEINE", "impossible to answer"],
        [["The Seine"], ["Paris"], ["Seine"], ["Paris", "impossible to answer"]],
    )
    assert [d["correct"] for d in result["details"]] == [True, False, True, True]
    assert result["score"] == 75.0


def test_lambada_reads_the_first_word_up_to_its_first_punctuation() -> None:
    result = LambadaEvaluator().score(["don't", "well-known fact", "Sarah", "the", "sarah"], ["don", "well", "Sarah", "a", "Sarah"])
    assert [d["correct"] for d in result["details"]] == [True, True, True, True, False]


def test_empty_batches_and_mismatched_inputs_are_errors_naming_the_evaluator() -> None:
    assert SQuAD20Evaluator().score([], []) == {"error": "SQuAD20Evaluator: no samples to score"}
    assert LambadaEvaluator().score([], []) == {"error": "LambadaEvaluator: no samples to score"}
    assert "reference 0 is 'Paris'" in SQuAD20Evaluator().score(["Paris"], ["Paris"])["error"]
    assert "prediction 0 is None" in LambadaEvaluator().score([None], ["x"])["error"]
