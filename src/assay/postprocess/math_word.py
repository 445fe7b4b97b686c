"""Answer extraction for MGSM and SciBench, as OpenCompass 0.5.4 computes it (``mgsm_postprocess``, ``scibench_postprocess``)."""

from __future__ import annotations

import re
from typing import Any

from assay.errors import ConfigError
from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["LANG_TO_ANSWER_PREFIX", "mgsm_postprocess", "scibench_postprocess"]

#: The word MGSM's prompt asks a reply to put before its answer, per language.
LANG_TO_ANSWER_PREFIX = {
    "en": "Answer",
    "bn": "উত্তর",
    "de": "Antwort",
    "es": "Respuesta",
    "fr": "Réponse",
    "ja": "答え",
    "ru": "Ответ",
    "sw": "Jibu",
    "te": "సమాధానం",
    "th": "คำตอบ",
    "zh": "答案",
}

_MGSM_NUMBER = re.compile(r"\d+\.?\d*")
_BOX_OPEN = "\\boxed{"
_DIGIT_COMMA = re.compile(r"(\d),(\d)")
_SCIBENCH_NUMBER = re.compile(r"-?\d*\.?\d+|\d+")


def _first_boxed(text: str) -> str | None:
    r"""What ``re.search(r'\\boxed\{(.+?)\}', text).group(1)`` gives (``None`` for no match), in linear time.

    The content is at least one character and holds no newline; it ends at
    the first ``}`` after its first character.

    >>> _first_boxed('a \\boxed{}} b'), _first_boxed('\\boxed{x\ny} \\boxed{z}'), _first_boxed('\\boxed{')
    ('}', 'z', None)
    """
    close = -1  # the first '}' at or after the last position looked from
    start = text.find(_BOX_OPEN)
    while start >= 0:
        content = start + len(_BOX_OPEN)
        if close < content + 1:
            close = text.find("}", content + 1)
            if close < 0:
                return None  # no later box can close either
        newline = text.find("\n", content, close)
        if newline < 0:
            return text[content:close]
        start = text.find(_BOX_OPEN, max(start + 1, newline + 1 - len(_BOX_OPEN)))
    return None


@TEXT_POSTPROCESSORS.register_module(["mgsm_postprocess"])
@deterministic
def mgsm_postprocess(text: Any, lang: str) -> str:
    """The number after the last answer word of ``lang`` (:data:`LANG_TO_ANSWER_PREFIX`), else ``''``.

    The text after the last occurrence of the word (case matters), stripped
    and with every comma removed, is searched for numbers (digits, an
    optional ``.`` and more digits; any script's digits count, as Python's
    ``\\d`` reads them); the last one is the answer, a trailing ``.``
    dropped.  No word, or no number after it, gives ``''``.  The sign is
    never part of the answer (``-5`` gives ``'5'``).

    >>> mgsm_postprocess('5 + 13 = 18 eggs.\\nAnswer: 1,018.', 'en')
    '1018'
    >>> mgsm_postprocess('答案: -5', 'zh'), mgsm_postprocess('The answer is 5', 'en')
    ('5', '')
    """
    if lang not in LANG_TO_ANSWER_PREFIX:
        raise ConfigError(f"mgsm_postprocess: unknown lang {lang!r}; expected one of {', '.join(LANG_TO_ANSWER_PREFIX)}")
    ans = as_text(text)
    prefix = LANG_TO_ANSWER_PREFIX[lang]
    if prefix not in ans:
        return ""
    numbers = _MGSM_NUMBER.findall(ans.split(prefix)[-1].strip().replace(",", ""))
    return numbers[-1].rstrip(".") if numbers else ""


@TEXT_POSTPROCESSORS.register_module(["scibench", "scibench_postprocess"])
@deterministic
def scibench_postprocess(text: Any) -> str:
    """SciBench's answer: the first ``\\boxed{...}``, else the last number, else the text read.

    When the reply says ``answer is``, only the text between its first and
    second occurrence (stripped) is read.  ``\\boxed{...}`` gives its content
    up to the first ``}`` (``\\boxed{\\frac{1}{2}}`` gives ``\\frac{1``).
    Without one, a comma between two digits is dropped (one per pair, as
    OpenCompass's substitution goes) and the last number (an optional
    ``-``, digits, an optional ``.`` and digits) is the answer; with no
    number, the text read is returned as it is.

    >>> scibench_postprocess('Therefore, the answer is \\\\boxed{2.718}.')
    '2.718'
    >>> scibench_postprocess('The mass is 1,250.5 kg, i.e. -3.2e5 g')
    '5'
    """
    ans = as_text(text)
    parts = ans.split("answer is")
    if len(parts) != 1:
        ans = parts[1].strip()
    boxed = _first_boxed(ans)
    if boxed is not None:
        return boxed
    numbers = _SCIBENCH_NUMBER.findall(_DIGIT_COMMA.sub(r"\1\2", ans))
    if numbers:
        return numbers[-1]
    return ans
