"""BIG-Bench Hard answer extractors (multiple-choice letters and free-form answers).

``''`` means no answer was found.
"""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["bbh_freeform_postprocess", "bbh_mcq_postprocess"]

_ANSWER_IS = re.compile(r"answer is\s*:?\s*", re.IGNORECASE)
_PAREN_LETTER = re.compile(r"\(([A-Z])\)?")
_CAPITAL = re.compile(r"[A-Z]")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LIST_COMMA = re.compile(r"\s*,\s*")


def _after_answer_is(text: str) -> str:
    match = _ANSWER_IS.search(text)
    return text[match.end() :] if match else text


@TEXT_POSTPROCESSORS.register_module(["bbh-mcq", "bbh_mcq_postprocess"])
@deterministic
def bbh_mcq_postprocess(text: str) -> str:
    """The option letter of a BBH multiple-choice reply, or ``''``.

    Looks after the first "answer is" (or in the whole reply when it has
    none) for a parenthesized capital ``(X)``, else the first capital letter.
    OpenCompass returns the remaining text when it holds no capital letter;
    assay returns ``''``.

    >>> bbh_mcq_postprocess('Options (A) and (B). So the answer is (B).')
    'B'
    >>> bbh_mcq_postprocess('so the answer is 42')
    ''
    """
    rest = _after_answer_is(as_text(text))
    match = _PAREN_LETTER.search(rest) or _CAPITAL.search(rest)
    if match is None:
        return ""
    return match.group(1) if match.re.groups else match.group(0)


@TEXT_POSTPROCESSORS.register_module(["bbh-freeform", "bbh_freeform_postprocess"])
@deterministic
def bbh_freeform_postprocess(text: str) -> str:
    """The free-form answer of a BBH reply, or ``''``.

    Takes the text after the first "answer is" (the whole reply when it has
    none), keeps its first line, unwraps ``**bold**``, drops a trailing period,
    writes *yes/no/true/false* capitalized as in the BBH targets and turns a
    comma-separated list into a space-separated one (``'a, b, c'`` →
    ``'a b c'``, the form of the word-sorting targets).  Case is kept: BBH's
    own targets differ (``yes`` in sports_understanding, ``Yes`` in
    navigate), so case-folding belongs to the comparison
    (:class:`~assay.evaluators.exact.BBHEvaluator`).

    >>> bbh_freeform_postprocess("Let's think. So the answer is **yes**.")
    'yes'
    >>> bbh_freeform_postprocess('So the answer is apple, banana, cherry.')
    'apple banana cherry'
    """
    rest = _after_answer_is(as_text(text)).strip()
    line = rest.split("\n", 1)[0].strip()
    bold = _BOLD.search(line)
    if bold is not None:
        line = bold.group(1).strip()
    line = line.rstrip(".").strip()
    if "," in line:
        line = _LIST_COMMA.sub(" ", line).strip()
    return line
