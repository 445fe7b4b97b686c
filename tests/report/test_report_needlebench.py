"""NeedleBench's depth × length heatmaps in the HTML report: one grid per model and kind, each cell the
result's value with its interval on hover, read from the results of the run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from assay.report import build_report_data, write_html_report
from assay.summarize import run_summarizer

TIME = "20240101_000000"
MODELS = ("m1", "m2")
LENGTHS = (1000, 2000)
DEPTHS = (0, 50, 100)


def _write(run: Path, model: str, abbr: str, result: dict[str, Any]) -> None:
    path = run / "results" / model / f"{abbr}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result), encoding="utf-8")


def make_needle_run(tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, dict[str, float]]]:
    """Two models' single-needle results (per-sample details, so each cell has an interval) and one
    multi-needle retrieval result per length; m2 lacks one single-needle result."""
    run = tmp_path / TIME
    expected: dict[str, dict[str, float]] = {}
    abbrs = []
    for m, model in enumerate(MODELS):
        for length in LENGTHS:
            for depth in DEPTHS:
                abbr = f"Length{length}Depth{depth}_origin_en_4k"
                if abbr not in abbrs:
                    abbrs.append(abbr)
                if model == "m2" and (length, depth) == (2000, 100):
                    continue
                right = (7 + 3 * m + length // 1000 + depth // 50) % 10 + 1
                scores = [100.0] * right + [20.0 * (k % 3) / 2 for k in range(10 - right)]
                value = sum(scores) / len(scores)
                expected.setdefault(model, {})[abbr] = value
                details = [{"pred": "x", "answer": "y", "score": s} for s in scores]
                _write(run, model, abbr, {"score": value, "details": details})
            abbr = f"Length{length}_parallel_en_4k"
            if abbr not in abbrs:
                abbrs.append(abbr)
            depth_scores = {f"Depth{d}": float(40 + 10 * m + d // 10) for d in DEPTHS}
            _write(run, model, abbr, {**depth_scores, "details": [],
                                      "average_score": sum(depth_scores.values()) / len(DEPTHS)})
    config = {"models": [{"abbr": m} for m in MODELS], "datasets": [{"abbr": a} for a in abbrs],
              "work_dir": str(run), "summarizer": {"type": "NeedleBenchSummarizer"}}
    return run, config, expected


def test_the_report_holds_one_grid_per_model_and_kind_with_intervals(tmp_path: Path) -> None:
    run, config, expected = make_needle_run(tmp_path)
    result = run_summarizer(config, time_str=TIME)
    data = build_report_data(run, result)
    grids = {(g["model"], g["kind"]): g for g in data["heatmaps"]}
    assert sorted(grids) == [(m, k) for m in MODELS for k in ("origin_en_4k", "parallel_en_4k")]
    single = grids[("m1", "origin_en_4k")]
    assert (single["depths"], single["lengths"]) == ([0.0, 50.0, 100.0], [1000, 2000])
    for i, depth in enumerate(DEPTHS):
        for j, length in enumerate(LENGTHS):
            abbr = f"Length{length}Depth{depth}_origin_en_4k"
            cell = single["cells"][i][j]
            assert cell["v"] == expected["m1"][abbr]
            stat = result.stats.cell("m1", abbr, "score")
            assert (cell["lo"], cell["hi"]) == (stat.low, stat.high)
            assert cell["lo"] < cell["v"] < cell["hi"] or cell["v"] in (0.0, 100.0)
    gap = grids[("m2", "origin_en_4k")]["cells"][2][1]
    assert gap["v"] is None and "no value" in gap["tip"]
    retrieval = grids[("m2", "parallel_en_4k")]
    assert [row[0]["v"] for row in retrieval["cells"]] == [50.0, 55.0, 60.0]
    assert "no interval" in retrieval["cells"][0][0]["tip"]


def test_a_run_without_needlebench_datasets_has_no_heatmap_section(tmp_path: Path) -> None:
    run = tmp_path / TIME
    _write(run, "m1", "ds", {"accuracy": 50.0, "details": [{"correct": [True]}, {"correct": [False]}]})
    path = write_html_report(run, None, TIME)
    assert build_report_data(run, None)["heatmaps"] == []
    assert "needle-heatmaps" not in path.read_text(encoding="utf-8")





@pytest.mark.slow
def test_the_heatmap_in_a_browser_shows_each_value_and_its_interval_on_hover(tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    run, config, expected = make_needle_run(tmp_path)
    result = run_summarizer(config, time_str=TIME)
    browser.get(write_html_report(run, result, TIME).as_uri())
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='board']").click()

    grid = browser.find_element(By.CSS_SELECTOR, ".heatmap[data-model='m1'][data-kind='origin_en_4k']")
    assert grid.is_displayed()
    assert "Single-Needle-Retrieval-EN-4K" in grid.find_element(By.TAG_NAME, "h3").text
    rows = grid.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == ["0", "50", "100"]
    assert [th.text for th in grid.find_elements(By.CSS_SELECTOR, "thead th")][1:] == ["1k", "2k"]
    for i, depth in enumerate(DEPTHS):
        cells = rows[i].find_elements(By.CSS_SELECTOR, "td.hc")
        for j, length in enumerate(LENGTHS):
            abbr = f"Length{length}Depth{depth}_origin_en_4k"
            cell = cells[j]
            ActionChains(browser).move_to_element(cell).perform()
            value = expected["m1"][abbr]
            assert cell.text == f"{value:.0f}"
            tip = cell.get_attribute("title")
            assert f"= {value!r}" in tip
            # the interval on hover is the leaderboard's for the same result
            board_ci = browser.find_element(
                By.XPATH, f"//table[@id='full-table']//tr[td[1]='{abbr}']/td[5]//span[@class='ci']").get_attribute('textContent')
            low, high = re.fullmatch(r"\[(\S+), (\S+)\]", board_ci).groups()  # type: ignore[union-attr]
            assert f"95% interval [{low}, {high}]" in tip
            assert f"from {abbr} · score" in tip
    gap = browser.find_element(By.CSS_SELECTOR, ".heatmap[data-model='m2'][data-kind='origin_en_4k'] tbody tr:nth-child(3) td:nth-child(3)")
    assert gap.text == "-" and "no value" in gap.get_attribute("title")
    # a higher value is greener: the background's green channel grows with the value
    colors = [(float(c.get_attribute("data-value")), c.value_of_css_property("background-color"))
              for c in grid.find_elements(By.CSS_SELECTOR, "td.hc")]
    lowest, highest = min(colors), max(colors)
    assert lowest[1] != highest[1]
