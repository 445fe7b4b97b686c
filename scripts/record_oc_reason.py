"""Record what OpenCompass 0.5.4 computes on the math word-problem, Mastermath and QuALITY library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_reason.py [--only CASE ...]

It writes small data files in OpenCompass's local layouts under
``tests/data/oc_families/reason/cache`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory): CMO's fill-in-the-blank
file, SVAMP, GSM-Hard, Math401's cloze file, MGSM's eleven TSV files, two
SciBench subjects, Mastermath's CSV file, QuALITY's articles and two CHARM
reasoning tasks (Chinese and translated), ProcessBench's four subsets (a
local folder ``Qwen/ProcessBench`` whose ``README.md`` names its splits) and S3Eval
(a local folder ``FangyuLei/s3eval`` with its ``test`` split).  Each family's rows are read with OpenCompass's own loader,
and a prediction file per dataset is written under ``predictions/`` as
OpenCompass's gen inferencer writes it (``origin_prompt``, ``prediction``,
``gold`` — the loader's reference), with varied replies.

Then, per case (a config of OpenCompass's library, unchanged, and the datasets
kept from it), OpenCompass's own eval task (``OpenICLEvalTask``: loader,
prediction postprocessor, evaluator, details dumped) scores the predictions, and
``expected/<case>.json`` gets, per dataset, the result file's metrics and
details, the predictions and references the evaluator received and the test
set's rows.  ``vectors.json`` holds ``mgsm_postprocess``,
``scibench_postprocess``, ``charm_reason_postprocess`` and ``Math401Evaluator``
on further inputs.

``tests/evaluators/test_oc_reason.py`` checks assay's namesakes against these.
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

from _oc_recording import jsonable, library_datasets, use_data_cache, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "reason"
RUN = "20250101_000000"
MODEL = "oc-model"

MGSM_LANGS = ("bn", "de", "en", "es", "fr", "ja", "ru", "sw", "te", "th", "zh")
CHARM_TASKS = ("Chinese_Anachronisms_Judgment", "Global_Time_Understanding")
CHARM_KEPT = tuple(f"charm-reason-{t}_{c}" for t in CHARM_TASKS for c in ("Direct", "ZH-CoT", "XLT", "Translate-EN"))
SCIBENCH_KEPT = ("scibench-atkins", "scibench-calculus", "scibench-atkins_zs-cot", "scibench-calculus_fs")

#: case id → (config under opencompass/configs/datasets, variable, abbrs kept (None: all))
CASES: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "cmo_fib_gen": ("cmo_fib/cmo_fib_gen.py", "cmo_fib_datasets", None),
    "cmo_fib_gen_2783e5": ("cmo_fib/cmo_fib_gen_2783e5.py", "cmo_fib_datasets", None),
    "cmo_fib_0shot_notcot_gen_4c6c29": ("cmo_fib/cmo_fib_0shot_notcot_gen_4c6c29.py", "cmo_fib_datasets", None),
    "svamp_gen": ("SVAMP/svamp_gen.py", "svamp_datasets", None),
    "gsmhard_gen": ("gsm_hard/gsmhard_gen.py", "gsmhard_datasets", None),
    "math401_gen": ("math401/math401_gen.py", "math401_datasets", None),
    "mgsm_gen": ("mgsm/mgsm_gen.py", "mgsm_datasets", None),
    "scibench_gen": ("scibench/scibench_gen.py", "scibench_datasets", SCIBENCH_KEPT),
    "mastermath2024v1_gen": ("mastermath2024v1/mastermath2024v1_gen.py", "mastermath2024v1_datasets", None),
    "QuALITY_gen": ("QuALITY/QuALITY_gen.py", "QuALITY_datasets", None),
    "charm_reason_gen": ("CHARM/charm_reason_gen.py", "charm_reason_datasets", CHARM_KEPT),
    "processbench_gen": ("ProcessBench/processbench_gen.py", "processbench_datasets", None),
    "charm_reason_cot_only_gen_f7b7d3": ("CHARM/charm_reason_cot_only_gen_f7b7d3.py", "charm_reason_datasets", CHARM_KEPT),
}


CMO_ROWS = [
    {"origin_prompt": "设 $x+1/x=3$，求 $x^2+1/x^2$ 的值。", "gold_answer": "7", "id": 0},
    {"origin_prompt": "求 $\\sin^2 30^\\circ$。", "gold_answer": "\\frac{1}{4}", "id": 1},
    {"origin_prompt": "求满足条件的最小正整数 $n$。", "gold_answer": "2024", "id": 2},
    {"origin_prompt": "求 $\\sqrt{12}$ 的最简形式。", "gold_answer": "2\\sqrt{3}", "id": 3},
    {"origin_prompt": "求区间。", "gold_answer": "(0,1]", "id": 4, "question": "an own question field"},
    {"origin_prompt": "求 $0.5$ 的倒数。", "gold_answer": "2", "id": 5},
]
CMO_REPLIES = ["所以 $x^2+1/x^2=9-2=\\boxed{7}$。", "答案为 $\\boxed{\\dfrac14}$", "最小的 n 是 2025，故答案为 \\boxed{2025}",
               "化简得 \\boxed{2 \\sqrt{3}}", "The answer is $(0,1]$", ""]

SVAMP_ROWS = [
    {"ID": "chal-1", "Body": "There are 87 oranges and 290 bananas.", "Question": "How many bananas in each of 2 groups?", "Answer": 145.0},
    {"ID": "chal-2", "Body": "Marco's dad's strawberries weighed 11 pounds.", "Question": "How much did Marco's weigh?", "Answer": 19},
    {"ID": "chal-3", "Body": "A pie is cut in 2 pieces.", "Question": "How much is 5 divided by 2?", "Answer": 2.5},
    {"ID": "chal-4", "Body": "Jack had 1200 marbles.", "Question": "How many are left?", "Answer": 1150.0},
    {"ID": "chal-5", "Body": "Edward had 12 dollars.", "Question": "How much did each book cost?", "Answer": 3.0},
]
SVAMP_REPLIES = ["290 / 2 = 145. The answer is 145.\n", "30 - 11 = 19. Therefore 19 pounds. The answer is 19.0",
                 "5 / 2 = 2.5. The answer is 2.5", "1,200 - 50 = 1,150. The answer is 1,150.", "I cannot tell."]

GSM_HARD_ROWS = [
    {"input": "Janet's ducks lay 1624412 eggs per day.", "code": "def solution(): ...", "target": 2125.0},
    {"input": "A robe takes 2 bolts of blue fiber.", "code": "", "target": 3},
    {"input": "Josh decides to try flipping a house.", "code": "", "target": -70000.5},
    {"input": "James runs 3 sprints.", "code": "", "target": 540},
    {"input": "Every day Wendi feeds each chicken.", "code": "", "target": 20.0},
    {"input": "Kylar went to the store.", "code": "", "target": 64},
]
GSM_HARD_REPLIES = ["She makes 2125 dollars. The answer is 2125.0", "The answer is 3 bolts, not 4", "It loses -70,000.5 dollars",
                    "3 * 3 * 60 = 540 meters. The answer is 540.", "The answer is twenty.", "64"]

MATH401_ROWS = [
    {"question": "2.9-0.11.", "answer": "2.7900"},
    {"question": "78*64.", "answer": "4992"},
    {"question": "3**-1.", "answer": "0.3333"},
    {"question": "1-10.", "answer": "-9"},
    {"question": "e**2.", "answer": "7.3891"},
    {"question": "123456*654321.", "answer": "80779853376"},
]
MATH401_REPLIES = ["A: 2.9 - 0.11 equals 2.79. The answer is 2.79.\n", "A: The answer is 4,992.", "A: 1/3 is about 0.333. The answer is 1/3",
                   "A: 1 - 10 equals -9.", "A: The answer is 7.389", "A: The answer is 80779853376."]

MGSM_ROWS = [("Janet's ducks lay 16 eggs per day.", "18"), ("A robe takes 2 bolts.", "3"), ("Josh buys a house.", "70000"),
             ("James runs sprints.", "540")]
MGSM_REPLY = {
    "en": ["16 - 3 - 4 = 9, 9 * 2 = 18.\nAnswer: 18", "Answer: 3.", "Answer: 70,000 dollars", "The result is 540"],
    "bn": ["উত্তর: ১৮", "উত্তর: 3", "উত্তর: 70000.", "540"],
    "de": ["Antwort: 18", "Antwort: 3 Ballen", "Antwort: 70.000", "Antwort: keine"],
    "es": ["Respuesta: 18", "Respuesta: 4", "Respuesta: 70000", "Respuesta: 540.0"],
    "fr": ["Réponse : 18", "Réponse: 3", "Reponse: 70000", "Réponse: 540"],
    "ja": ["答え: 18", "答え：3", "答え: 70000", "答え: 540"],
    "ru": ["Ответ: 18", "Ответ: 3", "Ответ: -70000", "Ответ: 540"],
    "sw": ["Jibu: 18", "Jibu: 3", "Jibu: 70000", "jibu: 540"],
    "te": ["సమాధానం: 18", "సమాధానం: 3", "సమాధానం: 70000", "సమాధానం: 540"],
    "th": ["คำตอบ: 18", "คำตอบ: 3", "คำตอบ: 70000", "คำตอบ: 540"],
    "zh": ["答案: 18", "答案：3个", "答案是 70000", "答案: 54 0"],
}

SCIBENCH_ROWS = {
    "atkins": [{"problem_text": " A gas expands. Find the work. ", "answer_number": "1.5 ", "unit": "kJ"},
               {"problem_text": "Find the pressure.", "answer_number": "-2.45", "unit": "atm"},
               {"problem_text": "Find the mass.", "answer_number": "1250", "unit": "g"}],
    "calculus": [{"problem_text": "Integrate x from 0 to 1.", "answer_number": "0.5", "unit": ""},
                 {"problem_text": "Find the limit.", "answer_number": "2.718", "unit": ""},
                 {"problem_text": "Find the area.", "answer_number": "3.14", "unit": "m^2"}],
}
SCIBENCH_REPLIES = {
    "atkins": ["The work is 1.5 kJ. Therefore, the answer is \\boxed{1.5}.", "The pressure is -2.45 atm", "Mass: 1,250 g. The answer is 1,250 g"],
    "calculus": ["Therefore, the answer is \\boxed{\\frac{1}{2}}.", "e = 2.718", "no idea"],
}


MASTERMATH_CSV = (
    "id,question,A,B,C,D,answer,source\n"
    "1,求极限 $\\lim_{x\\to0}\\frac{\\sin x}{x}$,0,1,2,不存在,B,2020\n"
    "2,\"多行\r\n题目, 含逗号\",a,b,c,d,C,2021\n"
    "3,question,A,B,C,D,answer,header again\n"
    "4,求导 $x^2$,$x$,$2x$,$x^2$,$2$,B,2022\n"
    "5,空答案,1,2,3,4,,2023\n"
)
MASTERMATH_REPLIES = ["正确答案是 (B)", "正确答案是 C", "无法确定，也许是 A", ""]

QUALITY_ARTICLES = [
    {"article_id": "1", "article": "The ship left at dawn. It never came back.", "questions": [
        {"question": "When did the ship leave?", "options": ["dusk", "noon", "dawn", "night"], "gold_label": 3, "difficult": 0},
        {"question": "Did it return?", "options": ["yes", "no", "twice", "unknown"], "gold_label": 2, "difficult": 1},
        {"question": "Label zero?", "options": ["w", "x", "y", "z"], "gold_label": 0, "difficult": 1},
        {"question": "What colour was the sea?", "options": ["grey", "blue", "green", "red"], "gold_label": 1, "difficult": 0}]},
    {"article_id": "2", "article": "Mara planted trees on Mars.", "questions": [
        {"question": "Who planted trees?", "options": ["Mara", "Tom", "Ann", "Lee"], "gold_label": 1, "difficult": 0},
        {"question": "Where?", "options": ["Earth", "Moon", "Venus", "Mars"], "gold_label": 4, "difficult": 1},
        {"question": "What did she plant?", "options": ["flowers", "trees", "rice", "moss"], "gold_label": 2, "difficult": 0}]},
]
QUALITY_REPLIES = ["C", "The answer is B. no", "D", "B", "A. Mara", "I think it is C", ""]


CHARM_EXAMPLES = [{"input": "以下陈述是否包含时代错误？李白用钢笔写诗。\n选项：\n(A) 是\n(B) 否", "target": "(A)"},
                  {"input": "Which date is a week later?\nOptions:\n(A) 1\n(B) 2\n(C) 3", "target": "(C)"},
                  {"input": "第三题\n(A) 甲\n(B) 乙", "target": "(B)"},
                  {"input": "Fourth\n(A) a\n(B) b", "target": "B"},
                  {"input": "Fifth\n(A) a\n(B) b", "target": "(A)"}]
CHARM_REPLIES = ["所以答案是(A)。", "So the answer is (C).", "So the answer is B and not (A)", "Answer: b (B)", "不知道"]


PROCESSBENCH_SUBSETS = ("gsm8k", "math", "olympiadbench", "omnimath")
PROCESSBENCH_ROWS = [
    {"id": "p0", "generator": "m", "problem": "1+1?", "steps": ["1+1=3", "So 3."], "final_answer_correct": False, "label": 0},
    {"id": "p1", "generator": "m", "problem": "2*3?", "steps": ["2*3=6", "So 6."], "final_answer_correct": True, "label": -1},
    {"id": "p2", "generator": "m", "problem": "9-4?", "steps": ["9-4=5", "5+0=6", "So 6."], "final_answer_correct": False, "label": 1},
    {"id": "p3", "generator": "m", "problem": "5/5?", "steps": ["5/5=1"], "final_answer_correct": True, "label": -1},
    {"id": "p4", "generator": "m", "problem": "3^2?", "steps": ["3^2=6", "So 6."], "final_answer_correct": False, "label": 0},
]
PROCESSBENCH_REPLIES = ["The first error is in paragraph 0. \\boxed{0}", "All steps are right: \\boxed{-1}",
                        "\\boxed{2} no wait \\boxed{ 1 }", "\\boxed{none}", "I cannot tell."]


S3EVAL_ROWS = [
    {"input": "SELECT count(*) FROM t", "output": "3"},
    {"input": "SELECT a FROM t", "output": "x, y, z"},
    {"input": "SELECT a, b FROM t", "output": "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n| 1 | 2 |"},
    {"input": "SELECT name FROM t LIMIT 1", "output": "The Big Apple"},
    {"input": "SELECT avg(a) FROM t", "output": "2.50"},
    {"input": "SELECT b FROM t", "output": "nan"},
]
S3EVAL_REPLIES = ["3.0", "z,x", "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 5 | 6 |", "big apple!", "2.5", "nan"]


def build_data() -> None:
    """The data files in OpenCompass's layouts, under ``FIXTURES/cache``."""
    cache = FIXTURES / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    write_jsonl(cache / "data" / "cmo.jsonl", CMO_ROWS)
    write_jsonl(cache / "data" / "svamp" / "SVAMP.jsonl", SVAMP_ROWS)
    write_jsonl(cache / "data" / "gsm-hard" / "test.jsonl", GSM_HARD_ROWS)
    write_jsonl(cache / "data" / "math401" / "cloze_en.jsonl", MATH401_ROWS)
    for lang in MGSM_LANGS:
        path = cache / "data" / "mgsm" / f"mgsm_{lang}.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{q} ({lang})\t{a}\n" for q, a in MGSM_ROWS), encoding="utf-8")
    master = cache / "data" / "mastermath2024v1" / "kaoyan_math_1_mcq_Sheet1.csv"
    master.parent.mkdir(parents=True, exist_ok=True)
    master.write_bytes(MASTERMATH_CSV.encode("utf-8"))
    write_jsonl(cache / "data" / "QuALITY" / "QuALITY.v1.0.1.htmlstripped.dev", QUALITY_ARTICLES)
    write_jsonl(cache / "FangyuLei" / "s3eval" / "test.jsonl", S3EVAL_ROWS)
    bench = cache / "Qwen" / "ProcessBench"
    bench.mkdir(parents=True, exist_ok=True)
    files = "".join(f"  - split: {s}\n    path: {s}.jsonl\n" for s in PROCESSBENCH_SUBSETS)
    (bench / "README.md").write_text(f"---\nconfigs:\n- config_name: default\n  data_files:\n{files}---\n", encoding="utf-8")
    for subset in PROCESSBENCH_SUBSETS:
        write_jsonl(bench / f"{subset}.jsonl", PROCESSBENCH_ROWS)
    for folder in ("reasoning", "reasoning_Translate-EN"):
        for task in CHARM_TASKS:
            path = cache / "data" / "CHARM" / folder / f"{task}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"canary": "x", "examples": CHARM_EXAMPLES}, ensure_ascii=False, indent=1), encoding="utf-8")
    for name, rows in SCIBENCH_ROWS.items():
        path = cache / "data" / "scibench" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows, indent=1), encoding="utf-8")


