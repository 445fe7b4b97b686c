"""SMolInstruct's yes/no readers, as OpenCompass 0.5.4 computes them.

The property-prediction tasks (BBBP, ClinTox, HIV, SIDER) keep their answers
as ``'<BOOLEAN> Yes </BOOLEAN>'`` / ``'<BOOLEAN> No </BOOLEAN>'``; these read a
reply into the same form, which ``AccEvaluator`` then compares.
"""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["smolinstruct_acc_0shot_postprocess", "smolinstruct_acc_postprocess"]

YES = "<BOOLEAN> Yes </BOOLEAN>"
NO = "<BOOLEAN> No </BOOLEAN>"

#: Where the zero-shot reader looks for the word, in this order (each searched case-insensitively).
_ZERO_SHOT_PATTERNS = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\\boxed\{\s*(yes|no)\s*\}",
        r"[Th]he\s+answer\s+is\s*[\.:\'\"“‘’\-]*\s*(yes|no)[\s\.,!?:;\'\"”’\-]*",
        r"[Aa]nswer:\s*(yes|no)\b",
        r"\*\*[Aa]nswer:\*\*\s*(yes|no)\b",
        r"\*\*[Aa]nswer\*\*:\s*(yes|no)\b",
        r"<BOOLEAN>\s*(yes|no)\s*</BOOLEAN>",
        r"^\s*(yes|no)[\.\?!]?\s*$",
        r"<\|begin_of_box\|>\s*(yes|no)\s*<\|end_of_box\|>",
    )
)


def _tagged(word: str) -> str:
    return YES if word.lower() == "yes" else NO


@TEXT_POSTPROCESSORS.register_module(["smolinstruct-acc", "smolinstruct_acc_postprocess"])
@deterministic
def smolinstruct_acc_postprocess(text: Any) -> str | None:
    """``YES`` when ``'yes'`` occurs anywhere in the lower-cased reply, else ``NO`` when ``'no'`` does, else ``None``.

    As in OpenCompass the words are looked for as substrings: ``'not'``,
    ``'know'`` or ``'cannot'`` read as No, and a reply saying neither gives
    ``None`` (which matches no reference).

    >>> smolinstruct_acc_postprocess('Yes, it does.')
    '<BOOLEAN> Yes </BOOLEAN>'
    >>> smolinstruct_acc_postprocess('I do not know')
    '<BOOLEAN> No </BOOLEAN>'
    >>> smolinstruct_acc_postprocess('Permeable.') is None
    True
    """
    lowered = as_text(text).lower()
    if "yes" in lowered:
        return YES
    if "no" in lowered:
        return NO
    return None


@TEXT_POSTPROCESSORS.register_module(["smolinstruct-acc-0shot", "smolinstruct_acc_0shot_postprocess"])
@deterministic
def smolinstruct_acc_0shot_postprocess(text: Any) -> str:
    """The zero-shot configs' reader: the reply after its last ``</think>`` (stripped), then

    1. the whole reply ``yes``/``no`` (any case);
    2. the first of these to match (case-insensitively): ``\\boxed{yes}``,
       ``the answer is: yes``, ``answer: yes``, ``**answer:** yes``,
       ``**answer**: yes``, ``<BOOLEAN> yes </BOOLEAN>``, a line of only the
       word, ``<|begin_of_box|> yes <|end_of_box|>``;
    3. a reply starting or ending with ``yes``, else with ``no``
       (``'nothing'`` reads as No, as in OpenCompass);

    else ``''``.

    >>> smolinstruct_acc_0shot_postprocess('<think>maybe</think> The answer is: NO.')
    '<BOOLEAN> No </BOOLEAN>'
    >>> smolinstruct_acc_0shot_postprocess('Unclear')
    ''
    """
    s = as_text(text)
    if "</think>" in s:
        s = s.split("</think>")[-1].strip()
    whole = s.strip().lower()
    if whole in ("yes", "no"):
        return _tagged(whole)
    s = s.strip()
    for pattern in _ZERO_SHOT_PATTERNS:
        match = pattern.search(s)
        if match:
            return _tagged(match.group(1))
    lowered = s.lower()
    if lowered.startswith("yes") or lowered.endswith("yes"):
        return YES
    if lowered.startswith("no") or lowered.endswith("no"):
        return NO
    return ""
