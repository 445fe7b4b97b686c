"""P-MMEval's evaluators as OpenCompass 0.5.4 computes them (``PMMEvalFloresEvaluator``,
``PMMEvalMGSMEvaluator``, ``PMMEvalMHellaswagEvaluator``, ``PMMEvalMLogiQAEvaluator``,
``PMMEvalMMMLUEvaluator``, ``PMMEvalXNLIEvaluator``).

The multiple-choice ones receive ``(reply, language)`` pairs (the library's configs
pair them with ``pmmeval_*_postprocess``) and read the reply's letter with
:func:`pmmeval_choice`: the last ``"answer": "X"`` of a JSON-like answer, else
the first non-space character after the language's answer phrase.  Their
accuracies are percentages rounded to two decimals, as OpenCompass rounds them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = [
    "PMMEvalFloresEvaluator",
    "PMMEvalMGSMEvaluator",
    "PMMEvalMHellaswagEvaluator",
    "PMMEvalMLogiQAEvaluator",
    "PMMEvalMMMLUEvaluator",
    "PMMEvalXNLIEvaluator",
    "pmmeval_choice",
    "pmmeval_last_number",
]

#: The phrases announcing the answer, per language code, tried in this order (the first
#: one found in the reply is the one read); MMMLU's codes are its region codes.
ANSWER_PHRASES: dict[str, tuple[str, ...]] = {
    "fr": ("La réponse est", "la réponse est"),
    "en": ("the answer is", "The answer is"),
    "vi": ("Câu trả lời là", "câu trả lời là"),
    "ar": ("الجواب هو",),
    "th": ("คำตอบคือ",),
    "zh": ("答案是",),
    "ko": ("답변은",),
    "pt": ("A resposta é",),
    "ja": ("答えは",),
    "es": ("La respuesta es",),
}
#: XNLI knows Indonesian too.
XNLI_PHRASES = {**ANSWER_PHRASES, "id": ("Jawaban adalah", "jawaban adalah")}
MMMLU_PHRASES = {region: ANSWER_PHRASES[code] for region, code in {
    "FR-FR": "fr", "EN-US": "en", "VI-VT": "vi", "AR-XY": "ar", "TH-TL": "th", "ZH-CN": "zh", "KO-KR": "ko",
    "PT-BR": "pt", "JA-JP": "ja", "ES-LA": "es"}.items()}

_JSON_ANSWERS = tuple(re.compile(p, re.DOTALL) for p in (
    r"\{\s*?\"answer\"\s*?\:\s*?\"?(A|B|C|D).*?\"?\s*?\}",
    r"\{\s*?['\"]answer['\"]\s*?\:\s*?['\"](A|B|C|D).*?['\"]\s*?\}",
    r"\"answer\"\s*:\s*\"?(A|B|C|D)\"?",
    r"['\"]answer['\"]\s*:\s*['\"](A|B|C|D)['\"]",
))


class UnknownLanguage(KeyError):
    """A reply's language has no answer phrase (OpenCompass stops on a KeyError there)."""


def pmmeval_choice(reply: str, lang: str, phrases: dict[str, tuple[str, ...]] = ANSWER_PHRASES) -> str | None:
    """The letter a reply gives, or ``None``.

    First the JSON-like forms, each pattern in turn, its last match winning
    (``{"answer": "B"}``, ``'answer': 'C'``; capitals A–D only).  Else the
    first of the language's phrases found in the reply (and not the whole
    reply): the first non-space character after its last occurrence, kept
    when it is one of ``ABCDabcd``.  A language without phrases raises
    :class:`UnknownLanguage` when the JSON forms find nothing.

    >>> pmmeval_choice('{"answer": "C"}', 'en'), pmmeval_choice('So the answer is b.', 'en')
    ('C', 'b')
    >>> pmmeval_choice('The answer is: A', 'en') is None
    True
    """
    for pattern in _JSON_ANSWERS:
        found = pattern.findall(reply)
        if found:
            return str(found[-1])
    if lang not in phrases:
        raise UnknownLanguage(lang)
    letter = None
    for phrase in phrases[lang]:
        if phrase in reply and phrase != reply:
            rest = reply.split(phrase)[-1].strip()
            letter = rest[0] if rest else None
            break
    return letter if letter is not None and letter in "ABCDabcd" else None


def _first_capital(reply: str) -> str | None:
    """The first of ``A``, ``B``, ``C``, ``D`` the reply contains anywhere (in that order of letters)."""
    return next((option for option in "ABCD" if option in reply), None)


