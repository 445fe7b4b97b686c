"""BIG-Bench Extra Hard's answer extractors as OpenCompass 0.5.4 computes them
(``bbeh_mcq_postprocess``, ``bbeh_freeform_postprocess``)."""

from __future__ import annotations

from collections.abc import Callable

from assay.postprocess._text import as_text, lazy_pattern
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["bbeh_freeform_postprocess", "bbeh_mcq_postprocess"]

_PREFIXES = ("The answer is: ", "The answer is ", "The final answer is: ", "The final answer is ")
_TEXT_OPENER = lazy_pattern(r"\\text(?:tt)?{")


def _literal(opener: str) -> Callable[[str, int], tuple[int, int] | None]:
    def find(text: str, start: int) -> tuple[int, int] | None:
        at = text.find(opener, start)
        return None if at < 0 else (at, at + len(opener))
    return find


def _text_command(text: str, start: int) -> tuple[int, int] | None:
    found = _TEXT_OPENER.search(text, start)
    return None if found is None else found.span()


def _unwrap(text: str, opener: Callable[[str, int], tuple[int, int] | None], close: str) -> str:
    """``re.sub(opener + '(.*?)' + close, r'\\1', text)`` in linear time: each opener to the first ``close``
    after it on its line is replaced by what lies between (an opener without one on its line is kept, and so
    is every later opener of that line, which cannot have one either)."""
    parts, cursor, start = [], 0, 0
    line_end = -1
    while (found := opener(text, start)) is not None:
        begin, inner = found
        if begin >= line_end:
            line_end = text.find("\n", begin)
            line_end = len(text) if line_end < 0 else line_end
        end = text.find(close, inner, line_end)
        if end < 0:
            start = line_end + 1
            if start > len(text):
                break
            continue
        parts += [text[cursor:begin], text[inner:end]]
        cursor = start = end + len(close)
    parts.append(text[cursor:])
    return "".join(parts)


def _after_prefix(text: str) -> str:
    """What follows the last occurrence of the first of the answer prefixes the text holds (the text if none)."""
    for prefix in _PREFIXES:
        if prefix in text:
            return text.split(prefix)[-1]
    return text


def _first_line(answer: str) -> str:
    return answer.split("\n")[0].strip() if "\n" in answer else answer


@TEXT_POSTPROCESSORS.register_module(["bbeh_mcq", "bbeh_mcq_postprocess"])
@deterministic
def bbeh_mcq_postprocess(text: str) -> str:
    """The answer after the last ``The answer is: `` (or the first other prefix found: ``The answer is ``,
    ``The final answer is: ``, ``The final answer is ``), parentheses stripped from its ends, its first
    line, stripped, in lower case.

    >>> bbeh_mcq_postprocess('Thinking. The answer is: (B)'), bbeh_mcq_postprocess('(C) is it')
    ('b', 'c) is it')
    """
    answer = _after_prefix(as_text(text)).strip("()")
    return _first_line(answer).strip().lower()


@TEXT_POSTPROCESSORS.register_module(["bbeh_freeform", "bbeh_freeform_postprocess"])
@deterministic
def bbeh_freeform_postprocess(text: str) -> str:
    """The answer after the answer prefix (as :func:`bbeh_mcq_postprocess` finds it) with ``\\boxed{…}``,
    ``\\text{…}``/``\\texttt{…}`` and ``**…**`` unwrapped (each up to its first closing mark on its
    line, found in linear time), its first line, stripped, in lower case.

    >>> bbeh_freeform_postprocess('So. The answer is: \\\\boxed{\\\\text{Yes}}')
    'yes'
    >>> bbeh_freeform_postprocess('The answer is: \\\\boxed{\\\\frac{1}{2}}')
    '\\\\frac{1{2}}'
    """
    answer = _after_prefix(as_text(text))
    if "\\boxed" in answer:
        answer = _unwrap(answer, _literal("\\boxed{"), "}")
    if "\\text" in answer:
        answer = _unwrap(answer, _text_command, "}")
    if "**" in answer:
        answer = _unwrap(answer, _literal("**"), "**")
    return _first_line(answer).strip().lower()


