"""OpenCompass's NeedleBench summarizers, run by ``assay summarize`` on the library's configs, print
OpenCompass's tables and draw its heatmaps.

``tests/data/oc_families/needlebench_summary/<case>`` holds three models'
NeedleBench results and what OpenCompass 0.5.4 wrote for them (recorded by
``scripts/record_oc_needlebench_summary.py``): the ``.txt`` up to its raw
section, the ``.csv``, and each heatmap's file name, depth × length matrix and
overall score.  Each test writes the results into a run directory, imports the
library's dataset and summarizer configs unchanged in a config file, and runs
``assay summarize`` on it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.summarize.needle_grid import grid_image_size, kind_label, needle_grids, read_grid_metadata

DATA = Path(__file__).parents[1] / "data" / "oc_families" / "needlebench_summary"
CASES = ("needlebench_4k", "needlebench_v2_4k")


def _inputs(case: str) -> dict[str, Any]:
    return json.loads((DATA / case / "inputs.json").read_text(encoding="utf-8"))


def _config(inputs: dict[str, Any], *, summarizer: bool = True) -> str:
    lines = ["from mmengine.config import read_base", "", "with read_base():"]
    names = []
    for k, (module, variable) in enumerate(inputs["dataset_imports"]):
        lines.append(f"    from {module} import {variable} as datasets_{k}")
        names.append(f"datasets_{k}")
    if summarizer and inputs["summarizer_import"]:
        module, variable = inputs["summarizer_import"]
        lines.append(f"    from {module} import {variable}")
    lines += ["", f"datasets = [{', '.join(f'*{n}' for n in names)}]",
              f"models = [dict(abbr=m, path='org/' + m) for m in {inputs['models']!r}]"]
    if summarizer and inputs["summarizer_import"]:
        lines.append(f"summarizer = {inputs['summarizer_import'][1]}")
    return "\n".join(lines) + "\n"


def _run(inputs: dict[str, Any], tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch,
         config_text: str | None = None) -> Path:
    """Write the results, summarize them with ``assay summarize``; returns the run's ``summary`` folder."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    run = tmp_path / "work" / inputs["time"]
    for model, row in inputs["results"].items():
        folder = run / "results" / model
        folder.mkdir(parents=True, exist_ok=True)
        for abbr, result in row.items():
            (folder / f"{abbr}.json").write_text(json.dumps({**result, "details": []}), encoding="utf-8")
    config = tmp_path / "config.py"
    config.write_text(config_text or _config(inputs), encoding="utf-8")
    assert main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", inputs["time"], "--no-report"]) == 0
    return run / "summary"


def _one(folder: Path, suffix: str) -> Path:
    (path,) = folder.glob(f"summary_*{suffix}")
    return path


