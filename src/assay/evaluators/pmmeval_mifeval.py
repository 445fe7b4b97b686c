"""P-MMEval's multilingual instruction following as OpenCompass 0.5.4 scores it (``PMMEvalMIFEvalEvaluator``).

Each test row names its instructions (``instruction_id_list``: ``'<group>:<name>'``)
and their options (``kwargs``: a list of dicts).  As in OpenCompass, the options of
*all* the row's dicts are merged, later ones winning, and every instruction is
checked with that one merged set.  The strict reading leaves out options whose
value is ``None``; the loose reading keeps them, so a ``None`` can replace an
earlier value — and where a checker then cannot compare (OpenCompass stops with
a ``TypeError`` or ``AttributeError``) the result is an error record naming the
sample.  The loose reading checks the reply itself once any of its trimmed
variants (first or last line dropped, ``*`` removed) is not blank: the same
verdict as the strict one, up to those ``None`` options.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["PMMEvalMIFEvalEvaluator"]


def _repeat_prompt(input_string: str, prompt_to_repeat: str, **_: Any) -> bool:
    return input_string.strip().lower().startswith(prompt_to_repeat.strip().lower())


def _two_responses(input_string: str, **_: Any) -> bool:
    parts = input_string.split("******")
    kept = []
    for i, part in enumerate(parts):
        if part.strip():
            kept.append(part)
        elif 0 < i < len(parts) - 1:
            return False
    return len(kept) == 2 and kept[0].strip() != kept[1].strip()


def _number_placeholders(input_string: str, num_placeholders: int, **_: Any) -> bool:
    return len(re.findall(r"\[.*?\]", input_string)) >= num_placeholders


def _postscript(input_string: str, postscript_marker: str, **_: Any) -> bool:
    return bool(re.findall(r"\s*" + postscript_marker.lower() + r".*$", input_string.lower(), flags=re.MULTILINE))


#: The replies ``constrained_response`` accepts, per language.
CONSTRAINED = {
    "ar": ("إجابتي هي نعم.", "إجابتي هي لا.", "إجابتي هي ربما."),
    "es": ("Mi respuesta es sí.", "Mi respuesta es no.", "Mi respuesta es tal vez."),
    "fr": ("Ma réponse est oui.", "Ma réponse est non.", "Ma réponse est peut-être."),
    "ja": ("私の答えははいです。", "私の答えはいいえです。", "私の答えはたぶんです。"),
    "ko": ("제 대답은 예입니다.", "제 대답은 아닙니다.", "제 대답은 아마도입니다."),
    "pt": ("Minha resposta é sim.", "Minha resposta é não.", "Minha resposta é talvez."),
    "th": ("คำตอบของฉันคือใช่", "คำตอบของฉันคือไม่", "คำตอบของฉันคืออาจจะ"),
    "vi": ("Câu trả lời của tôi là có.", "Câu trả lời của tôi là không.", "Câu trả lời của tôi là có thể."),
    "en": ("My answer is yes.", "My answer is no.", "My answer is maybe."),
    "zh": ("我的答案是是。", "我的答案是否。", "我的答案是不确定。"),
}


def _constrained_response(input_string: str, lang_code: str, **_: Any) -> bool:
    return any(reply in input_string for reply in CONSTRAINED[lang_code])


def _number_bullet_lists(input_string: str, num_bullets: int, **_: Any) -> bool:
    stars = re.findall(r"^\s*\*[^\*].*$", input_string, flags=re.MULTILINE)
    dashes = re.findall(r"^\s*-.*$", input_string, flags=re.MULTILINE)
    return len(stars) + len(dashes) == num_bullets


def _number_highlighted_sections(input_string: str, num_highlights: int, **_: Any) -> bool:
    single = sum(1 for h in re.findall(r"\*[^\n\*]*\*", input_string) if h.strip("*").strip())
    double = sum(1 for h in re.findall(r"\*\*[^\n\*]*\*\*", input_string) if h[2:-2].strip())
    return single + double >= num_highlights


def _title(input_string: str, **_: Any) -> bool:
    return any(t.lstrip("<").rstrip(">").strip() for t in re.findall(r"<<[^\n]+>>", input_string))


def _drop_prefix(s: str, prefix: str) -> str:
    return s[len(prefix):] if s.startswith(prefix) else s


def _json_format(input_string: str, **_: Any) -> bool:
    value = input_string.strip()
    for fence in ("```json", "```Json", "```JSON", "```"):
        value = _drop_prefix(value, fence)
    if value.endswith("```"):
        value = value[:-3]
    try:
        json.loads(value.strip())
    except ValueError:
        return False
    return True


def _forbidden_words(input_string: str, forbidden_words: list[str], **_: Any) -> bool:
    return not any(word in input_string for word in forbidden_words)


def _paragraphs(parts: list[str]) -> list[str]:
    return [p.strip() for p in parts if p.strip() != ""]


def _nth_paragraph_first_word(input_string: str, num_paragraphs: int, nth_paragraph: int, first_word: str,
                              lang_code: str, **_: Any) -> bool:
    """Enough paragraphs (split at blank lines); the first word is not checked (OpenCompass empties it)."""
    paragraphs = _paragraphs(re.split(r"\n\n", input_string))
    if len(paragraphs) < num_paragraphs or len(paragraphs) < nth_paragraph:
        return False
    paragraphs.__getitem__(nth_paragraph - 1)  # an index out of range stops OpenCompass
    return True


def _number_paragraphs(input_string: str, num_paragraphs: int, **_: Any) -> bool:
    return len(_paragraphs(re.split(r"\s?\*\*\*\s?", input_string))) == num_paragraphs


def _compare(count: int, relation: str, limit: int) -> bool | None:
    if relation == "less than":
        return count <= limit
    if relation == "at least":
        return count >= limit
    return None  # any other relation: no verdict, read as not followed


def _number_sentences(input_string: str, relation: str, num_sentences: int, lang_code: str, **_: Any) -> bool | None:
    lines = [x.strip() for x in input_string.strip().split("\n")]
    return _compare(len([x for x in lines if x != ""]), relation, num_sentences)


#: Languages whose words are counted between spaces; in the others each non-space character counts.
SPACED_LANGUAGES = ("en", "es", "fr", "in", "pt", "ru", "vi")


def _number_words(input_string: str, relation: str, num_words: int, lang_code: str, **_: Any) -> bool | None:
    count = len(input_string.split()) if lang_code in SPACED_LANGUAGES else len("".join(input_string.split()))
    return _compare(count, relation, num_words)


_COMMAS = {"ar": "[\u060C]", "es": "[,\uFF0C]", "fr": "[,\u2026]", "ja": "[,\u3001]", "ko": "[,]", "pt": "[,\uFF0C]",
           "th": "[\u0E25]", "vi": "[,\uFF0C]", "en": "[,]", "zh": "[,，]"}


def _no_comma(input_string: str, lang_code: str, **_: Any) -> bool:
    return not re.search(_COMMAS[lang_code], input_string)


def _end_checker(input_string: str, end_phrase: str, **_: Any) -> bool:
    return input_string.strip().endswith(end_phrase)


def _quotation(input_string: str, lang_code: str, **_: Any) -> bool:
    s = input_string.strip()
    return ((s.startswith('"') and s.endswith('"'))
            or (lang_code in ("ar", "es", "fr", "pt", "ru") and s.startswith("«") and s.endswith("»"))
            or (lang_code in ("ar", "es", "fr", "ko", "pt", "th", "vi", "zh") and s.startswith("“") and s.endswith("”"))
            or (lang_code == "ja" and s.startswith("『") and s.endswith("』")))


#: group → name → (checker, whether it is given the language code)
CHECKERS: dict[str, dict[str, tuple[Callable[..., Any], bool]]] = {
    "combination": {"repeat_prompt": (_repeat_prompt, False), "two_responses": (_two_responses, False)},
    "detectable_content": {"number_placeholders": (_number_placeholders, False), "postscript": (_postscript, False)},
    "detectable_format": {"constrained_response": (_constrained_response, True), "json_format": (_json_format, False),
                          "number_bullet_lists": (_number_bullet_lists, False),
                          "number_highlighted_sections": (_number_highlighted_sections, False), "title": (_title, False)},
    "keywords": {"forbidden_words": (_forbidden_words, False)},
    "length_constraints": {"nth_paragraph_first_word": (_nth_paragraph_first_word, True),
                           "number_paragraphs": (_number_paragraphs, False), "number_sentences": (_number_sentences, True),
                           "number_words": (_number_words, True)},
    "punctuation": {"no_comma": (_no_comma, True)},
    "startend": {"end_checker": (_end_checker, False), "quotation": (_quotation, True)},
}


class _Stop(Exception):
    """Where OpenCompass stops with an exception."""


def _followed(row: dict[str, Any], reply: str, lang: str, *, keep_none: bool) -> float:
    """1.0 when every instruction of the row is followed, else 0.0."""
    verdicts = []
    for instruction in row["instruction_id_list"]:
        parts = str(instruction).split(":")
        if len(parts) != 2 or parts[0] not in CHECKERS or parts[1] not in CHECKERS[parts[0]]:
            raise _Stop(f"instruction {instruction!r} is not one P-MMEval's mIFEval knows")
        checker, wants_lang = CHECKERS[parts[0]][parts[1]]
        args: dict[str, Any] = {"lang_code": lang} if wants_lang else {}
        for options in row["kwargs"]:
            args.update({k: v for k, v in options.items() if keep_none or v is not None})
        args["input_string"] = reply
        if not reply.strip():
            verdicts.append(False)
            continue
        try:
            verdicts.append(bool(checker(**args)))
        except (TypeError, AttributeError, KeyError, IndexError, re.error) as exc:
            raise _Stop(f"instruction {instruction!r} with options {args | {'input_string': '…'}!r} "
                        f"cannot be checked: {type(exc).__name__}: {exc}") from None
    return 1.0 if all(verdicts) else 0.0


@ICL_EVALUATORS.register_module()
class PMMEvalMIFEvalEvaluator(BaseEvaluator):
    """Instruction following in ten languages: a reply counts when it follows every instruction of its row.

    Inputs: ``(reply, language code)`` pairs (``pmmeval_mifeval_postprocess``) and the
    test set (``instruction_id_list``, ``kwargs``); no references.  Metrics:
    ``strict_acc`` and ``loose_acc`` (percent, two decimals; see the module's
    docstring for the two readings).  Details (assay's; OpenCompass gives none):
    ``strict_acc`` and ``loose_acc`` per sample (1.0 or 0.0).  An empty reply
    follows nothing.  A ``nth_paragraph_first_word`` instruction checks only the
    number of paragraphs: OpenCompass empties the first word before comparing.

    >>> rows = [{'instruction_id_list': ['punctuation:no_comma'], 'kwargs': [{}]}]
    >>> PMMEvalMIFEvalEvaluator().score([('no commas here', 'en')], None, rows)['strict_acc']
    100.0
    """

    sample_outcome = SampleOutcome(scores={"strict_acc": "strict_acc", "loose_acc": "loose_acc"}, decimals=2)

    def score(self, predictions: list[Any], references: Any, test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set]
        if len(rows) != len(predictions):
            return {"error": f"{name}: the test set has {len(rows)} rows for {len(predictions)} predictions"}
        details = []
        for i, (pair, row) in enumerate(zip(predictions, rows)):
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                return {"error": f"{name}: sample {i}: the prediction {str(pair)[:80]!r} is not a (reply, language) pair; "
                                 "the library's configs make one with pmmeval_mifeval_postprocess"}
            if not isinstance(row.get("instruction_id_list"), list) or not isinstance(row.get("kwargs"), list) \
                    or not all(isinstance(k, dict) for k in row["kwargs"]):
                return {"error": f"{name}: sample {i}: the test set's row lacks an instruction_id_list and a kwargs list of dicts"}
            reply, lang = pair
            try:
                strict = _followed(row, reply, lang, keep_none=False)
                loose = _followed(row, reply, lang, keep_none=True)
            except _Stop as exc:
                return {"error": f"{name}: sample {i}: {exc} (OpenCompass stops here)"}
            details.append({"strict_acc": strict, "loose_acc": loose})
        n = len(details)
        return {"strict_acc": round(sum(d["strict_acc"] for d in details) / n * 100, 2),
                "loose_acc": round(sum(d["loose_acc"] for d in details) / n * 100, 2), "details": details}
