"""Statistics of a run directory: every cell's interval, read once from the index, the ``.stats`` files or the
results (in forked readers for large runs), and kept in the index."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay.rundir.statistics as statistics
from assay.rundir.statistics import Task, index_run, pool_size, run_stats, run_tasks
from assay.stats import SAMPLE_TEXT, StatsOptions, format_with_ci
from assay.summarize import leaderboard_of
from tests.stats.varied_run import make_varied_run
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


def test_the_groups_come_from_the_config_the_command_line_reads(tmp_path: Path) -> None:
    """The run's config is its newest dumped one by the time in the file name, as ``assay summarize -r`` takes it,
    not the file touched last: an older run's config copied in later does not take the groups away."""
    import time

    from assay.rundir.configs import newest_dumped_config
    from assay.rundir.layout import RunDir
    from assay.rundir.statistics import load_run_config
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    run = make_run(tmp_path, summarize=False)
    result = run_summarizer(run_config(run), time_str=TIME)
    copied = run / "configs" / "20230101_000000_9.py"
    copied.write_text("models = [{'abbr': 'm1'}]\ndatasets = []\n")
    later = time.time() + 3600
    os.utime(copied, (later, later))
    assert newest_dumped_config(RunDir(run)).name == f"{TIME}_1.py"
    config = load_run_config(run)
    assert config is not None and config["summarizer"]["summary_groups"] and config["work_dir"] == str(run)
    stats = run_stats(run, result)
    assert stats.cell("m2", "core_weighted", "weighted_average").method == "propagated"


def test_a_run_without_a_dumped_config_has_none(tmp_path: Path) -> None:
    from assay.rundir.statistics import load_run_config

    assert load_run_config(tmp_path) is None
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / f"{TIME}_1.py").write_text("raise ValueError('broken')\n")
    assert load_run_config(tmp_path) is None  # one that no longer loads: logged, done without


def test_statistics_read_from_the_index_equal_those_read_from_the_files(tmp_path: Path, monkeypatch) -> None:
    """Cells kept as JSON from the run index build the same objects and the same .json as the files give."""
    import pickle

    import orjson

    from assay.fileio import dumps_json
    from assay.rundir.index import RunIndex

    run = make_run(tmp_path)
    from_files = run_stats(run, leaderboard_of(None, run), index=False)
    index_run(run)
    snapshot = RunIndex(run).snapshot()
    real = statistics.run_task
    read: list[str] = []

    def spy(task, run_dir, options):
        read.append(task.abbr)
        return real(task, run_dir, options)

    monkeypatch.setattr(statistics, "run_task", spy)
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


# -- reading the results: in this process or in forked readers ------------------------------------------

needs_fork = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")


