"""The contract every registered text postprocessor keeps, checked over the whole registry.

Empty text gives the no-answer value ``''`` (or, for a function under an
OpenCompass name, OpenCompass's own no-answer value, ``NO_ANSWER``); very long text, unicode and control
characters never raise; the result is deterministic.  A postprocessor that needs
options gets them from ``OPTIONS``; one registered without an entry there fails
``test_every_registered_postprocessor_is_in_the_table``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.registry import TEXT_POSTPROCESSORS

#: Keyword options each postprocessor is called with in the contract (by function name).
OPTIONS: dict[str, dict[str, Any]] = {
    "general_postprocess": {},
    "general_cn_postprocess": {},
    "general_eval_wrapper_postprocess": {"postprocess": "general"},
    "first_capital_postprocess": {},
    "last_capital_postprocess": {},
    "first_capital_postprocess_multi": {},
    "first_option_postprocess": {"options": "ABCD"},
    "last_option_postprocess": {"options": "ABCD"},
    "first_number_postprocess": {},
    "multiple_select_postprocess": {},
    "xml_tag_postprocessor": {"tag": "<conclude>"},
    "match_answer_pattern": {"answer_pattern": r"[Aa]nswer(?: is)?:?\s*\(?([A-D])"},
    "think_pred_postprocess": {"re_pattern": r"</think>(.*)"},
    "extract_non_reasoning_content": {},
    "gsm8k_postprocess": {},
    "gsm8k_dataset_postprocess": {},
    "math_postprocess_v2": {},
    "math_intern_postprocess": {},
    "bbh_mcq_postprocess": {},
    "bbh_freeform_postprocess": {},
    "bbeh_mcq_postprocess": {},
    "bbeh_freeform_postprocess": {},
    "game24_postprocess": {},
    "mydataset_postprocess": {},
    "clbench_pred_postprocess": {},
    "atlas_pred_postprocess": {},
    "GPQA_Simple_Eval_postprocess": {},
    "cruxeval_o_postprocess": {},
    "humaneval_postprocess_v2": {},
    "humaneval_postprocess_v3": {},
    "ds1000_postprocess": {},
    "ds1000_completion_postprocess": {},
    "ds1000_matplotlib_postprocess": {},
    "TheoremQA_postprocess": {},
    "TheoremQA_postprocess_v2": {},
    "TheoremQA_postprocess_v3": {},
    "TheoremQA_postprocess_v4": {},
    "olympiadbench_postprocess_v2": {},
    "humaneval_internal_v1_postprocess": {},
    "humaneval_internal_v2_postprocess": {},
    "general_cn_extract": {},
    "think_answer_extract": {"re_pattern": r"</think>(.*)"},
    "xml_tag_extract": {"tag": "<conclude>"},
    "strip_reasoning": {},
    "math_postprocess": {},
    "math_answer_extract": {},
    "gsm8k_extract": {},
    "first_option_extract": {"options": "ABCD"},
    "option_run_extract": {"options": "ABCD"},
    "bbh_mcq_extract": {},
    "bbh_freeform_extract": {},
    "trec_postprocess": {},
    "lsht_postprocess": {},
    "samsum_postprocess": {},
    "triviaqa_postprocess": {},
    "needlebench_postprocess": {},
    "needlebench_dataset_postprocess": {},
    "needlebench_atc_postprocess_v2": {},
    "gsm100_postprocess": {},
    "gsm100_dataset_postprocess": {},
    "InfiniteBench_first_number_postprocess": {},
    "mathbench_postprocess": {"name": "cloze_en"},
    "my_multiple_select_postprocess": {},
    "cmrc_postprocess": {},
    "drcd_postprocess": {},
    "ReCoRD_postprocess": {},
    "strategyqa_pred_postprocess": {},
    "strategyqa_dataset_postprocess": {},
    "crowspairs_postprocess": {},
    "mgsm_postprocess": {"lang": "en"},
    "scibench_postprocess": {},
    "charm_reason_postprocess": {},
    "smolinstruct_acc_postprocess": {},
    "smolinstruct_acc_0shot_postprocess": {},
    "GUE_postprocessor": {},
    "LLM4Mat_postprocessor": {"property": "band_gap"},
    "lcsts_postprocess": {},
    "Xsum_postprocess": {},
    "flores_postprocess": {},
    "flores_postprocess_chinese": {},
    "arxivrollbench_selection_postprocess": {},
    "arxivrollbench_choice_postprocess": {},
    "material_postprocessor": {},
    "opi_postprocess": {"task": "GO"},
    "LLM4Chem_postprocess": {"task": "forward_synthesis"},
    "Retrosynthesis_postprocess": {},
    "Mol_Instructions_postprocess_Mol": {"task": "molecular_description_generation"},
    "PEER_postprocess_float_compare": {"compare_number": 1},
    "PEER_postprocess": {},
    "PEER_postprocess_default": {},
    "Mol_Instructions_postprocess_Protein": {},
    "Mol_Instructions_postprocess_Protein_Design": {},
    "pmmeval_flores_postprocess": {"lang_fullname": "French"},
    "pmmeval_mhellaswag_postprocess": {"lang_code": "en"},
    "pmmeval_mifeval_postprocess": {"lang_code": "en"},
    "pmmeval_mlogiqa_postprocess": {"lang_code": "en"},
    "pmmeval_mmmlu_postprocess": {"lang_code": "EN-US"},
    "pmmeval_xnli_postprocess": {"lang_code": "en"},
}

#: Return types allowed besides ``str`` (documented per function).
NON_STR_RESULTS: dict[str, tuple[type, ...]] = {
    "first_number_postprocess": (float, type(None)),
    "match_answer_pattern": (type(None),),
    "GPQA_Simple_Eval_postprocess": (type(None),),
    "math_intern_postprocess": (type(None),),
    "InfiniteBench_first_number_postprocess": (type(None),),
    "smolinstruct_acc_postprocess": (type(None),),
    "LLM4Mat_postprocessor": (float,),
    "atlas_pred_postprocess": (dict,),
}

#: OpenCompass's no-answer values, which its namesakes reproduce (for the same numbers).
NO_ANSWER: dict[str, Any] = {
    "atlas_pred_postprocess": {"extract_error": True, "answers": '{"answers": []}'},
    "gsm8k_postprocess": "NULL",
    "xml_tag_postprocessor": "NO ANSWER FOUND",
    "first_number_postprocess": None,
    "GPQA_Simple_Eval_postprocess": None,
    "math_intern_postprocess": None,
    "InfiniteBench_first_number_postprocess": None,
    "needlebench_atc_postprocess_v2": "None",
    "strategyqa_dataset_postprocess": "no",  # a reference other than True reads as 'no'
    "crowspairs_postprocess": "invalid",
    "smolinstruct_acc_postprocess": None,
}

_MB = 1_000_000
LONG_TEXTS = {
    "mixed": ("Let's think. 答案是 C。 The answer is (B). \\boxed{\\frac{1}{2}} $x=1,234$ <conclude>A</conclude> " * (_MB // 90))[:_MB],
    "spaces": "A" + " " * _MB + "x",
    "newlines": "1.\n" + "\n" * _MB + "B",
    "open_braces": "\\boxed{" * (_MB // 7),
    "digits": "9" * _MB,
    "cjk": ("所以选项" * (_MB // 4))[:_MB],
}
ODD_TEXTS = {
    "controls": "\x00\x01\x07\x1b[31m\x7f\r\n\t\x0b\x0c answer \x00 B",
    "unicode": "Ｔｈｅ ａｎｓｗｅｒ ｉｓ Ｂ — ß İ ǅ ﬁ \u200b\ufeff \U0001f600 Ω 答案：Ｃ",
    "surrogate_free_rtl": "الإجابة هي B \u202e(A)\u202c",
    "combining": "A\u0301 B\u0308 \u0363",
    "latex_noise": "}}}{{{\\boxed}\\fbox{ \\boxed{{}} $$ $ \\frac{",
    "lone_tags": "<think><think></think></think><conclude></conclude>",
}


def _unique_postprocessors() -> list[Callable[..., Any]]:
    seen: dict[int, Callable[..., Any]] = {}
    for _name, fn in TEXT_POSTPROCESSORS.items():
        if getattr(fn, "__module__", "").startswith("assay."):  # tests and plugins may register others
            seen.setdefault(id(fn), fn)
    return sorted(seen.values(), key=lambda f: f.__name__)


POSTPROCESSORS = _unique_postprocessors()
IDS = [f.__name__ for f in POSTPROCESSORS]


#: Postprocessors that pair the reply with an option (P-MMEval's: the language): the contract holds for the reply
#: they return, and the option comes back unchanged.
PAIRED = {"pmmeval_flores_postprocess", "pmmeval_mhellaswag_postprocess", "pmmeval_mifeval_postprocess", "pmmeval_mlogiqa_postprocess",
          "pmmeval_mmmlu_postprocess", "pmmeval_xnli_postprocess"}


def _call(fn: Callable[..., Any], text: Any) -> Any:
    options = OPTIONS.get(fn.__name__, {})
    result = fn(text, **options)
    if fn.__name__ in PAIRED:
        assert isinstance(result, tuple) and len(result) == 2 and result[1] == next(iter(options.values())), result
        return result[0]
    return result


def _check_type(fn: Callable[..., Any], result: Any) -> None:
    allowed = (str, *NON_STR_RESULTS.get(fn.__name__, ()))
    assert isinstance(result, allowed), f"{fn.__name__} returned {type(result).__name__}"


def test_every_registered_postprocessor_is_in_the_table() -> None:
    missing = sorted({f.__name__ for f in POSTPROCESSORS} - set(OPTIONS))
    assert not missing, f"registered postprocessors without contract options: {missing}"


def test_the_registry_holds_the_catalogue() -> None:
    names = {f.__name__ for f in POSTPROCESSORS}
    assert names >= set(OPTIONS) - {"humaneval_postprocess_v2", "humaneval_postprocess_v3", "humaneval_internal_v1_postprocess", "humaneval_internal_v2_postprocess"}


#: Postprocessors documented to return the text itself when they find nothing to strip.
PASS_THROUGH = {
    "think_pred_postprocess",
    "think_answer_extract",
    "general_eval_wrapper_postprocess",
    "humaneval_postprocess_v2",
    "humaneval_postprocess_v3",
    "olympiadbench_postprocess_v2",
    "bbh_mcq_postprocess",
    "general_cn_postprocess",
    "humaneval_internal_v1_postprocess",  # indents even an empty reply, as OpenCompass does
    "humaneval_internal_v2_postprocess",
    # DS-1000's: the reply narrowed where a tag or fence is found, else the reply itself
    "ds1000_postprocess",
    "ds1000_completion_postprocess",
    "ds1000_matplotlib_postprocess",
    # LongBench's: the first line after leading newlines, spaces kept, as OpenCompass does
    "trec_postprocess",
    "lsht_postprocess",
    "samsum_postprocess",
    "triviaqa_postprocess",
    "needlebench_postprocess",  # NeedleBench's evaluators read the reply as it is
    "needlebench_dataset_postprocess",
    "gsm100_dataset_postprocess",  # only drops thousands separators
    "mathbench_postprocess",  # with no number, the reply as it is
    "cmrc_postprocess",  # without 答案是, the reply as it is
    "drcd_postprocess",
    "scibench_postprocess",  # with no box and no number, the reply as it is
    "charm_reason_postprocess",  # with no capital letter, the reply as it is
    *PAIRED,  # the reply as it is, with its language
}


@pytest.mark.parametrize("fn", POSTPROCESSORS, ids=IDS)
def test_empty_text_is_no_answer(fn: Callable[..., Any]) -> None:
    nothing = NO_ANSWER.get(fn.__name__, "")
    empty = _call(fn, "")
    assert empty == nothing or (fn.__name__ in PASS_THROUGH and not empty.strip())
    blank = _call(fn, "   \n\t ")
    assert blank == nothing or (fn.__name__ in PASS_THROUGH and not blank.strip())


#: jieba segments a megabyte of these slowly
_SLOW_LONG = {("general_cn_postprocess", "cjk"), ("general_cn_postprocess", "digits"), ("general_cn_postprocess", "open_braces")}


@pytest.mark.parametrize(
    ("fn", "kind"),
    [
        pytest.param(fn, kind, id=f"{fid}-{kind}", marks=[pytest.mark.slow] if (fn.__name__, kind) in _SLOW_LONG else [])
        for kind in sorted(LONG_TEXTS)
        for fn, fid in zip(POSTPROCESSORS, IDS)
    ],
)
def test_very_long_text(fn: Callable[..., Any], kind: str) -> None:
    text = LONG_TEXTS[kind]
    first = _call(fn, text)
    _check_type(fn, first)
    assert _call(fn, text) == first


@pytest.mark.parametrize("kind", sorted(ODD_TEXTS))
@pytest.mark.parametrize("fn", POSTPROCESSORS, ids=IDS)
def test_unicode_and_control_characters(fn: Callable[..., Any], kind: str) -> None:
    text = ODD_TEXTS[kind]
    first = _call(fn, text)
    _check_type(fn, first)
    assert _call(fn, text) == first


@pytest.mark.parametrize("fn", POSTPROCESSORS, ids=IDS)
def test_none_is_treated_as_empty(fn: Callable[..., Any]) -> None:
    if fn.__module__.startswith("assay.postprocess.code"):
        pytest.skip("owned by the code-evaluation postprocessors")
    assert _call(fn, None) == _call(fn, "")


@pytest.mark.parametrize("fn", POSTPROCESSORS, ids=IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_arbitrary_text_never_raises(fn: Callable[..., Any], text: str) -> None:
    first = _call(fn, text)
    _check_type(fn, first)
    assert _call(fn, text) == first


@pytest.mark.parametrize("fn", POSTPROCESSORS, ids=IDS)
@settings(max_examples=100, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["答案", "是", "选", "The answer is", "(", ")", "A", "B", "C", "D", " ", "\n", ".", "：", "1.",
                         "\\boxed{", "}", "{", "$", "Question:", "####", ",", "5", "<think>", "</think>", "**"]),
        max_size=40,
    ).map("".join)
)
def test_answer_like_fragments_never_raise(fn: Callable[..., Any], text: str) -> None:
    _check_type(fn, _call(fn, text))
