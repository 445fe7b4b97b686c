"""Which OpenCompass-named postprocessor has a corrected counterpart in assay.

A function under an OpenCompass name reproduces OpenCompass 0.5.4, bugs included;
its counterpart reads the same replies without those bugs.  Both take the same
options (those listed here carry over unchanged), so a result can be scored both
ways to see how much a known bug matters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["COUNTERPARTS", "Counterpart", "corrected_counterpart"]


class Counterpart(NamedTuple):
    """The corrected counterpart of an OpenCompass-named postprocessor."""

    opencompass: str  #: the OpenCompass function name
    corrected: str  #: the function name of assay's counterpart
    registered: str  #: the counterpart's registered short name
    options: tuple[str, ...]  #: the options passed on to the counterpart unchanged


COUNTERPARTS: dict[str, Counterpart] = {
    c.opencompass: c
    for c in (
        Counterpart("gsm8k_postprocess", "gsm8k_extract", "assay-gsm8k", ()),
        Counterpart("math_postprocess_v2", "math_answer_extract", "assay-math", ()),
        Counterpart("first_option_postprocess", "first_option_extract", "assay-first-option", ("options", "cushion")),
        Counterpart("first_capital_postprocess_multi", "option_run_extract", "assay-first-capital-multi", ()),
        Counterpart("general_cn_postprocess", "general_cn_extract", "assay-general-cn", ()),
        Counterpart("think_pred_postprocess", "think_answer_extract", "assay-think-pred", ("re_pattern",)),
        Counterpart("xml_tag_postprocessor", "xml_tag_extract", "assay-xml-tag", ("tag",)),
        Counterpart(
            "extract_non_reasoning_content",
            "strip_reasoning",
            "assay-strip-reasoning",
            ("think_start_token", "think_end_token"),
        ),
        Counterpart("bbh_mcq_postprocess", "bbh_mcq_extract", "assay-bbh-mcq", ()),
        Counterpart("bbh_freeform_postprocess", "bbh_freeform_extract", "assay-bbh-freeform", ()),
    )
}


def corrected_counterpart(fn: Any, options: dict[str, Any] | None = None) -> Callable[[Any], Any] | None:
    """The corrected counterpart of an OpenCompass-named postprocessor, bound to its options, or ``None``.

    ``fn`` is the function or any of its registered names; ``options`` are those
    the OpenCompass-named one is called with (the listed ones carry over, the
    others are dropped).

    >>> corrected_counterpart('gsm8k')('costs $1,234')
    '1234'
    >>> corrected_counterpart('first_option_postprocess', {'options': 'ABC', 'cushion': False})('Dolphin (C)')
    'C'
    >>> corrected_counterpart('general') is None
    True
    """
    if isinstance(fn, str):
        fn = TEXT_POSTPROCESSORS.get(fn) if fn in TEXT_POSTPROCESSORS else None
    name = getattr(fn, "__name__", None)
    entry = COUNTERPARTS.get(name) if isinstance(name, str) and getattr(fn, "__module__", "").startswith("assay.") else None
    if entry is None:
        return None
    corrected = TEXT_POSTPROCESSORS.get(entry.corrected)
    kept = {k: v for k, v in (options or {}).items() if k in entry.options}

    def bound(text: Any) -> Any:
        return corrected(text, **kept)

    bound.__name__ = entry.corrected
    return bound
