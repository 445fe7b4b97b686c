"""The HTML report at leaderboard scale, and of a run of many samples.

By default: a run of 100 models × 500 datasets, 50 samples each, in 21
summary groups (written with assay's own result writer and ``.stats`` files,
the run index built, as ``assay eval`` leaves a run), then, side by side and
each in a fresh process, ``--repeat`` rounds of: ``assay summarize
--no-report``, ``assay summarize`` as a first report (statistics and the HTML
report, every dataset's samples read: the sample files of earlier reports
removed), and ``assay summarize`` once more (a later report, which links the
files of the unchanged datasets); the wall and the CPU time of each, and what
each report adds to its round's ``--no-report`` (median over the rounds);
where that time goes (the summary, the statistics, the
leaderboard's data, the sample data, writing the page), measured in this
process; the page's size and that of its sample files; and, when headless
Chromium and selenium are installed, the time the browser takes to load the
page and draw the leaderboard, open the full table and a dataset's samples.

``--against SRC`` runs the same commands with another source tree (``SRC``:
the ``src`` folder of another checkout, e.g. ``git archive main src | tar -x
-C DIR``) side by side, round by round, and gives both figures; each tree's
first report reads every dataset's samples (the sample files of earlier
reports are removed before it), from the run index as that tree's version
writes it (an index built by each tree before the timings, put in place
once per tree in each round, before that tree's three commands).

``--samples N`` also times the report of one dataset of N samples × 2 models
(generation, size, and the sample browser's filters in the browser).  Prints
figures; asserts nothing.

Run: python benchmarks/bench_report.py [--root DIR] [--repeat 3] [--samples N] [--skip-browser] [--ranks]
     [--against SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_report",
                        help="where the leaderboard run is made (reused when complete)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each summarize command")
    parser.add_argument("--samples", type=int, default=0, help="also the report of N samples × 2 models")
    parser.add_argument("--skip-browser", action="store_true", help="no browser timings")
    parser.add_argument("--ranks", action="store_true", help="also time the rank intervals")
    parser.add_argument("--against", type=Path, default=None,
                        help="another source tree (a checkout's src folder) to time side by side")
    args = parser.parse_args()
    leaderboard(args.root.resolve(), args.repeat, browser=not args.skip_browser, ranks=args.ranks,
                against=args.against.resolve() if args.against else None)
    if args.samples:
        report_run(args.samples, browser=not args.skip_browser)


def leaderboard(root: Path, repeat: int, *, browser: bool, ranks: bool = False, models: int = 100, datasets: int = 500,
                details: int = 50, groups: int = 20, against: Path | None = None) -> None:
    """Time ``assay summarize`` with and without the report on a leaderboard-sized run, and the page in a browser
    (and, with ``against``, the same commands with that source tree, side by side)."""
    import subprocess

    start = time.perf_counter()
    config = make_leaderboard_run(root, models=models, datasets=datasets, details=details, groups=groups)
    run = root / "work" / LEADERBOARD_RUN
    print(f"== {models} models × {datasets} datasets × {details} samples, {groups + 1} summary groups ({run}; "
          f"ready in {time.perf_counter() - start:.1f} s)")
    summary = run / "summary"
    trees: dict[str, str | None] = {"this tree": None}
    if against is not None:
        trees[f"against {against}"] = str(against)
    labels = ("--no-report", "first report", "later report")
    seconds: dict[tuple[str, str], list[tuple[float, float]]] = {(tree, label): [] for tree in trees for label in labels}
    indexes = tree_indexes(run, root, trees) if against is not None else {}
    for _ in range(repeat):
        for tree, src in trees.items():
            env = dict(os.environ)
            if src is not None:
                env["PYTHONPATH"] = src
            if tree in indexes:
                shutil.copyfile(indexes[tree], run / "index.sqlite")
            for label in labels:
                if label == "first report":
                    # a first report reads every dataset's samples: the sample files of earlier reports removed
                    for old in summary.glob("summary_*_files") if summary.is_dir() else []:
                        shutil.rmtree(old)
                extra = ["--no-report"] if label == "--no-report" else []
                # the files earlier commands wrote go to the disk now, not while the next one is timed: each command
                # is measured with its own work only (its own files are written back after it ends, as for a user)
                os.sync()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "assay", "summarize", str(config), "-w", str(root / "work"),
                                "-r", LEADERBOARD_RUN, *extra], check=True, capture_output=True, env=env)
                wall = time.perf_counter() - t0
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                seconds[(tree, label)].append((wall, cpu))
    load = os.getloadavg()[0]
    print(f"(load average {load:.1f} on {os.cpu_count()} CPUs; wall / CPU time of the process tree, each round in order:"
          " --no-report, then a first report (every dataset's samples read), then a later one (sample files linked))")
    for tree in trees:
        if len(trees) > 1:
            print(f"-- {tree}")
        for label in labels:
            shown = ", ".join(f"{w:.2f} / {c:.2f}" for w, c in seconds[(tree, label)])
            print(f"assay summarize, {label:13s} {shown} s")
        plain = seconds[(tree, "--no-report")]
        for label, what in (("first report", "the statistics and a first report"),
                            ("later report", "a later report (sample files linked)")):
            # each round's report against the same round's --no-report: the moments of the machine compared alike
            walls = [r[0] - p[0] for r, p in zip(seconds[(tree, label)], plain)]
            cpus = [r[1] - p[1] for r, p in zip(seconds[(tree, label)], plain)]
            print(f"{what} add {statistics.median(walls):.2f} s of wall (best {min(walls):.2f}), "
                  f"{statistics.median(cpus):.2f} s of CPU (median over the rounds, each against its round's --no-report)")
    page = max(summary.glob("summary_*.html"), key=lambda p: p.stat().st_mtime)
    side = page.with_name(page.stem + "_files")
    side_size = sum(p.stat().st_size for p in side.iterdir()) if side.is_dir() else 0
    print(f"page {page.stat().st_size / 1e6:.2f} MB; sample files beside it {side_size / 1e6:.1f} MB "
          f"in {len(list(side.iterdir())) if side.is_dir() else 0} files")
    if indexes:
        shutil.copyfile(indexes["this tree"], run / "index.sqlite")
    phases(run, config, ranks=ranks)
    for path in summary.glob("summary_*"):  # keep the newest report only
        if path.stem != page.stem and not path.name.startswith(page.stem):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    if browser:
        browse_board(page, root)


def tree_indexes(run: Path, root: Path, trees: dict[str, str | None]) -> dict[str, Path]:
    """The run index of ``run`` as each source tree's version builds it (``None``: this process's), kept under
    ``root``; the run's own index is this process's afterwards."""
    import subprocess

    index = run / "index.sqlite"
    out: dict[str, Path] = {}
    for i, (tree, src) in enumerate(trees.items()):
        kept = root / f"index_{i}.sqlite"
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = src
        index.unlink(missing_ok=True)
        subprocess.run([sys.executable, "-c", "import sys; from assay.rundir.statistics import index_run; "
                        "index_run(sys.argv[1])", str(run)], check=True, env=env)
        shutil.copyfile(index, kept)
        out[tree] = kept
    shutil.copyfile(out[next(iter(trees))], index)
    return out


def phases(run: Path, config: Path, *, ranks: bool = False) -> None:
    """Where the time of ``assay summarize`` with the report goes, measured in this process."""
    from assay.commands._options import summary_config
    from assay.config import load_config
    from assay.report._html import _add_rankings, _render_utf8, _report_data
    from assay.report._samples import Source, read_chunks
    from assay.summarize import run_summarizer

    variables = summary_config(load_config(str(config)), str(run))
    t0 = time.perf_counter()
    run_summarizer(variables, time_str="bench_plain", stats=False)
    t1 = time.perf_counter()
    result = run_summarizer(variables, time_str="bench_stats", stats=True)
    t2 = time.perf_counter()
    data, context = _report_data(run, result, stats=result.stats, max_text=600, snapshot=result.snapshot, samples=False,
                                 ranks=None, defer_ranks=True)
    t3 = time.perf_counter()
    snap = context.snapshot
    digests = {(c, a): snap.digest(f"{context.folders[c]}/{a}.json") if snap is not None else None
               for c in context.columns for a in context.abbrs}
    source = Source(context.root, context.columns, context.abbrs, context.folders, context.audits, digests, 600)
    for (c, a) in digests:  # the samples the run index holds, as the report takes them
        held = snap.samples(f"{context.folders[c]}/{a}.json") if snap is not None else None
        if held is not None:
            source.indexed[(c, a)] = held[1]
    chunks = read_chunks(source)
    t4 = time.perf_counter()
    if ranks:
        _add_rankings(data, context)
    t4r = time.perf_counter()
    with tempfile.TemporaryDirectory() as side:  # the sample files and the page, as the report writes them
        for i, (_, _, payload) in enumerate(chunks):
            (Path(side) / f"chunk{i}.js").write_bytes(payload)
        size = sum(len(p) for p in _render_utf8(data, [(a, n, f"chunk{i}") for i, (a, n, _) in enumerate(chunks)], "side"))
    t5 = time.perf_counter() - (t4r - t4)
    print("where the time goes (this process):")
    print(f"  summary without statistics      {t1 - t0:.2f} s")
    print(f"  summary with statistics         {t2 - t1:.2f} s   (intervals of every cell and group)")
    print(f"  the leaderboard's data          {t3 - t2:.2f} s")
    print(f"  the sample data ({len(chunks)} datasets) {t4 - t3:.2f} s   (every result's samples read from the run "
          "index, in this process: forked workers only for results read from files)")
    if ranks:
        print(f"  rank intervals and pictures     {t4r - t4:.2f} s   ({len(data['rankings']['rankings'])} columns: "
              "the top-level groups, as a report of this size ranks by default; computed by the first report, "
              "taken from its folder by later ones; per-sample values from the run index)")
    print(f"  the page ({size / 1e6:.2f} MB) and sample files  {t5 - t4:.2f} s")
    for path in run.glob("summary/summary_bench_*"):
        path.unlink()


def browse_board(page: Path, root: Path) -> None:
    """Time the leaderboard page in headless Chromium: load and draw, the full table, one dataset's samples."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        chromium = None
    if not chromium or not driver_path:
        print("browser timings skipped: needs chromium, chromedriver and selenium")
        return
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                f"--user-data-dir={tempfile.mkdtemp(prefix='profile', dir=root)}"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        t0 = time.perf_counter()
        browser.get(page.as_uri())
        browser.find_element(By.CSS_SELECTOR, "#leaderboard tbody tr")
        loaded = time.perf_counter() - t0
        timing = browser.execute_script(
            "var t = performance.getEntriesByType('navigation')[0]; return [t.domContentLoadedEventEnd, t.loadEventEnd];")
        drawn = browser.execute_script("return window.assayTimings.leaderboard;")
        print(f"browser: page loaded and leaderboard drawn in {loaded:.2f} s "
              f"(DOMContentLoaded {timing[0] / 1000:.2f} s, load {timing[1] / 1000:.2f} s; "
              f"the leaderboard drawn by the script in {drawn / 1000:.2f} s)")
        t0 = time.perf_counter()
        browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()
        browser.find_element(By.CSS_SELECTOR, "#full-table tbody tr")
        drawn = browser.execute_script("return window.assayTimings.table;")
        print(f"browser: full table drawn (its first 100 rows) in {time.perf_counter() - t0:.2f} s "
              f"(by the script in {drawn / 1000:.2f} s)")
        t0 = time.perf_counter()
        browser.find_element(By.CSS_SELECTOR, "#full-table thead button[data-sort='0']").click()
        browser.find_element(By.CSS_SELECTOR, "#full-table tbody tr")
        drawn = browser.execute_script("return window.assayTimings.table;")
        print(f"browser: full table sorted by a model and drawn again in {time.perf_counter() - t0:.2f} s "
              f"(by the script in {drawn / 1000:.2f} s)")
        section = browser.find_element(By.CSS_SELECTOR, "details.ds")
        t0 = time.perf_counter()
        browser.execute_script("arguments[0].open = true; arguments[0].scrollIntoView();", section)
        # the dataset's sample file is loaded, and its columns decompressed, after the script returns
        WebDriverWait(browser, 60, poll_frequency=0.01).until(lambda _: section.find_elements(By.CSS_SELECTOR, "tbody tr"))
        print(f"browser: one dataset's samples read and shown in {time.perf_counter() - t0:.2f} s")
    finally:
        browser.quit()


