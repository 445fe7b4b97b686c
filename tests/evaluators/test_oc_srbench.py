"""SRBench's loader, answer reader and evaluator against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_srbench.py`` with OpenCompass
installed, on ``tests/data/oc_families/srbench/cache`` (formulas of exactly 300
points, so that OpenCompass's unseeded draw of 300 of them changes only their
order).  The cases import the library's configs unchanged and run ``assay
eval`` on the same prediction file with the data on disk (the file's ``gold``
replaced, so that only the data gives the references); every metric and every
sample's values must be OpenCompass's, up to the last bits a different order of
the same points changes in a sum.  Where OpenCompass's numbers depend on its
draw (a formula of more points), the draw's distribution is compared.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS
from tests.evaluators._library import MODEL, library_config, with_data

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "srbench"
RECORD = json.loads((ROOT / "expected" / "srbench_gen.json").read_text(encoding="utf-8"))
DATA = ROOT / "cache" / "data" / "SRBENCH" / "formula_data.json"
INTEGER_DATA = ROOT / "cache" / "int" / "SRBENCH" / "formula_data.json"
RUN = "20250101_000000"
CONFIGS = ["srbench/srbench_gen.py", "srbench/srbench_rawprompt_gen.py"]


@pytest.fixture(autouse=True)
def _needs_sandbox() -> None:
    from assay.evaluators._pyeval import Check, SandboxUnavailable, run_checks

    try:
        run_checks([Check("korbench10", ("4*6", ""))], limit=30)
    except SandboxUnavailable as exc:
        pytest.skip(f"no sandbox here: {exc}")


def _number(value: Any) -> float:
    """A recorded number (non-finite ones are recorded as their ``repr``)."""
    return float(value)


def _close(ours: Any, theirs: Any) -> bool:
    a, b = _number(ours), _number(theirs)
    if math.isnan(b):
        return math.isnan(a)
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _same_sample(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert {k: ours[k] for k in ("index", "ground_truth", "prediction", "SymbolicMatch", "is_valid")} == {
        k: theirs[k] for k in ("index", "ground_truth", "prediction", "SymbolicMatch", "is_valid")}
    for key in ("RMSE", "NMSE", "R2"):
        assert _close(ours[key], theirs[key]), (theirs["index"], key, ours[key], theirs[key])


def _rows(file: Path = DATA) -> list[dict[str, Any]]:
    return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("rel", CONFIGS)
def test_library_config_scores_as_opencompass(rel: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache" / "data", "data")
    config = tmp_path / "config.py"
    config.write_text(library_config(rel, RECORD["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    replies = json.loads((ROOT / "predictions" / "srbench.json").read_text(encoding="utf-8"))
    replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
    (predictions / "srbench.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    result = json.loads((work / RUN / "results" / MODEL / "srbench.json").read_text(encoding="utf-8"))
    assert "error" not in result, result
    expected = RECORD["result"]
    assert result["name"] == expected["name"] == ["all"]
    for key in ("mean_RMSE", "mean_NMSE", "mean_R2", "SymbolicMatch"):
        assert _close(result[key], expected[key]), (key, result[key], expected[key])
    assert len(result["details"]) == len(expected["details"])
    for ours, theirs in zip(result["details"], expected["details"]):
        _same_sample({k: v[0] if isinstance(v, list) else v for k, v in ours.items()},
                     {k: v[0] if isinstance(v, list) else v for k, v in theirs.items()})
    assert [d["prediction"] for d in result["details"]] == [[p] for p in RECORD["predictions"]]


def test_reader_reads_replies_as_opencompass() -> None:
    replies = [r["prediction"] for r in json.loads((ROOT / "predictions" / "srbench.json").read_text(encoding="utf-8")).values()]
    read = TEXT_POSTPROCESSORS.get("mydataset_postprocess")
    assert [read(r) for r in replies] == RECORD["predictions"]


@pytest.mark.parametrize("case", sorted(RECORD["cases"]))
def test_scores_each_answer_as_opencompass(case: str) -> None:
    """OpenCompass's ``score`` on further answers: unreadable ones, one finite point (R2 undefined), the grid
    fallback, constants, variables named otherwise than the reference's, Python ints beyond int64 (which NumPy 1,
    OpenCompass's, makes object arrays: the answer is not valid)."""
    entry = RECORD["cases"][case]
    rows = _rows()
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")(path="opencompass/srbench").score(
        entry["predictions"], [r["formula"] for r in rows], rows)
    assert "error" not in result, result
    for key in ("mean_RMSE", "mean_NMSE", "mean_R2", "SymbolicMatch"):
        assert _close(result[key], entry["result"][key]), (key, result[key], entry["result"][key])
    for ours, theirs in zip(result["details"], entry["result"]["details"], strict=True):
        _same_sample(ours, theirs)


