"""Re-scoring an OpenCompass work dir loses nothing and scores nothing silently (R-12.1, R-12.2).

The fixture is shaped like a real OpenCompass run directory: the recorded
``tests/data/oc_workdir`` run (config dumped by OpenCompass 0.5.4, prediction
files), plus OpenCompass's result files without details, a dataset whose
evaluator assay lacks (``squad2.0`` scored by CrowS-Pairs' evaluator), and a
dataset whose predictions are split into parts ``svamp_0.json`` …
``svamp_7.json`` as OpenCompass's partitioners write them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main

RECORDED = Path(__file__).parent / "data" / "oc_workdir"
RUN = "20250101_000000"
MODEL = "toy-model"

#: Two datasets in the form OpenCompass dumps them: one whose evaluator assay lacks (``LCBProEvaluator``, which submits to a remote judge), one split into parts.
EXTRA_DATASETS = """\
    dict(abbr='squad2.0',
        eval_cfg=dict(
            evaluator=dict(
                type='opencompass.datasets.LCBProEvaluator'),
            pred_role='BOT'),
        infer_cfg=dict(
            inferencer=dict(
                max_out_len=50,
                type='opencompass.openicl.icl_inferencer.GenInferencer'),
            prompt_template=dict(
                template=dict(
                    round=[
                        dict(prompt='{context}\\nAccording to the above passage, answer the following question. '
                             'If it is impossible to answer according to the passage, answer `impossible to answer`:\\n'
                             'Question: {question}',
                            role='HUMAN'),
                        ]),
                type='opencompass.openicl.icl_prompt_template.PromptTemplate'),
            retriever=dict(
                type='opencompass.openicl.icl_retriever.ZeroRetriever')),
        path='./data/SQuAD2.0/dev-v2.0.json',
        reader_cfg=dict(
            input_columns=[
                'context',
                'question',
                ],
            output_column='answers'),
        type='opencompass.datasets.SQuAD20Dataset'),
    dict(abbr='svamp',
        eval_cfg=dict(
            evaluator=dict(
                type='opencompass.datasets.Gsm8kEvaluator'),
            pred_postprocessor=dict(
                type='opencompass.datasets.gsm8k_postprocess')),
        infer_cfg=dict(
            inferencer=dict(
                max_out_len=512,
                type='opencompass.openicl.icl_inferencer.GenInferencer'),
            prompt_template=dict(
                template=dict(
                    round=[
                        dict(prompt='Question: {question}\\nLet\\'s think step by step\\nAnswer:',
                            role='HUMAN'),
                        ]),
                type='opencompass.openicl.icl_prompt_template.PromptTemplate'),
            retriever=dict(
                type='opencompass.openicl.icl_retriever.ZeroRetriever')),
        path='./data/svamp/test.jsonl',
        reader_cfg=dict(
            input_columns=[
                'question',
                ],
            output_column='answer'),
        type='opencompass.datasets.SVAMPDataset'),
"""

SVAMP_PARTS = 8
SVAMP_PER_PART = 5


def _dump(path: Path, obj: object) -> None:
    """As OpenCompass writes predictions and results (``json.dump(..., indent=4)``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=4, ensure_ascii=False), encoding="utf-8")


def _svamp_record(i: int) -> dict[str, str]:
    answer = i % 7 + 2
    said = answer if i % 4 else answer + 1  # one in four wrong
    return {
        "origin_prompt": f"Question: Tom has {answer - 1} marbles and finds 1 more. How many now?\nLet's think step by step\nAnswer:",
        "prediction": f"{answer - 1} + 1 = {said}. The answer is {said}",
        "gold": str(answer),
    }


