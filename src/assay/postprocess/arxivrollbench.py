"""ArxivRollBench's answer readers, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["arxivrollbench_choice_postprocess", "arxivrollbench_selection_postprocess"]

_SELECTION = re.compile(r"\bselection\s*([1-4])\b", re.IGNORECASE)
_DIGIT = re.compile(r"\b([1-4])\b")
_LETTER = re.compile(r"\b([ABCD])\b", re.IGNORECASE)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def arxivrollbench_selection_postprocess(text: Any) -> str:
    """The ordering and cloze tasks' reader: ``'Selection N'`` (N from 1 to 4), else the stripped reply.

    The first ``selection N`` (any case, spaces or none between) decides,
    else the first digit 1–4 standing as a word; a reply with neither is
    returned stripped, unchanged (so it never equals a label).  ``None``
    gives ``''``; any other value is read as its ``str``.

    >>> arxivrollbench_selection_postprocess('I pick **selection3**.')
    'Selection 3'
    >>> arxivrollbench_selection_postprocess('Order: 2, then 4')
    'Selection 2'
    >>> arxivrollbench_selection_postprocess(' none fits ')
    'none fits'
    """
    if text is None:
        return ""
    text = str(text).strip()
    match = _SELECTION.search(text) or _DIGIT.search(text)
    return f"Selection {match.group(1)}" if match else text


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def arxivrollbench_choice_postprocess(text: Any) -> str:
    """The continuation task's reader: the first of A–D standing as a word, upper-cased, else the stripped reply.

    Lower-case letters count: the article in ``'a good one'`` reads as ``'A'``,
    as in OpenCompass.  ``None`` gives ``''``; any other value is read as
    its ``str``.

    >>> arxivrollbench_choice_postprocess('The answer is (c).')
    'C'
    >>> arxivrollbench_choice_postprocess('It is a sequel')
    'A'
    >>> arxivrollbench_choice_postprocess('  E  ')
    'E'
    """
    if text is None:
        return ""
    text = str(text).strip()
    match = _LETTER.search(text)
    return match.group(1).upper() if match else text
