"""Multiple-choice extractors: find the option letter(s) a reply chose.

``options`` is the string of option characters, e.g. ``'ABCD'``; ``''`` means
no option was found.

Functions under OpenCompass's names (:func:`first_option_postprocess`,
:func:`last_option_postprocess`, :func:`first_capital_postprocess_multi`,
:func:`multiple_select_postprocess`) compute exactly what OpenCompass 0.5.4
computes, bugs included.  assay's corrected extractors
(:func:`first_option_extract`, registered as ``assay-first-option``;
:func:`option_run_extract`, ``assay-first-capital-multi``) are opt-in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from assay.postprocess._text import as_text, lazy_pattern, option_class
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "first_capital_postprocess_multi",
    "first_option_extract",
    "first_option_postprocess",
    "last_option_postprocess",
    "multiple_select_postprocess",
    "oc_option_patterns",
    "option_patterns",
    "option_run_extract",
]

# The cascade of ``first_option_extract``, strongest evidence first.  ``{o}``
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
    """The compiled cascade used by :func:`first_option_extract`: ``(pattern, searched in the tail only)``.

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
    """The gated cascade for ``(options, cushion)``, built once and kept (like :func:`option_patterns`);
    each pattern is compiled the first time a text reaches it."""
    cls = option_class(options)
    entries = _CASCADE + (_CUSHION if cushion else ())
    patterns = [(lazy_pattern(e.template.replace("{o}", cls), re.DOTALL), e.tail) for e in entries]
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


