"""LongBench's reply postprocessors as OpenCompass 0.5.4 computes them: the reply's first line."""

from __future__ import annotations

from assay.postprocess._text import as_text
from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["lsht_postprocess", "samsum_postprocess", "trec_postprocess", "triviaqa_postprocess"]


def _first_line(text: str) -> str:
    return as_text(text).lstrip("\n").split("\n")[0]


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def trec_postprocess(text: str) -> str:
    """The first line after leading newlines, not stripped otherwise (LongBench TREC).

    >>> trec_postprocess('\\n\\n Abbreviation \\nmore')
    ' Abbreviation '
    """
    return _first_line(text)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def lsht_postprocess(text: str) -> str:
    """The first line after leading newlines (LongBench LSHT).

    >>> lsht_postprocess('体育\\n新闻')
    '体育'
    """
    return _first_line(text)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def samsum_postprocess(text: str) -> str:
    """The first line after leading newlines (LongBench SAMSum).

    >>> samsum_postprocess('\\nTom will come.\\nDialogue: ...')
    'Tom will come.'
    """
    return _first_line(text)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def triviaqa_postprocess(text: str) -> str:
    """The first line after leading newlines (LongBench TriviaQA; not the TriviaQA family's evaluator).

    >>> triviaqa_postprocess('Paris\\nQuestion: next')
    'Paris'
    """
    return _first_line(text)
