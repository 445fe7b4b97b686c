"""L-Eval's GSM-100 postprocessors, as OpenCompass 0.5.4 computes them.

:func:`gsm100_postprocess` reads the number a reply gives after
``'The answer is'``; :func:`gsm100_dataset_postprocess` drops the thousands
separators of a reference.  Both are registered under OpenCompass's names
(``'gsm100'``, ``'gsm100_dataset'``) and their function names.
"""

from __future__ import annotations

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["gsm100_dataset_postprocess", "gsm100_postprocess"]

_MARKER = "The answer is"


@TEXT_POSTPROCESSORS.register_module(["gsm100", "gsm100_postprocess"])
@deterministic
def gsm100_postprocess(text: str) -> str:
    """The digits of the first space-separated word holding a digit after the first ``'The answer is'``.

    Returns ``''`` when the text has no ``'The answer is'`` (case matters) or
    no digit follows it.  Only the first word with a digit counts, and all of
    its digits are kept, so a decimal point or a minus sign is dropped:
    ``'The answer is -1.5'`` gives ``'15'``, as in OpenCompass.  A word
    counts from its first digit in Python's sense (``str.isdigit``), which
    includes superscripts and other scripts' digits.  Words are split on
    single spaces only: a newline does not separate two words.

    >>> gsm100_postprocess('So 3 + 4 = 7. The answer is 7.')
    '7'
    >>> gsm100_postprocess('The answer is $1,234 dollars')
    '1234'
    >>> gsm100_postprocess('the answer is 7')
    ''
    """
    parts = as_text(text).split(_MARKER)
    if len(parts) < 2:
        return ""
    for word in parts[1].split(" "):
        if any(ch.isdigit() for ch in word):
            return "".join(ch for ch in word if ch.isdigit())
    return ""


@TEXT_POSTPROCESSORS.register_module(["gsm100_dataset", "gsm100_dataset_postprocess"])
@deterministic
def gsm100_dataset_postprocess(text: str) -> str:
    """The reference without its commas (``'1,234'`` → ``'1234'``), as OpenCompass does.

    >>> gsm100_dataset_postprocess('1,234,567')
    '1234567'
    """
    return as_text(text).replace(",", "")
