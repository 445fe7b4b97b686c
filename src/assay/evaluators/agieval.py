"""AGIEval's evaluators, as OpenCompass 0.5.4 scores them.

``AGIEvalEvaluator`` scores the cloze tasks (``math``, ``gaokao-mathcloze``):
it extracts a math answer from the reply (:func:`agieval_math_answer`) and
compares it with the label after the MATH benchmark's string normalisation
(:func:`agieval_math_equal`).  ``AGIEvalEvaluator_mcq`` compares letters.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import equal_as_is, score_pairs, share_percent
from assay.evaluators._mathstrings import _fix_sqrt, _Malformed, _remove_right_units
from assay.postprocess.math import last_boxed_command
from assay.registry import ICL_EVALUATORS

__all__ = ["AGIEvalEvaluator", "AGIEvalEvaluator_mcq", "agieval_math_answer", "agieval_math_equal", "agieval_normalize"]

_PREFIXES = ("The answer is therefore", "答案是")
_DOLLARS = re.compile(r"\$(.*)\$")
_NUMBER = re.compile(r"(?:\$)?\d+(?:\.\d+)?(?![\w\d])")


def _after_prefixes(text: str) -> str:
    """For "The answer is therefore" then "答案是": the text after it, stripped, where the text
    starts with it, else after its last occurrence (the text unchanged when it has none)."""
    for prefix in _PREFIXES:
        at = 0 if text.startswith(prefix) else text.rfind(prefix)
        if at >= 0:
            text = text[at + len(prefix) :].strip()
    return text


def _unbox(boxed: str | None) -> str | None:
    """The content of ``\\boxed{…}`` (what follows its last ``=``, if any), or ``None`` for another form."""
    if boxed is None or not boxed.startswith("\\boxed{") or not boxed.endswith("}"):
        return None
    inner = boxed[len("\\boxed{") : -1]
    return inner.split("=")[-1].lstrip(" ") if "=" in inner else inner


def agieval_math_answer(reply: Any) -> str | None:
    """The answer AGIEval's zero-shot rule reads from a cloze reply, or ``None``.

    In order: cut after a leading (else the last) "The answer is therefore",
    then likewise "答案是"; a reply holding ``\\boxed`` gives its last balanced
    ``\\boxed{…}`` (after a ``=`` inside), else ``None``; otherwise the text
    between the first and the last ``$`` of the last line holding two (after
    its last ``=``); otherwise what follows the reply's last ``=`` (with
    trailing periods removed and cut at a literal backslash-n); otherwise the
    last number.

    >>> agieval_math_answer('So x is \\\\boxed{x=3}.'), agieval_math_answer('It is $\\\\frac{1}{2}$.')
    ('3', '\\\\frac{1}{2}')
    >>> agieval_math_answer('about 12 or 13 apples'), agieval_math_answer('no idea') is None
    ('13', True)
    """
    text = _after_prefixes("" if reply is None else str(reply))
    if "\\boxed" in text:
        return _unbox(last_boxed_command(text))
    found = _DOLLARS.findall(text)
    answer: str | None = None
    if found:
        answer = found[-1]
        if "=" in answer:
            answer = answer.split("=")[-1].lstrip(" ")
    if answer:
        return answer
    if "=" in text:
        tail = text.split("=")[-1].lstrip(" ").rstrip(".")
        return tail.split("\\n")[0] if "\\n" in tail else tail
    numbers = _NUMBER.findall(text)
    return numbers[-1] if numbers else None


#: The normalisation failed; the raw strings are compared instead.
_Unequal = _Malformed


def _fix_fracs(text: str) -> str:
    head, *rest = text.split("\\frac")
    out = head
    for piece in rest:
        out += "\\frac"
        if not piece:
            raise _Unequal
        if piece[0] == "{":
            out += piece
            continue
        if len(piece) < 2:
            return text
        a, b, tail = piece[0], piece[1], piece[2:]
        out += "{" + a + "}" + ("{" + b + "}" if b != "{" else b) + tail
    return out


def _fix_a_slash_b(text: str) -> str:
    parts = text.split("/")
    if len(parts) != 2:
        return text
    try:
        a, b = int(parts[0]), int(parts[1])
    except ValueError:
        return text
    if text != f"{a}/{b}":
        return text
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def agieval_normalize(text: str) -> str:
    """A math answer in the MATH benchmark's normal form (raises ``_Unequal`` where that fails).

    Drops line breaks, ``\\!``, ``\\left``/``\\right``, degree marks, ``\\$``
    and ``\\%``; writes ``\\\\`` as ``\\`` and ``tfrac``/``dfrac`` as
    ``frac``; cuts a trailing ``\\text{ unit}``; adds a ``0`` before a leading
    ``.`` (and after a space or ``{``); drops a left-hand side of at most two
    characters (``x=3`` → ``3``); completes ``\\sqrt2`` and ``\\frac12``;
    removes spaces; ``0.5`` → ``\\frac{1}{2}``; ``3/4`` → ``\\frac{3}{4}``.

    >>> agieval_normalize('x = \\\\dfrac12')
    '\\\\frac{1}{2}'
    """
    for old, new in (("\n", ""), ("\\!", ""), ("\\\\", "\\"), ("tfrac", "frac"), ("dfrac", "frac"), ("\\left", ""), ("\\right", ""), ("^{\\circ}", ""), ("^\\circ", ""), ("\\$", "")):
        text = text.replace(old, new)
    text = _remove_right_units(text)
    text = text.replace("\\%", "").replace(" .", " 0.").replace("{.", "{0.")
    if not text:
        return text
    if text[0] == ".":
        text = "0" + text
    sides = text.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        text = sides[1]
    text = _fix_sqrt(text).replace(" ", "")
    text = _fix_fracs(text)
    if text == "0.5":
        text = "\\frac{1}{2}"
    return _fix_a_slash_b(text)


def agieval_math_equal(answer: Any, label: Any) -> bool:
    """Whether two math answers are equal after :func:`agieval_normalize` (both ``None``: equal).

    Where the normalisation fails (a piece of ``\\sqrt`` or ``\\frac`` with
    nothing after it, two ``\\text{ `` units) the raw values are compared,
    as in OpenCompass.

    >>> agieval_math_equal('0.5', '\\\\frac{1}{2}'), agieval_math_equal(None, '3')
    (True, False)
    """
    if answer is None and label is None:
        return True
    if answer is None or label is None:
        return False
    try:
        return bool(agieval_normalize(answer) == agieval_normalize(label))
    except (_Unequal, AttributeError, TypeError):
        return bool(answer == label)


def _judge_cloze(reply: Any, label: Any) -> tuple[Any, bool]:
    """A :func:`~assay.evaluators._common.score_pairs` judge: the reply's math answer, and whether it equals the label."""
    answer = agieval_math_answer(reply)
    return answer, agieval_math_equal(answer, label)


@ICL_EVALUATORS.register_module()
class AGIEvalEvaluator(BaseEvaluator):
    """AGIEval cloze tasks: the reply's math answer equals the label after normalisation.

    Inputs: raw ``predictions`` and ``references`` (the labels).  Each reply
    goes through :func:`agieval_math_answer`; a reply with no answer
    (``None``) is wrong.  Metric: ``score`` in [0, 100].  Details: ``pred``
    (the extracted answer), ``answer``, ``correct``.

    >>> AGIEvalEvaluator().score(['The answer is $\\\\frac12$', '\\\\boxed{4}'], ['\\\\frac{1}{2}', '5'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, _judge_cloze, metric="score", scale=share_percent)


@ICL_EVALUATORS.register_module()
class AGIEvalEvaluator_mcq(BaseEvaluator):
    """AGIEval multiple-choice tasks: the prediction equals the label exactly.

    Metric: ``score`` in [0, 100].  Details: ``pred``, ``answer``, ``correct``.

    >>> AGIEvalEvaluator_mcq().score(['A', 'AB'], ['A', 'BA'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, equal_as_is, metric="score", scale=share_percent)
