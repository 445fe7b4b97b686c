"""The medical multiple-choice evaluators as OpenCompass 0.5.4 computes them.

``MedmcqaEvaluator``, ``MedXpertQAEvaluator``, ``MedbulletsEvaluator`` and
``NejmaibenchEvaluator`` read each reply with the families' ``answer_cleansing``
(:func:`med_answer`) and compare the letter with the reference: ``accuracy``
in [0, 100].  They read the test set's ``prompt_mode`` (the first row's),
``options`` and ``label`` (the rows :mod:`assay.datasets.med_choice` loads),
and copy a few of its columns into each sample's details.

The families' ``llmjudge`` configs grade replies with ``GenericLLMEvaluator``
and a dict postprocessor of their own (``medmcqa_llmjudge_postprocess``,
``MedXpertQA_llmjudge_postprocess``, ``medbullets_llmjudge_postprocess``):
accuracy overall and per category of the judge dataset's rows
(:func:`category_llmjudge`).
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any, ClassVar

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, percent
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS

__all__ = ["MedXpertQAEvaluator", "MedXpertQA_llmjudge_postprocess", "MedbulletsEvaluator", "MedmcqaEvaluator", "NejmaibenchEvaluator",
           "category_llmjudge", "med_answer", "medbullets_llmjudge_postprocess", "medmcqa_llmjudge_postprocess"]

_PHRASES = ("I understand", "A through J", "A through E", "A through D")


class NoOptionLetter(ValueError):
    """A reply in which MedXpertQA's reading finds no option letter (OpenCompass 0.5.4 raises ``IndexError`` there)."""


def med_answer(method: str, prediction: str, options: Any, label: Any, *, none: str = "list") -> Any:
    """The answer letter OpenCompass 0.5.4's ``answer_cleansing`` reads from a reply.

    The phrases ``I understand``, ``A through J``, ``A through E`` and
    ``A through D`` are removed, then the first standalone letter among the
    first ``len(options)`` letters is the answer (``method`` ``'zero-shot'``
    or ``'few-shot'``: with one label letter both take the first; any other
    method raises ``ValueError``, as there, unless the label has another
    length).  A reply without such a letter: ``[]`` (MedMCQA's, Medbullets'
    and NEJM AI's reading, ``none='list'``: never equal to a reference), or
    :class:`NoOptionLetter` (MedXpertQA's, ``none='raise'``).

    >>> med_answer('zero-shot', 'I understand. The answer is B, not C.', ['x', 'y', 'z', 'w'], 'B')
    'B'
    >>> med_answer('zero-shot', 'E is right', ['x', 'y', 'z', 'w'], 'A')
    []
    """
    for phrase in _PHRASES:
        prediction = prediction.replace(phrase, "")
    letters = "|".join(chr(65 + i) for i in range(len(options)))
    found = re.findall(rf"\b({letters})\b", prediction)
    if not found:
        if none == "raise":
            raise NoOptionLetter(prediction)
        return []
    if len(label) == 1 and method not in ("zero-shot", "few-shot"):
        raise ValueError("Method is not properly defined ...")
    # zero-shot takes the first letter; few-shot the first of several, else the only one: the first either way
    return found[0]


class _MedChoiceEvaluator(BaseEvaluator):
    """Shared scoring: the details carry ``pred``, ``answer``, ``correct`` and :attr:`columns` of the test set."""

    #: test-set columns copied into each sample's details
    columns: ClassVar[tuple[str, ...]] = ()
    #: what a reply without an option letter gives (see :func:`med_answer`)
    none: ClassVar[str] = "list"
    sample_outcome = SampleOutcome(correct="correct")
    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if len(rows) != len(predictions):
            return {"error": f"{name}: the test set has {len(rows)} rows for {len(predictions)} predictions"}
        needed = ("prompt_mode", "options", "label", *self.columns)
        for i, row in enumerate(rows):
            missing = [c for c in needed if c not in row]
            if missing:
                return {"error": f"{name}: test-set row {i} has no column {', '.join(map(repr, missing))} "
                                 f"(columns: {', '.join(row)}); it needs the rows of its family's loader"}
        method = rows[0]["prompt_mode"]
        correct = 0
        details = []
        for i, (prediction, reference, row) in enumerate(zip(predictions, references, rows)):
            try:
                pred = med_answer(method, prediction, row["options"], row["label"], none=self.none)
            except NoOptionLetter:
                return {"error": f"{name}: reply {i} names no option letter: {str(prediction)[:120]!r} "
                                 "(OpenCompass 0.5.4 fails on such a reply with IndexError)"}
            except ValueError:
                return {"error": f"{name}: prompt_mode {method!r} is neither 'zero-shot' nor 'few-shot'"}
            hit = pred == reference
            correct += hit
            detail: dict[str, Any] = {"pred": pred, "answer": reference, "correct": hit}
            detail.update({c: row[c] for c in self.columns})
            details.append(detail)
        return {"accuracy": 100 * correct / len(details), "details": details}


