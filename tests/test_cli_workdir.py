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


#: The model and dataset folder names OpenCompass derives when the dumped config has no abbr (see tests/config/test_abbr.py).
NO_ABBR_MODEL = "opencompass.models.OpenAI_org_toy-model"
NO_ABBR_MCQ = "data_toy_mcq.jsonl"


def _without_abbrs(workdir: Path, *, model_path: str = "org/toy-model") -> Path:
    """The work dir as an older OpenCompass run leaves it: no abbr for the model nor for the mcq dataset."""
    run = workdir / RUN
    (recorded,) = (RECORDED / "outputs" / "toy" / RUN / "configs").glob("*.py")
    dumped = run / "configs" / recorded.name
    text = dumped.read_text()
    text = text.replace("dict(abbr='toy-model',\n        ", "dict(").replace("path='toy-model'", f"path={model_path!r}")
    text = text.replace("dict(abbr='mcq-toy',\n        ", "dict(", 1).replace("'mcq-toy',\n", f"'{NO_ABBR_MCQ}',\n")
    dumped.write_text(text)
    preds = run / "predictions" / "toy-model"
    (preds / "mcq-toy.json").rename(preds / f"{NO_ABBR_MCQ}.json")
    preds.rename(run / "predictions" / NO_ABBR_MODEL)
    return dumped


def test_a_dumped_config_without_abbrs_finds_the_folders_opencompass_named(workdir: Path) -> None:
    _without_abbrs(workdir)
    assert main(["run", "-w", str(workdir), "-r", RUN, "--workers", "1", "--no-report"]) == 0
    results = {p.stem: json.loads(p.read_text()) for p in (workdir / RUN / "results" / NO_ABBR_MODEL).glob("*.json")}
    assert results[NO_ABBR_MCQ]["accuracy"] == _expected("toy-model", "mcq-toy")["accuracy"]
    assert results["gsm8k-toy"]["accuracy"] == _expected("toy-model", "gsm8k-toy")["accuracy"]


def test_a_missing_prediction_folder_names_the_folders_there(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _without_abbrs(workdir, model_path="org/toy-model-v2")
    (workdir / RUN / "predictions" / "unrelated").mkdir()
    assert main(["eval", "-w", str(workdir), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    looked = workdir / RUN / "predictions" / "opencompass.models.OpenAI_org_toy-model-v2"
    assert (
        f"prediction folder {looked} does not exist: the folders there are "
        f"'{NO_ABBR_MODEL}', 'unrelated'; the closest is '{NO_ABBR_MODEL}'"
    ) in err


def test_summarize_without_a_result_of_any_model_is_an_error(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-w", str(workdir), "-r", RUN, "--workers", "1"]) == 0
    dumped = _without_abbrs(workdir)
    capsys.readouterr()
    assert main(["summarize", str(dumped), "-w", str(workdir), "-r", RUN]) == 1
    captured = capsys.readouterr()
    assert (
        f"no model of the config has results in this run: looked for {workdir / RUN / 'results' / NO_ABBR_MODEL}/ "
        f"but {workdir / RUN / 'results'} holds 'toy-model' (closest: '{NO_ABBR_MODEL}': 'toy-model')"
    ) in captured.err
    assert captured.out == "" and not (workdir / RUN / "summary").exists(), "no table of '-'"


def test_a_run_directory_given_as_work_dir_is_that_run(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = workdir / RUN
    assert main(["eval", "-w", str(run), "--workers", "1"]) == 0  # as summarize -w RUN_DIR reads it
    assert sorted(_results(run)) == ["gsm8k-toy", "mcq-toy"]
    assert sorted(p.name for p in run.iterdir() if not p.name.startswith(".")) == ["configs", "index.sqlite", "logs", "predictions", "results"]  # no new run inside
    assert f"run directory: {run}" in capsys.readouterr().err
    assert main(["run", "-w", str(run), "--workers", "1"]) == 0
    assert "reused" in capsys.readouterr().err
