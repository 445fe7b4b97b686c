"""Reading judge verdicts.

Under OpenCompass's names, OpenCompass 0.5.4's reading (SPEC R-9.1):
:func:`generic_llmjudge_postprocess` and
:func:`generic_llmjudge_academic_postprocess` take the first ``A`` or ``B``
anywhere in a reply (:func:`opencompass_grade`) and count everything else as
not attempted.  assay's own reading, :func:`assay_llmjudge_postprocess`
(opt-in), takes the first standalone grade letter (:func:`parse_verdict`) and
marks a reply without one unjudged instead of counting it as wrong.
"""

from __future__ import annotations

import re
from typing import Any

from assay.registry import DICT_POSTPROCESSORS

__all__ = [
    "assay_llmjudge_postprocess",
    "cascade_judge_correct",
    "generic_llmjudge_academic_postprocess",
    "generic_llmjudge_postprocess",
    "judge_metrics",
    "livereasonbench_grade",
    "livereasonbench_postprocess",
    "opencompass_grade",
    "parse_verdict",
]

_VERDICT = re.compile(r"(?<![A-Za-z])([ABC])(?![A-Za-z])")


def opencompass_grade(text: str | None, true_tag: str = "A", false_tag: str = "B") -> str | None:
    """The grade OpenCompass 0.5.4's ``generic_llmjudge_postprocess`` reads
    from a judge reply: whichever of ``true_tag`` and ``false_tag`` occurs
    first anywhere in it, case-sensitively, or ``None`` when neither does
    (OpenCompass writes ``'unknown'``; ``None`` here, also for a reply that
    never arrived).

    OpenCompass's quirks, kept: a letter inside a word counts, so a reply
    starting "Based on…" reads as ``B`` and "N/A" as ``A``; a reply that
    names both letters reads as the earlier one; ``C`` and lowercase letters
    are never a verdict.

    Example:
        >>> opencompass_grade('A'), opencompass_grade('Based on it, A'), opencompass_grade('a')
        ('A', 'B', None)
        >>> opencompass_grade('INCORRECT', 'CORRECT', 'INCORRECT')
        'INCORRECT'
    """
    if not text:
        return None
    found = [(at, order, tag) for order, tag in enumerate((true_tag, false_tag)) if (at := text.find(tag)) >= 0]
    # the earliest occurrence; at the same place the true tag (OpenCompass tries it first)
    return min(found)[2] if found else None


def cascade_judge_correct(text: str | None) -> bool:
    """Whether OpenCompass 0.5.4's ``CascadeEvaluator`` takes a judge reply
    as "correct": stripped and upper-cased, the reply is exactly ``A`` or
    starts with ``CORRECT``.

    Stricter than the verdict :func:`generic_llmjudge_postprocess` reads:
    ``'A.'``, ``'**A**'`` and ``'The answer is A'`` are not correct; ``'a'``
    and ``'correct'`` are; a missing reply is not.

    Example:
        >>> [cascade_judge_correct(t) for t in ('A', ' a ', 'A.', 'Correct.', 'INCORRECT')]
        [True, True, False, True, False]
    """
    if not text:
        return False
    reply = text.strip().upper()
    return reply == "A" or reply.startswith("CORRECT")


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




