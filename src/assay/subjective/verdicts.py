"""Reading one judge reply the way each subjective benchmark reads it, to count the unreadable ones.

Each reader takes the judge's reply and returns its verdict, or ``None``
when the benchmark's own reading gets nothing out of it (OpenCompass then
leaves the sample out of the benchmark's scores).  The subjective task
counts those samples, with the replies that never arrived, as unjudged in
its ``_meta``; the scores themselves are the dataset's postprocessor's and
summarizer's business.  A loader names its reader in ``judge_verdict``.

Example:
    >>> read_verdict('mtbench', 'The answer is fine. Rating: [[7.5]]')
    7.5
    >>> read_verdict('arenahard', 'no verdict') is None
    True
    >>> read_verdict('compassarena', '评价：… 选择：B'), read_verdict('wildbench', '{"choice": "A+"}')
    ('B', 'A+')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["READERS", "read_verdict"]

_MTBENCH = re.compile(r"Rating:\s*\[\[([\d.]+)\]\]")
_ARENAHARD = re.compile(r"\[\[([AB<>=]+)\]\]")
_LAST_BRACES = re.compile(r"{(.*?)}(?![^{]*{)")
_SCORE_PAIR = re.compile(r"'(.*?)': (\d+)")
_FLAMES = re.compile(r"分数=(\d+)")
#: The dimensions AlignBench's judge may score (any other key makes the rating unreadable).
ALIGNBENCH_DIMENSIONS = frozenset({
    "事实正确性", "满足用户需求", "安全无害", "清晰度", "逻辑性", "完备性", "创造性", "可负责程度", "逻辑连贯性",
    "公平与可负责程度", "丰富度", "综合得分",
})


def mtbench_verdict(reply: str) -> float | None:
    """MT-Bench's single score: the number in the first ``Rating: [[x]]``."""
    found = _MTBENCH.search(reply)
    if not found:
        return None
    try:
        return float(found.group(1))
    except ValueError:
        return None


def arenahard_verdict(reply: str) -> str | None:
    """Arena-Hard's verdict: the first ``[[A>B]]``-style label."""
    found = _ARENAHARD.search(reply)
    return found.group(1) if found else None


def alpaca_verdict(reply: str) -> int | None:
    """AlpacaEval's preference: the reply's first character, ``m`` (the first answer) or ``M`` (the second)."""
    head = reply[:1]
    return 1 if head == "m" else 2 if head == "M" else None


def alignbench_verdict(reply: str) -> float | None:
    """AlignBench's overall score: the integer ``'综合得分'`` of the reply's last ``{…}`` of ``'dimension': score``
    pairs, every dimension known and every score within 0–10.  (OpenCompass also guesses scores from
    replies without braces; those are counted unreadable here.)"""
    found = _LAST_BRACES.search(reply)
    if not found:
        return None
    rating = {key: int(value) for key, value in _SCORE_PAIR.findall(found.group(1))}
    score = rating.get("综合得分")
    if score is None or not 0 <= score <= 10:
        return None
    if any(key not in ALIGNBENCH_DIMENSIONS or not 0 <= value <= 10 for key, value in rating.items()):
        return None
    return float(score)


def flames_verdict(reply: str) -> int | None:
    """Flames' score: the first ``分数=<n>``.  (OpenCompass scores a reply without one, an empty one included,
    as 0; here it is counted unreadable.)"""
    found = _FLAMES.search(reply)
    return int(found.group(1)) if found else None


def compassarena_verdict(reply: str) -> str | None:
    """CompassArena's (and its Bradley-Terry variant's) choice: the first ``选择：X`` or ``Choice: X`` letter (A, B, C)."""
    from assay.subjective.compassarena import compassarena_choice

    return compassarena_choice(reply)


def wildbench_verdict(reply: str) -> str | None:
    """WildBench's (and CompassBench's) choice: the first ``"choice": "…"`` value (``A++`` … ``B++``)."""
    from assay.subjective.wildbench import wildbench_choice

    return wildbench_choice(reply)


#: Reader name (a loader's ``judge_verdict``) → reader.
READERS: dict[str, Callable[[str], Any]] = {
    "alignbench": alignbench_verdict,
    "alpaca": alpaca_verdict,
    "arenahard": arenahard_verdict,
    "compassarena": compassarena_verdict,
    "flames": flames_verdict,
    "mtbench": mtbench_verdict,
    "wildbench": wildbench_verdict,
}


def read_verdict(reader: str, reply: str | None) -> Any:
    """The verdict ``reader`` reads in ``reply`` (``None``: none, or no reply)."""
    if reply is None:
        return None
    return READERS[reader](reply)
