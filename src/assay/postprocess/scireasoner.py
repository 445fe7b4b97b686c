"""SciReasoner's answer readers, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

import json
import re
from typing import Any

from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["GUE_postprocessor", "LLM4Mat_postprocessor", "material_postprocessor", "opi_postprocess"]

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


#: LLM4Mat's properties whose answers are options, not numbers (True/False read from true/yes, false/no).
LLM4MAT_OPTIONS: dict[str, tuple[Any, ...]] = {
    "Direct_or_indirect": ("Indirect", "Direct"),
    "Direct_or_indirect_HSE": ("Indirect", "Direct"),
    "SOC": (True, False),
    "is_gap_direct": (True, False),
    "is_stable": (True, False),
}
_WORDS = {"true": {"true", "yes"}, "false": {"false", "no"}}
# OpenCompass's pattern is ^```(?:json)?\s*|\s*```$; here a closing fence with whitespace before it is matched
# from the start of that whitespace only, or from the fence itself when an earlier match took the whitespace
# (the same matches: a later start inside the whitespace cannot succeed where its start failed), so that long
# runs of whitespace are read in linear time
_FENCES = re.compile(r"^```(?:json)?\s*|(?<!\s)\s*```$|(?<=\s)```$", re.IGNORECASE | re.MULTILINE)


def _option(value: Any, options: tuple[Any, ...]) -> Any:
    for option in options:
        if isinstance(option, bool):
            if str(value).lower() in _WORDS[str(option).lower()]:
                return str(option)
        elif str(value).lower() == str(option).lower():
            return option
    return ""


def _llm4mat_value(text: str, prop: str) -> Any:
    clean = _FENCES.sub("", text.strip())
    try:
        data = json.loads(clean)
        if prop in data:
            raw = data[prop]
            if isinstance(raw, (int, float)):  # true/false too, as numbers: OpenCompass reads JSON true as 1.0
                return float(raw)
            if prop in LLM4MAT_OPTIONS:
                return _option(raw, LLM4MAT_OPTIONS[prop])
            return str(raw)
    except Exception:  # not JSON, or not an object holding the property: read it with the pattern below
        pass
    pattern = rf"\{{[^{{}}]*[\"\']?{re.escape(prop)}[\"\']?\s*:\s*[\"\']?(.*?)[\"\']?\s*\}}"
    match = re.search(pattern, clean, flags=re.DOTALL | re.IGNORECASE)
    if not match:
        return ""
    raw_value = match.group(1).strip().strip('"')
    if prop in LLM4MAT_OPTIONS:
        return _option(raw_value, LLM4MAT_OPTIONS[prop])
    try:
        return float(raw_value)
    except ValueError:
        return ""


@TEXT_POSTPROCESSORS.register_module()
def LLM4Mat_postprocessor(text: Any, property: str) -> Any:
    """LLM4Mat's reader of the value of ``property``: a float, an option (``'True'``/``'False'``,
    ``'Direct'``/``'Indirect'``), a text, or ``''``.

    The stripped text loses its ``<think>…</think>`` blocks (``''`` when one is
    not closed) and its code fences; a JSON object holding the property gives
    its value (a number, JSON ``true`` included, as a float; an option
    property's value read as an option, ``''`` when it is none; any other as
    text); otherwise the first ``{… property: value}`` gives the value, read
    as an option, else as a float, else ``''``.

    >>> LLM4Mat_postprocessor('{band_gap : 1.25}', property='band_gap')
    1.25
    >>> LLM4Mat_postprocessor('```json\\n{"is_stable": "yes"}\\n```', property='is_stable')
    'True'
    """
    if not isinstance(text, str):
        return ""
    text = text.strip()
    if "<think>" in text:
        text = _THINK.sub("", text) if "</think>" in text else ""
    if text == "":
        return ""
    return _llm4mat_value(text, property)


_MATERIAL = re.compile(r"<material>(.*?)</material>", re.DOTALL | re.IGNORECASE)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def material_postprocessor(text: Any) -> str:
    """SciReasoner's materials reader: the stripped text inside the first ``<material>…</material>`` (any case), else ``''``.

    An empty or missing reply gives ``''``; any other value is read as its ``str``.

    >>> material_postprocessor('Here: <MATERIAL> Na Cl <sg> <sg225> </material>')
    'Na Cl <sg> <sg225>'
    >>> material_postprocessor('Na Cl <sg225>')
    ''
    """
    if not text:
        return ""
    found = _MATERIAL.search(text if isinstance(text, str) else str(text))
    return found.group(1).strip() if found else ""


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def opi_postprocess(text: Any, task: Any = None, *args: Any, **kwargs: Any) -> str:
    """OPI's (protein instructions) reader: the stripped text without ``<|endoftext|>`` and ``<|im_end|>``.

    The text is stripped first and the two tokens removed after, so white space
    before a removed token stays, as in OpenCompass.  ``task`` is accepted and not
    read.  ``None`` gives ``''``; any other value is read as its ``str``.

    >>> opi_postprocess('  2.7.11.1; 2.7.10.2 <|im_end|>', task='EC')
    '2.7.11.1; 2.7.10.2 '
    """
    if text is None:
        return ""
    text = (text if isinstance(text, str) else str(text)).strip()
    return text.replace("<|endoftext|>", "").replace("<|im_end|>", "")
