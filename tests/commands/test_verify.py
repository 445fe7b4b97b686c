"""``assay verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from tests.stats.workdir_builder import TIME, make_run


def test_untouched_run_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    assert main(["verify", str(run.parent)]) == 0
    out = capsys.readouterr().out
    assert "0 do not match" in out
    assert "values checked" in out and "could not be checked" in out


def test_hand_edited_result_value_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    path = run / "results" / "m2" / "qa.json"
    data = json.loads(path.read_text())
    data["accuracy"] += 5
    path.write_text(json.dumps(data, indent=4))
    assert main(["verify", str(run.parent), "-r", TIME]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH results/m2/qa.json: accuracy" in out


def test_hand_edited_run_average_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path, summarize=False)
    path = run / "results" / "m1" / "rep.json"
    data = json.loads(path.read_text())
    data["details"][0]["correct"] = [not f for f in data["details"][0]["correct"]]
    path.write_text(json.dumps(data, indent=4))
    assert main(["verify", str(run.parent)]) == 1
    assert "results/m1/rep.json: accuracy (4 runs average)" in capsys.readouterr().out


def test_hand_edited_group_in_summary_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    path = run / "summary" / f"summary_{TIME}.json"
    data = json.loads(path.read_text())
    data["scores"]["m1"]["core_weighted"]["weighted_average"] += 0.5
    path.write_text(json.dumps(data, indent=2))
    assert main(["verify", str(run.parent)]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH summary/summary_{TIME}.json: weighted_average" in out


def test_gpass_is_recomputed_from_run_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assay.evaluate.gpass import g_pass_at_k

    run = tmp_path / "w" / TIME
    details = [{"correct": [True, False, True, True], "example_abbr": "aime_0"},
               {"correct": [False, False, True, False], "example_abbr": "aime_1"}]
    value = 100 * (g_pass_at_k(4, 3, 2, 0.5) + g_pass_at_k(4, 1, 2, 0.5)) / 2
    result = {"accuracy (4 runs average)": 50.0, "G-Pass@2_0.5": value, "aime/G-Pass@2_0.5": value, "details": details}
    path = run / "results" / "m" / "aime.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(result))
    assert main(["verify", str(run.parent)]) == 0
    result["aime/G-Pass@2_0.5"] = value + 1
    path.write_text(json.dumps(result))
    assert main(["verify", str(run.parent)]) == 1
    assert "aime/G-Pass@2_0.5" in capsys.readouterr().out


def test_a_run_directory_is_accepted_and_its_subfolders_are_never_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)  # summary/ is the newest folder inside the run
    summary = run / "summary"
    summary.touch()
    assert main(["verify", str(run)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith(f"{run}: ")
    assert " 0 values checked" not in out
    path = run / "results" / "m2" / "qa.json"
    data = json.loads(path.read_text())
    data["accuracy"] += 5
    path.write_text(json.dumps(data, indent=4))
    assert main(["verify", str(run)]) == 1
    assert "MISMATCH results/m2/qa.json: accuracy" in capsys.readouterr().out


def test_the_newest_run_skips_folders_that_are_not_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    (run.parent / "20990101_000000" / "logs").mkdir(parents=True)  # newer name, but no run
    assert main(["verify", str(run.parent)]) == 0
    assert f"{run}: " in capsys.readouterr().out


def test_checking_nothing_fails_and_says_what_was_looked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "w" / TIME
    (run / "predictions" / "m").mkdir(parents=True)
    assert main(["verify", str(run)]) == 1
    captured = capsys.readouterr()
    assert "0 values checked" in captured.out
    assert "nothing was verified" in captured.err
    assert str(run / "results") in captured.err and "found none" in captured.err
    # result files whose metrics no rule can recompute: also a failure, with the count
    _write_json(run / "results" / "m" / "d.json", {"mcc": 0.3, "details": [{"pred": "a"}]})
    assert main(["verify", str(run.parent)]) == 1
    err = capsys.readouterr().err
    assert "found 1 result file(s)" in err and "1 value(s) could not be checked" in err


def test_work_dir_without_runs_is_an_error_naming_what_a_run_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "w"
    (work / "summary").mkdir(parents=True)
    (work / "logs").mkdir()
    assert main(["verify", str(work)]) == 2
    err = capsys.readouterr().err
    assert "holds results/ or predictions/" in err
    run = make_run(tmp_path)
    assert main(["verify", str(run), "-r", TIME]) == 2
    assert "is itself a run directory" in capsys.readouterr().err


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_a_result_replaced_with_the_same_size_and_times_after_indexing_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The summary indexed the run; a result rewritten by hand keeps its size and times: verify names it."""
    import os

    run = make_run(tmp_path)  # summarized, so indexed
    assert (run / "index.sqlite").is_file()
    path = run / "results" / "m1" / "qa.json"
    before = path.stat()
    text = path.read_text()
    edited = text.replace('"accuracy": 6', '"accuracy": 7', 1)
    assert edited != text and len(edited) == len(text)
    path.write_text(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert main(["verify", str(run.parent), "-r", TIME]) == 1
    out = capsys.readouterr().out
    assert "note: results/m1/qa.json changed since it was indexed" in out
    assert "MISMATCH summary/" in out and "m1/qa" in out  # the summary no longer matches the file
    capsys.readouterr()
    main(["verify", str(run.parent), "-r", TIME])
    assert "changed since it was indexed" not in capsys.readouterr().out  # the index was repaired


def test_a_summary_json_that_is_not_a_summary_is_a_problem_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The result files are checked all the same; the summary is named with what is wrong with it."""
    run = make_run(tmp_path)
    path = run / "summary" / f"summary_{TIME}.json"
    path.write_text(json.dumps({"models": ["m1"], "scores": {"m1": [50.0]}}))
    assert main(["verify", str(run.parent)]) == 1
    out = capsys.readouterr().out
    assert f"PROBLEM summary/summary_{TIME}.json: not a summary .json this version reads" in out
    assert "0 do not match" in out and " 0 values checked" not in out