@TEXT_POSTPROCESSORS.register_module(["assay-first-option", "first_option_extract"])
@deterministic
def first_option_extract(text: str, options: str = "ABCD", cushion: bool = True) -> str:
    """The option a reply chose, found by an ordered cascade of Chinese and English patterns.

    assay's corrected counterpart of :func:`first_option_postprocess` (opt in
    with ``dict(type='assay-first-option', options='ABCD')``).

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

    Corrections of OpenCompass 0.5.4's cascade: every pattern is its own
    entry (OpenCompass silently concatenates two patterns through a missing
    comma, so ``'只有选项B是对的'`` is only found through the cushion); the
    standalone-letter pattern works anywhere in the text, not only at its
    start (``'x B y'`` gives ``'B'`` without the cushion); ``1.`` is a literal
    number and dot; a free capture's answer is its first option character in
    *text* order, not in options order (``答案是DA`` gives ``D``); and
    explicit English answer statements are tried before the end-of-text
    heuristics, so ``'The answer is B, not A'`` gives ``'B'``.

    Returns ``''`` when no option is found (or ``options`` is empty).

    >>> first_option_extract('答案是 B', 'ABCD')
    'B'
    >>> first_option_extract('Let us think. The answer is (C).', 'ABCD')
    'C'
    >>> first_option_extract('只有选项B是对的', 'ABCD', cushion=False)
    'B'
    >>> first_option_extract('no idea', 'ABCD', cushion=False)
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


# -- OpenCompass 0.5.4's first_option_postprocess, exactly --------------------------------
#
# OpenCompass's patterns, in its order, as it builds them (``{o}`` is the option
# string inserted into a character class as given; ``{{``/``}}`` are not
# involved: the braces of ``boxed{…}`` are literal).  Two of its entries lack a
# separating comma and are one pattern (the fourteenth).
#
# In front of each pattern: what every match of it holds, so the pattern is
# searched only in a text that holds it (each condition is necessary, so the
# answer is that of searching every pattern in turn; a hypothesis test checks
# it against the plain cascade).  These gates are used only for options made of
# letters and digits, where ``[{o}]`` matches exactly the option characters.
#
# * ``needs``: literals that all occur in every match;
# * ``cjk``: every match holds a non-ASCII character (skipped for ASCII text);
# * ``end``: the pattern ends with an option, optionally followed by one of
#   ``.。$，,``, at the end of the (stripped) text; its matches are at most
#   ``end`` characters long, so it is searched from that far before the end
#   only (the same leftmost match: no match can start earlier);
# * ``start``: only a match at the start of the text can give an answer (the
#   standalone-letter pattern: elsewhere its group 1 is the whitespace before
#   the letter, which holds no option);
# * ``answer``: the word *answer* ignoring case (the pattern has ``(?i)``).


class _OcEntry(NamedTuple):
    template: str
    needs: tuple[str, ...] = ()
    cjk: bool = False
    end: int = 0
    start: bool = False
    answer: bool = False


_OC_CASCADE: tuple[_OcEntry, ...] = (
    _OcEntry(r"答案是?\s*([{o}])", ("答案",), cjk=True),
    _OcEntry(r"答案是?\s*：\s*([{o}])", ("答案", "："), cjk=True),
    _OcEntry(r"答案是?\s*:\s*([{o}])", ("答案", ":"), cjk=True),
    _OcEntry(r"答案选项应?该?是\s*([{o}])", ("答案选项",), cjk=True),
    _OcEntry(r"答案选项应?该?为\s*([{o}])", ("答案选项",), cjk=True),
    _OcEntry(r"答案应该?是\s*([{o}])", ("答案应",), cjk=True),
    _OcEntry(r"答案应该?选\s*([{o}])", ("答案应",), cjk=True),
    _OcEntry(r"答案选项为?\s*：\s*([{o}])", ("答案选项", "："), cjk=True),
    _OcEntry(r"答案选项为?\s+\(?\*?\*?([{o}])\*?\*?\)?", ("答案选项",), cjk=True),
    _OcEntry(r"答案选项是?\s*:\s*([{o}])", ("答案选项", ":"), cjk=True),
    _OcEntry(r"答案为\s*([{o}])", ("答案为",), cjk=True),
    _OcEntry(r"答案选\s*([{o}])", ("答案选",), cjk=True),
    _OcEntry(r"选择?\s*([{o}])", ("选",), cjk=True),
    _OcEntry(r"故选?\s*([{o}])只有选?项?\s?([{o}])\s?是?对", ("故", "只有", "对"), cjk=True),
    _OcEntry(r"只有选?项?\s?([{o}])\s?是?错", ("只有", "错"), cjk=True),
    _OcEntry(r"只有选?项?\s?([{o}])\s?不?正确", ("只有", "正确"), cjk=True),
    _OcEntry(r"只有选?项?\s?([{o}])\s?错误", ("只有", "错误"), cjk=True),
    _OcEntry(r"说法不?对选?项?的?是\s?([{o}])", ("说法", "对", "是"), cjk=True),
    _OcEntry(r"说法不?正确选?项?的?是\s?([{o}])", ("说法", "正确", "是"), cjk=True),
    _OcEntry(r"说法错误选?项?的?是\s?([{o}])", ("说法错误", "是"), cjk=True),
    _OcEntry(r"([{o}])\s?是正确的", ("是正确的",), cjk=True),
    _OcEntry(r"([{o}])\s?是正确答案", ("是正确答案",), cjk=True),
    _OcEntry(r"选项\s?([{o}])\s?正确", ("选项", "正确"), cjk=True),
    _OcEntry(r"所以答\s?([{o}])", ("所以答",), cjk=True),
    _OcEntry(r"所以\s?([{o}][.。$]?$)", ("所以",), cjk=True, end=5),
    _OcEntry(r"所有\s?([{o}][.。$]?$)", ("所有",), cjk=True, end=5),
    _OcEntry(r"[\s，：:,]([{o}])[。，,\.]?$", end=3),
    _OcEntry(r"[\s，,：:][故即]([{o}])[。\.]?$", cjk=True, end=4),
    _OcEntry(r"[\s，,：:]因此([{o}])[。\.]?$", ("因此",), cjk=True, end=5),
    _OcEntry(r"[是为。]\s?([{o}])[。\.]?$", cjk=True, end=4),
    _OcEntry(r"因此\s?([{o}])[。\.]?$", ("因此",), cjk=True, end=5),
    _OcEntry(r"显然\s?([{o}])[。\.]?$", ("显然",), cjk=True, end=5),
    _OcEntry(r"答案是\s?(\S+)(?:。|$)", ("答案是",), cjk=True),
    _OcEntry(r"答案应该是\s?(\S+)(?:。|$)", ("答案应该是",), cjk=True),
    _OcEntry(r"答案为\s?(\S+)(?:。|$)", ("答案为",), cjk=True),
    _OcEntry(r"(?i)ANSWER\s*:\s*([{o}])", (":",), answer=True),
    _OcEntry(r"[Tt]he answer is:?\s+\(?([{o}])\)?", ("he answer is",)),
    _OcEntry(r"[Tt]he answer is:?\s+\(?\*?\*?([{o}])\*?\*?\)?", ("he answer is",)),
    _OcEntry(r"[Tt]he answer is option:?\s+\(?([{o}])\)?", ("he answer is option",)),
    _OcEntry(r"[Tt]he correct answer is:?\s+\(?([{o}])\)?", ("he correct answer is",)),
    _OcEntry(r"[Tt]he correct answer is option:?\s+\(?([{o}])\)?", ("he correct answer is option",)),
    _OcEntry(r"[Tt]he correct answer is:?.*?boxed{([{o}])}", ("he correct answer is", "boxed{")),
    _OcEntry(r"[Tt]he correct option is:?.*?boxed{([{o}])}", ("he correct option is", "boxed{")),
    _OcEntry(r"[Tt]he correct answer option is:?.*?boxed{([{o}])}", ("he correct answer option is", "boxed{")),
    _OcEntry(r"[Tt]he answer to the question is:?\s+\(?([{o}])\)?", ("he answer to the question is",)),
    _OcEntry(r"^选项\s?([{o}])", ("选项",), cjk=True),
    _OcEntry(r"^([{o}])\s?选?项", ("项",), cjk=True),
    _OcEntry(r"(\s|^)[{o}][\s。，,：:\.$]", start=True),
    _OcEntry(r"1.\s?(.*?)$", ("1",)),
    _OcEntry(r"1.\s?([{o}])[.。$]?$", ("1",)),
)
_OC_CUSHION: tuple[_OcEntry, ...] = (
    _OcEntry(r"([{o}]):", (":",)),
    _OcEntry(r"([{o}])"),
)
_OC_END_MARKS = ".。$，,"


@lru_cache(maxsize=128)
def oc_option_patterns(options: str, cushion: bool = True) -> tuple[re.Pattern[str], ...]:
    """OpenCompass 0.5.4's ``first_option_postprocess`` cascade for ``options``, compiled once (DOTALL).

    The options are put into character classes as given, as OpenCompass does;
    options that make a class invalid (such as ``''``) raise :class:`re.error`.

    >>> len(oc_option_patterns('ABCD', cushion=True)) - len(oc_option_patterns('ABCD', cushion=False))
    2
    """
    entries = _OC_CASCADE + (_OC_CUSHION if cushion else ())
    return tuple(re.compile(e.template.replace("{o}", options), re.DOTALL) for e in entries)


#: A gated OpenCompass pattern: ``(first literal, further literals, kind, pattern, end)``; the first literal is
#: ``''`` (in every text) for a pattern without ``needs``, the kind one of the ``_OC_*`` checks below or 0.
_OcStep = tuple[str, tuple[str, ...], int, re.Pattern[str], int]
_OC_END, _OC_START, _OC_ANSWER = 1, 2, 3


@lru_cache(maxsize=128)
def _oc_plans(options: str, cushion: bool) -> tuple[tuple[_OcStep, ...], tuple[_OcStep, ...]]:
    """The gated cascade for a text that is not ASCII, and for one that is (options all letters and digits);
    each pattern is compiled the first time a text reaches it."""
    entries = _OC_CASCADE + (_OC_CUSHION if cushion else ())
    steps: list[tuple[_OcEntry, _OcStep]] = []
    for e in entries:
        kind = _OC_END if e.end else _OC_START if e.start else _OC_ANSWER if e.answer else 0
        first, more = (e.needs[0], e.needs[1:]) if e.needs else ("", ())
        steps.append((e, (first, more, kind, lazy_pattern(e.template.replace("{o}", options), re.DOTALL), e.end)))
    return tuple(step for _e, step in steps), tuple(step for e, step in steps if not e.cjk)


def _oc_answer(match: re.Match[str], options: str) -> str:
    """OpenCompass's reading of a match: group 1 (the whole match when it is empty), then the first option, in options order, it holds."""
    captured = match.group(1)
    outputs = captured if captured else match.group(0)
    for option in options:
        if option in outputs:
            return option
    return ""


