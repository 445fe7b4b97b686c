"""Re-scoring an OpenCompass work dir without its config: ``assay eval|run|summarize -w WORK_DIR -r TS``.

``tests/data/oc_workdir`` was recorded with OpenCompass 0.5.4
(``scripts/record_oc_workdir.py``): the config it dumped into the run
directory, the prediction files, the data, and OpenCompass's results.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.registry import LOAD_DATASET

RECORDED = Path(__file__).parent / "data" / "oc_workdir"
RUN = "20250101_000000"


def _never_called(**kwargs: object) -> None:
    raise AssertionError("a stand-in loader is never called")


#: What OpenCompass's GSM8KDataset resolves to while assay does not implement it.
_GSM8KStandIn = type(
    "GSM8KDataset", (), {"_assay_standin": True, "__module__": "opencompass.datasets", "load": staticmethod(_never_called)}
)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The recorded work dir copied to ``tmp_path/outputs/toy``, the working directory ``tmp_path`` (no data there)."""
    LOAD_DATASET.names()  # populated before the name is replaced for this test
    monkeypatch.setitem(LOAD_DATASET._items, "GSM8KDataset", _GSM8KStandIn)
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(RECORDED / "outputs", tmp_path / "outputs")
    return tmp_path / "outputs" / "toy"


def _expected(model: str, abbr: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((RECORDED / "expected" / model / f"{abbr}.json").read_text())
    return data


def _results(run: Path) -> dict[str, dict[str, object]]:
    return {p.stem: json.loads(p.read_text()) for p in (run / "results" / "toy-model").glob("*.json")}


def test_the_dumped_config_is_read_and_scores_like_opencompass(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-w", str(workdir), "-r", RUN, "--workers", "1"]) == 0
    err = capsys.readouterr().err
    (dumped,) = (RECORDED / "outputs" / "toy" / RUN / "configs").glob("*.py")
    assert f"config: {workdir / RUN / 'configs' / dumped.name}" in err
    results = _results(workdir / RUN)
    for abbr in ("gsm8k-toy", "mcq-toy"):
        assert results[abbr]["accuracy"] == _expected("toy-model", abbr)["accuracy"]
        assert results[abbr]["_meta"]["references"] == "gold"  # type: ignore[index]
    (summary,) = (workdir / RUN / "summary").glob("summary_*.csv")
    assert summary.read_text() == (RECORDED / "expected" / "summary.csv").read_text()


def test_with_the_data_on_disk_the_references_come_from_it(workdir: Path) -> None:
    shutil.copytree(RECORDED / "data", workdir.parent.parent / "data")
    assert main(["eval", "-w", str(workdir), "-r", RUN, "--workers", "1"]) == 0
    results = _results(workdir / RUN)
    assert "references" not in results["mcq-toy"]["_meta"]  # type: ignore[operator]
    assert results["mcq-toy"]["accuracy"] == _expected("toy-model", "mcq-toy")["accuracy"]
    assert results["gsm8k-toy"]["_meta"]["references"] == "gold"  # type: ignore[index]  # its loader is a stand-in


def test_the_newest_dump_wins_and_summarize_reads_it_too(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configs = workdir / RUN / "configs"
    (dumped,) = configs.glob("*.py")
    text = dumped.read_text()
    only_mcq = text.replace("datasets=[\n    dict(abbr='gsm8k-toy',", "unused=[\n    dict(abbr='gsm8k-toy',", 1)
    only_mcq = only_mcq.replace("models=[", "datasets=[mcq_toy]\nmodels=[", 1)
    only_mcq = only_mcq.replace("'gsm8k-toy',\n                'mcq-toy',", "'mcq-toy',")
    (configs / "29991231_235959_1.py").write_text(only_mcq)
    (configs / "20000101_000000_1.py").write_text(text.replace("abbr='toy-model'", "abbr='older'"))
    assert main(["eval", "-w", str(workdir), "-r", "--workers", "1"]) == 0  # -r alone: the latest run
    assert sorted(_results(workdir / RUN)) == ["mcq-toy"]
    capsys.readouterr()
    assert main(["summarize", "-w", str(workdir), "-r", RUN]) == 0
    out = capsys.readouterr().out
    assert "mcq-toy" in out and "gsm8k-toy" not in out


def test_without_config_a_run_must_be_named(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-w", str(workdir)]) == 2
    assert "no CONFIG given" in capsys.readouterr().err
    assert main(["eval", "-w", str(workdir), "-r", "19990101_000000"]) == 2
    assert "19990101_000000 does not exist" in capsys.readouterr().err
    shutil.rmtree(workdir / RUN / "configs")
    assert main(["summarize", "-w", str(workdir), "-r", RUN]) == 2
    assert "holds no dumped config" in capsys.readouterr().err


def test_dry_run_of_a_work_dir(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-w", str(workdir), "-r", RUN, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "ok     toy-model/gsm8k-toy: loader opencompass.datasets.GSM8KDataset [stand-in]; " in out
    assert "evaluator opencompass.datasets.Gsm8kEvaluator [built in]" in out
    assert "GSM8KDataset is a stand-in (assay does not implement it), and the test set is not on disk: " in out
    assert "dataset id 'opencompass/gsm8k' not found (looked for ./data/gsm8k/" in out
    assert "'data/toy/mcq.jsonl' not found" in out


def test_a_run_directory_given_as_work_dir_is_that_run(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = workdir / RUN
    assert main(["eval", "-w", str(run), "--workers", "1"]) == 0  # as summarize -w RUN_DIR reads it
    assert sorted(_results(run)) == ["gsm8k-toy", "mcq-toy"]
    assert sorted(p.name for p in run.iterdir()) == ["configs", "index.sqlite", "logs", "predictions", "results"]  # no new run inside
    assert f"run directory: {run}" in capsys.readouterr().err
    assert main(["run", "-w", str(run), "--workers", "1"]) == 0
    assert "reused" in capsys.readouterr().err