LEADERBOARD_RUN = "20250101_000000"


def _write_results(job: tuple[str, list[str], int, int]) -> int:
    """Write one model's result files and their ``.stats`` as ``assay eval``'s workers do; the count written."""
    from assay.rundir.results import write_result_keeping
    from assay.rundir.sidecar import save_stats
    from assay.stats import PredictionColumns

    folder, abbrs, details, seed = job
    rng = random.Random(seed)
    skill = 0.3 + 0.6 * rng.random()
    for d, abbr in enumerate(abbrs):
        level = min(0.98, max(0.02, skill + 0.2 * (rng.random() - 0.5)))
        rows = []
        for i in range(details):
            answer = "ABCD"[(d + i) % 4]
            right = rng.random() < level
            pred = answer if right else ("" if rng.random() < 0.05 else rng.choice("ABCD".replace(answer, "")))
            rows.append({"pred": pred, "answer": answer, "correct": right, "example_abbr": f"{abbr}_{i}"})
        result = {"accuracy": 100.0 * sum(r["correct"] for r in rows) / details, "details": rows}
        path = Path(folder) / f"{abbr}.json"
        digest, written = write_result_keeping(path, result, durable=False)
        save_stats(path, digest, abbr, lambda: PredictionColumns([], []), written)
    return len(abbrs)