@pytest.mark.parametrize("case", sorted(RECORD["integer_cases"]))
def test_scores_integer_points_as_opencompass(case: str) -> None:
    """A file whose every value is an integer is read as integers: a negative power of them fails and the grid is
    used instead, as in OpenCompass, and a division of them is a float."""
    entry = RECORD["integer_cases"][case]
    rows = _rows(INTEGER_DATA)
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")().score(entry["predictions"], [r["formula"] for r in rows], rows)
    assert "error" not in result, result
    for key in ("mean_RMSE", "mean_NMSE", "mean_R2", "SymbolicMatch"):
        assert _close(result[key], entry["result"][key]), (key, result[key], entry["result"][key])
    for ours, theirs in zip(result["details"], entry["result"]["details"], strict=True):
        _same_sample(ours, theirs)


def test_integer_points_are_drawn_as_integers(tmp_path: Path) -> None:
    """The loader keeps a file of integers integral (its points, as OpenCompass's); one float in the file makes
    every formula's points floats."""
    folder = tmp_path / "SRBENCH"
    shutil.copytree(INTEGER_DATA.parent, folder)
    load = LOAD_DATASET.get("SRbenchDataset").load
    rows = load(path=str(folder)).to_arrow().to_pylist()
    assert all(type(v) is int for r in rows for p in r["data_samples_list"] for v in p)
    mixed = _rows(INTEGER_DATA)
    mixed[1]["data"][0][0] = 1.5
    (folder / "formula_data.json").write_text("".join(json.dumps(r) + "\n" for r in mixed), encoding="utf-8")
    rows = load(path=str(folder)).to_arrow().to_pylist()
    assert all(type(v) is float for r in rows for p in r["data_samples_list"] for v in p)


