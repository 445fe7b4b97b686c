"""The contract every registered evaluator keeps, checked over the whole ICL_EVALUATORS registry.

Empty input is the error record ``{'error': '<Name>: no samples to score'}``; one
sample gives numbers; shuffling the samples leaves the aggregate unchanged; the
result holds only numbers, ``details`` (one per sample) and the ``extraction``
record; an evaluator that declares ``sample_decomposable`` really splits into
per-sample parts.  An evaluator registered without an entry in ``INPUTS`` (or
in ``EXCLUDED`` with a reason) fails ``test_every_registered_evaluator_is_covered``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from assay.evaluate.base import BaseEvaluator
from assay.registry import ICL_EVALUATORS

Inputs = dict[str, Any]


def _choice(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice("ABCD") for _ in range(n)]
    preds = [r if rng.random() < 0.6 else rng.choice(["A", "B", "C", "D", ""]) for r in refs]
    return {"predictions": preds, "references": refs}


def _calm(rng: random.Random, n: int) -> Inputs:
    refs = [{"given_info": "X causes Y.", "question": "Does X affect Y?", "gt_answer": rng.choice(["yes", "no"])} for _ in range(n)]
    preds = [rng.choice(["Yes", "No", "The answer is no.", "maybe", "", "答案：是"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _text(rng: random.Random, n: int) -> Inputs:
    words = ["the", "cat", "sat", "on", "a", "mat", "while", "dog", "ran", "fast", "北京", "天安门"]
    refs = [" ".join(rng.choices(words, k=rng.randint(1, 8))) for _ in range(n)]
    preds = [" ".join(rng.choices(words, k=rng.randint(0, 8))) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _keywords(rng: random.Random, n: int) -> Inputs:
    words = ["苹果", "香蕉", "腾讯", "阿里"]
    refs = ["、".join(rng.sample(words, k=rng.randint(1, 3))) for _ in range(n)]
    preds = [rng.choice(["", "苹果和香蕉", "腾讯、阿里、苹果", r.replace("、", "")]) for r in refs]
    return {"predictions": preds, "references": refs}


def _numbers(rng: random.Random, n: int) -> Inputs:
    refs = [str(rng.randint(0, 50)) for _ in range(n)]
    preds = [r if rng.random() < 0.5 else str(rng.randint(0, 50)) for r in refs]
    return {"predictions": preds, "references": refs}


def _math_replies(rng: random.Random, n: int) -> Inputs:
    refs = [str(rng.randint(0, 20)) for _ in range(n)]
    preds = [f"so the answer is $\\boxed{{{r if rng.random() < 0.5 else rng.randint(0, 20)}}}$" for r in refs]
    return {"predictions": preds, "references": refs}


def _bbh(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["Yes", "No", "valid", "12"]) for _ in range(n)]
    preds = [f"So the answer is {r if rng.random() < 0.6 else 'No'}." for r in refs]
    return {"predictions": preds, "references": refs}


def _bbh_mcq(rng: random.Random, n: int) -> Inputs:
    # what the BBH configs hand it: letters, after bbh-mcq on both sides
    refs = [rng.choice("ABCD") for _ in range(n)]
    preds = [r if rng.random() < 0.6 else rng.choice(["A", "42", ""]) for r in refs]
    return {"predictions": preds, "references": refs}


def _mmlu_pro(rng: random.Random, n: int) -> Inputs:
    options = ["Paris", "Rome", "It rises. Then it falls", "12"]
    refs, preds = [], []
    for _ in range(n):
        k = rng.randrange(4)
        refs.append(f"{'ABCD'[k]}. {options[k]}\n")
        preds.append(rng.choice(["ABCD"[k], options[k], "B", f"({'ABCD'[k]})", ""]))
    return {"predictions": preds, "references": refs}


def _candidates(rng: random.Random, n: int) -> Inputs:
    answers = ["tea", "coffee", "water"]
    refs = [{"candidates": [[f"{L}. {a}", L, a] for L, a in zip("ABC", answers)], "label": rng.randrange(3)} for _ in range(n)]
    preds = [rng.choice(["I'd drink tea", "coffee, please", "B", "water!", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _em(rng: random.Random, n: int) -> Inputs:
    refs = [rng.sample(["Paris", "the Eiffel Tower", "Rome", "blue"], k=2) for _ in range(n)]
    preds = [rng.choice(["Paris.", "Eiffel Tower", "red", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _auc(rng: random.Random, n: int) -> Inputs:
    refs = [i % 2 for i in range(n)] if n != 1 else [1]
    preds = []
    for _ in range(n):
        p = round(rng.random(), 3)
        preds.append([1 - p, p])
    return {"predictions": preds, "references": refs}


def _circular(rng: random.Random, n: int) -> Inputs:
    rows, preds, refs = [], [], []
    rotations = ["ABCD", "BCDA", "CDAB", "DABC"]
    for i in range(n):
        qid, pattern = i // 4, rotations[i % 4]
        answer = pattern[rng.randint(0, 3)]
        rows.append({"qid": qid, "circular_pattern": list(pattern)})
        refs.append(answer)
        preds.append(answer if rng.random() < 0.7 else rng.choice("ABCD"))
    return {"predictions": preds, "references": refs, "test_set": rows}


def _ppl(rng: random.Random, n: int) -> Inputs:
    return {"ppl": [1 + 20 * rng.random() for _ in range(n)]}


def _mink(rng: random.Random, n: int) -> Inputs:
    return {"mink": [-5 * rng.random() for _ in range(n)]}


def _bpc(rng: random.Random, n: int) -> Inputs:
    return {"loss": [50 * rng.random() for _ in range(n)], "total_chr_num": [1000] * n}


def _inference_ppl(rng: random.Random, n: int) -> Inputs:
    return {"ppl": [50 * rng.random() for _ in range(n)], "token_len": [rng.randint(1, 40) for _ in range(n)]}


def _open_qa(rng: random.Random, n: int) -> Inputs:
    refs = [rng.sample(["Paris", "the Eiffel Tower", "Rome", "blue"], k=2) for _ in range(n)]
    preds = [rng.choice(["The answer is Paris.", "eiffel tower\nmore", "A: red", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _crowspairs(rng: random.Random, n: int) -> Inputs:
    # what crowspairs_postprocess gives: a letter or 'invalid'; the first reply is valid, so valid accuracy is defined
    preds = ["B"] + [rng.choice(["A", "B", "invalid"]) for _ in range(n - 1)]
    return {"predictions": preds[:n], "references": ["A"] * n}


def _lambada(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["Sarah", "him", "river", "a"]) for _ in range(n)]
    preds = [rng.choice(["Sarah, she said", " him and", "river's", "", "the"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _musr(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice([1, 2, 3]) for _ in range(n)]
    preds = [rng.choice(["ANSWER: 2", "Reasoning\nANSWER: (1) her", "answer: 3", "ANSWER: none", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _quality(rng: random.Random, n: int) -> Inputs:
    made = _choice(rng, n)
    # the first question easy: QuALITY's hard_acc divides by the number of easy ones
    return made | {"test_set": [{"difficult": 0 if i == 0 else rng.choice([0, 1])} for i in range(n)]}


def _korbench(rng: random.Random, n: int) -> Inputs:
    # single questions of every category; mixed tasks read their data folder (tests/evaluators/test_oc_reason_longtail.py)
    cases = [("cipher", "1", "[[BCD]]", ["[[ B C D ]]", "[[BCE]]", "none"]), ("counterfactual", "1", "[[A]]", ["[A]", "[[B]]"]),
             ("logic", "5", "[[X;Y]]", ["[[X; Y]]", "[[Y;X]]"]), ("operation", "7", "[[1 or 2]]", ["[[2 or 1]]", "[[1]]"]),
             ("puzzle", "10", "[[(1+2+3)*4=24]]", ["[[4*(1+2+3)]]", "[[4*(1+2)+3]]", ""])]
    made = [rng.choice(cases) for _ in range(n)]
    return {"predictions": [rng.choice(c[3]) for c in made], "references": [c[2] for c in made],
            "test_set": [{"prompt_mode": rng.choice(["0_shot", "3_shot"]), "category": c[0], "rule_id": c[1]} for c in made]}


def _bbeh(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["(A)", "yes", "a, b", "'one'", "4"]) for _ in range(n)]
    preds = [rng.choice(["The answer is: (A)", "The answer is: Yes", "The answer is: a ,b", "one", "\\boxed{4}", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _game24(rng: random.Random, n: int) -> Inputs:
    cases = [("4 4 6 8", ["(4 + 8) * (6 - 4) ", "4*4+6+8", "4 * 6"]), ("3 3 8 8", ["8/(3-8/3)", "8*3+3-8", ""])]
    made = [rng.choice(cases) for _ in range(n)]
    return {"predictions": [rng.choice(c[1]) for c in made], "references": [c[0] for c in made]}


def _zebra_grid(rng: random.Random, n: int) -> Inputs:
    gold = {"header": ["House", "Name"], "rows": [["1", "Alice"], ["2", "Bob"]]}
    preds = [rng.choice(["| House | Name |\n|---|---|\n| 1 | Alice |\n| 2 | Bob |", "| 1 | bob |\n| 2 | alice |", "Alice then Bob", ""])
             for _ in range(n)]
    return {"predictions": preds, "references": [gold] * n}


def _zebra_mc(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice("ABCD") for _ in range(n)]
    preds = [rng.choice(["The answer is: A", "**b**", "(C)", "D", "none", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _tabmwp(rng: random.Random, n: int) -> Inputs:
    cases = [({"answer": "$1.40", "unit": None, "choices": None}, ["The answer is $1.40.", "It is 1.5", ""]),
             ({"answer": "pear", "unit": None, "choices": ["apple", "pear"]}, ["(B)", "The answer is D", "apple"]),
             ({"answer": "12", "unit": "cm", "choices": None}, ["It will be 12 cm long.", "13 cm"])]
    made = [rng.choice(cases) for _ in range(n)]
    return {"predictions": [rng.choice(c[1]) for c in made], "references": [c[0] for c in made]}


def _supergpqa(rng: random.Random, n: int) -> Inputs:
    options = ["10", "40", "6", "25"]
    refs = [rng.choice("ABCD") for _ in range(n)]
    preds = [rng.choice(["Answer: A", "the answer is B", "The answer is 6", "(D)", "no idea", "", "Answer: $\\boxed{C}$"]) for _ in range(n)]
    rows = [{"prompt_mode": "zero-shot", "options": options, "difficulty": rng.choice(["easy", "middle", "hard"]), "answer_letter": r,
             "answer": options[ord(r) - 65]} for r in refs]
    return {"predictions": preds, "references": refs, "test_set": rows}


def _processbench(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice([-1, 0, 1, 2]) for _ in range(n)]
    preds = [rng.choice([f"\\boxed{{{r}}}" for r in (-1, 0, 1, 2)] + ["no box", "\\boxed{none}", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _s3eval(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["3", "x, y", "| a |\n| - |\n| 1 |\n| 2 |", "The Big Apple"]) for _ in range(n)]
    preds = [rng.choice(["3.0", "y,x", "| a |\n| - |\n| 2 |", "big apple", "", "nan"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _drop(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["14|fourteen", "Jones", "300"]) for _ in range(n)]
    preds = [rng.choice(["Answer: 14 yards", "Answer: Smith", "it was 300", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _ifeval(rng: random.Random, n: int) -> Inputs:
    ids = [("punctuation:no_comma", {}), ("change_case:english_lowercase", {}), ("keywords:existence", {"keywords": ["cat"]})]
    refs, preds = [], []
    for i in range(n):
        chosen = rng.sample(ids, k=rng.randint(1, 3))
        refs.append({"key": i, "prompt": "Write.", "instruction_id_list": [c[0] for c in chosen], "kwargs": [dict(c[1]) for c in chosen]})
        preds.append(rng.choice(["the cat sat", "The Cat, sat", "a dog ran", ""]))
    return {"predictions": preds, "references": refs, "origin_prompt": ["Write."] * n}


def _theoremqa(rng: random.Random, n: int) -> Inputs:
    rows = [rng.choice([("3.5", "float"), ("2", "integer"), ("True", "bool"), ("(b)", "option")]) for _ in range(n)]
    preds = [rng.choice(["3.5", "2", "True", "(b)", "7"]) for _ in range(n)]
    return {"predictions": preds, "references": [r[0] for r in rows], "test_set": [{"Answer_type": r[1]} for r in rows]}


def _livemath(rng: random.Random, n: int) -> Inputs:
    refs = [str(rng.randint(0, 9)) for _ in range(n)]
    preds = [f"\\boxed{{{r if rng.random() < 0.5 else 11}}}" for r in refs]
    rows = [{"question": "q", "question_type": "Problem-Solving", "subdivision": "LiveMathBench_en"} for _ in range(n)]
    return {"predictions": preds, "references": refs, "test_set": rows}


def _ruler(rng: random.Random, n: int) -> Inputs:
    pool = ["4821907", "amber-otter", "VAR QXTRB", "Zürich", "the blue house", "ñandú"]
    gold = [rng.sample(pool, k=rng.randint(1, 4)) for _ in range(n)]
    preds = [rng.choice(["", " and ".join(g), g[0].upper(), "none of them"]) for g in gold]
    return {"predictions": preds, "gold": gold}


def _babilong(rng: random.Random, n: int) -> Inputs:
    gold = [[rng.choice(["kitchen", "yes", "no", "apple,milk"])] for _ in range(n)]
    preds = [rng.choice(["", f"It is {g[0]}.", f"I think. {g[0]}", "maybe"]) for g in gold]
    return {"predictions": preds, "gold": gold}


def _needle_origin(rng: random.Random, n: int) -> Inputs:
    gold = [rng.choice(["\nThe city is Paris.\n*Paris", "Hidden: the code is 4821.*4821", "Ñandú runs fast.*Ñandú"]) for _ in range(n)]
    preds = [rng.choice(["It is Paris.", "the code is 482", "Ñandú", "", "The city is Pari"]) for _ in range(n)]
    return {"predictions": preds, "gold": gold}


def _needle_parallel(rng: random.Random, n: int) -> Inputs:
    # the depths come from the first sample's reference: every sample lists the same depths, as NeedleBench's do
    gold = [f"{a}*{b}#10*50" for a, b in (rng.sample(["Paris", "7", "Rome", "blue"], k=2) for _ in range(n))]
    preds = [rng.choice(["Paris and 7", "Rome", "blue, Paris", ""]) for _ in range(n)]
    return {"predictions": preds, "gold": gold}


def _needle_multi(rng: random.Random, n: int) -> Inputs:
    gold = [rng.choice(["Jack Smith*Jack Smith", "Ann*Ann Lee", "x*"]) for _ in range(n)]
    preds = [rng.choice(["It was Jack Smith", "jack", "ann lee", ""]) for _ in range(n)]
    return {"predictions": preds, "gold": gold}


def _atc(rng: random.Random, n: int) -> Inputs:
    gold = [rng.choice(["Jack Smith", "Ann Lee", "Zoë Ng"]) for _ in range(n)]
    preds = [g + " " if rng.random() < 0.5 else rng.choice(["None", "Ann Lee", ""]) for g in gold]
    return {"predictions": preds, "gold": gold}


def _circular_letters(rng: random.Random, n: int) -> Inputs:
    rotations = ["ABCD", "BCDA", "CDAB", "DABC"]
    refs, preds = [], []
    for i in range(n):
        pattern = rotations[i % 4]
        letter = "ABCD"[pattern.index("A")]  # the option that was A sits at this letter
        refs.append(f"{i // 4}--{letter}--{pattern}")
        preds.append(letter if rng.random() < 0.6 else rng.choice(["A", "B", "C", "D", "E", ""]))
    return {"predictions": preds, "references": refs}


def _endia(rng: random.Random, n: int) -> Inputs:
    refs = [[rng.choice(["HAMLET", "LAERTES", "OPHELIA"])] for _ in range(n)]
    preds = [rng.choice(['I think it is "Hamlet".', "Laertes", "OPHELIA!", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _retrievekv(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["a1-b2", "c3d4", "ñ5"]) for _ in range(n)]
    preds = [rng.choice(['The value is "a1-b2".', "c3d4x", "ñ5", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _mathcalc(rng: random.Random, n: int) -> Inputs:
    refs = [[4, 8, 7] for _ in range(n)]
    preds = [rng.choice(["[4, 8, 7]", "4, 9", "4 8", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _leval_em(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["baseball", "food", "Baseball"]) for _ in range(n)]
    preds = [rng.choice(["The first topic is baseball, then food", "food", "It was the baseball topic", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _mrcr(rng: random.Random, n: int) -> Inputs:
    import json

    gold = json.dumps({"answer": "xK2p# A poem about tapirs", "prefix": "xK2p#"})
    preds = [rng.choice(["xK2p# A poem about tapirs", "xK2p# A poem about otters", "A poem about tapirs", ""]) for _ in range(n)]
    return {"predictions": preds, "references": [gold] * n}


def _long_qa(rng: random.Random, n: int) -> Inputs:
    # LongBench/LV-Eval answer lists (LV-Eval's last one read as the answer keywords)
    refs = [rng.choice([["Paris", "Paris France"], ["the City of Paris", "City"], ["北京", "北京"], ["Ludwig van Beethoven", "Beethoven"]])
            for _ in range(n)]
    preds = [rng.choice(["Paris", "It is the city of Paris.", "北京是首都", "Beethoven wrote it", "Rome", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _long_code(rng: random.Random, n: int) -> Inputs:
    refs = [[rng.choice(["x = compute(y)", "return a + b", "print(x)"])] for _ in range(n)]
    preds = [rng.choice(["```\nx = compute(y)", "# add\nreturn a - b", "print(x)", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _long_count(rng: random.Random, n: int) -> Inputs:
    refs = [[str(rng.randint(1, 4))] for _ in range(n)]
    preds = [rng.choice(["There are 3 passages", "2 or 3", "none", "", "4"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _long_retrieval(rng: random.Random, n: int) -> Inputs:
    refs = [[f"Paragraph {rng.randint(1, 3)}"] for _ in range(n)]
    preds = [rng.choice(["Paragraph 1", "Paragraph 2 or Paragraph 3", "I don't know", ""]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _long_classes(rng: random.Random, n: int) -> Inputs:
    classes = ["Human", "Human being", "Location", "Numeric value"]
    refs = [{"answers": [rng.choice(classes)], "all_classes": classes} for _ in range(n)]
    preds = [rng.choice(["Human being", "Location", "Numeric value and Location", "", "Entity"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _long_v2(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice("ABCD") for _ in range(n)]
    preds = [r if rng.random() < 0.5 else rng.choice(["A", "B", ""]) for r in refs]
    rows = [{"difficulty": rng.choice(["easy", "hard"]), "length": rng.choice(["short", "medium", "long"])} for _ in range(n)]
    return {"predictions": preds, "references": refs, "test_set": rows}


def _gaokao(kind: str) -> Callable[[random.Random, int], Inputs]:
    """GAOKAO-Bench's references (one answer per sub-question) and raw replies."""

    def make(rng: random.Random, n: int) -> Inputs:
        refs: list[list[str]] = []
        for _ in range(n):
            if kind == "multi_choice":
                refs.append([rng.choice(["A", "BC", "ACD"])])
            elif kind == "multi_question_choice":
                refs.append(rng.choices("ABCD", k=rng.randint(1, 3)))
            elif kind == "five_out_of_seven":
                refs.append(rng.sample("ABCDEFG", 5))
            else:
                refs.append([rng.choice("ABCD")])
        preds = [rng.choice([f"【答案】{''.join(r)}", "".join(r), "B", "", "答案是 A 和 C", "【答案】D 【答案】B"]) for r in refs]
        return {"predictions": preds, "references": refs}

    return make


