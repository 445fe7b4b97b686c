"""A run directory whose details take many shapes: the cases the statistics and the report must read alike.

Beside the plain one-run accuracy layout it holds several runs per sample,
judge failures, code outcomes, ``origin_prediction``, ``is_correct`` next to
``correct``, samples without a verdict, details stored as a dict, split
result files, a model with fewer samples, candidate lists, non-string
fields, long and unusual text (``</script>``, a NUL, an emoji), JSONL
predictions, a BLEU result and entries that are not objects.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

TIME = "20240101_000000"
MODELS = ("m1", "m2", "m3")
GROUPS: list[dict[str, Any]] = [
    {"name": "g_plain", "subsets": [["plain", "accuracy"], ["orig", "accuracy"], ["split", "accuracy"]]},
    {
        "name": "g_multi",
        "subsets": [["multi", "accuracy (3 runs average)"], ["judge", "accuracy"]],
        "weights": {"multi": 2, "judge": 1},
    },
    {"name": "g_std", "subsets": [["plain", "accuracy"], ["code", "accuracy"]], "std": True},
]


def _write(path: Path, data: Any, *, ascii_only: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4, ensure_ascii=ascii_only), encoding="utf-8")


def _acc(rows: list[list[float]]) -> float:
    flat = [v for row in rows for v in row]
    return 100.0 * sum(flat) / len(flat)


def _text(rng: random.Random, i: int) -> str:
    kind = i % 7
    if kind == 0:
        return f"The answer is ({rng.choice('ABCD')})."
    if kind == 1:
        return "答案是" + rng.choice("ABCD") + " </script><!-- x"
    if kind == 2:
        return "long " * 200
    if kind == 3:
        return ""
    if kind == 4:
        return "   "
    if kind == 5:
        return 'tab\there "quoted" \\ back \u2028 line'
    return rng.choice("ABCD")


def make_varied_run(root: Path, *, n: int = 48, seed: int = 3, summarize: bool = True) -> Path:
    """Write the run directory under ``root/work`` and return it."""
    rng = random.Random(seed)
    run = root / "work" / TIME
    results = run / "results"
    predictions = run / "predictions"
    for m, model in enumerate(MODELS):
        p = 0.5 + 0.15 * m
        # plain: one run, predictions file with gold and raw text, some empty extractions
        details = []
        raw = {}
        for i in range(n):
            ok = rng.random() < p
            pred = "" if rng.random() < 0.15 else rng.choice("ABCD")
            details.append(
                {"pred": [pred], "answer": [rng.choice("ABCD")], "correct": [ok], "example_abbr": f"plain_{i}"}
            )
            raw[str(i)] = {"origin_prompt": f"q{i}", "prediction": _text(rng, i + m), "gold": "A"}
        _write(predictions / model / "plain.json", raw)
        _write(
            results / model / "plain.json",
            {
                "accuracy": _acc([[float(d["correct"][0])] for d in details]),
                "extraction": {"unextracted": sum(1 for d in details if not d["pred"][0]), "total": n},
                "details": details,
                "_meta": {"evaluator": "AccEvaluator", "num_samples": n, "n": 1},
            },
        )

        # multi: three runs per sample, some runs unextracted, no extraction block
        details = []
        for i in range(n):
            preds = [rng.choice(["A", "B", "", " "]) for _ in range(3)]
            details.append(
                {"pred": preds, "correct": [rng.random() < p for _ in range(3)], "example_abbr": f"multi_{i}"}
            )
        _write(
            results / model / "multi.json",
            {
                "accuracy (3 runs average)": _acc([[float(c) for c in d["correct"]] for d in details]),
                "details": details,
                "_meta": {"evaluator": "AccEvaluator", "num_samples": n, "n": 3},
            },
        )

        # judge: failed judgements (no verdict counts as wrong)
        details = []
        for i in range(n):
            failed = rng.random() < 0.1
            verdict = None if failed else rng.random() < p
            details.append(
                {"prediction": [f"reply {i}"], "reference": f"ref {i}", "correct": [verdict], "judge_failed": [failed]}
            )
        rows = [[0.0 if d["correct"][0] is None else float(d["correct"][0])] for d in details]
        _write(results / model / "judge.json", {"accuracy": _acc(rows), "judge_failed_count": 0, "details": details})

        # code: execution outcomes, candidate lists
        details = []
        outcomes: dict[str, int] = {}
        for i in range(n):
            outcome = rng.choice(["passed", "failed", "timeout", "killed", ["passed", "timeout"]])
            passed = outcome == "passed"
            details.append({"completion": f"def f():\n    return {i}", "outcome": [outcome], "correct": [passed]})
            for o in outcome if isinstance(outcome, list) else [outcome]:
                outcomes[o] = outcomes.get(o, 0) + 1
        _write(
            results / model / "code.json",
            {"accuracy": _acc([[float(d["correct"][0])] for d in details]), "outcomes": outcomes, "details": details},
        )

        # orig: origin_prediction in the details, is_correct beside correct, refs that differ per model
        details = []
        for i in range(n):
            d: dict[str, Any] = {
                "origin_prediction": [_text(rng, i)],
                "prediction": rng.choice(["A", None, ["B"]]),
                "is_correct": [rng.random() < p],
                "example_abbr": i,
            }
            if i % 5:
                d["correct"] = [None]
            if m > 0 or i % 3:
                d["reference"] = "" if (i + m) % 4 == 0 else [f"ref-{m}-{i}"]
            details.append(d)
        rows = []
        for d in details:
            c = d.get("correct", [None])[0]
            rows.append([float(d["is_correct"][0] if c is None else c)])
        _write(results / model / "orig.json", {"accuracy": _acc(rows), "details": details})

        # ragged: some samples have no correctness key, one has two runs (no interval; bounds need flags)
        details = []
        for i in range(n):
            d = {"pred": [rng.choice("AB")]}
            if i % 6:
                d["correct"] = [rng.random() < p]
            if i == 5:
                d["correct"] = [True, False]
            details.append(d)
        _write(
            results / model / "ragged.json",
            {"accuracy": 50.0, "extraction": {"unextracted": 0, "total": n}, "details": details},
        )

        # cand: candidate lists per run, numbers as correctness
        details = [
            {"pred": [["A", "B"]], "correct": [[True, False, rng.random() < p]]}
            if i % 2
            else {"pred": ["C"], "correct": [0.5]}
            for i in range(n)
        ]
        units = [
            sum(float(x) for x in d["correct"][0]) / 3 if isinstance(d["correct"][0], list) else 0.5 for d in details
        ]
        _write(results / model / "cand.json", {"accuracy": 100.0 * sum(units) / n, "details": details})

        # dictdet: details keyed by index (stats read them, the sample browser does not)
        details_list = [{"pred": "A", "correct": rng.random() < p} for _ in range(n)]
        _write(
            results / model / "dictdet.json",
            {
                "accuracy": _acc([[float(d["correct"])] for d in details_list]),
                "details": {str(i): d for i, d in enumerate(details_list)},
            },
        )

        # split: two result parts, JSONL predictions with ids
        half = n // 2
        parts = []
        for k in range(2):
            part = [
                {
                    "pred": [rng.choice("AB")],
                    "answer": ["A"],
                    "correct": [rng.random() < p],
                    "example_abbr": f"split_{k * half + i}",
                }
                for i in range(half)
            ]
            parts.append(part)
            _write(
                results / model / f"split_{k}.json",
                {
                    "accuracy": _acc([[float(d["correct"][0])] for d in part]),
                    "details": part,
                    "_meta": {"num_samples": half},
                },
            )
        lines = [json.dumps({"id": i, "prediction": f"split raw {i}", "gold": "A"}) for i in reversed(range(2 * half))]
        (predictions / model).mkdir(parents=True, exist_ok=True)
        (predictions / model / "split.jsonl").write_text("\n".join(lines) + "\n")

        # mism: m3 has fewer samples; m2's prediction file is broken
        count = n - 4 if model == "m3" else n
        details = [
            {"pred": ["A"], "answer": ["A"], "correct": [rng.random() < p], "example_abbr": f"mism_{i}"}
            for i in range(count)
        ]
        _write(
            results / model / "mism.json",
            {"accuracy": _acc([[float(d["correct"][0])] for d in details]), "details": details},
        )
        if model == "m2":
            (predictions / model / "mism.json").write_text("{not json")
        else:
            _write(predictions / model / "mism.json", {str(i): {"prediction": f"mism raw {i}"} for i in range(count)})

        # odd: entries that are not objects, a lone surrogate, nested answers, numbers as predictions
        details = [{"pred": [i], "answer": [["x", "y"]], "correct": [True], "example_abbr": None} for i in range(n - 2)]
        details += ["not a dict", {"pred": ["\u0000 nul \U0001f600"], "answer": [{"k": 1}], "correct": [False]}]
        _write(results / model / "odd.json", {"accuracy": 100.0 * (n - 2) / n, "details": details}, ascii_only=True)

        # bleu: a corpus metric recomputed from the details
        hyps = [rng.choice(["the cat sat on the mat", "a dog ran", "the cat ran on the mat today"]) for _ in range(n)]
        refs = [rng.choice(["the cat sat on the mat", "a dog ran fast"]) for _ in range(n)]
        try:
            from sacrebleu.metrics import BLEU

            score = BLEU().corpus_score(hyps, [refs]).score
        except ImportError:  # pragma: no cover - sacrebleu is a dependency
            score = 0.0
        _write(
            results / model / "bleu.json",
            {
                "score": score,
                "details": [{"pred": h, "answer": r} for h, r in zip(hyps, refs)],
                "_meta": {"evaluator": "BleuEvaluator"},
            },
        )

        # nodetails and failed
        _write(results / model / "nodetails.json", {"accuracy": 40.0 + m})
        if model == "m2":
            _write(results / model / "failed.json", {"error": "score() raised ValueError: boom"})
        else:
            _write(results / model / "failed.json", {"accuracy": 10.0, "details": [{"correct": [True]}] * 10})
    abbrs = (
        "plain",
        "multi",
        "judge",
        "code",
        "orig",
        "ragged",
        "cand",
        "dictdet",
        "split",
        "mism",
        "odd",
        "bleu",
        "nodetails",
        "failed",
    )
    config = {
        "models": [{"abbr": m} for m in MODELS],
        "datasets": [{"abbr": a} for a in abbrs],
        "summarizer": {"summary_groups": GROUPS},
    }
    (run / "configs").mkdir(parents=True, exist_ok=True)
    (run / "configs" / f"{TIME}_1.py").write_text("".join(f"{k} = {v!r}\n" for k, v in config.items()))
    if summarize:
        from assay.summarize import run_summarizer

        run_summarizer({**config, "work_dir": str(run)}, time_str=TIME)
    return run
