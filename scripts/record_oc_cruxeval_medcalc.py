"""Record what OpenCompass 0.5.4's CRUXEval-O and MedCalc-Bench scoring computes on small hand-made cases.

Run it with a Python that has opencompass==0.5.4 installed (OpenCompass is not a
dependency of assay)::

    python scripts/record_oc_cruxeval_medcalc.py [--out FILE]

For CRUXEval-O, ``CRUXEvalOEvaluator().score`` on a few samples (right, wrong,
echoing the call, several candidates, syntax errors); for MedCalc-Bench,
``extract_answer`` and ``check_correctness`` on replies of every output type,
and ``MedCalcOfficial_Evaluator().score`` on them.  An exception is recorded as
its type's name.  The results go to
``tests/data/evaluators/opencompass_cruxeval_medcalc.json``, which
``tests/evaluators/test_cruxeval.py`` and ``tests/evaluators/test_medcalc.py``
compare assay's namesakes with.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "evaluators" / "opencompass_cruxeval_medcalc.json"

CRUX_ROWS = [
    {"id": "sample_0", "code": "def f(x):\n    return [v * 2 for v in x]", "input": "[1, 2]", "output": "[2, 4]"},
    {"id": "sample_1", "code": "def f(s):\n    return s.upper() + '!'", "input": "'ab'", "output": "'AB!'"},
    {"id": "sample_2", "code": "def f(d):\n    return sorted(d.items())", "input": "{'b': 1, 'a': 2}", "output": "[('a', 2), ('b', 1)]"},
    {"id": "sample_3", "code": "def f(n):\n    return n / 2", "input": "3", "output": "1.5"},
]
CRUX_CASES = [
    ["[2, 4]", "'AB!'", "[('a', 2), ('b', 1)]", "1.5"],
    ["[2, 4, 6]", "'ab!'", "[['a', 2], ['b', 1]]", "3 / 2"],
    ["f([1, 2])", ["'x'", "'AB!'"], "[('a', 2), ('b', 1)", "0 or True"],
    [["f([1, 2])", "[2, 4]"], "'AB' + '!'", "sorted({'b': 1, 'a': 2}.items())", "1.50"],
]

# (calculator id, reply, ground truth, lower limit, upper limit)
MEDCALC = [
    (13, '{"step_by_step_thinking": "add 280 days", "answer": "3/5/2024"}', "03/05/2024", "03/05/2024", "03/05/2024"),
    (68, '{"answer": "13/40/2023"}', "01/02/2023", "01/02/2023", "01/02/2023"),
    (69, '{"answer": "(2 weeks, 3 days)"}', "(2 weeks, 3 days)", "(2, 3)", "(2, 3)"),
    (69, '{"answer": "[\'4 weeks\', \'0 days\']"}', "('4 weeks', '1 days')", "(4, 1)", "(4, 1)"),
    (69, '{"answer": "two weeks"}', "(2, 0)", "(2, 0)", "(2, 0)"),
    (4, '{"answer": "3 out of 5 criteria"}', "3", "3", "3"),
    (15, '{"answer": "1, 2, 3"}', "3", "3", "3"),
    (16, '{"answer": "score is 4.6"}', "5", "5", "5"),
    (17, '{"answer": "none"}', "0", "0", "0"),
    (2, '{"answer": "str(140 - 60)"}', "80", "76", "84"),
    (3, '{"answer": "str(sqrt(16) * 2.5)"}', "10", "9.5", "10.5"),
    (5, '{"answer": "8.1 mL/min/1.73 m2"}', "8.0", "7.6", "8.4"),
    (6, '{"answer": "53.1%"}', "0.53", "0.5", "0.56"),
    (7, '{"answer": "about 11.1 or 12.3"}', "12.0", "11.4", "12.6"),
    (8, '{"answer": "str(70 kg / (1.75 ^ 2))"}', "22.86", "21.7", "24.0"),
    (9, '{"answer": "str(__import__(\'os\').getpid())"}', "1", "0.9", "1.1"),
    (10, '{"answer": "str(np.log(2.718281828))"}', "1.0", "0.95", "1.05"),
    (11, '{"answer": "X.XX"}', "1.0", "0.95", "1.05"),
    (19, "no json here", "1.0", "0.95", "1.05"),
    (99, '{"answer": "1"}', "1", "1", "1"),
]

MEDCALC_COLUMNS = {
    "row_number": lambda i, c: i + 1, "calculator_name": lambda i, c: f"calc {c[0]}", "category": lambda i, c: "lab",
    "note_id": lambda i, c: f"n{i}", "patient_note": lambda i, c: "note", "question": lambda i, c: "q",
    "ground_truth_explanation": lambda i, c: "e",
}


def _call(fn: Any, *args: Any) -> Any:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return fn(*args)
    except Exception as exc:
        return {"raised": type(exc).__name__}


def record() -> dict[str, Any]:
    from opencompass.datasets.cruxeval import CRUXEvalOEvaluator
    from opencompass.datasets.MedCalc_Bench import MedCalcOfficial_Evaluator, check_correctness, extract_answer

    cruxeval = []
    for predictions in CRUX_CASES:
        result = CRUXEvalOEvaluator().score(predictions, [r["output"] for r in CRUX_ROWS], CRUX_ROWS)
        cruxeval.append({"predictions": predictions, "test_set": CRUX_ROWS, "result": result})

    extracted = []
    for calid, reply, truth, lower, upper in MEDCALC:
        got = _call(extract_answer, reply, calid)
        answer = got[0] if isinstance(got, tuple) else None
        checked = _call(check_correctness, answer, truth, calid, upper, lower) if answer is not None else None
        extracted.append({"calid": calid, "reply": reply, "ground_truth": truth, "lower": lower, "upper": upper,
                          "extracted": list(got) if isinstance(got, tuple) else got, "correct": checked})

    columns: dict[str, list[Any]] = {name: [make(i, c) for i, c in enumerate(MEDCALC)] for name, make in MEDCALC_COLUMNS.items()}
    columns.update({"calculator_id": [c[0] for c in MEDCALC], "ground_truth_answer": [c[2] for c in MEDCALC],
                    "lower_limit": [c[3] for c in MEDCALC], "upper_limit": [c[4] for c in MEDCALC]})
    with contextlib.redirect_stdout(io.StringIO()):
        scored = MedCalcOfficial_Evaluator().score([c[1] for c in MEDCALC], [c[2] for c in MEDCALC], columns)
    return {
        "opencompass_version": importlib.metadata.version("opencompass"),
        "cruxeval": cruxeval,
        "medcalc_extract_check": extracted,
        "medcalc_evaluator": {"test_set": columns, "predictions": [c[1] for c in MEDCALC], "result": scored},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
