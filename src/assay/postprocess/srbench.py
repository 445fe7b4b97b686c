"""SRBench's answer reader as OpenCompass 0.5.4 computes it (``mydataset_postprocess``)."""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["mydataset_postprocess"]

_NOT_FORMULA = re.compile(r"[^\w\s\+\-\*/\^\=\.\(\)]")


@TEXT_POSTPROCESSORS.register_module("mydataset_postprocess")
@deterministic
def mydataset_postprocess(text: Any) -> str:
    """The reply's first line as a formula: ``×``/``·`` as ``*``, ``÷`` as ``/``, ``−`` as ``-``, ``^`` as ``**``;
    backticks and ``$`` dropped, then every character but letters, digits, ``_``, white space and
    ``+-*/^=.()`` (quotes included).  ``None`` reads as ``''`` (OpenCompass fails on it).

    >>> mydataset_postprocess('```y = x0·x1^2```\\nsince it fits')
    'y = x0*x1**2'
    """
    text = as_text(text).replace("\u00d7", "*").replace("\u00b7", "*").replace("\u00f7", "/")
    text = text.replace("\u2212", "-").replace("^", "**")
    text = text.replace('"', "'")
    text = text.replace("`", "").replace("$", "").strip()
    text = text.split("\n")[0].strip()
    return _NOT_FORMULA.sub("", text).strip()
