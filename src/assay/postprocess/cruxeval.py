"""CRUXEval-O's answer extractor, as OpenCompass 0.5.4 computes it."""

from __future__ import annotations

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["cruxeval_o_postprocess"]


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def cruxeval_o_postprocess(text: str) -> str:
    """The first line of the reply, stripped, after everything from ``# done`` on is cut off.

    >>> cruxeval_o_postprocess("  [1, 2] # done\\nassert f(3) == 4")
    '[1, 2]'
    >>> cruxeval_o_postprocess("\\n'abc'\\nmore")
    "'abc'"
    """
    return as_text(text).split("# done")[0].strip().split("\n")[0].strip()
