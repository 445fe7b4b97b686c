"""General-purpose text postprocessors.

Each is a pure function ``text -> answer`` with keyword options.  ``None`` as
input is treated as ``''``; other non-string inputs are converted with ``str``.

Functions under OpenCompass's names compute exactly what OpenCompass 0.5.4
computes, bugs included (each docstring lists them; e.g.
:func:`xml_tag_postprocessor` answers ``'NO ANSWER FOUND'``).  assay's
corrected counterparts, registered under ``assay-*`` names, return ``''`` when
they find no answer.
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Callable
from typing import Any

from assay.postprocess._text import as_text, compile_user_pattern
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS, resolve_type

__all__ = [
    "extract_non_reasoning_content",
    "general_cn_extract",
    "first_capital_postprocess",
    "first_number_postprocess",
    "general_cn_postprocess",
    "general_eval_wrapper_postprocess",
    "general_postprocess",
    "last_capital_postprocess",
    "match_answer_pattern",
    "strip_reasoning",
    "think_answer_extract",
    "think_pred_postprocess",
    "xml_tag_extract",
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
    head = _ARTICLES.sub("", head)
    return _SPACES.sub(" ", head).strip()


@TEXT_POSTPROCESSORS.register_module(["general_cn", "general_cn_postprocess"])
@deterministic
def general_cn_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's ``general_cn_postprocess``, exactly: the *whole* text segmented by jieba, words joined by spaces.

    OpenCompass bug reproduced: it computes the cleaned text of
    :func:`general_postprocess` and then discards it, segmenting the original
    text, so punctuation, articles and everything after the first line stay,
    and whitespace becomes tokens of its own (``'a b'`` gives ``'a   b'``).
    :func:`general_cn_extract` (``assay-general-cn``) segments the cleaned text.

    >>> general_cn_postprocess('北京是中国的首都。')
    '北京 是 中国 的 首都 。'
    """
    import jieba  # heavy (loads a dictionary): imported on first use

    return " ".join(jieba.cut(as_text(text)))