@pytest.fixture
def oc_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run directory as OpenCompass leaves it, in ``tmp_path/outputs/toy``; the working directory has no data."""
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(RECORDED / "outputs", tmp_path / "outputs")
    run = tmp_path / "outputs" / "toy" / RUN
    (dumped,) = (run / "configs").glob("*.py")
    text = dumped.read_text()
    assert text.startswith("datasets=[\n")
    dumped.write_text("datasets=[\n" + EXTRA_DATASETS + text[len("datasets=[\n") :])
    preds = run / "predictions" / MODEL
    _dump(preds / "squad2.0.json", {str(i): {"origin_prompt": "…", "prediction": "Paris", "gold": ["Paris"]} for i in range(3)})
    for part in range(SVAMP_PARTS):
        first = part * SVAMP_PER_PART
        _dump(preds / f"svamp_{part}.json", {str(i): _svamp_record(first + i) for i in range(SVAMP_PER_PART)})
    results = run / "results" / MODEL
    for abbr in ("gsm8k-toy", "mcq-toy"):
        _dump(results / f"{abbr}.json", json.loads((RECORDED / "expected" / MODEL / f"{abbr}.json").read_text()))
    _dump(results / "squad2.0.json", {"score": 66.66666666666667})
    return run


def _line(text: str, start: str) -> str:
    """The first line of ``text`` that starts with ``start``."""
    return next(line for line in text.splitlines() if line.startswith(start))


def _bytes(run: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run / "results" / MODEL).glob("*.json"))}


def test_a_task_that_cannot_run_leaves_opencompass_result_in_place(oc_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _bytes(oc_run)
    assert main(["run", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1  # squad2.0 failed
    captured = capsys.readouterr()
    after = _bytes(oc_run)
    assert after["squad2.0.json"] == before["squad2.0.json"]  # byte for byte
    assert "LCBProEvaluator" in captured.err and "not re-scored, so the result already there was kept" in captured.err
    log = (oc_run / "logs" / "eval" / MODEL / "squad2.0.out").read_text()
    assert "not re-scored" in log and "not written by assay, e.g. by OpenCompass" in log
    # the summary shows OpenCompass's number marked, and lists under the table that it was not re-scored and why
    assert "squad2.0" in captured.out and "66.67*" in _line(captured.out, "squad2.0 ")
    mark = _line(captured.out, f"  {MODEL} / squad2.0: not_rescored: ")
    assert "LCBProEvaluator" in mark and "already there" in mark
    assert "Not re-scored, shown as they were" not in captured.out  # the list of marks says it
    (summary,) = (oc_run / "summary").glob("summary_*.json")
    saved = json.loads(summary.read_text())
    (note,) = saved["not_rescored"]
    assert note["model"] == MODEL and note["dataset"] == "squad2.0" and "already there" in note["reason"]
    (marked,) = [m for m in saved["incomplete"] if m["dataset"] == "squad2.0"]
    assert (marked["kind"], marked["count"]) == ("not_rescored", None) and "LCBProEvaluator" in marked["detail"]
    assert "66.67*" in _line((oc_run / "summary" / f"{summary.stem}.md").read_text(), "| squad2.0 |")
    assert f"- {MODEL} / squad2.0: not_rescored: " in (oc_run / "summary" / f"{summary.stem}.md").read_text()
    assert f"  {MODEL} / squad2.0: not_rescored: " in (oc_run / "summary" / f"{summary.stem}.txt").read_text()
    html = (oc_run / "summary" / f"{summary.stem}.html").read_text()
    from tests.report.pages import board_data

    data = board_data(html)  # the cell's mark, as the page draws it from its data
    (row,) = [i for i, r in enumerate(data["rows"]) if r["dataset"] == "squad2.0"]
    (cell_mark,) = data["extras"][f"{row}:0"]["marks"]
    assert cell_mark["kind"] == "not_rescored" and "LCBProEvaluator" in cell_mark["detail"]
    assert f"{MODEL} / squad2.0: not_rescored — " in html
    # the other tasks were re-scored as usual
    assert json.loads(after["mcq-toy.json"])["accuracy"] == 60.0 and "_meta" in json.loads(after["mcq-toy.json"])
    # the index reads the kept file as it is
    capsys.readouterr()
    assert main(["index", str(oc_run), "--check"]) == 0, capsys.readouterr()
    # a second run keeps it again; summarize alone says so too
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    assert _bytes(oc_run)["squad2.0.json"] == before["squad2.0.json"]
    capsys.readouterr()
    assert main(["summarize", "-w", str(oc_run)]) == 0
    assert "66.67*" in _line(capsys.readouterr().out, "squad2.0 ")
    # an error record goes only where no result was, or where an error record was
    results = oc_run / "results" / MODEL
    (results / "squad2.0.json").unlink()
    for _ in range(2):
        assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
        assert "LCBProEvaluator" in json.loads((results / "squad2.0.json").read_text())["error"]
        assert not (oc_run / "logs" / "eval" / MODEL / "squad2.0.kept").exists()
    assert "kept" not in capsys.readouterr().err
    assert main(["summarize", "-w", str(oc_run)]) == 0
    out = capsys.readouterr().out
    assert "not_rescored" not in out and "*" not in _line(out, "squad2.0 ")




def test_a_group_computed_from_a_result_not_re_scored_is_marked(oc_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (dumped,) = (oc_run / "configs").glob("*.py")
    with dumped.open("a") as fh:
        fh.write("\nsummarizer = dict(summary_groups=[dict(name='toy-avg', subsets=['squad2.0', 'mcq-toy'])])\n")
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1  # squad2.0 failed, kept
    capsys.readouterr()
    assert main(["summarize", "-w", str(oc_run)]) == 0
    out = capsys.readouterr().out
    assert "66.67*" in _line(out, "squad2.0 ") and "*" not in _line(out, "mcq-toy ")
    assert "63.33*" in _line(out, "toy-avg ")  # (66.67 + 60) / 2
    assert f"  {MODEL} / toy-avg: not_rescored: computed from squad2.0" in out


def test_a_scoring_error_keeps_an_earlier_assay_result(oc_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    preds = oc_run / "predictions" / MODEL
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    result = oc_run / "results" / MODEL / "mcq-toy.json"
    scored = result.read_bytes()
    assert json.loads(scored)["_meta"]["assay_version"]
    (preds / "mcq-toy.json").write_text('{"0": {"prediction": "A"}, "1": ')  # truncated
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert result.read_bytes() == scored
    assert "mcq-toy.json is not valid JSON" in err and "written by assay" in err
    # once the task scores again, the note goes
    shutil.copy(RECORDED / "outputs" / "toy" / RUN / "predictions" / MODEL / "mcq-toy.json", preds / "mcq-toy.json")
    kept = oc_run / "logs" / "eval" / MODEL / "mcq-toy.kept"
    assert kept.exists()
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1  # squad2.0 still fails
    assert not kept.exists()


def _svamp_expected(parts: list[int]) -> float:
    records = [_svamp_record(p * SVAMP_PER_PART + i) for p in parts for i in range(SVAMP_PER_PART)]
    return 100 * sum(r["prediction"].endswith(f"is {r['gold']}") for r in records) / len(records)


def test_a_gap_in_split_predictions_fails_the_task_unless_a_partial_score_is_asked_for(
    oc_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = oc_run / "predictions" / MODEL
    (preds / "svamp_2.json").unlink()
    result = oc_run / "results" / MODEL / "svamp.json"
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    record = json.loads(result.read_text())
    assert "svamp_2.json missing" in record["error"] and str(preds) in record["error"]
    assert "toy-model/svamp failed" in err and "svamp_2.json missing" in err
    # the dry run says the same, and that a partial score would run
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--dry-run"]) == 1  # squad2.0 as well
    out = capsys.readouterr().out
    assert "CANNOT toy-model/svamp:" in out and "cannot run: " in out and "svamp_2.json missing" in out
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--dry-run", "--allow-partial"]) == 1
    out = capsys.readouterr().out
    assert "ok     toy-model/svamp:" in out and "partial score asked for: " in out
    # asked for: scored on the 7 parts there are, and marked
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1", "--allow-partial"]) == 1  # squad2.0
    err = capsys.readouterr().err
    scored = json.loads(result.read_text())
    present = [p for p in range(SVAMP_PARTS) if p != 2]
    assert scored["accuracy"] == pytest.approx(_svamp_expected(present))
    assert len(scored["details"]) == SVAMP_PER_PART * len(present)
    (mark,) = scored["_meta"]["incomplete"]
    assert mark["kind"] == "partial_predictions" and mark["count"] == SVAMP_PER_PART
    assert "svamp_2.json" in mark["detail"] and str(preds) in mark["detail"]
    assert "toy-model/svamp ok" in err and "partial: svamp_2.json missing" in err
    # the same inputs without asking: not reused, failed again (the partial result is kept, and marked)
    partial = result.read_bytes()
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "svamp_2.json missing" in err and "not re-scored" in (oc_run / "logs" / "eval" / MODEL / "svamp.out").read_text()
    assert result.read_bytes() == partial
    # the part restored: a whole score, unmarked
    _dump(preds / "svamp_2.json", {str(i): _svamp_record(2 * SVAMP_PER_PART + i) for i in range(SVAMP_PER_PART)})
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1", "--allow-partial"]) == 1
    whole = json.loads(result.read_text())
    assert whole["accuracy"] == pytest.approx(_svamp_expected(list(range(SVAMP_PARTS))))
    assert "incomplete" not in whole["_meta"]


def _split(path: Path, sizes: list[int]) -> None:
    """Cut a prediction file into OpenCompass's parts ``<abbr>_0.json`` … (each keyed from "0")."""
    records = list(json.loads(path.read_text()).values())
    path.unlink()
    start = 0
    for part, size in enumerate(sizes):
        _dump(path.with_name(f"{path.stem}_{part}.json"), {str(i): r for i, r in enumerate(records[start : start + size])})
        start += size


