"""Screenshots of the HTML report for the documentation, made in headless Chromium.

Writes ``docs/report_leaderboard.png`` (100 models × 500 datasets in 21 summary
groups, the run of ``benchmarks/bench_report.py``, ``group_00`` opened into
its datasets), ``docs/report_two_models.png`` (the quickstart example's two
models) and ``docs/report_mixed_sources.png`` (the quickstart's results beside
lm-evaluation-harness's and inspect_ai's recorded ones, ``assay_mcq_suite``
opened into its datasets and the mixed group's badge open).  Needs the Debian packages ``chromium`` and ``chromium-driver`` and
the PyPI package ``selenium``.

Run: python scripts/report_screenshots.py [--root DIR] [--mixed-only]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO))


def browser(width: int, height: int, profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def newest_page(run: Path) -> Path:
    return max((run / "summary").glob("summary_*.html"), key=lambda p: p.stat().st_mtime)


def shoot(page: Path, out: Path, width: int, height: int, profile: Path, *, open_group: str | None,
          badge: str | None = None) -> None:
    from selenium.webdriver.common.by import By

    driver = browser(width, height, profile)
    try:
        driver.get(page.as_uri())
        driver.find_element(By.CSS_SELECTOR, "#leaderboard tbody tr")
        if open_group:  # a group opened into its datasets, their badges in view
            driver.find_element(By.CSS_SELECTOR, f"#leaderboard thead th[title^='{open_group} '] button.open").click()
        if badge:  # one badge's sentences kept open
            driver.find_element(By.CSS_SELECTOR, badge).click()
            driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        driver.save_screenshot(str(out))
    finally:
        driver.quit()
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_report",
                        help="where the 100-model run is made (reused when there)")
    parser.add_argument("--mixed-only", action="store_true", help="only the screenshot of the mixed-sources run")
    args = parser.parse_args()
    from bench_report import LEADERBOARD_RUN, make_leaderboard_run
    from tests.sources.mixed_run import make_mixed_run

    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        mixed, _ = make_mixed_run(Path(tmp) / "mixed")
        shoot(newest_page(mixed), REPO / "docs" / "report_mixed_sources.png", 1300, 720, profile,
              open_group="assay_mcq_suite", badge="#leaderboard tr[data-model='chat-small'] td[data-col='g2'] button.badge.source")
        if args.mixed_only:
            return
        config = make_leaderboard_run(args.root, models=100, datasets=500, details=50, groups=20)
        subprocess.run([sys.executable, "-m", "assay", "summarize", str(config), "-w", str(args.root / "work"),
                        "-r", LEADERBOARD_RUN], check=True, capture_output=True)
        shoot(newest_page(args.root / "work" / LEADERBOARD_RUN), REPO / "docs" / "report_leaderboard.png",
              1400, 900, profile, open_group="group_00")
        work = Path(tmp) / "work"
        subprocess.run([sys.executable, "-m", "assay", "run", str(REPO / "examples" / "quickstart" / "config.py"),
                        "-w", str(work)], check=True, capture_output=True)
        (run,) = work.iterdir()
        shoot(newest_page(run), REPO / "docs" / "report_two_models.png", 1200, 800, profile, open_group=None)


if __name__ == "__main__":
    main()
