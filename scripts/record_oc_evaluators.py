"""Record the metrics OpenCompass 0.5.4's evaluators compute on generated cases.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_evaluators.py [--out FILE]

Cases are drawn from a fixed seed: predictions and references of the shapes each
evaluator meets (option letters, numbers with and without thousands separators,
LaTeX answers, short free-form answers, sentences for BLEU and ROUGE).  For each
case the evaluator named in ``CASES`` is built from OpenCompass and its
``score()`` called; the result (metric keys and values, and the keys of the
first sample's details) goes to ``tests/data/evaluators/opencompass_evaluators.json``.
``tests/evaluators/test_opencompass_evaluators.py`` checks assay's namesakes.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import logging
import random
from pathlib import Path
from typing import Any

from _oc_recording import write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "evaluators" / "opencompass_evaluators.json"

WORDS = ["the", "a", "cat", "dog", "sat", "on", "mat", "quickly", "brown", "fox", "jumps", "over", "lazy", "river", "bank", "money", "paris", "london", "city"]
MATH_ANSWERS = ["\\frac{1}{2}", "0.5", "\\dfrac12", "3", "3.0", "x=3", "\\sqrt{2}", "\\sqrt2", "(1,2)", "10\\%", "10",
                "\\text{(B)}", "B", "5 \\text{ cm}", "5", "-\\frac{3}{4}", "\\frac{-3}{4}", "1,000", "1000", "\\pi",
                "2\\pi", "\\infty", "a/b", "3/4", "\\frac34", "0.75", "{5}", "\\left(1,2\\right)", "45^\\circ", "45"]


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _letters(rng: random.Random, n: int, options: str = "ABCD") -> tuple[list[str], list[str]]:
    refs = [rng.choice(options) for _ in range(n)]
    preds = [r if rng.random() < 0.6 else rng.choice(options + "E ") for r in refs]
    return preds, refs


def build_cases(seed: int = 13) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []

    def add(evaluator: str, predictions: list[Any], references: list[Any], **init: Any) -> None:
        cases.append({"evaluator": evaluator, "init": init, "predictions": predictions, "references": references})

    for n in (1, 3, 7, 10, 49, 300):
        add("AccEvaluator", *_letters(rng, n))
        add("BBHEvaluator_mcq", *_letters(rng, n))
    add("AccEvaluator", [1, 2, "3", 4.0], ["1", 2, 3, "4"])
    for n in (3, 7, 30):
        refs = [[_sentence(rng, rng.randint(1, 3)) for _ in range(rng.randint(1, 3))] for _ in range(n)]
        preds = [rng.choice(r) if rng.random() < 0.5 else "The " + _sentence(rng, 2) + ". More." for r in refs]
        add("EMEvaluator", preds, refs)
    for n in (3, 11, 60):
        refs = [str(rng.randint(-50, 5000)) for _ in range(n)]
        preds = []
        for r in refs:
            roll = rng.random()
            preds.append(r if roll < 0.4 else f"{int(r):,}" if roll < 0.5 else r + ".0" if roll < 0.6 else "NULL" if roll < 0.7 else str(int(r) + 1))
        add("Gsm8kEvaluator", preds, refs)
    for version in ("v1", "v2"):
        for n in (5, 40):
            refs = [rng.choice(MATH_ANSWERS) for _ in range(n)]
            preds = [rng.choice(MATH_ANSWERS) for _ in range(n)]
            add("MATHEvaluator", preds, refs, version=version)
        add("MATHEvaluator", MATH_ANSWERS, [MATH_ANSWERS[(i + 1) % len(MATH_ANSWERS)] for i in range(len(MATH_ANSWERS))], version=version)
    bbh_refs = ["Yes", "no", "True", "valid", "apple banana", "12", "(A)", "dog"]
    for n in (4, 20):
        refs = [rng.choice(bbh_refs) for _ in range(n)]
        preds = [f"So the answer is {r.lower() if rng.random() < 0.5 else r}." if rng.random() < 0.7 else "So the answer is 13." for r in refs]
        add("BBHEvaluator", preds, refs)
    for n in (6, 40):
        add("MccEvaluator", *_letters(rng, n, "AB"))
    for n in (4, 25):
        refs = [_sentence(rng, rng.randint(3, 12)) for _ in range(n)]
        preds = [" ".join(rng.sample(r.split(), k=max(1, len(r.split()) - 1))) for r in refs]
        add("RougeEvaluator", preds, refs)
        add("BleuEvaluator", preds, refs)
    for n in (5, 17, 120):
        refs = [rng.randint(0, 1) for _ in range(n)]
        preds = []
        for r in refs:
            p1 = round(min(1.0, max(0.0, rng.gauss(0.35 + 0.3 * r, 0.25))), rng.choice([1, 2, 3]))
            preds.append([round(1 - p1, 3), p1])
        refs[0], refs[1] = 0, 1  # both classes present
        add("AUCROCEvaluator", preds, refs)
    return cases


_MODULES = {
    "AUCROCEvaluator": "opencompass.openicl.icl_evaluator",
    "AccEvaluator": "opencompass.openicl.icl_evaluator",
    "EMEvaluator": "opencompass.openicl.icl_evaluator",
    "MccEvaluator": "opencompass.openicl.icl_evaluator",
    "RougeEvaluator": "opencompass.openicl.icl_evaluator",
    "BleuEvaluator": "opencompass.openicl.icl_evaluator",
    "Gsm8kEvaluator": "opencompass.datasets.gsm8k",
    "MATHEvaluator": "opencompass.datasets.math",
    "BBHEvaluator": "opencompass.datasets.bbh",
    "BBHEvaluator_mcq": "opencompass.datasets.bbh",
}


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, bool, int)) or value is None:
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return repr(value)


def record(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for case in cases:
        cls = getattr(importlib.import_module(_MODULES[case["evaluator"]]), case["evaluator"])
        evaluator = cls(**case["init"])
        try:
            result = evaluator.score(list(case["predictions"]), list(case["references"]))
        except Exception as exc:
            recorded: dict[str, Any] = {"raises": type(exc).__name__}
        else:
            details = result.pop("details", None)
            recorded = {"metrics": {k: _jsonable(v) for k, v in result.items()}}
            if details:
                recorded["detail_keys"] = sorted(details[0])
        out.append({**case, "opencompass": recorded})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = {
        "about": "score() results of OpenCompass's evaluators on generated cases, recorded by scripts/record_oc_evaluators.py.",
        "opencompass": importlib.metadata.version("opencompass"),
        "cases": record(build_cases()),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, data)


if __name__ == "__main__":
    main()
