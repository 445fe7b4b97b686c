"""SuperGPQA's evaluator and judge postprocessor as OpenCompass 0.5.4 computes them
(``SuperGPQAEvaluator``, ``supergpqa_llmjudge_postprocess``).

The evaluator reads a reply's option letter (``The answer is C``,
``Answer: $\\boxed{B}$``, a line that is just ``(D)``), else the text of one of
the options, on the last line first, then on the whole reply.  Each search
OpenCompass runs under a five-second limit, a search that takes longer
finding nothing; its patterns backtrack exponentially on a run of brackets
and dollars, so assay runs them with the ``regex`` module under the same
limit (a time-out again finding nothing).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.evaluators.med_choice import _verdict
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS

__all__ = ["SuperGPQAEvaluator", "supergpqa_llmjudge_postprocess", "supergpqa_option_content", "supergpqa_option_label"]

#: Any run of opening marks and ``\boxed{``-like commands before the answer, and of closing ones after it.
_OPEN = r"(?:[\*\$\{\(\[\\(]*?(?:(?:\\boxed|\\mathbf|\\mathrm|\\text){)?)*\s*"
_CLOSE = r"(?:\\?\}?\$?\)?\]?\}?)*(?:[\s:\.\*)]|$)"
_LEADS_LABEL = (r"[Tt]he\s+(?:\w+\s+)?(?:answer|option)(?:\w+\s+)?\s+is?:?\s*", r"(?i:Answer)[\*\s]*:\s*", r"^[^\w\r\n]*")
_LEADS_CONTENT = (r"[Tt]he\s+(?:\w+\s+)?(?:answer|option)(?:\w+\s+)?\s+is:?\s*", r"(?i:Answer)\s*", r"^[^\w\r\n]*")
_TIME_LIMIT = 5.0
_LETTERS = "ABCDEFGHIJ"
_DIFFICULTIES = ("hard", "middle", "easy")


@cache
def _compiled(pattern: str, ignore_case: bool) -> Any:
    import regex

    return regex.compile(pattern, regex.V0 | (regex.IGNORECASE if ignore_case else 0))


def _search(pattern: str, text: str, ignore_case: bool) -> Any:
    try:
        return _compiled(pattern, ignore_case).search(text, timeout=_TIME_LIMIT)
    except TimeoutError:
        return None


def _first(patterns: list[str], text: str, ignore_case: bool) -> Any:
    """The first pattern's match on the last line of ``text`` (right-stripped), else on the whole text."""
    text = text.rstrip()
    for where in (text.split("\n")[-1], text):
        for pattern in patterns:
            found = _search(pattern, where, ignore_case)
            if found:
                return found
    return None


def supergpqa_option_label(text: Any) -> str | None:
    """The option letter ``text`` gives (``A``–``J``, any case), ``'error'`` for a non-text reply, else ``None``.

    >>> supergpqa_option_label('Some thought.\\nAnswer: $\\\\boxed{C}$'), supergpqa_option_label('the answer is b.')
    ('C', 'b')
    """
    if not isinstance(text, str):
        return "error"
    found = _first([lead + _OPEN + f"([{_LETTERS}])" + _CLOSE for lead in _LEADS_LABEL], text, True)
    return found.group(1) if found else None


def supergpqa_option_content(text: Any, options: Any) -> str | None:
    """The option whose text ``text`` gives as its answer, ``'error'`` for a non-text reply or options, else ``None``.

    >>> supergpqa_option_content('The answer is 40', ['10', '40'])
    '40'
    """
    if not isinstance(text, str) or not isinstance(options, list):
        return "error"
    escaped = [re.escape(option) for option in options]
    choice = "(" + "|".join(escaped) + ")"
    found = _first([lead + _OPEN + choice + _CLOSE for lead in _LEADS_CONTENT], text, False)
    if not found:
        return None
    text_found = found.group(1)
    return options[escaped.index(text_found)] if text_found in escaped else text_found


def _letter(text: str, options: list[Any]) -> str | None:
    label = supergpqa_option_label(text)
    if label is not None:
        return label
    content = supergpqa_option_content(text, options)
    if not content:
        return None
    if content not in options:
        raise ValueError(f"the answer found, {content!r}, is none of the options")
    return chr(options.index(content) + 65)


