"""Record what OpenCompass 0.5.4 computes on L-Eval, InfiniteBench and MRCR.

Run with a Python that has ``opencompass==0.5.4`` installed (with ``evaluate``,
``rouge_score``, ``jieba``), from the repository root::

    python scripts/record_oc_long_context.py [leval|infinitebench|mrcr ...]

For each family this

1. builds small data files in the layout OpenCompass's loaders read, under
   ``tests/data/oc_families/<family>/cache`` (the working directory and
   ``$COMPASS_DATA_CACHE`` of the run): L-Eval and MRCR as local copies of
   their Hugging Face datasets (``L4NLP/LEval``, ``giulio98/MRCR_v2_common``,
   each with a ``README.md`` listing one configuration per task), InfiniteBench
   as ``data/InfiniteBench/*.jsonl``;
2. loads every dataset of the family's library configs with OpenCompass's own
   loader and writes a prediction file per dataset (``predictions/<abbr>.json``,
   with ``gold`` as OpenCompass's inferencers write it) holding varied replies —
   right, wrong, partial, empty, non-ASCII;
3. scores them with OpenCompass's ``OpenICLEvalTask`` (details dumped) and
   summarizes the results with the family's summarizer config
   (``configs/summarizers/leval.py``, ``infinitebench.py``; for MRCR its
   summary groups ``groups/mrcr_v2.py``);
4. writes ``expected.json`` (per dataset: the loader's test rows, the
   predictions and references the evaluator received, the result) and
   OpenCompass's summary table (``summary.csv``, ``summary.txt``; for L-Eval
   also the table of its summary groups ``groups/leval.py``,
   ``summary_groups.csv``);
5. calls the family's own evaluators on tricky inputs and writes their results
   (``vectors.json``).

Nothing is downloaded: ``HF_DATASETS_OFFLINE`` is set and the Hugging Face
cache is a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, traceback_tail, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "data" / "oc_families"
RUN = "20250101_000000"
MODEL = "oc-model"

#: family → (dataset config under configs/datasets, its variable; summarizer config or groups file, its variable)
FAMILIES: dict[str, tuple[list[tuple[str, str]], tuple[str, str]]] = {
    "leval": ([("leval/leval.py", "leval_datasets")], ("summarizers/leval.py", "summarizer")),
    "infinitebench": ([("infinitebench/infinitebench.py", "infinitebench_datasets")], ("summarizers/infinitebench.py", "summarizer")),
    "mrcr": (
        [("mrcr/mrcr_v2_full_rawprompt_gen.py", "mrcr_datasets"), ("mrcr/mrcr_v2_upto128k_rawprompt_gen.py", "mrcr_upto128k_datasets"),
         *[(f"mrcr/mrcr_v2_{size}_rawprompt_gen.py", f"mrcr_{size}_datasets") for size in ("8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m")]],
        ("summarizers/groups/mrcr_v2.py", "mrcr_v2_summary_groups"),
    ),
}

#: family → a further summary: OpenCompass's summary groups file, its variable, the table's file name
GROUP_SUMMARIES: dict[str, tuple[str, str, str]] = {
    "leval": ("summarizers/groups/leval.py", "leval_summary_groups", "summary_groups.csv"),
}

# -- data ---------------------------------------------------------------------------------------

UNICODE = "Ünïcödé — 長文脈 ✓"


def _readme(path: Path, configs: dict[str, str]) -> None:
    lines = ["---", "configs:"]
    for name, file in configs.items():
        lines += [f"- config_name: {name}", "  data_files:", "  - split: test", f"    path: {file}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "---", "", "A small local copy for tests.", ""]), encoding="utf-8")


#: L-Eval task → (folder, [(document, [(instruction, output)])])
LEVAL_EXAM: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {
    "coursera": [
        ("Lecture 1 covers gradient descent and learning rates.", [("Which topics are covered? (A) gradients (B) rates (C) trees (D) none", "AB"),
                                                                    ("What is not covered? (A) x (B) y (C) trees (D) z", "C")]),
        ("Lecture 2 covers regularization.", [("Pick all that apply.", "ACD"), ("Pick one.", "D")]),
    ],
    "gsm100": [
        ("Q: 2 + 2? A: The answer is 4.", [("Tom has 1,000 apples and buys 234 more. How many?", "1,234"),
                                           ("What is 6 times 7?", "42")]),
        ("Q: 1 + 1? A: The answer is 2.", [("What is 3 + 4?", "7"), ("What is 20 - 2?", "18")]),
    ],
    "quality": [
        ("A story about a dog and a cat.", [("Who barks? (A) the cat (B) the dog", "(B) the dog"), ("Who meows? (A) the cat (B) the dog", "(A) the cat")]),
        ("A story about a ship.", [("Where is it? (A) sea (B) land (C) air", "(C) air"), ("What is it?", "(A) a ship")]),
    ],
    "tpo": [
        ("A lecture on volcanoes.", [("What erupts?", "A"), ("Why?", "C")]),
        ("A talk on bees.", [("What do bees make?", "B"), ("Where?", "D")]),
    ],
    "topic_retrieval_longchat": [
        ("Topics: baseball history; quantum computing; French cooking.", [("What is the first topic?", "baseball history"),
                                                                           ("What is the second topic?", "quantum computing")]),
        ("Topics: the ocean; mountain climbing.", [("What is the first topic?", "The ocean."), ("What is the second topic?", "mountain climbing")]),
    ],
}
LEVAL_GENERATION = ["financial_qa", "gov_report_summ", "legal_contract_qa", "meeting_summ", "multidoc_qa", "narrative_qa",
                    "natural_question", "news_summ", "paper_assistant", "patent_summ", "review_summ", "scientific_qa", "tv_show_summ"]


def _leval_generation_records(task: str) -> list[dict[str, Any]]:
    doc = f"A long document for {task.replace('_', ' ')}: revenue grew by ten percent while costs fell."
    outputs = [f"Revenue grew by ten percent in the {task.replace('_', ' ')} report.", "Costs fell sharply and margins improved.",
               "The committee approved the new budget for next year.", f"Die Kosten sanken {UNICODE}."]
    return [
        {"input": doc, "instructions": [f"Summarize point {i} of {task}." for i in (1, 2)], "outputs": outputs[:2]},
        {"input": doc + " The committee met.", "instructions": [f"What happened at meeting {i}?" for i in (3, 4)], "outputs": outputs[2:]},
    ]


def build_leval(root: Path) -> None:
    base = root / "L4NLP" / "LEval"
    shutil.rmtree(base, ignore_errors=True)
    configs = {}
    for task, records in LEVAL_EXAM.items():
        rows = [{"input": doc, "instructions": [q for q, _ in pairs], "outputs": [a for _, a in pairs], "source": "exam"} for doc, pairs in records]
        write_jsonl(base / "LEval" / "Exam" / f"{task}.jsonl", rows)
        configs[task] = f"LEval/Exam/{task}.jsonl"
    for task in LEVAL_GENERATION:
        write_jsonl(base / "LEval" / "Generation" / f"{task}.jsonl", _leval_generation_records(task))
        configs[task] = f"LEval/Generation/{task}.jsonl"
    _readme(base / "README.md", configs)


def build_infinitebench(root: Path) -> None:
    base = root / "data" / "InfiniteBench"
    shutil.rmtree(base, ignore_errors=True)
    funcs = ["func_1", "func_2", "func_3", "func_4"]
    write_jsonl(base / "code_debug.jsonl", [
        {"context": f"def func_{i}(): pass", "input": "Which function has a bug?", "options": funcs, "answer": [funcs[i % 4]]} for i in range(4)
    ])
    write_jsonl(base / "code_run.jsonl", [
        {"context": "def func_1(x): return x - 3", "input": "What is func_1(-7)? Then func_2(3)", "options": [], "answer": [-10]},
        {"context": "def func_12(x): return 2 * x", "input": "Compute func_12(21)", "options": [], "answer": [42]},
        {"context": "def func_3(x): return x", "input": "x = func_3(5)", "options": [], "answer": [5]},
    ])
    write_jsonl(base / "longdialogue_qa_eng.jsonl", [
        {"context": "$$MASK$$: To be or not to be.", "input": "Who says the masked line?", "options": [], "answer": [name]}
        for name in ("HAMLET", "OPHELIA", "LAERTES", "POLONIUS", "Horatio")
    ])
    write_jsonl(base / "longbook_choice_eng.jsonl", [
        {"context": "A long book.", "input": f"Question {i}?", "options": ["red", "green", "blue", "black"], "answer": [["red", "green", "blue", "black"][i % 4]]}
        for i in range(4)
    ])
    write_jsonl(base / "longbook_qa_eng.jsonl", [
        {"context": "A long book.", "input": "Where does the story start?", "options": [], "answer": ["In a small village"]},
        {"context": "A long book.", "input": "Who is the hero?", "options": [], "answer": ["Anna Karenina", "Anna"]},
        {"context": "A long book.", "input": "What year?", "options": [], "answer": ["1877"]},
    ])
    write_jsonl(base / "longbook_qa_chn.jsonl", [
        {"context": "一本很长的书。", "input": "故事发生在哪里？", "options": [], "answer": ["在一个小村庄"]},
        {"context": "一本很长的书。", "input": "主人公是谁？", "options": [], "answer": ["林黛玉"]},
        {"context": "一本很长的书。", "input": "哪一年？", "options": [], "answer": ["1791年"]},
    ])
    write_jsonl(base / "longbook_sum_eng.jsonl", [
        {"context": "A long book.", "input": "Summarize the book.", "options": [], "answer": ["A young woman leaves her village and finds her fortune in the city."]},
        {"context": "A long book.", "input": "Summarize the book.", "options": [], "answer": ["Two brothers quarrel over land and reconcile at the end."]},
        {"context": "A long book.", "input": "Summarize the book.", "options": [], "answer": [f"Une histoire {UNICODE}."]},
    ])
    write_jsonl(base / "math_calc.jsonl", [
        {"context": "1 + 3 + 4 - 1", "input": "", "options": [], "answer": [4, 8, 7]},
        {"context": "8 - 3 + 2 - 4", "input": "", "options": [], "answer": [5, 7, 3]},
        {"context": "2 - 5 + 1", "input": "", "options": [], "answer": [-3, -2]},
        {"context": "10 + 10", "input": "", "options": [], "answer": [20]},
    ])
    write_jsonl(base / "math_find.jsonl", [
        {"context": "[3, 95, 12]", "input": "The largest number of the list is what?", "options": [], "answer": 95},
        {"context": "[3, 95, 12]", "input": "What is it? The smallest number of the list.", "options": [], "answer": 3},
        {"context": "[3.5, 9.25]", "input": "The median of the values of the list, please.", "options": [], "answer": 9},
    ])
    write_jsonl(base / "kv_retrieval.jsonl", [
        {"context": '{"a1b2-c3": "d4e5-f6", "x9": "y8"}', "input": 'Key: "a1b2-c3"', "options": [], "answer": "d4e5-f6"},
        {"context": '{"a1b2-c3": "d4e5-f6", "x9": "y8"}', "input": 'Key: "x9"', "options": [], "answer": "y8"},
        {"context": '{"k": "Vä1"}', "input": 'Key: "k"', "options": [], "answer": "Vä1"},
    ])
    write_jsonl(base / "number_string.jsonl", [
        {"context": "noise 1234567890 noise", "input": "What is the sequence?", "options": [], "answer": "1234567890"},
        {"context": "noise 5555555555 noise", "input": "What is the sequence?", "options": [], "answer": "5555555555"},
        {"context": "noise 0000000001 noise", "input": "What is the sequence?", "options": [], "answer": "0000000001"},
    ])
    write_jsonl(base / "passkey.jsonl", [
        {"context": "The pass key is 71432. Remember it.", "input": "What is the pass key?", "options": [], "answer": ["71432"]},
        {"context": "The pass key is 9. Remember it.", "input": "What is the pass key?", "options": [], "answer": ["9"]},
    ])


#: MRCR subsets (every subset the library's configs name)
MRCR_SUBSETS = [f"{n}needle_in_{lo}_{hi}" for n in (2, 4, 8) for lo, hi in (
    (4096, 8192), (8192, 16384), (16384, 32768), (32768, 65536), (65536, 131072), (131072, 262144), (262144, 524288), (524288, 1048576))
] + [f"{n}needle_upto_128K" for n in (2, 4, 8)]


def build_mrcr(root: Path) -> None:
    base = root / "giulio98" / "MRCR_v2_common"
    shutil.rmtree(base, ignore_errors=True)
    configs = {}
    for i, subset in enumerate(MRCR_SUBSETS):
        rows = []
        for j in range(3):
            prefix = f"h{i:02d}x{j}Q"
            poem = f"Tapirs wander at dusk, number {i} and {j}, quiet in the rain."
            question = f"Prepend {prefix} to the {j + 1}nd (1 indexed) poem about tapirs. Do not include any other text in your response."
            if (i + j) % 7 == 3:
                question = "Repeat the first poem about tapirs."  # no prefix asked: every reply passes the prefix check
            rows.append({"context": f"User: write a poem about tapirs\nAssistant: {poem}", "question": question,
                         "answers": [f"{prefix}{poem}" if "Prepend" in question else poem], "n_needles": int(subset[0])})
        write_jsonl(base / "data" / f"{subset}.jsonl", rows)
        configs[subset] = f"data/{subset}.jsonl"
    _readme(base / "README.md", configs)


BUILDERS = {"leval": build_leval, "infinitebench": build_infinitebench, "mrcr": build_mrcr}

# -- replies ------------------------------------------------------------------------------------


def _text_replies(answer: str, i: int) -> str:
    """A reply for a free-text reference: right, partly right, wrong, empty, non-ASCII in turn."""
    return [answer, f"I think {answer.split(' ', 2)[-1]} and more", "Something else entirely.", "", f"{UNICODE} {answer}"][i % 5]


def reply(family: str, abbr: str, row: dict[str, Any], i: int) -> str:
    """The reply of row ``i``; the free-text and MRCR replies rotate from a place that depends on the dataset."""
    answer = row.get("answer", row.get("gold"))
    i += zlib.crc32(abbr.encode()) % 5 if family == "mrcr" or abbr not in REPLIES else 0
    if family == "mrcr":
        gold = json.loads(row["gold"])
        expected, prefix = gold["answer"], gold["prefix"]
        return [expected, expected[: len(expected) // 2] + " and then the tapirs slept", expected[len(prefix):], "", f"{prefix}{UNICODE}"][i % 5]
    if abbr in REPLIES:
        return REPLIES[abbr][i % len(REPLIES[abbr])]
    text = answer[0] if isinstance(answer, list) else str(answer)
    return _text_replies(text, i)


#: the replies of the datasets scored by extracting a choice, a number or a key
REPLIES: dict[str, list[str]] = {
    "LEval_coursera": ["AB", "Answer: C", "", "选项 A 和 C 和 D", "D"],
    "LEval_gsm100": ["So the total is this. The answer is 1,234 apples.", "The answer is -42.", "the answer is 7", "The answer is ²18"],
    "LEval_quality": ["B", "The answer is A", "", "ç (C) air"],
    "LEval_tpo": ["A", "(C)", "b", "Ünïcödé D"],
    "LEval_topic_retrieval": ["The first topic is baseball history, I think", "Quantum", "", "mountain climbing."],
    "InfiniteBench_codedebug": ["A", "The answer is B", "", "选项D"],
    "InfiniteBench_enmc": ["A", "The answer is: C", "none", "选项D"],
    "InfiniteBench_coderun": ["-10", "42", "B"],
    "InfiniteBench_endia": ['I think it is "Hamlet".', "OPHELIA: hello", "Laertes;", "", "horatio"],
    "InfiniteBench_mathcalc": ["[4, 8, 7]", "5, 9, 3", "-3, -2", ""],
    "InfiniteBench_mathfind": ["The answer is 95.", "It is 3.0", "9"],
    "InfiniteBench_retrievekv": ['The value is "d4e5-f6".', "y8x", "Vä1"],
    "InfiniteBench_retrievenumber": ["The sequence is 1234567890.", "555555555", "0000000001"],
    "InfiniteBench_retrievepasskey": ["The pass key is 71432.", "no idea"],
    "InfiniteBench_enqa": ["In a small village by the sea", "Anna", ""],
    "InfiniteBench_zhqa": ["在一个小村庄里", "贾宝玉", "1791年"],
}


# -- OpenCompass --------------------------------------------------------------------------------


def _datasets(family: str) -> list[Any]:
    from mmengine.config import Config

    import opencompass

    root = Path(opencompass.__file__).parent / "configs" / "datasets"
    out, seen = [], set()
    for rel, variable in FAMILIES[family][0]:
        for ds in Config.fromfile(str(root / rel))[variable]:
            if ds["abbr"] not in seen:
                seen.add(ds["abbr"])
                out.append(ds)
    return out


def _summarizer(family: str, rel: str, variable: str) -> dict[str, Any]:
    from mmengine.config import Config

    import opencompass

    value = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / rel))[variable]
    if variable == "summarizer":
        return dict(value)
    return {"summary_groups": list(value)}


def _write_predictions(family: str, datasets: list[Any], folder: Path) -> dict[str, list[dict[str, Any]]]:
    from opencompass.utils import build_dataset_from_cfg

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rows_of = {}
    for ds in datasets:
        abbr = ds["abbr"]
        test = build_dataset_from_cfg(ds).test
        output = ds["reader_cfg"]["output_column"]
        rows = test.to_list()
        records = {}
        for i, row in enumerate(rows):
            records[str(i)] = {"origin_prompt": f"[prompt {i} of {abbr}]", "prediction": reply(family, abbr, row, i), "gold": row[output]}
        write_json(folder / f"{abbr}.json", records)
        rows_of[abbr] = rows
    return rows_of


def _evaluate(family: str, datasets: list[Any], predictions: Path, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask

    run_dir = work / RUN
    pred_dir = run_dir / "predictions" / MODEL
    pred_dir.mkdir(parents=True, exist_ok=True)
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["predictions"] = list(kwargs["predictions"]) if kwargs.get("predictions") is not None else None
        captured["references"] = list(kwargs["references"]) if kwargs.get("references") is not None else None
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    out: dict[str, Any] = {}
    try:
        for ds in datasets:
            abbr = ds["abbr"]
            shutil.copy(predictions / f"{abbr}.json", pred_dir / f"{abbr}.json")
            cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                             eval=dict(runner=dict(task=dict(dump_details=True))))
            captured.clear()
            entry: dict[str, Any] = {}
            try:
                OpenICLEvalTask(cfg).run()
                result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
                entry["details"] = result.pop("details", None)
                entry["result"] = result
            except Exception as exc:
                entry["exception"] = f"{type(exc).__name__}: {exc}"
                entry["traceback_tail"] = traceback_tail()
            entry.update({k: captured.get(k) for k in ("predictions", "references")})
            out[abbr] = jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


def _summarize(family: str, datasets: list[Any], work: Path, rel: str, variable: str, time_str: str) -> tuple[str, str]:
    from mmengine.config import ConfigDict
    from opencompass.summarizers import DefaultSummarizer

    run_dir = work / RUN
    summarizer = _summarizer(family, rel, variable)
    summarizer.pop("type", None)
    cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=datasets, work_dir=str(run_dir))
    DefaultSummarizer(cfg, **summarizer).summarize(time_str=time_str)
    folder = run_dir / "summary"
    return (folder / f"summary_{time_str}.csv").read_text(encoding="utf-8"), (folder / f"summary_{time_str}.txt").read_text(encoding="utf-8")


def _mrcr_gold(answer: str, prefix: str) -> str:
    return json.dumps({"answer": answer, "prefix": prefix})


_LONG = "Tapirs " + "wander at dusk and sleep at dawn, " * 12
#: family → (evaluator module, class, predictions, references): tricky inputs for each evaluator of its own
VECTORS: dict[str, list[tuple[str, str, list[Any], list[Any]]]] = {
    "leval": [
        ("opencompass.datasets.leval", "LEvalEMEvaluator",
         ["The answer: Baseball history", "baseball", "", f"{UNICODE} topic", "the, baseball", "a b c", "Topic\nquantum", "x"],
         ["Baseball history", "Baseball", "The.", UNICODE, "baseball", "b", "quantum", "x."]),
    ],
    "infinitebench": [
        ("opencompass.datasets.infinitebench", "InfiniteBenchendiaEvaluator",
         ["hamlet!", "HAMLET;", "{Hamlet}", "Mary", "x", "Speaker: 'OPHELIA'", f"{UNICODE} ÉMILE"],
         [["HAMLET"], ["HAMLET"], ["HAMLET"], ["Mary"], "XY", ["OPHELIA", "HAMLET"], ["ÉMILE"]]),
        ("opencompass.datasets.infinitebench", "InfiniteBenchretrievekvEvaluator",
         ["key: 'abc'", "abc.", "ABC", "abcd", "x", "{abc}", "(abc)"],
         ["abc", "abc", "abc", "abc", ["x"], "abc", "abc"]),
        ("opencompass.datasets.infinitebench", "InfiniteBenchmathcalcEvaluator",
         ["4, 8, 7, 9", "-3 -2", "1.5, 2", "", "[4,8]", "values: 4 then 8", "٤, 8"],
         [[4, 8, 7], [-3, -2], [1, 5], [1], [4, 8, 7], [4, 8], [4, 8]]),
    ],
    "mrcr": [
        ("opencompass.datasets.mrcr", "MRCREvaluator",
         ["ab1Tapirs sleep", "ab1Tapirs", "Tapirs sleep", "", "ab1", "anything", "ab1" + _LONG, "zzzTapirs", f"ab1{UNICODE}"],
         [_mrcr_gold("ab1Tapirs sleep", "ab1"), _mrcr_gold("ab1Tapirs sleep", "ab1"), _mrcr_gold("ab1Tapirs sleep", "ab1"),
          _mrcr_gold("ab1Tapirs sleep", "ab1"), _mrcr_gold("ab1Tapirs sleep", "ab1"), _mrcr_gold("Tapirs", ""),
          _mrcr_gold("ab1" + _LONG.replace("dusk", "dawn"), "ab1"), _mrcr_gold("Tapirs at night", "zzz"), _mrcr_gold(f"ab1{UNICODE}", "ab1")]),
    ],
}


def _vectors(family: str) -> list[dict[str, Any]]:
    import importlib

    out = []
    for module, name, predictions, references in VECTORS[family]:
        evaluator = getattr(importlib.import_module(module), name)()
        entry: dict[str, Any] = {"evaluator": name, "predictions": predictions, "references": references}
        try:
            entry["result"] = jsonable(evaluator.score(list(predictions), list(references)))
        except Exception as exc:  # recorded: assay's namesake must fail too
            entry["exception"] = type(exc).__name__
        out.append(entry)
    return out


def record(family: str, scratch: Path) -> None:
    folder = OUT / family
    cache = folder / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    BUILDERS[family](cache)
    os.environ["COMPASS_DATA_CACHE"] = str(cache)
    os.chdir(cache)
    datasets = _datasets(family)
    rows_of = _write_predictions(family, datasets, folder / "predictions")
    work = scratch / family
    shutil.rmtree(work, ignore_errors=True)
    scored = _evaluate(family, datasets, folder / "predictions", work)
    for abbr, entry in scored.items():
        entry["test_rows"] = jsonable(rows_of[abbr])
    csv_text, txt_text = _summarize(family, datasets, work, *FAMILIES[family][1], RUN)
    if family in GROUP_SUMMARIES:
        rel, variable, name = GROUP_SUMMARIES[family]
        (folder / name).write_text(_summarize(family, datasets, work, rel, variable, "20250101_000001")[0], encoding="utf-8")
    write_json(folder / "expected.json", scored, sort_keys=True)
    write_json(folder / "vectors.json", _vectors(family))
    (folder / "summary.csv").write_text(csv_text, encoding="utf-8")
    (folder / "summary.txt").write_text(txt_text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", help=f"families to record: {', '.join(FAMILIES)} (default: all)")
    args = parser.parse_args()
    unknown = [f for f in args.families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families {unknown}; choose from {', '.join(FAMILIES)}")
    scratch = Path(tempfile.mkdtemp(prefix="record_oc_long_context_"))
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_HOME"] = str(scratch / "hf")
    os.environ.pop("DATASET_SOURCE", None)
    sys.path.insert(0, str(REPO))
    for family in args.families or list(FAMILIES):
        print(f"recording {family}", flush=True)
        record(family, scratch)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
