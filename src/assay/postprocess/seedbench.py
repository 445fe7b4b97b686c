"""SeedBench's multiple-select postprocessor, as OpenCompass 0.5.4 computes it (``my_multiple_select_postprocess``)."""

from __future__ import annotations

from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["my_multiple_select_postprocess"]


@TEXT_POSTPROCESSORS.register_module(["my_multiple_select_postprocess"])
@deterministic
def my_multiple_select_postprocess(text: Any) -> str:
    """Every distinct upper-case character of the reply (``str.isupper``: any script), sorted and joined with ``', '``.

    The reply's words count too: ``'I pick A and C'`` gives ``'A, C, I'``.

    >>> my_multiple_select_postprocess('Answer: B, D')
    'A, B, D'
    >>> my_multiple_select_postprocess('b and d')
    ''
    """
    return ", ".join(sorted({ch for ch in as_text(text) if ch.isupper()}))
