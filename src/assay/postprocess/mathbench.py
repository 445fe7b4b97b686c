"""MathBench's postprocessor for cloze answers, as OpenCompass 0.5.4 computes it (``mathbench_postprocess``).

CompassBench v1.3's ``compassbench_objective_v1_3_postprocess`` computes the same, and is registered
under that name too.
"""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["mathbench_postprocess"]

_DIGIT_COMMA = re.compile(r"(\d),(\d)")
_NUMBER = re.compile(r"-?\d*\.?/?\d+|\d+")


@TEXT_POSTPROCESSORS.register_module(["mathbench_postprocess", "compassbench_objective_v1_3_postprocess"])
@deterministic
def mathbench_postprocess(text: Any, name: str) -> str:
    """The number a MathBench reply gives as its answer.

    ``name`` is the subset (``cloze_en``, ``cloze_cn``, …): a name containing
    ``_cn`` looks for ``答案是``, any other for ``The answer is`` (case
    matters).  When the phrase occurs, the text between its first and second
    occurrence (stripped) is read and its *first* number is the answer;
    otherwise the whole reply is read and its *last* number is.  A comma
    between two digits is dropped first — one comma per pair of digits, as
    OpenCompass's substitution goes: ``1,234,567`` reads ``1234,567`` and
    gives ``567`` when it is the last number.  A number is an optional
    ``-``, digits, an optional ``.`` and ``/`` and digits (``3/4``,
    ``.5``, ``-2``).  With no number, the text read is returned as it is
    (the whole reply, or the stripped part after the phrase).

    >>> mathbench_postprocess('So 3 + 4 = 7. The answer is 7 apples, not 8', 'cloze_en')
    '7'
    >>> mathbench_postprocess('It costs 1,250 dollars, or 12.5 hundred', 'cloze_en')
    '12.5'
    >>> mathbench_postprocess('答案是 无解', 'cloze_cn')
    '无解'
    """
    ans = as_text(text)
    parts = ans.split("答案是" if "_cn" in name else "The answer is")
    after_phrase = len(parts) != 1
    if after_phrase:
        ans = parts[1].strip()
    numbers = _NUMBER.findall(_DIGIT_COMMA.sub(r"\1\2", ans))
    if numbers:
        return numbers[0] if after_phrase else numbers[-1]
    return ans
