"""NPHardEval's nine loaders and checkers against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_symbolic.py`` with OpenCompass
installed: its own eval task scored the prediction files under
``tests/data/oc_families/symbolic/predictions`` on the data under ``cache``.  The
case imports the library's ``NPHardEval_gen_22aac5`` unchanged (through
``read_base``, the library from the ``oc_library`` fixture) and runs ``assay eval``
on the same prediction files with the data on disk (the files' ``gold`` replaced,
so that only the data gives the references) and without it (the evaluators read
the references alone: they then come from the files' ``gold``); every metric, and
every sample's verdict (OpenCompass's evaluator on the sample alone), must be
OpenCompass's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import MODEL, library_config, with_data, without_data

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "symbolic"
CASE = "NPHardEval_gen_22aac5"
RECORD = json.loads((ROOT / "expected" / f"{CASE}.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"


def _rows(details: Any) -> list[dict[str, Any]]:
    rows = list(details.values()) if isinstance(details, dict) else list(details)
    return [{k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in d.items()} for d in rows]


@pytest.mark.parametrize("on_disk", [True, False], ids=["data", "gold"])
def test_library_config_scores_as_opencompass(on_disk: bool, oc_library: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if on_disk:
        with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    else:
        without_data(tmp_path, monkeypatch, oc_library)
    config = tmp_path / "config.py"
    config.write_text(library_config(RECORD["config"], RECORD["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in RECORD["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        if on_disk:  # the references must come from the data: the files' gold is made useless
            replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in RECORD["datasets"].items():
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert {k: result[k] for k in entry["result"]} == entry["result"], abbr
        rows = _rows(result["details"])
        assert [d["level"] for d in rows] == [r["level"] for r in entry["test_rows"]], abbr
        assert [d["passed"] if d["level"] else None for d in rows] == entry["passed"], abbr


@pytest.mark.parametrize("abbr", sorted(RECORD["datasets"]))
def test_library_config_loads_opencompass_rows(abbr: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(library_config(RECORD["config"], RECORD["variable"]), encoding="utf-8")
    (ds,) = [d for d in load_config(config).variables["datasets"] if d["abbr"] == abbr]
    assert ds["type"].__module__ == "assay.datasets.nphardeval"
    rows = ds["type"].load(path=ds["path"]).to_arrow().to_pylist()
    assert rows == [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in RECORD["datasets"][abbr]["test_rows"]]


def _score(name: str, predictions: list[Any], references: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = ICL_EVALUATORS.get(name)().score(predictions, references)
    return result


def _frame_reference(level: int, matrix: list[list[int]]) -> str:
    """A TSP reference as OpenCompass's loader writes it: the JSON string of ``DataFrame.to_json()``."""
    return f"{level}####\n" + json.dumps(json.dumps({str(c): {str(r): v for r, v in enumerate(col)} for c, col in enumerate(matrix)}))


def test_tsp_greedy_tour_starts_from_a_random_city_as_opencompass_does() -> None:
    import numpy as np

    # greedy tours: from 0, 0-1-2-3-0 = 1+4+1+3 = 9; from 1, 1-0-2-3-1 = 13; from 2, 2-3-0-1-2 = 9; from 3, 3-2-0-1-3 = 13
    reference = _frame_reference(2, [[0, 1, 2, 3], [1, 0, 4, 9], [2, 4, 0, 1], [3, 9, 1, 0]])
    reply = "<root><reasoning>r</reasoning><final_answer>{'Path': '0->1->2->3->0'}</final_answer></root>"  # 9
    verdicts = []
    for seed in range(16):
        np.random.seed(seed)
        start = int(np.random.choice([0, 1, 2, 3]))  # the draw OpenCompass makes from numpy's global generator
        np.random.seed(seed)
        passed = _score("Hard_TSP_Evaluator", [reply], [reference])["Weighted Accuracy"] == 100
        assert passed == (start in (0, 2)), (seed, start)
        verdicts.append(passed)
    assert set(verdicts) == {True, False}


