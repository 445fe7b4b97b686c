"""First-line postprocessors of OpenCompass 0.5.4's generation families: summaries
(``lcsts``, ``Xsum``) and translations (``flores``, ``flores-chinese``)."""

from __future__ import annotations

import re

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["Xsum_postprocess", "flores_postprocess", "flores_postprocess_chinese", "lcsts_postprocess"]

_SPACES = re.compile(r"\s+")


def _first_line(text: str) -> str:
    return as_text(text).strip().split("\n")[0]


@TEXT_POSTPROCESSORS.register_module(["lcsts", "lcsts_postprocess"])
@deterministic
def lcsts_postprocess(text: str) -> str:
    """LCSTS's: the first line of the stripped reply, without the word ``своей`` (as OpenCompass
    removes it), stripped; a leading ``'1. '`` or ``'- '`` removed (the first everywhere in the
    line, the second too, as ``str.replace`` does in OpenCompass), then the characters
    ``“，。！”`` stripped from both ends.

    >>> lcsts_postprocess('1. 今天天气很好。\\n第二行')
    '今天天气很好'
    >>> lcsts_postprocess('- 一 - 二！')
    '一 二'
    """
    text = _first_line(text).replace("своей", "").strip()
    if text.startswith("1. "):
        text = text.replace("1. ", "")
    if text.startswith("- "):
        text = text.replace("- ", "")
    return text.strip("“，。！”")


@TEXT_POSTPROCESSORS.register_module(["Xsum", "Xsum_postprocess"])
@deterministic
def Xsum_postprocess(text: str) -> str:
    """XSum's: the first line of the stripped reply, stripped.

    >>> Xsum_postprocess('  A summary. \\nMore text')
    'A summary.'
    """
    return _first_line(text).strip()


@TEXT_POSTPROCESSORS.register_module(["flores", "flores_postprocess"])
@deterministic
def flores_postprocess(text: str) -> str:
    """FLORES's: the first line of the stripped reply (not stripped again).

    >>> flores_postprocess('  Bonjour le monde \\nHello')
    'Bonjour le monde '
    """
    return _first_line(text)


@TEXT_POSTPROCESSORS.register_module(["flores-chinese", "flores_postprocess_chinese"])
@deterministic
def flores_postprocess_chinese(text: str) -> str:
    """FLORES's for Chinese targets: the first line of the stripped reply, runs of whitespace
    made one space, stripped, then segmented by jieba and the words joined by spaces (a space
    of the text becomes a word of its own, as in OpenCompass).

    >>> flores_postprocess_chinese('今天 天气很好\\n第二行')
    '今天   天气 很 好'
    """
    import jieba  # heavy (loads a dictionary): imported on first use

    cleaned = _SPACES.sub(" ", _first_line(text)).strip()
    return " ".join(jieba.cut(cleaned))
