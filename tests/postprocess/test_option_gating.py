"""The gated cascade of ``first_option_extract`` answers exactly like the plain one.

``reference`` below searches every pattern of :func:`option_patterns` in turn, as
the cascade is specified; the gates in front of the patterns may only make that
quicker.  The generated texts mix fragments rich in the cascade's trigger words
and characters (with the non-ASCII letters ``re.IGNORECASE`` equates with ASCII
ones) and pieces shaped like matches of its patterns, so that each pattern gets
to win somewhere and a gate that skipped it wrongly would change the answer.
The last tests cover the binder through which ``build_postprocessor`` calls it.
"""

from __future__ import annotations

import re
import string
import sys
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.postprocess._text import option_class
from assay.postprocess.chain import apply_postprocessor, build_postprocessor
from assay.postprocess.options import (
    _CASCADE,
    _CUSHION,
    _OC_CASCADE,
    _OC_CUSHION,
    _TAIL,
    _fold,
    first_option_extract,
    first_option_postprocess,
    oc_option_patterns,
    option_patterns,
)


def reference(text: str, options: str, cushion: bool) -> str:
    """The ungated cascade: each pattern searched in turn; the first with an option in its capture wins."""
    if not options:
        return ""
    body = text.strip()
    if not body:
        return ""
    tail_text = body[-_TAIL:]
    for pattern, tail in option_patterns(options, cushion):
        match = pattern.search(tail_text if tail else body)
        if match is None:
            continue
        for ch in match.group(1) or match.group(0):
            if ch in options:
                return ch
    return ""


KELVIN = "\u212a"
FRAGMENTS = [
    # Chinese triggers
    "答案", "是", "为", "选", "项", "选项", "选择", "择", "应该", "应", "正确", "不", "错误", "错", "对", "对的", "的",
    "所以", "因此", "故", "即", "综上", "综上所述", "显然", "答", "只有", "说法", "表述", "则",
    # English triggers, in several cases and with look-alike letters
    "answer", "Answer", "ANSWER", "anſwer", "option", "Option", "OPTION", "optıon", "optİon", "choice", "CHOİCE",
    "the", "The", "is", "IS", "ıs", "correct", "right", "best", "final", "should be", "to the question is",
    "\\boxed{", "\\text{", "\\textbf{", "{", "}",
    # punctuation, brackets, numbering and whitespace
    "(", ")", "（", "）", "【", "】", "[", "]", "*", ":", "：", "。", ".", "，", ",", "、", "1.", "1)", "1", "2.",
    " ", "  ", "\n", "\t", "\u3000", "\xa0",
    # options and look-alikes
    "A", "B", "C", "D", "E", "a", "b", "e", "ſ", KELVIN, "İ", "ı", "\u0307",
    # long runs, to cross the start of the tail
    " " * 130, "x" * 130, "选项" * 70,
]
fragment = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=4),
    st.characters(codec="utf-8"),
)
noise = st.lists(fragment, max_size=8).map("".join)
#: Letters swapped for ones ``re.IGNORECASE`` takes for them (or, for the last, does not).
LOOK_ALIKES = [("", ""), ("s", "ſ"), ("S", "ſ"), ("i", "ı"), ("I", "İ"), ("i", "İ"), ("k", KELVIN), ("o", "ο")]


@cache
def texts(options: str) -> st.SearchStrategy[str]:
    """Noise around up to two pieces shaped like matches of the cascade's patterns, the last maybe ending the text."""
    cls = option_class(options)
    shape = st.one_of([st.from_regex(re.compile(e.template.replace("{o}", cls), re.DOTALL), fullmatch=True) for e in _CASCADE + _CUSHION])
    shape = st.tuples(shape, st.sampled_from(LOOK_ALIKES)).map(lambda sw: sw[0].replace(*sw[1]))
    shapes = st.lists(st.tuples(noise, shape).map("".join), max_size=2).map("".join)
    return st.tuples(noise, shapes, st.one_of(st.just(""), noise)).map("".join)


@pytest.mark.slow
@pytest.mark.parametrize("cushion", [True, False])
@pytest.mark.parametrize("options", ["ABCD", "ABCDE"])
@settings(max_examples=2000, deadline=None)
@given(data=st.data())
def test_gated_cascade_matches_the_plain_one(options: str, cushion: bool, data: st.DataObject) -> None:
    text = data.draw(texts(options), label="text")
    assert first_option_extract(text, options, cushion=cushion) == reference(text, options, cushion)


