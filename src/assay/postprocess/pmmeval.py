"""P-MMEval's prediction postprocessors, as OpenCompass 0.5.4 defines them (``pmmeval_flores_postprocess``,
``pmmeval_mhellaswag_postprocess``, ``pmmeval_mifeval_postprocess``, ``pmmeval_mlogiqa_postprocess``, ``pmmeval_mmmlu_postprocess``,
``pmmeval_xnli_postprocess``).

None of them reads the reply: each pairs it with the dataset's language, which
P-MMEval's evaluators need to know which answer phrase (or tokenizer) applies.
Their result is the pair ``(reply, language)``, not text (a missing reply,
``None``, is paired as ``''``).
"""

from __future__ import annotations

from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "pmmeval_flores_postprocess",
    "pmmeval_mhellaswag_postprocess",
    "pmmeval_mifeval_postprocess",
    "pmmeval_mlogiqa_postprocess",
    "pmmeval_mmmlu_postprocess",
    "pmmeval_xnli_postprocess",
]


@TEXT_POSTPROCESSORS.register_module(["pmmeval_flores", "pmmeval_flores_postprocess"])
def pmmeval_flores_postprocess(text: str, lang_fullname: str) -> tuple[str, str]:
    """The reply with the target language's name.

    >>> pmmeval_flores_postprocess('Bonjour.', lang_fullname='French')
    ('Bonjour.', 'French')
    """
    return ("" if text is None else text), lang_fullname


@TEXT_POSTPROCESSORS.register_module(["pmmeval_mhellaswag", "pmmeval_mhellaswag_postprocess"])
def pmmeval_mhellaswag_postprocess(text: str, lang_code: str) -> tuple[str, str]:
    """The reply with its language code (``'en'``, ``'zh'``, …)."""
    return ("" if text is None else text), lang_code


@TEXT_POSTPROCESSORS.register_module(["pmmeval_mifeval", "pmmeval_mifeval_postprocess"])
def pmmeval_mifeval_postprocess(text: str, lang_code: str) -> tuple[str, str]:
    """The reply with its language code (``'en'``, ``'zh'``, …)."""
    return ("" if text is None else text), lang_code


@TEXT_POSTPROCESSORS.register_module(["pmmeval_mlogiqa", "pmmeval_mlogiqa_postprocess"])
def pmmeval_mlogiqa_postprocess(text: str, lang_code: str) -> tuple[str, str]:
    """The reply with its language code (``'en'``, ``'zh'``, …)."""
    return ("" if text is None else text), lang_code


@TEXT_POSTPROCESSORS.register_module(["pmmeval_mmmlu", "pmmeval_mmmlu_postprocess"])
def pmmeval_mmmlu_postprocess(text: str, lang_code: str) -> tuple[str, str]:
    """The reply with its language code (``'EN-US'``, ``'ZH-CN'``, …)."""
    return ("" if text is None else text), lang_code


@TEXT_POSTPROCESSORS.register_module(["pmmeval_xnli", "pmmeval_xnli_postprocess"])
def pmmeval_xnli_postprocess(text: str, lang_code: str) -> tuple[str, str]:
    """The reply with its language code (``'en'``, ``'zh'``, …)."""
    return ("" if text is None else text), lang_code
