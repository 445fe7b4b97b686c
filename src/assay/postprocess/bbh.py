"""BIG-Bench Hard answer extractors, as OpenCompass 0.5.4 computes them.

``bbh_mcq_postprocess`` gives the option letter of a multiple-choice reply and
``bbh_freeform_postprocess`` the answer of a free-form one; OpenCompass's BBH
configs name them (``bbh-mcq`` as both the prediction and the dataset
postprocessor, so that ``'(B)'`` targets become ``'B'``).  Each reproduces
OpenCompass's results, quirks included (listed in the docstrings).
"""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["bbh_freeform_postprocess", "bbh_mcq_postprocess"]

_OPEN_PAREN_CAPITAL = re.compile(r"\(([A-Z])\)*")
_CAPITAL = re.compile(r"[A-Z]")
_ANSWER_IS_ANY_CASE = re.compile(r"answer is\s*:?\s*", re.IGNORECASE)
_BOLD = re.compile(r"\*\*(.*?)\*\*")
_YES_NO = re.compile(r"(yes|no)\b", re.IGNORECASE)
_TRUE_FALSE = re.compile(r"(true|false)\b", re.IGNORECASE)
_DIGIT_COMMA_DIGIT = re.compile(r"\d\s*,\s*\d")
_SPACES = re.compile(r"\s+")


@TEXT_POSTPROCESSORS.register_module(["bbh-mcq", "bbh_mcq_postprocess"])
@deterministic
def bbh_mcq_postprocess(text: str) -> str:
    """The option letter of a BBH multiple-choice reply.

    The part looked at is the text between the first and the second
    ``'answer is '`` (case-sensitive, with its space), stripped, or the whole
    reply when it has no ``'answer is '``.  In it: the capital after the first
    ``(``, else the first capital letter, else that part itself.

    OpenCompass's quirks, reproduced:

    * with two "answer is" the first one's answer wins
      (``'The answer is (A). No, the answer is (B).'`` → ``'A'``);
    * no closing parenthesis is needed (``'(B'`` → ``'B'``), and any capital
      counts, so ``'I think so'`` → ``'I'``;
    * a reply without a capital letter is returned (stripped when it followed
      "answer is"), not ``''``: ``'so the answer is 42'`` → ``'42'``;
    * "Answer is" or "ANSWER IS" are not recognised.

    >>> bbh_mcq_postprocess("Let's think. So the answer is (B).")
    'B'
    >>> bbh_mcq_postprocess('The answer is (A). No wait, the answer is (C).')
    'A'
    >>> bbh_mcq_postprocess('so the answer is 42')
    '42'
    """
    reply = as_text(text)
    parts = reply.split("answer is ")
    if len(parts) > 1:
        reply = parts[1].strip()
    match = _OPEN_PAREN_CAPITAL.search(reply)
    if match:
        return match.group(1)
    match = _CAPITAL.search(reply)
    if match:
        return match.group(0)
    return reply


@TEXT_POSTPROCESSORS.register_module(["bbh-freeform", "bbh_freeform_postprocess"])
@deterministic
def bbh_freeform_postprocess(text: str) -> str:
    """The answer of a BBH free-form reply.

    Steps: keep what follows the last "answer is" (any case, with an optional
    colon), stripped, or the whole reply; keep its first line, stripped; drop
    one trailing ``.``; unwrap the first ``**bold**`` span; a text starting
    with the word yes/no/true/false gives that word capitalised
    (``'Yes'``, ``'False'``); otherwise commas become spaces (unless a comma
    sits between two digits, as in ``'1,024'``) and runs of white space one
    space.

    OpenCompass's quirks, reproduced: ``'no way'`` → ``'No'``; ``'1, 024'``
    keeps its comma; the period is dropped before the bold span is unwrapped,
    so ``'**24.**'`` → ``'24.'``.

    >>> bbh_freeform_postprocess("Let's think. So the answer is **yes**.")
    'Yes'
    >>> bbh_freeform_postprocess('So the answer is apple, banana, cherry.')
    'apple banana cherry'
    >>> bbh_freeform_postprocess('The answer is 1,024')
    '1,024'
    """
    reply = as_text(text)
    parts = _ANSWER_IS_ANY_CASE.split(reply)
    if len(parts) > 1:
        reply = parts[-1].strip()
    reply = reply.split("\n")[0].strip()
    if reply.endswith("."):
        reply = reply[:-1].strip()
    bold = _BOLD.search(reply)
    if bold:
        reply = bold.group(1).strip()
    for words in (_YES_NO, _TRUE_FALSE):
        match = words.match(reply)
        if match:
            return match.group(1).capitalize()
    if "," in reply and not _DIGIT_COMMA_DIGIT.search(reply):
        reply = _commas_to_spaces(reply)
    return _SPACES.sub(" ", reply).strip()


def _commas_to_spaces(text: str) -> str:
    """``re.sub(r'\\s*,\\s*', ' ', text)`` in linear time (the regex is quadratic on long blank runs)."""
    pieces = text.split(",")
    last = len(pieces) - 1
    return " ".join(
        piece if 0 == i == last else piece.rstrip() if i == 0 else piece.lstrip() if i == last else piece.strip()
        for i, piece in enumerate(pieces)
    )