def test_a_partial_score_against_the_test_set_takes_the_rows_the_parts_hold(
    oc_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(RECORDED / "data", oc_run.parents[2] / "data")  # mcq-toy's references come from its data
    preds = oc_run / "predictions" / MODEL
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1", "--force"]) == 1
    result = oc_run / "results" / MODEL / "mcq-toy.json"
    correct = [all(d["correct"]) for d in json.loads(result.read_text())["details"]]
    assert "references" not in json.loads(result.read_text())["_meta"]
    _split(preds / "mcq-toy.json", [2, 2, 1])
    (preds / "mcq-toy_1.json").unlink()  # rows 2 and 3
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1", "--allow-partial"]) == 1
    scored = json.loads(result.read_text())
    kept = [correct[i] for i in (0, 1, 4)]
    assert scored["accuracy"] == pytest.approx(100 * sum(kept) / 3)
    assert scored["_meta"]["incomplete"][0]["count"] == 2 and scored["_meta"]["num_samples"] == 3
    # fewer records than test rows, in one file: an error naming both counts; asked for, the first rows
    for part in (0, 2):
        (preds / f"mcq-toy_{part}.json").unlink()
    shutil.copy(RECORDED / "outputs" / "toy" / RUN / "predictions" / MODEL / "mcq-toy.json", preds / "mcq-toy.json")
    records = json.loads((preds / "mcq-toy.json").read_text())
    _dump(preds / "mcq-toy.json", {k: records[k] for k in ("0", "1", "2")})
    capsys.readouterr()
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "has 3 records but the test set of dataset 'mcq-toy' has 5 rows" in err and "--allow-partial" in err
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1", "--allow-partial"]) == 1
    scored = json.loads(result.read_text())
    assert scored["accuracy"] == pytest.approx(100 * sum(correct[:3]) / 3)
    assert scored["_meta"]["incomplete"] == [
        {"kind": "partial_predictions", "count": 2, "detail": f"predictions in {preds / 'mcq-toy.json'} cover 3 of 5 rows; scored those"}
    ]
    # the same inputs without asking: the partial result is not reused
    capsys.readouterr()
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "toy-model/mcq-toy reused" not in err and "toy-model/mcq-toy failed" in err
    log = (oc_run / "logs" / "eval" / MODEL / "mcq-toy.out").read_text()
    assert "scored on part of the predictions, and a partial score was not asked for" in log


def test_a_sample_key_given_twice_is_scored_as_opencompass_does_and_reported(
    oc_run: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    part = oc_run / "predictions" / MODEL / "svamp_3.json"
    members = [(str(i), _svamp_record(3 * SVAMP_PER_PART + i)) for i in range(SVAMP_PER_PART)]
    wrong = dict(members[1][1], prediction="The answer is 1000")
    members.insert(1, ("1", wrong))  # the earlier, wrong one is overridden: the last value wins
    members.append(("4", wrong))  # the last one wins: record 4 becomes wrong
    part.write_text("{\n" + ",\n".join(f"    {json.dumps(k)}: {json.dumps(v, indent=4)}" for k, v in members) + "\n}")
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1  # squad2.0
    err = "\n".join(r.getMessage() for r in caplog.records if r.levelname == "WARNING")
    result = json.loads((oc_run / "results" / MODEL / "svamp.json").read_text())
    records = [_svamp_record(i) for i in range(SVAMP_PARTS * SVAMP_PER_PART)]
    records[3 * SVAMP_PER_PART + 4] = wrong
    expected = 100 * sum(r["prediction"].endswith(f"is {r['gold']}") for r in records) / len(records)
    assert result["accuracy"] == pytest.approx(expected)
    assert result["_meta"]["duplicate_keys"] == {"count": 2, "files": {str(part): ["1", "4"]}}
    assert str(part) in err and "2 sample key(s) more than once ('1', '4')" in err
    assert "more than once" in (oc_run / "logs" / "eval" / MODEL / "svamp.out").read_text()
    # marked in the table, not partial: the number is OpenCompass's
    assert result["_meta"]["incomplete"] == [{
        "kind": "duplicate_keys", "count": 2,
        "detail": "sample keys given more than once, the last of each scored as OpenCompass does (svamp_3.json: '1', '4')",
    }]
    assert "toy-model/svamp ok" in capsys.readouterr().err
    assert main(["summarize", "-w", str(oc_run.parent), "-r", RUN, "--no-report"]) == 0
    out = capsys.readouterr().out
    svamp_row = next(line for line in out.splitlines() if line.startswith("svamp "))
    assert svamp_row.rstrip().endswith(f"{expected:.2f}*")
    assert "duplicate_keys (2 samples): sample keys given more than once" in out


def test_a_test_row_without_its_reference_fails_the_task_and_keeps_opencompass_result(
    oc_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = oc_run.parents[2] / "data"
    shutil.copytree(RECORDED / "data", data)
    mcq = data / "toy" / "mcq.jsonl"
    rows = [json.loads(line) for line in mcq.read_text().splitlines()]
    del rows[3]["answer"]
    mcq.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = oc_run / "results" / MODEL / "mcq-toy.json"
    before = result.read_bytes()
    assert main(["eval", "-w", str(oc_run.parent), "-r", RUN, "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "toy-model/mcq-toy failed" in err
    assert "row(s) 3 (counted from 0) of the test set (" in err and "mcq.jsonl) have no value in the reference column 'answer'" in err
    assert result.read_bytes() == before  # OpenCompass's number stays, not re-scored
