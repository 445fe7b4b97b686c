"""Math answer extractors: ``\\boxed{…}``, "the final answer is …", GSM8K numbers.

Two families live here:

* Functions under OpenCompass's names (:func:`gsm8k_postprocess`,
  :func:`gsm8k_dataset_postprocess`, :func:`math_postprocess`,
  :func:`math_postprocess_v2`, :func:`normalize_final_answer`,
  :func:`extract_boxed_answer`) compute exactly what OpenCompass 0.5.4
  computes, its bugs included (each docstring lists them), so that a config
  moved from OpenCompass gives the numbers it already publishes.
* assay's corrected extractors (:func:`gsm8k_extract`, registered as
  ``assay-gsm8k``; :func:`math_answer_extract`, ``assay-math``;
  :func:`normalize_math_answer`), which a config opts into.  For these ``''``
  means no answer was found.
"""

from __future__ import annotations

import re

from assay.postprocess._text import as_text, lazy_pattern
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "extract_boxed_answer",
    "gsm8k_dataset_postprocess",
    "gsm8k_extract",
    "gsm8k_postprocess",
    "last_boxed_content",
    "math_answer_extract",
    "math_postprocess",
    "math_postprocess_v2",
    "normalize_final_answer",
    "normalize_math_answer",
]

_BOX_START = lazy_pattern(r"\\(?:boxed|fbox)\b")
_SENTENCE_END = lazy_pattern(r"\.(?!\d)|\n")
_ANSWER_PHRASE = lazy_pattern(r"(?i)final\s+answer(?:\s+is)?|answer\s+is")
_NUMBER = lazy_pattern(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")
_QUESTION = lazy_pattern(r"Question:")
_BARE_BOX = lazy_pattern(r"[^\s$]+")

_UNITS = (
    "square", "ways", "integers", "dollars", "mph", "inches", "inch", "ft", "feet", "hours", "hour",
    "km", "units", "unit", "points", "minutes", "minute", "seconds", "digits", "cents", "degrees",
    "cm", "meters", "meter", "pounds", "students", "days", "years", "miles",
)
_UNIT_WORDS = lazy_pattern(r"\\(?:text|mbox|mathrm)\{\s*(?:" + "|".join(_UNITS) + r")\s*\}|\b(?:" + "|".join(_UNITS) + r")\b")
_WRAPPERS = lazy_pattern(r"\\(?:text|textbf|mbox|mathrm|boxed)\{([^{}]*)\}")
_DOLLAR_MATH = lazy_pattern(r"\$([^$]*)\$")
_ARTICLE = lazy_pattern(r"(?i)\b(?:an?|the)\s+(?=[A-Za-z]{2})")
_SPACING = lazy_pattern(r"\\[,;:! ]|\\quad|\\qquad|\s+")
_DEGREE = lazy_pattern(r"\^\s*\{?\\circ\}?|°")
_PERCENT = lazy_pattern(r"\\?%")
_DFRAC = lazy_pattern(r"\\[dt]frac")
_FRAC_SHORT = lazy_pattern(r"\\frac(?![{])(\w)(\w)")
_FRAC_HALF = lazy_pattern(r"\\frac\{([^{}]+)\}(?![{])(\w)")
_SQRT_SHORT = lazy_pattern(r"\\sqrt(?![{\[])(\w)")
_LEFT_RIGHT = lazy_pattern(r"\\(?:left|right)(?![a-zA-Z])")
_THOUSANDS = lazy_pattern(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")


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


def normalize_math_answer(answer: str) -> str:
    """Normalize a final math answer for string comparison.

    Keeps the right-hand side of an equation, the content of ``$…$``,
    ``\\text{…}`` and ``\\boxed{…}``; drops spacing commands, articles, common
    unit words, degree signs, percent signs and ``\\left``/``\\right``; writes
    ``\\dfrac``/``\\tfrac`` as ``\\frac`` and expands ``\\frac12`` and
    ``\\sqrt2`` shorthand; removes all spaces, a trailing period and thousands
    separators.

    >>> normalize_math_answer('x = \\\\dfrac12')
    '\\\\frac{1}{2}'
    >>> normalize_math_answer('$1,000$ dollars.')
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


# -- OpenCompass 0.5.4, exactly --------------------------------------------------------
#
# The tables below are the replacements OpenCompass's ``normalize_final_answer``
# makes, in its order (facts of its behaviour).  Note the two entries holding a
# real newline character inside ``\text{…}``.
_OC_REPLACE: tuple[tuple[str, str], ...] = (
    ("an ", ""), ("a ", ""), (".$", "$"), ("\\$", ""), ("\\ ", ""), (" ", ""), ("mbox", "text"),
    (",\\text{and}", ","), ("\\text{and}", ","), ("\\text{m}", "\\text{}"), ("\\le", "<"),
)
_OC_DROP: tuple[str, ...] = (
    "square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km", "units", "\\ldots", "sue",
    "points", "feet", "minutes", "digits", "cents", "degrees", "cm", "gm", "pounds", "meters", "meals", "edges",
    "students", "childrentickets", "multiples", "\\text{s}", "\\text{.}", "\\text{\ns}", "\\text{}^2",
    "\\text{}^3", "\\text{\n}", "\\text{}", "\\mathrm{th}", "^\\circ", "^{\\circ}", "\\;", ",\\!", "{,}", '"',
    "\\dots", "\n", "\r", "\f",
)
# Wrapper commands unwrapped to their content (shortest content), in order, each
# with the text that ends every match of it; ``\boxed{…}`` comes after them and is
# unwrapped greedily (see ``_oc_unwrap_boxed``).
_OC_UNWRAP: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (lazy_pattern(p), end)
    for p, end in (
        (r"\\text\{\((.*?)\)\}", ")}"),
        (r"\\text\{(.*?)\}", "}"),
        (r"\\textbf\{(.*?)\}", "}"),
        (r"\\overline\{(.*?)\}", "}"),
    )
)
# Patterns whose last capture, when any, replaces the answer, in order, each
# with the text that ends every match of it ('' for none).
_OC_LAST_CAPTURE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (lazy_pattern(p), end)
    for p, end in ((r"finalansweris(.*)", ""), (r"answer?is:?(.*)", ""), (r"oxed\{(.*?)\}", "}"), (r"\$(.*?)\$", ""))
)


def _up_to_last(text: str, end: str) -> int:
    """The length of the prefix of ``text`` through the last ``end`` (0 when absent; the whole text for '')."""
    if not end:
        return len(text)
    at = text.rfind(end)
    return at + len(end) if at >= 0 else 0


def _oc_unwrap_boxed(s: str) -> str:
    r"""``re.sub(r'\\boxed\{(.*)\}', r'\1', s)`` on a text without newlines, in linear time.

    The greedy match runs from the first ``\boxed{`` to the last ``}`` after it,
    and is the only match.
    """
    close = s.rfind("}")
    start = s.find("\\boxed{")
    if start < 0 or start + len("\\boxed{") > close:
        return s
    return s[:start] + s[start + len("\\boxed{") : close] + s[close + 1 :]
_OC_FRAC = lazy_pattern(r"frac([^{])(.)")
_OC_SQRT = lazy_pattern(r"sqrt([^{])")
_OC_DOUBLE_BRACE = lazy_pattern(r"^\{(.*)\}$")
_OC_STATED = lazy_pattern("final answer|answer is")
_OC_GSM8K_NUMBER = lazy_pattern(r"-?\d+\.\d+|-?\d+")


def normalize_final_answer(final_answer: str) -> str:
    """OpenCompass 0.5.4's normalization of a MATH final answer, exactly.

    In order: a fixed list of plain replacements and removals (``'an '``,
    ``'a '`` and every space removed, unit words such as ``'ft'`` or
    ``'students'`` deleted wherever they occur), ``\\text{…}``,
    ``\\textbf{…}``, ``\\overline{…}`` and ``\\boxed{…}`` unwrapped, the text
    after the last ``finalansweris``/``answeris`` kept, the last ``oxed{…}``
    and ``$…$`` contents kept, ``\\frac``/``\\sqrt`` shorthand expanded,
    ``$`` removed, commas removed from a run of digits.

    OpenCompass bugs reproduced: replacements and removals work on
    substrings, not words: ``'\\left('`` becomes ``'<('`` (``\\le``→``<``,
    then ``'ft'`` removed) while ``\\right`` stays, ``'left'`` becomes
    ``'le'``, ``'Banana split'`` becomes ``'Banansplit'`` (an article ``'a '``
    inside a word); ``\\boxed{…}`` is unwrapped greedily up to the last
    ``}``; ``'rac'`` is rewritten ``'\\frac'`` whenever ``\\frac`` is absent,
    so ``\\dfrac12`` becomes ``\\df\\frac{1}{2}``; the comma rule uses
    :meth:`str.isdigit`, which accepts superscripts such as ``'²'``.  See :func:`normalize_math_answer`
    for assay's corrected normalization.

    >>> normalize_final_answer('The final answer is $1,000$ dollars')
    '1000'
    >>> normalize_final_answer('x = \\\\dfrac12')
    'x=\\\\df\\\\frac{1}{2}'
    """
    s = as_text(final_answer)
    for old, new in _OC_REPLACE:
        s = s.replace(old, new)
    for old in _OC_DROP:
        s = s.replace(old, "")
    # Each pattern is applied to the prefix through the last text that can end a
    # match of it: the same matches, and no quadratic search from the starts
    # beyond it that can never match.
    for pattern, end in _OC_UNWRAP:
        cut = _up_to_last(s, end)
        s = pattern.sub(r"\1", s[:cut]) + s[cut:]
    s = _oc_unwrap_boxed(s)
    for pattern, end in _OC_LAST_CAPTURE:
        found = pattern.findall(s[: _up_to_last(s, end)])
        if found:
            s = found[-1]
    s = s.strip()
    if "rac" in s and "\\frac" not in s:
        s = s.replace("rac", "\\frac")
    s = _OC_FRAC.sub(r"frac{\1}{\2}", s)
    s = _OC_SQRT.sub(r"sqrt{\1}", s)
    s = s.replace("$", "")
    if s.replace(",", "").isdigit():
        s = s.replace(",", "")
    return s


def last_boxed_command(text: str) -> str | None:
    """The last ``\\boxed`` (else ``\\fbox``) command through its balancing ``}``, as OpenCompass finds it."""
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def extract_boxed_answer(pred_str: str, strip_double_curly_brace: bool = False) -> str | None:
    """OpenCompass 0.5.4's ``\\boxed{…}`` content, exactly; ``None`` when there is none.

    Only the *last* ``\\boxed`` of the text is looked at (``\\fbox`` only when
    there is no ``\\boxed`` at all); its content runs to the brace that
    balances the count started at that command.

    OpenCompass bugs reproduced: an unclosed last box gives ``None`` even when
    an earlier box is complete; ``\\boxed {5}`` (a space) and any ``\\fbox``
    give ``None``; braces are counted without regard to ``\\{``; with
    ``strip_double_curly_brace``, ``{a}+{b}`` loses its first and last brace
    (``a}+{b``), as the check is only that the content starts with ``{`` and
    ends with ``}``.  :func:`last_boxed_content` is assay's corrected reader.

    >>> extract_boxed_answer('so \\\\boxed{1} or \\\\boxed{\\\\frac{1}{2}}')
    '\\\\frac{1}{2}'
    >>> extract_boxed_answer('\\\\boxed{{a}+{b}}', strip_double_curly_brace=True)
    'a}+{b'
    >>> extract_boxed_answer('\\\\boxed{5} then \\\\boxed{') is None
    True
    """
    boxed = last_boxed_command(as_text(pred_str))
    if boxed is None or not boxed.startswith("\\boxed{") or not boxed.endswith("}"):
        return None
    answer = boxed[len("\\boxed{") : -1]
    if strip_double_curly_brace:
        match = _OC_DOUBLE_BRACE.match(answer)
        if match:
            answer = match.group(1)
    return answer


@TEXT_POSTPROCESSORS.register_module(["math_postprocess"])
@deterministic
def math_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's ``math_postprocess`` (v1), exactly.

    The text is cut at every ``.``; the first piece containing "final
    answer" (any case) goes through :func:`normalize_final_answer`; without
    one, the first piece does.

    OpenCompass bugs reproduced: decimal points cut too (``'The final answer
    is 3.5'`` gives ``'3'``); ``\\boxed{}`` is ignored unless it is in the
    chosen piece; a reply without "final answer" gives its normalized first
    sentence, never a no-answer value.

    >>> math_postprocess('We add. The final answer is 3.5')
    '3'
    >>> math_postprocess('It is $x=2$. Done')
    'x=2'
    """
    pieces = as_text(text).split(".")
    for piece in pieces:
        if "final answer" in piece.lower():
            return normalize_final_answer(piece)
    return normalize_final_answer(pieces[0])


@TEXT_POSTPROCESSORS.register_module(["math_postprocess_v2"])
@deterministic
def math_postprocess_v2(text: str) -> str:
    """OpenCompass 0.5.4's ``math_postprocess_v2``, exactly.

    1. :func:`extract_boxed_answer` with doubled braces stripped, when it is
       not empty;
    2. else the first ``.``-separated piece saying "final answer" or "answer
       is" (any case), through :func:`normalize_final_answer`;
    3. else the first piece, normalized.

    OpenCompass bugs reproduced: those of :func:`extract_boxed_answer` (an
    unclosed last box hides an earlier complete one); decimal points cut
    the text (``'The answer is 3.5'`` gives ``'3'``); a reply with no answer
    at all gives its normalized first sentence (``'Answer:B'`` from
    ``'Answer: B'``), never a no-answer value.  :func:`math_answer_extract`
    (``assay-math``) is the corrected extractor.

    >>> math_postprocess_v2('Thus $x=\\\\boxed{\\\\frac{3}{4}}$.')
    '\\\\frac{3}{4}'
    >>> math_postprocess_v2('The answer is 3.5. Done')
    '3'
    >>> math_postprocess_v2('Answer: B')
    'Answer:B'
    """
    text = as_text(text)
    boxed = extract_boxed_answer(text, strip_double_curly_brace=True)
    if boxed:
        return boxed
    pieces = text.split(".")
    for piece in pieces:
        if _OC_STATED.search(piece.lower()):
            return normalize_final_answer(piece)
    return normalize_final_answer(pieces[0])


@TEXT_POSTPROCESSORS.register_module(["gsm8k", "gsm8k_postprocess"])
@deterministic
def gsm8k_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's GSM8K answer extraction, exactly: the last number before any ``Question:``.

    Numbers are ``-?digits.digits`` or ``-?digits``; ``'NULL'`` when there is none.

    OpenCompass bugs reproduced: thousands separators split a number, so
    ``'$1,234'`` gives ``'234'``; ``'NULL'`` (not ``''``) when no number is
    found; a trailing ``'5.'`` or ``'.5'`` reads as ``'5'``; any Unicode digit
    counts.  :func:`gsm8k_extract` (``assay-gsm8k``) reads ``1,234`` as
    ``1234``.

    >>> gsm8k_postprocess('She pays 3 * 2 = 6 dollars, so $1,206 in total.')
    '206'
    >>> gsm8k_postprocess('The answer is 7.\\n\\nQuestion: what is 2+2?')
    '7'
    >>> gsm8k_postprocess('no number')
    'NULL'
    """
    head = as_text(text).split("Question:")[0]
    numbers = _OC_GSM8K_NUMBER.findall(head)
    return numbers[-1] if numbers else "NULL"


@TEXT_POSTPROCESSORS.register_module(["gsm8k_dataset", "gsm8k_dataset_postprocess"])
@deterministic
def gsm8k_dataset_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's GSM8K reference extraction: the text after the first ``'#### '``, commas removed.

    As in OpenCompass, the text is taken up to a second ``'#### '`` if any
    and is not stripped.  Where OpenCompass raises an ``IndexError`` (a
    reference without ``'#### '``), assay returns the reference stripped,
    commas removed, so every reference OpenCompass can read gives the same
    answer and a bare one does not stop the run.

    >>> gsm8k_dataset_postprocess('Natalia sold 48/2 = 24 clips.\\n#### 1,072')
    '1072'
    >>> gsm8k_dataset_postprocess(' 72 ')
    '72'
    """
    body = as_text(text)
    parts = body.split("#### ")
    if len(parts) > 1:
        return parts[1].replace(",", "")
    return body.strip().replace(",", "")


# -- assay's corrected extractors --------------------------------------------------------


@TEXT_POSTPROCESSORS.register_module(["assay-math", "math_answer_extract"])
@deterministic
def math_answer_extract(text: str) -> str:
    """The final answer of a math solution: the last ``\\boxed{…}``, else a stated final answer, else ``''``.

    assay's corrected counterpart of :func:`math_postprocess_v2` (opt in with
    ``dict(type='assay-math')``):

    1. The content of the last complete ``\\boxed{…}`` (see
       :func:`last_boxed_content`), returned as written.
    2. Otherwise the first sentence saying "final answer" or "answer is": the
       text after that phrase, through :func:`normalize_math_answer`.

    Returns ``''`` when neither is found.  Corrections: sentences are split at
    periods that are not decimal points (``math_postprocess_v2`` reads ``'The
    final answer is 3.5'`` as ``'3'``); an unclosed last box does not hide an
    earlier complete one; only the text after the phrase is normalized; and a
    reply with no answer gives ``''`` instead of its normalized first sentence.

    >>> math_answer_extract(r'Thus $x=\\boxed{\\frac{3}{4}}$.')
    '\\\\frac{3}{4}'
    >>> math_answer_extract('The final answer is 3.5. Done')
    '3.5'
    >>> math_answer_extract('I could not solve it.')
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
        normalized = normalize_math_answer(tail)
        if normalized:
            return normalized
    return ""


@TEXT_POSTPROCESSORS.register_module(["assay-gsm8k", "gsm8k_extract"])
@deterministic
def gsm8k_extract(text: str) -> str:
    """The last number of a GSM8K-style reply, without thousands separators, or ``''``.

    assay's corrected counterpart of :func:`gsm8k_postprocess` (opt in with
    ``dict(type='assay-gsm8k')``).  Text from the first ``Question:`` on (a
    base model continuing with the next few-shot question) is ignored.
    Corrections: ``1,234`` is read as one number (``gsm8k_postprocess`` reads
    ``234``), and no number gives ``''`` rather than ``'NULL'``.

    >>> gsm8k_extract('She pays 3 * 2 = 6 dollars, so $1,206 in total.')
    '1206'
    >>> gsm8k_extract('The answer is 7.\\n\\nQuestion: what is 2+2?')
    '7'
    >>> gsm8k_extract('no number')
    ''
    """
    head = _QUESTION.split(as_text(text), maxsplit=1)[0]
    numbers = _NUMBER.findall(head)
    return numbers[-1].replace(",", "") if numbers else ""
