"""Record how OpenCompass 0.5.4 reads LLM-judge replies.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_judge_verdicts.py [--out FILE]

For a corpus of judge replies (bare letters, letters with punctuation or
markdown, sentences that begin with a capital ``A`` or ``B``, ``CORRECT`` and
``INCORRECT``, lowercase, empty, Chinese, ``<think>`` blocks, replies naming
both letters) it records, per reply, the grade letter OpenCompass's
``generic_llmjudge_postprocess`` reads and whether its ``CascadeEvaluator``
counts the reply as the judge saying "correct".  For batches of those replies
it records the metrics of ``generic_llmjudge_postprocess`` (default and other
tags) and ``generic_llmjudge_academic_postprocess``, and the result of
``CascadeEvaluator.score`` (sequential and parallel, rule evaluator
``AccEvaluator``) given the judge's reply file, which it reads instead of asking
a judge.  The output goes to ``tests/data/evaluators/opencompass_judge_verdicts.json``;
``tests/evaluators/test_judge_verdicts.py`` checks assay's namesakes.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import random
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "evaluators" / "opencompass_judge_verdicts.json"

REPLIES = [
    "A", "B", "C", "a", "b", "A.", "B.", "(A)", "**A**", "**B**", " A ", "\nA\n", "A\n", "A: CORRECT",
    "B: INCORRECT", "CORRECT", "INCORRECT", "Correct", "correct", "incorrect", "  correct  ",
    "CORRECT. The answer matches.", "Based on the reference, the answer is A", "Based on it: B",
    "The answer is A", "The answer is B", "The candidate's answer is correct.", "The answer is wrong.",
    "I cannot tell.", "", " ", "Grade: A", "Grade: B", "A or B? B", "B, not A", "AB", "BA",
    "答案正确：A", "答案错误", "判断：B", "<think>Is it B? No.</think>A", "<think>the answer looks right</think>\n\nA",
    "<think>\nAnswer A is wrong\n</think>B", "Apparently wrong: B", "Both A and B are possible",
    "final: A", "ａ", "Ａ", "\\boxed{A}", "\\boxed{B}", "A\nB", "N/A",
]

# (true_tag, false_tag) pairs the metrics are also recorded for
TAGS = [("A", "B"), ("CORRECT", "INCORRECT"), ("yes", "no")]


def _output(replies: list[str], golds: list[str]) -> dict[str, Any]:
    return {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": f"q{i}"}], "prediction": r, "gold": g}
            for i, (r, g) in enumerate(zip(replies, golds))}


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def batches(seed: int = 5) -> list[list[str]]:
    rng = random.Random(seed)
    out = [list(REPLIES), ["A"], ["B"], ["I cannot tell."], ["A", "B", "C"], ["C", "C"]]
    for n in (3, 7, 10, 31):
        out.append([rng.choice(REPLIES) for _ in range(n)])
    return out


def record() -> dict[str, Any]:
    from datasets import Dataset
    from opencompass.datasets.generic import (
        _generic_llmjudge_postprocess,
        generic_llmjudge_academic_postprocess,
        generic_llmjudge_postprocess,
    )
    from opencompass.evaluator.cascade_evaluator import CascadeEvaluator
    from opencompass.openicl.icl_evaluator import AccEvaluator

    replies = [{"reply": r, "grade": _generic_llmjudge_postprocess(r),
                "cascade_correct": CascadeEvaluator._get_llm_correctness(None, {"prediction": r})}  # type: ignore[arg-type]
               for r in REPLIES]
    rng = random.Random(11)
    cases = []
    for batch in batches():
        golds = [str(rng.randint(0, 9)) for _ in batch]
        case: dict[str, Any] = {"replies": batch, "golds": golds, "generic": {}, "academic": {}}
        for true_tag, false_tag in TAGS:
            res = generic_llmjudge_postprocess(_output(batch, golds), "unused.json", true_tag=true_tag, false_tag=false_tag)
            res.pop("details")
            case["generic"][f"{true_tag}|{false_tag}"] = res
        for metric_name in ("accuracy", "score"):
            res = generic_llmjudge_academic_postprocess(_output(batch, golds), "unused.json", metric_name=metric_name)
            res.pop("details")
            case["academic"][metric_name] = res
        # the cascade: the model's predictions are right for about half the samples by the rule
        preds = [g if rng.random() < 0.5 else "x" for g in golds]
        case["predictions"] = preds
        case["cascade"] = {}
        for parallel in (False, True):
            judged = list(range(len(batch))) if parallel else [i for i, (p, g) in enumerate(zip(preds, golds)) if p != g]
            with tempfile.TemporaryDirectory() as tmp:
                ev = CascadeEvaluator(llm_evaluator=dict(type=AccEvaluator), rule_evaluator=dict(type=AccEvaluator),
                                      parallel=parallel)
                ev._out_dir = f"{tmp}/results/m/d"
                if judged:
                    Path(f"{ev._out_dir}_llm_judge_replica0.json").parent.mkdir(parents=True)
                    with open(f"{ev._out_dir}_llm_judge_replica0.json", "w") as f:
                        json.dump(_output([batch[i] for i in judged], [golds[i] for i in judged]), f)
                ds = Dataset.from_dict({"q": [f"q{i}" for i in range(len(batch))], "answer": golds})
                res = ev.score(preds, golds, ds)
            case["cascade"]["parallel" if parallel else "sequential"] = {
                "accuracy": res["accuracy"], "cascade_stats": res["cascade_stats"],
                "cascade_correct": [d.get("cascade_correct") for d in res["details"]],
                "llm_correct": [d.get("llm_evaluation", {}).get("llm_correct") for d in res["details"]],
            }
        cases.append(case)
    return {"opencompass": importlib.metadata.version("opencompass"), "replies": replies, "cases": _jsonable(cases)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = record()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data['replies'])} replies, {len(data['cases'])} cases -> {args.out}")


if __name__ == "__main__":
    main()