def test_tsp_reference_with_gaps_is_an_error_naming_the_sample() -> None:
    gaps = json.dumps('{"0":{"0":0,"1":3,"2":10},"1":{"0":3.0,"1":0.0,"2":null}}')
    result = _score("CMP_TSP_D_Evaluator", ["x", "y"], [f"1####\n{gaps}", f"1####\n{gaps}"])
    assert set(result) == {"error"} and "CMP_TSP_D_Evaluator" in result["error"] and "reference 0" in result["error"]
    assert "null" in result["error"]


def test_levels_adding_up_to_nothing_are_an_error_record() -> None:
    ksp = json.dumps({"knapsack_capacity": 1, "items": [{"id": 0, "weight": 1, "value": 1}] * 3})
    result = _score("CMP_KSP_Evaluator", ["<final_answer>{}</final_answer>"], [f"0####\n{ksp}"])
    assert set(result) == {"error"} and "add up to 0" in result["error"]
    assert _score("P_EDP_Evaluator", [], []) == {"error": "P_EDP_Evaluator: no samples to score"}


def test_gcp_reads_replies_as_opencompass() -> None:
    graph = "c chromatic number 2\np edge 3 2\ne 1 2\ne 2 3"
    edgeless = "c chromatic number 1\np edge 2 0"
    cases = [
        ("<root><final_answer>{1: 'a', 2: 'b', 3: 'a'}</final_answer></root>", graph, True),
        ("<root><final_answer>{1: 'a', 2: 'a', 3: 'b'}</final_answer></root>", graph, False),
        ("<root><final_answer></final_answer></root>", graph, False),  # an empty element: no literal, fails
        ("<root><reasoning/></root>", edgeless, True),  # no answer, no edges: nothing to check
        ("<root><final_answer>None</final_answer></root>", edgeless, False),  # a literal that is no mapping fails
        ("<final_answer>1: 0, 2: 1, 3: 0</final_answer><reasoning>x</reasoning> & not XML", graph, True),
        ("<final_answer>{1: 0, 2: 1, 3: 0}</final_answer> without reasoning tags", graph, False),
    ]
    for reply, instance, passed in cases:
        assert _score("HardGCPEvaluator", [reply], [f"3####\n{instance}"])["Weighted Accuracy"] == (100 if passed else 0), reply


def test_gcp_decision_greedy_colouring_counts_by_degree_first() -> None:
    # a 4-cycle with a chord is 3-colourable; degree order 1, 3 (degree 3), then 2, 4 — greedy needs 3 colours
    graph = "c with 2 colors\np edge 4 5\ne 1 2\ne 2 3\ne 3 4\ne 4 1\ne 1 3"
    yes = "<reasoning>r</reasoning><final_answer>{'Feasible': 'Yes'}</final_answer>"
    no = "<reasoning>r</reasoning><final_answer>{'Feasible': 'NO'}</final_answer>"
    assert _score("CMP_GCP_D_Evaluator", [yes, no], [f"1####\n{graph}"] * 2)["Weighted Accuracy"] == 50
    assert _score("CMP_GCP_D_Evaluator", [no], [f"1####\n{graph}"])["details"][0] == {"level": 1, "passed": True,
                                                                                  "answer": "{'Feasible': 'NO'}"}


def test_spp_reads_the_first_listed_edge_and_no_path_as_opencompass() -> None:
    instance = json.dumps({"nodes": [0, 1, 2], "edges": [{"from": 1, "to": 0, "weight": 1}, {"from": 0, "to": 1, "weight": 4},
                                                         {"from": 1, "to": 2, "weight": 1}]})
    # the graph keeps the last weight of 0-1 (4): the shortest path is 0-1-2 at 5; the path's cost reads the first (1): 2
    reply = "<final_answer>{'Path': '0->1->2', 'TotalDistance': '2'}</final_answer>"
    assert _score("P_SPP_Evaluator", [reply], [f"1####\n{instance}"])["Weighted Accuracy"] == 0
    lonely = json.dumps({"nodes": [0, 1, 2], "edges": []})
    passes = ["<final_answer>{'Path': '', 'TotalDistance': 'inf'}</final_answer>"]
    fails = ["<final_answer>{'Path': '', 'TotalDistance': '7'}</final_answer>", "<final_answer>{'Path': '0->2', 'TotalDistance': 0}</final_answer>"]
    assert _score("P_SPP_Evaluator", passes + fails, [f"1####\n{lonely}"] * 3)["Weighted Accuracy"] == pytest.approx(100 / 3)


