"""Math answer extractors: ``\\boxed{…}``, "the final answer is …", GSM8K numbers.

``''`` means no answer was found.
"""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "gsm8k_dataset_postprocess",
    "gsm8k_postprocess",
    "last_boxed_content",
    "math_postprocess_v2",
    "normalize_final_answer",
]

_BOX_START = re.compile(r"\\(?:boxed|fbox)\b")
_SENTENCE_END = re.compile(r"\.(?!\d)|\n")
_ANSWER_PHRASE = re.compile(r"(?i)final\s+answer(?:\s+is)?|answer\s+is")
_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")
_QUESTION = re.compile(r"Question:")
_BARE_BOX = re.compile(r"[^\s$]+")

_UNITS = (
    "square", "ways", "integers", "dollars", "mph", "inches", "inch", "ft", "feet", "hours", "hour",
    "km", "units", "unit", "points", "minutes", "minute", "seconds", "digits", "cents", "degrees",
    "cm", "meters", "meter", "pounds", "students", "days", "years", "miles",
)
_UNIT_WORDS = re.compile(r"\\(?:text|mbox|mathrm)\{\s*(?:" + "|".join(_UNITS) + r")\s*\}|\b(?:" + "|".join(_UNITS) + r")\b")
_WRAPPERS = re.compile(r"\\(?:text|textbf|mbox|mathrm|boxed)\{([^{}]*)\}")
_DOLLAR_MATH = re.compile(r"\$([^$]*)\$")
_ARTICLE = re.compile(r"(?i)\b(?:an?|the)\s+(?=[A-Za-z]{2})")
_SPACING = re.compile(r"\\[,;:! ]|\\quad|\\qquad|\s+")
_DEGREE = re.compile(r"\^\s*\{?\\circ\}?|°")
_PERCENT = re.compile(r"\\?%")
_DFRAC = re.compile(r"\\[dt]frac")
_FRAC_SHORT = re.compile(r"\\frac(?![{])(\w)(\w)")
_FRAC_HALF = re.compile(r"\\frac\{([^{}]+)\}(?![{])(\w)")
_SQRT_SHORT = re.compile(r"\\sqrt(?![{\[])(\w)")
_LEFT_RIGHT = re.compile(r"\\(?:left|right)(?![a-zA-Z])")
_THOUSANDS = re.compile(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")


def _brace_pairs(text: str) -> dict[int, int]:
    """Index of each ``{`` → index of its closing ``}`` (escaped braces skipped), in one pass."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    i = 0
    end = len(text)
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            pairs[stack.pop()] = i
        i += 1
    return pairs


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def last_boxed_content(text: str) -> str:
    """The content of the last complete ``\\boxed{…}`` (or ``\\fbox{…}``), or ``''``.

    Nested and escaped braces are handled; doubled outer braces are removed
    (``\\boxed{{5}}`` gives ``5``); ``\\boxed 5`` (no braces) gives ``5``.  A last
    box whose braces never close is passed over in favour of an earlier one.
    Linear in the length of the text.

    >>> last_boxed_content(r'so \\boxed{1} or rather \\boxed{\\frac{1}{2}}')
    '\\\\frac{1}{2}'
    >>> last_boxed_content('no box')
    ''
    """
    text = as_text(text)
    starts = [m.end() for m in _BOX_START.finditer(text)]
    if not starts:
        return ""
    pairs = _brace_pairs(text)
    for pos in reversed(starts):
        j = pos
        while j < len(text) and text[j] == " ":
            j += 1
        if j < len(text) and text[j] == "{":
            close = pairs.get(j)
            if close is None:
                continue
            a, b = _strip_span(text, j + 1, close)
            while b - a >= 2 and text[a] == "{" and pairs.get(a) == b - 1:
                a, b = _strip_span(text, a + 1, b - 1)
            return text[a:b]
        if j > pos:  # "\boxed 5": up to the next space or dollar sign
            m = _BARE_BOX.match(text, j)
            if m:
                return m.group(0)
    return ""


def normalize_final_answer(answer: str) -> str:
    """Normalize a final math answer for string comparison.

    Keeps the right-hand side of an equation, the content of ``$…$``,
    ``\\text{…}`` and ``\\boxed{…}``; drops spacing commands, articles, common
    unit words, degree signs, percent signs and ``\\left``/``\\right``; writes
    ``\\dfrac``/``\\tfrac`` as ``\\frac`` and expands ``\\frac12`` and
    ``\\sqrt2`` shorthand; removes all spaces, a trailing period and thousands
    separators.

    >>> normalize_final_answer('x = \\\\dfrac12')
    '\\\\frac{1}{2}'
    >>> normalize_final_answer('$1,000$ dollars.')
    '1000'
    """
    s = as_text(answer).strip()
    if "=" in s:
        s = s.rsplit("=", 1)[-1]
    s = s.replace("\\$", "")
    dollars = _DOLLAR_MATH.search(s)
    if dollars is not None:
        s = dollars.group(1)
    s = _UNIT_WORDS.sub("", s)
    for _ in range(3):  # nested wrappers, innermost first
        s, count = _WRAPPERS.subn(r"\1", s)
        if not count:
            break
    s = _ARTICLE.sub("", s)
    s = _DEGREE.sub("", s)
    s = _PERCENT.sub("", s)
    s = _LEFT_RIGHT.sub("", s)
    s = _DFRAC.sub(r"\\frac", s)
    s = _SPACING.sub("", s)
    s = s.replace("$", "")
    s = _FRAC_SHORT.sub(r"\\frac{\1}{\2}", s)
    s = _FRAC_HALF.sub(r"\\frac{\1}{\2}", s)
    s = _SQRT_SHORT.sub(r"\\sqrt{\1}", s)
    s = s.rstrip(".")
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    return s


@TEXT_POSTPROCESSORS.register_module(["math_postprocess_v2"])
@deterministic
def math_postprocess_v2(text: str) -> str:
    """The final answer of a math solution: the last ``\\boxed{…}``, else a stated final answer.

    1. The content of the last complete ``\\boxed{…}`` (see
       :func:`last_boxed_content`), returned as written.
    2. Otherwise the first sentence saying "final answer" or "answer is": the
       text after that phrase, through :func:`normalize_final_answer`.

    Returns ``''`` when neither is found.  Differences from OpenCompass 0.5.4:
    sentences are split at periods that are not decimal points (OpenCompass
    splits ``'The final answer is 3.5'`` into ``'…is 3'`` and ``'5'``); only
    the text after the phrase is normalized; and a reply with no answer gives
    ``''`` instead of the normalized first sentence.

    >>> math_postprocess_v2(r'Thus $x=\\boxed{\\frac{3}{4}}$.')
    '\\\\frac{3}{4}'
    >>> math_postprocess_v2('The final answer is 3.5. Done')
    '3.5'
    >>> math_postprocess_v2('I could not solve it.')
    ''
    """
    text = as_text(text)
    boxed = last_boxed_content(text)
    if boxed:
        return boxed
    for sentence in _SENTENCE_END.split(text):
        matches = list(_ANSWER_PHRASE.finditer(sentence))
        if not matches:
            continue
        tail = sentence[matches[-1].end() :].lstrip(" :：")
        normalized = normalize_final_answer(tail)
        if normalized:
            return normalized
    return ""


@TEXT_POSTPROCESSORS.register_module(["gsm8k", "gsm8k_postprocess"])
@deterministic
def gsm8k_postprocess(text: str) -> str:
    """The last number of a GSM8K-style reply, without thousands separators, or ``''``.

    Text from the first ``Question:`` on (a base model continuing with the
    next few-shot question) is ignored.  ``1,234`` is read as one number
    (OpenCompass reads ``234``); OpenCompass returns ``'NULL'`` when there is
    no number, assay ``''``.

    >>> gsm8k_postprocess('She pays 3 * 2 = 6 dollars, so $1,206 in total.')
    '1206'
    >>> gsm8k_postprocess('The answer is 7.\\n\\nQuestion: what is 2+2?')
    '7'
    >>> gsm8k_postprocess('no number')
    ''
    """
    head = _QUESTION.split(as_text(text), maxsplit=1)[0]
    numbers = _NUMBER.findall(head)
    return numbers[-1].replace(",", "") if numbers else ""


@TEXT_POSTPROCESSORS.register_module(["gsm8k_dataset", "gsm8k_dataset_postprocess"])
@deterministic
def gsm8k_dataset_postprocess(text: str) -> str:
    """The reference answer of a GSM8K solution: the text after the last ``####``, commas removed.

    A reference without ``####`` (already a bare answer) is returned stripped,
    commas removed; OpenCompass raises an IndexError on it.

    >>> gsm8k_dataset_postprocess('Natalia sold 48/2 = 24 clips.\\n#### 1,072')
    '1072'
    >>> gsm8k_dataset_postprocess(' 72 ')
    '72'
    """
    body = as_text(text)
    if "####" in body:
        body = body.rsplit("####", 1)[-1]
    return body.strip().replace(",", "")
