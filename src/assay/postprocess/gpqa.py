"""GPQA's answer extractor, as OpenCompass 0.5.4 computes it."""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["GPQA_Simple_Eval_postprocess"]

_ANSWER = re.compile(r"(?i)ANSWER\s*:\s*([A-D])")


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def GPQA_Simple_Eval_postprocess(text: str) -> str | None:
    """The letter after the first "ANSWER:" (any case, spaces allowed around the colon), or ``None``.

    As in OpenCompass (simple-evals' rule), a reply without such a line gives
    ``None``, not ``''``; ``'answer: d'`` gives ``'d'`` (the letter is matched
    case-insensitively too, so it fails against the reference ``'D'``).

    >>> GPQA_Simple_Eval_postprocess('Reasoning...\\nANSWER: C')
    'C'
    >>> GPQA_Simple_Eval_postprocess('The answer is C') is None
    True
    """
    match = _ANSWER.search(as_text(text))
    return match.group(1) if match else None
