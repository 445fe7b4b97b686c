"""The leaderboard page: models ranked by a group, sorting, filtering, groups opened into their datasets,
the full table one click away, badges, and sample data read when a dataset is opened.

The browser tests need the Debian packages ``chromium`` and ``chromium-driver``
and the PyPI package ``selenium``; they are skipped (with the reason) when one
is missing.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.report import build_report_data, cell_tip, write_html_report
from tests.report.board_run import GROUPS, MODELS, TIME, make_board_run
from tests.report.pages import board_data, sample_data, wait_drawn


@pytest.fixture(scope="module")
def board_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The run summarized by ``assay summarize`` (report included); (run directory, summary .json)."""
    root = tmp_path_factory.mktemp("board")
    run, config = make_board_run(root)
    assert main(["summarize", str(config), "-w", str(root / "work"), "-r", TIME]) == 0
    (summary,) = (run / "summary").glob("summary_*.json")
    return run, json.loads(summary.read_text())


def _ranking(run: Path) -> dict[str, Any]:
    from assay.rundir.ranking import run_ranking
    from assay.rundir.statistics import run_stats
    from assay.summarize import leaderboard_of

    view = leaderboard_of(None, run)
    return run_ranking(run, view, run_stats(run, view))


def _overall(summary: dict[str, Any]) -> dict[str, float]:
    return {m: summary["scores"][m]["overall"]["naive_average"] for m in MODELS}


def test_the_leaderboard_ranks_by_the_last_top_level_group(board_run) -> None:
    run, summary = board_run
    data = build_report_data(run)
    assert data["rank_by"] == {"dataset": "overall", "metric": "naive_average"}
    groups = {g["name"]: g for g in data["groups"]}
    assert [g["name"] for g in data["groups"]] == [g["name"] for g in GROUPS]
    assert [g["name"] for g in data["groups"] if g["top"]] == ["overall"]
    # a group's inputs are its datasets, each the table's row (the same cells)
    knowledge = groups["knowledge"]
    assert [i["dataset"] for i in knowledge["inputs"]] == ["trivia", "geo", "bio", "chem"]
    geo = data["rows"][knowledge["inputs"][1]["row"]]
    assert geo["dataset"] == "geo"
    assert [c[0] for c in geo["cells"]] == [summary["scores"][m]["geo"]["accuracy"] for m in MODELS]


def test_the_page_holds_the_runs_rank_intervals_in_its_model_order(board_run) -> None:
    run, _ = board_run
    data = build_report_data(run)
    expected = _ranking(run)
    assert set(data["rankings"]["rankings"]) == set(expected["rankings"]) >= {"overall", "arith", "chem"}
    for abbr, ranking in expected["rankings"].items():
        held = data["rankings"]["rankings"][abbr]
        assert held["ties"] == ranking["ties"] and held["metric"] == ranking["metric"]
        for e in ranking["models"]:
            assert held["ranks"][MODELS.index(e["model"])] == [e["rank"], e["rank_low"], e["rank_high"], e["tier"]]
    assert data["rankings"]["pairs"] == expected["pairs"]


def test_every_column_ranked_by_default_up_to_the_limit_the_groups_above_it(board_run, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch,
                                                                               capsys) -> None:
    """Above the limit the leaderboard still has the rank intervals of its top-level groups (every dataset
    resampled for them, none ranked itself), the same as when every column is ranked; ``--ranks`` ranks every
    column, ``--no-ranks`` none."""
    import assay.report._html as page_module

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    monkeypatch.setattr(page_module, "RANK_LIMIT", len(MODELS) * 6 - 1)  # one result fewer than the run has
    data = board_data(write_html_report(copy, None, TIME).read_text())
    top = {g["name"] for g in data["groups"] if g["top"]}
    assert top and set(data["rankings"]["rankings"]) == top
    assert data["rank_by"]["dataset"] == data["rankings"]["default"] in top
    everything = _ranking(run)
    for abbr in top:
        held, expected = data["rankings"]["rankings"][abbr], everything["rankings"][abbr]
        assert held["ties"] == expected["ties"] and held["note"] == expected["note"]
        for e in expected["models"]:
            assert held["ranks"][MODELS.index(e["model"])] == [e["rank"], e["rank_low"], e["rank_high"], e["tier"]]
    assert data["rankings"]["pairs"] == everything["pairs"]
    assert main(["report", "-w", str(copy), "--ranks"]) == 0
    page = Path(capsys.readouterr().out.strip())
    assert set(board_data(page.read_text())["rankings"]["rankings"]) >= {"overall", "arith"}
    assert main(["report", "-w", str(copy), "--no-ranks"]) == 0
    page = Path(capsys.readouterr().out.strip())
    assert board_data(page.read_text())["rankings"] is None
    monkeypatch.setattr(page_module, "RANK_LIMIT", len(MODELS) * 6)
    assert set(board_data(write_html_report(copy, None, TIME).read_text())["rankings"]["rankings"]) >= {"overall",
                                                                                                         "arith"}


