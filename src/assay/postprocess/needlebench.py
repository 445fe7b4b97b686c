"""NeedleBench's postprocessors, as OpenCompass 0.5.4 computes them (v1 and v2 alike)."""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess.chain import deterministic
from assay.postprocess.math import extract_boxed_answer
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["clean_atc_answer", "needlebench_atc_postprocess_v2", "needlebench_dataset_postprocess", "needlebench_postprocess"]


@TEXT_POSTPROCESSORS.register_module(["needlebench", "needlebench_postprocess"])
@deterministic
def needlebench_postprocess(text: Any) -> Any:
    """The reply unchanged (registered as ``needlebench``; NeedleBench's evaluators read the raw reply).

    ``None`` (no reply) reads as ``''``, as for every postprocessor of assay's.

    >>> needlebench_postprocess(' Paris\\n')
    ' Paris\\n'
    """
    return "" if text is None else text


@TEXT_POSTPROCESSORS.register_module(["needlebench_dataset", "needlebench_dataset_postprocess"])
@deterministic
def needlebench_dataset_postprocess(text: Any) -> Any:
    """The reference unchanged (registered as ``needlebench_dataset``, and as v2's ``needlebench_dataset_postprocess``).

    ``None`` reads as ``''``, as for every postprocessor of assay's.

    >>> needlebench_dataset_postprocess('x*Paris')
    'x*Paris'
    """
    return "" if text is None else text


_TEXT_COMMAND = re.compile(r"\\text\{([^}]+)\}")
_BOXED_COMMAND = re.compile(r"\\boxed\{([^}]+)\}")
_ESCAPED_BRACKET = re.compile(r"\\[\[\]]")
_WHITESPACE = re.compile(r"\s+")


def clean_atc_answer(text: str) -> str:
    """A name as the ATC evaluator compares it, as OpenCompass's ``clean_atc_answer`` cleans it.

    Empty text and ``'None'`` give ``'None'``.  Otherwise ``\\text{…}`` and
    ``\\boxed{…}`` (without nested braces) are replaced by their content,
    ``\\[`` and ``\\]`` dropped, then every backslash; runs of whitespace become
    one space and the ends are stripped; double and single quotes are dropped
    and each ``~`` becomes a space (after the strip: a trailing ``~`` leaves a
    trailing space, as in OpenCompass).

    >>> clean_atc_answer('\\\\text{Jack~Smith}')
    'Jack Smith'
    >>> clean_atc_answer("  'Ann   Lee' ")
    'Ann Lee'
    """
    if not text or text == "None":
        return "None"
    text = _TEXT_COMMAND.sub(r"\1", text)
    text = _BOXED_COMMAND.sub(r"\1", text)
    text = _ESCAPED_BRACKET.sub("", text)
    text = text.replace("\\\\", "").replace("\\", "")
    text = _WHITESPACE.sub(" ", text).strip()
    text = text.replace('"', "").replace("'", "")
    return text.replace("~", " ")


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def needlebench_atc_postprocess_v2(text: str) -> str:
    """The name in the reply's last ``\\boxed{…}``, cleaned by :func:`clean_atc_answer`; ``'None'`` without one.

    The box is read by OpenCompass's ``extract_boxed_answer`` with
    ``strip_double_curly_brace`` (its quirks included:
    :func:`assay.postprocess.math.extract_boxed_answer`); an empty box gives
    ``'None'``, as no box does.

    >>> needlebench_atc_postprocess_v2('So the eldest is \\\\boxed{\\\\text{Jack Smith}}.')
    'Jack Smith'
    >>> needlebench_atc_postprocess_v2('Jack Smith')
    'None'
    """
    found = extract_boxed_answer(text, strip_double_curly_brace=True)
    if found:
        return clean_atc_answer(found)
    return "None"
