"""CHARM's answer extraction for its reasoning tasks, as OpenCompass 0.5.4 computes it (``charm_reason_postprocess``)."""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["charm_reason_postprocess"]

_PAREN_LETTER = re.compile(r"\(([A-Z])")
_LETTER = re.compile(r"[A-Z]")


@TEXT_POSTPROCESSORS.register_module(["charm-reason", "charm_reason_postprocess"])
@deterministic
def charm_reason_postprocess(text: Any) -> str:
    """The option letter of a CHARM reply (or reference): the first ``(X)``-style letter, else the first capital.

    When the text says ``answer is `` (with its space), only the part between
    its first and second occurrence (stripped) is read.  There the first
    ``(`` followed by a capital ASCII letter gives that letter; else the
    first capital ASCII letter anywhere (``So`` gives ``S``); with none the
    part read is returned as it is.

    >>> charm_reason_postprocess('So the answer is (B).'), charm_reason_postprocess('(A)')
    ('B', 'A')
    >>> charm_reason_postprocess('So the answer is no'), charm_reason_postprocess('不知道')
    ('no', '不知道')
    """
    ans = as_text(text)
    parts = ans.split("answer is ")
    if len(parts) != 1:
        ans = parts[1].strip()
    match = _PAREN_LETTER.search(ans)
    if match:
        return match.group(1)
    match = _LETTER.search(ans)
    if match:
        return match.group(0)
    return ans