@pytest.mark.parametrize("rel", CONFIGS)
def test_library_config_loads_opencompass_rows(rel: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config
    from assay.datasets.srbench import change_data_to_prompt

    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache" / "data", "data")
    config = tmp_path / "config.py"
    config.write_text(library_config(rel, RECORD["variable"]), encoding="utf-8")
    (ds,) = load_config(config).variables["datasets"]
    assert ds["type"].__module__ == "assay.datasets.srbench"
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    rows = ds["type"].load(**args).to_arrow().to_pylist()
    assert list(rows[0]) == [c for c in RECORD["columns"] if c not in ("subdivision", "idx")]
    assert len(rows) == len(RECORD["loader"])
    for ours, theirs, source in zip(rows, RECORD["loader"], _rows()):
        assert {k: ours[k] for k in ("name", "formula", "data")} == {"name": theirs["name"], "formula": theirs["formula"],
                                                                       "data": source["data"]}
        # the same 300 points, each drawn once, in another order
        assert sorted(map(tuple, ours["data_samples_list"])) == sorted(map(tuple, theirs["data_samples_list"]))
        assert ours["data_samples_list"] != theirs["data_samples_list"]
        # the prompts written from the points as OpenCompass writes them from its own draw
        assert change_data_to_prompt(theirs["data_samples_list"][:291]) == theirs["prompt1"]
        assert change_data_to_prompt(theirs["data_samples_list"][291:]) == theirs["prompt2"]
        assert (ours["prompt1"], ours["prompt2"]) == (change_data_to_prompt(ours["data_samples_list"][:291]),
                                                      change_data_to_prompt(ours["data_samples_list"][291:]))


def test_prompt_lines_as_opencompass() -> None:
    from assay.datasets.srbench import change_data_to_prompt

    for entry in RECORD["prompts"]:
        assert change_data_to_prompt(entry["points"]) == entry["prompt"], len(entry["points"][0])


def test_draw_is_reproducible_under_a_seed(tmp_path: Path) -> None:
    folder = tmp_path / "SRBENCH"
    shutil.copytree(ROOT / "cache" / "dist" / "SRBENCH", folder)
    load = LOAD_DATASET.get("SRbenchDataset").load
    first, again = (load(path=str(folder), seed=7).to_arrow().to_pylist() for _ in range(2))
    other = load(path=str(folder), seed=8).to_arrow().to_pylist()
    assert first == again
    assert first[0]["data_samples_list"] != other[0]["data_samples_list"]
    assert first[0]["prompt1"] != other[0]["prompt1"]


def test_draw_follows_opencompass_distribution(tmp_path: Path) -> None:
    """Over as many loads as OpenCompass's recorded ones (of a formula of 400 points): each point drawn about 3/4 of
    the time and in the second prompt about 9/400 of the time, as in OpenCompass's draws."""
    folder = tmp_path / "SRBENCH"
    shutil.copytree(ROOT / "cache" / "dist" / "SRBENCH", folder)
    load = LOAD_DATASET.get("SRbenchDataset").load
    draws = RECORD["draws"]["draws"]
    drawn, second = [0] * 400, [0] * 400
    for seed in range(draws):
        (row,) = load(path=str(folder), seed=seed).to_arrow().to_pylist()
        for position, point in enumerate(row["data_samples_list"]):
            drawn[int(point[0])] += 1
            second[int(point[0])] += position >= 291
    for counts in (drawn, RECORD["draws"]["drawn"]):
        assert sum(counts) == 300 * draws
        # each point: binomial(draws, 3/4), within 6 standard deviations
        assert max(abs(c - 0.75 * draws) for c in counts) < 6 * math.sqrt(draws * 0.75 * 0.25)
    for counts in (second, RECORD["draws"]["second_prompt"]):
        assert sum(counts) == 9 * draws
        # each quarter of the points: about a quarter of the second prompts' points
        for quarter in range(4):
            assert abs(sum(counts[quarter * 100 : (quarter + 1) * 100]) - 9 * draws / 4) < 6 * math.sqrt(9 * draws / 4)
    # and the two agree point by point within the spread of a difference of two such counts
    spread = 6 * math.sqrt(2 * draws * 0.75 * 0.25)
    assert max(abs(a - b) for a, b in zip(drawn, RECORD["draws"]["drawn"])) < spread


def test_evaluator_draw_is_reproducible_under_a_seed(tmp_path: Path) -> None:
    """On a formula of more than 300 points the fit depends on the draw: the same seed gives the same numbers."""
    rows = [{"formula": "y = x0", "data": [[float(i), float(i) + (i % 7) / 10] for i in range(400)]}]
    make = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")
    one, again = (make(seed=3).score(["y = x0"], ["y = x0"], rows) for _ in range(2))
    other = make(seed=4).score(["y = x0"], ["y = x0"], rows)
    assert one == again
    assert one["mean_RMSE"] != other["mean_RMSE"]


def test_reference_sympy_cannot_read_is_an_error_record_naming_the_sample() -> None:
    rows = _rows()[:2]
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")().score(["y = 2*x0 + 1", "y = x0*x1"], ["y = 2*x0 + 1", "y = (x0"], rows)
    assert set(result) == {"error"}
    assert result["error"].startswith("SRbenchDatasetEvaluator: sample 1 ")
    assert "'y = (x0'" in result["error"] and "reference cannot be read" in result["error"]


def test_answer_that_does_not_end_is_an_error_record_naming_the_sample() -> None:
    rows = _rows()[:2]
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")(expression_timeout=2).score(
        ["y = 2*x0 + 1", "y = 9**9**9**9"], [r["formula"] for r in rows], rows)
    assert set(result) == {"error"}
    assert result["error"].startswith("SRbenchDatasetEvaluator: sample 1 ")
    assert "9**9**9**9" in result["error"]


def test_answer_ending_its_process_is_an_error_record() -> None:
    rows = _rows()[:1]
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")().score(["y = __import__('os')._exit(3)"], [rows[0]["formula"]], rows)
    assert set(result) == {"error"}
    assert "sample 0 " in result["error"] and "ended its process (status 3)" in result["error"]


def test_too_few_points_is_an_error_naming_the_file_and_formula(tmp_path: Path) -> None:
    folder = tmp_path / "SRBENCH"
    folder.mkdir()
    rows = [{"formula": "y = x0", "data": [[1.0, 1.0]] * 300}, {"formula": "y = 2*x0", "data": [[1.0, 2.0]] * 299}]
    (folder / "formula_data.json").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"formula_data\.json, formula 1: 'data' holds 299 points"):
        LOAD_DATASET.get("SRbenchDataset").load(path=str(folder))


