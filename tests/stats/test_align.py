"""Samples of two results paired by the tools' ids or by their question (:mod:`assay.stats._align`)."""

from __future__ import annotations

from assay.stats import SampleIdentity, align_samples, references_agree


def _q(id: str, question: str | None = None, prompt: str | None = None, reference: object = None) -> SampleIdentity:
    return SampleIdentity(id, question=question, prompt=prompt, reference=reference)


def test_content_pairs_equal_questions_whatever_the_order_case_and_spacing() -> None:
    a = [_q("0", "What is 2 plus 3?"), _q("1", "What is 4 plus 4?"), _q("2", "What is 9 plus 1?")]
    b = [_q("x", "what is 9 plus 1?"), _q("y", "What  is 2\nplus 3?")]
    al = align_samples(a, b, "content")
    assert al.pairs == [(0, 1), (2, 0)]
    assert (al.unaligned_a, al.unaligned_b) == (["1"], [])
    assert al.counts()["aligned"] == 2


def test_a_question_pairs_with_the_one_prompt_that_quotes_it_on_word_boundaries() -> None:
    a = [_q("0", prompt="Question: What is 5 plus 6?\nAnswer:"), _q("1", prompt="Question: What is 5 plus 66?\nAnswer:")]
    b = [_q("s1", "What is 5 plus 6?")]
    al = align_samples(a, b, "content")
    assert al.pairs == [(0, 0)] and al.unaligned_a == ["1"] and al.ambiguous_a == al.ambiguous_b == []
    # "5 plus 6" is quoted whole by the first prompt only (the second has "66"); "What is 5" by both
    short = align_samples(a, [_q("s2", "5 plus 6")], "content")
    assert short.pairs == [(0, 0)]
    wide = align_samples(a, [_q("s3", "What is 5")], "content")
    assert wide.pairs == [] and wide.ambiguous_b == ["s3"] and wide.unaligned_a == ["0", "1"]
    assert "B ambiguous refused 1 (s3)" in wide.describe()
    # the other way round: one question of A quoted by two prompts of B
    back = align_samples([_q("q", "What is 5")], [_q("p1", prompt=a[0].prompt), _q("p2", prompt=a[1].prompt)], "content")
    assert back.pairs == [] and back.ambiguous_a == ["q"] and back.unaligned_b == ["p1", "p2"]


def test_a_repeated_question_is_refused_on_both_sides_and_counted() -> None:
    a = [_q("0", "Q one"), _q("1", "Q two")]
    b = [_q("b1", "Q one"), _q("b2", "Q one"), _q("b3", "Q two")]
    al = align_samples(a, b, "content")
    assert al.pairs == [(1, 2)]
    assert (al.duplicates_a, al.duplicates_b) == (["0"], ["b1", "b2"])
    assert al.unaligned_a == [] and al.unaligned_b == []
    assert al.counts() | {} == {
        "samples_a": 2, "samples_b": 3, "aligned": 1, "unaligned_a": 0, "unaligned_b": 0, "duplicates_a": 1,
        "duplicates_b": 2, "ambiguous_a": 0, "ambiguous_b": 0, "conflicts": 0, "unidentified_a": 0, "unidentified_b": 0,
    }


def test_references_that_cannot_be_the_same_answer_refuse_the_pair() -> None:
    a = [_q("0", "What is 2 plus 3?", reference="2 + 3 = 5\n#### 5"), _q("1", "Name it", reference="Paris")]
    b = [_q("p", "What is 2 plus 3?", reference="5"), _q("q", "Name it", reference="Lyon")]
    al = align_samples(a, b, "content")
    assert al.pairs == [(0, 0)]
    assert al.conflicts == [("1", "q", "references 'Paris' and 'Lyon' differ")]
    assert al.unaligned_a == [] and al.unaligned_b == []
    assert references_agree("5", "55") is False and references_agree(None, "5") is None


def test_by_id_the_document_hashes_must_agree() -> None:
    a = [SampleIdentity("0", doc_hash="aa"), SampleIdentity("1", doc_hash="bb"), SampleIdentity("2")]
    b = [SampleIdentity("2"), SampleIdentity("1", doc_hash="bX"), SampleIdentity("0", doc_hash="aa"), SampleIdentity("3")]
    al = align_samples(a, b, "id")
    assert al.pairs == [(0, 2), (2, 0)]
    assert al.conflicts == [("1", "1", "different document hashes")]
    assert al.unaligned_b == ["3"]
    assert "conflicts refused 1 (1~1: different document hashes)" in al.describe()


def test_samples_without_a_question_or_prompt_are_counted_not_paired() -> None:
    al = align_samples([_q("0"), _q("1", "Q")], [_q("b", "Q")], "content")
    assert al.pairs == [(1, 0)] and al.unidentified_a == ["0"] and al.to_json()["examples"] == {"unidentified_a": ["0"]}


def test_by_id_the_same_id_over_two_questions_is_refused() -> None:
    """inspect_ai and HELM log no document hash: the questions check the pair instead."""
    a = [_q("s1", "What is 2 plus 3?"), _q("s2", "What is 4 plus 4?")]
    b = [_q("s1", "what is 2 plus 3?"), _q("s2", "What is 4 plus 5?")]
    al = align_samples(a, b, "id")
    assert al.pairs == [(0, 0)] and al.conflicts == [("s2", "s2", "different questions")]
