"""InfiniteBench's answer extractor, as OpenCompass 0.5.4 computes it."""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["InfiniteBench_first_number_postprocess"]

_NUMBER = re.compile(r"\d+\.\d+|\d+")


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def InfiniteBench_first_number_postprocess(text: str) -> str | None:
    """The first unsigned number of the text (``12`` or ``3.5``), as a string; ``None`` when there is none.

    As in OpenCompass, the sign is not part of the number (``'-7'`` gives
    ``'7'``), a number's thousands separators end it (``'1,024'`` gives
    ``'1'``), and the answer for a reply without a digit is ``None`` rather
    than ``''``; an accuracy evaluator compares it as the text ``'None'``.
    Digits are Unicode decimal digits (``\\d``).

    >>> InfiniteBench_first_number_postprocess('The pass key is 71432.')
    '71432'
    >>> InfiniteBench_first_number_postprocess('about -2.50 or so')
    '2.50'
    >>> InfiniteBench_first_number_postprocess('no idea') is None
    True
    """
    found = _NUMBER.search(as_text(text))
    if found is None:
        return None
    return found.group(0).strip()