def test_test_set_without_points_is_an_error_record() -> None:
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")().score(["y = x0"], ["y = x0"], [])
    assert set(result) == {"error"} and "test set's rows" in result["error"]


def test_answer_running_out_of_memory_scores_invalid_and_keeps_the_batch() -> None:
    """OpenCompass catches the MemoryError of a reading as any other error: that answer is not valid, the others
    are scored.  The shift asks at once for 8 GiB, past the sandbox's memory limit (a power such as
    ``2**(2**36)`` gets there too, but only after squaring numbers of hundreds of megabytes, for half a minute)."""
    rows = _rows()[:2]
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")(expression_timeout=20).score(
        ["y = 2*x0 + 1", "y = x0*x1 + 0*(1 << 2**36)"], [r["formula"] for r in rows], rows)
    assert "error" not in result, result
    assert [d["is_valid"] for d in result["details"]] == [True, False]
    assert result["details"][1]["RMSE"] == 100000.0
    assert result["mean_R2"] == 1.0


def test_complex_fit_is_an_error_record_naming_the_sample() -> None:
    """A complex fit makes OpenCompass's means complex and its result cannot be written: no numbers, an error."""
    rows = _rows()[:2]
    result = ICL_EVALUATORS.get("SRbenchDatasetEvaluator")().score(["y = 2*x0 + 1", "y = I*x0*x1"], [r["formula"] for r in rows], rows)
    assert set(result) == {"error"}, result
    assert result["error"].startswith("SRbenchDatasetEvaluator: sample 1 ")
    assert "'y = I*x0*x1'" in result["error"] and "complex" in result["error"]


@pytest.mark.parametrize("value", [None, True, False])
def test_null_or_bool_among_the_points_is_an_error_naming_the_point(value: Any, tmp_path: Path) -> None:
    folder = tmp_path / "SRBENCH"
    folder.mkdir()
    data: list[list[Any]] = [[float(i), float(i)] for i in range(300)]
    data[7][1] = value
    rows = [{"formula": "y = x0", "data": [[1.0, 1.0]] * 300}, {"formula": "y = x0", "data": data}]
    (folder / "formula_data.json").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(InputFileError, match=rf"formula_data\.json, formula 1: point 7 holds {json.dumps(value)} "):
        LOAD_DATASET.get("SRbenchDataset").load(path=str(folder))
