"""General-purpose text postprocessors.

Each is a pure function ``text -> answer`` with keyword options; ``''`` means
"no answer found" (the one documented no-answer value of assay).  ``None`` as
input is treated as ``''``; other non-string inputs are converted with ``str``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from assay.postprocess._text import as_text, compile_user_pattern
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS, resolve_type

__all__ = [
    "extract_non_reasoning_content",
    "first_capital_postprocess",
    "first_number_postprocess",
    "general_cn_postprocess",
    "general_eval_wrapper_postprocess",
    "general_postprocess",
    "last_capital_postprocess",
    "match_answer_pattern",
    "think_pred_postprocess",
    "xml_tag_postprocessor",
]

_CUT = re.compile(r"[\n.,]")
_NON_WORD = re.compile(r"[^\w\s]")
_ARTICLES = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_FIRST_NUMBER = re.compile(r"-?\d*\.?\d+")


@TEXT_POSTPROCESSORS.register_module(["general", "general_postprocess"])
@deterministic
def general_postprocess(text: str) -> str:
    """Normalize a short free-form answer.

    Cuts at the first newline, ``.`` or ``,``; removes punctuation and the
    articles *a*, *an*, *the*; collapses whitespace.  Returns ``''`` when
    nothing is left.

    >>> general_postprocess('The Answer, is here.')
    'Answer'
    >>> general_postprocess('The quick brown')
    'quick brown'
    """
    head = _CUT.split(as_text(text), maxsplit=1)[0]
    head = _NON_WORD.sub("", head)
    head = _ARTICLES.sub(" ", head)
    return _SPACES.sub(" ", head).strip()


@TEXT_POSTPROCESSORS.register_module(["general_cn", "general_cn_postprocess"])
def general_cn_postprocess(text: str) -> str:
    """Clean like :func:`general_postprocess`, then segment with jieba, words joined by spaces.

    Unlike OpenCompass 0.5.4, which computes the cleaned text and then
    segments the *original* text, this segments the cleaned text.  Whitespace
    tokens are dropped, so the result never has doubled spaces.  Returns
    ``''`` when nothing is left.

    >>> general_cn_postprocess('北京是中国的首都。')
    '北京 是 中国 的 首都'
    """
    cleaned = general_postprocess(text)
    if not cleaned:
        return ""
    import jieba  # heavy (loads a dictionary): imported on first use

    return " ".join(word for word in jieba.cut(cleaned) if word.strip())


@TEXT_POSTPROCESSORS.register_module(["first-capital", "first_capital_postprocess"])
@deterministic
def first_capital_postprocess(text: str) -> str:
    """The first uppercase letter of the text, or ``''``.

    >>> first_capital_postprocess('abCDef')
    'C'
    """
    for ch in as_text(text):
        if ch.isupper():
            return ch
    return ""


@TEXT_POSTPROCESSORS.register_module(["last-capital", "last_capital_postprocess"])
@deterministic
def last_capital_postprocess(text: str) -> str:
    """The last uppercase letter of the text, or ``''``.

    >>> last_capital_postprocess('abCDef')
    'D'
    """
    for ch in reversed(as_text(text)):
        if ch.isupper():
            return ch
    return ""


@TEXT_POSTPROCESSORS.register_module(["first_number_postprocess"])
@deterministic
def first_number_postprocess(text: str) -> float | str:
    """The first number in the text (``-?digits[.digits]``) as a float, or ``''``.

    OpenCompass returns ``None`` when there is no number; assay returns its one
    no-answer value ``''``.  Thousands separators are not understood:
    ``'1,234'`` gives ``1.0``.

    >>> first_number_postprocess('The value is 3.14 or 2')
    3.14
    >>> first_number_postprocess('It fell by -42 points')
    -42.0
    >>> first_number_postprocess('no digits')
    ''
    """
    match = _FIRST_NUMBER.search(as_text(text))
    return float(match.group(0)) if match else ""


@TEXT_POSTPROCESSORS.register_module(["think_pred", "think_pred_postprocess"])
@deterministic
def think_pred_postprocess(prediction: str, re_pattern: str = r"</think>\s*(.*)") -> str:
    """Keep the part of a reasoning model's reply that ``re_pattern`` captures.

    Returns ``group(1)`` (or the whole match when the pattern has no group) of
    the first match, stripped.  When the pattern does not match, the text is
    returned unchanged: a reply without a reasoning block is all answer.  So
    ``''`` is returned only for an empty reply or an empty capture.  The
    pattern is searched with DOTALL.

    >>> think_pred_postprocess('<think>hmm</think> B', re_pattern=r'</think>(.*)')
    'B'
    >>> think_pred_postprocess('just B', re_pattern=r'</think>(.*)')
    'just B'
    """
    text = as_text(prediction)
    match = compile_user_pattern(re_pattern, re.DOTALL).search(text)
    if match is None:
        return text
    value = match.group(1) if match.re.groups else match.group(0)
    return (value or "").strip()


@TEXT_POSTPROCESSORS.register_module(["specific-xml-tag", "xml_tag_postprocessor"])
@deterministic
def xml_tag_postprocessor(text: str, tag: str = "<answer>") -> str:
    """The content of the last ``<tag>…</tag>`` element, stripped, or ``''``.

    ``tag`` may be given with or without angle brackets (``'<conclude>'`` or
    ``'conclude'``).  OpenCompass returns ``'NO ANSWER FOUND'`` when the tag is
    absent; assay returns ``''``.

    >>> xml_tag_postprocessor('<a>1</a> then <a> 2 </a>', tag='<a>')
    '2'
    >>> xml_tag_postprocessor('no tag here', tag='a')
    ''
    """
    name = tag.strip().strip("<>/").strip()
    if not name:
        return ""
    pattern = compile_user_pattern(f"<{re.escape(name)}>(.*?)</{re.escape(name)}>", re.DOTALL)
    found = pattern.findall(as_text(text))
    return found[-1].strip() if found else ""


@TEXT_POSTPROCESSORS.register_module(["match_answer_pattern"])
@deterministic
def match_answer_pattern(response_text: str, answer_pattern: str) -> str:
    """``group(1)`` of the first match of ``answer_pattern`` (the whole match if it has no group), or ``''``.

    An invalid pattern is a :class:`~assay.errors.ConfigError`.

    >>> match_answer_pattern('ANSWER: C', r'ANSWER:\\s*([A-D])')
    'C'
    >>> match_answer_pattern('nothing', r'ANSWER:\\s*([A-D])')
    ''
    """
    match = compile_user_pattern(answer_pattern).search(as_text(response_text))
    if match is None:
        return ""
    return (match.group(1) if match.re.groups else match.group(0)) or ""


@TEXT_POSTPROCESSORS.register_module(["extract-non-reasoning-content", "extract_non_reasoning_content"])
@deterministic
def extract_non_reasoning_content(
    text: str, think_start_token: str = "<think>", think_end_token: str = "</think>"
) -> str:
    """Drop reasoning blocks and keep the answer part.

    When only the end token occurs (the start was in the prompt), the text after
    its last occurrence is returned; otherwise every ``start…end`` block is
    removed (shortest blocks, across lines).  The tokens are matched literally,
    unlike OpenCompass, which puts them into a regex unescaped.  A reply that
    is nothing but reasoning gives ``''``.

    >>> extract_non_reasoning_content('r1</think>x</think>y')
    'y'
    >>> extract_non_reasoning_content('<think>a</think>B<think>c</think> D')
    'B D'
    """
    text = as_text(text)
    if not think_start_token or not think_end_token:
        return text.strip()
    if think_end_token in text and think_start_token not in text:
        return text.rsplit(think_end_token, 1)[-1].strip()
    pattern = compile_user_pattern(re.escape(think_start_token) + ".*?" + re.escape(think_end_token), re.DOTALL)
    return pattern.sub("", text).strip()


@TEXT_POSTPROCESSORS.register_module(["general_eval_wrapper_postprocess"])
def general_eval_wrapper_postprocess(
    text: str, postprocess: str | Callable[..., Any] | None = None, **kwargs: Any
) -> Any:
    """Unquote a reply that is a Python string literal, then apply ``postprocess`` to it.

    Some APIs return replies as a quoted literal (``"'The fox'"``).  The text
    is read with :func:`ast.literal_eval` (OpenCompass calls ``eval`` on it,
    running arbitrary code) and kept when it is a string; anything else is
    left as it was.  ``postprocess`` (a function, a registered name or a dotted
    path) is then called as ``postprocess(text, **kwargs)``; without it the
    unquoted text is returned.

    >>> general_eval_wrapper_postprocess("'The fox'", postprocess='general')
    'fox'
    >>> general_eval_wrapper_postprocess("__import__('os')")
    "__import__('os')"
    """
    value = as_text(text)
    stripped = value.strip()
    if stripped[:1] in ("'", '"'):
        try:
            literal = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            literal = None
        if isinstance(literal, str):
            value = literal
    if postprocess is None:
        return value
    fn = resolve_type(postprocess, TEXT_POSTPROCESSORS, key="general_eval_wrapper_postprocess.postprocess")
    return fn(value, **kwargs)
