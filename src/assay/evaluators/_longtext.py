"""Text measures of the long-context evaluators (private): LongBench's and LV-Eval's normalizers,
token F1, the ``rouge`` package's ROUGE-L F and ``fuzzywuzzy``'s ratio, as OpenCompass 0.5.4 uses them.

Nothing here imports ``jieba`` or ``rapidfuzz`` until a function needs them.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from typing import Any

__all__: list[str] = []

_PUNCT = frozenset(string.punctuation)
# The Chinese punctuation OpenCompass removes; its source string is continued with a backslash
# inside the literal, so the indentation of the next line (spaces) is part of the set as well.
_ZH_PUNCT = frozenset(
    string.punctuation
    + "！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀"
    + "            ｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏."
)
_ARTICLES = re.compile(r"\b(a|an|the)\b")

#: Python's default recursion limit, which bounds the ``rouge`` package's recursive LCS walk.
RECURSION_LIMIT = 1000
#: Frames on the stack when the ``rouge`` package starts its recursive LCS walk under OpenCompass: 6 up
#: to the evaluator's ``score`` in OpenCompass 0.5.4's eval task run as its runners run it (``python
#: opencompass/tasks/openicl_eval.py <config>``, a process of its own; measured by
#: ``scripts/record_oc_longbench.py``), then ``get_scores``, ``_get_avg_scores``, the metric's lambda,
#: ``rouge_l_summary_level``, ``_union_lcs`` and ``_recon_lcs``: a sentence pair of 987 identical words
#: is scored there, one of 988 is not.  ``opencompass --debug`` runs the task inside its own process,
#: deeper, where the limit is reached a few words sooner.
SCORE_FRAMES = 6 + 6


def normalize_answer(text: str) -> str:
    """Lower-cased, ASCII punctuation removed, ``a``/``an``/``the`` removed, whitespace runs made one space.

    >>> normalize_answer('The  Cat, a dog!')
    'cat dog'
    """
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def normalize_zh_answer(text: str) -> str:
    """Lower-cased, ASCII and Chinese punctuation (and spaces) removed, all whitespace removed.

    >>> normalize_zh_answer('北京，是 首都。')
    '北京是首都'
    """
    return "".join("".join(ch for ch in text.lower() if ch not in _ZH_PUNCT).split())


def jieba_words(text: str) -> list[str]:
    """jieba's precise-mode segmentation (``jieba.cut(text, cut_all=False)``)."""
    import jieba

    return list(jieba.cut(text, cut_all=False))


def zh_tokens(text: str) -> list[str]:
    """jieba's words, each through :func:`normalize_zh_answer`, the empty ones dropped."""
    return [t for t in (normalize_zh_answer(w) for w in jieba_words(text)) if t]


def token_f1(prediction: Sequence[str], reference: Sequence[str]) -> float:
    """F1 of the two token multisets; ``0`` when they share no token.

    >>> token_f1(['a', 'b'], ['b', 'c'])
    0.5
    """
    common = Counter(prediction) & Counter(reference)
    same = sum(common.values())
    if same == 0:
        return 0
    precision = 1.0 * same / len(prediction)
    recall = 1.0 * same / len(reference)
    return (2 * precision * recall) / (precision + recall)


def _sentences(text: str) -> list[str]:
    return [" ".join(part.split()) for part in text.split(".") if len(part) > 0]


def _words(sentences: Sequence[str]) -> list[str]:
    return [w for s in sentences for w in s.split(" ")]


def _lcs_words(x: list[str], y: list[str], max_steps: int) -> set[str] | None:
    """The words of one longest common subsequence of ``x`` and ``y``, walked back from the end as the
    ``rouge`` package walks it (ties go to ``y``'s side); ``None`` when the walk takes more than
    ``max_steps`` steps (where the package's recursive walk exceeds the recursion limit)."""
    n, m = len(x), len(y)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        xi, row, prev = x[i - 1], table[i], table[i - 1]
        for j in range(1, m + 1):
            row[j] = prev[j - 1] + 1 if xi == y[j - 1] else max(prev[j], row[j - 1])
    words: set[str] = set()
    i, j, steps = n, m, 0
    while i and j:
        steps += 1
        if steps > max_steps:
            return None
        if x[i - 1] == y[j - 1]:
            words.add(x[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    if steps + 1 > max_steps:
        return None
    return words


def rouge_l_f(prediction: str, reference: str, *, frames: int = SCORE_FRAMES) -> float | None:
    """ROUGE-L F as ``Rouge().get_scores([prediction], [reference], avg=True)['rouge-l']['f']`` of the
    ``rouge`` package (1.0.1) computes it; ``None`` where that call raises.

    Texts are split into sentences at ``.``, words at single spaces; counts are of *distinct* words
    (the package's ``exclusive`` sets): the union over reference sentences of the words of one LCS
    with each predicted sentence, over the distinct words of each side, F with ``1e-8`` added to the
    denominator.  The call raises when either text has no sentence (``''``, ``'...'``) and when its
    recursive LCS walk (one frame per step) exceeds Python's recursion limit at the depth
    OpenCompass calls it from (``frames``).

    >>> round(rouge_l_f('the cat sat', 'the cat sat on the mat'), 6)
    0.75
    >>> rouge_l_f('...', 'x') is None
    True
    """
    scores = rouge_l_scores(prediction, reference, frames=frames)
    return None if scores is None else scores[2]


def rouge_l_scores(prediction: str, reference: str, *, frames: int = SCORE_FRAMES) -> tuple[float, float, float] | None:
    """The ``rouge`` package's ROUGE-L ``(r, p, f)`` of one pair (see :func:`rouge_l_f`); ``None`` where it raises.

    >>> [round(v, 6) for v in rouge_l_scores('the cat sat', 'the cat sat on the mat')]
    [0.6, 1.0, 0.75]
    """
    hyp, ref = _sentences(prediction), _sentences(reference)
    if not hyp or not ref:
        return None
    ref_total = len(set(_words(ref)))
    hyp_total = len(set(_words(hyp)))
    max_steps = RECURSION_LIMIT - frames
    union: set[str] = set()
    overlap = 0
    hyp_words = [s.split(" ") for s in hyp]
    for ref_sentence in ref:
        ref_words = ref_sentence.split(" ")
        before = len(union)
        for words in hyp_words:
            lcs = _lcs_words(ref_words, words, max_steps)
            if lcs is None:
                return None
            union |= lcs
        overlap += len(union) - before
    recall = overlap / ref_total
    precision = overlap / hyp_total
    return recall, precision, 2.0 * ((precision * recall) / (precision + recall + 1e-8))


def fuzz_ratio(a: Any, b: Any) -> int:
    """``fuzzywuzzy.fuzz.ratio`` (0.18, with python-Levenshtein): ``100`` for equal strings, ``0`` when
    one is empty or ``None``, else the Indel similarity × 100 rounded half to even.

    >>> fuzz_ratio('abcd', 'abce'), fuzz_ratio('', ''), fuzz_ratio('x', '')
    (75, 100, 0)
    """
    if a is None or b is None:
        return 0
    if a == b:
        return 100
    if len(a) == 0 or len(b) == 0:
        return 0
    from rapidfuzz.distance import Indel

    return round(100 * Indel.normalized_similarity(a, b))