def test_a_later_report_of_the_same_results_takes_the_rankings_kept_beside_the_earlier_one(
        board_run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rankings are kept in the report's sample folder under a key of the results' digests and what they were
    computed with: a later report of the same results takes them from there (the same page, nothing resampled);
    once a result changes they are computed again."""
    import assay.rundir.ranking as ranking_module
    from assay.rundir.results import write_result_keeping

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    first = board_data(write_html_report(copy, None, "first", embed=False).read_text())
    assert first["rankings"] is not None

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("resampled")

    monkeypatch.setattr(ranking_module, "run_ranking", refused)
    later = board_data(write_html_report(copy, None, "later", embed=False).read_text())
    assert later["rankings"] == first["rankings"] and later["rank_by"] == first["rank_by"]
    # the earlier report's folder may go: the later one holds the rankings too
    shutil.rmtree(copy / "summary" / "summary_first_files")
    assert board_data(write_html_report(copy, None, "again", embed=False).read_text())["rankings"] == first["rankings"]
    # one result changed (one more sample right): its digest and value differ, the rankings are computed again
    path = copy / "results" / MODELS[0] / "arith.json"
    result = json.loads(path.read_text())
    wrong = next(d for d in result["details"] if not d["correct"][0])
    wrong["correct"], wrong["pred"] = [True], wrong["answer"]
    result["accuracy"] = 100.0 * sum(d["correct"][0] for d in result["details"]) / len(result["details"])
    write_result_keeping(path, result)
    assert board_data(write_html_report(copy, None, "changed", embed=False).read_text())["rankings"] is None


def test_without_groups_the_leaderboard_ranks_by_the_first_dataset(tmp_path: Path) -> None:
    run, config = make_board_run(tmp_path)
    config.write_text(config.read_text().replace("summarizer = dict(summary_groups=", "_unused = ("))
    assert main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", TIME]) == 0
    data = build_report_data(run)
    assert data["groups"] == [] and data["rank_by"] == {"dataset": "arith", "metric": "accuracy"}


def test_a_cells_hover_text_is_its_statistics_own(board_run) -> None:
    """The page keeps the interval at the two decimals it shows; the text is the interval's own description."""
    from assay.rundir.statistics import run_stats
    from assay.summarize import leaderboard_of

    run, _ = board_run
    data = build_report_data(run)
    stats = run_stats(run, leaderboard_of(None, run))
    for r, row in enumerate(data["rows"]):
        for c, model in enumerate(MODELS):
            stat = stats.cell(model, row["dataset"], row["metric"])
            assert cell_tip(data, r, c).split("\n")[1] == stat.describe()
    unsc = MODELS.index("m_unsc")
    arith = next(i for i, row in enumerate(data["rows"]) if row["dataset"] == "arith")
    cell = data["rows"][arith]["cells"][unsc]
    assert cell[5] > 0 and "unscorable: " in cell_tip(data, arith, unsc) and "not extracted" in cell_tip(data, arith, unsc)


def test_large_sample_data_goes_beside_the_page_and_the_page_stays_small(board_run, tmp_path: Path) -> None:
    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    embedded = write_html_report(copy, None, "embedded", embed=True)
    beside = write_html_report(copy, None, "beside", embed=False)
    side = beside.parent / "summary_beside_files"
    files = [s["file"] for s in board_data(beside.read_text())["samples"]]
    # beside the sample files, the rankings, kept for a later report of the same results
    kept = [p.name for p in side.iterdir() if p.name.startswith("rankings_")]
    assert len(kept) == 1 and kept[0].endswith(".json")
    assert sorted(p.name for p in side.iterdir()) == sorted([*(f"{f}.js" for f in files), "manifest.json", *kept])
    assert not (embedded.parent / "summary_embedded_files").exists()
    # the same samples, from the page or from the files beside it
    assert sample_data(beside) == sample_data(embedded)
    assert 'id="samples-' not in beside.read_text() and 'id="samples-' in embedded.read_text()
    samples = sum(p.stat().st_size for p in side.glob("*.js"))
    assert beside.stat().st_size < embedded.stat().st_size - samples * 0.9
    # written again: the folder is replaced, not added to
    (side / "stale.js").write_text("")
    write_html_report(copy, None, "beside", embed=False)
    assert not (side / "stale.js").exists()
    # by default a small run's samples are embedded: one file to share
    assert board_data(write_html_report(copy, None, "default").read_text())["side"] is None


_KILLED_AFTER_REMOVING = """
import os, shutil, signal, sys
from pathlib import Path
from assay.report import write_html_report

run, time_str = Path(sys.argv[1]), sys.argv[2]
real = shutil.rmtree


def rmtree(path, *args, **kwargs):  # the writer is killed as soon as it has removed a sample folder of this page
    real(path, *args, **kwargs)
    if Path(path).name.startswith(f"summary_{time_str}_files"):
        os.kill(os.getpid(), signal.SIGKILL)


shutil.rmtree = rmtree
write_html_report(run, None, time_str, embed=False)
"""


def _reported_beside(board_run: tuple[Path, Any], tmp_path: Path, time_str: str,
                     ) -> tuple[Path, Path, Path, dict[str, bytes]]:
    """A copy of the board run with a report whose samples are beside it: (the copy, the page, its sample folder,
    that folder's files' bytes by name)."""
    copy = tmp_path / "run"
    shutil.copytree(board_run[0], copy)
    page = write_html_report(copy, None, time_str, embed=False)
    side = page.parent / f"summary_{time_str}_files"
    return copy, page, side, {p.name: p.read_bytes() for p in side.iterdir()}


def test_a_report_killed_while_replacing_its_sample_folder_leaves_a_whole_one(board_run, tmp_path: Path) -> None:
    """The page's sample folder, written again, is swapped in whole: a writer killed (``kill -9``) right after it
    removed a folder leaves ``summary_<time>_files/`` complete, with every file the page names."""
    import os
    import subprocess
    import sys

    copy, page, side, before = _reported_beside(board_run, tmp_path, "again")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _KILLED_AFTER_REMOVING, str(copy), "again"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -9, done.stderr
    assert {p.name: p.read_bytes() for p in side.iterdir()} == before  # the same samples: the same files
    files = [s["file"] for s in board_data(page.read_text())["samples"]]
    assert all((side / f"{f}.js").is_file() for f in files)
    assert sample_data(page) == sample_data(write_html_report(copy, None, "embedded", embed=True))


def test_the_sample_files_are_written_before_the_report_takes_its_rankings(
        board_run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample files go beside the page while the child computing the rankings finishes: when the rankings are
    put into the page, the new sample folder already holds every sample file (the rankings are kept in it after)."""
    import assay.report._html as html

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    seen: list[list[str]] = []
    real = html._put_rankings

    def put(data, rankings, pictures):
        folders = [p for p in (copy / "summary").glob("summary_early_files.*") if p.is_dir()]
        # what it holds but its mark of being written (assay.fileio.hold_folder)
        seen.append(sorted(f.name for folder in folders for f in folder.iterdir() if not f.name.startswith(".writing.")))
        return real(data, rankings, pictures)

    monkeypatch.setattr(html, "_put_rankings", put)
    page = write_html_report(copy, None, "early", embed=False)
    side = page.parent / "summary_early_files"
    files = sorted(f"{s['file']}.js" for s in board_data(page.read_text())["samples"])
    assert seen == [sorted([*files, "manifest.json"])]
    assert sorted(p.name for p in side.iterdir() if not p.name.startswith("rankings_")) == sorted([*files, "manifest.json"])


def test_a_report_failing_while_it_takes_its_rankings_leaves_the_earlier_page_and_no_half_folder(
        board_run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted once its new sample files are written (here while the rankings are put into the page), a report
    written again leaves the earlier page and sample folder as they were, and no temporary folder."""
    import assay.report._html as html

    copy, page, side, before = _reported_beside(board_run, tmp_path, "again")
    text = page.read_bytes()

    def interrupted(data, rankings, pictures):
        raise KeyboardInterrupt

    monkeypatch.setattr(html, "_put_rankings", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_html_report(copy, None, "again", embed=False)
    assert page.read_bytes() == text
    assert {p.name: p.read_bytes() for p in side.iterdir()} == before
    assert sorted(p.name for p in page.parent.iterdir() if p.name.startswith("summary_again")) == [
        "summary_again.html", "summary_again_files"]


def test_a_later_report_links_the_sample_files_of_unchanged_datasets(board_run, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A dataset whose results are unchanged since an earlier report is not read again; a changed one is."""
    import assay.report._samples as samples_module
    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.rundir.statistics import index_run
    from assay.stats import PredictionColumns

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    index_run(copy)
    first = write_html_report(copy, None, "first", embed=False)
    # one result of geo changes (one more sample right): its dataset's file must be made anew
    path = copy / "results" / "m_alpha" / "geo.json"
    result = json.loads(path.read_text())
    wrong = next(i for i, d in enumerate(result["details"]) if not d["correct"][0])
    result["details"][wrong]["correct"] = [True]
    result["accuracy"] += 100 / 40
    digest, written = write_result_keeping(path, result)
    save_stats(path, digest, "geo", lambda: PredictionColumns([], []), written)
    index_run(copy)
    read: list[str] = []
    real = samples_module.chunk

    def spy(source, abbr):
        read.append(abbr)
        return real(source, abbr)

    monkeypatch.setattr(samples_module, "chunk", spy)
    second = write_html_report(copy, None, "second", embed=False)
    assert read == ["geo"]
    before = {s["abbr"]: s["file"] for s in board_data(first.read_text())["samples"]}
    after = {s["abbr"]: s["file"] for s in board_data(second.read_text())["samples"]}
    assert [a for a in after if after[a] != before[a]] == ["geo"]
    old, new = first.parent / "summary_first_files", second.parent / "summary_second_files"
    assert (new / f"{after['arith']}.js").stat().st_ino == (old / f"{before['arith']}.js").stat().st_ino  # linked
    geo = next(d for d in sample_data(second) if d["abbr"] == "geo")
    assert geo["ok"][geo["models"].index("m_alpha")][wrong] == 1.0
    assert [d for d in sample_data(second) if d["abbr"] != "geo"] == [d for d in sample_data(first) if d["abbr"] != "geo"]


def test_sample_chunks_read_by_workers_are_those_read_in_process(board_run) -> None:
    from assay.report._samples import Source, read_chunks
    from assay.summarize import leaderboard_of

    run, _ = board_run
    view = leaderboard_of(None, run)
    source = Source(run, list(view.models), list(view.dataset_abbrs), {m: m for m in view.models}, view.audits, {}, 600)
    alone = read_chunks(source, workers=1)
    assert [c[0] for c in alone] == list(view.dataset_abbrs) and all(c[1] == 40 for c in alone)
    assert read_chunks(source, workers=2) == alone


def test_a_run_indexed_without_samples_is_read_from_its_stats_files_once(tmp_path: Path) -> None:
    import sqlite3

    from assay.rundir.statistics import index_run

    run, _ = make_board_run(tmp_path)
    index_run(run)
    with sqlite3.connect(run / "index.sqlite") as con:  # an index written before it kept samples
        con.execute("DROP TABLE samples")
    first = write_html_report(run, None, "first", embed=False)
    want = sample_data(first)
    with sqlite3.connect(run / "index.sqlite") as con:
        kept = con.execute("SELECT count(*) FROM samples").fetchone()[0]
    assert kept == len(MODELS) * 6, "what the report read of the .stats files is kept in the index"
    for stats in (run / "results").glob("*/*.stats"):
        stats.unlink()
    shutil.rmtree(run / "summary" / "summary_first_files")  # nothing to link: every dataset read again
    second = write_html_report(run, None, "second", embed=False)
    assert sample_data(second) == want


def test_a_run_indexed_without_samples_reads_each_stats_file_once_in_all_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """Where a second CPU could rank beside the reading of the samples, a run whose index lacks them still
    reads each result's ``.stats`` file once, counted across every process of the report."""
    import sqlite3

    import assay.rundir.sidecar as sidecar_module
    from assay.rundir.statistics import index_run

    run, _ = make_board_run(tmp_path)
    index_run(run)
    with sqlite3.connect(run / "index.sqlite") as con:  # an index written before it kept samples
        con.execute("DROP TABLE samples")
    reads = tmp_path / "reads.txt"
    real = sidecar_module.load_stats

    def counted(path: Any, *args: Any, **kwargs: Any) -> Any:
        with open(reads, "a") as fh:  # appended by whichever process reads: forked ones too
            fh.write(f"{os.getpid()} {path}\n")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(sidecar_module, "load_stats", counted)
    page = write_html_report(run, None, "first", embed=False)
    assert "the report's rank intervals" not in beside_starts.what  # ranked here, after the files were read
    read = reads.read_text().splitlines()
    assert len(read) == len({line.split(" ", 1)[1] for line in read}) == len(MODELS) * 6
    assert board_data(page.read_text())["rankings"]["rankings"]
    with sqlite3.connect(run / "index.sqlite") as con:
        assert con.execute("SELECT count(*) FROM samples").fetchone()[0] == len(MODELS) * 6
    reads.write_text("")  # the index now holds them: the next report ranks beside its reading, reads no file
    shutil.rmtree(run / "summary" / "summary_first_files")
    write_html_report(run, None, "second", embed=False)
    assert reads.read_text() == ""
    assert beside_starts[beside_starts.what.index("the report's rank intervals")]


def _geo_replaced_then_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                result: dict[str, Any]) -> tuple[Path, Path, Any]:
    """The board run with the second model's ``geo`` result replaced by ``result`` (its ``.stats`` gone), reported
    once ranked in the report's own process (one CPU), then once as usual: (that page, this page, this page's data)."""
    import assay._beside as beside_module
    from assay.rundir.results import write_result
    from assay.rundir.sidecar import stats_path_of
    from assay.rundir.statistics import index_run

    run, _ = make_board_run(tmp_path)
    replaced = run / "results" / MODELS[1] / "geo.json"
    stats_path_of(replaced).unlink()
    write_result(replaced, result)
    index_run(run)
    with monkeypatch.context() as one_cpu:  # no second CPU: ranked in the report's own process
        one_cpu.setattr(beside_module, "cpus", lambda: 1)
        here = write_html_report(run, None, "here", embed=True)
    beside = write_html_report(run, None, "beside", embed=True)
    return here, beside, board_data(beside.read_text())


def test_a_run_with_a_failed_task_ranks_beside_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """A failed task's error record has no per-sample values for the rankings to read: with every other result's
    in the index, the rankings are computed in a child beside the reading of the samples, and the page is byte for
    byte the one written when they are computed in the report's own process."""
    here, beside, data = _geo_replaced_then_reported(tmp_path, monkeypatch, {"error": "the evaluator failed"})
    assert beside_starts.what == ["the report's rank intervals"] * 2
    assert beside_starts == [False, True]  # the second report ranked in a child
    geo = data["rankings"]["rankings"]["geo"]["ranks"]
    assert [data["models"][i] for i, r in enumerate(geo) if r is None] == [MODELS[1]]  # the failed task's model
    assert None not in data["rankings"]["rankings"]["trivia"]["ranks"]
    assert beside.read_bytes() == here.read_bytes()


def test_a_result_with_only_metrics_not_ranked_ranks_beside_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """A result whose values are all of metrics the rankings do not rank (and whose samples the index lacks) is
    not read by them: the rankings are computed in a child beside the reading of the samples all the same, and the
    page is byte for byte the one written when they are computed in the report's own process."""
    # no accuracy, no per-sample values
    here, beside, data = _geo_replaced_then_reported(tmp_path, monkeypatch,
                                                     {"agreement": 61.5, "_meta": {"num_samples": 40}})
    assert beside_starts.what == ["the report's rank intervals"] * 2
    assert beside_starts == [False, True]  # the second report ranked in a child
    geo = data["rankings"]["rankings"]["geo"]
    assert geo["metric"] == "accuracy"
    assert [data["models"][i] for i, r in enumerate(geo["ranks"]) if r is None] == [MODELS[1]]
    assert beside.read_bytes() == here.read_bytes()


def test_warnings_while_ranking_beside_the_report_reach_its_log(
        monkeypatch: pytest.MonkeyPatch, beside_starts: Any, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    """Pictures that cannot be drawn are a warning in the log, when the rankings are computed in a child
    process beside the report as when they are computed in it."""
    import logging

    import assay.report._pictures as pictures_module
    from assay.rundir.statistics import index_run

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("cannot draw this forest")

    monkeypatch.setattr(pictures_module, "forest_plot", broken)
    run, _ = make_board_run(tmp_path)
    index_run(run)
    with caplog.at_level(logging.WARNING):
        write_html_report(run, None, "pictures", embed=True)
    assert beside_starts[beside_starts.what.index("the report's rank intervals")]  # ranked in a child
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("pictures not drawn" in m and "cannot draw this forest" in m for m in warned), warned


_SLOW_RANKS = """
import sys, time
import assay._beside as beside
import assay.report._html as html
beside.cpus = lambda: 2
real = html._ranking_data
def slow(*args, **kwargs):  # a large run's rankings
    time.sleep(60)
    return real(*args, **kwargs)
html._ranking_data = slow
from assay.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _terminated_while_ranking(args: list[str], temp: Path, ready: Any) -> None:
    """Run ``assay <args>`` with slow rankings (``TMPDIR=temp``), send it SIGTERM once ``ready()`` holds and it has
    a child, and check that it ends as other commands do on SIGTERM (status 128 + 15, a message), its children
    stopped with it, no temporary file left."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", _SLOW_RANKS, *args], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(temp)})
    children: list[int] = []
    try:
        for _ in range(600):
            if ready():
                children = [int(c) for c in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
                if children:
                    break
            time.sleep(0.1)
        assert children, "no child started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "SIGTERM" in err
    for pid in children:
        assert not Path(f"/proc/{pid}").exists(), "the child goes on"
    assert list(temp.iterdir()) == []


def test_assay_report_terminated_while_ranking_stops_its_child_and_leaves_nothing(tmp_path: Path) -> None:
    """``assay report`` sent SIGTERM while its rankings are computed in a child: the command ends as other
    commands do on SIGTERM (status 128 + 15, a message), the child is stopped with it, no temporary
    file is left, and no report is left half written."""
    from assay.rundir.statistics import index_run

    run, _ = make_board_run(tmp_path)
    index_run(run)
    temp = tmp_path / "tmp"
    temp.mkdir()
    # as soon as the rank child runs (its answer's file, with no name, made before it is forked)
    _terminated_while_ranking(["report", "-w", str(run)], temp, lambda: True)
    assert not (run / "summary").is_dir() or not list((run / "summary").glob("*.html"))


def test_a_report_killed_while_it_waits_for_its_rankings_leaves_a_sample_folder_the_next_writer_removes(
        tmp_path: Path) -> None:
    """``kill -9`` of ``assay report`` once its new sample folder is filled, while it waits for its rankings: the
    folder left beside its place is marked as being written by a process that is gone, and the run's next writer
    (``remove_stale_temp_files``) removes it; one whose writer still runs is kept."""
    import signal
    import subprocess
    import sys
    import time

    from assay.fileio import hold_folder, release_folder
    from assay.rundir.layout import RunDir, remove_stale_temp_files
    from assay.rundir.statistics import index_run

    run, _ = make_board_run(tmp_path)
    index_run(run)
    script = "import assay.report._html as h; h.EMBED_LIMIT = 0\n" + _SLOW_RANKS  # its samples beside the page
    proc = subprocess.Popen([sys.executable, "-c", script, "report", "-w", str(run)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    summary = run / "summary"
    left: list[Path] = []
    try:
        for _ in range(600):  # until its folder holds the manifest: every sample file is written
            left = [p for p in summary.glob("summary_*_files.*") if (p / "manifest.json").exists()]
            if left:
                break
            time.sleep(0.1)
        assert left, "no sample folder filled"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    (folder,) = left
    assert [p.name for p in folder.glob(".writing.*.tmp")]  # its mark, left with it
    assert not list(summary.glob("*.html"))
    busy = summary / "summary_busy_files.abcd1234"  # another report's, still being filled
    busy.mkdir()
    mark = hold_folder(busy)
    try:
        assert remove_stale_temp_files(RunDir(run)) == [folder]
    finally:
        release_folder(mark)
    assert not folder.exists() and busy.is_dir()


def test_assay_summarize_terminated_while_its_report_ranks_keeps_the_summary_and_leaves_no_page(tmp_path: Path) -> None:
    """``assay summarize`` sent SIGTERM once its summary files are written, while the child it began with the
    leaderboard still computes the rankings: status 128 + 15, the child stopped with it, the summary files whole
    (the same as a summary without the report), no page and no temporary file left."""
    from assay.rundir.statistics import index_run

    run, config = make_board_run(tmp_path)
    index_run(run)
    temp = tmp_path / "tmp"
    temp.mkdir()
    summary = run / "summary"
    # once the summary files are written: the command then waits for its rankings
    _terminated_while_ranking(["summarize", str(config), "-w", str(run.parent), "-r", TIME], temp,
                              lambda: summary.is_dir() and bool(list(summary.glob("summary_*.json"))))
    assert not list(summary.glob("*.html")) and not [p for p in summary.iterdir() if p.name.startswith(".")]
    (written,) = summary.glob("summary_*.csv")
    plain = tmp_path / "plain.csv"
    assert main(["summarize", str(config), "-w", str(run.parent), "-r", TIME, "--no-report", "-o",
                 str(plain.with_suffix(".txt"))]) == 0
    assert written.read_bytes() == plain.read_bytes()


@pytest.mark.parametrize("layout", [1, 2])
def test_a_run_indexed_partly_by_an_earlier_version_reports_the_same_from_the_index_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: int) -> None:
    """Results whose samples an older version put in the run index (per-sample values as compressed JSON, or the
    browser's columns compressed without their number of samples) beside results this version indexed: the same
    rankings and samples, no file read for them; the datasets of results indexed by this version alone hand
    their compressed columns to the page as they are, the others' are decompressed for it."""
    import assay.rundir.ranking as ranking_module
    import assay.rundir.statistics as statistics_module
    from assay.rundir.statistics import index_run
    from tests.report.pages import raw_sample_data
    from tests.rundir.old_index import rewrite_as_layout_1

    run, _ = make_board_run(tmp_path)
    index_run(run)
    first = write_html_report(run, None, "first", embed=False)
    want, samples = board_data(first.read_text()), sample_data(first)
    assert want["rankings"]["rankings"] and samples
    assert all("packed" in d and "raw" not in d for d in raw_sample_data(first))
    # every fifth result (in the order of their paths: six datasets a model): each dataset has results of both layouts
    assert rewrite_as_layout_1(run, every=5, layout=layout) > 0

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the result {args} was read")

    monkeypatch.setattr(ranking_module, "read_full_result", no_reading)
    monkeypatch.setattr(statistics_module, "run_task", no_reading)
    for stats in (run / "results").glob("*/*.stats"):
        stats.unlink()
    shutil.rmtree(run / "summary" / "summary_first_files")  # nothing kept: rankings and samples read again
    second = write_html_report(run, None, "second", embed=False)
    assert board_data(second.read_text())["rankings"] == want["rankings"]
    assert sample_data(second) == samples
    assert all("packed" not in d and "raw" in d for d in raw_sample_data(second))


@pytest.mark.parametrize(("how", "which"), [("packed", 1), ("packed", 0), ("spliced", 1), ("spliced", 0),
                                           ("tables", 1), ("tables", 0)])
def test_a_model_with_another_number_of_samples_is_left_out_of_a_datasets_samples_with_a_warning(
        tmp_path: Path, how: str, which: int, caplog: pytest.LogCaptureFixture) -> None:
    """One model's result of a dataset has one sample fewer than the others' (the first model's too): the
    dataset's samples shown are those of the models that agree (no row of one model set beside another model's
    row), and the report says which model it left out — whether the columns reach the page compressed as the
    index keeps them (``packed``), spliced from an older index's (``spliced``) or from the sample tables read
    with the statistics (``tables``)."""
    import logging

    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.rundir.statistics import index_run
    from assay.stats import PredictionColumns
    from tests.report.pages import raw_sample_data
    from tests.rundir.old_index import rewrite_as_layout_1

    run, _ = make_board_run(tmp_path)
    index_run(run)
    before = {d["abbr"]: d for d in sample_data(write_html_report(run, None, "before", embed=True))}
    model = before["geo"]["models"][which]
    assert len(before["geo"]["models"]) > 2
    path = run / "results" / model / "geo.json"
    result = json.loads(path.read_text())
    result["details"] = result["details"][:-1]
    digest, written = write_result_keeping(path, result)
    save_stats(path, digest, "geo", lambda: PredictionColumns([], []), written)
    index_run(run)
    if how == "spliced":
        assert rewrite_as_layout_1(run, every=1, layout=2) > 0
    stats = None
    if how == "tables":
        from assay.rundir.statistics import run_stats
        from assay.stats import SAMPLE_TEXT
        from assay.summarize import leaderboard_of

        stats = run_stats(run, leaderboard_of(None, run), sample_text=SAMPLE_TEXT)
        assert stats.tables is not None
    with caplog.at_level(logging.WARNING):
        page = write_html_report(run, None, "after", embed=True, stats=stats)
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    n = before["geo"]["n"]
    assert f"report: {model} has {n - 1} samples of geo, others {n}; left out of the browser" in warned, warned
    geo = next(d for d in raw_sample_data(page) if d["abbr"] == "geo")
    assert ("packed" in geo) == (how == "packed")
    after = {d["abbr"]: d for d in sample_data(page)}
    assert after["geo"]["models"] == [m for m in before["geo"]["models"] if m != model]
    keep = [i for i, m in enumerate(before["geo"]["models"]) if m != model]
    for column in ("raw", "ext", "ok"):
        assert after["geo"][column] == [before["geo"][column][i] for i in keep]
    assert after["geo"]["n"] == n and after["geo"]["ids"] == before["geo"]["ids"]
    assert {a: d for a, d in after.items() if a != "geo"} == {a: d for a, d in before.items() if a != "geo"}


# ---- in a browser -------------------------------------------------------------------------------



def _models(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [tr.get_attribute("data-model") for tr in browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")]


def _column(browser: Any, abbr: str) -> list[str]:
    from selenium.webdriver.common.by import By

    heads = [th.get_attribute("title") for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")]
    at = next(i for i, t in enumerate(heads) if t and t.startswith(abbr + " · ")) + 1
    return [td.text.split("\n")[0] for td in browser.find_elements(By.CSS_SELECTOR, f"#leaderboard tbody tr > :nth-child({at})")]


def _holds(until: Any) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        return bool(until())
    except StaleElementReferenceException:  # the table was drawn again meanwhile
        return False


def _type(browser: Any, element: Any, text: str, until: Any) -> None:
    import time

    element.clear()
    element.send_keys(text)
    for _ in range(60):  # the filter waits for typing to pause
        if _holds(until):
            break
        time.sleep(0.05)
    time.sleep(0.2)
    assert _holds(until)


@pytest.mark.slow
def test_leaderboard_in_a_browser_ranks_sorts_filters_and_opens_groups(board_run, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    run, summary = board_run
    (page,) = (run / "summary").glob("summary_*.html")
    browser.get(page.as_uri())
    overall = _overall(summary)
    # ranked by overall, best first; the tied models share a rank, marked "="
    expected = sorted(MODELS, key=lambda m: (-overall[m], MODELS.index(m)))
    assert _models(browser) == expected
    ranks = {tr.get_attribute("data-model"): tr.find_element(By.CSS_SELECTOR, "td.c-rank").text
             for tr in browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")}
    assert overall["m_tie_a"] == overall["m_tie_b"]
    assert ranks["m_tie_a"] == ranks["m_tie_b"] and ranks["m_tie_a"].endswith("=")
    assert ranks[expected[0]] == "1"
    assert _column(browser, "overall") == [f"{overall[m]:.2f}" for m in expected]
    # each model's rank interval under its value: the run's ranking's
    ranking = _ranking(run)["rankings"]["overall"]
    expected_ri = {e["model"]: e for e in ranking["models"]}
    for tr in browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr"):
        e = expected_ri[tr.get_attribute("data-model")]
        shown = tr.find_element(By.CSS_SELECTOR, "td[data-col='g2'] .ri").text
        span = str(e["rank_low"]) if e["rank_low"] == e["rank_high"] else f"{e['rank_low']}–{e['rank_high']}"
        tied = any(e["model"] in t for t in ranking["ties"])
        assert shown == f"rank {span}" + (" ≈" if tied else "")
    assert "Rank intervals of overall: 95% over 1000 bootstrap rounds" in browser.find_element(By.ID, "rank-note").text
    # the pictures: the forest plot of the column ranked by, the heatmap, the top models' paired matrix
    forest = browser.find_element(By.CSS_SELECTOR, "figure.forest[data-abbr='overall']")
    assert forest.is_displayed() and forest.find_elements(By.CSS_SELECTOR, "svg")
    pairs = _ranking(run)["pairs"]
    matrix = browser.find_element(By.CSS_SELECTOR, "figure.pairs svg")
    results = [g.get_attribute("class") for g in matrix.find_elements(By.CSS_SELECTOR, "g[class^='pair-']")]
    assert sorted(results) == sorted(f"pair-{c['result']}" for row in pairs["cells"] for c in row if c is not None)
    assert browser.find_elements(By.CSS_SELECTOR, "figure.heatmap svg")

    # sort by a group's column, then the other way
    knowledge = {m: summary["scores"][m]["knowledge"]["naive_average"] for m in MODELS}
    browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th[title^='knowledge'] button.sort").click()
    assert _column(browser, "knowledge") == [f"{v:.2f}" for v in sorted(knowledge.values(), reverse=True)]
    browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th[title^='knowledge'] button.sort").click()
    assert _column(browser, "knowledge") == [f"{v:.2f}" for v in sorted(knowledge.values())]

    # open a group into its datasets: their columns follow it, with the summary's values
    browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th[title^='reasoning'] button.open").click()
    heads = [th.get_attribute("title") for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")][2:]
    assert heads[:4] == ["overall · naive_average", "reasoning · naive_average", "arith · accuracy", "logic · accuracy"]
    shown = _models(browser)
    assert _column(browser, "logic") == [f"{summary['scores'][m]['logic']['accuracy']:.2f}" for m in shown]
    # a group of groups opens onto columns already there: none is shown twice
    browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th[title^='overall'] button.open").click()
    again = [th.get_attribute("title") for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")][2:]
    assert again == heads and len(set(again)) == len(again)

    # rank by another column: the order follows it
    Select(browser.find_element(By.ID, "rank-by")).select_by_visible_text("logic · accuracy")
    logic = {m: summary["scores"][m]["logic"]["accuracy"] for m in MODELS}
    assert _models(browser) == sorted(MODELS, key=lambda m: (-logic[m], MODELS.index(m)))

    # filter the models and the columns by text
    _type(browser, browser.find_element(By.ID, "filter-models"), "tie",
          lambda: sorted(_models(browser)) == ["m_tie_a", "m_tie_b"])
    _type(browser, browser.find_element(By.ID, "filter-columns"), "chem",
          lambda: len(browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")) == 2 + 2)
    heads = [th.get_attribute("title") for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")][2:]
    assert heads == ["logic · accuracy", "knowledge · naive_average"]  # the ranked column stays; chem's group


@pytest.mark.slow
def test_full_table_in_a_browser_is_the_summary_table_and_sorts_and_filters(board_run, browser) -> None:
    from selenium.webdriver.common.by import By

    run, summary = board_run
    (page,) = (run / "summary").glob("summary_*.html")
    with open(page.with_suffix(".csv"), newline="") as fh:
        table = list(csv.reader(fh))
    browser.get(page.as_uri())
    assert not browser.find_element(By.ID, "full-table").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()

    def rows() -> list[list[str]]:
        out = []
        for tr in browser.find_elements(By.CSS_SELECTOR, "#full-table tbody tr"):
            cells = []
            for td in tr.find_elements(By.TAG_NAME, "td"):
                values = td.find_elements(By.CSS_SELECTOR, ".v")
                cells.append(values[0].text if values else td.text)
            out.append(cells)
        return out

    assert [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#full-table thead th")] == table[0]
    assert rows() == table[1:]
    # sort by a model's column: its values, highest first
    browser.find_element(By.CSS_SELECTOR, "#full-table thead button[data-sort='2']").click()
    column = [r[4 + 2] for r in rows()]
    assert column == sorted(column, key=float, reverse=True)
    # filter the datasets and the models
    _type(browser, browser.find_element(By.ID, "filter-datasets"), "geo", lambda: len(rows()) == 1)
    _type(browser, browser.find_element(By.ID, "filter-table-models"), "m_unsc",
          lambda: len(browser.find_elements(By.CSS_SELECTOR, "#full-table thead th")) == 5)
    geo = next(r for r in table[1:] if r[0] == "geo")
    assert rows() == [[*geo[:4], f"{summary['scores']['m_unsc']['geo']['accuracy']:.2f}"]]


@pytest.mark.slow
def test_badges_in_a_browser_say_their_sentence_on_hover_click_and_keyboard(board_run, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    run, _ = board_run
    (page,) = (run / "summary").glob("summary_*.html")
    data = board_data(page.read_text())
    browser.get(page.as_uri())
    browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th[title^='reasoning'] button.open").click()
    cell = browser.find_element(By.CSS_SELECTOR, "#leaderboard tr[data-model='m_unsc'] td[data-col='g0.0']")
    badge = cell.find_element(By.CSS_SELECTOR, "button.badge.unsc")
    arith = next(i for i, row in enumerate(data["rows"]) if row["dataset"] == "arith")
    count = data["rows"][arith]["cells"][MODELS.index("m_unsc")][5]
    assert badge.text.startswith(f"⚠{count} ")
    assert badge.get_attribute("title").startswith(f"unscorable: {count} of 40 not extracted")
    # no badge where every reply was read
    assert not browser.find_elements(By.CSS_SELECTOR, "#leaderboard tr[data-model='m_alpha'] button.badge.unsc")
    # one row of the cell: the value; the interval and the badge below it, not a paragraph
    assert cell.size["height"] < 70
    # by keyboard: focus and Enter open the sentence, Escape closes it
    badge.send_keys(Keys.ENTER)
    popover = browser.find_element(By.ID, "popover")
    assert popover.is_displayed() and f"unscorable: {count} of 40 not extracted" in popover.text
    assert "if all unscorable were wrong / right" in popover.text
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert not popover.is_displayed()


@pytest.mark.slow
def test_samples_beside_the_page_are_read_only_when_a_dataset_is_opened(board_run, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    page = write_html_report(copy, None, TIME, embed=False)
    browser.get(page.as_uri())
    loaded = "return Array.prototype.map.call(document.querySelectorAll('script[src]'), s => s.getAttribute('src'))"
    assert browser.execute_script(loaded) == []  # nothing read yet
    section = browser.find_element(By.CSS_SELECTOR, "details.ds[data-dataset='geo']")
    section.find_element(By.TAG_NAME, "summary").click()
    wait_drawn(section)
    geo = board_data(page.read_text())["samples"][3]
    assert geo["abbr"] == "geo"
    assert browser.execute_script(loaded) == [f"summary_{TIME}_files/{geo['file']}.js"]  # geo's only
    assert section.find_element(By.CSS_SELECTOR, ".count").text == "40"
    ids = [tr.find_element(By.TAG_NAME, "td").text for tr in section.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert ids == [f"geo_{i}" for i in range(40)]
    heads = [th.text for th in section.find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads == ["sample", "reference", *MODELS]


def _without_references(run: Path, model: str, abbr: str, samples: range) -> None:
    """Blank the references of some samples of one result (its .stats and the run index made anew)."""
    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.rundir.statistics import index_run
    from assay.stats import PredictionColumns

    path = run / "results" / model / f"{abbr}.json"
    result = json.loads(path.read_text())
    for i in samples:
        result["details"][i]["answer"] = [""]
    digest, written = write_result_keeping(path, result)
    save_stats(path, digest, abbr, lambda: PredictionColumns([], []), written)
    index_run(run)


def _shown_samples(browser: Any, section: Any) -> dict[str, list[Any]]:
    """What a dataset's sample browser shows on its first page: ids, references, and per model the
    extracted answers and raw replies."""
    from selenium.webdriver.common.by import By

    out: dict[str, list[Any]] = {"ids": [], "ref": [], "ext": [], "raw": []}
    for tr in section.find_elements(By.CSS_SELECTOR, "tbody tr"):
        tds = tr.find_elements(By.TAG_NAME, "td")
        out["ids"].append(tds[0].text)
        out["ref"].append(tds[1].text)
        out["ext"].append([td.find_element(By.CSS_SELECTOR, "span.ext").text for td in tds[2:]])
        out["raw"].append([td.find_element(By.TAG_NAME, "pre").text for td in tds[2:]])
    return out


def _open_dataset(browser: Any, abbr: str) -> Any:
    import time

    from selenium.webdriver.common.by import By

    section = browser.find_element(By.CSS_SELECTOR, f"details.ds[data-dataset='{abbr}']")
    section.find_element(By.TAG_NAME, "summary").click()
    for _ in range(100):
        if section.get_attribute("data-loaded") or "note" in section.find_element(By.TAG_NAME, "tbody").get_attribute(
                "innerHTML"):
            break
        time.sleep(0.05)
    return section


@pytest.mark.slow
def test_packed_samples_in_a_browser_show_what_the_report_holds_beside_the_page_and_embedded(
        board_run, browser, tmp_path: Path) -> None:
    """Columns the run index keeps compressed go to the page as they are; the browser unpacks a dataset's when it
    is opened and shows every sample as :func:`assay.report.unpack_samples` reads it, a reference the first
    model lacks taken from the next model's; a browser that cannot decompress says so."""
    from selenium.webdriver.common.by import By

    from tests.report.pages import raw_sample_data

    run, _ = board_run
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    _without_references(copy, MODELS[0], "geo", range(5))
    for embed in (False, True):
        page = write_html_report(copy, None, f"packed_{embed}", embed=embed)
        at = [d["abbr"] for d in raw_sample_data(page)].index("geo")
        assert "packed" in raw_sample_data(page)[at]
        want = sample_data(page)[at]
        refs = [r for r in json.loads(
            (copy / "results" / MODELS[1] / "geo.json").read_text())["details"][0]["answer"]]
        assert want["ref"][0] == refs[0] and want["ref"][0] != ""  # the first model has none: the second's
        browser.get(page.as_uri())
        section = _open_dataset(browser, "geo")
        assert section.get_attribute("data-loaded") == "true"
        shown = _shown_samples(browser, section)
        assert shown["ids"] == want["ids"]
        assert shown["ref"] == want["ref"]
        assert shown["ext"] == [[want["ext"][m][j] for m in range(len(MODELS))] for j in range(40)]
        assert shown["raw"] == [[want["raw"][m][j] for m in range(len(MODELS))] for j in range(40)]
    browser.get(page.as_uri())
    browser.execute_script("delete window.DecompressionStream")
    section = _open_dataset(browser, "geo")
    assert not section.get_attribute("data-loaded")
    assert "cannot decompress the samples" in section.find_element(By.CSS_SELECTOR, "tbody .note").text


@pytest.mark.slow
def test_printed_the_page_shows_both_tables_without_its_controls(board_run, browser) -> None:
    from selenium.webdriver.common.by import By

    run, _ = board_run
    (page,) = (run / "summary").glob("summary_*.html")
    browser.get(page.as_uri())
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='board']").click()
    assert not browser.find_element(By.ID, "full-table").is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert browser.find_element(By.ID, "full-table").is_displayed() and browser.find_element(By.ID, "leaderboard").is_displayed()
    for hidden in ("nav.views", "#board-view .controls", "#table-view .controls"):
        assert not browser.find_element(By.CSS_SELECTOR, hidden).is_displayed()
    # the header and the model column are not stuck to the screen on paper
    th = browser.find_element(By.CSS_SELECTOR, "#leaderboard thead th")
    assert th.value_of_css_property("position") == "static"


@pytest.mark.parametrize("kind", ["board", "varied"])
def test_the_leaderboards_data_is_read_from_the_cells_json_and_is_that_of_the_cells(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's cells are read from the statistics as the run index keeps them (JSON), building a cell
    object only for each way of computing an interval met first; the data is exactly what the cells give."""
    from assay.report._html import _report_data
    from assay.rundir.statistics import RunStats, index_run, run_stats
    from assay.stats import CellStat
    from assay.summarize import leaderboard_of
    from tests.stats.varied_run import make_varied_run

    if kind == "board":
        run, config = make_board_run(tmp_path)
        assert main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", TIME, "--no-report"]) == 0
    else:
        run = make_varied_run(tmp_path)
    index_run(run)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    cells = dict(stats.cells.items())
    plain = RunStats(cells=cells, unscorable=stats.unscorable)  # every cell an object
    built: list[Any] = []
    original = CellStat.from_json.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(CellStat, "from_json", classmethod(lambda cls, d: built.append(d) or original(cls, d)))
    fresh = run_stats(run, view)
    built.clear()
    data = _report_data(run, view, stats=fresh, max_text=600, snapshot=None, samples=False, ranks=False)[0]
    assert 0 < len(built) < len(cells) / 2
    expected = _report_data(run, view, stats=plain, max_text=600, snapshot=None, samples=False, ranks=False)[0]
    assert json.dumps(data) == json.dumps(expected)
    assert sum(len(r["cells"]) for r in data["rows"]) >= len(cells)


def test_a_reordered_table_without_groups_ranks_by_its_new_first_row_not_the_kept_ranking(tmp_path: Path) -> None:
    """Without summary groups the default column is the table's first dataset row: once the summarizer puts
    another dataset first, the rankings kept beside the earlier report are not taken, and the new report ranks by
    the new first row."""
    run, config = make_board_run(tmp_path)
    config.write_text(config.read_text().replace("summarizer = dict(summary_groups=", "_unused = ("))
    work = str(tmp_path / "work")
    assert main(["summarize", str(config), "-w", work, "-r", TIME]) == 0
    first = board_data(write_html_report(run, None, "first", embed=False).read_text())
    assert first["rank_by"] == {"dataset": "arith", "metric": "accuracy"}
    reordered = ["chem", "arith", "logic", "trivia", "geo", "bio"]
    config.write_text(config.read_text() + f"summarizer = dict(dataset_abbrs={reordered!r})\n")
    assert main(["summarize", str(config), "-w", work, "-r", TIME]) == 0
    later = board_data(write_html_report(run, None, "later", embed=False).read_text())
    assert [row["dataset"] for row in later["rows"]] == reordered
    assert later["rank_by"] == {"dataset": "chem", "metric": "accuracy"}
    assert later["rankings"]["default"] == "chem"


def _stats_computed(run: Path) -> list[int]:
    """The processes in which the summarizer computed its statistics, in order (see :func:`_record_rank_child`)."""
    found = run.parent / "stats_computed"
    return [int(line) for line in found.read_text().split()] if found.is_file() else []


def _record_rank_child(monkeypatch: pytest.MonkeyPatch, run: Path) -> list[tuple[int | None, list[str], int]]:
    """Each start of the report's ranking child: (its pid, the summary files there were when it started, how many
    times the summarizer had computed its statistics then); each process that computes them is recorded in a file
    (:func:`_stats_computed`)."""
    import assay._beside as beside_module
    from assay.summarize._default import DefaultSummarizer

    started: list[tuple[int | None, list[str], int]] = []
    real = beside_module.Beside.start  # the class's own, or the beside_starts fixture's
    real_stats = DefaultSummarizer.compute_stats

    def start(cls: type, fn: Any, what: str = "") -> Any:
        there = sorted(p.name for p in (run / "summary").glob("summary_*")) if (run / "summary").is_dir() else []
        job = real(fn, what)
        if what == "the report's rank intervals":
            started.append((None if job is None else job.pid, there, len(_stats_computed(run))))
        return job

    def compute_stats(self: Any, board: Any) -> Any:
        try:
            return real_stats(self, board)
        finally:
            with open(run.parent / "stats_computed", "a") as fh:
                fh.write(f"{os.getpid()}\n")

    monkeypatch.setattr(beside_module.Beside, "start", classmethod(start))
    monkeypatch.setattr(DefaultSummarizer, "compute_stats", compute_stats)
    return started


def test_assay_summarize_ranks_while_it_writes_the_summary_and_writes_the_page_the_report_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """``assay summarize`` begins its report once the leaderboard is built: the rank intervals are computed in
    a child from before the statistics are computed and the summary's files written, and the page is byte for byte
    the one ``write_html_report`` writes afterwards from that summary; with the ranking child taking the second
    core, the summary's text files are written in the command's own process, not by one more child."""
    import assay.summarize._default as default_module
    from assay.rundir.statistics import index_run

    run, config = make_board_run(tmp_path)
    index_run(run)  # every result's samples in the index: the rankings are computed beside the rest
    started = _record_rank_child(monkeypatch, run)
    monkeypatch.setattr(default_module, "BESIDE_MIN_VALUES", 1)  # a summary large enough for a text-file child
    assert main(["summarize", str(config), "-w", str(run.parent), "-r", TIME]) == 0
    assert "writing the summary's text files" not in beside_starts.what
    assert len(started) == 1 and started[0][0] is not None
    assert started[0][1] == []  # no summary file written yet
    assert started[0][2] == 0  # nor the statistics computed
    assert _stats_computed(run) == [os.getpid()]  # by the summary alone: the child did not need them
    (page,) = (run / "summary").glob("summary_*.html")
    written = page.read_bytes()
    page.unlink()
    again = write_html_report(run, None, page.stem.removeprefix("summary_"))
    assert again == page
    assert again.read_bytes() == written
    data = board_data(written.decode())
    assert data["rankings"] is not None and None not in data["rankings"]["rankings"]["overall"]["ranks"]


def test_a_cell_ranked_without_per_sample_values_takes_the_statistics_the_summary_computes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """A result whose value is not what its per-sample values give: the child ranking beside ``assay summarize``
    (begun before the statistics) computes the statistics itself, as the summarizer does, for that cell's fallback,
    and the page is byte for byte the one ``write_html_report`` writes from the summary afterwards."""
    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.rundir.statistics import index_run
    from assay.stats import PredictionColumns

    run, config = make_board_run(tmp_path)
    replaced = run / "results" / MODELS[1] / "geo.json"
    result = json.loads(replaced.read_text())
    result["accuracy"] = 61.5  # not what its 40 samples give
    digest, written = write_result_keeping(replaced, result)
    save_stats(replaced, digest, "geo", lambda: PredictionColumns([], []), written)
    index_run(run)  # every result's samples in the index: the rankings are computed beside the rest
    started = _record_rank_child(monkeypatch, run)
    assert main(["summarize", str(config), "-w", str(run.parent), "-r", TIME]) == 0
    assert len(started) == 1 and started[0][0] is not None and started[0][2] == 0
    assert sorted(_stats_computed(run)) == sorted([os.getpid(), started[0][0]])  # the child's own, for that cell
    (page,) = (run / "summary").glob("summary_*.html")
    written = page.read_bytes()
    data = board_data(written.decode())
    assert "1 cell without per-sample values or interval held at their values" in data["rankings"]["rankings"]["geo"]["note"]
    page.unlink()
    assert write_html_report(run, None, page.stem.removeprefix("summary_")).read_bytes() == written


def test_a_summary_computed_again_from_the_files_begins_its_report_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """A result file changed after the run index was written: the summary, computed first from the index while
    the files are checked beside it, is computed again from the files; the report begun from the first leaderboard
    is given up (its ranking child ended) and begun again from the second, whose values the page shows."""
    import time

    import assay.rundir.index as index_module
    from assay.rundir.statistics import index_run

    run, config = make_board_run(tmp_path)
    monkeypatch.setattr(index_module, "RACY_NS", 0)
    monkeypatch.setattr(index_module, "DEFER_MIN_FILES", 1)  # the files checked beside the summary
    index_run(run)
    time.sleep(0.01)
    path = run / "results" / MODELS[0] / "geo.json"
    before = path.stat()
    result = json.loads(path.read_text())
    old = f'"accuracy": {result["accuracy"]}'.encode()
    new = f'"accuracy": {result["accuracy"] + 1:.{len(str(result["accuracy"]).split(".")[1])}f}'.encode()
    assert len(new) == len(old) and old in path.read_bytes()
    data = path.read_bytes().replace(old, new)
    with open(path, "r+b") as fh:  # in place, its times put back: only its change time tells
        fh.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    started = _record_rank_child(monkeypatch, run)
    assert main(["summarize", str(config), "-w", str(run.parent), "-r", TIME]) == 0
    # the first report's child (the index held every sample) ended; the second ranks in this process (the changed
    # result's samples are not in the index)
    assert len(started) == 1 and started[0][0] is not None and started[0][2] == 0
    assert not Path(f"/proc/{started[0][0]}").exists(), "the first ranking child goes on"
    (page,) = (run / "summary").glob("summary_*.html")
    written = page.read_bytes()
    shown = board_data(written.decode())
    row = next(r for r in shown["rows"] if r["dataset"] == "geo")
    assert row["cells"][shown["models"].index(MODELS[0])][0] == pytest.approx(result["accuracy"] + 1)
    page.unlink()
    assert write_html_report(run, None, page.stem.removeprefix("summary_")).read_bytes() == written


def test_a_summary_that_fails_after_its_report_began_ends_the_ranking_child_and_writes_no_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: Any) -> None:
    """When writing the summary files fails once the report has begun, the child computing its rank intervals is
    stopped and no page is written: the command fails naming the error."""
    from assay.rundir.statistics import index_run
    from assay.summarize._default import DefaultSummarizer

    run, config = make_board_run(tmp_path)
    index_run(run)
    started = _record_rank_child(monkeypatch, run)

    def broken(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise OSError("No space left on device: the summary's .json")

    monkeypatch.setattr(DefaultSummarizer, "write_summary", broken)
    with pytest.raises(OSError, match="No space left"):
        main(["summarize", str(config), "-w", str(run.parent), "-r", TIME])
    assert len(started) == 1 and started[0][0] is not None
    assert not Path(f"/proc/{started[0][0]}").exists(), "the ranking child goes on"
    assert not list((run / "summary").glob("*.html")) if (run / "summary").is_dir() else True