def _replies(abbr: str) -> list[str]:
    if abbr == "cmo_fib":
        return CMO_REPLIES
    if abbr == "svamp":
        return SVAMP_REPLIES
    if abbr == "gsm-hard":
        return GSM_HARD_REPLIES
    if abbr == "math401":
        return MATH401_REPLIES
    if abbr.startswith("mgsm_"):
        return MGSM_REPLY[abbr[len("mgsm_"):]]
    if abbr == "Mastermath2024v1":
        return MASTERMATH_REPLIES
    if abbr == "QuALITY":
        return QUALITY_REPLIES
    if abbr == "s3eval":
        return S3EVAL_REPLIES
    if abbr.startswith("processbench_"):
        return PROCESSBENCH_REPLIES
    if abbr.startswith("charm-reason-"):
        return CHARM_REPLIES
    if abbr.startswith("scibench-"):
        return SCIBENCH_REPLIES[abbr[len("scibench-"):].split("_")[0]]
    raise KeyError(abbr)


def _datasets(case: str) -> list[dict[str, Any]]:
    rel, variable, kept = CASES[case]
    return [d for d in library_datasets(rel, variable) if kept is None or d["abbr"] in kept]


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the gen inferencer writes one (the references from OpenCompass's loader)."""
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        golds = test[ds["reader_cfg"]["output_column"]]
        first_input = ds["reader_cfg"]["input_columns"][0]
        prompts = test[first_input] if first_input in test.column_names else test[test.column_names[0]]
        replies = _replies(ds["abbr"])
        assert len(replies) == len(golds), (ds["abbr"], len(replies), len(golds))
        records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": r, "gold": g}
                   for i, (q, r, g) in enumerate(zip(prompts, replies, golds))}
        out = FIXTURES / "predictions" / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_json(out, records)


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask

    rel, variable, kept = CASES[case]
    shutil.rmtree(work / case, ignore_errors=True)
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["predictions"] = list(kwargs["predictions"]) if kwargs.get("predictions") is not None else None
        captured["references"] = list(kwargs["references"]) if kwargs.get("references") is not None else None
        captured["test_rows"] = original_dataset.to_list()
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    out: dict[str, Any] = {"config": rel, "variable": variable, "kept": list(kept) if kept else None, "datasets": {}}
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
            OpenICLEvalTask(cfg).run()
            result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
            entry: dict[str, Any] = {"details": result.pop("details", None), "result": result}
            entry.update({k: captured.get(k) for k in ("predictions", "references", "test_rows")})
            out["datasets"][abbr] = jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