@pytest.fixture(scope="module", params=CASES)
def summarized(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    from tests.conftest import _opencompass_library

    root, why = _opencompass_library()
    if root is None:
        pytest.skip(why)
    case = request.param
    with pytest.MonkeyPatch.context() as mp:
        folder = _run(_inputs(case), tmp_path_factory.mktemp(case), root, mp)
    return case, folder


def test_the_table_is_opencompass_s(summarized: tuple[str, Path]) -> None:
    case, folder = summarized
    assert _one(folder, ".csv").read_text(encoding="utf-8") == (DATA / case / "summary.csv").read_text(encoding="utf-8")
    txt = _one(folder, ".txt").read_text(encoding="utf-8")
    head = (DATA / case / "summary_head.txt").read_text(encoding="utf-8")
    assert txt[len(txt.split("\n", 1)[0]):].startswith(head[len(head.split("\n", 1)[0]):])  # the time line differs


def test_the_overall_row_weighs_the_groups_as_opencompass(summarized: tuple[str, Path]) -> None:
    """The row users read first: S-RT (which OpenCompass's config computes from the multi-needle retrieval
    datasets), M-RT and M-RS weighted 0.4/0.3/0.3, or a third each for the v2 summarizer."""
    case, folder = summarized
    board = json.loads(_one(folder, ".json").read_text(encoding="utf-8"))
    model = board["models"][0]
    scores = board["scores"][model]
    size = "4K"
    s_rt = scores[f"Single-Needle-Retrieval(S-RT)-{size}"]["naive_average"]
    m_rt = scores[f"Multi-Needle-Retrieval(M-RT)-{size}"]["average_score"]
    m_rs = scores[f"Multi-Needle-Reasoning(M-RS)-{size}"]["naive_average"]
    w = (1 / 3, 1 / 3, 1 / 3) if "v2" in case else (0.4, 0.3, 0.3)
    expected = (s_rt * w[0] + m_rs * w[1] + m_rt * w[2]) / sum(w)
    overall = scores[f"NeedleBench-Overall-Score-{size}"]["weighted_average"]
    assert overall == pytest.approx(expected, rel=1e-12)
    assert s_rt == pytest.approx(m_rt, rel=1e-12)


def test_the_heatmaps_are_opencompass_s_files_with_its_numbers(summarized: tuple[str, Path]) -> None:
    case, folder = summarized
    recorded = json.loads((DATA / case / "plots.json").read_text(encoding="utf-8"))["plots"]
    drawn = sorted(str(p.relative_to(folder)) for p in (folder / "plots").rglob("*.png"))
    assert drawn == sorted(recorded)
    for name, theirs in recorded.items():
        ours = read_grid_metadata(folder / name)
        assert ours["depths"] == theirs["depths"], name
        assert ours["lengths"] == theirs["lengths"], name
        for row_ours, row_theirs in zip(ours["matrix"], theirs["matrix"], strict=True):
            assert [v is None for v in row_ours] == [v is None for v in row_theirs], name
            assert [v for v in row_ours if v is not None] == pytest.approx(
                [v for v in row_theirs if v is not None], rel=1e-12, abs=1e-9), name
        assert ours["overall"] == pytest.approx(theirs["overall"], rel=1e-12), name
        assert (ours["width"], ours["height"]) == grid_image_size(len(theirs["depths"]), len(theirs["lengths"]))


def test_a_heatmap_shows_the_results_of_its_cells(summarized: tuple[str, Path]) -> None:
    """The matrix of a one-depth kind's heatmap is the results' ``score`` at each (depth, length) read from the
    dataset names; the result the model lacks is a gap."""
    case, folder = summarized
    inputs = _inputs(case)
    model = inputs["models"][2]
    results = inputs["results"][model]
    (lacking,) = [a for a in inputs["results"][inputs["models"][0]] if a not in results and "parallel" not in a]
    kind = lacking.split("_", 1)[1]
    (png,) = (folder / "plots" / kind_label(kind)).glob(f"{model}_*.png")
    grid = read_grid_metadata(png)
    gaps = []
    for i, depth in enumerate(grid["depths"]):
        for j, length in enumerate(grid["lengths"]):
            got = results.get(f"Length{length}Depth{int(depth)}_{kind}")
            assert grid["matrix"][i][j] == (None if got is None else got["score"])
            if got is None:
                gaps.append(f"Length{length}Depth{int(depth)}_{kind}")
    assert gaps == [lacking]
    ours = needle_grids(inputs["results"], list(inputs["results"][inputs["models"][0]]), [model])
    (same,) = [g for g in ours if g.kind == kind]
    assert same.matrix == grid["matrix"]


def test_without_matplotlib_the_summary_is_written_and_the_heatmaps_are_named(
    tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    inputs = _inputs("needlebench_v2_4k")
    folder = _run(inputs, tmp_path, oc_library, monkeypatch)
    assert _one(folder, ".csv").read_text(encoding="utf-8") == (DATA / "needlebench_v2_4k" / "summary.csv").read_text(
        encoding="utf-8")
    assert not (folder / "plots").exists()
    assert "heatmaps were not drawn: matplotlib is not installed" in caplog.text


def test_atc_writes_opencompass_s_most_needles(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inputs = _inputs("atc")
    config = _config(inputs, summarizer=False) + (
        "from opencompass.summarizers.needlebench import NeedleBenchATCSummarizer\n"
        "summarizer = dict(type=NeedleBenchATCSummarizer)\n")
    folder = _run(inputs, tmp_path, oc_library, monkeypatch, config)
    assert _one(folder, ".csv").read_text(encoding="utf-8") == (DATA / "atc" / "summary.csv").read_text(encoding="utf-8")
    txt = _one(folder, ".txt").read_text(encoding="utf-8")
    head = (DATA / "atc" / "summary_head.txt").read_text(encoding="utf-8")
    assert txt[len(txt.split("\n", 1)[0]):].startswith(head[len(head.split("\n", 1)[0]):])
    assert not (folder / "plots").exists()


def test_atc_keeps_the_table_when_a_row_names_no_needle_count(
    tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    inputs = _inputs("atc")
    config = _config(inputs, summarizer=False) + (
        "from opencompass.summarizers.needlebench import NeedleBenchATCSummarizer\n"
        "summarizer = dict(type=NeedleBenchATCSummarizer, dataset_abbrs=['--- ATC ---', "
        "'needlebench_atc_challengeneedle_2_en'])\n")
    folder = _run(inputs, tmp_path, oc_library, monkeypatch, config)
    csv = _one(folder, ".csv")
    assert csv.read_text(encoding="utf-8").splitlines()[1].startswith("--- ATC ---,-,-,-")
    assert f"{csv}: the table is kept as it is: row '--- ATC ---' names no needle count" in caplog.text


def test_the_grid_of_a_multi_needle_retrieval_dataset_comes_from_its_depth_metrics() -> None:
    values = {"m": {"Length1000_parallel_zh_8k": {"Depth0": 80.0, "Depth50": 40.0, "average_score": 60.0},
                    "Length2000_parallel_zh_8k": {"Depth0": 20.0, "Depth50": 0.0, "average_score": 10.0}}}
    (grid,) = needle_grids(values, list(values["m"]))
    assert (grid.label, grid.depths, grid.lengths) == ("Multi-Needle-Retrieval-ZH-8K", [0.0, 50.0], [1000, 2000])
    assert grid.matrix == [[80.0, 20.0], [40.0, 0.0]]
    assert grid.overall == pytest.approx((60.0 + 10.0) / 2)
    assert grid.cells[(50.0, 2000)] == ("Length2000_parallel_zh_8k", "Depth50")
    assert not math.isnan(grid.overall or math.nan)
