"""MathBench's summarizer configs of OpenCompass's library give OpenCompass 0.5.4's table.

For each summarizer config (``configs/summarizers/mathbench*.py``,
``configs/summarizers/groups/mathbench_v1_2024*.py``), the MathBench library
config whose dataset names it uses is scored by ``assay eval`` on the recorded
prediction files and the small data files, and ``assay summarize`` runs with
the summarizer imported unchanged; the ``.csv`` is the one OpenCompass's
``DefaultSummarizer`` wrote on OpenCompass's results for the same files
(``tests/data/oc_families/mathbench_squad20_lambada/summary``, recorded by
``scripts/record_oc_mathbench_squad20_lambada.py``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathbench_squad20_lambada"
RUN = "20250101_000000"
MODEL = "oc-model"


def _cases() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted((ROOT / "summary").glob("*.json"))]


def _module(rel: str) -> str:
    return "opencompass.configs." + rel[: -len(".py")].replace("/", ".")


@pytest.mark.parametrize("summary", _cases())
def test_summarizer_config_gives_opencompass_table(
    summary: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((ROOT / "summary" / f"{summary}.json").read_text(encoding="utf-8"))
    case = json.loads((ROOT / "expected" / f"{record['case']}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n"
        f"    from {_module('datasets/' + case['config'])} import {case['variable']}\n"
        f"    from {_module(record['config'])} import summarizer\n\n"
        f"datasets = {case['variable']}\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in case["datasets"]:
        shutil.copy(ROOT / "predictions" / record["case"] / f"{abbr}.json", predictions / f"{abbr}.json")
    main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"])
    capsys.readouterr()
    for abbr in case["datasets"]:
        result = json.loads((tmp_path / "work" / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)

    code = main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--no-report"])

    out = capsys.readouterr()
    tables = sorted((tmp_path / "work" / RUN / "summary").glob("summary_*.csv"))
    if "exception" in record:  # OpenCompass stops on this summarizer (a group's key is 'ssubsets'); assay names the group
        assert code != 0 and not tables, out
        assert "subsets" in out.err and "mathbench-a-college-en" in out.err, out.err
        return
    assert code == 0, out.err
    assert len(tables) == 1
    assert tables[0].read_text(encoding="utf-8") == record["csv"]
