"""CMRC's and DRCD's reply postprocessors as OpenCompass 0.5.4 computes them (``cmrc``, ``drcd``)."""

from __future__ import annotations

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["cmrc_postprocess", "drcd_postprocess"]

_MARK = "答案是"


def _after_mark(text: str) -> str:
    text = as_text(text)
    if _MARK in text:
        return text.split(_MARK)[1]
    return text


@TEXT_POSTPROCESSORS.register_module(["cmrc", "cmrc_postprocess"])
@deterministic
def cmrc_postprocess(text: str) -> str:
    """The text after the first ``答案是`` ("the answer is"), up to a second one; without it, the reply as it is.

    Nothing is stripped (``EMEvaluator`` normalizes its input), and a reply
    giving the phrase twice keeps only what lies between the two, as in OpenCompass.

    >>> cmrc_postprocess('根据文章，答案是北京。')
    '北京。'
    >>> cmrc_postprocess('答案是上海，不，答案是北京')
    '上海，不，'
    >>> cmrc_postprocess('北京')
    '北京'
    """
    return _after_mark(text)


@TEXT_POSTPROCESSORS.register_module(["drcd", "drcd_postprocess"])
@deterministic
def drcd_postprocess(text: str) -> str:
    """DRCD's: the same reading as :func:`cmrc_postprocess`.

    >>> drcd_postprocess('答案是臺北')
    '臺北'
    """
    return _after_mark(text)
