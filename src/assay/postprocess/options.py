"""Multiple-choice extractors: find the option letter(s) a reply chose.

``options`` is the string of option characters, e.g. ``'ABCD'``; ``''`` means
no option was found.
"""

from __future__ import annotations

import re
from functools import lru_cache

from assay.postprocess._text import as_text, option_class
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "first_capital_postprocess_multi",
    "first_option_postprocess",
    "last_option_postprocess",
    "multiple_select_postprocess",
    "option_patterns",
]

# The cascade of ``first_option_postprocess``, strongest evidence first.  ``{o}``
# stands for the option character class.  Each pattern captures the answer in
# group 1; a capture may hold more than one character (the free-capture forms),
# and then its first option character (in text order) is the answer.
#
# Whitespace runs use possessive quantifiers (``\s*+``): what follows them is
# never whitespace, and without backtracking a long run of spaces cannot make
# a search quadratic.  Patterns anchored at the end of the text are searched in
# its last ``_TAIL`` characters only, for the same reason.
_S = r"\s*+"
_NOT_WORD = r"(?![A-Za-z])"
_BRACKETS = r"[*(\[（【]*+"
_OPEN = _BRACKETS + _S
_END = _S + r"[)）】*]*+" + _S + r"[。.]?" + _S + r"$"
_TAIL = 256
_CASCADE: tuple[tuple[str, bool], ...] = (
    # 1. Chinese "the answer is / should be / choose X".
    (r"答案(?:应该|应当|应)?(?:是|为|选|选择)?" + _S + r"(?:选项)?" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])", False),
    (r"(?:故|所以|因此|则|应该|应)?选择?" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])", False),
    # 2. "only option X is right/wrong", "the (in)correct statement is X".
    (r"只有" + _S + r"(?:选项)?" + _S + r"([{o}])" + _S + r"项?" + _S + r"(?:是|为)?" + _S + r"(?:对|错|正确|不正确|错误)", False),
    (r"(?:不正确|正确|错误|不对|对)的?(?:说法|表述|选项|答案)(?:是|为)" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])", False),
    (r"(?:说法|表述)(?:不正确|正确|错误|不对|对)的?(?:选项)?(?:是|为)" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])", False),
    # 3. "X is correct".
    (r"([{o}])" + _S + r"项?" + _S + r"(?:是|为)?" + _S + r"(?:正确的|正确答案|正确|对的)", False),
    # 4. "Answer: X".
    (r"(?i:answer)" + _S + r"[:：]" + _S + _OPEN + r"([{o}])" + _NOT_WORD, False),
    # 5. English "the (correct) answer is (option) X", "answer to the question is X", \boxed{X}.
    (
        r"(?i:the\s++(?:correct\s++|right\s++|best\s++|final\s++)?answer\s++(?:is|should\s++be|would\s++be|will\s++be)"
        r"|answer\s++to\s++the\s++question\s++is)"
        + _S + r"[:：]?" + _S + r"(?i:option\s++|choice\s++)?" + _OPEN + r"([{o}])" + _NOT_WORD,
        False,
    ),
    (r"\\boxed\{" + _S + r"(?:\\text(?:bf)?\{" + _S + r")?\(?([{o}])" + _NOT_WORD, False),
    (r"(?i:option|choice)" + _S + r"\(?([{o}])\)?\s++(?i:is\s++(?:the\s++)?(?:correct|right|best))", False),
    # 6. Chinese "so / therefore / clearly X" at the end of the text, or a lone X ending it.
    (r"(?:所以|因此|故|即|综上所述|综上|显然|答)[，,：:\s]*+(?:选项)?" + _S + _OPEN + r"([{o}])" + _END, True),
    (r"[\s，,：:是为。]" + _S + _OPEN + r"([{o}])" + _END, True),
    # 7. Free captures after "答案是/为": the first option character of the capture.
    (r"答案(?:应该)?(?:是|为)" + _S + r"(\S+?)(?:。|$)", False),
    # 8. A text starting with "选项X" or "X选项".
    (r"^" + _S + r"选项" + _S + r"([{o}])", False),
    (r"^" + _S + r"([{o}])" + _S + r"选?项", False),
    # 9. A standalone X: after whitespace or at the start, before punctuation, space or the end.
    (r"(?:^|\s)" + _BRACKETS + r"([{o}])(?=$|[\s。，,：:.)）\]】*])", False),
    # 10. A numbered first answer line "1. X".
    (r"(?m)^[ \t]*+1[ \t]*+[.、．)][ \t]*+" + _BRACKETS + r"([{o}])" + _NOT_WORD, False),
)
_CUSHION: tuple[tuple[str, bool], ...] = (
    # 11. Last resort: "X:" and then any option character at all.
    (r"([{o}])" + _S + r"[:：]", False),
    (r"([{o}])", False),
)


