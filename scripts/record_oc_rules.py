"""Record OpenCompass 0.5.4's verdicts where it runs a reply as Python (KOR-Bench, the Game of 24) or times its searches (SuperGPQA).

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_rules.py

KOR-Bench's puzzle rules 9 and 10 evaluate the reply's expression with
Python's ``eval``, the Game of 24 with SymPy's ``simplify``: the replies here
name builtins, SymPy's functions, the names OpenCompass's comparison holds and
powers too large for a safe arithmetic, each with OpenCompass's own function
(``evaluate_response_vs_answer``, ``Game24Evaluator.check_nums``) and its
evaluators' ``score`` on a batch of them.  SuperGPQA's answer searches are
recorded on replies with runs of marks that make them backtrack, short (the
searches end within OpenCompass's five-second limit) and long (past it), and
on replies with runs of opening marks before an answer and closing marks after
it whose cost together is clearly below or clearly past the limit (a few
minutes of searches timing out).  It writes
``tests/data/oc_families/reason_longtail/python_vectors.json``;
``tests/evaluators/test_oc_rules.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _oc_recording import write_json

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "data" / "oc_families" / "reason_longtail" / "python_vectors.json"

#: (reply, answer, category, rule id, question index) for ``evaluate_response_vs_answer``.
KOR_CASES = [
    ("[[abs(-24)]]", "[[abs(-24)=24]]", "puzzle", "10", 0),
    ("[[int('24')]]", "[[int('24')=24]]", "puzzle", "10", 0),
    ("[[round(23.6)]]", "[[round(23.6)=24]]", "puzzle", "10", 0),
    ("[[2**100000//2**99997*3]]", "[[2**100000//2**99997*3=24]]", "puzzle", "10", 0),
    ("[[sp.Integer(24)]]", "[[sp.Integer(24)=24]]", "puzzle", "10", 0),
    ("[[len(response_ops)*2]]", "[[len(response_ops)*2=24]]", "puzzle", "10", 0),
    ("[[abs()]]", "[[abs()=24]]", "puzzle", "10", 0),
    ("[[48/2]]", "[[48/2=24]]", "puzzle", "10", 0),
    ("[[(1+2+3)*4]]", "[[(1+2+3)*4=24]]", "puzzle", "10", 0),
    ("[[expected_result+0]]", "[[3+4=7]]", "puzzle", "9", 0),
    ("[[abs(-3)+4]]", "[[3+4=7]]", "puzzle", "9", 0),
    ("[[2**3*3=24]]", "[[2**3*3=24]]", "puzzle", "9", 0),
    ("[[max(3,4)+3=7]]", "[[3+4=7]]", "puzzle", "9", 0),
    ("[[2**20000-2**20000+7=7]]", "[[2**2-2**2+7=7]]", "puzzle", "9", 0),
    ("[[3+4]]", "[[3+4=7]]", "puzzle", "9", 0),
]

#: (answer, puzzle) for ``Game24Evaluator.check_nums``.
GAME24_CASES = [
    ("abs(-24)", "24"), ("Abs(-24)", "24"), ("sqrt(576)", "576"), ("x*24/x", "24"), ("factorial(4)", "4"),
    ("(2^(1/2))^2*12", "2 1 2 2 12"), ("pi*0+24", "0 24"), ("E**0*24", "0 24"), ("2**100000/2**99997*3", "2 100000 2 99997 3"),
    ("lambda: 24", "24"), ("24.0", "24"), ("(4+8)*(6-4)", "4 4 6 8"), ("4!", "4"), ("ceiling(23.5)", "23 5"),
    ("x + 24", "24"), ("Rational(48, 2)", "48 2"),
]


#: Replies on which SuperGPQA's answer searches backtrack through runs of marks: short runs (the searches end
#: within OpenCompass's five seconds) and long ones (they run past it and find nothing).
SUPERGPQA_SHAPES = [
    "Answer: A" + "}" * 12 + "x Answer: B", "Answer: A" + "}" * 18 + "x Answer: B",
    "The answer is " + "$" * 16 + "x The answer is C", "The answer is " + "$" * 26 + "x The answer is C",
    "*" * 30 + "\nThe answer is D", "The answer is " + "*" * 30 + "B**", "Answer: " + "(" * 30 + "x\nAnswer: (E)",
    "Answer: 40" + "]" * 18 + "x Answer: 10",
]


#: Runs of ``o`` opening marks before an answer and ``c`` closing marks after it, which together make SuperGPQA's
#: letter search backtrack: (o, c) whose cost is clearly below OpenCompass's five seconds (a score o/22 + c/16 of
#: at most 0.8: well under a second) or clearly past it (at least 1.2: a minute or more), none near the boundary,
#: so that the recorded verdicts do not depend on the recording machine's speed.
SUPERGPQA_RUNS = [(o, c) for o in (4, 8, 12, 16, 20) for c in (2, 6, 10, 14) if not 0.8 < o / 22 + c / 16 < 1.2]
#: Each run as a reply alone and followed by a later answer that a search ending in time would find.
SUPERGPQA_COMBINED = [f"Answer: {'(' * o}A{'}' * c}x{tail}" for o, c in SUPERGPQA_RUNS for tail in ("", " Answer: B")]


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def main() -> None:
    from opencompass.datasets.game24 import Game24Evaluator
    from opencompass.datasets.korbench.korbench import korbenchEvaluator
    from opencompass.datasets.korbench.korbench_utils import evaluate_response_vs_answer
    from opencompass.datasets.supergpqa.supergpqa_eval import extract_option_content, extract_option_labels

    rows = [{"prompt_mode": "0_shot", "category": c, "rule_id": rule} for _, _, c, rule, _ in KOR_CASES]
    korbench = korbenchEvaluator().score([r for r, *_ in KOR_CASES], [a for _, a, *_ in KOR_CASES], rows)
    game24 = Game24Evaluator()
    record = {
        "korbench_match": [[r, a, c, rule, idx, evaluate_response_vs_answer(r, a, c, rule, idx)] for r, a, c, rule, idx in KOR_CASES],
        "korbench_score": {"predictions": [r for r, *_ in KOR_CASES], "references": [a for _, a, *_ in KOR_CASES],
                           "test_set": rows, "result": korbench},
        "game24_check": [[p, r, game24.check_nums(p, r)] for p, r in GAME24_CASES],
        "game24_score": {"predictions": [p for p, _ in GAME24_CASES], "references": [r for _, r in GAME24_CASES],
                         "result": game24.score([p for p, _ in GAME24_CASES], [r for _, r in GAME24_CASES])},
        "supergpqa_shapes": [[t, ["10", "40"], extract_option_labels(t, "ABCDEFGHIJ"), extract_option_content(t, ["10", "40"])]
                             for t in SUPERGPQA_SHAPES],
        "supergpqa_combined": [[t, ["10", "40"], extract_option_labels(t, "ABCDEFGHIJ"), extract_option_content(t, ["10", "40"])]
                               for t in SUPERGPQA_COMBINED],
    }
    write_json(OUT, _jsonable(record))
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
