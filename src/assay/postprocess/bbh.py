"""BIG-Bench Hard answer extractors (multiple-choice letters and free-form answers).

:func:`bbh_mcq_postprocess` and :func:`bbh_freeform_postprocess` compute exactly
what OpenCompass 0.5.4 computes, bugs included; :func:`bbh_mcq_extract`
(``assay-bbh-mcq``) and :func:`bbh_freeform_extract` (``assay-bbh-freeform``)
are assay's corrected extractors, for which ``''`` means no answer was found.
"""

from __future__ import annotations

import re

from assay.postprocess._text import as_text, lazy_pattern
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["bbh_freeform_extract", "bbh_freeform_postprocess", "bbh_mcq_extract", "bbh_mcq_postprocess"]

_ANSWER_IS = lazy_pattern(r"answer is\s*:?\s*", re.IGNORECASE)
_PAREN_LETTER = lazy_pattern(r"\(([A-Z])\)?")
_CAPITAL = lazy_pattern(r"[A-Z]")
_BOLD = lazy_pattern(r"\*\*(.+?)\*\*")
_LIST_COMMA = lazy_pattern(r"\s*,\s*")


def _after_answer_is(text: str) -> str:
    match = _ANSWER_IS.search(text)
    return text[match.end() :] if match else text


_OC_PAREN_CAPITAL = lazy_pattern(r"\(([A-Z])\)*")
_OC_CAPITAL = lazy_pattern(r"([A-Z])")
_OC_ANSWER_IS = lazy_pattern(r"answer is\s*:?\s*", re.IGNORECASE)
_OC_BOLD = lazy_pattern(r"\*\*(.*?)\*\*")
_OC_YES_NO = lazy_pattern(r"^(yes|no)\b", re.IGNORECASE)
_OC_TRUE_FALSE = lazy_pattern(r"^(true|false)\b", re.IGNORECASE)
_OC_DIGIT_COMMA = lazy_pattern(r"\d\s*,\s*\d")
_OC_SPACES = lazy_pattern(r"\s+")


