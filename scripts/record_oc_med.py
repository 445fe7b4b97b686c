"""Record what OpenCompass 0.5.4 computes for the medical multiple-choice, judge-bench and CompassBench v1.3 families.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_med.py [--out FILE]

It builds small data files in OpenCompass's layouts under a working folder
(``tests/data/oc_families/med/work``, copied to a temporary folder) and,
working from there, records:

* MedMCQA (the folder ``openlifescienceai/medmcqa``, a ``validation`` split),
  MedXpertQA (``TsinghuaC3I/MedXpertQA``, configuration ``Text``), Medbullets
  (``data/medbullets/medbullets.csv``) and NEJM AI
  (``data/nejmaibench/NEJM_All_Questions_And_Answers.csv``): the rows of
  ``MedmcqaDataset``, ``MedXpertQADataset``, ``MedbulletsDataset`` and
  ``NejmaibenchDataset``, and their evaluators' metrics and details on varied
  replies (MedXpertQA's also on a batch with a reply naming no option, where
  it raises), and the ``llmjudge`` configs' dict postprocessors
  (``medmcqa_llmjudge_postprocess``, ``MedXpertQA_llmjudge_postprocess``,
  ``medbullets_llmjudge_postprocess``) on judge replies, with the judge dataset
  OpenCompass builds (the rows, ``prediction``, ``obj_gold``, ``reference``);
* ``JudgeBenchDataset`` and ``RewardBenchDataset`` (``data/judgeeval/...``) rows
  and ``JudgeEvaluator`` on them;
* SeedBench (``data/SeedBench/<stage>/<task>.json``): ``SeedBenchDataset`` rows,
  ``my_multiple_select_postprocess`` on replies, and ``F1ScoreEvaluator``,
  ``AverageRougeScoreEvaluator`` and ``AccScoreStr_Evaluator`` on replies
  (``AverageRougeScoreEvaluator`` also on a reference with an empty blank, where it raises);
* Multi-IF (``data/MultiIF/multiIF_20241018.csv``): ``MultiIFDataset`` rows and
  ``MultiIFEvaluator`` on three replies per conversation;
* ``CompassBenchObjectiveV1_3`` rows (plain, circular and cloze names over
  ``data/compassbench_v1_3/...``), ``compassbench_objective_v1_3_postprocess``
  on replies, and openicl's ``CircularEvaluator`` after
  ``first_option_postprocess`` on a circular set.

The output goes to ``tests/data/oc_families/med/recorded.json``;
``tests/datasets/test_med_families.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import io
import json
import logging
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import write_jsonl

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "med"
WORK = DATA / "work"
OUT = DATA / "recorded.json"

SUBJECTS = ["Anatomy", "Social_Preventive_Medicine", "Pharmacology", "Dental"]


def _medmcqa_rows() -> list[dict[str, Any]]:
    rng = random.Random(11)
    rows = []
    for i in range(8):
        rows.append({"id": f"m{i}", "question": f"Which structure is number {i}?", "exp": f"Explained {i}." if i % 3 else None,
                     "cop": rng.randrange(4), "opa": f"alpha {i}", "opb": f"beta {i}", "opc": f"gamma {i}", "opd": f"delta {i}",
                     "subject_name": SUBJECTS[i % 4], "topic_name": None if i % 4 == 1 else f"Topic {i % 3}",
                     "choice_type": "single" if i % 5 else "multi"})
    return rows


def _medxpertqa_rows() -> list[dict[str, Any]]:
    rng = random.Random(12)
    rows = []
    for i in range(7):
        letters = "ABCDEFGHIJ" if i % 3 else "ABCDE"
        options = {L: f"option {L.lower()} of {i}" for L in letters}
        rows.append({"id": f"Text-{i}", "question": f"A 40-year-old patient, case {i}. What next?\nAnswer Choices: ...",
                     "options": options, "label": rng.choice(letters), "medical_task": ["Diagnosis", "Treatment", "Basic Science"][i % 3],
                     "body_system": ["Cardiovascular", "Nervous", "Skeletal"][i % 3], "question_type": ["Reasoning", "Understanding"][i % 2]})
    return rows


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def _medbullets_csv() -> str:
    rng = random.Random(13)
    rows = []
    for i in range(8):
        five = i % 3 != 0
        rows.append([f"A patient presents with sign {i}. Which is most likely?", f"answer text {i}", "ABCDE"[rng.randrange(5 if five else 4)],
                     f"first {i}", f"second {i}", f"third, with a comma {i}", f"fourth {i}", f"fifth {i}" if five else "",
                     f"Because {i}." if i % 2 else "", ["step1", "step2&3"][i % 2]])
    return _csv(["question", "answer", "answer_idx", "opa", "opb", "opc", "opd", "ope", "explanation", "question_type"], rows)


def _nejm_csv() -> str:
    rng = random.Random(14)
    rows = []
    for i in range(7):
        n = 4 + i % 3
        choices = "\n".join(f"{'ABCDEF'[k]}. choice {k} of {i}" for k in range(n))
        if i == 2:
            choices = "  \n" + choices.replace("B. ", "B.") + "\n\n"
        rows.append([2020 + i % 3, f"Case {i}: what is the diagnosis?", choices, "ABCDEF"[rng.randrange(n)],
                     ["Cardiology", "Neurology", "Oncology"][i % 3]])
    return _csv(["Year", "Question", "Choices", "Answer", "Subject"], rows)


def _judge_items(name: str, n: int) -> list[dict[str, Any]]:
    rng = random.Random(name)
    return [{"prompt": f"{name} prompt {i}?", "chosen": f"good answer {i}", "rejected": f"bad answer {i}",
             "chosen_model": f"model-{rng.randrange(5)}", "rejected_model": f"model-{rng.randrange(5)}",
             "winner": rng.choice("AB"), "subset": name.split(".")[0]} for i in range(n)]


KNOWLEDGE_SETS = ["wiki_en_sub_500_人文科学", "wiki_en_sub_500_社会科学", "wiki_en_sub_500_生活常识", "wiki_en_sub_500_自然科学-工科",
                  "wiki_en_sub_500_自然科学-理科", "wiki_zh_sub_500_人文科学", "wiki_zh_sub_500_社会科学", "wiki_zh_sub_500_生活常识",
                  "wiki_zh_sub_500_自然科学-工科", "wiki_zh_sub_500_自然科学-理科"]
REWARDBENCH_SETS = ["llmbar-natural.json", "llmbar-adver-GPTInst.json", "hep-go.json", "refusals-dangerous.json", "hep-cpp.json",
                    "mt-bench-easy.json", "alpacaeval-length.json", "llmbar-adver-neighbor.json", "alpacaeval-easy.json", "hep-java.json",
                    "llmbar-adver-GPTOut.json", "mt-bench-hard.json", "xstest-should-respond.json", "xstest-should-refuse.json",
                    "hep-python.json", "refusals-offensive.json", "alpacaeval-hard.json", "llmbar-adver-manual.json", "hep-js.json",
                    "math-prm.json", "hep-rust.json", "mt-bench-med.json", "donotanswer.json"]


def _choice_items(tag: str, n: int) -> list[dict[str, Any]]:
    rng = random.Random(tag)
    return [{"question": f"  {tag} question {i}?  ", "options": [f"{tag} opt {k}" for k in range(4)], "answer": rng.choice("ABCD"),
             "category": tag} for i in range(n)]


def _cloze_items(tag: str, n: int) -> list[dict[str, Any]]:
    return [{"question": f"Compute {i} + {i * 3}. ", "answer": f" {i + i * 3} ", "level": i % 2} for i in range(n)]


SEEDBENCH_TASKS = ["1-1", "1-2", "1-3", "1-4", "2-1", "2-2", "3-1", "3-2", "3-3", "3-4", "3-5"]


def _seedbench_rows(task: str, stage: str) -> list[dict[str, Any]]:
    rng = random.Random(f"{task}{stage}")
    kind = {"1": "ABCD", "2": ["A, C", "B", "A, B, D", "C, D"], "3": ["氮肥，磷肥", "水稻", "光合作用, 呼吸作用", "玉米，小麦，大豆"],
            "4": ["水稻是一种重要的粮食作物。", "Wheat needs nitrogen."], "5": ["Nitrogen", "钾"]}[task.split("-")[1]]
    return [{"instruction": f"{stage} instruction for {task}", "question": f"Question {i} of {task}?", "answer": rng.choice(kind),
             "id": i} for i in range(3)]


#: Multi-IF's turns: (instruction ids, keyword arguments) added turn by turn, as its data accumulates them.
MULTIIF_TURNS = [
    [(["punctuation:no_comma"], [{}]),
     (["punctuation:no_comma", "change_case:english_lowercase"], [{}, {}]),
     (["punctuation:no_comma", "change_case:english_lowercase", "keywords:existence"], [{}, {}, {"keywords": ["wheat"]}])],
    [(["startend:end_checker"], [{"end_phrase": "Is there anything else?"}]),
     (["startend:end_checker", "detectable_content:postscript"], [{"end_phrase": "Is there anything else?"},
                                                                  {"postscript_marker": "P.S.", "num_bullets": None}]),
     (["startend:end_checker", "detectable_content:postscript", "keywords:forbidden_words"],
      [{"end_phrase": "Is there anything else?"}, {"postscript_marker": "P.S."}, {"forbidden_words": ["rain", "snow"]}])],
    [(["detectable_format:number_bullet_lists"], [{"num_bullets": 2}]),
     (["detectable_format:number_bullet_lists", "length_constraints:number_words"],
      [{"num_bullets": 2}, {"relation": "less than", "num_words": 30}]),
     (["combination:repeat_prompt"], [{"prompt_to_repeat": "Name two grains."}])],
]


def _multiif_csv() -> str:
    rows = []
    for i, turns in enumerate(MULTIIF_TURNS * 2):
        row: list[Any] = [f"conv-{i}", ["English", "Chinese"][i % 2]]
        for t, (ids, kwargs) in enumerate(turns, 1):
            if i == 4 and t == 3:  # a conversation of two turns: left out
                row += ["", "", ""]
                continue
            encoded = [json.dumps(kw) if (i + t) % 2 else kw for kw in kwargs]  # the kwargs' JSON texts, or objects
            row += [json.dumps({"role": "user", "content": f"Turn {t} of conversation {i}: tell me about grains."}),
                    json.dumps(ids), json.dumps(encoded)]
        rows.append(row)
    header = ["key", "language"] + [f"turn_{t}_{k}" for t in (1, 2, 3) for k in ("prompt", "instruction_id_list", "kwargs")]
    return _csv(header, rows)


#: Three replies per conversation, kept or broken instructions on purpose.
MULTIIF_REPLIES = [
    ["wheat and rice are grains", "wheat and rice are grains", "we eat wheat and rice"],
    ["Grains, like Wheat", "grains like rice", "grains"],
    ["Wheat feeds us. Is there anything else?", "Wheat.\nP.S. Rice too. Is there anything else?",
     "**Wheat** and rice.\nP.S. no rain. Is there anything else?"],
    ["Is there anything else?", "", "Sure\nWheat. P.S. snow\nIs there anything else?"],
    ["* wheat\n* rice", "* wheat\n* rice\nshort list", "Name two grains. Wheat and rice."],
    ["* wheat", "* wheat\n* rice\n" + "word " * 40, "Wheat and rice."],
]


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under the working folder ``root``."""
    med = root / "openlifescienceai" / "medmcqa"
    med.mkdir(parents=True, exist_ok=True)
    (med / "README.md").write_text("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: validation\n"
                                   "    path: data/validation.jsonl\n---\n", encoding="utf-8")
    write_jsonl(med / "data" / "validation.jsonl", _medmcqa_rows())
    xpert = root / "TsinghuaC3I" / "MedXpertQA"
    xpert.mkdir(parents=True, exist_ok=True)
    (xpert / "README.md").write_text("---\nconfigs:\n- config_name: Text\n  data_files:\n  - split: test\n    path: Text/test.jsonl\n"
                                     "- config_name: MM\n  data_files:\n  - split: test\n    path: MM/test.jsonl\n---\n", encoding="utf-8")
    write_jsonl(xpert / "Text" / "test.jsonl", _medxpertqa_rows())
    write_jsonl(xpert / "MM" / "test.jsonl", [{"id": "MM-0", "question": "image question", "images": ["a.png"], "label": "A"}])
    for rel, text in (("data/medbullets/medbullets.csv", _medbullets_csv()),
                      ("data/nejmaibench/NEJM_All_Questions_And_Answers.csv", _nejm_csv())):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    judge = root / "data" / "judgeeval"
    (judge / "judgebench").mkdir(parents=True, exist_ok=True)
    (judge / "judgebench" / "judgebench.json").write_text(json.dumps(_judge_items("judgebench.json", 6), indent=1), encoding="utf-8")
    (judge / "rewardbench").mkdir(parents=True, exist_ok=True)
    for name in REWARDBENCH_SETS:
        (judge / "rewardbench" / name).write_text(json.dumps(_judge_items(name, 3), indent=1), encoding="utf-8")
    for stage in ("zero-shot", "one-shot"):
        for task in SEEDBENCH_TASKS:
            file = root / "data" / "SeedBench" / stage / f"{task}.json"
            file.parent.mkdir(parents=True, exist_ok=True)
            rows = _seedbench_rows(task, stage)
            if task == "1-1":  # a JSON list; the others one object per line
                file.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
            else:
                write_jsonl(file, rows)
    (root / "data" / "MultiIF").mkdir(parents=True, exist_ok=True)
    (root / "data" / "MultiIF" / "multiIF_20241018.csv").write_text(_multiif_csv(), encoding="utf-8")
    cb = root / "data" / "compassbench_v1_3"
    for split in ("knowledge", "math"):
        write_jsonl(cb / split / "single_choice_cn.jsonl", _choice_items(f"{split}-cn", 3))
    for name in KNOWLEDGE_SETS:
        write_jsonl(cb / "knowledge" / f"{name}.jsonl", _choice_items(name, 2))
    write_jsonl(cb / "math" / "college_single_choice_en.jsonl", _choice_items("college-en", 3))
    write_jsonl(cb / "math" / "college_single_choice_cn.jsonl", _choice_items("college-cn", 2))
    write_jsonl(cb / "math" / "arithmetic_cloze_en.jsonl", _cloze_items("arith", 4))


