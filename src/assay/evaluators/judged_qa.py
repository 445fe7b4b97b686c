"""The judge-reply readers (dict postprocessors) of judge-scored question-answer families, as OpenCompass 0.5.4 computes them.

Each takes the judge's outputs — ``"0".."N-1"`` → ``origin_prompt``,
``prediction`` (the judge's reply), ``gold`` — as ``GenericLLMEvaluator`` or
``LMEvaluator`` hands them, and returns the metrics and details:

* ``chem_exam_score_llmjudge_postprocess`` (Chem exam): the last
  ``<NUMBER>x</NUMBER>`` or ``\\boxed{x}`` of each reply is the sample's score
  (0 without one; scores are not clipped: a judge answering ``\\boxed{7}`` gives
  7); ``final_score`` = 100 × mean, rounded to 2 places;
* ``simpleqa_postprocess`` (SimpleQA): the first ``A``, ``B`` or ``C``
  anywhere in the reply is the grade (``C``, not attempted, without one — an
  ``A`` inside a word counts: "Based on …" is correct); ``accuracy`` and
  ``accuracy_given_attempted`` in percent, ``f1`` of the two as fractions
  (OpenCompass's mix of scales, kept); the details are the judge's outputs;
* ``csimpleqa_postprocess`` (Chinese SimpleQA, registered by OpenCompass as
  ``csimpleqa``): the same grade reading; ``correct``, ``incorrect``,
  ``not_attempted``, ``given_attempted_accuracy`` and ``F1``, all fractions;
* ``eese_score_postprocess_dict`` (EESE): the reply as an integer when the
  whole of it is one (``int()``: ``' 7 '``, ``'+3'``, ``'1_0'``), else its
  first run of digits, else 0 — so the words "correct"/"wrong" OpenCompass
  also looks for decide nothing, and a reply of ``100`` scores 100 on a scale
  of 10; ``overall_score`` = sum / (10 × count) × 100; each output gets its
  ``score``;
* ``numerical_llmjudge_postprocess`` (Matbench's regression tasks): the first
  number of the judge's reply (a float; 0 without one) against ``gold``:
  ``mae``, the mean absolute error, and per sample ``pred``, ``ref``,
  ``origin_response``, ``error``.

A judge request that failed after its retries (``prediction`` ``None``, which
OpenCompass never hands over: its evaluation stops) reads as a reply without a
grade or number.
"""

from __future__ import annotations

import re
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS

__all__ = [
    "chem_exam_score_llmjudge_postprocess",
    "csimpleqa_postprocess",
    "eese_score",
    "eese_score_postprocess_dict",
    "numerical_llmjudge_postprocess",
    "simpleqa_grade",
    "simpleqa_postprocess",
]

_CHEM_SCORE = re.compile(r"(?:<NUMBER>\s*|\\boxed\{)\s*(-?\d*\.?\d+)\s*(?:</NUMBER>|\})")
_GRADE = re.compile(r"(A|B|C)")
_DIGITS = re.compile(r"(?<!\d)\d+(?!\d)")
_FIRST_NUMBER = re.compile(r"[-+]?\d*\.\d+|\d+\.\d*|\d+")


def _reply(value: dict[str, Any]) -> str:
    """The judge's reply of one output; ``''`` for a request that failed."""
    reply = value.get("prediction")
    return reply if isinstance(reply, str) else ""


def _need_outputs(output: dict[str, Any], name: str) -> None:
    if not output:
        raise InputFileError(f"{name}: no judge outputs to score (OpenCompass 0.5.4 divides by their number)")


def _test_rows(dataset: Any) -> Any:
    """The judge dataset's test rows (OpenCompass hands the postprocessor the dataset whose reader holds them)."""
    return dataset.reader.dataset["test"]


@DICT_POSTPROCESSORS.register_module("chem_exam_score_llmjudge_postprocess")
def chem_exam_score_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """Chem exam's partial-credit scores read from the judge's replies.

    Example:
        >>> from assay.evaluators.llm_judge import judge_dataset
        >>> rows = judge_dataset([dict(prompt='q0', output='a0', has_img=False), dict(prompt='q1', output='a1', has_img=False)])
        >>> out = {'0': dict(origin_prompt='p', prediction='\\\\boxed{0.5}'), '1': dict(origin_prompt='p', prediction='<NUMBER>1</NUMBER>')}
        >>> chem_exam_score_llmjudge_postprocess(out, None, rows)['final_score']
        75.0
    """
    _need_outputs(output, "chem_exam_score_llmjudge_postprocess")
    rows = _test_rows(dataset)
    details = []
    for key, value in output.items():
        idx = int(key)
        if not 0 <= idx < len(rows):
            raise InputFileError(f"chem_exam_score_llmjudge_postprocess: judge output {key!r} has no row in the test set "
                                 f"({len(rows)} rows)")
        sample = rows[idx]
        prediction = value.get("prediction")
        found = _CHEM_SCORE.findall(_reply(value))
        details.append({"id": key, "question": sample["prompt"], "origin_prompt": value.get("origin_prompt"),
                        "prediction": prediction, "gold": sample["output"], "score": float(found[-1]) if found else 0,
                        "has_img": sample["has_img"]})
    return {"final_score": round(100 * sum(d["score"] for d in details) / len(details), 2), "details": details}


