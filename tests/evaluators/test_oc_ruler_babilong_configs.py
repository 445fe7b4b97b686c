"""OpenCompass's own RULER and BABILong configs, run by ``assay eval`` and summarized as OpenCompass summarizes them.

Each case imports a config of OpenCompass 0.5.4's library unchanged
(``ruler/ruler_4k_gen.py``, ``babilong/babilong_4k_gen.py`` inside
``read_base``), scores the prediction files ``scripts/record_oc_ruler.py``
wrote (replies made from the references OpenCompass's own loaders generated
or read) and compares every metric with what OpenCompass's eval task wrote
(``tests/data/oc_families/{ruler,babilong}/expected.json``), then the summary
table with the one OpenCompass's ``DefaultSummarizer`` printed for the
family's summarizer or summary groups.  RULER is scored from the prediction
files' ``gold`` (its test sets are generated for a tokenizer); BABILong from
its local data in OpenCompass's layout, and from ``gold`` when the data is
not there.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main

FAMILIES = Path(__file__).resolve().parents[1] / "data" / "oc_families"
RUN = "20250101_000000"
MODEL = "oc-model"


def _expected(family: str) -> dict[str, Any]:
    return json.loads((FAMILIES / family / "expected.json").read_text(encoding="utf-8"))


def _config(record: dict[str, Any]) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    summ = record["summarizer"]
    summ_module = "opencompass.configs." + summ["file"][: -len(".py")].replace("/", ".")
    lines = [
        "from mmengine.config import read_base",
        "",
        "with read_base():",
        f"    from {module} import {record['variable']}",
        f"    from {summ_module} import {summ['variable']}",
        "",
        f"datasets = {record['variable']}",
        f"models = [dict(abbr={MODEL!r}, path='org/model')]",
    ]
    if "dataset_abbrs" in summ:
        lines.append(f"summarizer = dict(dataset_abbrs={summ['dataset_abbrs']!r}, summary_groups={summ['variable']})")
    else:
        lines.append(f"summarizer = {summ['variable']}")
    return "\n".join(lines) + "\n"


def _run(family: str, data_cache: Path, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    record = _expected(family)
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data_cache))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(data_cache)
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(FAMILIES / family / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    main(["summarize", str(config), "-w", str(work), "-r", RUN, "--no-report"])
    return work / RUN


def _check_results(family: str, run_dir: Path, references: str) -> None:
    record = _expected(family)
    for abbr, entry in record["datasets"].items():
        result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert result["score"] == entry["result"]["score"], abbr
        assert len(result["details"]) == entry["samples"], abbr
        # long-context prompts stay in the prediction files
        assert not any("prompt" in str(d) for d in result["details"]), abbr
        assert result["_meta"].get("references", "data") == references, abbr


def _summary_rows(run_dir: Path) -> list[list[str]]:
    found = sorted((run_dir / "summary").glob("summary_*.csv"))
    assert found, list(run_dir.iterdir())
    return list(csv.reader(io.StringIO(found[-1].read_text(encoding="utf-8"))))


def _check_summary(family: str, run_dir: Path) -> None:
    ours = _summary_rows(run_dir)
    theirs = list(csv.reader(io.StringIO(_expected(family)["summary_csv"])))
    assert ours == theirs


@pytest.mark.slow
def test_ruler_library_config_scores_from_gold_as_opencompass(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = _run("ruler", FAMILIES / "ruler" / "cache", oc_library, tmp_path, monkeypatch)
    _check_results("ruler", run_dir, "gold")
    _check_summary("ruler", run_dir)


@pytest.mark.slow
def test_babilong_library_config_reads_local_data_as_opencompass(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = _run("babilong", FAMILIES / "babilong" / "cache", oc_library, tmp_path, monkeypatch)
    _check_results("babilong", run_dir, "data")
    _check_summary("babilong", run_dir)


@pytest.mark.slow
def test_babilong_without_its_data_scores_from_gold(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "nodata"
    empty.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.cache/opencompass fallback either
    run_dir = _run("babilong", empty, oc_library, tmp_path, monkeypatch)
    _check_results("babilong", run_dir, "gold")
    _check_summary("babilong", run_dir)
