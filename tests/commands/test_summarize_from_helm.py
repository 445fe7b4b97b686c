"""``assay summarize --from helm PATH``: HELM's run folders as an assay run, its summary, ``compare`` and ``verify``."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.sources import read_source

OUT = Path(__file__).parents[1] / "data" / "sources" / "helm" / "benchmark_output"
ABBRS = {"assay/scripted-a": "assay__scripted-a", "assay/scripted-b": "assay__scripted-b"}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("from_helm")
    assert main(["summarize", "--from", "helm", str(OUT), "-w", str(work), "--ci"]) == 0
    (run,) = list(work.iterdir())
    return run


def _csv(run: Path) -> dict[tuple[str, str], dict[str, str]]:
    (path,) = (run / "summary").glob("summary_*.csv")
    return {(r["dataset"], r["metric"]): r for r in csv.DictReader(path.open())}


# HELM's statistics shown as they are: counts, sizes, times and log-probabilities
_AS_IS = ("num_", "batch_size", "inference_runtime", "logprob", "perplexity", "bits_per_byte", "ece_", "platt_",
          "selective_")


def test_every_statistic_shows_helms_mean_fractions_in_percent(imported: Path) -> None:
    rows = _csv(imported)
    for run in read_source("helm", OUT):
        model = ABBRS[run.model]
        for dataset, result in run.results.items():
            for metric, value in result.metrics.items():
                percent = not metric.startswith(_AS_IS)
                shown = rows[(dataset, metric)][model]
                assert shown == f"{(100 * value if percent else value):.2f}", (dataset, metric, shown)
    assert rows[("simple_classification", "num_train_trials")]["assay__scripted-b"] == "2.00"  # not 200 %
    assert rows[("simple_mcqa", "num_bytes")]["assay__scripted-a"] == "1.00"
    assert rows[("simple_classification", "exact_match")]["assay__scripted-b"] == "50.00"
    assert rows[("simple_classification", "quasi_exact_match")]["assay__scripted-b"] == "75.00"
    assert rows[("simple_classification", "classification_macro_f1")]["assay__scripted-b"] == "75.00"


def test_intervals_come_from_the_per_instance_values(imported: Path) -> None:
    (txt,) = (imported / "summary").glob("summary_*.txt")
    line = next(x for x in txt.read_text().splitlines() if x.startswith("simple_mcqa") and " exact_match " in x)
    # scripted-b: 6 of 8 right; a Wilson interval on the 8 instances
    assert "75.00[1] [40.93, 92.85]" in line  # [1]: HELM computed it
    macro = next(x for x in txt.read_text().splitlines() if "classification_macro_f1" in x)
    assert "[n/a]" in macro  # a statistic over the whole run: no per-instance values


def test_result_files_name_helm_the_run_folder_and_keep_replies(imported: Path) -> None:
    result = json.loads((imported / "results" / "assay__scripted-b" / "simple_classification.json").read_text())
    source = result["_meta"]["source"]
    assert source["tool"] == "helm" and source["model"] == "assay/scripted-b" and source["dataset"] == "simple_classification"
    assert Path(source["path"]).parent.name == "simple_classification:model=assay_scripted-b"
    assert source["metrics"]["exact_match"] == 0.5 and source["scale"]["exact_match"] == 100.0
    assert source["scale"]["num_prompt_tokens"] == 1.0 and "inconsistent" not in source
    first = result["details"][0]
    assert first["id"] == "id60@0" and first["prediction"] == "odd" and first["reference"] == ["Even"]
    assert first["exact_match"] == 0.0 and len(result["details"]) == 16


def test_verify_and_compare_two_helm_models(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(imported)]) == 0
    capsys.readouterr()
    assert main(["compare", "-w", str(imported), "assay__scripted-a", "assay__scripted-b", "--datasets", "simple_mcqa"]) == 0
    out = capsys.readouterr().out
    row = next(x for x in out.splitlines() if x.startswith("simple_mcqa"))
    # 8 instances paired; a: 5 right, b: 6 right; only b gets one of them right
    assert " 8 " in row and "62.50" in row and "75.00" in row and "0/1" in row


def test_a_config_mixes_helm_results_in_its_leaderboard(tmp_path: Path) -> None:
    folder = tmp_path / "quickstart"
    shutil.copytree(Path(__file__).parents[2] / "examples" / "quickstart", folder)
    config = folder / "config.py"
    config.write_text(config.read_text() + f"\nsources = [dict(type='helm', path={str(OUT)!r}, "
                      "models={'assay/scripted-b': 'helm-b'}, datasets={'simple_mcqa': 'parity_mcq'})]\n")
    assert main(["run", str(config), "-w", str(tmp_path / "w")]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    assert rows[("quick_mcq", "accuracy")]["chat-small"] == "80.00"
    assert rows[("parity_mcq", "exact_match")]["helm-b"] == "75.00"
    assert rows[("parity_mcq", "exact_match")]["assay__scripted-a"] == "62.50"
