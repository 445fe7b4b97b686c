"""SciReasoner's answer readers, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["GUE_postprocessor"]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_VERDICT = re.compile(r"\bThe prediction result is\s+(positive|negative)\b", re.IGNORECASE)
#: Words read as a negative answer, looked for first.
_NEGATIVE = ("negative", "no", "absence", "not", "cannot", "fails", "absent", "lacks")
#: Words and phrases read as a positive answer, looked for after the negative ones.
_POSITIVE = (
    "positive", "positively", "presence", "detected", "identified", "identifiable", "found", "yes", "located",
    "detectable", "observable", "evident", "absolutely", "affirmative", "can", "affirm", "confirm", "confirms",
    "reveals", "existence", "certainly", "consistent", "recognizable", "shows core", "shows promoter",
    "shows characteristic", "evidenced by", "seeing characteristic patterns", "includes", "contains sequences",
    "exhibits clear", "contains transcription", "exhibits sequences", "clearly contains", "recognized",
    "exhibits features", "contains regulatory", "shows clear", "displays", "definitely has", "exhibits patterns",
    "clear evidence", "contains a", "yep", "contains sites", "shows sequences",
)
_NEGATIVE_RE = tuple(re.compile(rf"\b{w}\b", re.IGNORECASE) for w in _NEGATIVE)
_POSITIVE_RE = tuple(re.compile(rf"\b{w}\b", re.IGNORECASE) for w in _POSITIVE)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def GUE_postprocessor(text: Any) -> str:
    """GUE's (genome classification) reader: ``'positive'``, ``'negative'`` or ``''``.

    The stripped text loses its ``<think>…</think>`` blocks (a text with
    ``<think>`` and no ``</think>`` becomes ``''``); then ``The prediction
    result is positive/negative`` decides, else any whole-word negative
    (``no``, ``not``, ``cannot``, ``absence``, …), else any positive word
    or phrase (``yes``, ``found``, ``can``, ``contains a``, …).  A text
    that is not a string gives ``''``.

    >>> GUE_postprocessor('The prediction result is Positive.'), GUE_postprocessor('No promoter is found')
    ('positive', 'negative')
    """
    if not isinstance(text, str):
        return ""
    text = text.strip()
    if "<think>" in text:
        text = _THINK.sub("", text) if "</think>" in text else ""
    if text == "":
        return ""
    verdict = _VERDICT.search(text)
    if verdict:
        return verdict.group(1).lower()
    if any(p.search(text) for p in _NEGATIVE_RE):
        return "negative"
    if any(p.search(text) for p in _POSITIVE_RE):
        return "positive"
    return ""
