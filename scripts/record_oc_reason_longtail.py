"""Record what OpenCompass 0.5.4 computes on KOR-Bench's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_reason_longtail.py [--only CASE ...]

It writes small data files in OpenCompass's local layout under
``tests/data/oc_families/reason_longtail/cache`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory): KOR-Bench's five
categories (rules, samples, three-shot examples; one category's files as
JSON Lines) and its three mixed tasks.  Each family's rows are read with
OpenCompass's own loader, and a prediction file per dataset is written under
``predictions/`` as OpenCompass's gen inferencer writes it (``origin_prompt``,
``prediction``, ``gold`` — the loader's reference), with varied replies.

Then, per case (a config of OpenCompass's library, unchanged), OpenCompass's own
eval task (``OpenICLEvalTask``: loader, evaluator, details dumped) scores the
predictions, and ``expected/<case>.json`` gets, per dataset, the result file's
metrics and details, the predictions and references the evaluator received and
the test set's rows.  ``vectors.json`` holds KOR-Bench's answer matching
(``evaluate_response_vs_answer``) on further inputs.

``tests/evaluators/test_oc_reason_longtail.py`` checks assay's namesakes against these.
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
FIXTURES = REPO / "tests" / "data" / "oc_families" / "reason_longtail"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable, abbrs kept (None: all))
CASES: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "korbench_single_0_shot_gen": ("korbench/korbench_single_0_shot_gen.py", "korbench_0shot_single_datasets", None),
    "korbench_single_3_shot_gen": ("korbench/korbench_single_3_shot_gen.py", "korbench_3shot_single_datasets", None),
    "korbench_mixed_gen_d00bdd": ("korbench/korbench_mixed_gen_d00bdd.py", "korbench_mixed_datasets", None),
    "supergpqa_gen": ("supergpqa/supergpqa_gen.py", "supergpqa_datasets", None),
    "game24_gen_52a460": ("game24/game24_gen_52a460.py", "game24_datasets", None),
    "zebralogic_rawprompt_gen_9446ef": ("ZebraLogic/zebralogic_rawprompt_gen_9446ef.py", "zebralogic_datasets", None),
    "TabMWP_gen_2aef96": ("TabMWP/TabMWP_gen_2aef96.py", "TabMWP_datasets", None),
    "bbeh_gen": ("bbeh/bbeh_gen.py", "bbeh_datasets", ("bbeh_boolean_expressions", "bbeh_hyperbaton", "bbeh_word_sorting",
                                                      "bbeh_multistep_arithmetic")),
}

#: category → (rules, samples, replies); rule 99 of each category is named by no sample, and each category's
#: last sample names a rule that does not exist (skipped by the loader)
KOR_DATA: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str, str]], list[str]]] = {
    "cipher": ([("1", "Shift each letter one place forward: A becomes B."), ("2", "Write the letters in reverse order.")],
               [("1", "Plaintext: \"ABC\". Encrypt it; answer in [[...]].", "[[BCD]]"),
                ("2", "Plaintext: \"XY\". Encrypt it.", "[[YX]]"),
                ("1", "Plaintext: \"AZ\". Encrypt it.", "[[BA]]"),
                ("7", "A question whose rule is missing.", "[[Q]]")],
               ["The answer is [[ B C D ]].", "\"YX\" it is: $\\boxed{YX}$", "[BA]"]),
    "counterfactual": ([("1", "In this world water flows uphill.")],
                       [("1", "Where does a river end?\nA. At the top of a hill\nB. In the sea", "[[A]]"),
                        ("1", "Which way does rain run off a roof?", "[[up]]"),
                        ("5", "Missing rule.", "[[B]]")],
                       ["[[A]]", "It runs [up]."]),
    "logic": ([("5", "List the true statements separated by ';'."), ("6", "Give the number.")],
              [("5", "Which of X, Y hold?", "[[X;Y]]"), ("5", "Which of P, Q hold?", "[[P;Q]]"), ("6", "How many?", "[[3.]]"),
               ("6", "Yes or no?", "[[no]]"), ("8", "Missing rule.", "[[1]]")],
              ["[[ X; Y ]]", "[[Q;P]]", "[[ 3 ]]", "no brackets at all"]),
    "operation": ([("18", "Sort the letters."), ("23", "List the numbers."), ("7", "Solve the equation.")],
                  [("18", "Sort c, b, a.", "[[cba]]"), ("23", "Which numbers?", "[[1, 2, 3]]"), ("7", "x^2 = 3x - 2", "[[1 or 2]]"),
                   ("7", "2 + 3 = ?", "[[5]]"), ("7", "3 - 3 = ?", "[[0]]"), ("9", "Missing rule.", "[[0]]")],
                  ["[[a, b, c]]", "[[1 2 3]]", "[[2\\text{or}1]]", "[[ 5 ]]", "zero"]),
    "puzzle": ([("1", "Answer with the word."), ("9", "Fill in the operators."), ("10", "Make 24."), ("3", "Give the words."),
                ("12", "Give the grid.")],
               [("1", "Which greeting?", "[[Hello]]"), ("9", "3 ? 4 = 7", "[[3+4=7]]"), ("10", "1 2 3 4", "[[(1+2+3)*4=24]]"),
                ("10", "2 3 4 6", "[[6*4*(3-2)=24]]"), ("3", "Which two letters?", "[[b a]]"), ("12", "The grid?", "[[1,2;3,4]]"),
                ("4", "Missing rule.", "[[x]]")],
               ["[[hello!]]", "[[4+3=7]]", "[[4*(1+2+3)]]", "[[6*4*3-2]]", "[[A, B]]", "[[1 2 3 4]]"]),
}

#: mixed task → [(rule names, question names)], and its replies
KOR_MIXED: dict[str, tuple[list[tuple[list[str], list[str]]], list[str]]] = {
    "Multi-Q": ([(["cipher_1"], ["cipher_1", "cipher_3"]), (["logic_6"], ["logic_3", "logic_4"]),
                 (["operation_7"], ["operation_3", "operation_4", "operation_5"])],
                ["Answers: {\"question1\": \"[[BCD]]\", \"question2\": \"[[BA]]\"}",
                 "{\"question1\": \"[[3]]\", \"question2\": \"[[yes]]\"}",
                 "{\"question1\": \"[[1 or 2]]\", \"question2\": 5}"]),
    "Multi-R": ([(["cipher_1", "cipher_2"], ["cipher_2"]), (["puzzle_9", "puzzle_10"], ["puzzle_2"])],
                ["{\"q\": \"[[YX]]\"}", "no JSON here"]),
    "Multi-RQ": ([(["puzzle_1", "counterfactual_1"], ["puzzle_1", "counterfactual_1"])],
                 ["{\n\"question1\": \"[[hello]]\",\n\"question2\": \"[[A]]\"\n}"]),
}


def _gpqa_row(n: int, question: str, options: list[str], letter: str, discipline: str, field: str, subfield: str,
              difficulty: str) -> dict[str, Any]:
    return {"uuid": f"u{n}", "question": question, "options": options, "answer": options[ord(letter) - 65],
            "answer_letter": letter, "discipline": discipline, "field": field, "subfield": subfield, "difficulty": difficulty,
            "is_calculation": n % 2 == 0}


SUPERGPQA_ROWS = [
    _gpqa_row(1, "The angular magnification of the telescope is", ["10", "40", "6", "25"], "B", "Science", "Physics", "Optics", "easy"),
    _gpqa_row(2, "Which gas is noble?", ["Oxygen", "Argon", "Nitrogen"], "B", "Science", "Chemistry", "Inorganic", "middle"),
    _gpqa_row(3, "Pick the prime.", ["4", "6", "7", "9", "10"], "C", "Science", "Mathematics", "Number Theory", "hard"),
    _gpqa_row(4, "Which court hears appeals?", ["District", "Appellate", "Small claims"], "B", "Law", "Law", "Procedure", "easy"),
    _gpqa_row(5, "Select the (a.b) form.", ["a.b", "a+b", "a*b"], "A", "Science", "Mathematics", "Algebra", "middle"),
    _gpqa_row(6, "Best sorting for nearly sorted data?", ["Insertion sort", "Heap sort", "Radix sort", "Shell sort"], "A",
              "Engineering", "Computer Science and Technology", "Algorithms", "hard"),
    _gpqa_row(7, "Which is a tree?", ["Oak", "Rose"], "A", "Agronomy", "Forestry", "Botany", "easy"),
    _gpqa_row(8, "Which is largest?", ["1", "2", "3"], "C", "Science", "Mathematics", "Algebra", "hard"),
]
SUPERGPQA_REPLIES = ["Thinking...\nAnswer: B", "the answer is b", "The answer is 7", "Appellate, I think.\n(B)",
                     "Answer: a.b", "Answer: $\\boxed{A}$.", "I do not know.", "The correct option is: \\textbf{C}\nAnswer: C"]
#: canned judge replies for the judged files' dict postprocessor
SUPERGPQA_JUDGE = ["A", "B", "CORRECT: A", "", "b", "A", "INCORRECT", "A"]


#: BBEH task → [(input, target)], replies
BBEH_DATA: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "bbeh_boolean_expressions": ([("Which is true? (A) x (B) y", "(B)"), ("Which? (A) p (B) q", "(A)"), ("Pick (C).", "C")],
                                 ["The answer is: (B)", "The answer is (b)\nmore", "I pick (C)"]),
    "bbeh_hyperbaton": ([("Order? (A) (B)", "(A)"), ("Order again?", "(B)")], ["The final answer is: A", "**The answer is: (B)**"]),
    "bbeh_word_sorting": ([("Sort: b a c", "a b c"), ("Sort: y, x", "x, y"), ("Sort: one", "'one'")],
                          ["The answer is: A B C", "The answer is: x ,y", "The answer is: \\text{one}"]),
    "bbeh_multistep_arithmetic": ([("2+2?", "4"), ("1/2?", "\\frac{1}{2}"), ("3*3?", "9"), ("(1)?", "(1)")],
                                  ["The answer is: \\boxed{4}", "The answer is: \\boxed{\\frac{1}{2}}", "The answer is: **9**.",
                                   "The answer is: 1"]),
}
BBEH_TEXTS = ["The answer is: (A)", "The answer is (b)", "The final answer is: \\boxed{\\text{Yes}}", "The final answer is **No**\nok",
              "(C)", "((D))", "The answer is: The answer is 5", "answer: 3", "The answer is: \\texttt{x}, \\text{y}", "", "  \n  "]


OMNI_ROWS = [
    {"domain": ["Mathematics -> Algebra -> Linear Algebra"], "difficulty": 2.5, "problem": "Solve $2x = 4$.", "solution": "Divide.",
     "answer": "2", "source": "test_source"},
    {"domain": ["Mathematics -> Number Theory"], "difficulty": 6.0, "problem": "Find the least prime above 10.",
     "solution": "11 is prime.", "answer": "11", "source": "olympiad"},
    {"domain": [], "difficulty": 9.0, "problem": "Show $\\sqrt{2}$ is irrational; give $p^2/q^2$.", "solution": "By parity.",
     "answer": "$2$", "source": "imo"},
]


#: puzzles 901-905 (the ones OpenCompass keeps) and the replies to them; the other 900 fill the file
GAME24_KEPT = ["4 4 6 8", "3 3 8 8", "1 2 3 4", "2 9 10 12", "1 1 4 6"]
GAME24_REPLIES = ["Steps...\nAnswer: (4 + 8) * (6 - 4) = 24", "Answer: 8/(3-8/3) = 24", "answer: 1*2*3*4", "12 * 2 * (10 - 9)",
                  "Answer: (1 + 1) * 4 + 6.0"]
GAME24_EXPRESSIONS = [("2^3*3", "2 3 3"), ("24.0", "24"), ("4*6.0", "4 6"), ("(4+8)*(6-4) ", "4 4 6 8"), ("8/(3-8/3)", "3 3 8 8"),
                      ("4(6)", "4 6"), ("-(-24)", "24"), ("6*4", "4 6 1"), ("48//2", "2 48"), ("100%76", "76 100"), ("x*24", "24"),
                      ("24/0", "0 24"), ("", ""), ("2**3*3", "2 3 3"), ("(1+1+1+1)!", "1 1 1 1"), ("24 + 0*5", "0 5 24"),
                      ("4 × 6", "4 6"), ("12*2^1", "1 2 12")]


_ZEBRA_PUZZLE = "There are 2 houses, numbered 1 to 2. Alice lives left of the cat owner."
ZEBRA_MC = [
    {"id": "mc-1", "puzzle": _ZEBRA_PUZZLE, "question": "Who lives in house 1?", "choices": ["Alice", "Bob"], "answer": "Alice"},
    {"id": "mc-2", "puzzle": _ZEBRA_PUZZLE, "question": "Which pet is in house 2?", "choices": ["cat", "dog", "fish"], "answer": "cat"},
    {"id": "mc-3", "puzzle": _ZEBRA_PUZZLE, "question": "How many houses?", "choices": ["1", "2", "3", "4"], "answer": "2"},
    {"id": "mc-4", "puzzle": _ZEBRA_PUZZLE, "question": "Odd one?", "choices": ["x", "y"], "answer": "z"},
]
ZEBRA_MC_REPLIES = ["Thinking.\nThe answer is: A", "**a** maybe\n(B)", "Options (A) (B)\n  (b)  \nthanks", "The answer is z"]
_ZEBRA_SOLUTION = {"header": ["House", "Name", "Pet"], "rows": [["1", "Alice", "dog"], ["2", "Bob", "cat"]]}
ZEBRA_GRID = [{"id": "grid-1", "size": "2*2", "puzzle": _ZEBRA_PUZZLE, "solution": _ZEBRA_SOLUTION},
              {"id": "grid-2", "size": "2*2", "puzzle": _ZEBRA_PUZZLE, "solution": _ZEBRA_SOLUTION},
              {"id": "grid-3", "size": "2*2", "puzzle": _ZEBRA_PUZZLE, "solution": _ZEBRA_SOLUTION}]
ZEBRA_GRID_REPLIES = ["| House | Name | Pet |\n|---|---|---|\n| 1 | alice | Dog |\n| 2 | Bob | fish |",
                      "House 1: Alice with the dog; house 2: Bob with the cat.",
                      "| 1 | Alice | dog |\n| 2 | Bob | cat |"]


def _tab(question: str, answer: str, unit: str | None = None, choices: list[str] | None = None, title: str | None = "Prices") -> dict[str, Any]:
    return {"question": question, "unit": unit, "choices": choices, "table": "Item | Price\napple | $1.40\npear | $0.75",
            "table_title": title, "answer": answer, "solution": "Look at the table.\nRead the row.", "grade": 3}


TABMWP_TEST = {"11": _tab("How much is an apple?", "$1.40"), "12": _tab("How much for 1,000 pears?", "750", title=None),
               "13": _tab("Which is cheaper?", "pear", choices=["apple", "pear"]), "14": _tab("What fraction?", "3/4"),
               "15": _tab("How long is it?", "12", unit="cm"), "16": _tab("Is it more or less?", "more", choices=["less", "more"]),
               "17": _tab("When does it open?", "7:25 P.M.", title=""), "18": _tab("Pick one.", "blue", choices=["red", "blue"])}
TABMWP_REPLIES = ["An apple costs $1.40. The answer is $1.40.", "1,000 * 0.75 = 750.00", "(B)", "The answer is \\frac{3}{4}",
                  "It will be 12 cm long.", "The answer is D", "The shop opens at 7:25 P.M.", "red or blue? red blue"]


def _shots(rule_id: str) -> list[dict[str, Any]]:
    return [{"rule_id": rule_id, "question": f"Example question {n} for rule {rule_id}.", "answer": f"[[example {n}]]"}
            for n in range(1, 4)]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    else:
        path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


def build_data() -> None:
    """The data files in OpenCompass's layouts, under ``FIXTURES/cache``."""
    cache = FIXTURES / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    root = cache / "data" / "korbench"
    for category, (rules, samples, _) in KOR_DATA.items():
        ext = "jsonl" if category == "logic" else "json"
        _write(root / category / f"rule.{ext}", [{"idx": i, "rule_content": text} for i, text in [*rules, ("99", "Unused.")]])
        _write(root / category / f"sample.{ext}", [{"idx": str(n), "rule_id": r, "question": q, "answer": a}
                                                   for n, (r, q, a) in enumerate(samples, 1)])
        _write(root / category / f"three-shot.{ext}", [shot for rule_id, _ in rules for shot in _shots(rule_id)])
    for task, (items, _) in KOR_MIXED.items():
        _write(root / "mixed" / f"{task}.json", [{"rule_list": r, "question_list": q} for r, q in items])
    _write(cache / "m-a-p" / "SuperGPQA" / "train.jsonl", SUPERGPQA_ROWS)
    _write(cache / "KbsdJames" / "Omni-MATH" / "test.jsonl", OMNI_ROWS)
    for split, problems in (("dev", {"1": _tab("How much is a pear?", "$0.75")}), ("test", TABMWP_TEST),
                            ("train", {"2": _tab("Which costs more?", "apple", choices=["apple", "pear"])})):
        path = cache / "data" / "tabmwp" / f"problems_{split}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(problems, indent=1), encoding="utf-8")
    zebra = cache / "WildEval" / "ZebraLogic"
    _write(zebra / "mc_mode" / "test.jsonl", ZEBRA_MC)
    _write(zebra / "grid_mode" / "test.jsonl", ZEBRA_GRID)
    (zebra / "README.md").write_text("---\nconfigs:\n" + "".join(
        f"- config_name: {c}\n  data_files:\n  - split: test\n    path: {c}/test.jsonl\n" for c in ("mc_mode", "grid_mode")) + "---\n",
        encoding="utf-8")
    filler = [f"{1 + n % 9} {1 + n // 9 % 9} {1 + n // 81 % 9} 13" for n in range(900)]
    _write(cache / "test-time-compute" / "game-of-24" / "train.jsonl",
           [{"Rank": n, "Puzzles": p} for n, p in enumerate(filler + GAME24_KEPT + ["1 1 1 1", "2 2 2 2"], 1)])
    for task, (examples, _) in BBEH_DATA.items():
        path = cache / "data" / "bbeh" / task / "task.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"examples": [{"input": q, "target": t} for q, t in examples]}, indent=1), encoding="utf-8")


