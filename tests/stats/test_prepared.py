"""`assay run` hands the report pass what its eval workers computed: the same report, without reading the files again."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import assay.stats._tasks as tasks_module
from assay.cli import main

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "quickstart"
TIME = "20240101_000000"


def _embedded(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="assay-data">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


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

    monkeypatch.setattr(tasks_module, "_read_tasks", no_reading)
    assert main(["run", str(config), "-w", str(work), "-r", TIME, "--workers", "2"]) == 0
    monkeypatch.undo()
    (summary,) = (work / TIME / "summary").glob("*.json")
    (report,) = (work / TIME / "summary").glob("*.html")
    shown = _embedded(report.read_text())
    report.unlink()

    # a summary in a new process computes the statistics and the report from the files
    subprocess.run(
        [sys.executable, "-m", "assay", "summarize", str(config), "-w", str(work), "-r", TIME, "-o", str(tmp_path / "again.txt")],
        check=True, capture_output=True,
    )
    first, again = json.loads(summary.read_text()), json.loads((tmp_path / "again.json").read_text())
    assert first["stats"] and first["stats"] == again["stats"]
    (later,) = (work / TIME / "summary").glob("*.html")
    assert shown == _embedded(later.read_text())
    raws = [text for ds in shown["datasets"] for model in ds["raw"] for text in model]
    if layout == "run folder":
        assert any(t.startswith("The Red Planet is Mars") for t in raws)
    else:  # the report pass looks for predictions in the run directory only
        assert not any(raws)


def test_a_prepared_output_stands_in_only_for_its_unchanged_file_and_values(tmp_path: Path) -> None:
    import os
    from functools import partial

    from assay.results import numeric_metrics, read_result
    from assay.stats._columns import prediction_columns
    from tests.stats.varied_run import make_varied_run

    run = make_varied_run(tmp_path, summarize=False)
    options = tasks_module.TaskOptions(str(run), text_limit=tasks_module.SAMPLE_TEXT)
    checked = 0
    for path in sorted((run / "results").glob("*/*.json")):
        folder, abbr = path.parent.name, path.stem
        prepared = tasks_module.prepare(path, abbr, partial(prediction_columns, run, folder, abbr))
        assert prepared is not None
        have = {m: float(v) for m, v in numeric_metrics(read_result(path)).items()}
        for subset in (have, dict(list(have.items())[:1]), {}):
            task = tasks_module.Task(folder, abbr, folder, subset, columns=True)
            assert prepared.output_for(task, options) == tasks_module.run_task(task, options)
            checked += 1
        if have:
            metric = next(iter(have))
            assert prepared.output_for(tasks_module.Task(folder, abbr, folder, {metric: have[metric] + 1}), options) is None
        other = tasks_module.TaskOptions(str(run), confidence=0.9, text_limit=tasks_module.SAMPLE_TEXT)
        assert prepared.output_for(tasks_module.Task(folder, abbr, folder, have), other) is None
        os.utime(path, ns=(1, 1))  # the file changed since
        assert prepared.output_for(tasks_module.Task(folder, abbr, folder, have), options) is None
    assert checked > 20
