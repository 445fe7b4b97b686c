"""CommonSummarizer and MultiroundSummarizer write OpenCompass 0.5.4's files and return its scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.registry import SUMMARIZERS
from tests.subjective.recorded import library_config, recorded, summary_files, write_results

REC = recorded("common_multiround")


def _run(name: str, tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict[str, str]]:
    rec: dict[str, Any] = REC[name]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["datasets"] = cfg["datasets"][: rec["datasets_kept"]]
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"], "judge_models": cfg["judge_models"]}}
    write_results(tmp_path / "work", rec)
    cls = SUMMARIZERS.get("CommonSummarizer" if name == "common" else "MultiroundSummarizer")
    return cls(config=cfg, **rec["options"]).summarize(time_str=rec["time"]), summary_files(tmp_path / "work")


def test_common_summarizer(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three MT-Bench sets, two models (the second meeting its capabilities in another order: its values under the
    first row's names, as OpenCompass reads them back): result.csv, the turned-around total_result.csv, the scores."""
    returned, files = _run("common", tmp_path, oc_library, monkeypatch)
    assert returned == REC["common"]["returned"]
    assert files == REC["common"]["files"]


def test_multiround_summarizer(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken rounds per format and language, formats without samples as 0, the header before every row."""
    returned, files = _run("multiround", tmp_path, oc_library, monkeypatch)
    assert returned is REC["multiround"]["returned"] is None
    assert files == REC["multiround"]["files"]


def test_common_summarizer_without_results_writes_nothing(tmp_path: Path) -> None:
    cfg = {"models": [{"abbr": "m"}], "datasets": [{"abbr": "d"}], "judge_models": [{"abbr": "j"}], "work_dir": str(tmp_path)}
    assert SUMMARIZERS.get("CommonSummarizer")(cfg).summarize(time_str="t") == {}