@TEXT_POSTPROCESSORS.register_module(["assay-general-cn", "general_cn_extract"])
@deterministic
def general_cn_extract(text: str) -> str:
    """Clean like :func:`general_postprocess`, then segment with jieba, words joined by spaces.

    assay's corrected counterpart of :func:`general_cn_postprocess`: the
    *cleaned* text is segmented, and whitespace tokens are dropped, so the
    result never has doubled spaces.  Returns ``''`` when nothing is left.

    >>> general_cn_extract('北京是中国的首都。')
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
def first_number_postprocess(text: str) -> float | None:
    """The first number in the text (``-?digits[.digits]``) as a float, or ``None``, as in OpenCompass 0.5.4.

    OpenCompass behaviour reproduced: ``None`` (not ``''``) when there is no
    number; thousands separators are not understood (``'1,234'`` gives
    ``1.0``); ``'1.5.2'`` gives ``1.5`` and ``'v.5'`` gives ``0.5``.

    >>> first_number_postprocess('The value is 3.14 or 2')
    3.14
    >>> first_number_postprocess('It fell by -42 points')
    -42.0
    >>> first_number_postprocess('no digits') is None
    True
    """
    match = _FIRST_NUMBER.search(as_text(text))
    return float(match.group(0)) if match else None


@TEXT_POSTPROCESSORS.register_module(["think_pred", "think_pred_postprocess"])
@deterministic
def think_pred_postprocess(prediction: str, re_pattern: str = r"</think>\s*(.*)") -> str:
    """OpenCompass 0.5.4's ``think_pred_postprocess``: ``group(1)`` of the first match of ``re_pattern``, stripped.

    When the pattern does not match, the text is returned unchanged.

    OpenCompass behaviour reproduced: the pattern is searched *without*
    ``re.DOTALL``, so ``'</think>(.*)'`` keeps only the rest of the line after
    the tag (``'<think>x</think>A\\nB'`` gives ``'A'``).  Where OpenCompass
    raises (a pattern without a group, or a group that did not take part in
    the match), assay returns the whole match, respectively ``''``.  OpenCompass
    has no default pattern; assay's default is ``r'</think>\\s*(.*)'``.
    :func:`think_answer_extract` (``assay-think-pred``) searches across lines.

    >>> think_pred_postprocess('<think>hmm</think> B', re_pattern=r'</think>(.*)')
    'B'
    >>> think_pred_postprocess('<think>hmm</think>A\\nB', re_pattern=r'</think>(.*)')
    'A'
    >>> think_pred_postprocess('just B', re_pattern=r'</think>(.*)')
    'just B'
    """
    text = as_text(prediction)
    match = compile_user_pattern(re_pattern).search(text)
    if match is None:
        return text
    value = match.group(1) if match.re.groups else match.group(0)
    return (value or "").strip()


@TEXT_POSTPROCESSORS.register_module(["assay-think-pred", "think_answer_extract"])
@deterministic
def think_answer_extract(prediction: str, re_pattern: str = r"</think>\s*(.*)") -> str:
    """Keep the part of a reasoning model's reply that ``re_pattern`` captures, across lines.

    assay's corrected counterpart of :func:`think_pred_postprocess`: the
    pattern is searched with ``re.DOTALL``, so an answer after the reasoning
    block may span several lines.  Returns ``group(1)`` (or the whole match
    when the pattern has no group) of the first match, stripped; when the
    pattern does not match, the text unchanged (a reply without a reasoning
    block is all answer).

    >>> think_answer_extract('<think>hmm</think>A\\nB', re_pattern=r'</think>(.*)')
    'A\\nB'
    >>> think_answer_extract('just B', re_pattern=r'</think>(.*)')
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
    """OpenCompass 0.5.4's ``xml_tag_postprocessor``: the content of the last ``<tag>…</tag>``, stripped.

    ``tag`` is given with its angle brackets (``'<conclude>'``).

    OpenCompass behaviour reproduced: ``'NO ANSWER FOUND'`` when the tag is
    absent; ``tag`` is used as a regular expression, unescaped, and its
    closing form is ``</`` + ``tag`` without its first and last character +
    ``>`` (so ``'conclude'`` without brackets looks for ``</onclud>``).  An
    invalid pattern is a :class:`~assay.errors.ConfigError`.
    :func:`xml_tag_extract` (``assay-xml-tag``) matches the tag literally,
    with or without brackets, and answers ``''``.

    >>> xml_tag_postprocessor('<a>1</a> then <a> 2 </a>', tag='<a>')
    '2'
    >>> xml_tag_postprocessor('no tag here', tag='<a>')
    'NO ANSWER FOUND'
    """
    tag = as_text(tag)
    pattern = compile_user_pattern(f"{tag}(.*?)</{tag[1:-1]}>", re.DOTALL)
    found = pattern.findall(as_text(text))
    if not found:
        return "NO ANSWER FOUND"
    last = found[-1]
    return (last[0] if isinstance(last, tuple) else last).strip()