@pytest.fixture
def forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork even when an earlier test left a thread behind (the children only read files and exit)."""
    monkeypatch.setattr(statistics, "_fork_allowed", lambda: "fork" in multiprocessing.get_all_start_methods())


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_varied_run(tmp_path_factory.mktemp("varied"))


def _same_stats(a: Any, b: Any) -> None:
    assert list(a.cells) == list(b.cells)
    assert a.to_json() == b.to_json()
    assert a.unscorable == b.unscorable
    assert a.tables == b.tables
    assert list(a.samples) == list(b.samples)
    for key, sv in a.samples.items():
        other = b.samples[key]
        assert (sv.kind, sv.basis, sv.runs, sv.scale) == (other.kind, other.basis, other.runs, other.scale)
        assert np.array_equal(sv.units, other.units)
        assert sv.estimate() == other.estimate()


@needs_fork
@pytest.mark.usefixtures("forking_allowed")
def test_forked_workers_give_what_this_process_gives(varied: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    real = statistics._run_forked

    def spy(tasks: Any, run_dir: str, options: Any, size: int) -> Any:
        forked.append(size)
        return real(tasks, run_dir, options, size)

    monkeypatch.setattr(statistics, "_run_forked", spy)
    here = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, keep_samples=True, workers=1)
    assert not forked
    pooled = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, keep_samples=True, workers=2)
    assert forked == [2]
    _same_stats(here, pooled)
    assert here.cell("m1", "bleu", "score").method == "bootstrap"  # a corpus statistic travels back too
    assert here.tables is not None and here.tables.columns[("m1", "plain")] is not None


@needs_fork
@pytest.mark.usefixtures("forking_allowed")
def test_an_error_in_a_worker_is_raised_here(varied: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.stats._result as result_module

    parent = os.getpid()
    real = result_module.sample_values

    def failing(result: Any, metric: str, *args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent and metric.startswith("accuracy (3 runs"):
            raise ValueError("broken detail")
        return real(result, metric, *args, **kwargs)

    monkeypatch.setattr(result_module, "sample_values", failing)
    with pytest.raises(ValueError, match="broken detail"):
        run_stats(varied, leaderboard_of(None, varied), workers=2, index=False)  # read the files, not statistics the index kept


@needs_fork
@pytest.mark.usefixtures("forking_allowed")
def test_tasks_of_a_worker_that_died_are_read_here(
    varied: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    expected = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, workers=1)
    parent = os.getpid()
    real = statistics.run_task

    def dying(task: Task, run_dir: str, options: StatsOptions) -> Any:
        if os.getpid() != parent and (task.column, task.abbr) == ("m2", "plain"):
            os._exit(3)
        return real(task, run_dir, options)

    monkeypatch.setattr(statistics, "run_task", dying)
    with caplog.at_level(logging.WARNING, logger="assay.rundir.statistics"):
        got = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, workers=2)
    _same_stats(expected, got)
    assert "reading them here" in caplog.text


def test_small_runs_are_read_in_this_process(varied: Path) -> None:
    tasks = [Task(m, "plain", m, {"accuracy": 50.0}) for m in ("m1", "m2", "m3")]
    assert pool_size(tasks, str(varied), None) == 1
    assert pool_size(tasks[:1], str(varied), 4) == 1
    outputs = run_tasks(tasks, str(varied), StatsOptions(), workers=1)
    assert all("is not 100 × mean(correct)" in str(o.cells["accuracy"].reason) for o in outputs)
    assert all(o.columns is None and o.unscorable is not None for o in outputs)


def test_group_intervals_of_the_whole_run_are_each_models_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's group cells (every model's at once, the dataset cells read as the run index keeps them,
    no cell object built for them) are to the last bit those of each model computed alone from its dataset cells."""
    from assay.cli import main
    from assay.groups import SummaryGroup
    from assay.stats import CellStat, group_plan, group_stats
    from tests.report.board_run import GROUPS, MODELS, make_board_run
    from tests.report.board_run import TIME as BOARD_TIME

    run, config = make_board_run(tmp_path)
    assert main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", BOARD_TIME, "--no-report"]) == 0
    index_run(run)  # the dataset cells' statistics kept in the run index, as after ``assay eval``
    view = leaderboard_of(None, run)
    built: list[Any] = []
    original = CellStat.from_json.__func__  # type: ignore[attr-defined]
    with monkeypatch.context() as patch:
        patch.setattr(CellStat, "from_json", classmethod(lambda cls, d: built.append(d) or original(cls, d)))
        stats = run_stats(run, view)
    assert not built
    groups = [SummaryGroup.from_config(g) for g in GROUPS]
    plans = {g.name: group_plan(g, view.metrics) for g in groups}
    for model in MODELS:
        base = {(a, m): stats.cells[(model, a, m)] for a in view.dataset_abbrs for m in view.scores[model].get(a, {})}
        alone = group_stats(groups, view.scores[model], view.metrics, base, column=model, plans=plans)
        assert alone and all(stats.cell(model, a, m) == stat for (a, m), stat in alone.items())
        assert stats.cell(model, "overall", "naive_average").method == "propagated"
