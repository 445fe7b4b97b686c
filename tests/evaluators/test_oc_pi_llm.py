"""PI-LLM's loader and grader against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_symbolic.py`` with OpenCompass
installed: its own eval task scored the prediction files under
``tests/data/oc_families/symbolic/predictions`` on a local copy of the dataset
(``cache/giantfish-fly/pi-llm``, its two configurations).  The case imports the
library's ``pi_llm_gen`` unchanged and runs ``assay eval`` on the same prediction
files with the data on disk (the files' ``gold`` replaced, so that only the data
gives the references); every metric and every sample's accuracy must be
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

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "symbolic"
RECORD = json.loads((ROOT / "expected" / "pi_llm_gen.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"


def _one(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def test_library_config_scores_as_opencompass(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache" / "giantfish-fly", "giantfish-fly")
    config = tmp_path / "config.py"
    config.write_text(library_config(RECORD["config"], RECORD["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in RECORD["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in RECORD["datasets"].items():
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert {k: result[k] for k in entry["result"]} == entry["result"], abbr
        assert [k for k in result if k in entry["result"]] == list(_order(abbr)), abbr
        assert [_one(d["accuracy"]) for d in result["details"]] == entry["accuracy"], abbr


def _order(abbr: str) -> tuple[str, ...]:
    two_mode = abbr in ("pi_llm_exp_keys", "pi_llm_exp_valuelength")
    return ("avg_accuracy", "auc_log1.5", *(("auc_log1.5_easy", "auc_log1.5_hard") if two_mode else ()), "total_samples")


@pytest.mark.parametrize("abbr", sorted(RECORD["datasets"]))
def test_library_config_loads_opencompass_rows(abbr: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache" / "giantfish-fly", "giantfish-fly")
    config = tmp_path / "config.py"
    config.write_text(library_config(RECORD["config"], RECORD["variable"]), encoding="utf-8")
    (ds,) = [d for d in load_config(config).variables["datasets"] if d["abbr"] == abbr]
    assert ds["type"].__module__ == "assay.datasets.pi_llm"
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    rows = ds["type"].load(**args).to_arrow().to_pylist()
    assert rows == [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in RECORD["datasets"][abbr]["test_rows"]]


def test_error_replies_and_escapes_read_as_opencompass() -> None:
    from assay.evaluators.pi_llm import pi_llm_accuracy, pi_llm_pairs

    assert pi_llm_pairs("") is None and pi_llm_pairs("Error: none") is None and pi_llm_pairs("an error here") is None
    assert pi_llm_pairs("an error here " + "x" * 680) == {}  # long replies may mention errors
    assert pi_llm_pairs("a\\: b\nkey: k\n*c*: 'd'") == {"a": "b", "c": "d"}
    assert pi_llm_accuracy("a: b", '{"a": "b", "c": "d"}') == 0.5
    assert pi_llm_accuracy("a: b", "not JSON") == 0.0 and pi_llm_accuracy(None, '{"a": "b"}') == 0.0


def test_without_test_rows_is_an_error_record() -> None:
    evaluator = ICL_EVALUATORS.get("PILLMEvaluator")()
    result = evaluator.score(["a: b"], ['{"a": "b"}'], test_set=[])
    assert set(result) == {"error"} and "PILLMEvaluator" in result["error"]
    assert evaluator.score([], [], test_set=[]) == {"error": "PILLMEvaluator: no samples to score"}


def test_missing_dataset_is_an_error_naming_the_loader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(InputFileError, match="PILLMDataset: 'giantfish-fly/pi-llm' is neither a local folder"):
        LOAD_DATASET.get("PILLMDataset").load(path="giantfish-fly/pi-llm", subset="core")
