"""Reading judge verdicts: ``generic_llmjudge_postprocess`` and its metrics."""

from __future__ import annotations

import re
from typing import Any

from assay.registry import DICT_POSTPROCESSORS

__all__ = ["generic_llmjudge_postprocess", "judge_metrics", "parse_verdict"]

_VERDICT = re.compile(r"(?<![A-Za-z])([ABC])(?![A-Za-z])")


def parse_verdict(text: str | None) -> str | None:
    """The first standalone grade letter of a judge reply: ``'A'`` (correct),
    ``'B'`` (incorrect), ``'C'`` (not attempted), or ``None`` when there is none.

    Letters inside words do not count (``'Based'`` is not a ``B``).

    Example:
        >>> parse_verdict('A'), parse_verdict('Grade: B.'), parse_verdict('Based on it, (A)')
        ('A', 'B', 'A')
        >>> parse_verdict('I cannot tell') is None
        True
    """
    if not text:
        return None
    m = _VERDICT.search(text)
    return m.group(1) if m else None


def judge_metrics(verdicts: list[str | None]) -> dict[str, float | int]:
    """Metrics over verdicts (``None`` = the judge failed), all percentages 0–100 except ``f1``.

    ``accuracy`` counts every sample in its denominator; judge failures are
    neither correct nor incorrect and are counted in ``judge_failed_count``.

    Example:
        >>> m = judge_metrics(['A', 'B', None, 'A'])
        >>> m["accuracy"], round(m["accuracy_given_attempted"], 2), m["judge_failed_count"]
        (50.0, 66.67, 1)
    """
    total = len(verdicts)
    correct = sum(v == "A" for v in verdicts)
    incorrect = sum(v == "B" for v in verdicts)
    not_attempted = sum(v == "C" for v in verdicts)
    failed = sum(v is None for v in verdicts)
    attempted = correct + incorrect
    accuracy = correct / total if total else 0.0
    given = correct / attempted if attempted else 0.0
    f1 = 2 * given * accuracy / (given + accuracy) if given + accuracy > 0 else 0.0
    return {
        "accuracy": 100 * accuracy,
        "accuracy_given_attempted": 100 * given,
        "f1": f1,
        "attempted_ratio": 100 * attempted / total if total else 0.0,
        "correct_count": correct,
        "incorrect_count": incorrect,
        "not_attempted_count": not_attempted,
        "judge_failed_count": failed,
    }


@DICT_POSTPROCESSORS.register_module("generic_llmjudge_postprocess")
def generic_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """Grade judge outputs: the first A/B verdict of each reply.

    ``output`` maps ``"0".."N-1"`` to records whose ``prediction`` is the
    judge's reply (``None`` when it never arrived; ``judge_error`` then says
    why) and ``gold`` the reference.  Returns :func:`judge_metrics` plus
    ``details``: per sample ``verdict``, ``correct`` (``None`` when the
    judge failed), ``judge_response`` and ``judge_failed`` (the reason).

    Example:
        >>> r = generic_llmjudge_postprocess({'0': {'prediction': 'A', 'gold': '4'},
        ...                                   '1': {'prediction': 'unsure', 'gold': '5'}})
        >>> r['correct_count'], r['judge_failed_count'], r['details'][1]['correct'] is None
        (1, 1, True)
    """
    keys = sorted(output, key=lambda k: int(k) if str(k).isdigit() else str(k))
    verdicts: list[str | None] = []
    details: list[dict[str, Any]] = []
    for key in keys:
        record = output[key] or {}
        reply = record.get("prediction")
        verdict = parse_verdict(reply) if isinstance(reply, str) else None
        if reply is None:
            reason = f"no reply: {record.get('judge_error') or 'the judge did not answer'}"
        elif verdict is None:
            reason = "unparseable verdict: no A or B in the reply"
        else:
            reason = None
        verdicts.append(verdict)
        details.append(
            {
                "verdict": verdict,
                "correct": None if verdict is None else verdict == "A",
                "judge_response": reply,
                "judge_failed": reason,
                "gold": record.get("gold"),
            }
        )
    result: dict[str, Any] = dict(judge_metrics(verdicts))
    result["details"] = details
    return result
