"""Throughput of the answer extractors and of MATHVerifyEvaluator on generated replies.

Prints samples per second for ``first_option_postprocess`` (OpenCompass's
cascade) and ``first_option_extract`` (assay's corrected one), on the short messy
replies of ``_common._TEMPLATES``, English and Chinese, and on long replies;
``math_postprocess_v2`` and ``math_answer_extract``; and ``MATHVerifyEvaluator`` (fewer samples by default: it
runs math-verify in worker processes).  The replies are generated from a fixed
seed, so runs are comparable, and differ from one another, so that no cache
could make a figure look better.

Usage::

    python benchmarks/bench_postprocess.py [--n 100000] [--verify-n 10000] [--workers N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from _common import _TEMPLATES, _TOPICS, OPTIONS

from assay.evaluators import MATHVerifyEvaluator
from assay.postprocess import first_option_extract, first_option_postprocess, math_answer_extract, math_postprocess_v2

_FILLER = (
    "Let's think step by step. First we look at each option in turn and rule out the ones that contradict "
    "the premises. 我们逐一分析每个选项，排除与题干矛盾的说法。 "
)
_CHOICE_ENDINGS = (
    "The answer is ({x}).",
    "答案是 {x}。",
    "Therefore, the correct answer is option {x}.",
    "所以选{x}",
    "Answer: {x}",
    "I am not sure.",
)
_MATH_ENDINGS = (
    "So the final answer is $\\boxed{{{x}}}$.",
    "The final answer is {x}. I hope it is correct.",
    "I could not finish the computation.",
)


def template_replies(n: int, rng: random.Random) -> list[str]:
    """Replies from the templates of the eval benchmarks, each one different.

    A template with a topic gets the topic with a running number; the others are
    opened with a numbered sentence.  Only the empty reply repeats.
    """
    replies = []
    for i in range(n):
        template = rng.choice(_TEMPLATES)
        reply = template.format(x=rng.choice(OPTIONS), topic=f"{rng.choice(_TOPICS)} #{i}")
        if reply and "{topic}" not in template:
            reply = f"Reply {i}. {reply}"
        replies.append(reply)
    return replies


def choice_replies(n: int, rng: random.Random) -> list[str]:
    return [
        _FILLER * rng.randint(1, 4) + rng.choice(_CHOICE_ENDINGS).format(x=rng.choice("ABCD")) for _ in range(n)
    ]


def math_replies(n: int, rng: random.Random) -> tuple[list[str], list[str]]:
    replies, answers = [], []
    for _ in range(n):
        answer = str(rng.randint(0, 999))
        shown = answer if rng.random() < 0.7 else str(rng.randint(0, 999))
        replies.append(f"We compute {rng.randint(1, 99)} + {rng.randint(1, 99)} first. " + rng.choice(_MATH_ENDINGS).format(x=shown))
        answers.append(answer)
    return replies, answers


def rate(label: str, count: int, fn: Callable[[], Any], unit: str = "samples") -> None:
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    sys.stdout.write(f"{label:<56} {count:>8} {unit}  {elapsed:8.2f} s  {count / elapsed:12,.0f} {unit}/s\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--n", type=int, default=100_000, help="replies for the extractors")
    parser.add_argument("--verify-n", type=int, default=10_000, help="replies for MATHVerifyEvaluator")
    parser.add_argument("--workers", type=int, default=None, help="MATHVerifyEvaluator worker processes")
    args = parser.parse_args(argv)

    rng = random.Random(20240501)
    choices = choice_replies(args.n, rng)
    maths, answers = math_replies(args.n, rng)
    short = template_replies(args.n, random.Random(20240502))

    for fn in (first_option_postprocess, first_option_extract):
        fn(choices[0], "ABCD")  # compile the cascade outside the timing
        label = f"{fn.__name__} (templates, {len(set(short)):,} distinct)"
        rate(label, len(short), lambda fn=fn: [fn(t, "ABCD") for t in short], unit="replies")
        label = f"{fn.__name__} (long replies)"
        rate(label, len(choices), lambda fn=fn: [fn(t, "ABCD") for t in choices], unit="replies")
    rate("math_postprocess_v2", len(maths), lambda: [math_postprocess_v2(t) for t in maths])
    rate("math_answer_extract", len(maths), lambda: [math_answer_extract(t) for t in maths])

    n_verify = min(args.verify_n, args.n)
    evaluator = MATHVerifyEvaluator(workers=args.workers)
    result: dict[str, Any] = {}

    def verify() -> None:
        result.update(evaluator.score(maths[:n_verify], answers[:n_verify]))

    rate(f"MATHVerifyEvaluator (x{evaluator.workers})", n_verify, verify)
    sys.stdout.write(f"MATHVerifyEvaluator accuracy on the generated replies: {result.get('accuracy', float('nan')):.2f}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
