"""Record what OpenCompass 0.5.4 computes on NPHardEval's and PI-LLM's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_symbolic.py

It writes small data files in OpenCompass's local layout under
``tests/data/oc_families/symbolic/cache`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory): NPHardEval's nine problems
(DIMACS graphs, CSV distance matrices, JSON instances) and PI-LLM's two
configurations (a local dataset folder, ``giantfish-fly/pi-llm``, whose
``README.md`` names their JSON Lines files).  Each dataset's rows are
read with OpenCompass's own loader, and a prediction file per dataset is written
under ``predictions/`` as OpenCompass's gen inferencer writes it
(``origin_prompt``, ``prediction``, ``gold`` — the loader's reference), with
varied replies.

Then OpenCompass's own eval task (``OpenICLEvalTask``: loader, evaluator, details
dumped) scores the predictions of each case's config (unchanged), and
``expected/<case>.json`` gets, per dataset, the result file's metrics, the
predictions and references the evaluator received, the test set's rows and, per
sample, whether NPHardEval's evaluator passes it scored alone (``passed``), or
PI-LLM's grade of it (``accuracy``).
The travelling-salesman instances are ones on which OpenCompass's greedy tour
from a random start has one length whatever the start, so that the recording
does not depend on the draw.

The benchmark's prompt texts the loaders use are written to
``src/assay/datasets/nphardeval_prompts.json`` (data assay's loader reads).

``tests/evaluators/test_oc_nphardeval.py`` and ``tests/evaluators/test_oc_pi_llm.py`` check assay's
namesakes against these.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, library_datasets, use_data_cache, write_json

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "symbolic"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable)
CASES: dict[str, tuple[str, str]] = {
    "NPHardEval_gen_22aac5": ("NPHardEval/NPHardEval_gen_22aac5.py", "NPHardEval_datasets"),
    "pi_llm_gen": ("PI_LLM/pi_llm_gen.py", "pi_llm_datasets"),
}


def _xml(answer: str, reasoning: str = "I thought.") -> str:
    return f"<root><reasoning>{reasoning}</reasoning><final_answer>{answer}</final_answer></root>"


def _tags(answer: str) -> str:
    """The four tags in free text, which is not XML."""
    return f"Sure & here:\n<reasoning>steps</reasoning>\n<final_answer>\n{answer}\n</final_answer>"


# -- graph colouring ------------------------------------------------------------------------------------------

#: (file number, header's colours, vertices, edges)
GCP_GRAPHS: list[tuple[int, int, int, list[tuple[int, int]]]] = [
    (0, 2, 3, [(1, 2), (2, 3)]),
    (0, 3, 3, [(1, 2), (2, 3), (1, 3)]),
    (1, 2, 4, [(1, 2), (3, 4), (2, 5)]),
    (2, 2, 2, []),
    (4, 3, 4, [(1, 2), (2, 3), (3, 4), (4, 1), (1, 1)]),
]
GCP_REPLIES = [
    _xml("{1: 'A', 2: 'B', 3: 'A'}"),
    _tags("1: 'red', 2: 'green', 3: 'blue'"),
    _tags("{1: 1, 2: 2, 3: 1, 4: 2}"),
    "no answer at all",
    _xml("None"),
]
GCP_D_REPLIES = [
    _tags("{'Feasible': 'YES'}"),
    _tags("{'Feasible': 'no'}"),
    "<final_answer>{'Feasible': 'Yes'}</final_answer> no reasoning tags",
    _tags("{'Feasible': 'yes'}"),
    _tags("{'Feasible': 'no'}"),
]


def _dimacs(colours: int, vertices: int, edges: list[tuple[int, int]], decision: bool) -> str:
    head = f"c graph to colour with {colours} colors" if decision else f"c chromatic number {colours}"
    return "\n".join([head, f"p edge {vertices} {len(edges)}", *(f"e {a} {b}" for a, b in edges)])


# -- travelling salesman ----------------------------------------------------------------------------------------

def _tsp_matrix(level: int, instance: int) -> list[list[Any]]:
    """A matrix on which every greedy tour has one length: three cities, or four at equal distances (one matrix with a
    column of decimals, which the prompt writes as such and the integer columns as integers)."""
    if (level, instance) == (9, 10):
        return [[0, 1.5, 2], [1.5, 0, 3], [2, 3, 0]]
    if (level + instance) % 4 == 0:
        d = 2 + level
        return [[0 if i == j else d for j in range(4)] for i in range(4)]
    a, b, c = 1 + level, 2 + instance, 3 + (level * instance) % 5
    return [[0, a, b], [a, 0, c], [b, c, 0]]


def _tsp_reply(level: int, instance: int) -> str:
    four = (level + instance) % 4 == 0
    tour = "0->1->2->3->0" if four else "0->2->1->0"
    kind = (level * 10 + instance) % 6
    if kind == 0:
        return _xml(f"{{'Path': '{tour}', 'TotalDistance': '9'}}")
    if kind == 1:
        return _tags(f"'Path': '{tour}'")
    if kind == 2:
        return _tags("{'Path': '0->1->0'}")
    if kind == 3:
        return _xml(f"{{'Path': '{tour.replace('0->', '1->', 1)}'}}")
    if kind == 4:
        return "The tour is " + tour
    return _tags(f"{{'Path': '{tour.replace('->', ' -> ')}'}}")


def _tsp_d_threshold(level: int, instance: int) -> int:
    m = _tsp_matrix(level, instance)
    length = sum(m[i][(i + 1) % len(m)] for i in range(len(m)))
    return length + (level % 3) - 1


def _tsp_d_reply(level: int, instance: int) -> str:
    kind = (level + 2 * instance) % 5
    if kind == 0:
        return _tags("{'Feasible': 'Yes'}")
    if kind == 1:
        return _tags("{'Feasible': 'No'}")
    if kind == 2:
        return _tags("Feasible: Yes")
    if kind == 3:
        return _xml("{'Feasible': 'YES'}")
    return "It is feasible."


# -- the JSON problems --------------------------------------------------------------------------------------------

MSP = [
    {"complexity_level": 1, "time_slots": 4, "meetings": [{"id": 0, "duration": 2}, {"id": 1, "duration": 1}],
     "participants": {"0": {"available_slots": [0, 1, 2], "meetings": [0, 1]}, "1": {"available_slots": [0, 1, 2, 3], "meetings": [1]}}},
    {"complexity_level": 2, "time_slots": 3, "meetings": [{"id": 0, "duration": 1}],
     "participants": {"0": {"available_slots": [1, 2], "meetings": [0]}}},
    {"complexity_level": 3, "time_slots": 3, "meetings": [{"id": 0, "duration": 1}, {"id": 1, "duration": 1}],
     "participants": {"0": {"available_slots": [0, 1, 2], "meetings": [0, 1]}}},
    {"complexity_level": 2, "time_slots": 2, "meetings": [{"id": 0, "duration": 2}],
     "participants": {"0": {"available_slots": [0, 1], "meetings": [0]}}},
    {"complexity_level": 1, "time_slots": 2, "meetings": [{"id": 0, "duration": 1}],
     "participants": {"0": {"available_slots": [0, 1], "meetings": [0]}}},
]
MSP_REPLIES = [
    _xml("{0: [0, 1], 1: [2]}"),
    _tags("0: [0]"),
    _tags("{0: [1], 1: [1]}"),
    _xml("{0: [0, 1], 5: [0]}"),
    _xml("[0]"),
]
KSP = [
    {"knapsack_capacity": 5, "items": [{"id": 0, "weight": 2, "value": 3}, {"id": 1, "weight": 3, "value": 4},
                                       {"id": 2, "weight": 4, "value": 5}, {"id": 3, "weight": 5, "value": 6}]},
    {"knapsack_capacity": 3, "items": [{"id": 0, "weight": 1, "value": 1}, {"id": 1, "weight": 2, "value": 2},
                                       {"id": 2, "weight": 3, "value": 3}, {"id": 3, "weight": 4, "value": 4},
                                       {"id": 4, "weight": 5, "value": 5}]},
]
KSP_REPLIES = [_tags("{'Feasible': 'Yes', 'TotalValue': 7, 'SelectedItemIds': [0, 1]}"), "no idea"]
BSP = [{"array": [5, 1, 3], "target": 3}, {"array": [2, 4, 6, 8], "target": 8}, {"array": [1, 2, 3, 4, 5], "target": 9}]
BSP_REPLIES = [_tags("{'Position': 1}"), _tags("{'Position': '3'}"), _tags("{'Position': -1}")]
EDP = [{"string_a": "kitten", "string_b": "sitting"}, {"string_a": "abc", "string_b": "abc"}, {"string_a": "flaw", "string_b": "lawn"},
       {"string_a": "ab", "string_b": "ba"}]
EDP_REPLIES = ["<final_answer>The answer: {'Operations': 3} and {'x': 1}</final_answer>", "<final_answer>{'Operations': '0'}</final_answer>",
               "<final_answer>{'Operations': 3}</final_answer>", "{'Operations': 2}"]
SPP = [
    {"complexity_level": 1, "nodes": [0, 1, 2], "edges": [{"from": 0, "to": 1, "weight": 1}, {"from": 1, "to": 2, "weight": 2},
                                                          {"from": 0, "to": 2, "weight": 5}]},
    {"complexity_level": 2, "nodes": [0, 1, 2, 3], "edges": [{"from": 1, "to": 0, "weight": 4}, {"from": 2, "to": 3, "weight": 1}]},
    {"complexity_level": 3, "nodes": [0, 1, 2], "edges": [{"from": 0, "to": 1, "weight": 2}, {"from": 1, "to": 2, "weight": 2}]},
    {"complexity_level": 2, "nodes": [0, 1], "edges": [{"from": 0, "to": 1, "weight": 3}]},
    {"complexity_level": 1, "nodes": [0, 1, 2, 3], "edges": [{"from": 0, "to": 1, "weight": 1}]},
]
SPP_REPLIES = [
    "<final_answer>{'Path': '0->1->2', 'TotalDistance': '3'}</final_answer>",
    "<final_answer>{'Path': '', 'TotalDistance': 'none'}</final_answer>",
    "<final_answer>{'Path': '0->2', 'TotalDistance': 4}</final_answer>",
    "<final_answer>{'Path': '0->1', 'TotalDistance': '4'}</final_answer>",
    "<final_answer>{'Path': '0', 'TotalDistance': '0'}</final_answer>",
]


# -- PI-LLM ------------------------------------------------------------------------------------------------------

def _pi_row(experiment: str, n_updates: int, answer: dict[str, Any], prompt: Any = None) -> dict[str, Any]:
    if prompt is None:
        prompt = json.dumps([{"role": "user", "content": f"Track the keys ({experiment}, {n_updates} updates)."}])
    return {"experiment": experiment, "n_updates": n_updates, "prompt": prompt, "answer_formatted": json.dumps(answer)}


PI_CORE = [
    _pi_row("exp_updates_n2", 2, {"apple": "red", "pear": "green"}),
    _pi_row("exp_updates_randomoff_n5", 5, {"apple": "blue"}),
    _pi_row("exp_updates_n40", 40, {"fig": "tall", "kiwi": "round", "lime": "sour"}, prompt="Not JSON: track the keys."),
    _pi_row("exp_keys_k10", 100, {"a": "one", "b": "two"}),
    _pi_row("exp_keys_k20", 350, {"a": "three", "b": "four"}),
    _pi_row("exp_keys_k30", 200, {"c": "five"}),
    _pi_row("exp_valuelength_v2", 4, {"dog": "big brown"}),
    _pi_row("exp_valuelength_v9", 20, {"dog": "small", "cat": "grey"}),
    _pi_row("exp_updates_n400", 400, {}),
]
PI_SEQUENTIAL = [
    _pi_row("extra_exp_updates_randomoff_n3", 3, {"key1": "v1", "key2": "v2"}),
    _pi_row("extra_exp_updates_randomoff_n300", 300, {"key1": "v9"}),
    _pi_row("other", 7, {"key1": "v1"}),
]
PI_REPLIES = {
    "pi_llm_exp_updates": ["apple: red\n**pear**: \"green\"", "The final value of fig is tall.\nkiwi: square\nlime: sour",
                           "There was an error."],
    "pi_llm_exp_keys": ["The current value of a is one, and the last value for key b was two.", "a: three\nb: 4\nkey: x",
                        "Error: none"],
    "pi_llm_exp_valuelength": ["dog: big brown", "The latest value of [dog] is small; cat: grey"],
    "pi_llm_exp_sequential": ["key1: v1\\nkey2: v2\\", "The most recent value of key1 is <v9>."],
}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def build_data() -> None:
    """The data files in OpenCompass's layout, under ``FIXTURES/cache``."""
    cache = FIXTURES / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    root = cache / "data" / "NPHardEval"
    for folder, stem, decision in (("GCP", "synthesized_data_GCP", False), ("GCP_Decision", "decision_data_GCP", True)):
        for number in range(10):
            graphs = [_dimacs(c, v, e, decision) for n, c, v, e in GCP_GRAPHS if n == number]
            _write(root / folder / f"{stem}_{number}.txt", "".join(g + "\n\n" for g in graphs))
    for level in range(10):
        for instance in range(1, 11):
            matrix = _tsp_matrix(level, instance)
            _write(root / "TSP" / f"synthesized_data_TSP_level_{level}_instance_{instance}.csv",
                   "".join(",".join(map(str, row)) + "\n" for row in matrix))
            threshold = [_tsp_d_threshold(level, instance)] + [0] * (len(matrix) - 1)
            _write(root / "TSP_Decision" / f"decision_data_TSP_level_{level}_instance_{instance}.csv",
                   "".join(",".join(map(str, row)) + "\n" for row in [*matrix, threshold]))
    for folder, name, rows in (("MSP", "msp_instances.json", MSP), ("KSP", "ksp_instances.json", KSP), ("BSP", "bsp_instances.json", BSP),
                               ("EDP", "edp_instances.json", EDP), ("SPP", "spp_instances.json", SPP)):
        _write(root / folder / name, json.dumps(rows, indent=1))
    pi = cache / "giantfish-fly" / "pi-llm"
    for config, rows in (("core", PI_CORE), ("sequential_additional", PI_SEQUENTIAL)):
        _write(pi / config / "test.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    _write(pi / "README.md", "---\nconfigs:\n" + "".join(
        f"- config_name: {c}\n  data_files:\n  - split: test\n    path: {c}/test.jsonl\n" for c in ("core", "sequential_additional")) + "---\n")


