"""LongBench, LongBench v2 and LV-Eval: OpenCompass's library configs run by ``assay eval``.

Each case imports a library config unchanged (``opencompass.configs.datasets.longbench.longbench``
and the others recorded), evaluates the fixture predictions in a work dir laid out as
OpenCompass's, and compares every metric with what OpenCompass 0.5.4's own eval task wrote
(``expected/<case>.json``, recorded by ``scripts/record_oc_longbench.py`` on the local data under
``cache/``).  The same configs are scored with the data absent (references from the prediction
files' ``gold``), and the library's summarizers give OpenCompass's tables.
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

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "longbench"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
#: the rows the recording shows with OpenCompass's LongBench groups
GROUP_ROWS = ["longbench", "longbench_zh", "longbench_en", "longbench_single-document-qa", "longbench_multi-document-qa",
              "longbench_summarization", "longbench_few-shot-learning", "longbench_synthetic-tasks", "longbench_code-completion",
              "LongBench_trec"]
CASES = sorted(p.stem for p in EXPECTED.glob("*.json") if p.stem not in ("vectors", "rouge_depth"))


def _record(case: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    return record


def _config(record: dict[str, Any], summarizer: str | None = None) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    lines = ["from mmengine.config import read_base", "", "with read_base():", f"    from {module} import {record['variable']}"]
    if summarizer == "longbench_groups":  # the groups file, which summarizers/longbench.py does not import
        lines.append("    from opencompass.configs.summarizers.groups.longbench import longbench_summary_groups")
    elif summarizer:
        lines.append(f"    from opencompass.configs.summarizers.{summarizer} import summarizer")
    lines += ["", f"datasets = [d.deepcopy() for d in {record['variable']}]", f"models = [dict(abbr={MODEL!r}, path='org/model')]"]
    if summarizer == "longbench_groups":
        lines.append(f"summarizer = dict(dataset_abbrs={GROUP_ROWS!r}, summary_groups=longbench_summary_groups)")
    return "\n".join(lines) + "\n"


def _evaluate(record: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, data: Path,
              summarizer: str | None = None) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(data)
    config = tmp_path / "config.py"
    config.write_text(_config(record, summarizer), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr, entry in record["datasets"].items():
        shutil.copy(ROOT / "predictions" / entry["prediction_file"], predictions / f"{abbr}.json")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    return work / RUN


def _results(run: Path, record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for abbr in record["datasets"]:
        out[abbr] = json.loads((run / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
    return out


def _assert_same_metrics(record: dict[str, Any], results: dict[str, dict[str, Any]]) -> None:
    for abbr, entry in record["datasets"].items():
        result = results[abbr]
        assert "error" not in result, (abbr, result.get("error"))
        for key, value in entry["result"].items():
            assert result[key] == pytest.approx(value, abs=1e-12), (abbr, key)
        assert len(result["details"]) == len(entry["predictions"]), abbr
        assert "[prompt " not in json.dumps(result["details"], ensure_ascii=False), abbr  # the prompts stay out


@pytest.mark.parametrize("case", CASES)
def test_library_config_gives_opencompass_metrics_from_local_data(case: str, oc_library: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(case)
    run = _evaluate(record, tmp_path, monkeypatch, oc_library, ROOT / "cache")
    _assert_same_metrics(record, _results(run, record))


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("longbenchv2")])
def test_library_config_gives_opencompass_metrics_from_gold(case: str, oc_library: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(case)
    empty = tmp_path / "no-data"
    empty.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.cache/opencompass fallback
    run = _evaluate(record, tmp_path, monkeypatch, oc_library, empty)
    results = _results(run, record)
    _assert_same_metrics(record, results)
    assert {r["_meta"].get("references") for r in results.values()} == {"gold"}


def test_longbench_v2_without_its_data_fails_naming_the_file(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LongBench v2's evaluator reads the test set's difficulty and length, so ``gold`` is not enough."""
    record = _record("longbenchv2_gen")
    empty = tmp_path / "no-data"
    empty.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    run = _evaluate(record, tmp_path, monkeypatch, oc_library, empty)
    result = json.loads((run / "results" / MODEL / "LongBenchv2.json").read_text(encoding="utf-8"))
    assert "error" in result
    assert "longbenchv2/data.json" in result["error"]


def test_missing_subset_file_is_an_error_naming_it(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "cache"
    shutil.copytree(ROOT / "cache", data)
    (data / "data" / "Longbench" / "data" / "trec.jsonl").unlink()
    (data / "Infinigence" / "LVEval" / "lic_mixup" / "lic_mixup_32k.jsonl").unlink()
    for case, abbr, name in (("longbench", "LongBench_trec", "trec.jsonl"), ("lveval", "LVEval_lic_mixup_32k", "lic_mixup_32k.jsonl")):
        record = _record(case)
        record["datasets"] = {a: e for a, e in record["datasets"].items() if a in (abbr, next(iter(record["datasets"])))}
        case_dir = tmp_path / case
        case_dir.mkdir()
        run = _evaluate(record, case_dir, monkeypatch, oc_library, data)
        results = _results(run, record)
        assert name in results[abbr]["error"], results[abbr]
        assert type(results[abbr]["error"]) is str
        others = [a for a in record["datasets"] if a != abbr]
        assert all("error" not in results[a] for a in others)


def _table(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


@pytest.mark.parametrize(("summarizer", "cases"), [("longbench", ["longbench"]), ("longbench_groups", ["longbench"]), ("lveval", ["lveval"])])
def test_library_summarizer_gives_opencompass_table(summarizer: str, cases: list[str], oc_library: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(cases[0])
    run = _evaluate(record, tmp_path, monkeypatch, oc_library, ROOT / "cache", summarizer=summarizer)
    main(["summarize", str(tmp_path / "config.py"), "-w", str(run.parent), "-r", RUN, "--no-report"])
    written = sorted((run / "summary").glob("summary_*.csv"))
    assert written, list(run.iterdir())
    expected = _table((EXPECTED / f"summary_{summarizer}.csv").read_text(encoding="utf-8"))
    got = _table(written[-1].read_text(encoding="utf-8"))
    assert got == expected
