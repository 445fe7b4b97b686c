"""The leaderboard: built once by the summarizer, written as the summary ``.json``, read back at full precision."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.summarize import Leaderboard, newest_summary_json

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"
BEFORE = Path(__file__).parents[1] / "data" / "summarize" / "summary_json_before"

#: The summarizers of the files in ``BEFORE`` (the default one needs nothing added to the example).
SUMMARIZERS = {
    "default": "",
    "circular": "summarizer = dict(type='CircularSummarizer', metric_types=['accuracy', 'naive_average'],\n"
                "                  dataset_abbrs=['quick_mcq', 'quick_numeric', 'quickstart', 'nothing'],\n"
                "                  summary_groups=quickstart_summary_groups)\n",
    "multi_faceted": "summarizer = dict(type='MultiFacetedSummarizer', summary_groups=quickstart_summary_groups,\n"
                     "                  dataset_abbrs_list=[dict(name='none', dataset_abbrs=['nothing']), "
                     "dict(name='groups', dataset_abbrs=[\n"
                     "                      ['quickstart', 'naive_average'], ['quick_short', 'score']]), "
                     "dict(name='all', dataset_abbrs=None)])\n",
}
UNJUDGED = {"kind": "unjudged", "count": 2, "detail": "2 of 8 judge requests failed"}


@pytest.fixture(scope="module")
def marked_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quickstart run, with chat-small's quick_short result saying 2 samples were not judged (so: changed too)."""
    work = tmp_path_factory.mktemp("board") / "w"
    assert main(["run", str(EXAMPLE), "-w", str(work), "--no-report"]) == 0
    (run,) = work.iterdir()
    path = run / "results" / "chat-small" / "quick_short.json"
    result = json.loads(path.read_text())
    result["_meta"]["incomplete"] = [UNJUDGED]
    path.write_text(json.dumps(result))
    return run


def _summarize(run: Path, kind: str, tmp_path: Path) -> Path:
    example = tmp_path / "quickstart"
    shutil.copytree(EXAMPLE.parent, example)
    config = example / "config.py"
    config.write_text(config.read_text() + "\n" + SUMMARIZERS[kind])
    out = tmp_path / "summary" / "summary.txt"
    assert main(["summarize", str(config), "-w", str(run), "-o", str(out), "--no-report"]) == 0
    return out.with_suffix(".json")


@pytest.mark.parametrize("kind", sorted(SUMMARIZERS))
def test_the_summary_json_reads_back_as_the_leaderboard_the_summarizer_built(
    kind: str, marked_run: Path, tmp_path: Path
) -> None:
    from assay.config import load_config
    from assay.summarize import run_summarizer

    written = _summarize(marked_run, kind, tmp_path)
    board = Leaderboard.from_json(written)
    assert Leaderboard.from_json(board.to_json()) == board
    # the same leaderboard the summarizer returns, every value and mark as it computed them
    example = tmp_path / "quickstart" / "config.py"
    variables = dict(load_config(example).variables)
    variables["work_dir"] = str(marked_run)
    result = run_summarizer(variables, time_str=board.time, output_path=str(tmp_path / "again" / "s.txt"), stats=False)
    assert result.leaderboard == board
    cell = board.cell("chat-small", "quickstart", "naive_average")
    assert cell.value == 64.16666666666667
    assert [(m.kind, m.count) for m in cell.marks] == [("unjudged", 2), ("changed", None)]
    assert board.cell("reasoner (think)", "quickstart", "naive_average").marks == ()


@pytest.mark.parametrize("kind", sorted(SUMMARIZERS))
def test_a_summary_json_written_before_the_leaderboard_reads_as_the_same_leaderboard(
    kind: str, marked_run: Path, tmp_path: Path
) -> None:
    """Files written by the summarizer before its ``.json`` kept ``dataset_abbrs`` and ``metrics``."""
    old = Leaderboard.from_json(BEFORE / f"{kind}.json")
    new = Leaderboard.from_json(_summarize(marked_run, kind, tmp_path))
    assert "metrics" not in json.loads((BEFORE / f"{kind}.json").read_text())
    for name in ("models", "rows", "scores", "dataset_abbrs", "groups", "metrics", "modes", "versions", "header",
                 "marks", "changed", "not_rescored", "gold_references", "errors", "warnings", "views", "metric_types",
                 "summarizer"):
        assert getattr(old, name) == getattr(new, name), name
    assert old.scores["chat-small"]["quickstart"]["naive_average"] == 64.16666666666667


def test_a_file_that_is_not_a_summary_is_an_error_naming_it(tmp_path: Path) -> None:
    from assay.errors import InputFileError

    path = tmp_path / "summary_x.json"
    path.write_text('{"scores": [1, 2]}')
    with pytest.raises(InputFileError, match=r"summary_x\.json: not a summary \.json"):
        Leaderboard.from_json(path)
    path.write_text("[1]")
    with pytest.raises(InputFileError, match=r"summary_x\.json: a summary \.json holds an object, not list"):
        Leaderboard.from_json(path)


def test_a_mark_survives_into_the_report_of_assay_run_and_of_assay_report(marked_run: Path, tmp_path: Path) -> None:
    from assay.report import build_report_data
    from tests.report.pages import board_data

    run = tmp_path / "run"
    shutil.copytree(marked_run, run)
    assert main(["summarize", str(EXAMPLE), "-w", str(run)]) == 0
    board = Leaderboard.from_json(newest_summary_json(run))
    data = build_report_data(run)  # as assay report reads the run: the newest summary .json
    row = next(i for i, r in enumerate(data["rows"]) if (r["dataset"], r["metric"]) == ("quick_short", "score"))
    small, reasoner = data["models"].index("chat-small"), data["models"].index("reasoner (think)")
    assert data["rows"][row]["cells"][small][0] == board.cell("chat-small", "quick_short", "score").value == 37.5
    marks = data["extras"][f"{row}:{small}"]["marks"]
    assert marks[0] == UNJUDGED and [m["kind"] for m in marks] == ["unjudged", "changed"]
    assert "marks" not in data["extras"].get(f"{row}:{reasoner}", {})
    (html,) = (run / "summary").glob("summary_*.html")
    written_by_summarize = html.read_text()
    assert main(["report", "-w", str(run)]) == 0
    again = html.read_text()
    for text in (written_by_summarize, again):
        shown = board_data(text)["extras"][f"{row}:{small}"]
        assert [m["kind"] for m in shown["marks"]] == ["unjudged", "changed"] and "2 of 8 judge requests failed" in text