def _replies(abbr: str) -> list[str]:
    if abbr in PI_REPLIES:
        return PI_REPLIES[abbr]
    if abbr == "hard_TSP":
        return [_tsp_reply(level, instance) for level in range(10) for instance in range(1, 11)]
    if abbr == "cmp_TSP_D":
        return [_tsp_d_reply(level, instance) for level in range(10) for instance in range(1, 11)]
    return {"hard_GCP": GCP_REPLIES, "cmp_GCP_D": GCP_D_REPLIES, "hard_MSP": MSP_REPLIES, "cmp_KSP": KSP_REPLIES,
            "p_BSP": BSP_REPLIES, "p_EDP": EDP_REPLIES, "p_SPP": SPP_REPLIES}[abbr]


def _datasets(case: str) -> list[dict[str, Any]]:
    return library_datasets(*CASES[case])


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the gen inferencer writes one (the references from OpenCompass's loader)."""
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        golds = test[ds["reader_cfg"]["output_column"]]
        prompts = test[ds["reader_cfg"]["input_columns"][0]]
        replies = _replies(ds["abbr"])
        assert len(replies) == len(golds), (ds["abbr"], len(replies), len(golds))
        records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": r, "gold": g}
                   for i, (q, r, g) in enumerate(zip(prompts, replies, golds))}
        out = FIXTURES / "predictions" / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_json(out, records)


