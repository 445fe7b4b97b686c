"""``assay summarize --from lm_eval PATH``: lm-evaluation-harness's results as an assay run, its summary,
intervals, report, ``compare`` and ``verify``."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.rundir.layout import RunDir
from assay.rundir.sources import write_sources
from assay.sources import read_source

OUT = Path(__file__).parents[1] / "data" / "sources" / "lm_eval" / "out"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("from")
    assert main(["summarize", "--from", "lm_eval", str(OUT), "-w", str(work), "--ci"]) == 0
    (run,) = list(work.iterdir())
    return run


def _csv(run: Path) -> dict[tuple[str, str], dict[str, str]]:
    """The summary's csv rows by (dataset, metric); the csv, as OpenCompass writes it, shows commas in names as spaces."""
    (path,) = (run / "summary").glob("summary_*.csv")
    return {(r["dataset"].replace(" ", ","), r["metric"].replace(" ", ",")): r for r in csv.DictReader(path.open())}


def test_every_task_metric_and_group_shows_lm_evals_number_in_percent(imported: Path) -> None:
    rows = _csv(imported)
    for run in read_source("lm_eval", OUT):
        for task, result in run.results.items():
            for metric, value in result.metrics.items():
                assert rows[(task, metric)][run.model] == f"{100 * value:.2f}", (task, metric)
        # the group: lm-evaluation-harness weights acc by size (28 = 16 + 12) and acc_norm not
        suite = run.groups["assay_mcq_suite"]
        assert rows[("assay_mcq_suite", "weighted_average")][run.model] == f"{100 * suite.metrics['acc,none']:.2f}"
        assert rows[("assay_mcq_suite/acc_norm,none", "naive_average")][run.model] == f"{100 * suite.metrics['acc_norm,none']:.2f}"


def test_intervals_of_0_1_samples_are_wilson_and_stay_in_range(imported: Path) -> None:
    (txt,) = (imported / "summary").glob("summary_*.txt")
    line = next(x for x in txt.read_text().splitlines() if x.startswith("assay_mcq_a") and "acc,none" in x)
    # scripted-b: 15 of 16 right; the Wilson interval stays below 100 (the footnote [1]: lm-evaluation-harness computed it)
    assert "93.75[1] [71.67, 98.89]" in line


def test_result_files_name_the_tool_version_and_files(imported: Path) -> None:
    result = json.loads((imported / "results" / "scripted-a" / "assay_arith.json").read_text())
    source = result["_meta"]["source"]
    assert source["tool"] == "lm_eval" and source["version"] == "0.4.13"
    assert Path(source["path"]).name.startswith("results_") and Path(source["samples_path"]).name.startswith("samples_assay_arith_")
    assert source["metrics"]["exact_match,strict-match"] == 0.5 and source["scale"]["exact_match,strict-match"] == 100.0
    assert result["exact_match,strict-match"] == 50.0
    first = result["details"][0]
    assert first["id"] == "0" and first["prediction"] == "I think it is 33." and first["extracted"]["strict-match"] == "[invalid]"
    assert (imported / "summary").glob("summary_*.html")


def test_verify_and_compare_read_the_imported_run(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(imported)]) == 0
    capsys.readouterr()
    assert main(["compare", "-w", str(imported), "scripted-a", "scripted-b", "--datasets", "assay_mcq_b"]) == 0
    out = capsys.readouterr().out
    row = next(x for x in out.splitlines() if x.startswith("assay_mcq_b"))
    # 12 documents paired; a: 4 right, b: 11 right; no document only a gets right
    assert " 12 " in row and "33.33" in row and "91.67" in row and "0/7" in row


def test_names_map_and_the_tools_own_scale_on_request(tmp_path: Path) -> None:
    assert main(["summarize", "--from", "lm_eval", str(OUT / "scripted-b"), "-w", str(tmp_path), "--tool-scale",
                 "--map", "scripted-b=model-b", "--map", "assay_arith=arith", "--no-report"]) == 0
    (run,) = list(tmp_path.iterdir())
    rows = _csv(run)
    assert rows[("arith", "exact_match,flexible-extract")]["model-b"] == "0.83"


def test_two_results_mapped_to_one_cell_are_refused_naming_both(tmp_path: Path) -> None:
    runs = read_source("lm_eval", OUT)
    with pytest.raises(InputFileError, match=r"would be written as same/assay_arith, which .*results_.*\.json already gives"):
        write_sources(RunDir(tmp_path / "run"), runs, models={"scripted-a": "same", "scripted-b": "same"})