@TEXT_POSTPROCESSORS.register_module(["assay-xml-tag", "xml_tag_extract"])
@deterministic
def xml_tag_extract(text: str, tag: str = "<answer>") -> str:
    """The content of the last ``<tag>…</tag>`` element, stripped, or ``''``.

    assay's corrected counterpart of :func:`xml_tag_postprocessor`: ``tag``
    may be given with or without angle brackets (``'<conclude>'`` or
    ``'conclude'``) and is matched literally; no tag gives ``''``.

    >>> xml_tag_extract('<a>1</a> then <a> 2 </a>', tag='<a>')
    '2'
    >>> xml_tag_extract('no tag here', tag='a')
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
def match_answer_pattern(response_text: str, answer_pattern: str) -> str | None:
    """``group(1)`` of the first match of ``answer_pattern``, or ``''`` when it does not match (as in OpenCompass 0.5.4).

    OpenCompass behaviour reproduced: a group that did not take part in the
    match gives ``None``.  Where OpenCompass raises (a pattern without a
    group), assay returns the whole match.  An invalid pattern is a
    :class:`~assay.errors.ConfigError`.

    >>> match_answer_pattern('ANSWER: C', r'ANSWER:\\s*([A-D])')
    'C'
    >>> match_answer_pattern('nothing', r'ANSWER:\\s*([A-D])')
    ''
    """
    match = compile_user_pattern(answer_pattern).search(as_text(response_text))
    if match is None:
        return ""
    return match.group(1) if match.re.groups else match.group(0)


@TEXT_POSTPROCESSORS.register_module(["extract-non-reasoning-content", "extract_non_reasoning_content"])
@deterministic
def extract_non_reasoning_content(
    text: str, think_start_token: str = "<think>", think_end_token: str = "</think>"
) -> str:
    """Drop reasoning blocks and keep the answer part, as OpenCompass 0.5.4 does.

    When only the end token occurs (the start was in the prompt), the text after
    its last occurrence is returned; otherwise every ``start…end`` block is
    removed (shortest blocks, across lines); the result is stripped.

    OpenCompass behaviour reproduced: the tokens are put into a regular
    expression unescaped, so a token such as ``'<|begin_of_thought|>'`` is
    read as the alternation ``'<'`` | ``'begin_of_thought'`` | ``'>'``.  An
    invalid pattern is a :class:`~assay.errors.ConfigError`.
    :func:`strip_reasoning` (``assay-strip-reasoning``) matches the tokens
    literally.

    >>> extract_non_reasoning_content('r1</think>x</think>y')
    'y'
    >>> extract_non_reasoning_content('<think>a</think>B<think>c</think> D')
    'B D'
    """
    text = as_text(text)
    if think_end_token in text and think_start_token not in text:
        return text.split(think_end_token)[-1].strip()
    pattern = compile_user_pattern(f"{think_start_token}(.*?){think_end_token}", re.DOTALL)
    return pattern.sub("", text).strip()


@TEXT_POSTPROCESSORS.register_module(["assay-strip-reasoning", "strip_reasoning"])
@deterministic
def strip_reasoning(text: str, think_start_token: str = "<think>", think_end_token: str = "</think>") -> str:
    """Drop reasoning blocks and keep the answer part, the tokens matched literally.

    assay's corrected counterpart of :func:`extract_non_reasoning_content`.
    When only the end token occurs (the start was in the prompt), the text
    after its last occurrence is returned; otherwise every ``start…end`` block
    is removed (shortest blocks, across lines).  A reply that is nothing but
    reasoning gives ``''``.

    >>> strip_reasoning('<|begin_of_thought|>hmm<|end_of_thought|> B', '<|begin_of_thought|>', '<|end_of_thought|>')
    'B'
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
    is read with :func:`ast.literal_eval` and replaced by its value (of any
    type, as in OpenCompass) when it is a Python literal; otherwise it is
    left as it was.  The one deliberate difference from OpenCompass 0.5.4,
    which calls ``eval`` on model output: no code runs, so a reply that is a
    non-literal expression (``'1 + 1'``, a call) stays text where OpenCompass
    would compute it.  ``postprocess`` (a function, a registered name or a dotted
    path) is then called as ``postprocess(text, **kwargs)``; without it the
    unquoted text is returned.

    >>> general_eval_wrapper_postprocess("'The fox'", postprocess='general')
    'fox'
    >>> general_eval_wrapper_postprocess("__import__('os')")
    "__import__('os')"
    """
    value: Any = as_text(text)
    with contextlib.suppress(ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = ast.literal_eval(value)
    if postprocess is None:
        return value
    fn = resolve_type(postprocess, TEXT_POSTPROCESSORS, key="general_eval_wrapper_postprocess.postprocess")
    return fn(value, **kwargs)
