"""The HTML report of a run with 50,000 samples × 2 models: generation time, file size and,
when headless Chromium and selenium are installed, how long the browser takes to open it,
open the sample browser, apply the "A right, B wrong" filter and search the text.

Then the statistics + report pass of ``assay summarize`` on the work directory of
``bench_eval.py`` (5 models × 20 datasets × 2,000 samples; evaluated first when it has
no results): the best wall time of ``assay summarize`` with and without ``--no-report``,
their difference, and ``run_stats`` alone (every result and prediction file read once) in
this process and in forked workers.  Prints figures; asserts nothing.

Run: python benchmarks/bench_report.py [N] [--root DIR] [--repeat 3] [--skip-browser]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import RUN, make_work_dir, run_assay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=50_000, help="samples per model of the report run")
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_eval",
                        help="the work directory of bench_eval.py (made when missing)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each summarize command (the best is shown)")
    parser.add_argument("--skip-browser", action="store_true", help="no browser timings")
    args = parser.parse_args()
    report_run(args.n, browser=not args.skip_browser)
    summarize_pass(args.root.resolve(), args.repeat)


def report_run(n: int, *, browser: bool) -> None:
    """Generate the report of ``n`` samples × 2 models and time it (and the browser)."""
    from assay.report import write_html_report

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
    if browser:
        browse(out, run)


def summarize_pass(root: Path, repeat: int, *, models: int = 5, datasets: int = 20, samples: int = 2000) -> None:
    """Time ``assay summarize`` with and without the statistics + report pass on bench_eval's work directory."""
    config = make_work_dir(root, models=models, datasets=datasets, samples=samples)
    run_dir = root / "work" / RUN
    if not any((run_dir / "results").glob("*/*.json")):
        print("evaluating the work directory first (assay eval) …")
        evaluated = run_assay(["eval", str(config), "-w", str(root / "work"), "-r", RUN], cwd=root)
        if evaluated.returncode:
            print(evaluated.stderr[-3000:])
            return
    summary = run_dir / "summary"
    before = set(summary.glob("*")) if summary.is_dir() else set()
    best: dict[str, float] = {}
    try:
        for label, extra in (("with", []), ("without", ["--no-report"])):
            for _ in range(repeat):
                measured = run_assay(["summarize", str(config), "-w", str(root / "work"), "-r", RUN, *extra], cwd=root)
                if measured.returncode:
                    print(measured.stderr[-3000:])
                    return
                best[label] = min(best.get(label, measured.seconds), measured.seconds)
    finally:
        for path in set(summary.glob("*")) - before:  # the files these runs wrote
            path.unlink()
    print(f"== statistics + report pass, {models} models × {datasets} datasets × {samples:,} samples ({run_dir})")
    print(f"assay summarize               {best['with']:.2f} s (best of {repeat})")
    print(f"assay summarize --no-report   {best['without']:.2f} s")
    print(f"statistics + report pass      {best['with'] - best['without']:.2f} s")
    # the reading of results and predictions alone, in this process and in forked workers
    from assay.rundir.statistics import run_stats
    from assay.stats import SAMPLE_TEXT
    from assay.summarize import leaderboard_of

    board = leaderboard_of(None, run_dir)
    cpus = os.cpu_count() or 1
    if threading.active_count() > 1:
        print("(other threads run in this process: run_stats reads everything in it, without workers)")
    for workers in sorted({1, min(cpus, 4)}):
        seconds = []
        for _ in range(repeat):
            start = time.perf_counter()
            run_stats(run_dir, board, sample_text=SAMPLE_TEXT, workers=workers)
            seconds.append(time.perf_counter() - start)
        label = f"run_stats, {workers} process{'es' if workers > 1 else ''}"
        print(f"{label:30s}{min(seconds):.2f} s")


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
