"""The audit record: result files and summaries written before the record was a type read and written back byte
for byte; a malformed record named by its file and field, never losing the rest of the run.

``tests/data/audit`` holds the result files of five audited tasks (two runs with G-Pass@k; verdicts that are
shares of candidates; no reply differing; an audit that failed; options carried over at the evaluator level)
and the summary ``.json`` of that run, as the code before :class:`AuditRecord` wrote them.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from assay.audit import AuditRecord, attach, detach, read_records, record_of, records_json
from assay.cli import main
from assay.rundir.results import META_KEY, read_result, write_result
from tests.audit.test_run import FIXED, RUN, _write_run

WRITTEN = Path(__file__).resolve().parent.parent / "data" / "audit"
RESULTS = sorted((WRITTEN / "results" / "m").glob("*.json"))


def test_the_written_files_are_there() -> None:
    assert [p.stem for p in RESULTS] == ["gsm_runs", "gsm_same", "gsm_shares", "math_broken", "mc"]


@pytest.mark.parametrize("path", RESULTS, ids=[p.stem for p in RESULTS])
def test_a_result_written_before_is_written_back_byte_for_byte(path: Path, tmp_path: Path) -> None:
    """Read into the typed record and put back as the scoring step does (before the details, ``_meta`` after)."""
    result = read_result(path)
    record = detach(result)
    assert isinstance(record, AuditRecord) and record_of(result) is None
    meta = result.pop(META_KEY)
    attach(result, record)
    result[META_KEY] = meta
    out = tmp_path / path.name
    write_result(out, result)
    assert out.read_bytes() == path.read_bytes()


def test_the_typed_record_reads_what_was_written() -> None:
    records = {p.stem: record_of(read_result(p)) for p in RESULTS}
    shares = records["gsm_shares"]
    assert shares is not None and shares.ok and shares.replies == 8 and shares.differ == 5
    assert shares.would_be("accuracy") == 93.75
    by_sample = dict(zip(shares.samples, shares.readings))
    assert by_sample[3].official == ["NULL"] and by_sample[3].corrected == [""]
    assert by_sample[3].correct == [0.5] and by_sample[0].correct == [1.0]  # as the statistics read verdicts
    runs = records["gsm_runs"]
    assert runs is not None and runs.replies == 16 and all(len(r.official) == 2 for r in runs.readings)
    assert runs.would_be("gsm_runs/mG-Pass@2") is not None
    same = records["gsm_same"]
    assert same is not None and same.differ == 0 and same.readings == [] and same.would_be("accuracy") == 100.0
    broken = records["math_broken"]
    assert broken is not None and not broken.ok and broken.error == "ValueError: cannot read this one"
    assert broken.would_be("accuracy") is None
    mc = records["mc"]
    assert mc is not None and mc.corrections[0]["options"] == {"letters": "ABC"}


def test_a_summary_written_before_keeps_its_records() -> None:
    summary = json.loads((WRITTEN / "summary.json").read_text())
    records = read_records(summary["extraction_audits"], "summary.json")
    assert sorted(records["m"]) == ["gsm_runs", "gsm_same", "gsm_shares", "math_broken", "mc"]
    again = records_json(records)
    assert json.dumps(again) == json.dumps(summary["extraction_audits"])  # same keys, same order, same values
    from assay.summarize import Leaderboard

    board = Leaderboard.from_json(summary)
    assert isinstance(board.audits["m"]["gsm_shares"], AuditRecord) and board.audits["m"]["gsm_shares"].differ == 5
    assert json.dumps(board.to_json()["extraction_audits"]) == json.dumps(summary["extraction_audits"])


@pytest.mark.parametrize(
    "readings",
    [
        [{"official": ["A"], "corrected": ["B"], "correct": [True]}, {"official": ["C", "D"], "corrected": ["D", "D"]}],
        # not written by to_json as they are (null verdicts left out, shares, another key order): read eagerly
        [{"official": ["A"], "corrected": ["B"], "correct": None}],
        [{"official": ["A"], "corrected": ["B"], "correct": [0.5, None]}],
        [{"corrected": ["B"], "official": ["A"], "correct": [False]}],
    ],
)
def test_readings_read_when_asked_for_are_those_read_at_once(readings: list[dict[str, object]]) -> None:
    """A record read from JSON writes the same JSON, and gives the same readings, whether or not its readings
    were asked for (they are built from their JSON when first asked for)."""
    from assay.audit.record import Reading

    data = {"corrections": [], "replies": 4, "differ": 2, "samples": [0, 1], "readings": readings, "metrics": {"accuracy": 50.0}}
    eager = [Reading.from_json(r) for r in readings]
    expected = {**data, "readings": [r.to_json() for r in eager]}
    untouched = AuditRecord.from_json(json.loads(json.dumps(data)))
    assert json.dumps(untouched.to_json()) == json.dumps(expected)
    asked = AuditRecord.from_json(json.loads(json.dumps(data)))
    assert asked.readings == eager and asked == untouched
    assert json.dumps(asked.to_json()) == json.dumps(expected)
    with pytest.raises(AttributeError):
        untouched.no_such_field  # noqa: B018


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ([], "extraction_audit: expected an object, got list"),
        ({"corrections": [], "replies": 2, "differ": "three", "samples": [], "readings": [], "metrics": {}},
         "extraction_audit.differ: expected a count, got 'three'"),
        ({"corrections": [], "replies": 2, "differ": 1, "samples": ["0"], "readings": [], "metrics": {}},
         "extraction_audit.samples: expected a list of sample indices"),
        ({"corrections": [], "replies": 2, "differ": 1, "samples": [0], "readings": [{"official": ["a"]}], "metrics": {}},
         "extraction_audit.readings[0].corrected: expected a list of answers, got None"),
        ({"corrections": [], "replies": 2, "differ": 1, "samples": [0],
          "readings": [{"official": ["a"], "corrected": ["b"], "correct": ["yes"]}], "metrics": {}},
         "extraction_audit.readings[0].correct: a verdict must be true, false, a number or null, got 'yes'"),
        ({"corrections": [], "replies": 2, "differ": 0, "samples": [], "readings": []},
         "extraction_audit.metrics: expected an object, got None"),
    ],
)
def test_a_malformed_record_names_the_field(data: object, named: str) -> None:
    with pytest.raises(ValueError) as caught:
        AuditRecord.from_json(data)
    assert named in str(caught.value)


@pytest.mark.usefixtures("no_builtin_pairs")
def test_a_malformed_record_in_a_run_is_named_and_the_rest_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """``assay verify`` names the file and the field; ``assay summarize`` warns, naming the file, and shows the official
    number with the other results."""
    from assay.audit import declare_correction, withdraw_correction

    cfg = _write_run(tmp_path)
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    path = tmp_path / "work" / RUN / "results" / "m" / "gsm.json"
    data = json.loads(path.read_text())
    data["extraction_audit"]["differ"] = "three"
    path.write_text(json.dumps(data, indent=4))
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "work"), "-r", RUN]) == 1
    out = capsys.readouterr().out
    assert "results/m/gsm.json: extraction_audit" in out and "extraction_audit.differ: expected a count, got 'three'" in out
    with caplog.at_level(logging.WARNING):
        assert main(["summarize", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN]) == 0
    summary = json.loads(next((tmp_path / "work" / RUN / "summary").glob("*.json")).read_text())
    assert "extraction_audits" not in summary
    assert [row["values"] for row in summary["rows"] if row["dataset"] == "gsm"] == [{"m": data["accuracy"]}]
    assert any("gsm.json" in r.getMessage() and "extraction_audit.differ" in r.getMessage() for r in caplog.records)


_RECORD = {"corrections": [], "replies": 4, "differ": 2, "samples": [0, 1], "metrics": {"accuracy": 50.0},
           "readings": [{"official": ["A"], "corrected": ["B"], "correct": [True]}, {"official": ["C"], "corrected": ["D"]}]}


def test_a_record_read_from_json_is_frozen_before_its_readings_are_asked_for() -> None:
    from dataclasses import FrozenInstanceError

    record = AuditRecord.from_json(json.loads(json.dumps(_RECORD)))
    with pytest.raises(FrozenInstanceError):
        record.readings = []
    with pytest.raises(FrozenInstanceError):
        del record.readings
    assert [r.official for r in record.readings] == [["A"], ["C"]]


def test_a_record_read_from_json_shares_nothing_with_its_input_or_its_json() -> None:
    """Changing the JSON a record was read from, or the JSON it gives, leaves the record as it was read."""
    data = json.loads(json.dumps(_RECORD))
    record = AuditRecord.from_json(data)
    data["readings"][0]["official"].append("X")
    del data["readings"][1]["corrected"]
    data["readings"].append({"official": ["E"], "corrected": ["F"]})
    out = record.to_json()
    assert out == _RECORD
    out["readings"].clear()
    assert record.to_json() == _RECORD
    record.to_json()["readings"][0]["official"].clear()
    assert record.to_json() == _RECORD
    assert [(r.official, r.corrected) for r in record.readings] == [(["A"], ["B"]), (["C"], ["D"])]
    record.to_json()["readings"].clear()
    assert len(record.readings) == 2 and record.to_json() == _RECORD


_READING_PARTS = [
    {"official": ["A"], "corrected": ["B"]},
    {"official": ["A"], "corrected": ["B"], "correct": [True]},
    {"official": ["A", "C"], "corrected": ["B", "C"], "correct": [False, True]},
    {"official": ["A"], "corrected": ["B"], "correct": []},
    {"official": ["A"], "corrected": ["B"], "correct": [1]},
    {"official": ["A"], "corrected": ["B"], "correct": [True, None]},
    {"official": ["A"], "corrected": ["B"], "correct": None},
    {"official": ["A"], "corrected": ["B"], "correct": True},
    {"corrected": ["B"], "official": ["A"]},
    {"official": "A", "corrected": ["B"]},
    {"official": ["A"], "corrected": ("B",)},
    {"official": ["A"]},
    {"official": ["A"], "corrected": ["B"], "extra": 1},
    ["A", "B"],
    None,
]


def _plain(reading: object) -> bool:
    """The one-reading rule, reading by reading: what ``Reading.to_json`` writes, key for key (lists of answers, and
    verdicts, when there are some, a non-empty list of true and false)."""
    if type(reading) is not dict or type(reading.get("official")) is not list or type(reading.get("corrected")) is not list:
        return False
    keys = tuple(reading)
    if keys == ("official", "corrected"):
        return True
    correct = reading.get("correct")
    return keys == ("official", "corrected", "correct") and type(correct) is list and {type(v) for v in correct} == {bool}


def test_the_readings_check_of_a_whole_record_is_the_check_of_each_reading() -> None:
    """A summary checks every reading of a record at once; it accepts a record exactly when each of its
    readings passes the one-reading rule (every pair and triple of the kinds above, and each alone)."""
    import itertools

    from assay.audit.record import _all_plain

    cases = [[]] + [[r] for r in _READING_PARTS] + [list(c) for c in itertools.product(_READING_PARTS, repeat=2)]
    cases += [[_READING_PARTS[1], _READING_PARTS[0], bad] for bad in _READING_PARTS[3:]]
    for readings in cases:
        assert _all_plain(readings) == all(map(_plain, readings)), readings
