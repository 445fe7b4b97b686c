"""Statistics of a whole run directory."""

from __future__ import annotations

import json
from pathlib import Path

from assay.stats import format_with_ci, run_stats
from assay.summarize import leaderboard_of
from tests.stats.workdir_builder import TIME, make_run


def test_every_summary_cell_gets_an_interval_or_a_reason(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    stats = run_stats(run, leaderboard_of(None, run))
    assert stats.cell("m1", "mcq", "accuracy").method == "wilson"
    assert stats.cell("m1", "rep", "accuracy (4 runs average)").method == "t"
    assert stats.cell("m1", "summ", "rouge1").method == "t"
    assert stats.cell("m1", "core", "naive_average").method == "propagated"
    assert stats.cell("m1", "spread", "standard_deviation").method == "simulated"
    assert stats.cell("m1", "overall", "naive_average").has_interval
    no_ci = stats.cell("m1", "mcc", "matthews_correlation")
    assert not no_ci.has_interval and "matthews_correlation" in no_ci.reason
    assert not stats.cell("m1", "broken", "accuracy").has_interval
    assert stats.cell("m2", "broken", "accuracy") is None
    summary = json.loads((run / "summary" / f"summary_{TIME}.json").read_text())
    for column, per in summary["scores"].items():
        for abbr, metrics in per.items():
            for metric, value in metrics.items():
                stat = stats.cell(column, abbr, metric)
                assert stat is not None and stat.value == value
                if stat.has_interval:
                    assert stat.low <= value <= stat.high
    u = stats.unscorable[("m1", "mcq")]
    assert u.unextracted and u.bounds["accuracy"][0] <= summary["scores"]["m1"]["mcq"]["accuracy"] <= u.bounds["accuracy"][1]
    data = stats.to_json()
    assert data["cells"]["m1"]["mcq"]["accuracy"]["method"] == "wilson"
    assert format_with_ci(60.0, stats.cell("m1", "mcc", "matthews_correlation")) == "60.00 [n/a]"


def test_same_run_gives_the_same_intervals(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    assert run_stats(run, leaderboard_of(None, run)).to_json() == run_stats(run, leaderboard_of(None, run)).to_json()


def test_summarizer_result_object_is_accepted(tmp_path: Path) -> None:
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    run = make_run(tmp_path, summarize=False)
    result = run_summarizer(run_config(run), time_str=TIME)
    stats = run_stats(run, result)
    assert stats.cell("m2", "core_weighted", "weighted_average").method == "propagated"


def test_statistics_read_from_the_index_equal_those_read_from_the_files(tmp_path: Path, monkeypatch) -> None:
    """Cells kept as JSON from the run index build the same objects and the same .json as the files give."""
    import pickle

    import orjson

    import assay.stats._tasks as tasks_module
    from assay.fileio import dumps_json
    from assay.rundir.index import RunIndex
    from assay.stats import index_run

    run = make_run(tmp_path)
    from_files = run_stats(run, leaderboard_of(None, run), index=False)
    index_run(run)
    snapshot = RunIndex(run).snapshot()
    real = tasks_module.run_task
    read: list[str] = []

    def spy(task, options):
        read.append(task.abbr)
        return real(task, options)

    monkeypatch.setattr(tasks_module, "run_task", spy)
    from_index = run_stats(run, leaderboard_of(None, run), snapshot=snapshot)
    assert read == []  # no result file was read for its statistics
    assert from_index.to_json() == from_files.to_json()  # written out without building a cell
    written = orjson.loads(dumps_json(from_index.to_json(fragments=True)))  # as the summary writes it: unparsed
    assert written == from_files.to_json()
    assert sorted(from_index.cells) == sorted(from_files.cells)
    for key in from_files.cells:
        assert from_index.cells[key] == from_files.cells[key], key
    assert dict(from_index.unscorable) == dict(from_files.unscorable)
    again = pickle.loads(pickle.dumps(from_index))
    assert again.to_json() == from_files.to_json()


def test_a_summary_from_the_index_writes_what_one_from_the_files_writes(tmp_path: Path, monkeypatch) -> None:
    """The summary's .json (every score, interval and unscorable count) is the same with and without the index."""
    from assay.stats import index_run
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    run = make_run(tmp_path, summarize=False)
    config = run_config(run)
    index_run(run)
    with_index = run_summarizer(config, time_str="20240101_000001")
    monkeypatch.setenv("ASSAY_NO_INDEX", "1")
    without = run_summarizer(config, time_str="20240101_000002")
    a = json.loads(with_index.paths["json"].read_text())
    b = json.loads(without.paths["json"].read_text())
    assert a.pop("time") != b.pop("time")
    assert a["stats"]["unscorable"] and a["stats"]["cells"]
    assert a == b
    assert with_index.paths["txt"].read_text().split("\n", 1)[1] == without.paths["txt"].read_text().split("\n", 1)[1]