def _oc_plain(body: str, options: str, cushion: bool) -> str:
    """The cascade without gates, for options that are not all letters and digits."""
    for pattern in oc_option_patterns(options, cushion):
        match = pattern.search(body)
        if match is not None:
            answer = _oc_answer(match, options)
            if answer:
                return answer
    return ""


@TEXT_POSTPROCESSORS.register_module(["first_option_postprocess"])
@deterministic
def first_option_postprocess(text: str, options: str = "ABCD", cushion: bool = True) -> str:
    """OpenCompass 0.5.4's ``first_option_postprocess``, exactly: the first pattern of its cascade that yields an option.

    The stripped text is searched with each of OpenCompass's 50 patterns in
    turn (Chinese answer statements, "the answer is X", a standalone letter,
    a numbered line, then with ``cushion`` ``X:`` and any option character);
    for the first match whose capture (or whole match, when the capture is
    empty) holds an option, the first option *in options order* it holds is
    the answer.  Checks in front of the patterns only skip those that cannot
    match (see the module source); the answer is the same.

    OpenCompass bugs reproduced:

    * two patterns are glued by a missing comma, so ``'只有选项B是对的'``
      gives ``''`` without the cushion;
    * the standalone-letter pattern answers only at the very start of the
      text (elsewhere its capture is the whitespace before the letter);
    * ``1.`` is "1 and any character", and it captures the rest of the text:
      any reply with a ``1`` not at its end answers with the first option (in
      options order) that appears anywhere after it;
    * free captures after ``答案是`` answer in options order (``'答案是(DA)'``
      gives ``'A'``);
    * end-of-text patterns come before the English statements, so ``'The
      answer is B, not A'`` gives ``'A'``;
    * the cushion takes any option character, also inside a word:
      ``'Dolphin (C)'`` gives ``'D'``; without the cushion a bare ``'B'``
      gives ``''``;
    * ``(?i)ANSWER`` also makes the option class ignore case, so ``'Answer:
      b'`` is looked at and passed over.

    :func:`first_option_extract` (``assay-first-option``) is the corrected
    cascade.  Empty ``options`` gives ``''`` (OpenCompass raises).

    >>> first_option_postprocess('答案是 B', 'ABCD')
    'B'
    >>> first_option_postprocess('Dolphin (C)', 'ABCD')
    'D'
    >>> first_option_postprocess('The answer is B, not A', 'ABCD')
    'A'
    >>> first_option_postprocess('B', 'ABCD', cushion=False)
    ''
    """
    if not options:
        return ""
    body = (text if type(text) is str else as_text(text)).strip()
    if not body:
        return ""
    if not options.isalnum():
        return _oc_plain(body, options, cushion)
    if len(body) == 1:  # only the last cushion pattern matches a single character
        return body if cushion and body in options else ""
    is_ascii = body.isascii()
    plan = _oc_plans(options, cushion)[is_ascii]
    ends_in_option: bool | None = None
    has_answer: bool | None = None
    # each step costs one ``in`` when its first literal is missing, the usual case (``'' in body`` always holds)
    for first, more, kind, pattern, end in plan:
        if first not in body:
            continue
        if more:
            for literal in more:
                if literal not in body:
                    break
            else:
                literal = ""
            if literal:
                continue
        if kind:
            if kind == _OC_END:
                if ends_in_option is None:
                    last = body[-1]
                    ends_in_option = last in options or (last in _OC_END_MARKS and body[-2] in options)
                if not ends_in_option:
                    continue
            elif kind == _OC_START:
                if body[0] not in options:
                    continue
            else:
                if has_answer is None:
                    has_answer = "answer" in (body.lower() if is_ascii else _fold(body))
                if not has_answer:
                    continue
        match = pattern.search(body, len(body) - end) if end and len(body) > end else pattern.search(body)
        if match is not None:
            found = _oc_answer(match, options)
            if found:
                return found
    return ""