def _pairs(evaluator: object, predictions: Sequence[Any]) -> list[tuple[str, str]] | dict[str, Any]:
    """The ``(reply, language)`` pairs, or an error record naming the first sample that is not one."""
    name = type(evaluator).__name__
    pairs = []
    for i, pair in enumerate(predictions):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            return {"error": f"{name}: sample {i}: the prediction {str(pair)[:80]!r} is not a (reply, language) pair; "
                             "the library's configs make one with their pmmeval_*_postprocess"}
        pairs.append((pair[0], pair[1]))
    return pairs


def _accuracy(results: list[dict[str, Any]]) -> float:
    return round(sum(r["acc"] for r in results) / len(results) * 100, 2)


def _unknown_language(evaluator: object, i: int, lang: str) -> dict[str, Any]:
    return {"error": f"{type(evaluator).__name__}: sample {i}: no answer phrase is known for language {lang!r} "
                     "(OpenCompass stops here with a KeyError)"}


_OUTCOME = SampleOutcome(correct="acc", decimals=2)


@ICL_EVALUATORS.register_module()
class PMMEvalMMMLUEvaluator(BaseEvaluator):
    """MMMLU's letter: :func:`pmmeval_choice` (region codes such as ``'EN-US'``), else the first
    capital A–D anywhere in the reply; compared with the reference letter ignoring case.

    Metric: ``accuracy`` (percent, two decimals).  Details: ``acc`` and ``failed``
    (1.0 when no letter was found; the sample counts as wrong) and
    ``extracted_answer`` — the reply itself, ``'no answer'`` when it is empty.

    >>> PMMEvalMMMLUEvaluator().score([('{"answer": "B"}', 'EN-US'), ('maybe D', 'EN-US')], ['B', 'C'])['accuracy']
    50.0
    """

    sample_outcome = _OUTCOME

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        pairs = _pairs(self, predictions)
        if isinstance(pairs, dict):
            return pairs
        results = []
        for i, ((reply, lang), ref) in enumerate(zip(pairs, references)):
            try:
                answer = pmmeval_choice(reply, lang, MMMLU_PHRASES)
            except UnknownLanguage:
                return _unknown_language(self, i, lang)
            if answer is None:
                answer = _first_capital(reply)
            acc = 0.0 if answer is None else float(str(ref).lower() == answer.lower())
            results.append({"acc": acc, "failed": 1.0 if answer is None else 0.0,
                            "extracted_answer": reply if reply else "no answer"})
        return {"accuracy": _accuracy(results), "details": results}


class _LabelledChoice(BaseEvaluator):
    """The shared reading of mHellaSwag, mLogiQA and XNLI: strict letter, else (where allowed) the first capital."""

    sample_outcome = _OUTCOME
    phrases: dict[str, tuple[str, ...]] = ANSWER_PHRASES

    def answer(self, ref: Any, i: int) -> str | dict[str, Any]:
        return str(ref)

    def fallback(self, reply: str, choice: None, i: int) -> str | dict[str, Any] | None:
        return _first_capital(reply)

    def shown(self, reply: str, choice: str | None) -> str:
        return choice if choice else "no answer"

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        pairs = _pairs(self, predictions)
        if isinstance(pairs, dict):
            return pairs
        results = []
        for i, ((reply, lang), ref) in enumerate(zip(pairs, references)):
            answer = self.answer(ref, i)
            if isinstance(answer, dict):
                return answer
            try:
                choice = pmmeval_choice(reply, lang, self.phrases)
            except UnknownLanguage:
                return _unknown_language(self, i, lang)
            failed = 1.0 if choice is None else 0.0
            failed_strict = 0.0
            read: str | None = choice
            if choice is None:
                fuzzy = self.fallback(reply, choice, i)
                if isinstance(fuzzy, dict):
                    return fuzzy
                read = fuzzy
                failed_strict = 1.0 if fuzzy is None else 0.0
            acc = 0.0 if read is None else float(answer.lower() == read.lower())
            results.append({"acc": acc, "failed": failed, "failed_strict": failed_strict,
                            "extracted_answer": self.shown(reply, choice if choice is not None else read)})
        return {"accuracy": _accuracy(results), "details": results}


def _label_letter(evaluator: object, ref: Any, i: int) -> str | dict[str, Any]:
    """``chr(int(label) + 65)``: label 0 is A."""
    try:
        return chr(int(ref) + 65)
    except (TypeError, ValueError, OverflowError):
        return {"error": f"{type(evaluator).__name__}: sample {i}: the reference label {ref!r} is not a number"}