def _replies(abbr: str) -> list[str]:
    if abbr == "supergpqa":
        return SUPERGPQA_REPLIES
    if abbr == "._data_tabmwp_":
        return TABMWP_REPLIES
    if abbr == "zebralogic_mc":
        return ZEBRA_MC_REPLIES
    if abbr == "zebralogic_grid":
        return ZEBRA_GRID_REPLIES
    if abbr == "game24":
        return GAME24_REPLIES
    if abbr in BBEH_DATA:
        return BBEH_DATA[abbr][1]
    if abbr.startswith("korbench_mixed_"):
        return KOR_MIXED[abbr[len("korbench_mixed_"):]][1]
    return KOR_DATA[abbr[len("korbench_"):]][2]


def _datasets(case: str) -> list[dict[str, Any]]:
    rel, variable, kept = CASES[case]
    return [d for d in library_datasets(rel, variable) if kept is None or d["abbr"] in kept]


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the gen inferencer writes one (the references from OpenCompass's loader)."""
    from opencompass.utils import build_dataset_from_cfg, dataset_abbr_from_cfg

    for ds in _datasets(case):
        ds["abbr"] = dataset_abbr_from_cfg(ds)  # TabMWP's config names none
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


def _without_cache_path(value: Any) -> Any:
    """``value`` with the data folder's path (which mixed rows hold as ``base_path``) written ``$COMPASS_DATA_CACHE``."""
    if isinstance(value, dict):
        return {k: _without_cache_path(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_cache_path(v) for v in value]
    if isinstance(value, str):
        return value.replace(str(FIXTURES / "cache"), "$COMPASS_DATA_CACHE")
    return value


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
    from opencompass.utils import dataset_abbr_from_cfg

    try:
        for ds in _datasets(case):
            abbr = dataset_abbr_from_cfg(ds)
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
            out["datasets"][abbr] = _without_cache_path(jsonable(entry))
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


#: (response, answer, category, rule id, index) for KOR-Bench's answer matching
KOR_MATCHES: list[tuple[str, str, str, str, Any]] = [
    ("[[x = \\frac{1}{2}]]", "[[\\frac{1}{2}]]", "operation", "7", 18),
    ("[[ \\frac{1}{2} ]]", "[[\\frac{1}{2}]]", "operation", "7", 18),
    ("$\\boxed{x=3}$", "[[3]]", "operation", "7", 73),
    ("[[1 or 2]]", "[[1 or 2]]", "operation", "7", 152),
    ("[[\\left(1\\right)]]", "[[(1)]]", "operation", "7", 211),
    ("no answer", "[[5]]", "operation", "7", 18),
    ("[[x≥3, y≤-1.5]]", "y≤-1.5 and x≥3", "operation", "7", "178"),
    ("[[12, 7]]", "[[7 12]]", "operation", "24", 0),
    ("nothing", "[[ ]]", "operation", "25", 0),
    ("[[ab c]]", "[[cba]]", "operation", "18", 0),
    ("[[for]]", "[[for]]", "operation", "4", 0),
    ("[[a word]]", "[[word]]", "operation", "4", 0),
    ("[[Yes]]", "[[yes]]", "cipher", "1", 0),
    ("[ A ]", "[[A]]", "counterfactual", "2", 0),
    ("[[P;Q]]", "P;Q", "logic", "5", 0),
    ("[[ P; Q ]]", "[[P;Q]]", "logic", "5", 0),
    ("[[2.]]", "[[2]]", "logic", "3", 0),
    ("[[hello]]", "[[Hi,hello,hey]]", "puzzle", "2", 0),
    ("[[b]]", "[[abc]]", "puzzle", "4", 0),
    ("[[1, 3,2]]", "[[1,2,3]]", "puzzle", "5", 0),
    ("[[2 × 3 + 1 = 7]]", "[[2×3+1=7]]", "puzzle", "9", 0),
    ("[[2 + 3 × 1 = 7]]", "[[2×3+1=7]]", "puzzle", "9", 0),
    ("[[2*3+1]]", "[[2*3-1=5]]", "puzzle", "9", 0),
    ("[[abs(24)]]", "[[24]]", "puzzle", "10", 0),
    ("[[8*3]]", "[[3*8=24]]", "puzzle", "10", 0),
    ("[[3<<3]]", "[[3*3=9]]", "puzzle", "10", 0),
    ("[[(8/(3-8/3))]]", "[[8/(3-8/3)=24]]", "puzzle", "10", 0),
    ("[[3,8]]", "[[3 8]]", "puzzle", "18", 0),
    ("[[A-B]]", "[[AB]]", "puzzle", "12", 0),
    ("no brackets", "[[A]]", "puzzle", "12", 0),
]


SUPERGPQA_TEXTS = ["Answer: (C).", "answer : **D**", "The best option is $\\boxed{B}$:", "The final answer is: E", "ANSWER: j",
                   "Option A is wrong.\nB", "[D]:", "The answer isn't clear", "the answer is 40", "Answer 6", "x\nThe answer is Oxygen.",
                   "The answer is Oak or Rose", "", "The answer is: \\text{a.b}", "Answer:\n\nF"]


class _JudgeDataset:
    """What OpenCompass hands a judge's dict postprocessor: an object whose reader holds the test rows."""

    def __init__(self, rows: Any) -> None:
        self.reader = type("Reader", (), {"dataset": {"test": rows}})()


def _tabmwp_normalized() -> list[list[Any]]:
    """Per reply of TABMWP_REPLIES: the reply, its problem's test elements, the answer and reference as compared."""
    from opencompass.datasets.tabmwp import extract_prediction, normalize_answer

    out = []
    for reply, problem in zip(TABMWP_REPLIES, TABMWP_TEST.values()):
        unit = problem["unit"]
        out.append([reply, {"answer": problem["answer"], "unit": unit, "choices": problem["choices"]},
                    normalize_answer(extract_prediction(reply, problem["choices"]), unit).lower(),
                    normalize_answer(problem["answer"], unit).lower()])
    return out


def vectors() -> dict[str, Any]:
    from opencompass.datasets.korbench.korbench_utils import evaluate_response_vs_answer
    from opencompass.datasets.supergpqa.supergpqa import SuperGPQADataset, supergpqa_llmjudge_postprocess
    from opencompass.datasets.supergpqa.supergpqa_eval import extract_option_content, extract_option_labels

    rows = SuperGPQADataset.load("m-a-p/SuperGPQA", prompt_mode="zero-shot")
    output = {str(i): {"prediction": reply, "origin_prompt": [{"role": "HUMAN", "prompt": row["infer_prompt"]}],
                       "gold": row["answer_letter"]} for i, (reply, row) in enumerate(zip(SUPERGPQA_JUDGE, rows))}
    del output["3"]["gold"]  # a judged sample without gold: OpenCompass reads ''
    options = ["10", "40", "6", "Oxygen", "a.b", "Oak", "Rose"]
    from opencompass.datasets.bbeh import bbeh_freeform_postprocess, bbeh_mcq_postprocess
    from opencompass.datasets.game24 import Game24Evaluator
    from opencompass.datasets.omni_math import OmniMathDataset

    corpus = [json.loads(line)["text"] for line in (REPO / "tests" / "data" / "postprocess" / "opencompass_corpus" /
                                                    "replies.jsonl").read_text(encoding="utf-8").splitlines()]
    return {"korbench_match": [[r, a, c, rule, idx, evaluate_response_vs_answer(r, a, c, rule, idx)]
                               for r, a, c, rule, idx in KOR_MATCHES],
            "OmniMathDataset": OmniMathDataset.load().to_list(),
            "tabmwp_normalized": _tabmwp_normalized(),
            "game24_check": [[p, r, Game24Evaluator().check_nums(p, r)] for p, r in GAME24_EXPRESSIONS],
            "bbeh_postprocess": [[t, bbeh_mcq_postprocess(t), bbeh_freeform_postprocess(t)] for t in BBEH_TEXTS + corpus],
            "supergpqa_extract": [[t, options, extract_option_labels(t, "ABCDEFGHIJ"), extract_option_content(t, options)]
                                  for t in SUPERGPQA_TEXTS],
            "SuperGPQADataset_field": {"args": {"path": "m-a-p/SuperGPQA", "prompt_mode": "five-shot", "discipline": "Science",
                                                "field": "Mathematics"},
                                       "rows": SuperGPQADataset.load("m-a-p/SuperGPQA", prompt_mode="five-shot", discipline="Science",
                                                                     field="Mathematics").to_list()},
            "supergpqa_llmjudge_postprocess": {"output": output,
                                               "result": supergpqa_llmjudge_postprocess(output, "", _JudgeDataset(rows))}}


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
