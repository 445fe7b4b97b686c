"""``assay summarize --from inspect_ai PATH``: inspect_ai's logs as an assay run, its summary, ``compare`` and
``verify``, and a config mixing them with lm-evaluation-harness's results."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.sources import read_source

DATA = Path(__file__).parents[1] / "data" / "sources"
LOGS = DATA / "inspect_ai" / "logs" / "eval"
LM_EVAL = DATA / "lm_eval" / "out"
QUICKSTART = Path(__file__).parents[2] / "examples" / "quickstart"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("from")
    assert main(["summarize", "--from", "inspect_ai", str(LOGS), "-w", str(work), "--ci"]) == 0
    (run,) = list(work.iterdir())
    return run


def _csv(run: Path) -> dict[tuple[str, str], dict[str, str]]:
    (path,) = sorted((run / "summary").glob("summary_*.csv"))[-1:]
    # the csv, as OpenCompass writes it, shows commas in names as spaces
    return {(r["dataset"].replace(" ", ","), r["metric"].replace(" ", ",")): r for r in csv.DictReader(path.open())}


def test_every_scorer_metric_shows_inspects_number_in_percent(imported: Path) -> None:
    rows = _csv(imported)
    shown = 0
    for run in read_source("inspect_ai", LOGS):
        model = run.model.replace("/", "__")  # mockllm/scripted-a → mockllm__scripted-a
        for task, result in run.results.items():
            for metric, value in result.metrics.items():
                assert rows[(task, metric)][model] == f"{100 * value:.2f}", (task, metric)
                shown += 1
    assert shown == 6
    assert rows[("assay_arith", "includes/accuracy")]["mockllm__scripted-b"] == "91.67"  # 11 of 12


def test_result_files_name_the_tool_version_log_and_keep_its_stderr(imported: Path) -> None:
    result = json.loads((imported / "results" / "mockllm__scripted-a" / "assay_arith.json").read_text())
    source = result["_meta"]["source"]
    assert source["tool"] == "inspect_ai" and source["version"] == "0.3.285" and source["path"].endswith(".eval")
    assert source["metrics"]["match/accuracy"] == 0.25 and result["match/accuracy"] == 25.0
    assert source["stderr"]["match/accuracy"] == pytest.approx(0.1305582419667734)
    first = result["details"][0]
    assert first["id"] == "arith-0" and first["prediction"] == "33" and first["reference"] == "33"
    assert first["match/accuracy"] == 1.0


def test_verify_and_compare_two_inspect_models(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(imported)]) == 0
    capsys.readouterr()
    assert main(["compare", "-w", str(imported), "mockllm__scripted-a", "mockllm__scripted-b",
                 "--datasets", "assay_arith", "--metric", "includes/accuracy"]) == 0
    out = capsys.readouterr().out
    row = next(x for x in out.splitlines() if x.startswith("assay_arith"))
    # 12 samples paired; a: 5 right, b: 11 right
    assert " 12 " in row and "41.67" in row and "91.67" in row, out


def test_a_config_mixes_lm_eval_and_inspect_ai_sources_in_one_leaderboard(tmp_path: Path) -> None:
    folder = tmp_path / "quickstart"
    shutil.copytree(QUICKSTART, folder)
    config = folder / "config.py"
    sources = (f"[dict(type='lm_eval', path={str(LM_EVAL)!r}), "
               f"dict(type='inspect_ai', path={str(LOGS)!r}, models={{'mockllm/scripted-b': 'inspect-b'}}, "
               "datasets={'assay_arith': 'inspect_arith'})]")
    config.write_text(config.read_text() + f"\nsources = {sources}\n")
    assert main(["run", str(config), "-w", str(tmp_path / "w")]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    assert rows[("quick_mcq", "accuracy")]["chat-small"] == "80.00"
    assert rows[("assay_mcq_a", "acc,none")]["scripted-b"] == "93.75"
    assert rows[("inspect_arith", "match/accuracy")]["inspect-b"] == "75.00"
    assert rows[("assay_mcq", "choice/accuracy")]["mockllm__scripted-a"] == "50.00"
    # each tool's models have a value where that tool gave one, '-' elsewhere
    assert rows[("assay_arith", "exact_match,strict-match")]["scripted-a"] == "50.00"
    assert rows[("inspect_arith", "match/accuracy")]["scripted-a"] == "-"
    assert rows[("assay_arith", "exact_match,strict-match")]["inspect-b"] == "-"
    assert rows[("quick_mcq", "accuracy")]["inspect-b"] == "-"
    (html,) = (run / "summary").glob("summary_*.html")
    assert "inspect-b" in html.read_text() and "scripted-b" in html.read_text()