#: Replies scored by the four medical evaluators (each family's batch draws from them).
MED_REPLIES = ["B", "The answer is C.", "I understand. A through D are listed; my answer: D", "", "E", "b", "Answer: (A)",
               "A and B", "None of them", "F is best", "J", "Option 'C'", "I understand the question. B", "(E) then A"]


def _rows(ds: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in ds]


def _score(evaluator: Any, predictions: list[str], references: list[Any], test_set: Any) -> dict[str, Any]:
    try:
        return {"predictions": predictions, "result": evaluator.score(predictions, references, test_set)}
    except Exception as exc:  # recorded: OpenCompass's evaluation fails on this batch
        return {"predictions": predictions, "raises": type(exc).__name__}


def _med_batches(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[MED_REPLIES[(i + k) % len(MED_REPLIES)] for i in range(n)] for k in range(3)] + [rng.choices(MED_REPLIES, k=n)]


def record_med(out: dict[str, Any]) -> None:
    from opencompass.datasets.Medbullets import MedbulletsDataset, MedbulletsEvaluator
    from opencompass.datasets.medmcqa import MedmcqaDataset, MedmcqaEvaluator
    from opencompass.datasets.MedXpertQA import MedXpertQADataset, MedXpertQAEvaluator
    from opencompass.datasets.nejmaibench import NejmaibenchDataset, NejmaibenchEvaluator

    families = [
        ("MedmcqaDataset", MedmcqaDataset, MedmcqaEvaluator, {"path": "openlifescienceai/medmcqa", "prompt_mode": "zero-shot"}),
        ("MedbulletsDataset", MedbulletsDataset, MedbulletsEvaluator, {"path": "opencompass/medbullets", "prompt_mode": "zero-shot"}),
        ("NejmaibenchDataset", NejmaibenchDataset, NejmaibenchEvaluator, {"path": "opencompass/nejmaibench", "prompt_mode": "zero-shot"}),
        ("MedXpertQADataset", MedXpertQADataset, MedXpertQAEvaluator, {"path": "TsinghuaC3I/MedXpertQA", "prompt_mode": "zero-shot"}),
    ]
    for seed, (name, loader, evaluator, args) in enumerate(families):
        ds = loader.load(**args)
        refs = list(ds["label"])
        batches = _med_batches(len(refs), seed)
        if name == "MedXpertQADataset":  # replies naming no option make it raise: the batches without them, and one with
            lettered = [r for r in MED_REPLIES if r and r not in ("None of them", "b")]
            rng = random.Random(seed)
            batches = [rng.choices(lettered, k=len(refs)) for _ in range(3)] + [["None of them", *rng.choices(lettered, k=len(refs) - 1)]]
        out[name] = {"args": args, "rows": _rows(ds),
                     "scores": [_score(evaluator(), batch, refs, ds) for batch in batches]}


