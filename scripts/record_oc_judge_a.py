"""Record what OpenCompass 0.5.4 makes of the judged families KCLE, LiveStemBench, ClimaQA, OlymMATH,
PHYSICS, CARDBiomedBench, BeyondAIME, ClinicBench, PubMedQA and ScienceQA.

Run it with a Python that has ``opencompass==0.5.4`` (and the OpenAI SDK,
math-verify) installed; OpenCompass is not a dependency of assay::

    python scripts/record_oc_judge_a.py [--only CASE ...]

It writes small data files in OpenCompass's layouts under
``tests/data/oc_families/judge_a/cache`` (both ``$COMPASS_DATA_CACHE`` and the
working folder: the dataset ids' files under ``data/``, the Hugging Face
datasets as local folders named like them — ``RUC-AIBOX/OlymMATH`` and the
others) and one prediction file per dataset under ``predictions/``, then
records into ``tests/data/oc_families/judge_a``:

* ``loaders.json``: per loader, the rows (every split) its ``load`` returns for
  the library configs' arguments and a few others;
* ``expected/<case>.json``: for one library config per family, imported
  unchanged, what OpenCompass's own eval task (``OpenICLEvalTask``: loader,
  postprocessors, evaluator, details) sends an LLM judge — a local server
  answering every request with :func:`tests.judge.fake_server.hashed_verdict`,
  canned replies among clean verdicts, verdicts read differently and garbage —
  and the result it writes, as ``scripts/record_oc_judge_requests.py`` records
  its cases (whose recording code this script runs on these cases).

``tests/datasets/test_oc_judge_a.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from _oc_recording import offline_judge_recording, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "judge_a"
CACHE = FIXTURES / "cache"

_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.{module} import {variable}\n\n"
_MODELS = "\nmodels = [dict(abbr='oc-model', path='org/model')]\n"


def _case(module: str, variable: str) -> str:
    return _HEAD.format(module=module, variable=variable) + f"datasets = {variable}\n" + _MODELS


#: case id → config text (one library config per family, imported unchanged)
CASES: dict[str, str] = {
    "kcle_llm_judge_gen": _case("kcle.kcle_llm_judge_gen", "kcle_datasets"),
    "kcle_llm_judge_rawprompt_gen_16e383": _case("kcle.kcle_llm_judge_rawprompt_gen_16e383", "kcle_datasets"),
    "livestembench_gen_3e3c50": _case("livestembench.livestembench_gen_3e3c50", "livestembench_datasets"),
    "ClimaQA_Gold_llm_judge_gen_f15343": _case("ClimaQA.ClimaQA_Gold_llm_judge_gen_f15343", "climaqa_datasets"),
    "ClimaQA_Silver_llm_judge_gen_f15343": _case("ClimaQA.ClimaQA_Silver_llm_judge_gen_f15343", "climaqa_datasets"),
    "olymmath_llmverify_gen_97b203": _case("OlymMATH.olymmath_llmverify_gen_97b203", "olymmath_datasets"),
    "olymmath_cascade_eval_gen_97b203": _case("OlymMATH.olymmath_cascade_eval_gen_97b203", "olymmath_datasets"),
    "PHYSICS_llm_judge_gen_a133a2": _case("PHYSICS.PHYSICS_llm_judge_gen_a133a2", "physics_datasets"),
    "CARDBiomedBench_llmjudge_gen_99a231": _case("CARDBiomedBench.CARDBiomedBench_llmjudge_gen_99a231", "cardbiomedbench_datasets"),
    "beyondaime_cascade_eval_gen_5e9f4f": _case("BeyondAIME.beyondaime_cascade_eval_gen_5e9f4f", "beyondaime_datasets"),
    "ClinicBench_llmjudge_gen_d09668": _case("ClinicBench.ClinicBench_llmjudge_gen_d09668", "ClinicBench_datasets"),
    "PubMedQA_llmjudge_gen_f00302": _case("PubMedQA.PubMedQA_llmjudge_gen_f00302", "PubMedQA_datasets"),
    "ScienceQA_llmjudge_gen_f00302": _case("ScienceQA.ScienceQA_llmjudge_gen_f00302", "ScienceQA_datasets"),
}

# -- fixtures -----------------------------------------------------------------------------------

KCLE = [
    {"input": "韩国宪法第几条规定了言论自由？", "target": "第21条", "id": 1},
    {"input": "Which court reviews constitutional complaints in Korea?", "target": "The Constitutional Court", "id": 2},
    {"input": "Define {prediction} in braces.", "target": "$x^{2}$", "id": 3},
]
KCLE_PRED = ["第21条。", "The Supreme Court", "I do not know"]

LIVESTEM = {
    "bio": [{"question": "Which organelle makes ATP?", "answer": "Mitochondrion", "options": []},
            {"question": "Pick the enzyme that unwinds DNA.", "answer": "B", "options": ["A. Ligase", "B. Helicase", "C. Primase"]}],
    "che": [{"question": "What is the formula of water?", "answer": "H2O", "options": []},
            {"question": "选择惰性气体", "answer": "A", "options": ["A. 氖", "B. 钠"]}],
    "phy": [{"question": "Unit of force?", "answer": "Newton", "options": []},
            {"question": "Speed of light {c}?", "answer": "3e8 m/s", "options": [], "extra": 1}],
}
LIVESTEM_PRED = ["Mitochondrion", "Answer: B", ""]

CLIMA = {  # task → (header, rows)
    "mcq": (["Question", "Options", "Answer"], [["Which gas traps most heat?", "a) CO2 b) N2 c) O2", "a"],
                                               ["What drives ocean currents?", "", "wind"],
                                               ["Pick the greenhouse gas {x}", "a) Ar b) CH4", "b"]]),
    "cloze": (["Question", "Answer"], [["The <MASK> effect warms Earth.", "greenhouse"], ["Ice albedo is <MASK>.", "high"]]),
    "ffq": (["Question", "Answer", "Complexity"], [["Why do glaciers retreat?", "Warming.", "base"],
                                                 ["Explain El Niño.", "Warm Pacific phase.", "reasoning"]]),
}
CLIMA_PRED = ["a", "b) CH4", "The answer is warming."]

PHYSICS_SETS = ["atomic_dataset_textonly", "electro_dataset_textonly", "mechanics_dataset_textonly",
                "optics_dataset_textonly", "quantum_dataset_textonly", "statistics_dataset_textonly"]
PHYSICS_ROWS = [
    {"questions": "Find the ground-state energy of hydrogen in eV.", "final_answers": ["-13.6"], "id": "p1"},
    {"questions": "Give E and B of a plane wave.", "final_answers": ["E = cB", "B = E/c"], "id": "p2"},
    {"questions": "State the answer {x}.", "final_answers": [], "id": "p3"},
]
PHYSICS_PRED = ["-13.6 eV", "Answer 1: E = cB\nAnswer 2: B = E/c", "none"]

OLYM_SUBSETS = ["en-hard", "zh-hard", "en-easy", "zh-easy"]
OLYM_ROWS = [
    {"problem": "Find the number of positive integers n < 100 with n^2 + 1 prime.", "answer": "$19$", "subject": "Number Theory", "unique_id": "a"},
    {"problem": "Compute \\sum_{k=1}^{10} k.", "answer": "$55$", "subject": "Algebra", "unique_id": "b"},
    {"problem": "求 $\\sqrt{2}$ 的平方。", "answer": "$2$", "subject": "Algebra", "unique_id": "c"},
]
OLYM_PRED = ["So the answer is \\boxed{19}.", "\\boxed{54}", "答案是 \\boxed{2}"]

CARD_HEADER = ["question", "answer", "Bio_Category", "SQL_Category", "uuid", "template uuid"]
CARD_ROWS = [["Which gene is linked to early-onset Alzheimer's?", "APP", "Genetics", "Retrieval", "u1", "t1"],
             ["What is the SNP rs429358's gene?", "APOE", "SNP", "Retrieval", "u2", "t2"],
             ["Name a drug targeting {target}.", "Lecanemab", "Drug", "Aggregation", "u3", "t1"]]
CARD_PRED = ["APP", "APOE4", "I cannot answer."]

BEYOND = [{"problem": "Find the last three digits of 7^100.", "answer": "1"},
          {"problem": "How many subsets of {1,...,10} have an even sum?", "answer": "512"},
          {"problem": "Compute 2^{10} - 1.", "answer": "1023"}]
BEYOND_PRED = ["\\boxed{001}", "The answer is \\boxed{512}.", "1023"]

CLINIC = [{"question": "Which drug is a beta blocker?", "choices": "A. Propranolol\nB. Amoxicillin\nC. Insulin", "label": "A"},
          {"question": "Maximum daily dose of paracetamol for adults?", "choices": "A. 1 g\nB. 4 g\nC. 10 g", "label": "B"},
          {"question": "Antidote to {heparin}?", "choices": "A. Vitamin K\nB. Protamine", "label": "B"}]
CLINIC_PRED = ["ANSWER: A", "ANSWER: C", "Protamine sulfate. ANSWER: B"]

PUBMED = [
    {"pubid": 1, "question": "Does aspirin reduce stroke risk?",
     "context": {"contexts": ["Aspirin was given.", "Strokes fell."], "labels": ["METHODS", "RESULTS"], "meshes": ["Aspirin"]},
     "long_answer": "Yes, it does.", "final_decision": "yes"},
    {"pubid": 2, "question": "Is coffee harmful?",
     "context": {"contexts": ["Coffee was studied."], "labels": ["METHODS"], "meshes": ["Coffee", "Risk"]},
     "long_answer": "Unclear.", "final_decision": "maybe"},
    {"pubid": 3, "question": "Does {X} cure colds?",
     "context": {"contexts": ["No effect seen."], "labels": ["RESULTS"], "meshes": []},
     "long_answer": "No.", "final_decision": "no"},
]
PUBMED_PRED = ["ANSWER: A", "ANSWER: B", "C. maybe"]

SCIENCE = [
    {"image": None, "question": "Which is a mammal?", "choices": ["shark", "whale", "trout"], "answer": 1, "hint": "",
     "task": "closed choice", "grade": "grade3", "subject": "natural science", "topic": "biology",
     "category": "Classify", "skill": "Identify mammals", "lecture": "Mammals ...", "solution": "A whale is a mammal."},
    {"image": "image.png", "question": "Look at the map. Which state is shown?", "choices": ["Ohio", "Utah"], "answer": 0,
     "hint": "", "task": "closed choice", "grade": "grade4", "subject": "social science", "topic": "geography",
     "category": "States", "skill": "Read a map", "lecture": "", "solution": ""},
    {"image": None, "question": "What is {x} + 1 when x = 2?", "choices": ["2", "3", "4", "5"], "answer": 1,
     "hint": "Add.", "task": "closed choice", "grade": "grade1", "subject": "language science", "topic": "math",
     "category": "Add", "skill": "Add", "lecture": "", "solution": "3"},
    {"image": None, "question": "Which word rhymes with cat?", "choices": ["hat", "dog"], "answer": 0, "hint": "",
     "task": "closed choice", "grade": "grade1", "subject": "language science", "topic": "phonics",
     "category": "Rhyme", "skill": "Rhyme", "lecture": "", "solution": ""},
]
SCIENCE_PRED = ["ANSWER: B", "ANSWER: A", "hat"]


def _olym_rows(subset: str) -> list[dict[str, Any]]:
    i = OLYM_SUBSETS.index(subset)
    return [dict(r, problem=f"({subset}) {r['problem']}") for r in OLYM_ROWS[i % 3:] + OLYM_ROWS[: i % 3]]


def _physics_rows(name: str) -> list[dict[str, Any]]:
    return [dict(r, questions=f"[{name.split('_')[0]}] {r['questions']}") for r in PHYSICS_ROWS]


def _csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def _readme(folder: Path, configs: dict[str, dict[str, str]]) -> None:
    """A Hugging Face dataset card declaring ``configs`` (configuration → split → file)."""
    lines = ["---", "configs:"]
    for name, splits in configs.items():
        lines += [f"- config_name: {name}", "  data_files:"]
        lines += [f"  - split: {split}\n    path: {file}" for split, file in splits.items()]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text("\n".join([*lines, "---", ""]), encoding="utf-8")


def write_fixtures() -> dict[str, list[tuple[str, str]]]:
    """The data files; returns per prediction file (dataset abbr) its (question, prediction) pairs."""
    data = CACHE / "data"
    write_jsonl(data / "kcle_diamond.jsonl", KCLE)
    write_jsonl(data / "kcle_diamond_fix_251029.jsonl", KCLE[::-1])
    (data / "livestembench").mkdir(parents=True, exist_ok=True)
    for subject, rows in LIVESTEM.items():
        write_json(data / "livestembench" / f"livestembench_{subject}.json", rows)
    write_json(data / "livestembench" / "livestembench-20241227.json", LIVESTEM["bio"] + LIVESTEM["che"] + LIVESTEM["phy"])
    for level in ("climaqa_gold", "climaqa_silver"):
        for task, (header, rows) in CLIMA.items():
            _csv(data / level / task / f"{task}.csv", header, rows if level == "climaqa_gold" else rows[::-1])
    for name in PHYSICS_SETS:
        write_jsonl(data / "PHYSICS-textonly" / name / "data.jsonl", _physics_rows(name))
    olym = CACHE / "RUC-AIBOX" / "OlymMATH"
    _readme(olym, {s: {"test": f"{s}/test.jsonl"} for s in OLYM_SUBSETS})
    for s in OLYM_SUBSETS:  # each subset's questions its own (a judge asked the same twice may answer from a cache)
        write_jsonl(olym / s / "test.jsonl", _olym_rows(s))
    _csv(CACHE / "NIH-CARD" / "CARDBiomedBench" / "data" / "CARDBiomedBench.csv", CARD_HEADER, CARD_ROWS)
    write_jsonl(CACHE / "ByteDance-Seed" / "BeyondAIME" / "test.jsonl", BEYOND)
    write_jsonl(CACHE / "xuxuxuxuxu" / "Pharmacology-QA" / "train.jsonl", CLINIC)
    pubmed = CACHE / "qiaojin" / "PubMedQA"
    _readme(pubmed, {"pqa_labeled": {"train": "pqa_labeled/train.jsonl"}, "pqa_artificial": {"train": "pqa_artificial/train.jsonl"}})
    write_jsonl(pubmed / "pqa_labeled" / "train.jsonl", PUBMED)
    write_jsonl(pubmed / "pqa_artificial" / "train.jsonl", PUBMED[:1])
    write_jsonl(CACHE / "derek-thomas" / "ScienceQA" / "test.jsonl", SCIENCE)
    write_jsonl(CACHE / "derek-thomas" / "ScienceQA" / "train.jsonl", SCIENCE[1:2])

    preds: dict[str, list[tuple[str, str]]] = {}
    preds["kcle"] = preds["kcle_fix"] = [(r["input"], p) for r, p in zip(KCLE, KCLE_PRED)]
    for name in ("biology", "chemistry", "physics"):
        rows = LIVESTEM[name[:3] if name != "chemistry" else "che"]
        preds[f"LiveStemBench-{name}"] = [(r["question"], p) for r, p in zip(rows, LIVESTEM_PRED)]
    for level in ("Gold", "Silver"):
        for task, (_, rows) in CLIMA.items():
            preds[f"ClimaQA_{level}_{task}"] = [(r[0], p) for r, p in zip(rows, CLIMA_PRED)]
    for name in PHYSICS_SETS:
        preds[f"PHYSICS_{name}"] = [(r["questions"], p) for r, p in zip(_physics_rows(name), PHYSICS_PRED)]
    for s in OLYM_SUBSETS:
        preds[f"olymmath_{s}"] = preds[f"olymmath_llmjudge_{s}"] = [(r["problem"], p) for r, p in zip(_olym_rows(s), OLYM_PRED)]
    preds["cardbiomedbench"] = [(r[0], p) for r, p in zip(CARD_ROWS, CARD_PRED)]
    preds["beyondaime"] = [(r["problem"], p) for r, p in zip(BEYOND, BEYOND_PRED)]
    preds["ClinicBench"] = [(r["question"], p) for r, p in zip(CLINIC, CLINIC_PRED)]
    preds["PubMedQA"] = [(r["question"], p) for r, p in zip(PUBMED, PUBMED_PRED)]
    preds["ScienceQA"] = [(r["question"], p) for r, p in zip([s for s in SCIENCE if s["image"] is None], SCIENCE_PRED)]
    folder = FIXTURES / "predictions"
    folder.mkdir(parents=True, exist_ok=True)
    for abbr, pairs in preds.items():
        body = {str(i): {"origin_prompt": q, "prediction": p, "gold": ""} for i, (q, p) in enumerate(pairs)}
        write_json(folder / f"{abbr}.json", body)
    return preds


# -- loaders ---------------------------------------------------------------------------------------

#: loader → the keyword arguments of each recorded call
LOADER_CALLS: dict[str, list[dict[str, Any]]] = {
    "KCLEDataset": [{"path": "opencompass/kcle"}, {"path": "opencompass/kcle_fix"}],
    "LiveStemBenchDataset": [*({"path": "opencompass/livestembench", "version": f"livestembench_{s}"} for s in LIVESTEM),
                             {"path": "opencompass/livestembench"},
                             {"path": "opencompass/livestembench", "num_examples": 4},
                             {"path": "opencompass/livestembench", "version": "livestembench_bio", "n_repeats": 2}],
    "ClimaQADataset": [{"path": f"opencompass/ClimaQA-{level}", "task": t} for level in ("Gold", "Silver") for t in CLIMA],
    "PHYSICSDataset": [{"path": "opencompass/PHYSICS-textonly", "name": n} for n in PHYSICS_SETS[:2]],
    "OlymMATHDataset": [{"path": "RUC-AIBOX/OlymMATH", "subset": s} for s in OLYM_SUBSETS],
    "CARDBiomedBenchDataset": [{"path": "NIH-CARD/CARDBiomedBench", "prompt_mode": "zero-shot"},
                               {"path": "NIH-CARD/CARDBiomedBench", "prompt_mode": "few-shot"}],
    "BeyondAIMEDataset": [{"path": "ByteDance-Seed/BeyondAIME"}],
    "ClinicBenchDataset": [{"path": "xuxuxuxuxu/Pharmacology-QA"}],
    "PubMedQADataset": [{"path": "qiaojin/PubMedQA"}],
    "ScienceQADataset": [{"path": "derek-thomas/ScienceQA"}],
}


#: loader → its module in ``opencompass.datasets``
LOADER_MODULES = {"KCLEDataset": "kcle", "LiveStemBenchDataset": "livestembench", "ClimaQADataset": "climaqa",
                  "PHYSICSDataset": "physics", "OlymMATHDataset": "olymmath", "CARDBiomedBenchDataset": "CARDBiomedBench",
                  "BeyondAIMEDataset": "beyondaime", "ClinicBenchDataset": "ClinicBench", "PubMedQADataset": "PubMedQA",
                  "ScienceQADataset": "ScienceQA"}


def _splits(ds: Any) -> Any:
    if hasattr(ds, "column_names") and not isinstance(ds.column_names, dict):
        return {"columns": list(ds.column_names), "rows": [dict(r) for r in ds]}
    return {name: _splits(ds[name]) for name in ds}


def record_loaders() -> dict[str, Any]:
    import importlib

    out: dict[str, Any] = {}
    for loader, calls in LOADER_CALLS.items():
        cls = getattr(importlib.import_module(f"opencompass.datasets.{LOADER_MODULES[loader]}"), loader)
        out[loader] = [{"args": args, "tables": json.loads(json.dumps(_splits(cls.load(**args)), ensure_ascii=False, default=repr))}
                       for args in calls]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all, and the loaders)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "scripts"))
    import record_oc_judge_requests as judge

    scratch = offline_judge_recording("record_oc_judge_a_", CACHE)
    write_fixtures()
    os.chdir(CACHE)
    if args.child == "loaders":
        write_json(FIXTURES / "loaders.json", record_loaders())
        return
    if args.child:
        judge.FIXTURES, judge.CASES = FIXTURES, CASES  # the recording code of the judge cases, on these cases
        record = judge._run_case(args.child, scratch / "work")
        out = FIXTURES / "expected"
        out.mkdir(exist_ok=True)
        write_json(out / f"{args.child}.json", record, sort_keys=True)
        return
    for case in args.only or ["loaders", *CASES]:
        print(f"recording {case}", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", case], check=True)


if __name__ == "__main__":
    main()