MGSM_TEXTS = ["Answer: 1,018.", "Answer: 3.5.", "Answer: -4", "answer: 7", "Answer: 12 Answer: 13", "Answer:", "Answer: 1.2.3",
              "Answer: ١٢", "Answer: x", "Answer 5 apples and 6", "", "Answer: 007", "Answer:\n\n42\n"]
SCIBENCH_TEXTS = ["the answer is \\boxed{1.5} and the answer is 2", "\\boxed{\\frac{1}{2}}", "1,234,567 and 8", "no number",
                  "The answer is -0.5e3", "answer is .75", "The answer is  ", "\\boxed{} then 3", "x = 2. answer is\n\\boxed{4}"]
CHARM_TEXTS = ["(a) then B", "answer is (C) and answer is (D)", "the answer is  ", "((B))", "Ｂ or (Ｃ)", "answer is yes", "", "(\nA)",
               "no capitals here", "So the answer is: (D)"]
MATH401_PAIRS = [("2.79", "2.7900"), ("2.7", "2.79"), ("3/4", "0.75"), ("inf", "inf"), ("nan", "nan"), (" 5 ", "5"), ("1e3", "1000"),
                 ("0.3333", "0.33329"), ("1_000", "1000"), ("", "1"), ("-0", "0"), ("0.0010", "0")]