#: Judge replies, sample i getting JUDGE_REPLIES[i % len(JUDGE_REPLIES)].
JUDGE_REPLIES = ["A", "B", "CORRECT", "A: CORRECT", "", "The response is INCORRECT", "b", "**A**", "INCORRECT"]


def record_med_judged(out: dict[str, Any]) -> None:
    from types import SimpleNamespace

    from opencompass.datasets.Medbullets import MedbulletsDataset, medbullets_llmjudge_postprocess
    from opencompass.datasets.medmcqa import MedmcqaDataset, medmcqa_llmjudge_postprocess
    from opencompass.datasets.MedXpertQA import MedXpertQA_llmjudge_postprocess, MedXpertQADataset

    for name, loader, fn, args in (
            ("medmcqa_llmjudge_postprocess", MedmcqaDataset, medmcqa_llmjudge_postprocess,
             {"path": "openlifescienceai/medmcqa", "prompt_mode": "zero-shot"}),
            ("MedXpertQA_llmjudge_postprocess", MedXpertQADataset, MedXpertQA_llmjudge_postprocess,
             {"path": "TsinghuaC3I/MedXpertQA", "prompt_mode": "zero-shot"}),
            ("medbullets_llmjudge_postprocess", MedbulletsDataset, medbullets_llmjudge_postprocess,
             {"path": "opencompass/medbullets", "prompt_mode": "zero-shot"})):
        ds = loader.load(**args)
        refs = list(ds["label"])
        predictions = [f"My answer is {r}" for r in refs]
        for column, values in (("prediction", predictions), ("obj_gold", refs), ("reference", refs)):
            ds = ds.add_column(column, values)
        dataset = SimpleNamespace(reader=SimpleNamespace(dataset={"test": ds}))
        replies = [JUDGE_REPLIES[i % len(JUDGE_REPLIES)] for i in range(len(refs))]
        output = {str(i): {"origin_prompt": f"prompt {i}", "prediction": r, "gold": g} for i, (r, g) in enumerate(zip(replies, refs))}
        out[name] = {"args": args, "predictions": predictions, "replies": replies, "output": output,
                     "result": fn(output, "unused.json", dataset=dataset)}