def make_leaderboard_run(root: Path, *, models: int, datasets: int, details: int, groups: int) -> Path:
    """A leaderboard-sized run under ``root`` (reused when complete): its config file.

    ``models`` × ``datasets`` results of ``details`` samples each, written with
    assay's own result writer and their ``.stats`` as the eval workers write
    them, the run index built from them; the config has ``groups`` summary
    groups of consecutive datasets and one ``overall`` group of those groups.
    """
    import multiprocessing

    from assay.rundir.statistics import index_run
    from assay.rundir.stats_index import SAMPLES_FORMAT

    run = root / "work" / LEADERBOARD_RUN
    config = root / "config.py"
    marker = root / f".complete_{models}x{datasets}x{details}x{groups}"
    if marker.exists():
        indexed = root / f".indexed_{SAMPLES_FORMAT}"
        if not indexed.exists():  # a run indexed by an earlier version: its index built anew, as this one writes it
            (run / "index.sqlite").unlink(missing_ok=True)
            index_run(run)
            indexed.write_text("")
        return config
    model_names = [f"model_{m:03d}" for m in range(models)]
    abbrs = [f"ds_{d:03d}" for d in range(datasets)]
    for name in model_names:
        (run / "results" / name).mkdir(parents=True, exist_ok=True)
    jobs = [(str(run / "results" / name), abbrs, details, m) for m, name in enumerate(model_names)]
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
        sum(pool.imap_unordered(_write_results, jobs))
    per = max(1, datasets // groups)
    summary_groups = [{"name": f"group_{g:02d}", "subsets": abbrs[g * per:(g + 1) * per]} for g in range(groups)]
    summary_groups.append({"name": "overall", "subsets": [g["name"] for g in summary_groups]})
    config.write_text(
        f"models = [dict(abbr=m) for m in {model_names!r}]\n"
        f"datasets = [dict(abbr=a, eval_cfg=dict(evaluator=dict(type='AccEvaluator'))) for a in {abbrs!r}]\n"
        f"summarizer = dict(summary_groups={summary_groups!r})\n"
    )
    index_run(run)
    (root / f".indexed_{SAMPLES_FORMAT}").write_text("")
    marker.write_text("")
    return config


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


def browse(report: Path, workdir: Path) -> None:
    """Time the report's interactions in headless Chromium (skipped when it is not installed)."""
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