@TEXT_POSTPROCESSORS.register_module(["last_option_postprocess"])
@deterministic
def last_option_postprocess(text: str, options: str = "ABCD") -> str:
    """The last option character occurring anywhere in the text, or ``''``, as in OpenCompass 0.5.4.

    Any occurrence counts, also inside words (``'B. Done'`` gives ``'D'``):
    use it on replies that end with their answer.  The options are put into a
    character class as given, as OpenCompass does.  Empty ``options`` gives
    ``''`` (OpenCompass raises).

    >>> last_option_postprocess('A then C then B', 'ABCD')
    'B'
    """
    if not options:
        return ""
    found = _option_class_pattern(options).findall(as_text(text))
    return found[-1] if found else ""


@lru_cache(maxsize=32)
def _option_class_pattern(options: str) -> re.Pattern[str]:
    return re.compile(f"([{options}])")


@lru_cache(maxsize=32)
def _option_run(options: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z])([" + option_class(options) + r"]+)(?![A-Za-z])")


_CAPITAL_RUN = re.compile(r"([A-D]+)")


@TEXT_POSTPROCESSORS.register_module(["first-capital-multi", "first_capital_postprocess_multi"])
@deterministic
def first_capital_postprocess_multi(text: str) -> str:
    """The first run of the letters ``A``–``D`` anywhere in the text, or ``''``, as in OpenCompass 0.5.4.

    OpenCompass bug reproduced: the run may be part of a word, so ``'Answer:
    BD'`` gives ``'A'`` (from *Answer*).  :func:`option_run_extract`
    (``assay-first-capital-multi``) takes a standalone run of given options.

    >>> first_capital_postprocess_multi('Answer: BD')
    'A'
    >>> first_capital_postprocess_multi('none of them')
    ''
    """
    match = _CAPITAL_RUN.search(as_text(text))
    return match.group(1) if match else ""


@TEXT_POSTPROCESSORS.register_module(["assay-first-capital-multi", "option_run_extract"])
@deterministic
def option_run_extract(text: str, options: str = "ABCD") -> str:
    """The first standalone run of option letters (a multiple-answer choice), or ``''``.

    assay's corrected counterpart of :func:`first_capital_postprocess_multi`:
    the run must not be part of a longer word, and ``options`` says which
    letters count.  Letters are kept in the order written.

    >>> option_run_extract('Answer: BD')
    'BD'
    >>> option_run_extract('none of them')
    ''
    """
    if not options:
        return ""
    match = _option_run(options).search(as_text(text))
    return match.group(1) if match else ""


@TEXT_POSTPROCESSORS.register_module(["multiple-select", "multiple_select_postprocess"])
@deterministic
def multiple_select_postprocess(text: str) -> str:
    """Every distinct uppercase letter of the text, sorted, or ``''`` (as in OpenCompass 0.5.4).

    >>> multiple_select_postprocess('bA D C')
    'ACD'
    """
    return "".join(sorted({ch for ch in as_text(text) if ch.isupper()}))