def record_multiif(out: dict[str, Any]) -> None:
    from opencompass.datasets.MultiIF.multiif import MultiIFDataset, MultiIFEvaluator

    ds = MultiIFDataset.load(path="opencompass/MultiIF")
    refs = list(ds["reference"])
    replies = [MULTIIF_REPLIES[i % len(MULTIIF_REPLIES)] for i in range(len(refs))]
    out["MultiIFDataset"] = {"args": {"path": "opencompass/MultiIF"}, "rows": _rows(ds)}
    out["MultiIFEvaluator"] = [{"predictions": p, "result": MultiIFEvaluator().score(p, r)}
                               for p, r in ((replies, refs), (replies[:2], refs[:2]), (replies[2:4], refs[2:4]))]


def record_judge(out: dict[str, Any]) -> None:
    from opencompass.datasets.judge.judgebench import JudgeBenchDataset
    from opencompass.datasets.judge.rewardbench import RewardBenchDataset
    from opencompass.openicl.icl_evaluator import JudgeEvaluator

    replies = ['{"Choice": "Model A"}', 'I think\n{\n  "Choice": "Model B"\n}', "B", "Model A is better", '{"Choice": "Model C"}', "A"]
    for name, loader, calls in (("JudgeBenchDataset", JudgeBenchDataset, [("./data/judgeeval/judgebench", "judgebench.json")]),
                                ("RewardBenchDataset", RewardBenchDataset,
                                 [("./data/judgeeval/rewardbench", n) for n in ("hep-go.json", "donotanswer.json")])):
        recs = []
        for path, set_name in calls:
            rows = _rows(loader.__new__(loader).load(path=path, name=set_name))
            refs = [r["judge"] for r in rows]
            preds = [replies[i % len(replies)] for i in range(len(rows))]
            recs.append({"args": {"path": path, "name": set_name}, "rows": rows, "predictions": preds,
                         "result": JudgeEvaluator().score(preds, refs)})
        out[name] = recs