#: Option sets that meet the gates: characters the tail patterns end with, a
#: character that follows ``选`` in a probe, regex metacharacters, non-ASCII options.
ODD_OPTIONS = ["]^-", "项ABC", "择AB", "A)", "B。", "A*", "A.", ":A", "1A", "答A", "aA", "ıİ", "ſs"]


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(options=st.sampled_from(ODD_OPTIONS), cushion=st.booleans(), data=st.data())
def test_gated_cascade_matches_the_plain_one_for_odd_options(options: str, cushion: bool, data: st.DataObject) -> None:
    text = data.draw(texts(options), label="text")
    assert first_option_extract(text, options, cushion=cushion) == reference(text, options, cushion)


#: Texts where one pattern must win, and a wrong gate in front of it would let a
#: later pattern give another answer (the distractor ``A`` mostly).
CHOSEN = [
    ("Anſwer: B, not A", "B"),
    ("The anſwer is (C), not A", "C"),
    ("I think optİon D is correct, not A", "D"),
    ("CHOıCE A IS RIGHT, B", "A"),
    (f"{KELVIN} answer: C, not A", "C"),
    ("the ANSWER\n\nto the question is D, not A", "D"),
    ("所以选 (C)，不是 A", "C"),
    ("应选：D 而非 A", "D"),
    ("正确的说法是A，不是 B", "A"),
    ("说法不正确的是 B，不是 A", "B"),
    ("A好。答案应该是：xC。好", "C"),
    ("Ax\n1.B好", "B"),
    ("xAy B. z", "B"),
    # a tail match starting right at the first character of the tail, and one character before it
    ("A" + "x" * 50 + "所以" + "(" * 253 + "B", "B"),
    ("A" + "x" * 49 + "所以" + "(" * 254 + "B", "A"),
    *[(f"Ax所以B{closer}", "B") for closer in ")）】*。."],
    *[(f"Ax{word}B", "B") for word in ("所以", "因此", "故", "即", "综上", "显然", "答")],
]


@pytest.mark.parametrize(("text", "expected"), CHOSEN, ids=[repr(t[:24]) for t, _ in CHOSEN])
def test_gated_cascade_on_chosen_texts(text: str, expected: str) -> None:
    assert reference(text, "ABCD", True) == expected
    assert first_option_extract(text, "ABCD") == expected
    assert first_option_extract(text, "ABCD", cushion=False) == reference(text, "ABCD", False)


@pytest.mark.parametrize(("text", "options", "expected"), [("xA所以)", "A)", ")"), ("xA所以 。", "A。", "。"), ("xA即 （）", "A）", "）")])
def test_gated_cascade_with_an_option_the_tail_patterns_could_also_close_with(text: str, options: str, expected: str) -> None:
    assert reference(text, options, True) == expected
    assert first_option_extract(text, options) == expected


@pytest.mark.parametrize("cushion", [True, False])
@pytest.mark.parametrize("options", ["ABCD", "ABCDE", *ODD_OPTIONS])
def test_a_bare_letter_answers_like_the_plain_cascade(options: str, cushion: bool) -> None:
    # a one-character reply is answered before the cascade is searched
    for ch in sorted(set(options) | set("AaBbEZ1.)（*选项答")):
        for text in (ch, f" {ch}\n", f"\t{ch} "):
            assert first_option_extract(text, options, cushion=cushion) == reference(text, options, cushion), (text, options)


def test_fold_shows_every_case_insensitive_match_of_the_gate_words() -> None:
    # The word gates look for the words in ``_fold(text)``; that is only sound if every
    # character that ``re.IGNORECASE`` matches to one of their letters folds to that letter, in place.
    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    folded = _fold(everything)
    assert len(folded) == len(everything)
    words = {w for e in _CASCADE + _CUSHION for w in e.words + e.starts}
    assert words == {"answer", "option", "choice", "the"}
    for letter in sorted(set("".join(words))):
        positions = [m.start() for m in re.finditer(f"(?i:{letter})", everything)]
        assert len(positions) >= 2
        assert {folded[i] for i in positions} == {letter}, letter


def test_each_entry_has_one_kind_of_search() -> None:
    for entry in _CASCADE + _CUSHION:
        assert sum(map(bool, (entry.words or entry.starts, entry.probe, entry.tail))) <= 1, entry.template
        assert entry.lead is None or entry.probe, entry.template


# -- first_option_extract through build_postprocessor --------------------------------------


def test_built_postprocessor_answers_like_the_plain_call() -> None:
    fn = build_postprocessor({"type": "first_option_extract", "options": "ABCDE", "cushion": False})
    assert fn is not None and fn.__name__ == "first_option_extract"
    predictions: list[Any] = ["答案是 E", "no idea", ["The answer is (C).", "x"], None, 3, "Answer: B"]
    expected = ["E", "", ["C", ""], "", "", "B"]
    assert apply_postprocessor(fn, predictions) == expected
    assert [
        [first_option_extract(q, "ABCDE", cushion=False) for q in p] if isinstance(p, list) else first_option_extract(p, "ABCDE", cushion=False)
        for p in predictions
    ] == expected


