"""``math_intern_postprocess``: OpenCompass 0.5.4's answer extractor of its internal MATH configs."""

from __future__ import annotations

from typing import Any

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["math_intern_postprocess"]


def _tidy(answer: str) -> str:
    answer = answer.strip().replace("{{", "{").replace("}}", "}")
    if answer and answer[-1] in ".。":
        answer = answer[:-1]
    return answer


def _until_closing_brace(text: str) -> str:
    # the text up to the brace closing an already open one; when none closes it, the
    # text without its last character (OpenCompass's slice drops it)
    if not text:
        return text
    depth = 1
    for end, ch in enumerate(text):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return text[:end]
    return text[:-1]


@TEXT_POSTPROCESSORS.register_module("math_intern_postprocess")
@deterministic
def math_intern_postprocess(text: Any) -> str | None:
    """The answer of a MATH reply by the first rule that applies, or ``None``.

    The rules, in order (each answer is stripped, ``{{``/``}}`` halved and
    one final ``.`` or ``。`` dropped):

    1. ``'The final answer is '``: the text after it, from its second
       character up to the first ``'$.'`` (without ``'$.'``, up to the last
       character, excluded);
    2. ``'\\n\\nQuestion:'``: the text before it; then, unless
       ``'The answer is'`` starts that text, everything after the 13th
       character of ``'The answer is'`` counted from its occurrence —
       OpenCompass tests ``find(...)`` for truth, so when the phrase is absent
       (``-1``) the first 12 characters are cut instead; when the phrase
       starts the text, the later rules apply to it;
    3. ``'# Answer'``, ``'The answer is:'``, ``'####'``: the text after the
       first one found, in this order;
    4. ``'\\boxed{'``: the text after its first occurrence up to the brace
       that closes it (an unclosed one loses its last character);
    5. else ``None``.

    ``None`` is read as an empty reply (OpenCompass fails on it).

    >>> math_intern_postprocess('So The final answer is $\\\\frac{1}{2}$. I hope')
    '\\\\frac{1}{2}'
    >>> math_intern_postprocess('We get \\\\boxed{x^{2}} here')
    'x^{2}'
    >>> math_intern_postprocess('It is 5.\\n\\nQuestion: next')
    ''
    >>> math_intern_postprocess('no answer') is None
    True
    """
    pred = as_text(text)
    marker = "The final answer is "
    if marker in pred:
        rest = pred[pred.find(marker) + len(marker):]
        return _tidy(rest[1:rest.find("$.")])
    if "\n\nQuestion:" in pred:
        pred = pred.split("\n\nQuestion:")[0]
        at = pred.find("The answer is")
        if at != 0:
            return _tidy(pred[at + len("The answer is"):])
    for marker in ("# Answer", "The answer is:", "####"):
        if marker in pred:
            return _tidy(pred[pred.find(marker) + len(marker):])
    if "\\boxed{" in pred:
        return _tidy(_until_closing_brace(pred[pred.find("\\boxed{") + len("\\boxed{"):]))
    return None
