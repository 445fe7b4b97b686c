"""Record what OpenCompass 0.5.4's biology-instruction components (``biodata_task_gen``) compute.

Run it with a Python that has opencompass==0.5.4 installed (with SciPy,
scikit-learn and PyTorch, which its evaluators import); OpenCompass is not a
dependency of assay::

    python scripts/record_oc_biodata.py [--out FILE]

It writes small task files in OpenCompass's layout under
``tests/data/oc_families/biodata/cache/data/biology-instruction-fixed`` (one
``<task>.jsonl`` for each task the library's config names, every answer type
among them), reads them with ``BiodataTaskDataset.load`` (and one with
``mini_set``), and runs the eight evaluators on replies written to reach each
of their readers and edge cases, and on larger seeded random batches (for the
correlations' and the float32 Fmax's last bits); and each evaluator on references of
other types than the task files hold (text, ``None``, booleans, nested lists, records
holding text, integers beyond float), recording its result or the exception it raises
(``reference_types``), and on replies that are not text (``reply_types``).  The output goes to
``tests/data/oc_families/biodata/recorded.json``; ``tests/evaluators/test_biodata.py``
checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import json
import os
import random
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "biodata"
OUT = DATA / "recorded.json"
FOLDER = DATA / "cache" / "data" / "biology-instruction-fixed"

DNA = ["ACGTTGCA", "TTGACCGT", "GGCATTAC", "CATGCATG", "AATTCCGG", "GCGCATAT"]


def _cls(task: str, n: int, words: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"prompt": f"Sequence: <dna>{DNA[i % len(DNA)]}<dna>. Does it belong to the class? ",
             "ground_truth": words[i % 2], "meta_data": {"task": task, "ans_type": "cls", "id": i}}
            for i in range(n)]


def _number(task: str, n: int, scale: float) -> list[dict[str, Any]]:
    rng = random.Random(task)
    return [{"prompt": f"Sequence: {DNA[i % len(DNA)]}. Predict the value.",
             "ground_truth": round(rng.uniform(0, scale), 3), "meta_data": {"task": task, "ans_type": "number"}}
            for i in range(n)]


def _dict(task: str, n: int, keys: list[str]) -> list[dict[str, Any]]:
    rng = random.Random(task)
    return [{"prompt": f"Sequence: {DNA[i % len(DNA)]}. Predict the activities.",
             "ground_truth": {k: round(rng.uniform(-2, 4), 3) for k in keys},
             "meta_data": {"task": task, "ans_type": "dict"}} for i in range(n)]


def _string(task: str, meta_task: str, answers: list[str]) -> list[dict[str, Any]]:
    return [{"prompt": f"Sequence: {DNA[i % len(DNA)]}. What is it?", "ground_truth": a,
             "meta_data": {"task": meta_task, "ans_type": "string"}} for i, a in enumerate(answers)]


#: task → rows of ``<task>.jsonl`` (the library's tasks; answer types as their evaluators read them)
TASK_FILES: dict[str, list[dict[str, Any]]] = {
    **{t: _cls(t, 4, ("positive", "negative")) for t in ("DNA-cpd", "DNA-emp", "DNA-pd", "DNA-tf-h", "DNA-tf-m")},
    **{t: _cls(t, 3, ("Yes", "No")) for t in ("Multi_sequence-antibody_antigen",
                                               "Multi_sequence-promoter_enhancer_interaction",
                                               "Multi_sequence-rna_protein_interaction")},
    "DNA-enhancer_activity": _dict("DNA-enhancer_activity", 4, ["Dev", "Hk"]),
    **{t: _number(t, 4, 1.0) for t in ("RNA-CRISPROnTarget", "Protein-Fluorescence", "Protein-Stability",
                                       "Protein-Thermostability", "RNA-Isoform", "RNA-MeanRibosomeLoading")},
    "RNA-ProgrammableRNASwitches": _dict("RNA-ProgrammableRNASwitches", 3, ["ON", "OFF", "ON_OFF"]),
    "RNA-Modification": _string("RNA-Modification", "Modification Prediction", ["m6A", "AtoI, m1A", "none", "Psi,Um"]),
    "Protein-Solubility": _cls("Protein-Solubility", 25, ("positive", "negative")),
    "RNA-NoncodingRNAFamily": _string("RNA-NoncodingRNAFamily", "Non-coding RNA Function Classification",
                                      ["tRNA", "miRNA", "5S_rRNA"]),
    "Protein-FunctionEC": _string("Protein-FunctionEC", "Function EC", ["EC3.5.4.9,EC1.1.1.1", "EC2.7.11.1", "EC3.4.21.-"]),
    "Multi_sequence-sirnaEfficiency": _number("Multi_sequence-sirnaEfficiency", 4, 100.0),
}
#: (task, mini_set) calls of the loader
LOADS = [(task, mini) for task in TASK_FILES for mini in (False, True)]
#: numbers written out in digits whose mean overflows: Pearson's r of two of them is NaN
HUGE = ("1" + "0" * 308, "17" + "0" * 307)


def _rand_numbers(seed: int, n: int, lo: float, hi: float, missing: float = 0.1) -> tuple[list[str], list[float]]:
    rng = random.Random(seed)
    refs = [round(rng.uniform(lo, hi), 4) for _ in range(n)]
    preds = []
    for r in refs:
        roll = rng.random()
        if roll < missing:
            preds.append("I cannot tell.")
        elif roll < 0.5:
            preds.append(f"<think>maybe \\boxed{{1}}</think>The value is \\boxed{{{round(r + rng.gauss(0, (hi - lo) / 4), 3)}}}")
        else:
            preds.append(f"<NUMBER>{round(r * rng.uniform(0.5, 1.5), 5)}</NUMBER>")
    return preds, refs


def _rand_dicts(seed: int, n: int, keys: list[str]) -> tuple[list[str], list[dict[str, float]]]:
    rng = random.Random(seed)
    refs = [{k: round(rng.uniform(-2, 4), 3) for k in keys} for _ in range(n)]
    preds = []
    for r in refs:
        roll = rng.random()
        values = {k: round(v + rng.gauss(0, 1), 3) for k, v in r.items()}
        if roll < 0.1:
            preds.append("no idea")
        elif roll < 0.2:
            preds.append("\\boxed{" + json.dumps({keys[0]: values[keys[0]]}) + "}")
        elif roll < 0.6:
            preds.append("Answer: \\boxed{" + json.dumps(values) + "}")
        else:
            preds.append(str(values))
    return preds, refs


def _rand_ec(seed: int, n: int, labels: list[str]) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    refs, preds = [], []
    for _ in range(n):
        gold = rng.sample(labels, rng.randint(1, 3))
        refs.append(",".join("EC" + g for g in gold))
        guess = [g for g in gold if rng.random() < 0.6] + rng.sample(labels, rng.randint(0, 2))
        roll = rng.random()
        preds.append("none" if roll < 0.1 else "\\boxed{" + ", ".join("EC" + g for g in guess) + "}")
    return preds, refs


def _rand_mod(seed: int, n: int, labels: list[str]) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    refs, preds = [], []
    for _ in range(n):
        gold = rng.sample(labels, rng.randint(1, 2))
        refs.append(", ".join(gold))
        guess = [g for g in gold if rng.random() < 0.7] + rng.sample(labels, rng.randint(0, 1))
        preds.append("unsure" if rng.random() < 0.1 else "\\boxed{" + ",".join(guess) + "}")
    return preds, refs


AUC_LABELS = ["atoi", "m6a", "none", "m1a", "m5c", "m5u", "m6am", "m7g", "cm", "am", "gm", "um", "psi"]


def evaluator_cases(ec_labels: list[str]) -> dict[str, list[tuple[list[Any], list[Any]]]]:
    """evaluator → [(predictions, references)]"""
    return {
        "BiodataAccEvaluator": [
            (["\\boxed{Yes}", "\\boxed{positive}", "\\boxed{\\text{no}}", "yes", "", "\\boxed{}", "<think>\\boxed{no}</think>\\boxed{yes}",
              "\\boxed{tRNA} and later \\boxed{miRNA}", "\\boxed{5\\_8S\\_rRNA}", "\\boxed{{tRNA}}"],
             ["yes", "positive", "negative", "yes", "no", "no", "negative", "miRNA", "5_8S_rRNA", "tRNA"]),
            (["\\boxed{Positive}", "\\boxed{negative}"], ["Positive", "NEGATIVE"]),
        ],
        "BiodataMCCEvaluator": [
            (["\\boxed{yes}", "\\boxed{No}", "yes", "\\boxed{no}", "<think>\\boxed{yes}</think>\\boxed{no}", "\\boxed{positive}",
              "\\boxed{maybe}"], ["positive", "negative", "yes", "No", "negative", "Positive", "no"]),
            (["\\boxed{yes}", "\\boxed{yes}"], ["yes", "no"]),
            (["\\boxed{no}", "\\boxed{no}"], ["no", "no"]),
        ],
        "BiodataSpearmanEvaluator": [
            (["\\boxed{1}", "<NUMBER>3</NUMBER>", "\\boxed{2}", "none", "<think>\\boxed{9}</think>\\boxed{-0.5}",
              "\\boxed{.25}", "<NUMBER> 7 </NUMBER> then \\boxed{1e3}"], [1.0, 2.0, 3.0, 4.0, 0.1, 0.3, 5.0]),
            (["\\boxed{1}", "\\boxed{1}", "\\boxed{1}"], [1.0, 2.0, 3.0]),
            (["\\boxed{1}", "none"], [1.0, 2.0]),
            (["none", "none"], [1.0, 2.0]),
            _rand_numbers(1, 60, 0.0, 1.0),
            _rand_numbers(2, 45, -3.0, 8.0, missing=0.0),
        ],
        "BiodataR2Evaluator": [
            (["\\boxed{1}", "\\boxed{3}", "\\boxed{2}", "nothing"], [1.0, 2.0, 3.0, 4.0]),
            (["\\boxed{1}", "none"], [1.0, 2.0]),
            (["\\boxed{2}", "\\boxed{2}", "\\boxed{2}"], [1.0, 2.0, 3.0]),
            (["\\boxed{2}", "\\boxed{5}"], [1.0, 2.0]),
            _rand_numbers(3, 50, 0.0, 2.0),
            ([f"\\boxed{{{HUGE[0]}}}", f"\\boxed{{{HUGE[1]}}}"], [1.0, 2.0]),
            ([f'{{"a": {HUGE[0]}}}', f'{{"a": {HUGE[1]}}}'], [{"a": 1.0}, {"a": 2.0}]),
            (['{"ON": 0.5, "OFF": 0.2, "ON_OFF": 0.3}', "{'ON': 0.1, 'OFF': 'high', 'ON_OFF': 0.9}",
              "\\boxed{{\"ON\": 0.9, \"OFF\": 0.4, \"ON_OFF\": -0.1}}", '{"ON": 0.3}', "{ON: 1}",
              '<think>{"ON": 5, "OFF": 5, "ON_OFF": 5}</think>{"ON": 0.2, "OFF": 0.8, "ON_OFF": 0.5}'],
             [{"ON": 0.4, "OFF": 0.1, "ON_OFF": 0.3}, {"ON": 0.2, "OFF": 0.5, "ON_OFF": 0.7},
              {"ON": 0.8, "OFF": 0.3, "ON_OFF": 0.1}, {"ON": 0.1, "OFF": 0.9, "ON_OFF": 0.6},
              {"ON": 0.5, "OFF": 0.5, "ON_OFF": 0.5}, {"ON": 0.3, "OFF": 0.7, "ON_OFF": 0.2}]),
            _rand_dicts(4, 40, ["ON", "OFF", "ON_OFF"]),
        ],
        "BiodataPCCEvaluator": [
            (['{"Dev": 1, "Hk": 2}', '{"Dev": 2.5, "Hk": 1}', "{'Dev': 3, 'Hk': 3}", '{"Dev": ..., "Hk": 1}',
              '{"Hk": 0.5, "Dev": 1.5}', "nothing"],
             [{"Dev": 1.0, "Hk": 2.0}, {"Dev": 2.0, "Hk": 1.0}, {"Dev": 3.0, "Hk": 0.0}, {"Dev": 0.5, "Hk": 0.7},
              {"Dev": 1.2, "Hk": 0.4}, {"Dev": 2.2, "Hk": 1.9}]),
            (['{"Dev": 1, "Hk": 2}', '{"Dev": 1, "Hk": 1}', '{"Dev": 1, "Hk": 0}'],
             [{"Dev": 1.0, "Hk": 2.0}, {"Dev": 2.0, "Hk": 1.0}, {"Dev": 3.0, "Hk": 0.0}]),
            _rand_dicts(5, 50, ["Dev", "Hk"]),
            ([f'{{"a": {HUGE[0]}}}', f'{{"a": {HUGE[1]}}}'], [{"a": 1.0}, {"a": 2.0}]),
        ],
        "BiodataMixedScoreEvaluator": [
            (["\\boxed{40}", "<NUMBER>35</NUMBER>", "\\boxed{2000}", "no number", "\\boxed{-5}", "\\boxed{12.5}",
              "<think>\\boxed{1}</think>\\boxed{80}"], [50.0, 20.0, 5.0, 10.0, 15.0, 25.0, 70.0]),
            (["\\boxed{40}", "\\boxed{35}"], [50.0, 60.0]),
            (["\\boxed{5000}"], [10.0]),
            (["\\boxed{40}", "\\boxed{35}"], ["50", "abc"]),
            (["\\boxed{40}", "\\boxed{35}", "\\boxed{12}"], [" 50 ", None, "1e1"]),
            _rand_numbers(6, 60, 0.0, 100.0),
        ],
        "BiodataAucEvaluator": [
            (["\\boxed{m6A}", "\\boxed{AtoI, m1A}", "\\boxed{none}", "nothing", "\\boxed{Psi, um, m5C}",
              "<think>\\boxed{m6A}</think>\\boxed{m7G}"], ["m6A", "AtoI, m1A", "none", "Psi,Um", "psi, Um", "m7G, Gm"]),
            _rand_mod(7, 50, ["AtoI", "m6A", "none", "m1A", "m5C", "m5U", "m6Am", "m7G", "Cm", "Am", "Gm", "Um", "Psi"]),
        ],
        "BiodataECNumberEvaluator": [
            (["\\boxed{EC3.5.4.9, EC1.1.1.1}", "none", "\\boxed{EC2.7.11.1}", "\\boxed{EC3.4.21.-}", "\\boxed{3.4.21.4 and 9.9.9.9}",
              "<think>\\boxed{EC3.5.4.9}</think>\\boxed{EC2.7.7.n1,EC2.7.7.-}", "\\boxed{EC3.5.4.\\-}"],
             ["EC3.5.4.9,EC1.1.1.1", "EC2.7.11.1", "EC2.7.11.1, EC2.7.11.22", "EC3.4.21.-", "EC3.4.21.4",
              "EC2.7.7.-", "EC3.5.4.-"]),
            (["none", "none"], ["EC1.1.1.1", "EC9.9.9.9"]),
            _rand_ec(8, 60, ec_labels),
        ],
    }


#: references of other types than the tasks' files hold (text, ``None``, booleans, nested lists, records holding
#: text, numbers beyond float64): evaluator → [(predictions, references)], each scored or failing in OpenCompass
BOXED3 = ["\\boxed{1}", "\\boxed{5}", "\\boxed{7}"]
BIG = 10 ** 400


#: references written as text, the mixed score reading each as pandas does (ASCII digits and spaces only)
TEXTS = ["+5", "5.", ".5", "1E2", "Infinity", "-inf", "NaN", "1e400", " 5\n", "\t7\t", "\x0b8\r", "+.5e-1", "1e-400", "5e",
         "1,000", "1_000", "0x10", "", "  ", "inf ", "iNf", "nan(1)", "\u00bd", "\u0661\u0662", "\u0663.\u0665",
         "\u00a05", "5\u2003", "\uff15"]


def reference_type_cases() -> dict[str, list[tuple[list[Any], list[Any]]]]:
    numbers: list[list[Any]] = [
        ["1", "2", "3"], [1.0, "2", 3], [1.0, None, 3.0], [1.0, True, False], [True, False, True], [1, 2, 4],
        [[1.0], [2.0], [4.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1.0, [2.0], 4.0], [[1.0], [2.0, 3.0], [4.0]],
        [[], [], []], [1.0, {"a": 2.0}, 4.0], [{"a": 1.0}, {"a": 2.0}, {"a": 4.0}], [2 ** 64, 1, 2], [1.0, 2 ** 64, 4.0],
        [1.0, BIG, 4.0], [1.0, "nan", 4.0], [1.0, float("nan"), 4.0],
    ]
    records: list[list[Any]] = [
        [{"a": "1"}, {"a": " 2 "}, {"a": "4"}], [{"a": 1.0}, {"a": None}, {"a": 4.0}], [{"a": 1.0}, {"a": True}, {"a": False}],
        [{"a": 1.0}, {"a": [2.0]}, {"a": 4.0}], [{"a": 1.0}, {"a": "abc"}, {"a": 4.0}], [{"a": 1.0}, {"a": "1_0"}, {"a": "inf"}],
        [{"a": 1.0}, 2.0, {"a": 4.0}], [{"a": 1.0}, {"a": BIG}, {"a": 4.0}],
    ]
    record_replies = ['{"a": 1}', '{"a": 5}', '{"a": 7}']
    labels: list[list[Any]] = [["yes", 1, "no"], ["yes", None, "no"], ["yes", True, "no"], ["yes", ["no"], "no"],
                               ["yes", {"a": "no"}, "no"]]
    return {
        "BiodataSpearmanEvaluator": [(BOXED3, refs) for refs in numbers],
        "BiodataR2Evaluator": [(BOXED3, refs) for refs in numbers] + [(record_replies, refs) for refs in records],
        "BiodataPCCEvaluator": [(record_replies, refs) for refs in records],
        "BiodataMixedScoreEvaluator": [(BOXED3, refs) for refs in numbers]
                                      + [([f"\\boxed{{{i % 40}}}" for i in range(len(TEXTS))], TEXTS)],
        "BiodataMCCEvaluator": [(["\\boxed{yes}", "\\boxed{no}", "\\boxed{no}"], refs) for refs in labels],
        "BiodataAccEvaluator": [(["\\boxed{yes}", "\\boxed{no}", "\\boxed{no}"], refs) for refs in labels]
                               + [(["\\boxed{yes}", "none", "\\boxed{no}"], refs) for refs in labels],
        "BiodataAucEvaluator": [(["\\boxed{m6A}", "\\boxed{psi}", "\\boxed{m6A}"], ["m6A", refs[1], "psi"])
                                for refs in labels],
        "BiodataECNumberEvaluator": [(["\\boxed{EC3.5.4.9}", "\\boxed{EC1.1.1.1}", "none"], ["EC3.5.4.9", refs[1], "EC1.1.1.1"])
                                     for refs in labels],
    }


#: replies that are not text (a prediction file's ``null``, a number, a list, a record), put in sample 1 of a batch
#: each evaluator scores
ODD_REPLIES: list[Any] = [None, 5, 1.5, True, ["\\boxed{1}"], {"a": 1}]


def reply_type_cases() -> dict[str, list[tuple[list[Any], list[Any]]]]:
    yes_no = (["\\boxed{yes}", "\\boxed{no}", "\\boxed{no}"], ["yes", "no", "no"])
    bases: dict[str, list[tuple[list[Any], list[Any]]]] = {
        "BiodataSpearmanEvaluator": [(BOXED3, [1.0, 2.0, 4.0])],
        "BiodataR2Evaluator": [(BOXED3, [1.0, 2.0, 4.0]), (['{"a": 1}', '{"a": 5}', '{"a": 7}'], [{"a": 1.0}, {"a": 2.0}, {"a": 4.0}])],
        "BiodataPCCEvaluator": [(['{"a": 1}', '{"a": 5}', '{"a": 7}'], [{"a": 1.0}, {"a": 2.0}, {"a": 4.0}])],
        "BiodataMixedScoreEvaluator": [(BOXED3, [1.0, 2.0, 4.0])],
        "BiodataMCCEvaluator": [yes_no],
        "BiodataAccEvaluator": [yes_no],
        "BiodataAucEvaluator": [(["\\boxed{m6A}", "\\boxed{psi}", "\\boxed{m6A}"], ["m6A", "psi", "psi"])],
        "BiodataECNumberEvaluator": [(["\\boxed{EC3.5.4.9}", "\\boxed{EC1.1.1.1}", "none"], ["EC3.5.4.9", "EC1.1.1.1", "EC1.1.1.1"])],
    }
    return {name: [([p[0], odd, p[2]], refs) for p, refs in batches for odd in ODD_REPLIES]
            for name, batches in bases.items()}


def _pipeline_reply(task: str, i: int, gold: Any) -> str:
    """A reply to row ``i`` of ``task`` for the end-to-end run: right, near or unread, by the row."""
    if isinstance(gold, dict):
        values = {k: round(v * (1.0 + 0.3 * ((i + j) % 3 - 1)), 3) for j, (k, v) in enumerate(gold.items())}
        return "unsure" if i == 2 else f"<think>guessing</think>\\boxed{{{json.dumps(values)}}}"
    if isinstance(gold, float):
        return "no idea" if i == 3 else f"The value is \\boxed{{{round(gold * (1.2 if i % 2 else 0.9), 4)}}}"
    if task == "Protein-FunctionEC":
        return ["\\boxed{EC3.5.4.9}", "\\boxed{EC2.7.11.1, EC1.1.1.1}", "unknown"][i % 3]
    if task == "RNA-Modification":
        return ["\\boxed{m6A}", "\\boxed{AtoI}", "\\boxed{none}", "nothing"][i % 4]
    if task == "RNA-NoncodingRNAFamily":
        return ["\\boxed{tRNA}", "\\boxed{rRNA}", "\\boxed{5S\\_rRNA}"][i % 3]
    return ["\\boxed{yes}", "\\boxed{yes}", "\\boxed{no}", "maybe"][i % 4]


#: library tasks scored end to end (``assay eval`` on prediction files) in the tests
PIPELINE_TASKS = ["DNA-cpd", "DNA-enhancer_activity", "Protein-Stability", "RNA-Isoform", "RNA-ProgrammableRNASwitches",
                  "RNA-Modification", "RNA-NoncodingRNAFamily", "Protein-FunctionEC", "Multi_sequence-sirnaEfficiency"]


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def record() -> dict[str, Any]:
    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    for package in ("scipy", "scikit-learn", "torch", "numpy"):
        out[package] = importlib.metadata.version(package)
    FOLDER.mkdir(parents=True, exist_ok=True)
    for task, rows in TASK_FILES.items():
        (FOLDER / f"{task}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                              encoding="utf-8")
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
    from opencompass.datasets import biodata

    out["BiodataTaskDataset"] = [
        {"args": {"path": "opencompass/biology-instruction", "task": task, "mini_set": mini},
         "rows": [dict(r) for r in biodata.BiodataTaskDataset.load(path="opencompass/biology-instruction", task=task,
                                                                    mini_set=mini)]}
        for task, mini in LOADS]
    cases = evaluator_cases(biodata.BiodataECNumberEvaluator().ec_labels)
    out["evaluators"] = {}
    for name, batches in cases.items():
        options = {"predefined_labels": AUC_LABELS} if name == "BiodataAucEvaluator" else {}
        recorded = []
        for predictions, references in batches:
            try:
                result = _quiet(getattr(biodata, name)(**options).score, list(predictions), list(references))
            except Exception as exc:  # recorded as OpenCompass fails
                result = {"raises": type(exc).__name__}
            recorded.append({"predictions": predictions, "references": references,
                             "result": json.loads(json.dumps(result, default=float))})
        out["evaluators"][name] = recorded
    for key, odd_cases in (("reference_types", reference_type_cases()), ("reply_types", reply_type_cases())):
        out[key] = {}
        for name, batches in odd_cases.items():
            options = {"predefined_labels": AUC_LABELS} if name == "BiodataAucEvaluator" else {}
            recorded = []
            for predictions, references in batches:
                try:
                    result = _quiet(getattr(biodata, name)(**options).score, list(predictions), list(references))
                except Exception as exc:  # recorded as OpenCompass fails
                    result = {"raises": type(exc).__name__, "message": str(exc)[:200]}
                recorded.append({"predictions": predictions, "references": references,
                                 "result": json.loads(json.dumps(result, default=float))})
            out[key][name] = recorded
    metrics = {"MCC": "BiodataMCCEvaluator", "PCC": "BiodataPCCEvaluator", "Spearman": "BiodataSpearmanEvaluator",
               "R2": "BiodataR2Evaluator", "Auc": "BiodataAucEvaluator", "Acc": "BiodataAccEvaluator",
               "Fmax": "BiodataECNumberEvaluator", "Mixed": "BiodataMixedScoreEvaluator"}
    from opencompass.configs.datasets.biodata.biodata_task_gen import tasks as library_tasks

    by_task = {t: metrics[m] for m, names in library_tasks.items() for t in names}
    out["pipeline"] = {}
    for task in PIPELINE_TASKS:
        rows = biodata.BiodataTaskDataset.load(path="opencompass/biology-instruction", task=task)
        replies = [_pipeline_reply(task, i, row["ground_truth"]) for i, row in enumerate(rows)]
        name = by_task[task]
        options = {"predefined_labels": AUC_LABELS} if name == "BiodataAucEvaluator" else {}
        result = _quiet(getattr(biodata, name)(**options).score, list(replies), [r["ground_truth"] for r in rows])
        result.pop("details")
        out["pipeline"][task] = {"replies": replies, "result": json.loads(json.dumps(result, default=float))}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    recorded = record()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