COMPASSBENCH_CALLS = [
    {"path": "./data/compassbench_v1_3/knowledge/single_choice_cn.jsonl", "name": "circular_single_choice_cn"},
    {"path": "./data/compassbench_v1_3/knowledge/single_choice_cn.jsonl", "name": "single_choice_cn"},
    {"path": "./data/compassbench_v1_3/math/arithmetic_cloze_en.jsonl", "name": "cloze_en"},
    {"path": "./data/compassbench_v1_3/math/college_single_choice_en.jsonl", "name": "single_choice_en_circular"},
]
CB_REPLIES = ["答案是 3,000 元", "The answer is 1/2 then 7", "We get 12 and then 16", "no number here", "The answer is -3.5.",
              "答案是：第二个", "x = 2, so 1,234,567", "The answer is", "3.14 or 2"]


def record_compassbench(out: dict[str, Any]) -> None:
    from opencompass.datasets.compassbench_obj import CompassBenchObjectiveV1_3, compassbench_objective_v1_3_postprocess
    from opencompass.openicl.icl_evaluator import CircularEvaluator
    from opencompass.utils.text_postprocessors import first_option_postprocess

    out["CompassBenchObjectiveV1_3"] = [{"args": a, "rows": _rows(CompassBenchObjectiveV1_3.load(**a))} for a in COMPASSBENCH_CALLS]
    out["compassbench_objective_v1_3_postprocess"] = [
        {"text": t, "name": n, "output": compassbench_objective_v1_3_postprocess(t, n)} for t in CB_REPLIES for n in ("cloze_cn", "cloze_en")]
    ds = CompassBenchObjectiveV1_3.load(**COMPASSBENCH_CALLS[0])
    rng = random.Random(21)
    raw = [rng.choice(["答案选项为A", "答案选项为B", "C", "The answer is D", "我不知道"]) for _ in range(len(ds))]
    preds = [first_option_postprocess(r, options="ABCD") for r in raw]
    out["CircularEvaluator"] = {"replies": raw, "result": CircularEvaluator().score(preds, list(ds["answer"]))}