@ICL_EVALUATORS.register_module()
class PMMEvalMHellaswagEvaluator(_LabelledChoice):
    """mHellaSwag: the reference is the number of the right ending (0 is A); the reply's letter is
    :func:`pmmeval_choice`'s, else the first capital A–D anywhere in it; compared ignoring case.

    Metric: ``accuracy`` (percent, two decimals).  Details: ``acc``, ``failed``
    (no strict letter), ``failed_strict`` (no letter at all) and
    ``extracted_answer`` — the reply itself, ``'no answer'`` when it is empty.

    >>> PMMEvalMHellaswagEvaluator().score([('The answer is C', 'en'), ('D', 'en')], [2, '3'])['accuracy']
    100.0
    """

    def answer(self, ref: Any, i: int) -> str | dict[str, Any]:
        return _label_letter(self, ref, i)

    def shown(self, reply: str, choice: str | None) -> str:
        return reply if reply else "no answer"


@ICL_EVALUATORS.register_module()
class PMMEvalMLogiQAEvaluator(_LabelledChoice):
    """mLogiQA: the reference is the number of the right option (0 is A); the reply's letter is
    :func:`pmmeval_choice`'s, compared ignoring case.

    OpenCompass 0.5.4 looks for a fallback letter in the *extracted* answer, which
    is ``None`` exactly when a fallback is needed: it stops on a ``TypeError``, so
    a dataset with any reply :func:`pmmeval_choice` cannot read gets no score.
    Here that is an error record naming the sample.

    Metric: ``accuracy`` (percent, two decimals).  Details: ``acc``, ``failed``,
    ``failed_strict`` (both 0.0 for every scored sample) and
    ``extracted_answer`` — the letter read.

    >>> PMMEvalMLogiQAEvaluator().score([('{"answer": "A"}', 'zh'), ('答案是 B', 'zh')], [0, 0])['accuracy']
    50.0
    >>> PMMEvalMLogiQAEvaluator().score([('no letter here', 'en')], [0])['error']  # doctest: +ELLIPSIS
    "PMMEvalMLogiQAEvaluator: sample 0: no answer read from 'no letter here'; ..."
    """

    def answer(self, ref: Any, i: int) -> str | dict[str, Any]:
        return _label_letter(self, ref, i)

    def fallback(self, reply: str, choice: None, i: int) -> str | dict[str, Any] | None:
        return {"error": f"PMMEvalMLogiQAEvaluator: sample {i}: no answer read from {reply[:80]!r}; OpenCompass 0.5.4 then "
                         "searches the missing answer for a letter and stops with a TypeError, so the dataset has no score"}


@ICL_EVALUATORS.register_module()
class PMMEvalXNLIEvaluator(_LabelledChoice):
    """XNLI: the reference is the letter itself; the reply's letter is :func:`pmmeval_choice`'s
    (Indonesian's phrase known too), else the first capital A–D anywhere in it; compared
    ignoring case.

    Metric: ``accuracy`` (percent, two decimals).  Details: ``acc``, ``failed``,
    ``failed_strict`` and ``extracted_answer`` — the letter read, ``'no answer'``
    when none.

    >>> PMMEvalXNLIEvaluator().score([('Jawaban adalah B', 'id'), ('?', 'id')], ['B', 'A'])['accuracy']
    50.0
    """

    phrases = XNLI_PHRASES


_LAST_NUMBER = re.compile(r"([+-])?(?=([0-9]|\.[0-9]))(0|([1-9](\d{0,2}(,\d{3})*)|\d*))?(\.\d*)?(?=\D|$)")


def pmmeval_last_number(reply: str) -> str | None:
    """The last number of a reply as P-MMEval's MGSM reads it: thousands commas and ``+`` signs
    dropped, then surrounding spaces and dots stripped; ``None`` without one.

    >>> pmmeval_last_number('3 apples, so 1,234.'), pmmeval_last_number('+7.50'), pmmeval_last_number('none')
    ('1234', '7.50', None)
    """
    found = None
    for match in _LAST_NUMBER.finditer(reply):
        found = match
    if found is None:
        return None
    return found.group().replace(",", "").replace("+", "").strip().strip(".")


