"""Applying postprocessors to a batch: each distinct short reply is processed once when that cannot change a result."""

from __future__ import annotations

import random
from typing import Any

from assay.postprocess.chain import apply_postprocessor, build_postprocessor, deterministic
from assay.postprocess.options import first_option_extract


class Counting:
    """A postprocessor that counts the texts it is called with."""

    def __init__(self, result: Any = None) -> None:
        self.calls: list[Any] = []
        self.result = result

    def __call__(self, text: Any) -> Any:
        self.calls.append(text)
        return f"<{text}>" if self.result is None else self.result(text)


def test_a_deterministic_postprocessor_sees_each_distinct_short_reply_once() -> None:
    fn = Counting()
    marked = deterministic(fn)
    long_reply = "I think " + "very " * 20 + "carefully: B"
    replies: list[Any] = ["B", "A", "B", ["B", "C"], long_reply, long_reply, None, 3, "A"]
    assert apply_postprocessor(marked, replies) == ["<B>", "<A>", "<B>", ["<B>", "<C>"], f"<{long_reply}>", f"<{long_reply}>", "<None>", "<3>", "<A>"]
    # "B" and "A" once each, "C" once; the long reply each time; non-text values each time
    assert fn.calls == ["B", "A", "C", long_reply, long_reply, None, 3]


def test_in_a_batch_of_texts_each_distinct_reply_is_processed_once_however_long() -> None:
    fn = Counting()
    marked = deterministic(fn)
    long_reply = "I think " + "very " * 20 + "carefully: B"
    other = long_reply.replace("B", "C")
    replies = [long_reply, "B", other, long_reply, "B", other, long_reply]
    assert apply_postprocessor(marked, replies) == [f"<{r}>" for r in replies]
    assert fn.calls == [long_reply, "B", other]  # in order of first occurrence


def test_each_batch_starts_afresh() -> None:
    fn = deterministic(Counting())
    apply_postprocessor(fn, ["A", "A"])
    apply_postprocessor(fn, ["A"])
    assert fn.calls == ["A", "A"]


def test_an_unmarked_postprocessor_sees_every_reply() -> None:
    fn = Counting()
    assert apply_postprocessor(fn, ["B", "B", "B"]) == ["<B>"] * 3
    assert fn.calls == ["B", "B", "B"]


def test_a_mutable_result_is_not_shared_between_samples() -> None:
    fn = deterministic(Counting(result=lambda text: [text]))
    out = apply_postprocessor(fn, ["B", "B", "C", "B"])
    assert out == [["B"], ["B"], ["C"], ["B"]] and len({id(answer) for answer in out}) == 4
    out[0].append("changed")
    assert out[1] == out[3] == ["B"]


def test_options_keep_the_mark_and_the_answers() -> None:
    fn = build_postprocessor({"type": "first_option_extract", "options": "ABCDE", "cushion": False})
    assert getattr(fn, "__assay_deterministic__", False)
    rng = random.Random(7)
    pieces = ["B", " C ", "答案是 E", "The answer is (D).", "no idea", "", "Answer: A", "x B y"]
    replies: list[Any] = [rng.choice(pieces) for _ in range(300)] + [[rng.choice(pieces) for _ in range(3)] for _ in range(20)]
    expected = [
        [first_option_extract(q, "ABCDE", cushion=False) for q in r] if isinstance(r, list) else first_option_extract(r, "ABCDE", cushion=False)
        for r in replies
    ]
    assert apply_postprocessor(fn, replies) == expected


def test_user_functions_are_not_marked() -> None:
    def mine(text: str, suffix: str = "") -> str:
        return text + suffix

    assert not getattr(build_postprocessor({"type": mine, "suffix": "!"}), "__assay_deterministic__", False)
    assert not getattr(build_postprocessor({"type": mine}), "__assay_deterministic__", False)
