"""Table-driven behaviour of the postprocessors: OpenCompass's own test vectors and hand-written quirks."""

from __future__ import annotations

from typing import Any

import pytest

import assay.postprocess as pp
from tests.postprocess._cases import load_cases

VECTORS = load_cases("opencompass_vectors.json")
QUIRKS = load_cases("quirk_cases.json")


def _run(case: dict[str, Any]) -> Any:
    fn = getattr(pp, case["fn"])
    return fn(case["text"], **case["kwargs"])


@pytest.mark.parametrize("case", VECTORS, ids=[f"{c['fn']}:{c['text'][:30]}" for c in VECTORS])
def test_opencompass_unit_test_vectors(case: dict[str, Any]) -> None:
    assert _run(case) == case["expected"]


@pytest.mark.parametrize("case", QUIRKS, ids=[f"{c['fn']}:{c['text'][:30]}" for c in QUIRKS])
def test_quirks_and_fixes(case: dict[str, Any]) -> None:
    assert _run(case) == case["expected"], case["source"]


def test_every_quirk_case_names_its_reason() -> None:
    assert all(c.get("source") for c in QUIRKS)


def test_general_cn_segments_the_cleaned_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenCompass (and its namesake) hands jieba the original text; the corrected one hands it the cleaned one.
    import sys
    import types

    seen: list[str] = []
    fake = types.SimpleNamespace(cut=lambda text: (seen.append(text), text.split())[1])
    monkeypatch.setitem(sys.modules, "jieba", fake)
    assert pp.general_cn_extract("The quick, brown fox") == "quick"
    assert seen == ["quick"]
    assert pp.general_cn_postprocess("The quick, brown fox") == "The quick, brown fox"
    assert seen[-1] == "The quick, brown fox"


def test_first_option_patterns_are_compiled_once() -> None:
    first = pp.option_patterns("ABCD", True)
    assert pp.option_patterns("ABCD", True) is first
    assert len(pp.option_patterns("ABCD", False)) == len(first) - 2


def test_options_with_regex_metacharacters_are_literal() -> None:
    assert pp.first_option_postprocess("答案是 ]", options="]^-") == "]"
    assert pp.first_option_postprocess("答案是 x", options="]^-") == ""


def test_bad_user_pattern_is_a_config_error() -> None:
    from assay.errors import ConfigError

    with pytest.raises(ConfigError, match="invalid regular expression"):
        pp.match_answer_pattern("text", answer_pattern="(unclosed")


def test_general_eval_wrapper_never_evaluates_code() -> None:
    assert pp.general_eval_wrapper_postprocess("__import__('os').getcwd()") == "__import__('os').getcwd()"
    assert pp.general_eval_wrapper_postprocess("'B'", postprocess=pp.first_capital_postprocess) == "B"


def test_non_string_input_is_text() -> None:
    assert pp.first_capital_postprocess(None) == ""  # type: ignore[arg-type]
    assert pp.gsm8k_postprocess(12) == "12"  # type: ignore[arg-type]


def test_postprocessors_reachable_by_their_opencompass_names() -> None:
    from assay.registry import TEXT_POSTPROCESSORS

    expected = {
        "general": pp.general_postprocess,
        "general_cn": pp.general_cn_postprocess,
        "first-capital": pp.first_capital_postprocess,
        "last-capital": pp.last_capital_postprocess,
        "first-capital-multi": pp.first_capital_postprocess_multi,
        "multiple-select": pp.multiple_select_postprocess,
        "specific-xml-tag": pp.xml_tag_postprocessor,
        "think_pred": pp.think_pred_postprocess,
        "extract-non-reasoning-content": pp.extract_non_reasoning_content,
        "match_answer_pattern": pp.match_answer_pattern,
        "gsm8k": pp.gsm8k_postprocess,
        "gsm8k_dataset": pp.gsm8k_dataset_postprocess,
        "math_postprocess_v2": pp.math_postprocess_v2,
        "bbh-mcq": pp.bbh_mcq_postprocess,
        "bbh-freeform": pp.bbh_freeform_postprocess,
        "first_option_postprocess": pp.first_option_postprocess,
        "last_option_postprocess": pp.last_option_postprocess,
        "first_number_postprocess": pp.first_number_postprocess,
        "math_postprocess": pp.math_postprocess,
        "assay-gsm8k": pp.gsm8k_extract,
        "assay-math": pp.math_answer_extract,
        "assay-first-option": pp.first_option_extract,
        "assay-first-capital-multi": pp.option_run_extract,
        "assay-general-cn": pp.general_cn_extract,
        "assay-think-pred": pp.think_answer_extract,
        "assay-xml-tag": pp.xml_tag_extract,
        "assay-strip-reasoning": pp.strip_reasoning,
        "assay-bbh-mcq": pp.bbh_mcq_extract,
        "assay-bbh-freeform": pp.bbh_freeform_extract,
    }
    for name, fn in expected.items():
        assert TEXT_POSTPROCESSORS.get(name) is fn, name
        assert TEXT_POSTPROCESSORS.get(fn.__name__) is fn, fn.__name__
