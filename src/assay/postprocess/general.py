"""General-purpose text postprocessors.

Each is a pure function ``text -> answer``; ``''`` means "no answer found".
"""

from __future__ import annotations

import re

from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["extract_non_reasoning_content", "first_capital_postprocess", "general_postprocess"]

_CUT = re.compile(r"[\n.,]")
_NON_WORD = re.compile(r"[^\w\s]")
_ARTICLES = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


@TEXT_POSTPROCESSORS.register_module(["general", "general_postprocess"])
def general_postprocess(text: str) -> str:
    """Normalize a short free-form answer.

    Cuts at the first newline, ``.`` or ``,``; removes punctuation and the
    articles *a*, *an*, *the*; collapses whitespace.  Returns ``''`` when
    nothing is left.

    >>> general_postprocess('The Answer, is here.')
    'Answer'
    """
    text = _CUT.split(str(text), maxsplit=1)[0]
    text = _NON_WORD.sub("", text)
    text = _ARTICLES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


@TEXT_POSTPROCESSORS.register_module(["first-capital", "first_capital_postprocess"])
def first_capital_postprocess(text: str) -> str:
    """The first uppercase letter of the text, or ``''``.

    >>> first_capital_postprocess('abCDef')
    'C'
    """
    for ch in str(text):
        if ch.isupper():
            return ch
    return ""


@TEXT_POSTPROCESSORS.register_module(["extract-non-reasoning-content", "extract_non_reasoning_content"])
def extract_non_reasoning_content(
    text: str, think_start_token: str = "<think>", think_end_token: str = "</think>"
) -> str:
    """Drop reasoning blocks and keep the answer part.

    When only the end token occurs (the start was in the prompt), the text after
    its last occurrence is returned; otherwise every ``start…end`` block is
    removed.  The tokens are matched literally.

    >>> extract_non_reasoning_content('r1</think>x</think>y')
    'y'
    >>> extract_non_reasoning_content('<think>a</think>B<think>c</think> D')
    'B D'
    """
    text = str(text)
    if think_end_token in text and think_start_token not in text:
        return text.rsplit(think_end_token, 1)[-1].strip()
    pattern = re.escape(think_start_token) + ".*?" + re.escape(think_end_token)
    return re.sub(pattern, "", text, flags=re.DOTALL).strip()