def simpleqa_grade(reply: Any) -> str:
    """SimpleQA's grade of a judge reply: its first ``A``, ``B`` or ``C``, else ``C``.

    >>> [simpleqa_grade(r) for r in ('A', 'B: INCORRECT', 'Based on it', 'no', None)]
    ['A', 'B', 'B', 'C', 'C']
    """
    match = _GRADE.search(reply) if isinstance(reply, str) else None
    return match.group(0) if match else "C"


@DICT_POSTPROCESSORS.register_module("simpleqa_postprocess")
def simpleqa_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """SimpleQA's accuracy, accuracy among attempted answers and F1 of the judge's grades.

    Example:
        >>> out = {str(i): dict(prediction=r, gold='x') for i, r in enumerate(['A', 'B', 'C', 'A'])}
        >>> {k: v for k, v in simpleqa_postprocess(out).items() if k != 'details'}
        {'accuracy': 50.0, 'accuracy_given_attempted': 66.66666666666666, 'f1': 0.5714285714285715}
    """
    _need_outputs(output, "simpleqa_postprocess")
    grades = [simpleqa_grade(v.get("prediction")) for v in output.values()]
    count = len(grades)
    correct = grades.count("A") / count
    attempted = correct + grades.count("B") / count
    given = correct / attempted if attempted > 0 else 0
    f1 = 2 * given * correct / (given + correct) if given + correct > 0 else 0
    return {"accuracy": correct * 100, "accuracy_given_attempted": given * 100, "f1": f1, "details": output}


@DICT_POSTPROCESSORS.register_module("csimpleqa_postprocess")
@DICT_POSTPROCESSORS.register_module("csimpleqa")
def csimpleqa_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """Chinese SimpleQA's shares of correct, incorrect and not attempted answers, accuracy among attempted ones and F1.

    Example:
        >>> out = {str(i): dict(prediction=r) for i, r in enumerate(['A', 'B', 'C', 'A'])}
        >>> {k: v for k, v in csimpleqa_postprocess(out).items() if k != 'details'}
        {'correct': 0.5, 'incorrect': 0.25, 'not_attempted': 0.25, 'given_attempted_accuracy': 0.6666666666666666, 'F1': 0.5714285714285715}
    """
    grades = [simpleqa_grade(v.get("prediction")) for v in output.values()]
    total = len(grades)
    correct, incorrect, not_attempted = grades.count("A"), grades.count("B"), grades.count("C")
    share = (lambda n: n / total) if total else (lambda n: 0)
    given = correct / (correct + incorrect) if correct + incorrect > 0 else 0
    f1 = 2 * given * share(correct) / (given + share(correct)) if given + share(correct) > 0 else 0
    return {"correct": share(correct), "incorrect": share(incorrect), "not_attempted": share(not_attempted),
            "given_attempted_accuracy": given, "F1": f1, "details": output}


def eese_score(reply: Any) -> int:
    """EESE's score of a judge reply (see the module's description).

    >>> [eese_score(r) for r in ('8', ' 7 ', 'Score: 9/10', 'correct', '', None)]
    [8, 7, 9, 0, 0, 0]
    """
    if not isinstance(reply, str):
        return 0
    try:
        return int(reply)
    except ValueError:
        pass
    if not reply.strip():
        # OpenCompass looks for 'correct', 'right' or '10' in a blank reply here: never there
        return 0
    match = _DIGITS.search(reply)
    return int(match.group()) if match else 0


@DICT_POSTPROCESSORS.register_module("eese_score_postprocess_dict")
def eese_score_postprocess_dict(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """EESE's overall score in percent of the judge's 0–10 scores; each output gets its ``score``.

    Example:
        >>> out = {'0': dict(prediction='10'), '1': dict(prediction='The answer earns 5 points')}
        >>> eese_score_postprocess_dict(out)['overall_score'], out['1']['score']
        (75.0, 5)
    """
    for value in output.values():
        if "prediction" in value:
            value["score"] = eese_score(value["prediction"])
    scores = [value.get("score", 0) for value in output.values()]
    return {"overall_score": sum(scores) / (10 * len(scores)) * 100 if scores else 0, "details": output}


def _first_number(reply: Any) -> float:
    match = _FIRST_NUMBER.search(reply) if isinstance(reply, str) else None
    return float(match.group(0)) if match else 0.0


@DICT_POSTPROCESSORS.register_module("numerical_llmjudge_postprocess")
def numerical_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """Mean absolute error of the numbers the judge extracted against the references (``gold``; 0 where absent).

    Example:
        >>> out = {'0': dict(prediction='1.5', gold=1.0), '1': dict(prediction='none', gold=2)}
        >>> numerical_llmjudge_postprocess(out)['mae']
        1.25
    """
    details = []
    for key, value in output.items():
        reply = value.get("prediction")
        pred = _first_number(reply)
        ref = value.get("gold", 0)
        try:
            error = abs(pred - ref)
        except TypeError:
            raise InputFileError(f"numerical_llmjudge_postprocess: judge output {key!r} has the reference {ref!r}, not a number "
                                 "(OpenCompass 0.5.4 stops there)") from None
        details.append({"pred": pred, "ref": ref, "origin_response": reply, "error": error})
    return {"mae": sum(d["error"] for d in details) / len(details) if details else 0, "details": details}