def vectors() -> dict[str, Any]:
    from opencompass.datasets.charm import charm_reason_postprocess
    from opencompass.datasets.math401 import Math401Evaluator
    from opencompass.datasets.mgsm import mgsm_postprocess
    from opencompass.datasets.s3eval import S3EvalDataset, S3EvalEvaluator
    from opencompass.datasets.scibench import scibench_postprocess

    s3_rows = S3EvalDataset.load("FangyuLei/s3eval").to_list()
    s3_refs = [r["output"] for r in s3_rows]
    preds, refs = zip(*MATH401_PAIRS)
    return {
        "mgsm_postprocess": [[t, lang, mgsm_postprocess(t, lang)] for t in MGSM_TEXTS for lang in ("en", "zh")],
        "scibench_postprocess": [[t, scibench_postprocess(t)] for t in SCIBENCH_TEXTS],
        "charm_reason_postprocess": [[t, charm_reason_postprocess(t)] for t in CHARM_TEXTS],
        # s3eval_gen has no reader_cfg: OpenCompass's eval task cannot build its dataset, so the
        # loader and the evaluator are recorded directly
        "S3EvalDataset": {"args": {"path": "FangyuLei/s3eval"}, "rows": s3_rows},
        "S3EvalEvaluator": {"predictions": S3EVAL_REPLIES, "references": s3_refs,
                            "result": S3EvalEvaluator().score(S3EVAL_REPLIES, s3_refs)},
        "Math401Evaluator": {"predictions": list(preds), "references": list(refs),
                             "result": Math401Evaluator().score(list(preds), list(refs))},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    args = parser.parse_args()
    use_data_cache(FIXTURES / "cache")
    cases = args.only or list(CASES)
    if not args.only:
        build_data()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            write_json(out_dir / f"{case}.json", record, sort_keys=True)
    write_json(FIXTURES / "vectors.json", jsonable(vectors()))
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