@lru_cache(maxsize=128)
def option_patterns(options: str, cushion: bool = True) -> tuple[tuple[re.Pattern[str], bool], ...]:
    """The compiled cascade used by :func:`first_option_postprocess`: ``(pattern, searched in the tail only)``.

    Compiled once per ``(options, cushion)`` and cached.

    >>> len(option_patterns('ABCD', cushion=True)) - len(option_patterns('ABCD', cushion=False))
    2
    """
    cls = option_class(options)
    templates = _CASCADE + (_CUSHION if cushion else ())
    return tuple((re.compile(t.replace("{o}", cls), re.DOTALL), tail) for t, tail in templates)


@TEXT_POSTPROCESSORS.register_module(["first_option_postprocess"])
def first_option_postprocess(text: str, options: str = "ABCD", cushion: bool = True) -> str:
    """The option a reply chose, found by an ordered cascade of Chinese and English patterns.

    The stripped text is searched with each pattern in turn; for the first
    pattern that matches, the first option character in its capture is the
    answer (a pattern whose capture holds none is passed over).  Order of the
    cascade, strongest evidence first:

    1. Chinese answer statements (``答案是B``, ``答案为：B``, ``故选B``, ``选择B``);
    2. "only option X is right/wrong", "the correct/incorrect statement is X";
    3. ``X是正确的``, ``X正确``;
    4. ``Answer: X`` (the letter must not start a word: ``Answer: Let's`` is no ``L``);
    5. English statements ("The answer is (C)", "the correct answer is option B",
       "The answer to the question is B", ``\\boxed{C}``, "option B is correct");
    6. ``所以/因此/显然…X`` at the end of the text, or a lone ``X`` ending it;
    7. free captures after ``答案是``/``答案为`` (``答案是BC`` gives ``B``);
    8. a text starting with ``选项X`` or ``X选项``;
    9. a standalone ``X`` between spaces or punctuation;
    10. a numbered line ``1. X``;
    11. with ``cushion`` (default): ``X:``, then the first option character anywhere.

    Differences from OpenCompass 0.5.4, each a fix: every pattern is its own
    entry (OpenCompass silently concatenates two patterns through a missing
    comma, so ``'只有选项B是对的'`` is only found through the cushion); the
    standalone-letter pattern works anywhere in the text, not only at its
    start (``'x B y'`` gives ``'B'`` without the cushion); ``1.`` is a literal
    number and dot; a free capture's answer is its first option character in
    *text* order, not in options order (``答案是DA`` gives ``D``); and
    explicit English answer statements are tried before the end-of-text
    heuristics, so ``'The answer is B, not A'`` gives ``'B'``.

    Returns ``''`` when no option is found (or ``options`` is empty).

    >>> first_option_postprocess('答案是 B', 'ABCD')
    'B'
    >>> first_option_postprocess('Let us think. The answer is (C).', 'ABCD')
    'C'
    >>> first_option_postprocess('只有选项B是对的', 'ABCD', cushion=False)
    'B'
    >>> first_option_postprocess('no idea', 'ABCD', cushion=False)
    ''
    """
    if not options:
        return ""
    body = as_text(text).strip()
    if not body:
        return ""
    tail_text = body[-_TAIL:]
    for pattern, tail in option_patterns(options, cushion):
        match = pattern.search(tail_text if tail else body)
        if match is None:
            continue
        captured = match.group(1) or match.group(0)
        for ch in captured:
            if ch in options:
                return ch
    return ""


@TEXT_POSTPROCESSORS.register_module(["last_option_postprocess"])
def last_option_postprocess(text: str, options: str = "ABCD") -> str:
    """The last option character occurring anywhere in the text, or ``''``.

    Any occurrence counts, also inside words (``'B. Done'`` gives ``'D'``):
    use it on replies that end with their answer.

    >>> last_option_postprocess('A then C then B', 'ABCD')
    'B'
    """
    if not options:
        return ""
    for ch in reversed(as_text(text)):
        if ch in options:
            return ch
    return ""


@lru_cache(maxsize=32)
def _option_run(options: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z])([" + option_class(options) + r"]+)(?![A-Za-z])")


@TEXT_POSTPROCESSORS.register_module(["first-capital-multi", "first_capital_postprocess_multi"])
def first_capital_postprocess_multi(text: str, options: str = "ABCD") -> str:
    """The first standalone run of option letters (a multiple-answer choice), or ``''``.

    The run must not be part of a longer word: OpenCompass takes the first run
    of ``[A-D]`` anywhere, so ``'Answer: BD'`` gives ``'A'`` (from *Answer*);
    here it gives ``'BD'``.  Letters are kept in the order written.

    >>> first_capital_postprocess_multi('Answer: BD')
    'BD'
    >>> first_capital_postprocess_multi('none of them')
    ''
    """
    if not options:
        return ""
    match = _option_run(options).search(as_text(text))
    return match.group(1) if match else ""


@TEXT_POSTPROCESSORS.register_module(["multiple-select", "multiple_select_postprocess"])
def multiple_select_postprocess(text: str) -> str:
    """Every distinct uppercase letter of the text, sorted, or ``''``.

    >>> multiple_select_postprocess('bA D C')
    'ACD'
    """
    return "".join(sorted({ch for ch in as_text(text) if ch.isupper()}))
