"""TheoremQA's answer extractors as OpenCompass 0.5.4 defines them.

``TheoremQA_postprocess`` (registered as ``TheoremQA``) and ``_v2`` are the
legacy ones; ``_v3`` and ``_v4`` run OpenCompass's ``answer_clean`` (see
:func:`assay.evaluators.theoremqa.answer_clean`), which converts the answer with
latex2sympy and evaluates it (restricted to arithmetic here).

OpenCompass's functions fail on ``None``; these read it as an empty reply.
"""

from __future__ import annotations

import re

from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["TheoremQA_postprocess", "TheoremQA_postprocess_v2", "TheoremQA_postprocess_v3", "TheoremQA_postprocess_v4"]

_ANSWER_IS = re.compile(r"answer is ([^\s]+)")


@TEXT_POSTPROCESSORS.register_module(["TheoremQA", "TheoremQA_postprocess"])
def TheoremQA_postprocess(text: str) -> str:
    """The word after the first "answer is", outer punctuation stripped; else the stripped reply.

    >>> TheoremQA_postprocess('So the answer is 3.5. Done.')
    '3.5'
    >>> TheoremQA_postprocess(' no marker ')
    'no marker'
    """
    text = (text or "").strip()
    found = _ANSWER_IS.findall(text)
    if not found:
        return text
    return found[0].strip().strip(".,?!\"';:")


@TEXT_POSTPROCESSORS.register_module(["TheoremQA_postprocess_v2"])
def TheoremQA_postprocess_v2(text: str) -> str:
    """The words of the reply's last line after its last ``is``/``be``/``are`` or ``…:`` word, outer dots stripped.

    >>> TheoremQA_postprocess_v2('Work.\\nThe final value is 42.')
    '42'
    """
    line = (text or "").strip().strip("\n").split("\n")[-1]
    kept = ""
    for word in reversed(line.split(" ")):
        if word in ("is", "be", "are") or word.endswith(":"):
            break
        kept = word + " " + kept
    return kept.strip().strip(".")


@TEXT_POSTPROCESSORS.register_module(["TheoremQA_postprocess_v3"])
def TheoremQA_postprocess_v3(text: str) -> str:
    """OpenCompass's ``answer_clean`` with the triggers "The answer is:", "The answer is", "the answer is".

    After the last trigger (or, with none, the last number of the reply): a
    reply mentioning yes/true gives ``'True'``, one mentioning no/false —
    anywhere, "not" and "number" included — gives ``'False'``; otherwise the
    right-hand side of ``=``, units cleaned, converted by latex2sympy and
    evaluated (``'\\frac{1}{2}'`` → ``'0.5'``).

    >>> TheoremQA_postprocess_v3('We get x = 4. The answer is 4.')
    '4'
    >>> TheoremQA_postprocess_v3('The answer is \\\\frac{1}{2}')
    '0.5'
    >>> TheoremQA_postprocess_v3('The answer is 12, I know')
    'False'
    """
    from assay.evaluators.theoremqa import answer_clean

    return answer_clean(text or "")


@TEXT_POSTPROCESSORS.register_module(["TheoremQA_postprocess_v4"])
def TheoremQA_postprocess_v4(text: str) -> str:
    """:func:`TheoremQA_postprocess_v3`, then ``\\``, ``(`` and ``)`` stripped from both ends, and spaces.

    >>> TheoremQA_postprocess_v4('The answer is \\\\(7\\\\)')
    '7'
    """
    from assay.evaluators.theoremqa import answer_clean

    return answer_clean(text or "").strip("\\(").strip("\\)").strip()
