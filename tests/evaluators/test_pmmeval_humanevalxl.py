"""P-MMEval's HumanEval-XL: OpenCompass 0.5.4's rows and generations, each generation run against its own row.

The fixture (``tests/data/oc_families/pmmeval_humanevalxl``, written by
``scripts/make_pmmeval_humanevalxl_fixtures.py``) holds two problems per
program language (Python, Java, JavaScript) and natural language (English,
Chinese) in OpenCompass's layout, with replies; ``expected/humanevalxl_gen_bdec92.json``
(``scripts/record_oc_pmmeval_humanevalxl.py``) holds the rows OpenCompass's
loader read and the file its evaluator would post to the code service (each
sample's ``task_id`` and cleaned ``generation``).  The verdicts are checked by
hand: the first problem's reply is right, the second's wrong (pass@1 50).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.pmmeval_humanevalxl import PMMEvalHumanEvalXLEvaluator
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "pmmeval_humanevalxl"
RECORD = json.loads((ROOT / "expected" / "humanevalxl_gen_bdec92.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"
_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")


def _replies(abbr: str) -> list[str]:
    preds = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
    return [preds[str(i)]["prediction"] for i in range(len(preds))]


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def test_the_loader_reads_opencompass_layout_and_names_a_missing_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from assay.datasets.pmmeval import PMMEvalHumanEvalXLDataset
    from assay.errors import AssayError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    assert len(RECORD["datasets"]) == 6
    for abbr, rec in RECORD["datasets"].items():
        program, natural = abbr.split("-")[1:]
        ds = PMMEvalHumanEvalXLDataset.load("P-MMEval", lang=natural, program_lang=program)
        columns = {c: ds.column_values(c) for c in ds.column_names}
        assert [{c: columns[c][i] for c in ds.column_names} for i in range(ds.num_rows)] == rec["rows"], abbr
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(AssayError, match=r"humaneval-xl/test/python/Thai\.jsonl"):
        PMMEvalHumanEvalXLDataset.load("P-MMEval", lang="Thai", program_lang="python")


@needs_sandbox
@pytest.mark.parametrize("abbr", sorted(RECORD["datasets"]))
def test_generations_are_opencompass_and_each_runs_against_its_row(abbr: str) -> None:
    """The cleaned generations and task ids OpenCompass sends; the right reply passes, the wrong one fails."""
    rec = RECORD["datasets"][abbr]
    rows = rec["rows"]
    result = PMMEvalHumanEvalXLEvaluator(language=rec["language"], text_language=rec["text_language"],
                                         isolation="namespaces").score(
        _replies(abbr), [r[rec["output_column"]] for r in rows], rows)
    assert [{"task_id": d["task_id"], "generation": d["generation"]} for d in result["details"]] == rec["sent"]
    results = [d["result"] for d in result["details"]]
    assert result["pass@1"] == 50.0, results
    assert results[0] == "passed", results
    assert results[1].startswith("failed: "), results
    assert [d["is_correct"] for d in result["details"]] == [True, False]


@needs_sandbox
def test_python_tests_are_called_a_body_that_returns_nothing_fails() -> None:
    """HumanEval-XL's Python test only defines ``check``: it is called, so a body that returns ``None`` fails."""
    rec = RECORD["datasets"]["humanevalxl-python-English"]
    rows = rec["rows"]
    result = PMMEvalHumanEvalXLEvaluator(language="python", isolation="namespaces").score(
        ["    pass\n", "    pass\n"], [r["declaration"] for r in rows], rows)
    assert result["pass@1"] == 0.0
    assert [d["result"] for d in result["details"]] == ["failed: AssertionError"] * 2


def test_languages_outside_opencompass_are_refused() -> None:
    with pytest.raises(ValueError, match="'cpp'"):
        PMMEvalHumanEvalXLEvaluator(language="cpp")


@needs_sandbox
def test_library_config_runs_unchanged(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``humanevalxl_gen_bdec92`` unchanged (its English and Chinese datasets): each program language run in the sandbox."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n    from opencompass.configs.datasets.PMMEval.humanevalxl_gen_bdec92 import "
        "PMMEval_HumanEvalXL_datasets\n\n"
        "datasets = [d for d in PMMEval_HumanEvalXL_datasets if d['lang'] in ('English', 'Chinese')]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in RECORD["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    for abbr, rec in RECORD["datasets"].items():
        result = read_result(tmp_path / "work" / RUN / "results" / MODEL / f"{abbr}.json")
        assert "error" not in result, (abbr, result.get("error"))
        details = [{k: _unwrap(v) for k, v in d.items()} for d in result["details"]]
        assert result["pass@1"] == 50.0, (abbr, [d["result"][:200] for d in details])
        assert [d["generation"] for d in details] == [s["generation"] for s in rec["sent"]]
