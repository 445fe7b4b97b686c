"""Multiple-choice extractors: find the option letter(s) a reply chose.

``options`` is the string of option characters, e.g. ``'ABCD'``; ``''`` means
no option was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from assay.postprocess._text import as_text, option_class
from assay.postprocess.chain import deterministic
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
#
# Gating: each entry also says what a text must hold for its pattern to match,
# and the pattern is only searched in a text that holds it, so a reply meets a
# few patterns instead of most of them.  Every condition is necessary, none is
# a guess: the answer is always the one of searching every pattern in turn.
#
# * ``chars``: characters of which one occurs in every match; checked first,
#   as looking for one character in a long text is much quicker than for a
#   longer literal.
# * ``needs``: literals of which one occurs in every match (``'正确'`` stands
#   for ``'不正确'`` too).
# * ``words``: ASCII words of which one occurs, ignoring case, in every match;
#   they are looked up in the copy of the text made by ``_fold``, which lines
#   up with the text.
# * ``starts``: ASCII words one of which, ignoring case, starts every match
#   (so they gate it like ``words``): the pattern is only tried where they occur.
# * ``probe``: a shorter pattern (``{o}`` as above) that every match contains;
#   it starts with a literal or a small class, so it is quick to search.  With
#   ``lead``, the probe's match lies at most ``lead`` characters after the
#   start of the pattern's, and the pattern is searched from ``lead``
#   characters before the probe's first match.
# * Patterns searched in the tail end with ``_END``, which only matches
#   whitespace and ``_CLOSERS``: they need a text that ``_ends_in_option``.
# * An ASCII text holds no other characters: an entry whose ``chars`` or
#   ``needs`` are none of them ASCII is not searched in it.
#
# An entry has at most one of ``words``/``starts``, ``probe`` and ``tail``.
_S = r"\s*+"
_NOT_WORD = r"(?![A-Za-z])"
_BRACKETS = r"[*(\[（【]*+"
_OPEN = _BRACKETS + _S
_END = _S + r"[)）】*]*+" + _S + r"[。.]?" + _S + r"$"
_CLOSERS = ")）】*。."  # what ``_END`` matches besides whitespace
_TAIL = 256


class _Entry(NamedTuple):
    """A pattern of the cascade and the gates in front of it (see above)."""

    template: str
    tail: bool = False
    chars: str = ""
    needs: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    starts: tuple[str, ...] = ()
    probe: str = ""
    lead: int | None = None


_ANSWER = ("answer",)
_COLON = (":", "：")
_CASCADE: tuple[_Entry, ...] = (
    # 1. Chinese "the answer is / should be / choose X".
    _Entry(r"答案(?:应该|应当|应)?(?:是|为|选|选择)?" + _S + r"(?:选项)?" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])", chars="案", needs=("答案",)),
    _Entry(
        r"(?:故|所以|因此|则|应该|应)?选择?" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])",
        needs=("选",),
        probe=r"选[择\s：:*(\[（【{o}]",
        lead=2,
    ),
    # 2. "only option X is right/wrong", "the (in)correct statement is X".
    _Entry(
        r"只有" + _S + r"(?:选项)?" + _S + r"([{o}])" + _S + r"项?" + _S + r"(?:是|为)?" + _S + r"(?:对|错|正确|不正确|错误)",
        chars="只",
        needs=("只有",),
    ),
    _Entry(
        r"(?:不正确|正确|错误|不对|对)的?(?:说法|表述|选项|答案)(?:是|为)" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])",
        chars="确误对",
        needs=tuple(a + b for a in ("说法", "表述", "选项", "答案") for b in ("是", "为")),
    ),
    _Entry(
        r"(?:说法|表述)(?:不正确|正确|错误|不对|对)的?(?:选项)?(?:是|为)" + _S + r"[：:]?" + _S + _OPEN + r"([{o}])",
        chars="确误对",
        needs=tuple(a + b for a in ("说法", "表述") for b in ("不", "正", "错", "对")),
    ),
    # 3. "X is correct".
    _Entry(
        r"([{o}])" + _S + r"项?" + _S + r"(?:是|为)?" + _S + r"(?:正确的|正确答案|正确|对的)", chars="确对", needs=("正确", "对的")
    ),
    # 4. "Answer: X".
    _Entry(r"(?i:answer)" + _S + r"[:：]" + _S + _OPEN + r"([{o}])" + _NOT_WORD, needs=_COLON, starts=_ANSWER),
    # 5. English "the (correct) answer is (option) X", "answer to the question is X", \boxed{X}.
    _Entry(
        r"(?i:the\s++(?:correct\s++|right\s++|best\s++|final\s++)?answer\s++(?:is|should\s++be|would\s++be|will\s++be)"
        r"|answer\s++to\s++the\s++question\s++is)"
        + _S + r"[:：]?" + _S + r"(?i:option\s++|choice\s++)?" + _OPEN + r"([{o}])" + _NOT_WORD,
        words=_ANSWER,
        starts=("the", "answer"),
    ),
    _Entry(r"\\boxed\{" + _S + r"(?:\\text(?:bf)?\{" + _S + r")?\(?([{o}])" + _NOT_WORD, needs=("\\boxed{",)),
    _Entry(
        r"(?i:option|choice)" + _S + r"\(?([{o}])\)?\s++(?i:is\s++(?:the\s++)?(?:correct|right|best))",
        starts=("option", "choice"),
    ),
    # 6. Chinese "so / therefore / clearly X" at the end of the text, or a lone X ending it.
    _Entry(
        r"(?:所以|因此|故|即|综上所述|综上|显然|答)[，,：:\s]*+(?:选项)?" + _S + _OPEN + r"([{o}])" + _END,
        tail=True,
        chars="所因故即综显答",
        needs=("所以", "因此", "故", "即", "综上", "显然", "答"),
    ),
    _Entry(r"[\s，,：:是为。]" + _S + _OPEN + r"([{o}])" + _END, tail=True),
    # 7. Free captures after "答案是/为": the first option character of the capture.
    _Entry(r"答案(?:应该)?(?:是|为)" + _S + r"(\S+?)(?:。|$)", chars="案", needs=("答案是", "答案为", "答案应该")),
    # 8. A text starting with "选项X" or "X选项".
    _Entry(r"^" + _S + r"选项" + _S + r"([{o}])", chars="项", needs=("选项",)),
    _Entry(r"^" + _S + r"([{o}])" + _S + r"选?项", needs=("项",)),
    # 9. A standalone X: after whitespace or at the start, before punctuation, space or the end.
    _Entry(r"(?:^|\s)" + _BRACKETS + r"([{o}])(?=$|[\s。，,：:.)）\]】*])", probe=r"[{o}](?=$|[\s。，,：:.)）\]】*])"),
    # 10. A numbered first answer line "1. X".
    _Entry(r"(?m)^[ \t]*+1[ \t]*+[.、．)][ \t]*+" + _BRACKETS + r"([{o}])" + _NOT_WORD, needs=("1",)),
)
_CUSHION: tuple[_Entry, ...] = (
    # 11. Last resort: "X:" and then any option character at all.
    _Entry(r"([{o}])" + _S + r"[:：]", needs=_COLON),
    _Entry(r"([{o}])"),
)


def _fold(text: str) -> str:
    """``text`` lowercased, so that an ASCII word matched ignoring case shows in it as that word, in place.

    ``re.IGNORECASE`` equates three non-ASCII letters with ASCII ones that
    ``str.lower`` leaves apart: ``'ſ'`` (``s``), ``'ı'`` and ``'İ'`` (``i``);
    they are replaced first (``'İ'`` before lowering, which would make it two
    characters), so the copy stays as long as the text.

    >>> _fold('ANſWER İS')
    'answer is'
    """
    if text.isascii():
        return text.lower()
    return text.replace("İ", "i").lower().replace("ſ", "s").replace("ı", "i")


@lru_cache(maxsize=128)
def option_patterns(options: str, cushion: bool = True) -> tuple[tuple[re.Pattern[str], bool], ...]:
    """The compiled cascade used by :func:`first_option_postprocess`: ``(pattern, searched in the tail only)``.

    Compiled once per ``(options, cushion)`` and cached.

    >>> len(option_patterns('ABCD', cushion=True)) - len(option_patterns('ABCD', cushion=False))
    2
    """
    cls = option_class(options)
    entries = _CASCADE + (_CUSHION if cushion else ())
    return tuple((re.compile(e.template.replace("{o}", cls), re.DOTALL), e.tail) for e in entries)


_Search = Callable[[str], re.Match[str] | None]
#: A gated pattern: ``(pattern, chars, needs, words, starts, probe search or None, lead, tail)``.
_Step = tuple[re.Pattern[str], str, tuple[str, ...], tuple[str, ...], tuple[str, ...], _Search | None, int | None, bool]
#: The steps worth taking on a text that is not ASCII, and on one that is.
_Plans = tuple[tuple[_Step, ...], ...]


@lru_cache(maxsize=128)
def _plans(options: str, cushion: bool) -> _Plans:
    """The gated cascade for ``(options, cushion)``, built once and kept (like :func:`option_patterns`)."""
    cls = option_class(options)
    entries = _CASCADE + (_CUSHION if cushion else ())
    patterns = option_patterns(options, cushion)
    built: list[tuple[_Step, ...]] = []
    for ascii_text in (False, True):
        steps: list[_Step] = []
        for entry, (pattern, tail) in zip(entries, patterns):
            chars, needs = entry.chars, entry.needs
            if ascii_text:
                chars, needs = "".join(c for c in chars if c.isascii()), tuple(n for n in needs if n.isascii())
            if (entry.chars and not chars) or (entry.needs and not needs):
                continue
            probe = re.compile(entry.probe.replace("{o}", cls), re.DOTALL).search if entry.probe else None
            words = entry.words or entry.starts  # a match holds the word it starts with
            steps.append((pattern, chars, needs, words, entry.starts, probe, entry.lead, tail))
        built.append(tuple(steps))
    return tuple(built)


def _ends_in_option(body: str, options: str) -> bool:
    """Whether ``body`` ends with an option character followed by nothing but whitespace and ``_CLOSERS``.

    A pattern ending with ``_END`` can only match a text for which this holds.
    """
    for ch in reversed(body):
        if ch in options:
            return True
        if ch not in _CLOSERS and not ch.isspace():
            return False
    return False


def _match_at_words(pattern: re.Pattern[str], body: str, low: str, words: tuple[str, ...]) -> re.Match[str] | None:
    """``pattern.search(body)`` for a pattern whose matches start with one of ``words`` (found in ``low``)."""
    best: re.Match[str] | None = None
    for word in words:
        at = low.find(word)
        while at >= 0 and (best is None or at < best.start()):
            match = pattern.match(body, at)
            if match is not None:
                best = match
                break
            at = low.find(word, at + 1)
    return best


@TEXT_POSTPROCESSORS.register_module(["first_option_postprocess"])
@deterministic
def first_option_postprocess(text: str, options: str = "ABCD", cushion: bool = True) -> str:
    """The option a reply chose, found by an ordered cascade of Chinese and English patterns.

    The stripped text is searched with each pattern in turn; for the first
    pattern that matches, the first option character in its capture is the
    answer (a pattern whose capture holds none is passed over).  Cheap checks
    in front of each pattern (a word or character every match of it contains,
    how the text ends for the patterns anchored at its end) skip it where it
    cannot match: the answer is the same, found sooner.  Order of the cascade,
    strongest evidence first:

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
    body = (text if type(text) is str else as_text(text)).strip()
    if not body:
        return ""
    if len(body) == 1 and body in options and body.isalnum():
        return body  # a bare option letter: the standalone-letter pattern takes it, and any before it would too
    plans = _plans(options, cushion)
    is_ascii = body.isascii()
    low = None
    ends_in_option = None
    for pattern, chars, needs, words, starts, probe, lead, tail in plans[is_ascii]:
        if chars:
            for char in chars:
                if char in body:
                    break
            else:
                continue
        if needs:
            for literal in needs:
                if literal in body:
                    break
            else:
                continue
        if words:
            if low is None:
                low = body.lower() if is_ascii else _fold(body)
            for word in words:
                if word in low:
                    break
            else:
                continue
            match = _match_at_words(pattern, body, low, starts) if starts else pattern.search(body)
        elif probe is not None:
            hit = probe(body)
            if hit is None:
                continue
            match = pattern.search(body, 0 if lead is None else max(0, hit.start() - lead))
        elif tail:
            if ends_in_option is None:
                ends_in_option = _ends_in_option(body, options)
            if not ends_in_option:
                continue
            match = pattern.search(body, max(0, len(body) - _TAIL))
        else:
            match = pattern.search(body)
        if match is None:
            continue
        captured = match.group(1) or match.group(0)
        for ch in captured:
            if ch in options:
                return ch
    return ""


@TEXT_POSTPROCESSORS.register_module(["last_option_postprocess"])
@deterministic
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
@deterministic
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
@deterministic
def multiple_select_postprocess(text: str) -> str:
    """Every distinct uppercase letter of the text, sorted, or ``''``.

    >>> multiple_select_postprocess('bA D C')
    'ACD'
    """
    return "".join(sorted({ch for ch in as_text(text) if ch.isupper()}))
