"""The HTML report file: self-contained, complete, explained."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.report import build_report_data, cell_tip, write_html_report
from tests.report.pages import board_data, sample_data
from tests.stats.workdir_builder import TIME, make_run


def test_report_is_one_offline_file(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    path = write_html_report(run, None, TIME)
    assert path == run / "summary" / f"summary_{TIME}.html"
    html = path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "<script src" not in html
    assert "@import" not in html and "url(" not in html
    assert board_data(html)["models"] == ["m1", "m2"]
    mcq = next(d for d in sample_data(path) if d["abbr"] == "mcq")
    assert mcq["models"] == ["m1", "m2"] and mcq["n"] == 120
    # raw predictions come from the prediction files; the '<b>' in them is escaped JSON, not markup
    assert mcq["raw"][0][0].startswith("The answer is")
    assert "<b>" not in html.split('id="assay-board"')[0]
    assert not (path.parent / f"{path.stem}_files").exists()  # a small run's samples are in the page


def test_leaderboard_matches_summary_csv_and_explains_dashes(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    summary = json.loads((run / "summary" / f"summary_{TIME}.json").read_text())
    data = build_report_data(run, summary)
    with open(run / "summary" / f"summary_{TIME}.csv", newline="") as fh:
        table = list(csv.reader(fh))
    assert len(data["rows"]) == len(table) - 1
    for row, expected in zip(data["rows"], table[1:]):
        shown = [row["dataset"], row["version"], row["metric"], row["mode"]] + [
            "-" if c[0] is None else f"{c[0]:.2f}" for c in row["cells"]
        ]
        assert shown == expected
    index = {r["dataset"]: i for i, r in enumerate(data["rows"])}
    assert "boom" in cell_tip(data, index["broken"], 1)
    mcc = data["rows"][index["mcc"]]["cells"][0]
    assert "no interval" in cell_tip(data, index["mcc"], 0) and mcc[1] is None
    mcq = data["rows"][index["mcq"]]["cells"][0]
    assert mcq[1] < mcq[0] < mcq[2]
    assert mcq[5] > 0 and "not extracted" in cell_tip(data, index["mcq"], 0)
    names = [g["name"] for g in data["groups"]]
    assert names == ["core", "core_weighted", "spread", "overall"]


def test_report_without_summary_reads_results(tmp_path: Path) -> None:
    run = make_run(tmp_path, summarize=False)
    data = build_report_data(run, None)
    assert {r["dataset"] for r in data["rows"]} >= {"mcq", "qa", "rep"}
    assert data["groups"] == []


def test_report_command(tmp_path: Path, capsys) -> None:
    from assay.cli import main

    run = make_run(tmp_path)
    assert main(["report", "-w", str(run.parent)]) == 0
    assert Path(capsys.readouterr().out.strip()) == run / "summary" / f"summary_{TIME}.html"


def test_report_takes_the_summarys_statistics_and_reads_only_the_sample_columns(tmp_path: Path, monkeypatch) -> None:
    import assay.rundir.statistics as statistics
    from assay.summarize import run_summarizer
    from tests.stats.varied_run import TIME as VARIED_TIME
    from tests.stats.varied_run import make_varied_run
    from tests.stats.workdir_builder import run_config

    run = make_varied_run(tmp_path, summarize=False)
    result = run_summarizer(run_config(run), time_str=VARIED_TIME)
    assert result.stats is not None and result.stats.tables is None  # the summary reads no sample text
    summary = json.loads((run / "summary" / f"summary_{VARIED_TIME}.json").read_text())
    fresh = build_report_data(run, summary)  # no statistics at hand: everything is read here
    real = statistics.run_task
    asked: list[tuple[str, bool]] = []

    def spy(task, run_dir, options):
        asked.append((task.abbr, bool(task.have)))
        return real(task, run_dir, options)

    monkeypatch.setattr(statistics, "run_task", spy)
    reused = build_report_data(run, result, stats=result.stats)
    assert asked and not any(have for _, have in asked)  # the statistics were not computed again
    assert reused["datasets"] == fresh["datasets"] and reused["rows"] == fresh["rows"]
    assert {d["abbr"] for d in reused["datasets"]} >= {"plain", "multi", "orig", "split", "mism", "odd"}
    monkeypatch.undo()
    short = build_report_data(run, result, stats=result.stats, max_text=5)  # other limit: read again
    plain = next(d for d in short["datasets"] if d["abbr"] == "plain")
    assert any(t.endswith("more characters]") for t in plain["raw"][0])


def test_summary_without_report_keeps_no_sample_columns(tmp_path: Path) -> None:
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    run = make_run(tmp_path, summarize=False)
    result = run_summarizer(run_config(run), time_str=TIME, stats=False, ci=True)
    assert result.stats is not None and result.stats.tables is None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(st.characters(codec=None))
    | st.sampled_from([1e-06, 2.5e-05, 1e16, 1e22, -0.0, 2**70, "\ud800 lone", "</script>", "<!-- x -->", "<\\/"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_embedded_sample_data_is_plain_json_that_cannot_end_its_element(value) -> None:
    from assay.report._html import _payload

    payload = _payload(value)
    assert b"<" not in payload  # no "</script>" and no "<!--" can appear in the element
    assert json.loads(payload) == value


def test_embedded_non_finite_numbers_are_null() -> None:
    from assay.report._html import _payload

    assert json.loads(_payload([float("nan"), float("inf"), 0.5])) == [None, None, 0.5]  # JSON has no NaN


def test_texts_that_look_like_markup_reach_the_browser_unchanged(tmp_path: Path) -> None:
    from tests.stats.varied_run import TIME as VARIED_TIME
    from tests.stats.varied_run import make_varied_run

    run = make_varied_run(tmp_path)
    markup = ["</script><script>alert(1)</script>", "<!-- not a comment -->", "a < b && c > d"]
    prediction_file = run / "predictions" / "m1" / "plain.json"
    records = json.loads(prediction_file.read_text())
    for i, text in enumerate(markup):
        records[str(i)]["prediction"] = text
    prediction_file.write_text(json.dumps(records))
    data = build_report_data(run, None)
    path = write_html_report(run, None, VARIED_TIME)
    document = path.read_text()
    # the leaderboard's element, one per dataset's samples and the script's own
    assert document.count("</script>") == 2 + len(data["datasets"])
    embedded = sample_data(path)
    assert embedded == data["datasets"]
    plain = next(d for d in embedded if d["abbr"] == "plain")
    raw = plain["raw"][plain["models"].index("m1")]
    assert raw[: len(markup)] == markup