@ICL_EVALUATORS.register_module()
class PMMEvalMGSMEvaluator(BaseEvaluator):
    """MGSM: the reply's last number (:func:`pmmeval_last_number`) equals the reference with its
    commas dropped, as text (``'18.0'`` is not ``'18'``).

    Metric: ``accuracy`` (percent, two decimals).  Details: ``references``
    (without commas), ``predictions`` (the reply), ``extracted`` and ``correct``.

    >>> PMMEvalMGSMEvaluator().score(['So 1,018.', 'It is 3.5'], ['1,018', '4'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct", decimals=2)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        details: list[dict[str, Any]] = []
        right = 0
        for i, (reply, ref) in enumerate(zip(predictions, references)):
            if not isinstance(reply, str) or not isinstance(ref, str):
                return {"error": f"PMMEvalMGSMEvaluator: sample {i}: the reply and the reference must be text, "
                                 f"got {type(reply).__name__} and {type(ref).__name__} ({str(ref)[:40]!r})"}
            extracted = pmmeval_last_number(reply)
            reference = ref.replace(",", "")
            right += reference == extracted
            details.append({"references": reference, "predictions": reply, "extracted": extracted,
                            "correct": reference == extracted})
        return {"accuracy": round(right / len(details) * 100, 2), "details": details}


def _tokenized(text: str, lang: str) -> str:
    """A line as P-MMEval tokenizes it before BLEU: its non-blank lines joined, the language's
    tokenizer (sacrebleu's Chinese one; characters of CJK, Hangul and Thai spaced out for
    Japanese, Korean and Thai; white space collapsed otherwise), then sacrebleu's 13a."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    text = "\n".join(line.strip() for line in text.strip().split("\n") if line.strip() != "")
    if lang == "Chinese":
        text = TokenizerZh()(text)
    elif lang in {"Japanese", "Korean", "Thai"}:
        text = " ".join("".join(f" {ch} " if _SPACED.match(ch) else ch for ch in text.strip()).strip().split())
    else:
        text = " ".join(text.strip().split())
    return str(Tokenizer13a()(text))


_SPACED = re.compile("([\u2e80-\u9fff]|[\ua960-\ua97f]|[\uac00-\ud7ff]|[\u0E00-\u0E7F])")


def _best_bleu(reply: str, ref: str, lang: str) -> Any:
    """The sentence BLEU (13a, effective order) of the best run of consecutive non-blank lines of the reply."""
    from sacrebleu.metrics import BLEU

    lines = [_tokenized(line, lang) for line in (x.strip() for x in reply.split("\n")) if line != ""]
    reference = _tokenized(ref, lang)
    scorer = BLEU(tokenize="13a", effective_order=True)
    best = None
    for i in range(len(lines)):
        for j in range(i, len(lines)):
            candidate = scorer.sentence_score(" ".join(lines[i:j + 1]), [reference])
            if best is None or candidate.score > best.score:
                best = candidate
    return best if best is not None else scorer.sentence_score("", [reference])


@ICL_EVALUATORS.register_module()
class PMMEvalFloresEvaluator(BaseEvaluator):
    """FLORES translation: per reply, the run of consecutive lines with the best sentence BLEU
    against the reference (both tokenized for the target language, see
    :func:`_tokenized`); the corpus BLEU of those best runs' n-gram counts and lengths.

    Inputs: ``(reply, language name)`` pairs (``pmmeval_flores_postprocess``) and
    references.  Metric: ``BLEU`` (0–100, two decimals).  Details (assay's;
    OpenCompass gives none): ``pred`` (the pair), ``answer`` and
    ``sentence_bleu`` (the best run's sentence BLEU, which the corpus BLEU is
    not the mean of; declared as the per-sample score, it backs no metric of
    the result).

    >>> result = PMMEvalFloresEvaluator().score([('noise\\nthe cat sat on the mat', 'English')], ['the cat sat on the mat'])
    >>> result['BLEU'], round(result['details'][0]['sentence_bleu'], 6)
    (100.0, 100.0)
    """

    sample_outcome = SampleOutcome(scores={"sentence_bleu": "sentence_bleu"})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from sacrebleu.metrics import BLEU

        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        pairs = _pairs(self, predictions)
        if isinstance(pairs, dict):
            return pairs
        for i, ref in enumerate(references):
            if not isinstance(ref, str):
                return {"error": f"PMMEvalFloresEvaluator: sample {i}: the reference is {type(ref).__name__}, not text"}
        best = [_best_bleu(reply, ref, lang) for (reply, lang), ref in zip(pairs, references)]
        counts = [sum(b.counts[n] for b in best) for n in range(4)]
        totals = [sum(b.totals[n] for b in best) for n in range(4)]
        corpus = BLEU.compute_bleu(correct=counts, total=totals, sys_len=sum(b.sys_len for b in best),
                                   ref_len=sum(b.ref_len for b in best))
        details = [{"pred": pair, "answer": ref, "sentence_bleu": b.score} for pair, ref, b in zip(pairs, references, best)]
        return {"BLEU": round(corpus.score, 2), "details": details}
