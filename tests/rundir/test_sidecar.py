"""The eval workers write each result's statistics beside it; later passes use them only for the file's present content."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import assay.rundir.statistics as statistics
from assay.cli import main
from assay.rundir.layout import stats_path_of
from assay.rundir.sidecar import load_stats, prediction_columns, save_stats
from assay.rundir.statistics import Task, run_task
from assay.stats import SAMPLE_TEXT, StatsOptions
from tests.report.pages import sample_data

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "quickstart"
TIME = "20240101_000000"


@pytest.mark.parametrize("layout", ["config folders", "run folder"])
def test_run_report_is_the_one_a_later_summary_reads_from_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str) -> None:
    example = tmp_path / "quickstart"
    shutil.copytree(EXAMPLE, example)
    config = example / "config.py"
    work = tmp_path / "work"
    if layout == "run folder":  # predictions in the run directory: the workers' own copies feed the browser
        shutil.copytree(example / "predictions", work / TIME / "predictions")
        config.write_text(re.sub(r"\n\s*predictions='predictions/[^']*',", "", config.read_text()))

    def no_reading(*args, **kwargs):
        raise AssertionError("the report pass read the files again")

    monkeypatch.setattr(statistics, "_read_tasks", no_reading)
    assert main(["run", str(config), "-w", str(work), "-r", TIME, "--workers", "2"]) == 0
    monkeypatch.undo()
    (summary,) = (work / TIME / "summary").glob("*.json")
    (report,) = (work / TIME / "summary").glob("*.html")
    shown = sample_data(report)
    report.unlink()

    # a summary in a new process computes the statistics and the report from the files
    subprocess.run(
        [sys.executable, "-m", "assay", "summarize", str(config), "-w", str(work), "-r", TIME, "-o", str(tmp_path / "again.txt")],
        check=True, capture_output=True,
    )
    first, again = json.loads(summary.read_text()), json.loads((tmp_path / "again.json").read_text())
    assert first["stats"] and first["stats"] == again["stats"]
    (later,) = (work / TIME / "summary").glob("*.html")
    assert shown == sample_data(later)
    raws = [text for ds in shown for model in ds["raw"] for text in model]
    if layout == "run folder":
        assert any(t.startswith("The Red Planet is Mars") for t in raws)
    else:  # the report pass looks for predictions in the run directory only
        assert not any(raws)


def test_saved_statistics_stand_in_only_for_their_unchanged_file_and_values(tmp_path: Path) -> None:
    import os
    from functools import partial

    from assay.rundir.results import content_digest, numeric_metrics, read_result
    from tests.stats.varied_run import make_varied_run

    run = make_varied_run(tmp_path, summarize=False)
    options = StatsOptions(text_limit=SAMPLE_TEXT)
    checked = 0
    for path in sorted((run / "results").glob("*/*.json")):
        folder, abbr = path.parent.name, path.stem
        digest = content_digest(path)
        assert digest is not None
        assert save_stats(path, digest, abbr, partial(prediction_columns, run, folder, abbr)) is not None
        saved = load_stats(path)  # read back from the file, as another process would
        assert saved is not None
        have = {m: float(v) for m, v in numeric_metrics(read_result(path)).items()}
        for subset in (have, dict(list(have.items())[:1]), {}):
            task = Task(folder, abbr, folder, subset, columns=True)
            assert saved.output_for(subset, options, columns=True) == run_task(task, str(run), options)
            checked += 1
        if have:
            metric = next(iter(have))
            assert saved.output_for({metric: have[metric] + 1}, options) is None
        other = StatsOptions(confidence=0.9, text_limit=SAMPLE_TEXT)
        assert saved.output_for(have, other) is None
        # the same size and times, other bytes: stale
        st = path.stat()
        data = path.read_bytes()
        path.write_bytes(data[:-1] + (b"\t" if data[-1:] != b"\t" else b" "))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
        assert load_stats(path) is None
        path.write_bytes(data)
        assert load_stats(path) is not None
    assert checked > 20
    # statistics saved for other bytes than the file's are never used, whatever their file's times
    assert save_stats(path, "0" * 64, abbr, partial(prediction_columns, run, folder, abbr)) is None
    assert not stats_path_of(path).exists()


def _replace_by_hand(path: Path, old: bytes, new: bytes) -> None:
    """Rewrite a result file with other bytes of the same length, then give it back its times."""
    import os

    st = path.stat()
    data = path.read_bytes()
    assert len(old) == len(new) and data.count(old) >= 1
    path.write_bytes(data.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)


def _shown(work: Path, out: Path) -> tuple[float, float]:
    """The summary's chat-small quick_mcq accuracy, and its statistics' value."""
    summary = json.loads(out.with_suffix(".json").read_text())
    row = next(r for r in summary["rows"] if r["dataset"] == "quick_mcq")
    return row["values"]["chat-small"], summary["stats"]["cells"]["chat-small"]["quick_mcq"]["accuracy"]["value"]


@pytest.mark.parametrize("first", ["run", "eval"])
def test_a_result_replaced_by_hand_reads_back_as_the_file_holds(tmp_path: Path, first: str) -> None:
    example = tmp_path / "quickstart"
    shutil.copytree(EXAMPLE, example)
    config = example / "config.py"
    work = tmp_path / "work"
    common = [str(config), "-w", str(work), "-r", TIME, "--workers", "1"]
    assert main([first, *common, "-o", str(tmp_path / "first.txt")] if first == "run" else [first, *common]) == 0
    result = work / TIME / "results" / "chat-small" / "quick_mcq.json"
    assert stats_path_of(result).is_file()  # written by the worker that scored it
    out = tmp_path / "summary.txt"
    assert main(["summarize", str(config), "-w", str(work), "-r", TIME, "-o", str(out)]) == 0
    assert _shown(work, out) == (80.0, 80.0)
    _replace_by_hand(result, b'"accuracy": 80.0', b'"accuracy": 60.0')
    assert main(["summarize", str(config), "-w", str(work), "-r", TIME, "-o", str(out)]) == 0
    assert _shown(work, out) == (60.0, 60.0)
    # a head this process read before counts for nothing either
    _replace_by_hand(result, b'"accuracy": 60.0', b'"accuracy": 50.0')
    assert main(["summarize", str(config), "-w", str(work), "-r", TIME, "-o", str(out)]) == 0
    assert _shown(work, out) == (50.0, 50.0)


def test_saved_per_sample_values_are_read_alone_while_the_result_is_unchanged(tmp_path: Path) -> None:
    from functools import partial

    from assay.rundir.results import content_digest
    from assay.rundir.sidecar import load_stats_samples
    from tests.stats.varied_run import make_varied_run

    run = make_varied_run(tmp_path, summarize=False)
    read = 0
    for path in sorted((run / "results").glob("*/*.json")):
        folder, abbr = path.parent.name, path.stem
        saved = save_stats(path, content_digest(path), abbr, partial(prediction_columns, run, folder, abbr))
        assert saved is not None
        got = load_stats_samples(str(path))
        assert got == (saved.values, saved.samples, saved.no_samples)
        read += bool(saved.samples)
        data = path.read_bytes()
        path.write_bytes(data + b" ")
        assert load_stats_samples(str(path)) is None  # the result changed: its statistics are stale
        assert load_stats_samples(str(path), content_digest(path)) is None
        path.write_bytes(data)
    assert read > 5
    assert load_stats_samples(str(run / "results" / "nobody" / "nothing.json")) is None
