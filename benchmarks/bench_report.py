"""The HTML report of a run with 50,000 samples × 2 models: generation time, file size and,
when headless Chromium and selenium are installed, how long the browser takes to open it,
open the sample browser, apply the "A right, B wrong" filter and search the text.

Run: python benchmarks/bench_report.py [N]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    from assay.report import write_html_report

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    rng = random.Random(0)
    run = Path(tempfile.mkdtemp()) / "20240101_000000"
    for model, p in (("m1", 0.7), ("m2", 0.6)):
        details = [{"pred": [rng.choice("ABCD")], "answer": ["A"], "correct": [rng.random() < p],
                    "example_abbr": f"big_{i}"} for i in range(n)]
        acc = 100.0 * sum(d["correct"][0] for d in details) / n
        path = run / "results" / model / "big.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"accuracy": acc, "details": details}, indent=4))
    start = time.perf_counter()
    out = write_html_report(run, None, "20240101_000000")
    print(f"{n} samples × 2 models: {time.perf_counter() - start:.2f} s, {out.stat().st_size / 1e6:.1f} MB")
    browse(out, run)


def browse(report: Path, workdir: Path) -> None:
    """Time the report's interactions in headless Chromium (skipped when it is not installed)."""
    import shutil

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
    except ImportError:
        chromium = None
    if not chromium or not driver_path:
        print("browser timings skipped: needs chromium, chromedriver and selenium")
        return
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={workdir / 'profile'}"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        t0 = time.perf_counter()
        browser.get(report.as_uri())
        print(f"browser: page loaded in {time.perf_counter() - t0:.2f} s")
        section = browser.find_element(By.CSS_SELECTOR, "details.ds")
        t0 = time.perf_counter()
        section.find_element(By.TAG_NAME, "summary").click()
        section.find_element(By.CSS_SELECTOR, "tbody tr")
        print(f"browser: sample browser opened in {time.perf_counter() - t0:.2f} s")
        Select(section.find_element(By.CSS_SELECTOR, ".sel-a")).select_by_visible_text("m1")
        Select(section.find_element(By.CSS_SELECTOR, ".sel-b")).select_by_visible_text("m2")
        t0 = time.perf_counter()
        Select(section.find_element(By.CSS_SELECTOR, ".sel-rel")).select_by_value("a_right_b_wrong")
        count = section.find_element(By.CSS_SELECTOR, ".count").text
        print(f"browser: 'm1 right, m2 wrong' filter ({count} samples) in {time.perf_counter() - t0:.2f} s")
        search = section.find_element(By.CSS_SELECTOR, ".search")
        before = count
        t0 = time.perf_counter()
        search.send_keys("big_4999")
        while (count := section.find_element(By.CSS_SELECTOR, ".count").text) == before and time.perf_counter() - t0 < 10:
            time.sleep(0.01)
        print(f"browser: text search ({count} samples, input debounce included) in {time.perf_counter() - t0:.2f} s")
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
