"""Code extraction from model replies: the first or last fenced code block.

A reply without a complete fenced block is returned unchanged (the model may
have answered with bare code).  These never raise; ``None`` becomes ``''``.
"""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["first_code_block", "humaneval_postprocess_v2", "humaneval_postprocess_v3", "last_code_block"]

# An opening fence with an optional language tag ending its line, then the body.
_FENCED = re.compile(r"```[\w+#.-]*[ \t]*\n(.*?)```", re.DOTALL)


def _blocks(text: str) -> list[str]:
    return _FENCED.findall(text)


def first_code_block(text: Any) -> str:
    """The body of the first fenced code block, else the whole text.

    Example:
        >>> first_code_block("Here:\\n```python\\ndef f():\\n    return 1\\n```\\nDone.")
        'def f():\\n    return 1\\n'
        >>> first_code_block("return 1")
        'return 1'
    """
    s = as_text(text)
    blocks = _blocks(s)
    return blocks[0] if blocks else s


def last_code_block(text: Any) -> str:
    """The body of the last fenced code block, else the whole text.

    Example:
        >>> last_code_block("```\\na = 1\\n```\\nthen\\n```py\\nb = 2\\n```")
        'b = 2\\n'
    """
    s = as_text(text)
    blocks = _blocks(s)
    return blocks[-1] if blocks else s


_OC_FENCED = re.compile(r"```\w*\n(.*?)```", re.DOTALL)


@TEXT_POSTPROCESSORS.register_module("humaneval_postprocess_v2")
def humaneval_postprocess_v2(text: Any) -> str:
    """OpenCompass 0.5.4's HumanEval extraction: the first fenced code block, else the raw text, left-stripped.

    OpenCompass behaviour reproduced: a fence whose tag is not a plain word
    (```` ```c++ ````, ```` ```python3.11 ````, a space after the tag) is not a
    fence; the result is left-stripped, so the indentation of its first line
    is lost.  :func:`first_code_block` keeps it.

    Example:
        >>> humaneval_postprocess_v2("```python\\n    return x\\n```")
        'return x\\n'
    """
    s = as_text(text)
    blocks = _OC_FENCED.findall(s)
    return (blocks[0] if blocks else s).lstrip()


@TEXT_POSTPROCESSORS.register_module("humaneval_postprocess_v3")
def humaneval_postprocess_v3(text: Any) -> str:
    """OpenCompass 0.5.4's HumanEval extraction: the last fenced code block, else the raw text, left-stripped.

    The same fences and left-strip as :func:`humaneval_postprocess_v2`;
    :func:`last_code_block` keeps the indentation.

    Example:
        >>> humaneval_postprocess_v3("```\\nold\\n```\\n```\\nnew\\n```")
        'new\\n'
    """
    s = as_text(text)
    blocks = _OC_FENCED.findall(s)
    return (blocks[-1] if blocks else s).lstrip()
