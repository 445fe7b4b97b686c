"""The report in a real headless browser: leaderboard, filters, screenshot.

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the PyPI
package ``selenium``; skipped (with the reason) when one is missing.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from assay.rundir.compare import compare_models
from tests.conftest import chromium_missing
from tests.report.pages import wait_drawn
from tests.stats.workdir_builder import TIME, make_run

missing = chromium_missing()
if missing:
    pytest.skip(missing, allow_module_level=True)


@pytest.mark.slow
def test_report_in_browser(tmp_path: Path, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from assay.report import write_html_report
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    run = make_run(tmp_path, summarize=False)
    result = run_summarizer(run_config(run), time_str=TIME)
    path = write_html_report(run, result, TIME)
    browser.get(path.as_uri())
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()

    # the full table == summary .csv, cell by cell
    with open(run / "summary" / f"summary_{TIME}.csv", newline="") as fh:
        table = list(csv.reader(fh))
    header = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#full-table thead th")]
    assert header == table[0]
    shown = []
    for tr in browser.find_elements(By.CSS_SELECTOR, "#full-table tbody tr"):
        cells = []
        for td in tr.find_elements(By.TAG_NAME, "td"):
            values = td.find_elements(By.CSS_SELECTOR, ".v")
            cells.append(values[0].text if values else td.text)
        shown.append(cells)
    assert shown == table[1:]
    missing = browser.find_element(By.XPATH, "//table[@id='full-table']//tr[td[1]='broken']/td[6]")
    assert missing.text == "-" and "boom" in missing.get_attribute("title")
    assert browser.find_elements(By.CSS_SELECTOR, "figure.forest svg")  # the ranking's pictures

    # the "A right, B wrong" filter agrees with assay compare's discordant count
    section = browser.find_element(By.CSS_SELECTOR, "details.ds[data-dataset='mcq']")
    section.find_element(By.TAG_NAME, "summary").click()
    wait_drawn(section)
    Select(section.find_element(By.CSS_SELECTOR, ".sel-a")).select_by_visible_text("m1")
    Select(section.find_element(By.CSS_SELECTOR, ".sel-b")).select_by_visible_text("m2")
    Select(section.find_element(By.CSS_SELECTOR, ".sel-rel")).select_by_value("a_right_b_wrong")
    expected = compare_models(run, "m1", "m2", datasets=["mcq"]).datasets[0].result
    assert expected is not None
    assert section.find_element(By.CSS_SELECTOR, ".count").text == str(expected.a_only)
    rows = section.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == min(50, expected.a_only)
    Select(section.find_element(By.CSS_SELECTOR, ".sel-rel")).select_by_value("a_wrong_b_right")
    assert section.find_element(By.CSS_SELECTOR, ".count").text == str(expected.b_only)

    # text search narrows to the sample with that id
    Select(section.find_element(By.CSS_SELECTOR, ".sel-rel")).select_by_value("any")
    search = section.find_element(By.CSS_SELECTOR, ".search")
    search.send_keys("mcq_17")
    for _ in range(40):  # the search waits for typing to pause
        if section.find_element(By.CSS_SELECTOR, ".count").text == "1":
            break
        time.sleep(0.05)
    assert section.find_element(By.CSS_SELECTOR, ".count").text == "1"
    # the raw reply, markup-like text and all, is shown as text
    raw = [pre.text for pre in section.find_elements(By.CSS_SELECTOR, "tbody tr td pre") if pre.text.startswith("The answer")]
    assert len(raw) == 2 and all(t.endswith(" <b> <!-- 17 --> </script>") for t in raw)  # one per model

    shot = tmp_path / "work" / "report.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 0