SELECT_REPLIES = ["A, C", "The answer is B and D", "a c", "", "ACD", "B, D", "选 A、B", "C", "Answers: A, B, C, D", "É and B"]
RF_REPLIES = ["正确答案：氮肥，磷肥", "氮肥, 钾肥", "Correct answer: nitrogen, phosphorus", "", "光合作用", "水稻。小麦！玉米？",
              "玉米, 小麦, 大豆, 高粱", "氮肥", "  ", "水稻是一种重要的粮食作物……真的", "\u201c好。\u201d然后"]
RF_REFS = ["氮肥，磷肥", "氮肥，磷肥", "nitrogen, phosphorus", "水稻", "光合作用", "水稻。小麦", "玉米，小麦，大豆", "氮肥", "钾",
           "水稻是一种重要的粮食作物。", "好"]
ACC_REPLIES = ["The answer is Nitrogen.", "nitrogen", "钾肥", "N", " Nitrogen ", "none"]


def record_seedbench(out: dict[str, Any]) -> None:
    from opencompass.datasets.SeedBench import (
        AccScoreStr_Evaluator,
        AverageRougeScoreEvaluator,
        F1ScoreEvaluator,
        SeedBenchDataset,
        my_multiple_select_postprocess,
    )

    out["SeedBenchDataset"] = [{"args": a, "rows": _rows(SeedBenchDataset.load(**a))} for a in (
        {"data_files": "zero-shot/1-1.json", "path": "opencompass/seedbench"},
        {"data_files": "one-shot/3-3.json", "path": "opencompass/seedbench"},
        {"data_files": "zero-shot/2-1.json", "path": "opencompass/seedbench", "split": "train"})]
    out["my_multiple_select_postprocess"] = [{"text": t, "output": my_multiple_select_postprocess(t)} for t in SELECT_REPLIES]
    select_refs = ["A, C", "B, D", "A, C", "A", "A, C, D", "B", "A, B", "C, D", "A, B, C, D", "B"]
    selected = [my_multiple_select_postprocess(t) for t in SELECT_REPLIES]
    out["F1ScoreEvaluator"] = [{"predictions": p, "references": r, "result": F1ScoreEvaluator().score(p, r)}
                               for p, r in ((selected, select_refs), (SELECT_REPLIES, select_refs), (["", "B"], ["A", ""]))]
    rouge = [{"predictions": RF_REPLIES, "references": RF_REFS}, {"predictions": RF_REPLIES[:3], "references": RF_REFS[:3]},
             {"predictions": ["氮肥", "水稻"], "references": ["氮肥，", "水稻"]}]
    for case in rouge:
        try:
            case["result"] = AverageRougeScoreEvaluator().score(list(case["predictions"]), list(case["references"]))
        except Exception as exc:  # recorded: OpenCompass's evaluation fails on this batch
            case["raises"] = type(exc).__name__
    out["AverageRougeScoreEvaluator"] = rouge
    acc_refs = ["nitrogen", "Nitrogen", "钾", "nitrogen", "nitrogen", "yes"]
    out["AccScoreStr_Evaluator"] = {"predictions": ACC_REPLIES, "references": acc_refs,
                                    "result": AccScoreStr_Evaluator().score(ACC_REPLIES, acc_refs)}


def record() -> dict[str, Any]:
    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        os.environ.pop("COMPASS_DATA_CACHE", None)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            record_med(out)
            record_med_judged(out)
            record_multiif(out)
            record_judge(out)
            record_compassbench(out)
            record_seedbench(out)
        finally:
            os.chdir(cwd)
    return json.loads(json.dumps(out, default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = record()
    shutil.rmtree(WORK, ignore_errors=True)
    build(WORK)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {', '.join(k for k in data if k != 'opencompass')} -> {args.out}")


if __name__ == "__main__":
    main()