def _ordered(output: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of a judge-outputs dict, in its own order (OpenCompass reads them so)."""
    return [record or {} for record in output.values()]


def _no_reply_reason(record: dict[str, Any]) -> str:
    return f"no reply: {record.get('judge_error') or 'the judge did not answer'}"


def _opencompass_metrics(grades: list[str | None], true_tag: str, false_tag: str, metric_name: str) -> dict[str, Any]:
    """OpenCompass 0.5.4's metrics over grades, computed in its order of operations
    (fractions of the sample count first, then percentages), so that the floats agree
    to the last bit.  Every grade other than the two tags is "not attempted"."""
    count = len(grades)
    correct = sum(g == true_tag for g in grades)
    incorrect = sum(g == false_tag for g in grades)
    attempted = sum(g in (true_tag, false_tag) for g in grades)
    share_correct = correct / count if count else 0.0
    share_incorrect = incorrect / count if count else 0.0
    share_attempted = share_correct + share_incorrect
    given = share_correct / share_attempted if share_attempted > 0 else 0.0
    f1 = 2 * given * share_correct / (given + share_correct) if given + share_correct > 0 else 0.0
    return {
        metric_name: share_correct * 100,
        f"{metric_name}_given_attempted": given * 100,
        "f1": f1,
        "attempted_ratio": (attempted / count if count else 0.0) * 100,
        "correct_count": correct,
        "incorrect_count": incorrect,
        "not_attempted_count": count - correct - incorrect,
    }


def _opencompass_grading(output: dict[str, Any], true_tag: str, false_tag: str, metric_name: str) -> dict[str, Any]:
    records = _ordered(output)
    grades: list[str | None] = []
    details: list[dict[str, Any]] = []
    failed = 0
    for record in records:
        reply = record.get("prediction")
        grade = opencompass_grade(reply, true_tag, false_tag) if isinstance(reply, str) else None
        grades.append(grade)
        failed += reply is None
        details.append(
            {
                "verdict": grade,
                "correct": None if reply is None else grade == true_tag,
                "judge_response": reply,
                "judge_failed": _no_reply_reason(record) if reply is None else None,
                "gold": record.get("gold"),
            }
        )
    result: dict[str, Any] = _opencompass_metrics(grades, true_tag, false_tag, metric_name)
    result["judge_failed_count"] = failed
    result["details"] = details
    return result


@DICT_POSTPROCESSORS.register_module("generic_llmjudge_postprocess")
def generic_llmjudge_postprocess(
    output: dict[str, Any], output_path: str | None = None, true_tag: str = "A", false_tag: str = "B"
) -> dict[str, Any]:
    """Grade judge outputs as OpenCompass 0.5.4 does (SPEC R-9.1).

    ``output`` maps ``"0".."N-1"`` to records whose ``prediction`` is the
    judge's reply (``None`` when it never arrived; ``judge_error`` then says
    why) and ``gold`` the reference.  Each reply's grade is
    :func:`opencompass_grade`: the first ``true_tag`` or ``false_tag``
    anywhere in it, letters inside words included ("Based on…" reads as
    ``B``).  Metrics as OpenCompass computes them: ``accuracy`` (correct
    over every sample), ``accuracy_given_attempted`` (correct over
    correct + incorrect), ``f1`` (their harmonic mean, as a fraction),
    ``attempted_ratio``, ``correct_count``, ``incorrect_count`` and
    ``not_attempted_count`` — every reply without either tag, and every
    missing reply, counts as not attempted and so as not correct.

    assay adds ``judge_failed_count`` (replies that never arrived; OpenCompass
    would have stopped) and ``details``: per sample ``verdict`` (the tag, or
    ``None``), ``correct`` (``None`` only when there was no reply),
    ``judge_response`` and ``judge_failed`` (why there was no reply).
    :func:`assay_llmjudge_postprocess` is assay's stricter reading.

    Example:
        >>> r = generic_llmjudge_postprocess({'0': {'prediction': 'A', 'gold': '4'},
        ...                                   '1': {'prediction': 'Based on it, A', 'gold': '5'},
        ...                                   '2': {'prediction': 'unsure', 'gold': '6'}})
        >>> r['correct_count'], r['incorrect_count'], r['not_attempted_count'], r['judge_failed_count']
        (1, 1, 1, 0)
    """
    return _opencompass_grading(output, true_tag, false_tag, "accuracy")


@DICT_POSTPROCESSORS.register_module("generic_llmjudge_academic_postprocess")
def generic_llmjudge_academic_postprocess(
    output: dict[str, Any], output_path: str | None = None, metric_name: str = "accuracy"
) -> dict[str, Any]:
    """:func:`generic_llmjudge_postprocess` with tags ``A``/``B``, its first
    metric named ``metric_name`` (and ``{metric_name}_given_attempted``) and
    no ``f1``, as OpenCompass 0.5.4's academic variant.

    Example:
        >>> r = generic_llmjudge_academic_postprocess({'0': {'prediction': 'B', 'gold': '4'}}, metric_name='score')
        >>> r['score'], r['score_given_attempted'], 'f1' in r
        (0.0, 0.0, False)
    """
    result = _opencompass_grading(output, "A", "B", metric_name)
    del result["f1"]
    return result


@DICT_POSTPROCESSORS.register_module("assay_llmjudge_postprocess")
def assay_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """Grade judge outputs by assay's reading (opt-in: ``dict_postprocessor=dict(type='assay_llmjudge_postprocess')``).

    Each reply's verdict is its first standalone grade letter
    (:func:`parse_verdict`: ``A`` correct, ``B`` incorrect, ``C`` not
    attempted; "Based on…" is no ``B``).  A reply without one is not
    counted as wrong: like a reply that never arrived it is unjudged
    (``correct`` is ``None``, ``judge_failed`` says why, and
    ``judge_failed_count`` counts it).  Returns :func:`judge_metrics` plus
    ``details`` as :func:`generic_llmjudge_postprocess` gives them.

    Example:
        >>> r = assay_llmjudge_postprocess({'0': {'prediction': 'A', 'gold': '4'},
        ...                                 '1': {'prediction': 'unsure', 'gold': '5'}})
        >>> r['correct_count'], r['judge_failed_count'], r['details'][1]['correct'] is None
        (1, 1, True)
    """
    verdicts: list[str | None] = []
    details: list[dict[str, Any]] = []
    for record in _ordered(output):
        reply = record.get("prediction")
        verdict = parse_verdict(reply) if isinstance(reply, str) else None
        if reply is None:
            reason: str | None = _no_reply_reason(record)
        elif verdict is None:
            reason = "unparseable verdict: no A, B or C in the reply"
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


_SIMPLEQA_LETTER = re.compile(r"A|B|C")


def livereasonbench_grade(text: str | None) -> str:
    """The grade OpenCompass 0.5.4's ``livereasonbench_postprocess`` reads from
    a judge reply: the first ``A``, ``B`` or ``C`` anywhere in it,
    case-sensitively, else ``'C'`` (not attempted).

    OpenCompass's quirks, kept: a capital letter inside a word counts, so
    "CORRECT" and "INCORRECT" both read as ``C`` (their first capital of the
    three), "Based on…" as ``B`` and "NOT_ATTEMPTED" as ``A``.  A reply that
    never arrived (``None``; OpenCompass fails on it) reads as ``'C'``.

    Example:
        >>> [livereasonbench_grade(t) for t in ('A', 'b', 'CORRECT', 'Based on it: A', 'NOT_ATTEMPTED', None)]
        ['A', 'C', 'C', 'B', 'A', 'C']
    """
    match = _SIMPLEQA_LETTER.search(text) if isinstance(text, str) else None
    return match.group(0) if match else "C"


@DICT_POSTPROCESSORS.register_module("livereasonbench_postprocess")
def livereasonbench_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """Grade LiveReasonBench's judge outputs as OpenCompass 0.5.4 does.

    Each reply's grade is :func:`livereasonbench_grade` (``A`` correct,
    ``B`` incorrect, anything else not attempted).  Metrics, computed in
    OpenCompass's order of operations so that the floats agree to the last
    bit: ``accuracy_given_attempted`` (correct over correct + incorrect, a
    percentage; 0 when nothing was attempted) and ``f1`` (the harmonic mean
    of that fraction and the fraction correct, as a fraction).  OpenCompass
    reports no plain accuracy.  assay adds ``judge_failed_count`` (replies
    that never arrived, graded ``C`` as OpenCompass grades a reply without a
    letter) and per-sample ``details`` (``verdict``, ``correct``,
    ``judge_response``, ``judge_failed``, ``gold``) where OpenCompass returns
    the judge outputs themselves.  No sample: both metrics 0 (OpenCompass
    divides by zero).

    Example:
        >>> r = livereasonbench_postprocess({'0': {'prediction': 'A', 'gold': '4'},
        ...                                  '1': {'prediction': 'INCORRECT', 'gold': '5'},
        ...                                  '2': {'prediction': 'B', 'gold': '6'}})
        >>> r['accuracy_given_attempted'], round(r['f1'], 4), [d['verdict'] for d in r['details']]
        (50.0, 0.4, ['A', 'C', 'B'])
    """
    records = _ordered(output)
    details: list[dict[str, Any]] = []
    correct = incorrect = failed = 0
    for record in records:
        reply = record.get("prediction")
        grade = livereasonbench_grade(reply)
        correct += grade == "A"
        incorrect += grade == "B"
        failed += reply is None
        details.append(
            {
                "verdict": grade,
                "correct": None if reply is None else grade == "A",
                "judge_response": reply,
                "judge_failed": _no_reply_reason(record) if reply is None else None,
                "gold": record.get("gold"),
            }
        )
    count = len(records)
    share_correct = correct / count if count else 0.0
    share_attempted = share_correct + (incorrect / count if count else 0.0)
    given = share_correct / share_attempted if share_attempted > 0 else 0
    f1 = 2 * given * share_correct / (given + share_correct) if (given + share_correct) > 0 else 0
    return {"accuracy_given_attempted": given * 100, "f1": f1, "judge_failed_count": failed, "details": details}
