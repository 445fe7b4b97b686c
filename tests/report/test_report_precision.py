"""The report shows the summary's own numbers, at full precision, however it was written.

``assay run`` writes the report from the summary it has just computed;
``assay report`` writes it again from the summary's ``.json``.  Both show
every value as the ``.json`` holds it, never as the two-decimal table
shows it.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from assay.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"


class _Leaderboard(HTMLParser):
    """Each leaderboard value of a report: (dataset, metric, model) → (the value in its hover text, its ``data-value``)."""

    def __init__(self, models: list[str]) -> None:
        super().__init__()
        self.models = models
        self.values: dict[tuple[str, str, str], tuple[str, str | None]] = {}
        self._in_board = False
        self._row: list[str] = []
        self._text: list[str] | None = None
        self._cell = -1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self._in_board = a.get("id") == "leaderboard"
        elif not self._in_board:
            return
        elif tag == "tr":
            self._row, self._cell = [], -1
        elif tag == "td":
            self._cell += 1
            if self._cell < 4:
                self._text = []
            elif a.get("class") == "num":
                model = self.models[self._cell - 4]
                tip = (a.get("title") or "").split("\n")[0]
                assert tip.startswith(f"{model} · {self._row[0]} · {self._row[2]} = "), tip
                self.values[(self._row[0], self._row[2], model)] = (tip.rpartition(" = ")[2], None)
        elif tag == "span" and a.get("class") == "v":
            key = (self._row[0], self._row[2], self.models[self._cell - 4])
            self.values[key] = (self.values[key][0], a.get("data-value"))

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._text is not None:
            self._row.append("".join(self._text))
            self._text = None
        elif tag == "table":
            self._in_board = False


def _leaderboard(html: Path, models: list[str]) -> dict[tuple[str, str, str], tuple[str, str | None]]:
    parser = _Leaderboard(models)
    parser.feed(html.read_text(encoding="utf-8"))
    return parser.values


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