def _passes(evaluator: Any, prediction: Any, reference: str) -> bool | None:
    """Whether OpenCompass's evaluator passes the sample scored alone (``None`` for a sample of level 0)."""
    if int(reference.split("####\n")[0]) == 0:
        return None
    score = evaluator.score([prediction], [reference])["Weighted Accuracy"]
    assert score in (0, 100), score
    return bool(score == 100)


def _check_tsp_greedy(references: list[str]) -> None:
    """Every TSP instance's greedy tours have one length whatever the start (the recording must not depend on the draw)."""
    import numpy as np
    import pandas as pd
    from opencompass.datasets.NPHardEval.hard_TSP import Hard_TSP_Evaluator

    evaluator = Hard_TSP_Evaluator()
    for reference in references:
        matrix = np.array(pd.DataFrame(eval(json.loads(reference.split("####\n")[-1]))))
        lengths = set()
        for seed in range(20):
            np.random.seed(seed)
            lengths.add(float(evaluator.greedy_tsp(matrix)[1]))
        assert len(lengths) == 1, (reference, lengths)


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    rel, variable = CASES[case]
    shutil.rmtree(work / case, ignore_errors=True)
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["predictions"] = list(kwargs["predictions"]) if kwargs.get("predictions") is not None else None
        captured["references"] = list(kwargs["references"]) if kwargs.get("references") is not None else None
        captured["test_rows"] = original_dataset.to_list()
        captured["evaluator"] = self
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    out: dict[str, Any] = {"config": rel, "variable": variable, "kept": None, "datasets": {}}
    try:
        for ds in _datasets(case):
            abbr = ds["abbr"]
            run_dir = work / case / RUN
            pred_dir = run_dir / "predictions" / MODEL
            pred_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred_dir / f"{abbr}.json")
            cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                             eval=dict(runner=dict(task=dict(dump_details=True))))
            captured.clear()
            if abbr == "hard_TSP":
                _check_tsp_greedy(build_dataset_from_cfg(ds).test["q"])
            OpenICLEvalTask(cfg).run()
            result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
            result.pop("details", None)
            evaluator = captured.pop("evaluator")
            entry: dict[str, Any] = {"result": result}
            entry.update({k: captured.get(k) for k in ("predictions", "references", "test_rows")})
            pairs = list(zip(captured["predictions"], captured["references"]))
            if abbr.startswith("pi_llm"):
                entry["accuracy"] = [evaluator.grade_pi_response(p, r) for p, r in pairs]
            else:
                entry["passed"] = [_passes(evaluator, p, r) for p, r in pairs]
            out["datasets"][abbr] = jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


def write_prompts() -> None:
    """The benchmark's prompt texts, per problem, for assay's loader."""
    from opencompass.datasets.NPHardEval import prompts

    kept = ("Intro", "Initial_question", "Output_content", "Output_format")
    texts = {problem: {k: getattr(prompts, name)[k] for k in kept} for problem, name in (
        ("GCP", "gcpPrompts"), ("TSP", "tspPrompts"), ("MSP", "mspPrompts"), ("GCP_Decision", "gcp_dPrompts"),
        ("TSP_Decision", "tsp_dPrompts"), ("KSP", "kspPrompts"), ("BSP", "bspPrompts"), ("EDP", "edpPrompts"), ("SPP", "sppPrompts"))}
    write_json(REPO / "src" / "assay" / "datasets" / "nphardeval_prompts.json", texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    use_data_cache(FIXTURES / "cache")
    build_data()
    write_prompts()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for case in CASES:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            write_json(out_dir / f"{case}.json", record, sort_keys=True)
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