@TEXT_POSTPROCESSORS.register_module(["bbh-mcq", "bbh_mcq_postprocess"])
@deterministic
def bbh_mcq_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's BBH multiple-choice extraction, exactly.

    The text between the first and the second ``'answer is '`` (lower case,
    with its space; the whole text when there is none), stripped; in it the
    first ``(X)`` capital, else the first capital letter.

    OpenCompass bugs reproduced: a text holding no capital letter is returned
    itself (``'so the answer is 42'`` gives ``'42'``); ``'Answer is (B)'`` and
    ``'answer is:(B)'`` are not recognised, so the first capital of the whole
    text wins; the stripped piece is returned only when ``'answer is '``
    occurs, the unstripped text otherwise.  :func:`bbh_mcq_extract`
    (``assay-bbh-mcq``) is the corrected extractor.

    >>> bbh_mcq_postprocess('Options (A) and (B). So the answer is (B).')
    'B'
    >>> bbh_mcq_postprocess('so the answer is 42')
    '42'
    """
    ans = as_text(text)
    pieces = ans.split("answer is ")
    if len(pieces) != 1:
        ans = pieces[1].strip()
    match = _OC_PAREN_CAPITAL.search(ans) or _OC_CAPITAL.search(ans)
    return match.group(1) if match else ans


@TEXT_POSTPROCESSORS.register_module(["bbh-freeform", "bbh_freeform_postprocess"])
@deterministic
def bbh_freeform_postprocess(text: str) -> str:
    """OpenCompass 0.5.4's BBH free-form extraction, exactly.

    The text after the *last* "answer is" (any case, optional ``:``), its
    first line, stripped; one trailing period dropped; the first ``**bold**``
    unwrapped; a leading yes/no or true/false returned capitalized; commas
    turned into spaces unless a digit stands on both sides of one; spaces
    collapsed.

    OpenCompass behaviour reproduced: a reply saying "answer is" twice is
    read after the last one; ``'Yes, because …'`` gives ``'Yes'`` but a list
    ``'1, 2'`` keeps its commas; the period is dropped before the bold text
    is unwrapped, so ``'**yes.**'`` gives ``'Yes'`` while ``'**12.**'`` keeps
    ``'12.'``.  :func:`bbh_freeform_extract` (``assay-bbh-freeform``) is
    assay's variant.

    >>> bbh_freeform_postprocess("Let's think. So the answer is **yes**.")
    'Yes'
    >>> bbh_freeform_postprocess('So the answer is apple, banana, cherry.')
    'apple banana cherry'
    """
    ans = as_text(text)
    pieces = _OC_ANSWER_IS.split(ans)
    if len(pieces) != 1:
        ans = pieces[-1].strip()
    ans = ans.split("\n")[0].strip()
    if ans.endswith("."):
        ans = ans[:-1].strip()
    bold = _OC_BOLD.search(ans)
    if bold:
        ans = bold.group(1).strip()
    for pattern in (_OC_YES_NO, _OC_TRUE_FALSE):
        word = pattern.match(ans)
        if word:
            return word.group(1).capitalize()
    if "," in ans and not _OC_DIGIT_COMMA.search(ans):
        ans = _commas_to_spaces(ans)
    return _OC_SPACES.sub(" ", ans).strip()


def _commas_to_spaces(text: str) -> str:
    r"""``re.sub(r'\s*,\s*', ' ', text)`` in linear time (the regex is quadratic on a long run of spaces).

    Each match is a comma with the whitespace run before it (back to the end
    of the previous match) and the whole run after it.

    >>> _commas_to_spaces('a ,b,  , c,')
    'a b  c '
    """
    out: list[str] = []
    pos = 0
    while True:
        comma = text.find(",", pos)
        if comma < 0:
            break
        start = comma
        while start > pos and text[start - 1].isspace():
            start -= 1
        end = comma + 1
        while end < len(text) and text[end].isspace():
            end += 1
        out.append(text[pos:start])
        out.append(" ")
        pos = end
    out.append(text[pos:])
    return "".join(out)


@TEXT_POSTPROCESSORS.register_module(["assay-bbh-mcq", "bbh_mcq_extract"])
@deterministic
def bbh_mcq_extract(text: str) -> str:
    """The option letter of a BBH multiple-choice reply, or ``''``.

    Looks after the first "answer is" (or in the whole reply when it has
    none) for a parenthesized capital ``(X)``, else the first capital letter.
    assay's corrected counterpart of :func:`bbh_mcq_postprocess`: "answer
    is" matches in any case and with any spacing, and a reply without a
    capital letter gives ``''`` (not the remaining text).

    >>> bbh_mcq_extract('Options (A) and (B). So the answer is (B).')
    'B'
    >>> bbh_mcq_extract('so the answer is 42')
    ''
    """
    rest = _after_answer_is(as_text(text))
    match = _PAREN_LETTER.search(rest) or _CAPITAL.search(rest)
    if match is None:
        return ""
    return match.group(1) if match.re.groups else match.group(0)


@TEXT_POSTPROCESSORS.register_module(["assay-bbh-freeform", "bbh_freeform_extract"])
@deterministic
def bbh_freeform_extract(text: str) -> str:
    """The free-form answer of a BBH reply, or ``''``.

    assay's corrected counterpart of :func:`bbh_freeform_postprocess`.
    Takes the text after the first "answer is" (the whole reply when it has
    none; OpenCompass takes the text after the last), keeps its first line, unwraps ``**bold**``, drops a trailing period,
    writes *yes/no/true/false* capitalized as in the BBH targets and turns a
    comma-separated list into a space-separated one (``'a, b, c'`` →
    ``'a b c'``, the form of the word-sorting targets).  Case is kept: BBH's
    own targets differ (``yes`` in sports_understanding, ``Yes`` in
    navigate), so case-folding belongs to the comparison
    (:class:`~assay.evaluators.exact.BBHEvaluator`).

    >>> bbh_freeform_extract("Let's think. So the answer is **yes**.")
    'yes'
    >>> bbh_freeform_extract('So the answer is apple, banana, cherry.')
    'apple banana cherry'
    """
    rest = _after_answer_is(as_text(text)).strip()
    line = rest.split("\n", 1)[0].strip()
    bold = _BOLD.search(line)
    if bold is not None:
        line = bold.group(1).strip()
    line = line.rstrip(".").strip()
    if "," in line:
        line = _LIST_COMMA.sub(" ", line).strip()
    return line
