"""Code extraction from model replies, under OpenCompass's names and assay's own.

The ``humaneval_*`` functions compute what OpenCompass 0.5.4's functions of the
same names compute (its reproduced quirks are named in each docstring);
:func:`first_code_block` and :func:`last_code_block` are assay's own, and keep
indentation.  These never raise; ``None`` becomes ``''``.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from assay.postprocess._text import as_text
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "first_code_block",
    "humaneval_internal_v1_postprocess",
    "humaneval_internal_v2_postprocess",
    "humaneval_postprocess_v2",
    "humaneval_postprocess_v3",
    "last_code_block",
]

# An opening fence with an optional language tag ending its line, then the body.
_FENCED = re.compile(r"```[\w+#.-]*[ \t]*\n(.*?)```", re.DOTALL)
# OpenCompass's fence: word characters only as the tag, then a newline.
_OC_FENCED = re.compile(r"```\w*\n(.*?)```", re.DOTALL)
_ANY_FENCED = re.compile(r"```(.*?)```", re.DOTALL)


def _blocks(text: str) -> list[str]:
    return _FENCED.findall(text)


def first_code_block(text: Any) -> str:
    """The body of the first fenced code block, else the whole text (indentation kept).

    Example:
        >>> first_code_block("Here:\\n```python\\ndef f():\\n    return 1\\n```\\nDone.")
        'def f():\\n    return 1\\n'
        >>> first_code_block("    return 1")
        '    return 1'
    """
    s = as_text(text)
    blocks = _blocks(s)
    return blocks[0] if blocks else s


def last_code_block(text: Any) -> str:
    """The body of the last fenced code block, else the whole text (indentation kept).

    Example:
        >>> last_code_block("```\\na = 1\\n```\\nthen\\n```py\\nb = 2\\n```")
        'b = 2\\n'
    """
    s = as_text(text)
    blocks = _blocks(s)
    return blocks[-1] if blocks else s


@TEXT_POSTPROCESSORS.register_module("humaneval_postprocess_v2")
def humaneval_postprocess_v2(text: Any) -> str:
    """OpenCompass's HumanEval extraction: the first fenced block, else the text, left-stripped.

    A fence counts only when its tag is word characters (```` ```python ````,
    not ```` ```c++ ````) followed directly by a newline.  The result is
    left-stripped, as OpenCompass does: a bare function body loses the
    indentation of its first line (reproduced; use :func:`first_code_block`
    to keep it).

    Example:
        >>> humaneval_postprocess_v2("Sure!\\n```python\\ndef f(x):\\n    return x\\n```\\nok")
        'def f(x):\\n    return x\\n'
        >>> humaneval_postprocess_v2("    return x\\n")
        'return x\\n'
    """
    s = as_text(text)
    blocks = _OC_FENCED.findall(s)
    return (blocks[0] if blocks else s).lstrip()


@TEXT_POSTPROCESSORS.register_module("humaneval_postprocess_v3")
def humaneval_postprocess_v3(text: Any) -> str:
    """As :func:`humaneval_postprocess_v2` but the last fenced block.

    Example:
        >>> humaneval_postprocess_v3("```\\nold\\n```\\n```\\n  new\\n```")
        'new\\n'
    """
    s = as_text(text)
    blocks = _OC_FENCED.findall(s)
    return (blocks[-1] if blocks else s).lstrip()


@TEXT_POSTPROCESSORS.register_module("humaneval_internal_v2_postprocess")
def humaneval_internal_v2_postprocess(text: Any) -> str:
    """OpenCompass's completion cut for base models: the indented lines up to the first unindented one.

    A reply starting with exactly three spaces gets a fourth; the text is cut
    at the first ``'\\n\\n\\n'`` and the first ``'\\n```'``.

    Example:
        >>> humaneval_internal_v2_postprocess("   return 1\\nprint(2)")
        '    return 1'
    """
    s = as_text(text)
    if s.startswith("   ") and not s.startswith("    "):
        s = " " + s
    s = s.split("\n\n\n")[0].split("\n```")[0]
    kept: list[str] = []
    for line in s.split("\n"):
        if line and line[0] != " ":
            break
        kept.append(line)
    return "\n".join(kept)


@TEXT_POSTPROCESSORS.register_module("humaneval_internal_v1_postprocess")
def humaneval_internal_v1_postprocess(text: Any) -> str:
    """OpenCompass's older HumanEval cleanup, reproduced step by step.

    A reply that is a Python string literal is unquoted (assay evaluates
    literals only, with :func:`ast.literal_eval`, where OpenCompass calls
    ``eval`` on the reply); the first fenced block is taken (its first line
    dropped when the fence has a tag); leading imports up to the ``def`` line
    are dropped; empty lines are removed; a leading ``def`` line is dropped;
    every line is indented by four spaces (only the first line when it
    already starts with a space); the text is cut where indentation first
    decreases.

    Example:
        >>> print(humaneval_internal_v1_postprocess("```python\\ndef f(x):\\n    return x\\n```"))
            return x
    """
    s = as_text(text)
    try:
        value = ast.literal_eval(s)
    except Exception:
        pass
    else:
        if isinstance(value, str):
            s = value
    s = s.lstrip("\n")
    if "```" in s:
        blocks = _ANY_FENCED.findall(s)
        if not blocks:
            s = s.split("```")[1]
        else:
            s = blocks[0]
            if not s.startswith("\n"):
                s = s[max(s.find("\n") + 1, 0) :]
    if s.strip().startswith(("from", "import")):
        at = s.find("def")
        if at != -1:
            s = s[max(s.find("\n", at) + 1, 0) :]
    s = "\n".join(line for line in s.split("\n") if line != "")
    s = s.lstrip("\n")
    if s.strip().startswith("def"):
        s = "\n".join(s.split("\n")[1:])
    if s.startswith(" "):
        s = "    " + s.lstrip()
    else:
        s = "\n".join("    " + line for line in s.split("\n"))
    lines = s.split("\n")
    floor: int | None = None
    end: int | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped == "" or stripped[0] in "'\"#":
            continue
        indent = len(line.rstrip()) - len(stripped)
        if floor is None:
            floor = indent
        elif indent < floor:
            end = i
            break
    return "\n".join(lines if end is None else lines[:end])
