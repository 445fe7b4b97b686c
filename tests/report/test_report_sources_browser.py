"""A leaderboard mixing assay's own results with lm-evaluation-harness's and inspect_ai's, in headless Chromium:
the ranking, the badge naming the tool of each imported value, its details on hover and click, and the
imported datasets' samples.

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the PyPI package ``selenium``;
skipped (with the reason) when one is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.report.pages import wait_drawn
from tests.sources.mixed_run import make_mixed_run


@pytest.mark.slow
def test_a_mixed_leaderboard_marks_each_imported_value_with_its_tool(tmp_path: Path, browser) -> None:
    from selenium.webdriver.common.by import By

    run, _ = make_mixed_run(tmp_path)
    (summary_path,) = (run / "summary").glob("summary_*.json")
    summary = json.loads(summary_path.read_text())
    (page,) = (run / "summary").glob("summary_*.html")
    browser.get(page.as_uri())

    # the ranking: by the last top-level group, best first; the models without a value after
    ranked = summary["scores"]
    order = [tr.get_attribute("data-model") for tr in browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")]
    by = "assay_mcq_suite/acc_norm,none"
    with_value = sorted((m for m in summary["models"] if by in ranked[m]), key=lambda m: -ranked[m][by]["naive_average"])
    assert with_value == ["chat-small", "lm-a"] and order[:2] == with_value
    assert sorted(order[2:]) == ["inspect-a", "reasoner (think)"]

    def cell(model: str, column: str) -> Any:
        return browser.find_element(By.CSS_SELECTOR, f"#leaderboard tr[data-model='{model}'] td[data-col='{column}']")

    columns = {th.get_attribute("title").split(" · ")[0]: th.get_attribute("data-col")
               for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th[data-col]")}
    # a group mixing sources: its badge names them, its sentence says which input came from where
    mixed = cell("chat-small", columns["mixed_mcq"]).find_element(By.CSS_SELECTOR, "button.badge.source")
    assert mixed.text == "assay+lm_eval+inspect_ai"
    assert mixed.get_attribute("title") == "from several sources: quick_mcq (assay), assay_mcq_a (lm_eval), inspect_mcq (inspect_ai)"
    # assay's own values carry no tool badge
    assert not cell("chat-small", columns["quickstart"]).find_elements(By.CSS_SELECTOR, "button.badge.source")
    assert not cell("reasoner (think)", columns["quickstart"]).find_elements(By.CSS_SELECTOR, "button.badge.source")

    # a group opened into its datasets: each imported value's badge, its details on hover and on click
    browser.find_element(By.CSS_SELECTOR, f"button.open[data-open='{columns['assay_mcq_suite']}']").click()
    columns = {th.get_attribute("title").split(" · ")[0]: th.get_attribute("data-col")
               for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th[data-col]")}
    badge = cell("lm-a", columns["assay_mcq_a"]).find_element(By.CSS_SELECTOR, "button.badge.source")
    assert badge.text == "lm_eval"
    hover = badge.get_attribute("title")
    assert hover.startswith("from lm_eval 0.4.13: ") and "results_" in hover and "samples_assay_mcq_a_" in hover
    assert hover.endswith("lm_eval's value 0.6875, shown × 100 (in percent)")
    assert "68.75" in cell("lm-a", columns["assay_mcq_a"]).find_element(By.CSS_SELECTOR, ".v").text
    badge.click()
    popover = browser.find_element(By.ID, "popover")
    assert popover.is_displayed()
    assert "lm-a · assay_mcq_a · acc,none" in popover.text and "lm_eval's value 0.6875" in popover.text
    popover.find_element(By.CSS_SELECTOR, "button.close").click()
    assert not popover.is_displayed()

    # the full table: inspect_ai's values badged with their tool
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()
    row = browser.find_element(By.XPATH, "//table[@id='full-table']//tr[td[1]='inspect_mcq']")
    badges = row.find_elements(By.CSS_SELECTOR, "button.badge.source")
    assert [b.text for b in badges] == ["inspect_ai", "inspect_ai"]
    assert badges[1].get_attribute("title").startswith("from inspect_ai 0.3.285: ")
    assert ".eval" in badges[1].get_attribute("title")

    # the imported dataset's samples: the tool's replies, extracted answers, references and verdicts
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='board']").click()
    section = browser.find_element(By.CSS_SELECTOR, "details.ds[data-dataset='inspect_mcq']")
    browser.execute_script("arguments[0].scrollIntoView()", section)
    section.find_element(By.TAG_NAME, "summary").click()
    wait_drawn(section)
    rows = section.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 10
    details = json.loads((run / "results" / "inspect-a" / "inspect_mcq.json").read_text())["details"]
    first = rows[0].find_elements(By.TAG_NAME, "td")
    assert first[1].text == details[0]["reference"]
    shown = first[3]  # inspect-a, the second model
    assert shown.find_element(By.TAG_NAME, "pre").text == details[0]["prediction"]
    assert json.loads(shown.find_element(By.CSS_SELECTOR, ".ext").text) == details[0]["extracted"]
    verdicts = [tr.find_elements(By.TAG_NAME, "td")[3].find_element(By.CSS_SELECTOR, ".ok, .bad").text for tr in rows]
    assert verdicts == ["right" if d["choice/accuracy"] == 1 else "wrong" for d in details]
    assert verdicts.count("right") * 10 == summary["scores"]["inspect-a"]["inspect_mcq"]["choice/accuracy"]
