"""The report shows the summary's own numbers, at full precision, however it was written.

``assay run`` writes the report from the summary it has just computed;
``assay report`` writes it again from the summary's ``.json``.  Both show
every value as the ``.json`` holds it, never as the two-decimal table
shows it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from tests.report.pages import board_data

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"


def _leaderboard(html: Path, models: list[str]) -> dict[tuple[str, str, str], tuple[str, str | None]]:
    """Each value of a report's table: (dataset, metric, model) → (the value in its hover text, the value it holds).

    The page draws its cells from the data it holds: the hover text is
    :func:`assay.report.cell_tip`'s, the value shown is the one held (in full).
    """
    from assay.report import cell_tip

    data = board_data(html.read_text(encoding="utf-8"))
    assert data["models"] == models
    values: dict[tuple[str, str, str], tuple[str, str | None]] = {}
    for r, row in enumerate(data["rows"]):
        for c, model in enumerate(models):
            cell = row["cells"][c]
            if cell[0] is None:
                continue
            tip = cell_tip(data, r, c).split("\n")[0]
            assert tip.startswith(f"{model} · {row['dataset']} · {row['metric']} = "), tip
            values[(row["dataset"], row["metric"], model)] = (tip.rpartition(" = ")[2], repr(cell[0]))
    return values


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("precision") / "w"
    assert main(["run", str(EXAMPLE), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    return run


def test_run_and_report_show_the_summarys_values_at_full_precision(quickstart: Path) -> None:
    (summary_json,) = (quickstart / "summary").glob("summary_*.json")
    (html,) = (quickstart / "summary").glob("summary_*.html")
    summary = json.loads(summary_json.read_text())
    models = summary["models"]
    written_by_run = _leaderboard(html, models)

    assert main(["report", "-w", str(quickstart)]) == 0
    (again,) = (quickstart / "summary").glob("summary_*.html")
    written_by_report = _leaderboard(again, models)

    # the same values, in the hover text and in the cell, whichever command wrote the report
    assert written_by_run == written_by_report
    # and they are the summary's own numbers, every digit as its .json holds them
    expected = {
        (row["dataset"], row["metric"], model): repr(value)
        for row in summary["rows"]
        for model, value in row["values"].items()
        if value is not None
    }
    assert {k: v[0] for k, v in written_by_run.items()} == expected
    assert {k: v[1] for k, v in written_by_run.items()} == expected

    # a summary group: the mean of its cells, not of their two-decimal forms
    scores = summary["scores"]["chat-small"]
    mean = (scores["quick_mcq"]["accuracy"] + scores["quick_short"]["score"] + scores["quick_numeric"]["accuracy"]) / 3
    assert written_by_report[("quickstart", "naive_average", "chat-small")][0] == repr(mean) == "64.16666666666667"
    assert written_by_report[("quick_short", "score", "chat-small")][0] == "37.5"


SUMMARIZERS = {
    "circular": "summarizer = dict(type='CircularSummarizer', metric_types=['accuracy', 'naive_average'],\n"
                "                  dataset_abbrs=['quick_mcq', 'quick_numeric', 'quickstart'],\n"
                "                  summary_groups=quickstart_summary_groups)\n",
    "multi_faceted": "summarizer = dict(type='MultiFacetedSummarizer', summary_groups=quickstart_summary_groups,\n"
                     "                  dataset_abbrs_list=[dict(name='groups', dataset_abbrs=[\n"
                     "                      ['quickstart', 'naive_average'], ['quick_short', 'score']])])\n",
}


@pytest.mark.parametrize("kind", sorted(SUMMARIZERS))
def test_other_summarizers_give_the_same_report_from_run_and_from_report(kind: str, tmp_path: Path) -> None:
    """A table of metric columns (``CircularSummarizer``) or of views (``MultiFacetedSummarizer``): one value per cell."""
    import shutil

    example = tmp_path / "quickstart"
    shutil.copytree(EXAMPLE.parent, example)
    config = example / "config.py"
    config.write_text(config.read_text() + "\n" + SUMMARIZERS[kind])
    work = tmp_path / "w"
    assert main(["run", str(config), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    (html,) = (run / "summary").glob("summary_*.html")
    models = json.loads(next((run / "summary").glob("summary_*.json")).read_text())["models"]
    written_by_run = _leaderboard(html, models)

    assert main(["report", "-w", str(run)]) == 0
    assert _leaderboard(html, models) == written_by_run
    assert written_by_run[("quickstart", "naive_average", "chat-small")] == ("64.16666666666667", "64.16666666666667")
    assert written_by_run[("quickstart", "naive_average", "reasoner (think)")][0] == "92.5"
    shown = {(d, m) for d, m, _ in written_by_run}
    if kind == "circular":  # each metric of each row, where the dataset has it
        assert shown == {("quick_mcq", "accuracy"), ("quick_numeric", "accuracy"), ("quickstart", "naive_average")}
    else:  # the view's rows
        assert shown == {("quickstart", "naive_average"), ("quick_short", "score")}


def test_the_report_names_the_run_when_given_the_run_directory_as_dot(
    quickstart: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.report import build_report_data

    monkeypatch.chdir(quickstart)
    assert build_report_data(".")["run"] == quickstart.name