def test_missing_file_is_an_error_naming_the_loader_and_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"P_EDP_Dataset: file .*edp_instances\.json does not exist"):
        LOAD_DATASET.get("P_EDP_Dataset").load(path=f"{tmp_path}/")
    (tmp_path / "spp_instances.json").write_text(json.dumps([{"nodes": [0], "edges": []}]), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"P_SPP_Dataset: file .*spp_instances\.json: instance 0 .*complexity_level"):
        LOAD_DATASET.get("P_SPP_Dataset").load(path=f"{tmp_path}/")


def test_tsp_decision_without_networkx_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "networkx" else real(name, *a))
    evaluator = ICL_EVALUATORS.get("CMP_TSP_D_Evaluator")
    assert evaluator.dry_run_notes({}) == ["networkx is not installed (pip install networkx, or pip install 'assay[nphardeval]')"]
    result = _score("CMP_TSP_D_Evaluator", ["x"], [_frame_reference(1, [[0, 1], [1, 0], [5, 0]])])
    assert set(result) == {"error"} and "CMP_TSP_D_Evaluator: networkx is not installed" in result["error"]


def test_msp_schedules_read_as_opencompass() -> None:
    instance = json.dumps({"time_slots": 3, "meetings": [{"id": 0, "duration": 2}, {"id": 1, "duration": 1}],
                           "participants": {"0": {"available_slots": [0, 1, 2], "meetings": [0, 1]}}})
    cases = [
        ("<root><final_answer>{0: [0, 1], 1: [2]}</final_answer></root>", True),
        ("<root><final_answer>{'0': [1, 2], '1': [0]}</final_answer></root>", True),  # keys read as integers
        ("<root><final_answer>{0: [0, 1], 1: [1]}</final_answer></root>", False),  # participant 0 booked twice
        ("<root><final_answer>{0: [1, 0], 1: [2]}</final_answer></root>", False),  # not contiguous in order
        ("<root><final_answer>{0: [0, 1], 1: [2], 2: [0]}</final_answer></root>", False),  # a meeting the instance lacks
        ("<final_answer>0: [0, 1], 1: [2]</final_answer><reasoning>r</reasoning> & not XML", True),  # read inside braces
        ("<root><final_answer>None</final_answer></root>", False),
    ]
    for reply, passed in cases:
        assert _score("Hard_MSP_Evaluator", [reply], [f"2####\n{instance}"])["Weighted Accuracy"] == (100 if passed else 0), reply


@pytest.mark.parametrize(("instance", "named"), [
    ({"items": [{"id": 0, "weight": 1, "value": 1}]}, "knapsack_capacity"),
    ({"knapsack_capacity": 3, "items": [{"id": 0, "value": 1}]}, "weight"),
    ({"knapsack_capacity": 2.5, "items": [{"id": 0, "weight": 1, "value": 1}]}, "TypeError"),
    ({"knapsack_capacity": -1, "items": []}, "IndexError"),
])
def test_knapsack_instance_opencompass_cannot_check_is_an_error_naming_the_sample(instance: dict[str, Any], named: str) -> None:
    good = json.dumps({"knapsack_capacity": 3, "items": [{"id": 0, "weight": 1, "value": 1}]})
    result = _score("CMP_KSP_Evaluator", ["x", "y"], [f"1####\n{good}", f"1####\n{json.dumps(instance)}"])
    assert set(result) == {"error"} and "CMP_KSP_Evaluator" in result["error"] and "reference 1" in result["error"]
    assert named in result["error"]
    assert _score("CMP_KSP_Evaluator", ["x"], [f"1####\n{good}"])["Weighted Accuracy"] == 0