@ICL_EVALUATORS.register_module()
class MedmcqaEvaluator(_MedChoiceEvaluator):
    """MedMCQA: accuracy of the first option letter of each reply; a reply without one reads as ``[]``,
    wrong.  Details: ``pred``, ``answer``, ``correct``, ``subject_name``, ``topic_name``, ``choice_type``.

    >>> rows = [dict(prompt_mode='zero-shot', options=['a', 'b', 'c', 'd'], label='B', subject_name='Anatomy',
    ...              topic_name=None, choice_type='single')]
    >>> MedmcqaEvaluator().score(['B.'], ['B'], rows)['accuracy']
    100.0
    """

    columns = ("subject_name", "topic_name", "choice_type")


@ICL_EVALUATORS.register_module()
class MedXpertQAEvaluator(_MedChoiceEvaluator):
    """MedXpertQA: accuracy of the first option letter of each reply (the letters of ``options``' keys).
    A reply without an option letter makes OpenCompass 0.5.4's evaluation fail (``IndexError``): here
    the result is an error record naming the reply.  Details: ``pred``, ``answer``, ``correct``.
    """

    none = "raise"


@ICL_EVALUATORS.register_module()
class MedbulletsEvaluator(_MedChoiceEvaluator):
    """Medbullets: as :class:`MedmcqaEvaluator`; details with ``question_type``."""

    columns = ("question_type",)


@ICL_EVALUATORS.register_module()
class NejmaibenchEvaluator(_MedChoiceEvaluator):
    """NEJM AI: as :class:`MedmcqaEvaluator`; details with ``Subject``."""

    columns = ("Subject",)


# -- the llmjudge configs' dict postprocessors -----------------------------------------------------------


def _verdict(reply: Any) -> str:
    """The judge's grade as these families read it: the first ``A`` or ``B`` anywhere, else ``B``
    (no reply: ``B``)."""
    found = re.search(r"(A|B)", reply) if isinstance(reply, str) else None
    return found.group(0) if found else "B"


def category_llmjudge(output: dict[str, Any], rows: Any, prefix: str, levels: tuple[tuple[str, str], ...],
                      detail_columns: tuple[str, ...]) -> dict[str, Any]:
    """The families' judged accuracy, overall and per category, as OpenCompass 0.5.4 computes it.

    Each judge output ``"i"`` is graded with :func:`_verdict` (``A``: correct)
    and read with the judge dataset's row ``i``; ``levels`` are (level, column)
    pairs whose values (``'unknown'`` when the row lacks the column) are the
    categories.  Metrics: ``accuracy`` (round to 2 decimals, in [0, 100]),
    ``total_correct``, ``total_count``, then ``<prefix>-<category>`` per
    category of every level, rounded — a category that two levels share keeps
    its first place and the last level's value, as there.  Details per sample:
    ``id``, the row's ``detail_columns``, ``origin_prompt``, ``llm_judge``,
    ``gold``, ``is_correct`` and each level's category.
    """
    stats: dict[str, dict[Any, list[int]]] = {level: {} for level, _ in levels}
    correct = 0
    details = []
    for key, record in output.items():
        row = rows[int(key)]
        grade = _verdict(record.get("prediction"))
        values = [(level, row.get(column, "unknown")) for level, column in levels]
        hit = grade == "A"
        correct += hit
        for level, value in values:
            counts = stats[level].setdefault(value, [0, 0])
            counts[0] += hit
            counts[1] += 1
        detail: dict[str, Any] = {"id": key}
        detail.update({c: row[c] for c in detail_columns})
        detail.update(origin_prompt=record.get("origin_prompt"), llm_judge=grade, gold=record.get("gold", ""), is_correct=hit)
        detail.update(dict(values))
        details.append(detail)
    total = len(details)
    result: dict[str, Any] = {"accuracy": round(correct / total * 100, 2) if total > 0 else 0.00,
                              "total_correct": correct, "total_count": total, "details": details}
    for level, _ in levels:
        for value, (right, count) in stats[level].items():
            result[f"{prefix}-{value}"] = round(right / count * 100, 2)
    return result


def _test_rows(dataset: Any) -> Any:
    """The judge dataset's test rows (OpenCompass hands the postprocessor the dataset whose reader holds them)."""
    return dataset.reader.dataset["test"]


@DICT_POSTPROCESSORS.register_module("medmcqa_llmjudge_postprocess")
def medmcqa_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """MedMCQA's judged accuracy by subject, topic and question type (:func:`category_llmjudge`, prefix ``medmcqa``)."""
    return category_llmjudge(output, _test_rows(dataset), "medmcqa",
                             (("subject", "subject_name"), ("topic", "topic_name"), ("question_type", "choice_type")),
                             ("question", "options"))


@DICT_POSTPROCESSORS.register_module("MedXpertQA_llmjudge_postprocess")
def MedXpertQA_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """MedXpertQA's judged accuracy by medical task, body system and question type (prefix ``MedXpertQA``)."""
    return category_llmjudge(output, _test_rows(dataset), "MedXpertQA",
                             (("medical_task", "medical_task"), ("body_system", "body_system"), ("question_type", "question_type")),
                             ("question", "options"))


@DICT_POSTPROCESSORS.register_module("medbullets_llmjudge_postprocess")
def medbullets_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """Medbullets' judged accuracy by question type (prefix ``Medbullets``)."""
    return category_llmjudge(output, _test_rows(dataset), "Medbullets", (("question_type", "question_type"),), ())