def test_a_group_its_members_cannot_rebuild_is_a_row_of_its_own(tmp_path: Path) -> None:
    shutil.copytree(OUT / "scripted-a", tmp_path / "out" / "scripted-a")
    (results,) = (tmp_path / "out" / "scripted-a").glob("results_*.json")
    data = json.loads(results.read_text())
    data["groups"]["assay_mcq_suite"]["acc,none"] = 0.6  # neither average of its members
    results.write_text(json.dumps(data))
    assert main(["summarize", "--from", "lm_eval", str(tmp_path / "out"), "-w", str(tmp_path / "w"), "--no-report"]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    assert rows[("assay_mcq_suite", "acc,none")]["scripted-a"] == "60.00"
    assert rows[("assay_mcq_suite/acc_norm,none", "naive_average")]["scripted-a"] == "47.92"


def test_from_refuses_a_config_or_a_run_to_reuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summarize", "x.py", "--from", "lm_eval", str(OUT), "-w", str(tmp_path)]) == 2
    assert "--from summarizes the tool's results in a new run directory" in capsys.readouterr().err


QUICKSTART = Path(__file__).parents[2] / "examples" / "quickstart"


def _mixed_config(tmp_path: Path, sources: str) -> Path:
    folder = tmp_path / "quickstart"
    shutil.copytree(QUICKSTART, folder)
    config = folder / "config.py"
    config.write_text(config.read_text() + f"\nsources = {sources}\n")
    return config


def test_a_config_mixes_its_own_results_with_lm_evals_in_one_leaderboard(tmp_path: Path) -> None:
    config = _mixed_config(tmp_path, f"[dict(type='lm_eval', path={str(OUT)!r}, models={{'scripted-b': 'lm-b'}})]")
    assert main(["run", str(config), "-w", str(tmp_path / "w")]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    # the config's own models and datasets, and lm-evaluation-harness's, in one table
    assert rows[("quick_mcq", "accuracy")]["chat-small"] == "80.00"
    assert rows[("assay_mcq_a", "acc,none")]["lm-b"] == "93.75" and rows[("assay_mcq_a", "acc,none")]["scripted-a"] == "68.75"
    assert rows[("assay_mcq_suite", "weighted_average")]["lm-b"] == "92.86"
    assert rows[("quick_mcq", "accuracy")]["lm-b"] == "-" and rows[("assay_mcq_a", "acc,none")]["chat-small"] == "-"
    (html,) = (run / "summary").glob("summary_*.html")
    assert "lm-b" in html.read_text()
    # a later summary of the run reads the sources again, to the same table
    (first,) = (run / "summary").glob("summary_*.csv")
    before = first.read_text()
    assert main(["summarize", str(config), "-w", str(run), "--no-report", "-o", str(tmp_path / "again.txt")]) == 0
    assert (tmp_path / "again.csv").read_text() == before


def test_a_source_that_would_overwrite_the_configs_own_result_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mapping = "models={'scripted-a': 'chat-small'}, datasets={'assay_arith': 'quick_numeric'}"
    config = _mixed_config(tmp_path, f"[dict(type='lm_eval', path={str(OUT)!r}, {mapping})]")
    assert main(["run", str(config), "-w", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert "sources[0]: lm_eval result of model 'scripted-a' on 'assay_arith' would be chat-small/quick_numeric" in err
    assert "the config's own dataset 'quick_numeric' gives too" in err
    assert not list((tmp_path / "w").rglob("*.json"))  # nothing scored, nothing written


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        ("[dict(type='helmet', path='.')]", "sources[0].type is 'helmet'; assay reads: helm, inspect_ai, lm_eval"),
        ("[dict(type='lm_eval', path='no/such/folder')]", "sources[0].path 'no/such/folder'"),
        ("[dict(type='lm_eval', path='.', models=['a'])]", "sources[0].models must map the tool's names to abbrs"),
        ("[dict(type='lm_eval', path='.', scale=1)]", "sources[0]: unknown key(s) ['scale']"),
        ("dict(type='lm_eval')", "sources must be a list of dicts, got dict"),
    ],
)
def test_bad_sources_name_the_config_and_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sources: str, message: str
) -> None:
    config = _mixed_config(tmp_path, sources)
    assert main(["run", str(config), "-w", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert str(config) in err and message in err


def _lm_copy(tmp_path: Path, model: str = "scripted-a") -> Path:
    target = tmp_path / "lm" / model
    shutil.copytree(OUT / model, target)
    return target


def test_a_summary_config_whose_source_would_replace_an_opencompass_result_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "w" / "20250101_000000"
    existing = run / "results" / "scripted-a" / "assay_mcq_a.json"
    existing.parent.mkdir(parents=True)
    existing.write_text('{"accuracy": 80.0}')  # as OpenCompass leaves it
    config = tmp_path / "config.py"
    config.write_text(
        "models = [dict(abbr='scripted-a')]\ndatasets = [dict(abbr='assay_mcq_a')]\n"
        f"sources = [dict(type='lm_eval', path={str(OUT / 'scripted-a')!r})]\n"
    )
    assert main(["summarize", str(config), "-w", str(run), "--no-report"]) == 2
    err = capsys.readouterr().err
    assert "would be scripted-a/assay_mcq_a, which the config's own dataset 'assay_mcq_a' gives too" in err
    assert existing.read_text() == '{"accuracy": 80.0}' and sorted(p.name for p in existing.parent.iterdir()) == ["assay_mcq_a.json"]


def test_an_import_that_would_replace_a_result_of_another_kind_writes_nothing(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    theirs = run.result_path("scripted-b", "assay_mcq_b")
    theirs.parent.mkdir(parents=True)
    theirs.write_text('{"accuracy": 80.0}')
    with pytest.raises(InputFileError, match=r"assay_mcq_b\.json holds a result not imported from another tool .* Nothing was written"):
        write_sources(run, read_source("lm_eval", OUT))
    assert theirs.read_text() == '{"accuracy": 80.0}'
    assert not (run.results / "scripted-a").exists() and sorted(p.name for p in theirs.parent.iterdir()) == ["assay_mcq_b.json"]
    # two runs mapped to one cell: refused before the first file is written too
    with pytest.raises(InputFileError, match=r"nothing was written"):
        write_sources(RunDir(tmp_path / "run2"), read_source("lm_eval", OUT), models={"scripted-a": "same", "scripted-b": "same"})
    assert not (tmp_path / "run2").exists()
    # a result imported from the same tool before is replaced (a summary reads its sources again)
    first = write_sources(RunDir(tmp_path / "run3"), read_source("lm_eval", OUT))
    again = write_sources(RunDir(tmp_path / "run3"), read_source("lm_eval", OUT))
    assert first.written == again.written


def test_one_metric_row_has_one_scale_whether_or_not_a_model_logged_samples(tmp_path: Path) -> None:
    folder_b = _lm_copy(tmp_path, "scripted-b")
    _lm_copy(tmp_path, "scripted-a")
    for samples in folder_b.glob("samples_*.jsonl"):
        samples.unlink()
    # a metric whose name says nothing: its scale comes from the samples model a logged
    for results in (tmp_path / "lm").rglob("results_*.json"):
        results.write_text(results.read_text().replace("acc_norm", "score"))
    for samples in (tmp_path / "lm").rglob("samples_*.jsonl"):
        samples.write_text(samples.read_text().replace("acc_norm", "score"))
    assert main(["summarize", "--from", "lm_eval", str(tmp_path / "lm"), "-w", str(tmp_path / "w"), "--no-report"]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    assert rows[("assay_mcq_a", "score,none")]["scripted-a"] == "62.50" and rows[("assay_mcq_a", "score,none")]["scripted-b"] == "93.75"


def test_a_size_weighted_group_whose_models_have_different_sizes_is_a_row_per_model(tmp_path: Path) -> None:
    for model in ("scripted-a", "scripted-b"):
        _lm_copy(tmp_path, model)
    # model b scored only 8 of assay_mcq_b's 12 documents: its weighted group value differs from a's weights
    (results,) = (tmp_path / "lm" / "scripted-b").glob("results_*.json")
    (samples,) = (tmp_path / "lm" / "scripted-b").glob("samples_assay_mcq_b_*.jsonl")
    kept = samples.read_text().splitlines()[:8]
    samples.write_text("\n".join(kept) + "\n")
    data = json.loads(results.read_text())
    values = [json.loads(line)["acc"] for line in kept]
    data["results"]["assay_mcq_b"]["acc,none"] = sum(values) / 8
    data["results"]["assay_mcq_b"].pop("acc_stderr,none")
    data["n-samples"]["assay_mcq_b"]["effective"] = 8
    a = data["results"]["assay_mcq_a"]["acc,none"]
    data["groups"]["assay_mcq_suite"]["acc,none"] = (16 * a + sum(values)) / 24
    results.write_text(json.dumps(data))
    assert main(["summarize", "--from", "lm_eval", str(tmp_path / "lm"), "-w", str(tmp_path / "w"), "--no-report"]) == 0
    (run,) = list((tmp_path / "w").iterdir())
    rows = _csv(run)
    assert rows[("assay_mcq_suite", "acc,none")]["scripted-b"] == f"{100 * (16 * a + sum(values)) / 24:.2f}"
    assert rows[("assay_mcq_suite", "acc,none")]["scripted-a"] == "53.57"


def test_two_imports_started_in_one_second_get_run_directories_of_their_own(tmp_path: Path) -> None:
    from assay.commands.summarize import _new_run_dir

    first, second = _new_run_dir(str(tmp_path)), _new_run_dir(str(tmp_path))
    assert first.root != second.root and first.root.is_dir() and second.root.is_dir()


@pytest.mark.parametrize(("key", "value"), [("n-samples", [1, 2]), ("higher_is_better", "yes"), ("group_subtasks", [])])
def test_a_results_member_of_the_wrong_type_is_an_error_naming_the_file(tmp_path: Path, key: str, value: object) -> None:
    folder = _lm_copy(tmp_path)
    (results,) = folder.glob("results_*.json")
    data = json.loads(results.read_text())
    data[key] = value
    results.write_text(json.dumps(data))
    with pytest.raises(InputFileError, match=rf"{re.escape(str(results))}: '{key}' is"):
        read_source("lm_eval", tmp_path / "lm")
