"""The record a worker derives once from the result bytes it wrote, and what the driver does with it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from assay.config import load_config
from assay.rundir.index import RunIndex
from assay.rundir.layout import RunDir
from assay.rundir.record import Incomplete, ResultRecord
from assay.rundir.results import numeric_metrics, read_result
from assay.tasks import plan_tasks
from assay.tasks.plan import EvalOptions
from assay.tasks.run import run_task
from assay.tasks.runner import IndexWriter

CONFIG = """
datasets = [dict(abbr=f'd{i}', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(evaluator=dict(type='AccEvaluator'))) for i in range(2)]
models = [dict(abbr='m', predictions='preds')]
"""


def _tasks(tmp_path: Path, *, split_d1: bool) -> tuple[list, RunDir]:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": "A"}) + "\n" for i in range(5)))
    preds = tmp_path / "preds"
    preds.mkdir()
    (preds / "d0.json").write_text(json.dumps({str(i): {"prediction": "AAABA"[i]} for i in range(5)}))
    if split_d1:  # part _1 of three is missing: scored on 3 of 5 samples when a partial score is asked for
        (preds / "d1_0.json").write_text(json.dumps({"0": {"prediction": "A"}, "1": {"prediction": "B"}}))
        (preds / "d1_2.json").write_text(json.dumps({"0": {"prediction": "A"}}))
    else:
        (preds / "d1.json").write_text(json.dumps({str(i): {"prediction": "A"} for i in range(5)}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    run = RunDir(tmp_path / "w" / "RUN")
    return plan_tasks(load_config(cfg), run), run


def test_the_worker_returns_the_record_of_the_bytes_it_wrote(tmp_path: Path) -> None:
    tasks, run = _tasks(tmp_path, split_d1=False)
    outcome = run_task(tasks[0], EvalOptions(run_dir=run, prepare_stats=True))
    record = outcome.record
    assert outcome.status == "ok" and isinstance(record, ResultRecord)
    path = run.result_path("m", "d0")
    data = path.read_bytes()
    assert record.path == "m/d0.json" and record.digest == record.written == hashlib.sha256(data).hexdigest()
    assert record.metrics == numeric_metrics(read_result(path)) == {"accuracy": 80.0}
    assert record.details == 5 and record.meta["fingerprint"] == read_result(path)["_meta"]["fingerprint"]
    assert record.incomplete == () and record.error is None
    assert record.stats is not None, "the statistics computed from the same bytes travel with the record"
    again = ResultRecord.of_file(run.results, path)  # a reader's record of the same file: the same facts
    assert again is not None
    assert (again.digest, again.details, again.result, again.identity) == (record.digest, 5, record.result, record.identity)


def test_the_driver_records_each_record_with_its_statistics_in_one_row(tmp_path: Path) -> None:
    tasks, run = _tasks(tmp_path, split_d1=False)
    writer = IndexWriter(run.root)
    for task in tasks:
        outcome = run_task(task, EvalOptions(run_dir=run, prepare_stats=True))
        writer.add(outcome)
        assert outcome.record is None, "the driver takes the record; nothing else holds it"
    writer.flush()
    assert sorted(writer.written) == ["m/d0.json", "m/d1.json"]
    with sqlite3.connect(run.index) as con:
        rows = dict(con.execute("SELECT path, s_data IS NOT NULL FROM files").fetchall())
    assert rows == {"m/d0.json": 1, "m/d1.json": 1}
    snap = RunIndex(run.root).snapshot(written=writer.written)
    assert snap.added == [] and snap.head("m/d1.json")[0]["accuracy"] == 100.0


def test_a_partial_score_is_typed_in_the_record_and_not_reported_as_partial(tmp_path: Path) -> None:
    tasks, run = _tasks(tmp_path, split_d1=True)
    outcome = run_task(tasks[1], EvalOptions(run_dir=run, allow_partial=True))
    record = outcome.record
    assert record is not None and outcome.status == "ok", outcome  # asked for: marked, not a partial task
    (mark,) = record.incomplete
    assert isinstance(mark, Incomplete) and mark.kind == "partial_predictions" and mark.count == 2
    assert "d1_1.json" in mark.detail
    assert [m.to_json() for m in record.incomplete] == read_result(run.result_path("m", "d1"))["_meta"]["incomplete"]


def test_the_report_reads_each_results_samples_from_the_index_the_driver_wrote(tmp_path: Path) -> None:
    from assay.report import write_html_report
    from tests.report.pages import sample_data

    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": "A"}) + "\n" for i in range(5)))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG.replace(", predictions='preds'", ""))
    run = RunDir(tmp_path / "w" / "RUN")
    for abbr, replies in (("d0", "AAABA"), ("d1", "AAAAA")):  # the run's own prediction files
        path = run.prediction_dir("m") / f"{abbr}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(replies)}))
    writer = IndexWriter(run.root)
    for task in plan_tasks(load_config(cfg), run):
        writer.add(run_task(task, EvalOptions(run_dir=run, prepare_stats=True)))
    writer.flush()
    with sqlite3.connect(run.index) as con:
        assert sorted(p for (p,) in con.execute("SELECT path FROM samples")) == ["m/d0.json", "m/d1.json"]
    # the raw replies come from the prediction files: with them and the .stats files gone, the report's
    # sample browser still shows them, as the worker read them
    for stats in run.results.glob("*/*.stats"):
        stats.unlink()
    for pred in run.prediction_dir("m").iterdir():
        pred.unlink()
    page = write_html_report(run.root, None, "20240101_000000")
    by_abbr = {d["abbr"]: d for d in sample_data(page)}
    assert by_abbr["d0"]["raw"] == [["A", "A", "A", "B", "A"]]
    assert by_abbr["d0"]["ok"] == [[1.0, 1.0, 1.0, 0.0, 1.0]]
    assert by_abbr["d1"]["raw"] == [["A"] * 5]