@ICL_EVALUATORS.register_module()
class SuperGPQAEvaluator(BaseEvaluator):
    """SuperGPQA accuracy as a fraction in [0, 1] (``accuracy``), with ``error_rate``, ``miss_rate``
    and ``hard_accuracy``, ``middle_accuracy``, ``easy_accuracy`` (0 for a difficulty without questions).

    Inputs: ``predictions``, ``references`` (the ``answer_letter`` column) and
    the test set (``prompt_mode`` of its first row, ``options``,
    ``difficulty``, ``answer_letter``, ``answer``).  A ``zero-shot`` reply
    gives its letter (:func:`supergpqa_option_label`), else the letter of
    the option whose text it gives; a ``five-shot`` reply is read up to its
    first ``Question:`` first, then whole.  A letter in lower case is found
    but never equals the reference (as in OpenCompass).  Details:
    ``pred``, ``answer`` (the right option's text), ``parsed_answer``,
    ``correct``.  A difficulty other than hard, middle, easy, a reference
    other than the row's ``answer_letter`` or another prompt mode (where
    OpenCompass stops) gives an error record naming the sample.
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"accuracy": "correct"})  # a fraction: the mean, × 1

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if len(predictions) != len(references) or len(rows) != len(predictions):
            return {"error": f"SuperGPQAEvaluator: {len(predictions)} predictions, {len(references)} references, {len(rows)} test rows"}
        mode = rows[0].get("prompt_mode")
        if mode not in ("zero-shot", "five-shot"):
            return {"error": f"SuperGPQAEvaluator: unsupported prompt_mode {mode!r} (zero-shot or five-shot)"}
        right = errors = missed = 0
        by_level = {d: [0, 0] for d in _DIFFICULTIES}
        details = []
        for i, (pred, gold, row) in enumerate(zip(predictions, references, rows)):
            difficulty = row.get("difficulty", "unknown")
            if difficulty not in by_level:
                return {"error": f"SuperGPQAEvaluator: sample {i}: difficulty {difficulty!r} is not hard, middle or easy"}
            if row.get("answer_letter") != gold:
                return {"error": f"SuperGPQAEvaluator: sample {i}: the reference {gold!r} is not the row's answer_letter "
                                 f"{row.get('answer_letter')!r}"}
            try:
                if mode == "five-shot" and isinstance(pred, str):
                    found = _letter(pred.split("Question:")[0], row["options"])
                    found = found if found is not None else _letter(pred, row["options"])
                elif mode == "five-shot":
                    raise ValueError(f"a reply must be text, got {type(pred).__name__} {pred!r}")
                else:
                    found = _letter(pred, row["options"])
            except (ValueError, KeyError) as exc:
                return {"error": f"SuperGPQAEvaluator: sample {i}: {exc}"}
            hit = bool(found) and found == gold
            right += hit
            missed += found is None or found == ""
            errors += (not hit) and found == "error"
            by_level[difficulty][0] += hit
            by_level[difficulty][1] += 1
            details.append({"pred": pred, "answer": row.get("answer"), "parsed_answer": found, "correct": hit})
        count = len(details)
        result: dict[str, Any] = {"accuracy": right / count, "error_rate": errors / count, "miss_rate": missed / count}
        for level in _DIFFICULTIES:
            level_right, level_count = by_level[level]
            result[f"{level}_accuracy"] = level_right / level_count if level_count > 0 else 0
        result["details"] = details
        return result


@DICT_POSTPROCESSORS.register_module("supergpqa_llmjudge_postprocess")
def supergpqa_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """SuperGPQA's judged accuracy, overall and per discipline, field and subfield, as OpenCompass 0.5.4 computes it.

    Each judge output ``"i"`` is graded by its first ``A`` or ``B`` (else
    ``B``; ``A`` is correct) and read with the judge dataset's row ``i``.
    Metrics: ``accuracy`` (rounded to 2 decimals, in [0, 100]),
    ``total_correct``, ``total_count``, then ``SuperGPQA-<discipline>``,
    ``SuperGPQA-<discipline>-<field>``, ``SuperGPQA-<discipline>-<field>-<subfield>``
    (rounded).  Details: ``id``, ``question``, ``options``,
    ``origin_prompt``, ``prediction`` (the grade), ``gold``, ``is_correct``,
    ``discipline``, ``field``, ``subfield``.  A discipline or field whose name
    holds ``/`` stops OpenCompass when it names the metric; here it is an
    error record naming it.
    """
    rows = dataset.reader.dataset["test"]
    stats: dict[str, dict[str, list[int]]] = {"discipline": {}, "field": {}, "subfield": {}}
    correct, details = 0, []
    for key, record in output.items():
        row = rows[int(key)]
        grade = _verdict(record.get("prediction"))
        discipline, field, subfield = (row.get(c, "unknown") for c in ("discipline", "field", "subfield"))
        hit = grade == "A"
        correct += hit
        for level, name in (("discipline", discipline), ("field", f"{discipline}/{field}"),
                            ("subfield", f"{discipline}/{field}/{subfield}")):
            counts = stats[level].setdefault(name, [0, 0])
            counts[0] += hit
            counts[1] += 1
        details.append({"id": key, "question": row["question"], "options": row["options"], "origin_prompt": record.get("origin_prompt"),
                        "prediction": grade, "gold": record.get("gold", ""), "is_correct": hit, "discipline": discipline,
                        "field": field, "subfield": subfield})
    total = len(details)
    result: dict[str, Any] = {"accuracy": round(correct / total * 100, 2) if total > 0 else 0.00, "total_correct": correct,
                              "total_count": total, "details": details}
    for level, parts in (("discipline", 1), ("field", 2), ("subfield", 3)):
        for name, (level_right, level_count) in stats[level].items():
            if len(name.split("/")) != parts:
                return {"error": f"supergpqa_llmjudge_postprocess: the {level} name {name!r} holds '/' more often than "
                                 f"its levels (OpenCompass stops naming its metric)"}
            result["SuperGPQA-" + "-".join(name.split("/"))] = round(level_right / level_count * 100, 2)
    return result
