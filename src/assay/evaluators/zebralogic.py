"""ZebraLogic's evaluators as OpenCompass 0.5.4 computes them (``ZebraLogicMCEvaluator``, ``ZebraLogicGridEvaluator``)."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["ZebraLogicGridEvaluator", "ZebraLogicMCEvaluator", "zebralogic_letter"]

_ANSWER_IS = re.compile(r"[Tt]he (?:final )?answer is[:\s]+\(?([A-Ja-j])\)?")
_BOLD = re.compile(r"\*\*([A-Ja-j])\*\*")
_LONE = re.compile(r"^\s*\(?([A-Ja-j])\)?\s*$")
_PAREN = re.compile(r"\(([A-Ja-j])\)")
_SEPARATOR = re.compile(r"^\|[-| :]+\|$")
_HEADER_FIRST = frozenset({"house", "houses", "home", "position"})


def zebralogic_letter(text: Any) -> str:
    """The answer letter (``A``–``J``, upper case) of a reply, else ``''``: after ``The answer is``, else
    in ``**X**``, else the last line that is a lone letter, else the last ``(X)``.

    >>> zebralogic_letter('so (b) or (c)... The answer is: d'), zebralogic_letter('(A) no, (C)')
    ('D', 'C')
    """
    text = str(text)
    found = _ANSWER_IS.search(text) or _BOLD.search(text)
    if found:
        return found.group(1).upper()
    for line in reversed(text.strip().split("\n")):
        lone = _LONE.match(line.strip())
        if lone:
            return lone.group(1).upper()
    letters = _PAREN.findall(text)
    return letters[-1].upper() if letters else ""


@ICL_EVALUATORS.register_module()
class ZebraLogicMCEvaluator(BaseEvaluator):
    """ZebraLogic multiple-choice accuracy × 100 (``score``): the reply's letter (:func:`zebralogic_letter`)
    equals the reference (``answer_label``), case aside.  Details: ``pred``, ``extracted``, ``answer``, ``correct``.

    >>> ZebraLogicMCEvaluator().score(['The answer is: (b)', 'A'], ['B', 'C'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = []
        for pred, ref in zip(predictions, references):
            letter = zebralogic_letter(pred)
            details.append({"pred": pred, "extracted": letter, "answer": ref, "correct": letter.upper() == str(ref).upper()})
        return {"score": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}


def _grid_reference(ref: Any) -> Any:
    """The reference's ``rows``: from a dict, else from the text read as a Python literal, else as JSON; else ``None``."""
    if isinstance(ref, dict):
        return ref.get("rows", None)
    for parse in (ast.literal_eval, json.loads):
        try:
            return parse(ref).get("rows", None)
        except Exception:
            continue
    return None


def _table(text: str) -> list[list[str]] | None:
    """The Markdown table rows of ``text`` (separator rows skipped), when there are at least two."""
    rows = []
    for line in text.split("\n"):
        line = line.strip()
        if not line.startswith("|") or _SEPARATOR.match(line):
            continue
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows if len(rows) > 1 else None


def _cell(value: Any) -> str:
    return str(value).strip().lower()


@ICL_EVALUATORS.register_module()
class ZebraLogicGridEvaluator(BaseEvaluator):
    """ZebraLogic's grid accuracy: ``score`` and ``cell_accuracy`` (the share of the solution's cells right,
    over all samples, × 100) and ``perfect_accuracy`` (the share of samples with every cell right, × 100).

    A reply's Markdown table (a first row starting ``House``/``Position`` dropped
    when it has one row too many) is compared cell by cell with the solution's
    ``rows``, case and surrounding spaces aside; a reply without a table of as
    many rows counts each solution cell found anywhere in it (case aside).  A
    sample whose reference has no readable ``rows`` is skipped — no details,
    but still counted in ``perfect_accuracy``'s denominator, as in
    OpenCompass.  Details: ``pred``, ``answer`` (both cut to 200 characters),
    ``cell_accuracy``, ``correct``.
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"perfect_accuracy": "correct"})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        total = right = perfect = 0
        details = []
        for pred, ref in zip(predictions, references):
            text = str(pred)
            gold = _grid_reference(ref)
            if gold is None:
                continue
            table = _table(text)
            cells = sum(len(row) for row in gold)
            hits = 0
            if table is not None and len(table) == len(gold) + 1 and table[0] and _cell(table[0][0]) in _HEADER_FIRST:
                table = table[1:]
            if table is not None and len(table) == len(gold):
                hits = sum(_cell(g) == _cell(p) for gold_row, row in zip(gold, table) for g, p in zip(gold_row, row[: len(gold_row)]))
            else:
                hits = sum(1 for row in gold for cell in row if re.search(re.escape(str(cell)), text, re.IGNORECASE))
            total += cells
            right += hits
            perfect += hits == cells
            details.append({"pred": text[:200], "answer": str(ref)[:200], "cell_accuracy": hits / cells if cells else 0,
                            "correct": hits == cells})
        cell_accuracy = right / total * 100 if total else 0
        return {"score": cell_accuracy, "cell_accuracy": cell_accuracy, "perfect_accuracy": perfect / len(predictions) * 100,
                "details": details}