def test_built_postprocessor_with_a_bad_option_still_fails_per_sample() -> None:
    fn = build_postprocessor({"type": "first_option_extract", "option": "ABCD"})  # misspelt: built, fails when called
    assert fn is not None
    with pytest.raises(TypeError, match="option"):
        apply_postprocessor(fn, ["答案是 B"])
    unhashable = build_postprocessor({"type": "first_option_extract", "options": ["A", "B"]})
    assert unhashable is not None
    assert apply_postprocessor(unhashable, [""]) == [""]  # no text: answered before the options are looked at
    with pytest.raises(TypeError):
        apply_postprocessor(unhashable, ["答案是 B"])
    assert apply_postprocessor(build_postprocessor({"type": "first_option_extract", "options": ""}), ["答案是 B"]) == [""]


def test_other_postprocessors_are_called_with_their_options() -> None:
    fn = build_postprocessor({"type": "last_option_postprocess", "options": "AB"})
    assert fn is not None and fn.__name__ == "last_option_postprocess"
    assert apply_postprocessor(fn, ["A then B then C", ["B", "z"]]) == ["B", ["B", ""]]



# -- OpenCompass's cascade (first_option_postprocess): gates against the plain search ------------


def oc_reference(text: str, options: str, cushion: bool) -> str:
    """OpenCompass's cascade as it runs: every pattern searched in turn, options in options order."""
    body = text.strip()
    for pattern in oc_option_patterns(options, cushion):
        match = pattern.search(body)
        if match is None:
            continue
        outputs = match.group(1) if match.group(1) else match.group(0)
        for option in options:
            if option in outputs:
                return option
    return ""


@cache
def oc_texts(options: str) -> st.SearchStrategy[str]:
    """Noise around up to two pieces shaped like matches of OpenCompass's patterns (and of assay's)."""
    templates = [e.template.replace("{o}", options) for e in _OC_CASCADE + _OC_CUSHION]
    templates += [e.template.replace("{o}", option_class(options)) for e in _CASCADE]
    shape = st.one_of([st.from_regex(re.compile(t, re.DOTALL), fullmatch=True) for t in templates])
    shape = st.tuples(shape, st.sampled_from(LOOK_ALIKES)).map(lambda sw: sw[0].replace(*sw[1]))
    shapes = st.lists(st.tuples(noise, shape).map("".join), max_size=2).map("".join)
    ends = st.sampled_from(["", ".", "。", "$", "，", ",", " ", "A", "B"])
    return st.tuples(noise, shapes, st.one_of(st.just(""), noise), ends).map("".join)


@pytest.mark.parametrize("cushion", [True, False])
@pytest.mark.parametrize("options", ["AB", "ABCD", "ABCDEFGHIJ"])
@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_opencompass_cascade_gates_change_no_answer(options: str, cushion: bool, data: st.DataObject) -> None:
    text = data.draw(oc_texts(options), label="text")
    assert first_option_postprocess(text, options, cushion=cushion) == oc_reference(text, options, cushion)


#: The option sets OpenCompass's library configs give ``first_option_postprocess``.
CONFIGURED_OPTIONS = ["AB", "ABC", "ABCD", "ABCDE", "ABCDEF", "ABCDEFG", "ABCDEFGH", "ABCDEFGHIJKLMNOP"]


@pytest.mark.parametrize("options", CONFIGURED_OPTIONS)
@settings(max_examples=300, deadline=None)
@given(cushion=st.booleans(), data=st.data())
def test_opencompass_cascade_gates_change_no_answer_for_every_configured_option_set(options: str, cushion: bool, data: st.DataObject) -> None:
    text = data.draw(oc_texts(options), label="text")
    assert first_option_postprocess(text, options, cushion=cushion) == oc_reference(text, options, cushion)


@pytest.mark.parametrize(
    "text",
    ["B", " C ", "E", "b", "Ｂ", "AB", "A:", "1A", "x\n1", "答案A", "所以A", "The answer is B", "Answer: b", "anſwer: B",
     "B 选项", "选项C", "A.", "答案是(DA)", "故选B只有C是对", "Dolphin (C)", "D", "1"],
)
@pytest.mark.parametrize("cushion", [True, False])
def test_opencompass_cascade_short_texts(text: str, cushion: bool) -> None:
    for options in ("ABCD", "ABCDE", "AB"):
        assert first_option_postprocess(text, options, cushion=cushion) == oc_reference(text, options, cushion), options