def _chem_names(rng: random.Random, n: int) -> Inputs:
    names = ["ethanol", "methanol", "benzene", "acetic acid"]
    refs = [f"<IUPAC> {rng.choice(names)} </IUPAC>" for _ in range(n)]
    preds = [r if rng.random() < 0.5 else rng.choice([f"<IUPAC>{rng.choice(names)}</IUPAC>", "no idea", ""]) for r in refs]
    return {"predictions": preds, "references": refs}


def _formulas(rng: random.Random, n: int) -> Inputs:
    formulas = ["C2H6O", "CH4", "NH4+", "H2O", "C6H6"]
    refs = [f"<MOLFORMULA> {rng.choice(formulas)} </MOLFORMULA>" for _ in range(n)]
    preds = [rng.choice([r, f"<MOLFORMULA>{rng.choice(formulas)}</MOLFORMULA>", "C2H5(OH)", "", "OC2H6"]) for r in refs]
    return {"predictions": preds, "references": refs}


def _number_tags(rng: random.Random, n: int) -> Inputs:
    refs = [f"<NUMBER> {rng.uniform(-5, 5):.2f} </NUMBER>" for _ in range(n)]
    preds = [rng.choice([f"\\boxed{{{rng.uniform(-5, 5):.2f}}}", f"<NUMBER>{rng.randint(-3, 3)}</NUMBER>", "no idea"]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _plain_numbers(rng: random.Random, n: int) -> Inputs:
    refs = [f"{rng.uniform(-1, 1):.4f}" for _ in range(n)]
    preds = [rng.choice([f"\\boxed{{{rng.uniform(-1, 1):.3f}}}", f"<NUMBER> {rng.randint(-1, 1)} </NUMBER>", ""]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _velocity_lists(rng: random.Random, n: int) -> Inputs:
    refs = [[round(rng.uniform(1, 4), 2) for _ in range(rng.randint(1, 4))] for _ in range(n)]
    preds = [rng.choice([str([v + 0.5 for v in r]), str(r[:-1]), "no list", str([1, 2])]) for r in refs]
    return {"predictions": preds, "references": refs}


def _yes_no(rng: random.Random, n: int) -> Inputs:
    refs = [rng.random() < 0.5 for _ in range(n)]
    preds = [rng.choice(["Yes", "No", "Answer: True", "It is not", "", "has"]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _proteins(rng: random.Random, n: int) -> Inputs:
    refs = ["".join(rng.choice("ACDEFGHIKLMNPQRSTVWY") for _ in range(rng.randint(4, 12))) for _ in range(n)]
    preds = [rng.choice([r, r[: len(r) // 2] + "WW", "", "GGGG"]) for r in refs]
    return {"predictions": preds, "references": refs}


def _peer_yes_no(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["Yes", "No"]) for _ in range(n)]
    preds = [rng.choice(["The answer is Yes", "It is not soluble", "", "maybe", "Yes"]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _band_gaps(rng: random.Random, n: int) -> Inputs:
    refs = [round(rng.uniform(0, 5), 2) for _ in range(n)]
    preds = [rng.choice([f"Answer: {rng.uniform(0, 5):.2f}", "no idea", f"The gap of GaAs is {rng.uniform(0, 3):.1f} eV"]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _boxed_yes_no(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["yes", "no", "positive", "negative", "tRNA"]) for _ in range(n)]
    preds = [rng.choice(["\\boxed{Yes}", "\\boxed{no}", "\\boxed{\\text{tRNA}}", "yes", ""]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _molecule_counts(rng: random.Random, n: int) -> Inputs:
    refs = [{"ring_count": rng.randint(0, 3)} for _ in range(n)]
    preds = [rng.choice([f'<answer>"ring count": {r["ring_count"]}</answer>', "<answer>2</answer>", "two", ""]) for r in refs]
    return {"predictions": preds, "references": refs}


def _atom_indices(rng: random.Random, n: int) -> Inputs:
    refs = [{"ring_index": sorted(rng.sample(range(8), 3))} for _ in range(n)]
    preds = [rng.choice([f'<answer>{{"ring atoms": {r["ring_index"]}}}</answer>', "<answer>0, 1, 2</answer>", "none"]) for r in refs]
    return {"predictions": preds, "references": refs}


def _molecule_constraints(rng: random.Random, n: int) -> Inputs:
    refs = [[{"type": "ring_count", "operator": ">=", "min_value": rng.randint(0, 2)},
             {"type": "functional_group_alcohol_count", "operator": "=", "value": rng.randint(0, 1)}] for _ in range(n)]
    preds = [rng.choice(['<answer>{"smiles": "OCC1CCCCC1"}</answer>', "<answer>c1ccccc1</answer>", "<answer>C1CC</answer>",
                         "CCO", ""]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _physics_answers(rng: random.Random, n: int) -> Inputs:
    refs = [[rng.choice(["\\frac{m v^2}{2}", "3.2 \\times 10^{-19}", "x^2 + 1"]), "Magnetism"] for _ in range(n)]
    preds = [rng.choice(["so \\boxed{\\frac{1}{2} m v^2}", "\\boxed{3.2e-19}", "\\boxed{x^2+2}", "no idea", ""])
             for _ in refs]
    return {"predictions": preds, "references": refs}


def _pos_neg(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["positive", "negative"]) for _ in range(n)]
    preds = [rng.choice(["positive", "negative", ""]) for _ in refs]
    return {"predictions": preds, "references": refs}


def _med_choice(columns: dict[str, Any], *, always_a_letter: bool = False) -> Callable[[random.Random, int], Inputs]:
    """The medical multiple-choice families: replies naming a letter somewhere (or none), rows as their loaders make them."""

    def make(rng: random.Random, n: int) -> Inputs:
        refs = [rng.choice("ABCD") for _ in range(n)]
        pool = ["A", "The answer is B.", "I understand. C", "(D) then A"] + ([] if always_a_letter else ["E", "", "none"])
        preds = [r if rng.random() < 0.4 else rng.choice(pool) for r in refs]
        rows = [dict(prompt_mode="zero-shot", options=["w", "x", "y", "z"], label=r, **columns) for r in refs]
        return {"predictions": preds, "references": refs, "test_set": rows}

    return make


def _multi_select(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["A", "A, C", "B, D", "A, B, C, D"]) for _ in range(n)]
    preds = [r if rng.random() < 0.4 else rng.choice(["A", "B, C", "", "D, A"]) for r in refs]
    return {"predictions": preds, "references": refs}


def _blanks(rng: random.Random, n: int) -> Inputs:
    refs = [rng.choice(["氮肥，磷肥", "水稻", "photosynthesis, respiration"]) for _ in range(n)]
    preds = [rng.choice(["正确答案：氮肥, 磷肥", "水稻", "", "photosynthesis", "小麦, 玉米, 大豆"]) for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _multiif(rng: random.Random, n: int) -> Inputs:
    turns = [(["punctuation:no_comma"], [{}]), (["change_case:english_lowercase"], [{"keywords": None}]),
             (["keywords:existence"], [{"keywords": ["wheat"]}])]
    refs = [{**{f"turn_{t}_instruction_id_list": ids for t, (ids, _) in enumerate(turns, 1)},
             **{f"turn_{t}_kwargs": kw for t, (_, kw) in enumerate(turns, 1)},
             **{f"turn_{t}_prompt": f"turn {t}" for t in (1, 2, 3)}} for _ in range(n)]
    preds = [[rng.choice(["wheat, rice", "wheat rice", "Wheat", "", "**wheat**"]) for _ in range(3)] for _ in range(n)]
    return {"predictions": preds, "references": refs}


def _arc_grids(rng: random.Random, n: int) -> Inputs:
    refs = [[[rng.randint(0, 9) for _ in range(2)] for _ in range(rng.randint(1, 3))] for _ in range(n)]
    preds = [rng.choice([f"The grid: {r}", "[[0]]", "no grid", str([row[::-1] for row in r]), "[[1, 2], [x]]"]) for r in refs]
    return {"predictions": preds, "references": refs}


def _pmmeval_choice(lang: str, labels: bool, strict: bool = False) -> Callable[[random.Random, int], Inputs]:
    def make(rng: random.Random, n: int) -> Inputs:
        letters = [rng.choice("ABCD") for _ in range(n)]
        refs: list[Any] = ["ABCD".index(x) for x in letters] if labels else letters
        forms = ['{{"answer": "{}"}}', "So the answer is {}.", "'answer': '{}'"] + ([] if strict else ["Maybe {} or B", "none"])
        preds = [(rng.choice(forms).format(x if rng.random() < 0.6 else rng.choice("ABCD")), lang) for x in letters]
        return {"predictions": preds, "references": refs}
    return make


def _pmmeval_flores(rng: random.Random, n: int) -> Inputs:
    data = _text(rng, n)
    return {"predictions": [(p, rng.choice(["French", "Chinese", "Thai"])) for p in data["predictions"]],
            "references": data["references"]}


def _pmmeval_mifeval(rng: random.Random, n: int) -> Inputs:
    rows = [rng.choice([{"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{"num_words": None}]},
                        {"instruction_id_list": ["length_constraints:number_words"], "kwargs": [{"relation": "at least", "num_words": 3}]},
                        {"instruction_id_list": ["startend:end_checker"], "kwargs": [{"end_phrase": "Done."}]}]) for _ in range(n)]
    preds = [(rng.choice(["one, two", "one two three. Done.", "", "短短的回答"]), rng.choice(["en", "zh"])) for _ in range(n)]
    return {"predictions": preds, "references": [None] * n, "test_set": rows}


def _cibench(rng: random.Random, n: int) -> Inputs:
    refs, steps, prompts = [], [], []
    for _ in range(n):
        tags = [rng.choice(["exec", "general"]) for _ in range(rng.randint(1, 4))]
        refs.append({"outputs": [None if t == "exec" else str(rng.randint(0, 9)) for t in tags], "tags": tags,
                     "metadata": {}, "experiment": "x.ipynb"})
        steps.append([[{"type": "IPythonInterpreter", "result": {"text": f"stdout:\n\n```\n{rng.randint(0, 9)}\n```"},
                        "errmsg": rng.choice([None, "NameError"])}] if rng.random() < 0.8 else [] for _ in tags])
        prompts.append(["q"] * len(tags))
    return {"predictions": [""] * n, "references": refs, "steps": steps, "origin_prompt": prompts}


@dataclass(frozen=True)
class Spec:
    make: Callable[[random.Random, int], Inputs]
    build: Callable[[], BaseEvaluator] | None = None
    #: why a single sample gives an error record instead of numbers, if it does
    single_sample_error: str = ""


INPUTS: dict[str, Spec] = {
    "AccEvaluator": Spec(_choice),
    "CIBenchStepEvaluator": Spec(_cibench),
    "AccwithDetailsEvaluator": Spec(_choice),
    "EMEvaluator": Spec(_em),
    "BBHEvaluator": Spec(_bbh),
    "BBHEvaluator_mcq": Spec(_bbh_mcq),
    "GPQAEvaluator": Spec(_choice),
    "MMLUProBaseEvaluator": Spec(_mmlu_pro),
    "AGIEvalEvaluator": Spec(_math_replies),
    "AGIEvalEvaluator_mcq": Spec(_choice),
    "EDAccEvaluator": Spec(_candidates),
    "BleuEvaluator": Spec(_text),
    "RougeEvaluator": Spec(_text),
    "JiebaRougeEvaluator": Spec(_text),
    "MccEvaluator": Spec(_choice),
    "AUCROCEvaluator": Spec(_auc, single_sample_error="ROC AUC is undefined"),
    "CircularEvaluator": Spec(_circular),
    "Gsm8kEvaluator": Spec(_numbers),
    "Math401Evaluator": Spec(_numbers),
    "ARCPrizeEvaluator": Spec(_arc_grids),
    "PMMEvalMGSMEvaluator": Spec(_numbers),
    "PMMEvalMMMLUEvaluator": Spec(_pmmeval_choice("EN-US", labels=False)),
    "PMMEvalMHellaswagEvaluator": Spec(_pmmeval_choice("en", labels=True)),
    "PMMEvalMLogiQAEvaluator": Spec(_pmmeval_choice("en", labels=True, strict=True)),
    "PMMEvalXNLIEvaluator": Spec(_pmmeval_choice("en", labels=False)),
    "PMMEvalFloresEvaluator": Spec(_pmmeval_flores),
    "PMMEvalMIFEvalEvaluator": Spec(_pmmeval_mifeval),
    "MGSM_Evaluator": Spec(_numbers),
    "MastermathDatasetv1Evaluator": Spec(_choice),
    "QuALITYEvaluator": Spec(_quality),
    "CharmReasonEvaluator": Spec(_choice),
    "ProcessBenchEvaluator": Spec(_processbench),
    "S3EvalEvaluator": Spec(_s3eval),
    "korbenchEvaluator": Spec(_korbench),
    "TabMWPEvaluator": Spec(_tabmwp),
    "ZebraLogicMCEvaluator": Spec(_zebra_mc),
    "ZebraLogicGridEvaluator": Spec(_zebra_grid),
    "Game24Evaluator": Spec(_game24),
    "BBEHEvaluator": Spec(_bbeh),
    "BBEHEvaluator_mcq": Spec(_bbeh),
    "SuperGPQAEvaluator": Spec(_supergpqa),
    "MATHEvaluator": Spec(_numbers),
    "MATHInternEvaluator": Spec(_numbers),
    "MATHVerifyEvaluator": Spec(_math_replies, build=lambda: ICL_EVALUATORS.get("MATHVerifyEvaluator")(workers=1)),
    "MathEEDEvaluator": Spec(_math_replies, build=lambda: ICL_EVALUATORS.get("MathEEDEvaluator")(workers=1)),
    "TriviaQAEvaluator": Spec(_open_qa),
    "NQEvaluator": Spec(_open_qa),
    "NQEvaluatorCN": Spec(_open_qa),
    "TydiQAEvaluator": Spec(_open_qa),
    "CrowspairsEvaluator": Spec(_crowspairs),
    "SQuAD20Evaluator": Spec(_open_qa),
    "LambadaEvaluator": Spec(_lambada),
    "MusrEvaluator": Spec(_musr),
    "OpenFinDataKWEvaluator": Spec(_keywords),
    "MedmcqaEvaluator": Spec(_med_choice({"subject_name": "Anatomy", "topic_name": None, "choice_type": "single"})),
    "MedXpertQAEvaluator": Spec(_med_choice({}, always_a_letter=True)),
    "MedbulletsEvaluator": Spec(_med_choice({"question_type": "step1"})),
    "NejmaibenchEvaluator": Spec(_med_choice({"Subject": "Cardiology"})),
    "F1ScoreEvaluator": Spec(_multi_select),
    "AverageRougeScoreEvaluator": Spec(_blanks),
    "AccScoreStr_Evaluator": Spec(_text),
    "MultiIFEvaluator": Spec(_multiif),
    "DropOpenAIEvaluator": Spec(_drop),
    "IFEvaluator": Spec(_ifeval),
    "TheoremQAEvaluatorV3": Spec(_theoremqa),
    "OlympiadBenchEvaluator": Spec(_numbers),
    "LiveMathBenchEvaluator": Spec(_livemath),
    "AveragePPLEvaluator": Spec(_ppl),
    "AverageMinKEvaluator": Spec(_mink),
    "BPCEvaluator": Spec(_bpc),
    "AverageInferencePPLEvaluator": Spec(_inference_ppl),
    "RulerNiahEvaluator": Spec(_ruler),
    "RulerVtEvaluator": Spec(_ruler),
    "RulerCweEvaluator": Spec(_ruler),
    "RulerFweEvaluator": Spec(_ruler),
    "RulerQaEvaluator": Spec(_ruler),
    "BabiLongEvaluator": Spec(_babilong),
    "NeedleBenchOriginEvaluator": Spec(_needle_origin),
    "NeedleBenchV2OriginEvaluator": Spec(_needle_origin),
    "NeedleBenchParallelEvaluator": Spec(_needle_parallel),
    "NeedleBenchMultiEvaluator": Spec(_needle_multi),
    "NeedleBenchATCEvaluator": Spec(_atc),
    "CircularLetterEvaluator": Spec(_circular_letters),
    "InfiniteBenchendiaEvaluator": Spec(_endia),
    "InfiniteBenchretrievekvEvaluator": Spec(_retrievekv),
    "InfiniteBenchmathcalcEvaluator": Spec(_mathcalc),
    "LEvalEMEvaluator": Spec(_leval_em),
    "MRCREvaluator": Spec(_mrcr),
    "LongBenchF1Evaluator": Spec(_long_qa),
    "LongBenchRougeEvaluator": Spec(_long_qa),
    "LongBenchCodeSimEvaluator": Spec(_long_code),
    "LongBenchCountEvaluator": Spec(_long_count),
    "LongBenchRetrievalEvaluator": Spec(_long_retrieval),
    "LongBenchClassificationEvaluator": Spec(_long_classes),
    "LongBenchv2Evaluator": Spec(_long_v2),
    "LVEvalF1Evaluator": Spec(_long_qa),
    "LVEvalOPTF1Evaluator": Spec(_long_qa),
    "LVEvalOPTRougeEvaluator": Spec(_long_qa),
    "NCExactMatchEvaluator": Spec(_chem_names),
    "NCElementMatchEvaluator": Spec(_formulas),
    "RMSEEvaluator": Spec(_number_tags),
    "MolInstructionsMAEEvaluator": Spec(_plain_numbers),
    "OpenSWIMSEEvaluator": Spec(_velocity_lists),
    "MatbenchEvaluator_regression": Spec(_band_gaps),
    "GUE_Evaluator": Spec(_pos_neg),
    "BiodataAccEvaluator": Spec(_boxed_yes_no),
    "MoleculariqCountEvaluator": Spec(_molecule_counts),
    "MoleculariqIndexEvaluator": Spec(_atom_indices),
    "MoleculariqGenerationEvaluator": Spec(_molecule_constraints),
    "CMPhysBenchEvaluator": Spec(_physics_answers),
    "MatbenchEvaluator_classification": Spec(_yes_no),
    "MatbenchEvaluator_classification_glass": Spec(_yes_no),
    **{f"GaokaoBenchEvaluator_{kind}": Spec(_gaokao(kind)) for kind in (
        "single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "cloze", "subjective", "correction")},
    "Opi_Evaluator": Spec(_choice, build=lambda: ICL_EVALUATORS.get("Opi_Evaluator")(task="Fold")),
    "CaLMEvaluator": Spec(_calm, build=lambda: ICL_EVALUATORS.get("CaLMEvaluator")(task="CORR-B_correlation_EN")),
    "KaoshiEvaluator": Spec(_gaokao("multi_choice"), build=lambda: ICL_EVALUATORS.get("KaoshiEvaluator")(question_type="multi_choice")),
    "Mol_Instructions_Evaluator_Protein_Design": Spec(_proteins),
    "PEERRuleEvaluator": Spec(_peer_yes_no),
    "PEER_Evaluator": Spec(_peer_yes_no, build=lambda: ICL_EVALUATORS.get("PEER_Evaluator")(task="stability")),
}

#: Registered evaluators checked elsewhere, with the reason.
EXCLUDED: dict[str, str] = {
    **{name: "needs the chem extra (RDKit, WordNet's files); its contract is checked in tests/evaluators/test_smolinstruct.py"
       for name in ("FTSEvaluator", "MolInstructionsFTSEvaluator", "MeteorEvaluator", "MolInstructionsMeteorEvaluator")},
    **{name: "needs the chem extra (SMACT) and, but for the unconditional one, its dataset's test file; "
             "checked in tests/evaluators/test_scireasoner_material.py"
       for name in ("uncond_material_Evaluator", "composition_Evaluator", "material_Evaluator")},
    "MP20Evaluator": "needs the chem extra (pymatgen) and matches structures in a worker process; checked in tests/evaluators/test_mp20.py",
    "S2TOMGBenchEvaluator": "its references are task records (constraints, source molecules) and it needs the chem extra (RDKit); "
                            "checked in tests/evaluators/test_s2_tomg_bench.py",
    **{name: "returns None where a metric is undefined and extras that are not numbers (invalid_examples, target_metrics), "
             "as OpenCompass's; checked in tests/evaluators/test_scireasoner1_5.py"
       for name in ("SciReasoner15MaterialEvaluator", "SciReasoner15GOEvaluator", "SciReasoner15TMScoreEvaluator",
                    "SciReasoner15DudeEvaluator")},
    **{name: "needs the chem extra (RDKit); its metrics depend on the task and are NaN where undefined, and it writes no "
             "details, as OpenCompass's; checked in tests/evaluators/test_scireasoner_llm4chem.py"
       for name in ("LLM4Chem_Evaluator", "RetrosynthesisEvaluator")},
    "Mol_Instructions_Evaluator_Mol": "needs the chem extra (RDKit, SELFIES) or SciBERT's vocabulary; its metrics depend on the "
                                      "task and are NaN where undefined, and it writes no details, as OpenCompass's; "
                                      "checked in tests/evaluators/test_scireasoner_mol_instructions.py",
    "Mol_Instructions_Evaluator_Protein": "RougeEvaluator under another name (its task changes nothing), checked as "
                                          "RougeEvaluator here and in tests/evaluators/test_scireasoner_protein.py",
    **{name: "corpus-level correlations (NaN or infinity where undefined, an error for a key with a single read "
             "value) or a float32 Fmax over the batch, on references of its own kinds (numbers, records of numbers, "
             "EC numbers, labels), as OpenCompass's; checked in tests/evaluators/test_biodata.py"
       for name in ("BiodataAucEvaluator", "BiodataECNumberEvaluator", "BiodataMCCEvaluator", "BiodataMixedScoreEvaluator",
                    "BiodataPCCEvaluator", "BiodataR2Evaluator", "BiodataSpearmanEvaluator")},
    "LLM4Mat_Evaluator": "its metrics are None where undefined and it writes no details, as OpenCompass's; "
                         "checked in tests/evaluators/test_scireasoner.py",
    **{name: "reads the options of each question from its dataset's table; checked in tests/evaluators/test_sci_exams.py"
       for name in ("ProteinLMBenchEvaluator", "SciKnowEvalEvaluator")},
    **{name: "its references are NPHardEval's instances ('<level>####\\n<instance>') and its metric is weighted by level; "
             "checked in tests/evaluators/test_oc_nphardeval.py"
       for name in ("HardGCPEvaluator", "Hard_TSP_Evaluator", "Hard_MSP_Evaluator", "CMP_GCP_D_Evaluator", "CMP_TSP_D_Evaluator",
                    "CMP_KSP_Evaluator", "P_BSP_Evaluator", "P_EDP_Evaluator", "P_SPP_Evaluator")},
    "PILLMEvaluator": "reads each sample's experiment and n_updates from its test set's rows; "
                      "checked in tests/evaluators/test_oc_pi_llm.py",
    "SRbenchDatasetEvaluator": "reads each formula's points (300 or more) from its test set's rows and runs every answer "
                               "in the sandbox; checked in tests/evaluators/test_oc_srbench.py",
    "needlebench_atc_evaluator": "the name OpenCompass's configs also use for NeedleBenchATCEvaluator, checked under that name",
    "CascadeEvaluator": "composes a rule evaluator with an LLM judge; needs a judge server",
    "AssayCascadeEvaluator": "the cascade with the verdict read by the judge's postprocessor; needs a judge server",
    "GenericLLMEvaluator": "needs an LLM judge server",
    "AssayGenericLLMEvaluator": "GenericLLMEvaluator applying its pred_postprocessor once; needs an LLM judge server",
    "LMEvaluator": "needs an LLM judge server",
    "ATLASLLMEvaluator": "asks several LLM judges per sample; tests/evaluators/test_rubric_judged.py",
    "GaoKaoMATHEvaluator": "asks a model served at its url to grade each answer; tests/evaluators/test_judged_qa.py",
    "FakeAlignmentJudgeEvaluator": "asks the judge of its judge_model_cfg about each question's three rows; "
                                   "tests/evaluators/test_fake_alignment.py",
    "HealthBenchEvaluator": "asks the OC_JUDGE_* grader about each rubric item; tests/evaluators/test_healthbench.py",
    "HumanEvalEvaluator": "executes code in the sandbox",
    "HumanEvalPlusEvaluator": "executes code in the sandbox",
    "MBPPEvaluator": "executes code in the sandbox",
    "MBPPPassKEvaluator": "executes code in the sandbox",
    "LCBCodeGenerationEvaluator": "executes code in the sandbox",
    "LCBCodeExecutionEvaluator": "executes code in the sandbox",
    "LCBTestOutputEvaluator": "executes code in the sandbox",
    "CRUXEvalOEvaluator": "executes code in the sandbox; tests/evaluators/test_cruxeval.py",
    "HumanevalXEvaluator": "compiles and runs programs in the sandbox; tests/evaluators/test_humanevalx.py",
    "HumanevalMultiEvaluator": "compiles and runs programs in the sandbox; tests/evaluators/test_humaneval_multi.py",
    "MultiplEEvaluator": "compiles and runs programs in the sandbox; tests/evaluators/test_multipl_e.py",
    "PMMEvalHumanEvalXLEvaluator": "compiles and runs programs in the sandbox; tests/evaluators/test_pmmeval_humanevalxl.py",
    "BigCodeBenchEvaluator": "runs unit tests in the sandbox; tests/evaluators/test_bigcodebench.py",
    "DS1000Evaluator": "runs problems' checks in the sandbox; tests/evaluators/test_ds1000.py",
    "SciCodeEvaluator": "runs each step's tests in the sandbox against HDF5 test data; tests/evaluators/test_scicode.py",
    "HumanevalProEvaluator": "runs programs in the sandbox; tests/evaluators/test_code_pro.py",
    "MBPPProEvaluator": "runs programs in the sandbox; tests/evaluators/test_code_pro.py",
    "DS1000ServiceEvaluator": "runs problems' checks in the sandbox; tests/evaluators/test_ds1000.py",
    "DS1000InterpreterEvaluator": "agent runs (a 'steps' field); no per-sample details, as in OpenCompass; tests/evaluators/test_ds1000.py",
    "LCEvaluator": "executes code in the sandbox; tests/evaluators/test_lcbench.py",
    "LCPassKEvaluator": "executes code in the sandbox; tests/evaluators/test_lcbench.py",
    "APPSEvaluator": "executes code in the sandbox; tests/evaluators/test_apps_taco.py",
    "TACOEvaluator": "executes code in the sandbox; tests/evaluators/test_apps_taco.py",
    "CodeEvaluator": "executes code in a sandbox service",
    "JudgerBenchEvaluator": "a judge model's verdicts against human labels, with per-subset correlations (not per-sample); OpenCompass's numbers recorded in tests/subjective/test_judgerbench.py",
    "ELBenchChoiceEvaluator": "OpenCompass's ELBench metrics and error records, recorded in tests/subjective/test_elbench.py",
    "ELBenchMathEvaluator": "OpenCompass's ELBench metrics and error records, recorded in tests/subjective/test_elbench.py",
    "Gsm8kAgentEvaluator": "agent runs (a 'steps' field); no per-sample details, as in OpenCompass; tests/evaluators/test_mathqa_units.py",
    "MATHAgentEvaluator": "agent runs (a 'steps' field); no per-sample details, as in OpenCompass; tests/evaluators/test_math_intern_agent.py",
    "AccContaminationEvaluator": "a contamination group without rows scores NaN, as in OpenCompass; tests/evaluators/test_family_evaluators.py",
    "AccDropEvaluator": "AdvGLUE's attacked examples then their originals: the two halves are the input, so shuffling or one "
                        "sample changes what is compared, as in OpenCompass; tests/evaluators/test_advglue.py",
    "ToxicEvaluator": "needs the Perspective API (a local server in tests/evaluators/test_toxic.py); no per-sample details, as in OpenCompass",
}

COVERED = sorted(name for name in ICL_EVALUATORS.names() if name in INPUTS)


def _build(name: str) -> BaseEvaluator:
    spec = INPUTS[name]
    return spec.build() if spec.build else ICL_EVALUATORS.get(name)()


def _evaluate(name: str, inputs: Inputs) -> dict[str, Any]:
    return _build(name).evaluate(k=1, n=1, original_dataset=None, **inputs)


def _metrics(result: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in result.items() if k not in ("details", "extraction", *LIST_METRICS)}


#: Metrics that are lists of numbers, under OpenCompass's keys (BLEU's n-gram statistics).
LIST_METRICS = {"counts", "totals", "precisions"}
#: Evaluators whose aggregate depends on sample order, as OpenCompass's does (ROUGE's
#: bootstrap resamples sample indices).
ORDER_DEPENDENT = {"RougeEvaluator"}


def _shuffled(inputs: Inputs, seed: int) -> Inputs:
    n = len(next(iter(inputs.values())))
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return {k: [v[i] for i in order] if isinstance(v, list) else v for k, v in inputs.items()}


def _check_shape(result: dict[str, Any], inputs: Inputs, n: int) -> None:
    for key, value in result.items():
        if key == "details":
            assert isinstance(value, list) and len(value) == n
            assert all(isinstance(d, dict) for d in value)
        elif key == "extraction":
            assert value["total"] == n and 0 <= value["unextracted"] <= n
        elif key in LIST_METRICS:
            assert isinstance(value, list) and all(isinstance(v, (int, float)) for v in value), f"{key}={value!r}"
        else:
            assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{key}={value!r} is not a number"
            assert math.isfinite(value), f"{key}={value!r}"
    assert ("extraction" in result) == ("predictions" in inputs)


def _builtin_names() -> set[str]:
    """Evaluators that assay itself ships (tests and plugins may register others)."""
    return {name for name, obj in ICL_EVALUATORS.items() if getattr(obj, "__module__", "").startswith("assay.")}


def test_every_registered_evaluator_is_covered() -> None:
    names = _builtin_names()
    uncovered = sorted(names - set(INPUTS) - set(EXCLUDED))
    assert not uncovered, f"registered evaluators without contract inputs or an exclusion reason: {uncovered}"
    assert set(INPUTS) <= names, sorted(set(INPUTS) - names)


@pytest.mark.parametrize("name", COVERED)
def test_empty_input_is_an_error_record(name: str) -> None:
    inputs = INPUTS[name].make(random.Random(0), 0)
    assert _evaluate(name, inputs) == {"error": f"{name}: no samples to score"}


@pytest.mark.parametrize("name", COVERED)
def test_single_sample(name: str) -> None:
    inputs = INPUTS[name].make(random.Random(1), 1)
    result = _evaluate(name, inputs)
    reason = INPUTS[name].single_sample_error
    if reason:
        assert set(result) == {"error"} and name in result["error"] and reason in result["error"]
        return
    assert "error" not in result, result
    _check_shape(result, inputs, 1)
    assert _metrics(result)


def _slow_evaluators(names: list[str]) -> list[Any]:
    """MATHVerifyEvaluator, MathEEDEvaluator and CMPhysBenchEvaluator start worker processes for every evaluation: slow
    where they evaluate many times."""
    slow = ("MATHVerifyEvaluator", "MathEEDEvaluator", "CMPhysBenchEvaluator")
    return [pytest.param(n, marks=pytest.mark.slow) if n in slow else n for n in names]


@pytest.mark.parametrize("name", _slow_evaluators([n for n in COVERED if n not in ORDER_DEPENDENT]))
def test_aggregate_ignores_sample_order(name: str) -> None:
    inputs = INPUTS[name].make(random.Random(2), 24)
    base = _evaluate(name, inputs)
    assert "error" not in base, base
    _check_shape(base, inputs, 24)
    for seed in (1, 2):
        again = _evaluate(name, _shuffled(inputs, seed))
        assert _metrics(again) == pytest.approx(_metrics(base), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", _slow_evaluators([n for n in COVERED if ICL_EVALUATORS.get(n).sample_decomposable]))
def test_sample_decomposable_evaluators_merge_exactly(name: str) -> None:
    inputs = INPUTS[name].make(random.Random(3), 24)
    whole = _metrics(_evaluate(name, inputs))
    parts = [_metrics(_evaluate(name, {k: v[lo:hi] for k, v in inputs.items()})) for lo, hi in ((0, 10), (10, 24))]
    for key, value in whole.items():
        merged = (parts[0][key] * 10 + parts[1][key] * 14) / 24
        assert merged == pytest.approx(value, rel=1e-9), key


@pytest.mark.parametrize("name", _slow_evaluators([n for n in COVERED if ICL_EVALUATORS.get(n).sample_decomposable]))
def test_sample_sums_give_the_whole_to_the_last_bit(name: str) -> None:
    # splitting never changes a bit: every metric from the declared per-sample sums of
    # uneven parts (7, 10 and 7 samples) equals the whole evaluation's exactly, not approximately
    from assay.tasks.shards import ShardPart, exact_metrics, shard_sums

    declared = ICL_EVALUATORS.get(name).sample_sums
    for seed in range(4):
        inputs = INPUTS[name].make(random.Random(seed), 24)
        whole = _metrics(_evaluate(name, inputs))
        parts = []
        for lo, hi in ((0, 7), (7, 17), (17, 24)):
            sliced = {k: v[lo:hi] for k, v in inputs.items()}
            result = _evaluate(name, sliced)
            parts.append(ShardPart(result, hi - lo, sums=shard_sums(result.get("details"), declared, 1, False, [], sliced)))
        exact = exact_metrics(parts, declared, 1, 1)
        assert set(exact) == set(whole), "every metric of a split evaluator is declared in sample_sums"
        for key, value in whole.items():
            assert exact[key] == value and type(exact[key]) is type(value), (seed, key, exact[key], value)


@pytest.mark.parametrize("name", COVERED)
def test_details_carry_correctness_where_defined(name: str) -> None:
    inputs = INPUTS[name].make(random.Random(4), 8)
    result = _evaluate(name, inputs)
    details = result.get("details")
    outcome = getattr(ICL_EVALUATORS.get(name), "sample_outcome", None)
    if name in {"BleuEvaluator", "RougeEvaluator", "JiebaRougeEvaluator"}:
        assert details and all("correct" not in d for d in details)  # no correctness for overlap metrics
    elif outcome is not None and outcome.scores and outcome.correct is None:
        # partial credit (edit distance, keyword share, similarity): each sample carries its declared score
        fields = set(outcome.scores.values())
        assert details and all(fields <= set(d) for d in details)
    elif name == "NeedleBenchParallelEvaluator":
        # one metric per depth, summed over the samples: each sample carries how many of its needles it found
        assert details and all("matched" in d for d in details)
    elif name in {"GaokaoBenchEvaluator_cloze", "GaokaoBenchEvaluator_subjective", "GaokaoBenchEvaluator_correction"}:
        assert result["score"] == 0 and details is None  # OpenCompass does not read these replies: 0, without details
    elif name == "MultiIFEvaluator":
        assert details is None  # per-turn rates only, as OpenCompass's
    elif name == "CIBenchStepEvaluator":
        # means over notebook steps: each notebook carries its steps' scores, no verdict of its own
        assert details and all(len(d["steps"]) == len(d["executable"]) == len(d["tool_rate"]) for d in details)
    elif outcome is not None and outcome.correct not in (None, "correct", "is_correct"):
        # a verdict under the evaluator's own name (ProcessBench's 'match'), as its declared outcome says
        assert details and all(outcome.correct in d for d in details)
    elif "predictions" in inputs:
        # the verdict under the usual keys, or under the key the evaluator declares (OpenCompass's `score`)
        keys = ("correct", "is_correct", *([outcome.correct] if outcome is not None and outcome.correct else []))
        assert details and all(any(k in d for k in keys) for d in details)
    else:
        assert details is None  # likelihood statistics have no per-sample verdict
