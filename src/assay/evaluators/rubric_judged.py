"""The judge-reply readers of rubric- and verdict-judged families, as OpenCompass 0.5.4 computes them.

Each dict postprocessor takes the judge's outputs — ``"0".."N-1"`` →
``origin_prompt``, ``prediction`` (the judge's reply), ``gold`` — as
``GenericLLMEvaluator`` hands them (with the judge's dataset, whose test rows
hold each sample's columns and its ``prediction``, where it asks for
``dataset``), and returns the metrics and details; the loaders are in
:mod:`assay.datasets.rubric_judged`.

* ``clbench_pred_postprocess`` (CL-bench's replies before the judge): the
  reply without trailing whitespace, cut to ``max_chars`` when given
  (``None``: ``''``);
* ``clbench_llmjudge_postprocess``: the reply's ``Overall Score`` — the reply
  without a Markdown code fence read as JSON (its ``Overall Score`` made an
  ``int``, 0 when it cannot be: ``"one"``; ``int("1")`` and ``int(1.9)`` are 1),
  else ``"Overall Score": 0|1`` anywhere, else ``0 point(s)``/``1 point(s)``,
  else 0 — is the sample's score when it is 1 (a ``2`` scores 0);
  ``accuracy`` (percent), ``solving_rate`` (fraction), ``correct_count``,
  ``total_count``, ``category_accuracy`` (per ``context_category``, else the
  metadata's, else ``Unknown``);
* ``aa_lcr_llmjudge_postprocess`` (AA-LCR): the reply, upper-cased, is
  ``INCORRECT`` when it holds that word, else ``CORRECT`` when it holds that
  word (so "not correct" is correct, "CORRECTLY" is unknown), else
  ``UNKNOWN``; ``accuracy`` (percent), ``correct_count``,
  ``incorrect_count``, ``unknown_count``, ``total`` and ``accuracy_<category>``
  per ``document_category`` (runs of non-word characters made ``_``);
* ``advancedif_rubric_postprocess`` (AdvancedIF): the JSON object holding
  ``SATISFIED_ALL_REQUIREMENTS`` — from the first ``{`` before it to the reply's
  last ``}`` — gives ``YES``/``NO`` (any case, spaces around) and the
  ``rubrics_check``; else ``"SATISFIED_ALL_REQUIREMENTS": "yes|no"`` anywhere
  gives the verdict (the checks stay those of a JSON object read before, else
  none); else ``PARSE_ERROR``.  ``accuracy`` = YES over all samples (percent),
  ``micro_pass_rate`` = checks whose answer contains ``yes`` (any case) over
  the checks of the samples with a verdict (percent), with the counts and
  ``parse_error_rate`` (a ``rubrics_check`` that is not an object counts no
  check: OpenCompass 0.5.4 stops with an ``AttributeError``);
* ``inverse_ifeval_judge_postprocess`` (Inverse IFEval): the score is the
  first ``answer_score`` of 0 or 1 (``0``, ``1``, ``"0"``, ``"1"``, also
  ``true``/``1.0``, which are 1 to Python) in a JSON code block or a
  ``{…answer_score…}`` object, else ``"answer_score": 1``-like text or
  ``评分：1分``, else none (a parse error); ``accuracy``, ``correct_count``,
  ``total``, ``parse_error_count``, ``parse_error_rate``, then per language,
  per instruction type (by its abbreviation: ``QC``, ``ITF``, …) and per both,
  ``<x>_accuracy`` and ``<x>_count``.  A code block holding JSON that is not an
  object is passed over (OpenCompass 0.5.4 stops with an ``AttributeError``).

``InverseIFEvalJudgePromptTemplate`` builds Inverse IFEval's judge messages:
a system message (the row's ``judge_system_prompt``) and a user message, the
row's ``judge_prompt_template`` (a default one when it is empty) with every
``{field}`` of the row, then ``{response}`` and ``{prediction}`` (the reply),
replaced in turn.

A judge request that failed after its retries (``prediction`` ``None``, which
OpenCompass never hands over: its evaluation stops) reads as an empty reply.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from assay.postprocess.chain import deterministic
from assay.registry import DICT_POSTPROCESSORS, ICL_PROMPT_TEMPLATES, TEXT_POSTPROCESSORS

__all__ = [
    "InverseIFEvalJudgePromptTemplate",
    "aa_lcr_judgement",
    "aa_lcr_llmjudge_postprocess",
    "advancedif_judgement",
    "advancedif_rubric_postprocess",
    "clbench_llmjudge_postprocess",
    "clbench_overall_score",
    "clbench_pred_postprocess",
    "inverse_ifeval_judge_postprocess",
    "inverse_ifeval_score",
]


def _reply(value: Mapping[str, Any]) -> str:
    reply = value.get("prediction")
    return reply if isinstance(reply, str) else ""


def _test_rows(dataset: Any) -> list[Any]:
    if dataset is None:
        return []
    try:
        return list(dataset.reader.dataset["test"])
    except (AttributeError, KeyError, TypeError):
        return []


def _by_number(output: Mapping[str, Any]) -> list[str]:
    return sorted(output, key=lambda k: int(k) if str(k).isdigit() else k)


# -- CL-bench -------------------------------------------------------------------------------------

@TEXT_POSTPROCESSORS.register_module("clbench_pred_postprocess")
@deterministic
def clbench_pred_postprocess(prediction: Any, max_chars: int | None = None) -> str:
    """A CL-bench reply without trailing whitespace, at most ``max_chars`` long when that is positive.

    >>> clbench_pred_postprocess('An answer.  \\n'), clbench_pred_postprocess('abcdef', max_chars=3), clbench_pred_postprocess(None)
    ('An answer.', 'abc', '')
    """
    if prediction is None:
        return ""
    text = str(prediction).rstrip()
    if max_chars is not None and max_chars > 0 and len(text) > max_chars:
        text = text[:max_chars]
    return text


def _without_fence(text: str) -> str:
    text = text.strip()
    if text.startswith("```json"):
        text = text[7:]
    elif text.startswith("```"):
        text = text[3:]
    if text.endswith("```"):
        text = text[:-3]
    return text.strip()


_CL_SCORE = re.compile(r'"?Overall Score"?\s*:\s*([01])', re.IGNORECASE)
_CL_POINTS = re.compile(r"\b([01])\s*points?\b", re.IGNORECASE)


def clbench_overall_score(reply: Any) -> int:
    """The ``Overall Score`` a CL-bench judge gave (0 when none can be read).

    >>> [clbench_overall_score(r) for r in ('{"Overall Score": 1}', '```json\\n{"Overall Score": "1"}\\n```',
    ...                                      '{"Overall Score": "one"}', 'Overall Score: 1', 'so 0 points', 'none')]
    [1, 1, 0, 1, 0, 0]
    """
    text = _without_fence(str(reply))
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict) and "Overall Score" in parsed:
        try:
            return int(parsed["Overall Score"])
        except (TypeError, ValueError, OverflowError):
            return 0
    for pattern in (_CL_SCORE, _CL_POINTS):
        match = pattern.search(text)
        if match:
            return int(match.group(1))
    return 0


@DICT_POSTPROCESSORS.register_module("clbench_llmjudge_postprocess")
def clbench_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """CL-bench's all-or-nothing rubric scores read from the judge's replies.

    Example:
        >>> from assay.evaluators.llm_judge import judge_dataset
        >>> rows = judge_dataset([dict(task_id='t0', context_category='Rules', prediction='a'), dict(metadata={})])
        >>> out = {'0': dict(prediction='{"Overall Score": 1}'), '1': dict(prediction='0 points')}
        >>> r = clbench_llmjudge_postprocess(out, None, rows)
        >>> r['accuracy'], r['category_accuracy']
        (50.0, {'Rules': 100.0, 'Unknown': 0.0})
    """
    rows = _test_rows(dataset) if dataset is not None else None
    details: list[dict[str, Any]] = []
    stats: dict[str, dict[str, int]] = defaultdict(lambda: {"correct": 0, "total": 0})
    correct = 0
    for key in _by_number(output):
        index = int(key) if str(key).isdigit() else len(details)
        reply = output[key].get("prediction", "")
        score = 1 if clbench_overall_score(reply if reply is not None else "") == 1 else 0
        sample = dict(rows[index]) if rows is not None and index < len(rows) else {}
        metadata = sample.get("metadata", {}) or {}
        category = sample.get("context_category") or metadata.get("context_category") or "Unknown"
        correct += score
        stats[category]["correct"] += score
        stats[category]["total"] += 1
        details.append({"task_id": sample.get("task_id") or metadata.get("task_id") or index, "context_category": category,
                        "pred": sample.get("prediction", ""), "rubrics": sample.get("rubrics", []),
                        "origin_grade_response": reply, "score": score, "correct": bool(score)})
    total = len(details)
    return {"accuracy": correct / total * 100 if total else 0, "solving_rate": correct / total if total else 0,
            "correct_count": correct, "total_count": total,
            "category_accuracy": {c: s["correct"] / s["total"] * 100 for c, s in stats.items() if s["total"]},
            "details": details}


# -- AA-LCR ---------------------------------------------------------------------------------------

_INCORRECT = re.compile(r"\bINCORRECT\b")
_CORRECT = re.compile(r"\bCORRECT\b")
_NON_WORD = re.compile(r"\W+")


def aa_lcr_judgement(reply: Any) -> str:
    """``CORRECT``, ``INCORRECT`` or ``UNKNOWN``: what an AA-LCR judge's reply says.

    >>> [aa_lcr_judgement(r) for r in ('Correct', 'not correct', 'Incorrect, not CORRECT', 'CORRECTLY', None)]
    ['CORRECT', 'CORRECT', 'INCORRECT', 'UNKNOWN', 'UNKNOWN']
    """
    text = reply.strip().upper() if isinstance(reply, str) else ""
    if _INCORRECT.search(text):
        return "INCORRECT"
    if _CORRECT.search(text):
        return "CORRECT"
    return "UNKNOWN"


@DICT_POSTPROCESSORS.register_module("aa_lcr_llmjudge_postprocess")
def aa_lcr_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """AA-LCR's accuracy over the judge's verdicts, overall and per document category.

    Example:
        >>> from assay.evaluators.llm_judge import judge_dataset
        >>> rows = judge_dataset([dict(document_category='Legal'), dict(document_category='Company Reports')])
        >>> r = aa_lcr_llmjudge_postprocess({'0': dict(prediction='CORRECT'), '1': dict(prediction='?')}, None, rows)
        >>> r['accuracy'], r['accuracy_Legal'], r['accuracy_Company_Reports'], r['unknown_count']
        (50.0, 100.0, 0.0, 1)
    """
    samples = _test_rows(dataset)
    details = []
    stats: dict[str, dict[str, int]] = defaultdict(lambda: {"correct": 0, "total": 0})
    counts = {"CORRECT": 0, "INCORRECT": 0, "UNKNOWN": 0}
    for key in sorted(output, key=int):
        idx = int(key)
        sample = dict(samples[idx]) if idx < len(samples) else {}
        reply = output[key].get("prediction", "")
        judgement = aa_lcr_judgement(reply)
        counts[judgement] += 1
        category = sample.get("document_category", "unknown")
        stats[category]["total"] += 1
        stats[category]["correct"] += judgement == "CORRECT"
        details.append({"id": idx, "question_id": sample.get("question_id"), "document_category": category,
                        "document_set_id": sample.get("document_set_id"), "question": sample.get("question"),
                        "gold": sample.get("answer"), "candidate_answer": sample.get("prediction"), "judge_response": reply,
                        "judgement": judgement, "correct": judgement == "CORRECT"})
    total = len(details)
    result: dict[str, Any] = {"accuracy": counts["CORRECT"] / total * 100 if total else 0, "correct_count": counts["CORRECT"],
                              "incorrect_count": counts["INCORRECT"], "unknown_count": counts["UNKNOWN"], "total": total,
                              "details": details}
    for category, s in stats.items():
        result["accuracy_" + _NON_WORD.sub("_", str(category)).strip("_")] = s["correct"] / s["total"] * 100 if s["total"] else 0
    return result


# -- AdvancedIF -----------------------------------------------------------------------------------

_ADV_OBJECT = re.compile(r'\{[\s\S]*?"SATISFIED_ALL_REQUIREMENTS"[\s\S]*\}', re.DOTALL)
_ADV_FLAT_OBJECT = re.compile(r'\{[^{}]*"SATISFIED_ALL_REQUIREMENTS"[^{}]*\}', re.DOTALL)
_ADV_VERDICT = re.compile(r'"SATISFIED_ALL_REQUIREMENTS"\s*:\s*"(YES|NO)"', re.IGNORECASE)


def advancedif_judgement(reply: Any) -> dict[str, Any]:
    """An AdvancedIF judge's verdict (``satisfied``: ``YES``, ``NO`` or ``PARSE_ERROR``) and its ``rubrics_check``.

    >>> advancedif_judgement('{"rubrics_check": {"q1": "Yes"}, "SATISFIED_ALL_REQUIREMENTS": " yes "}')['satisfied']
    'YES'
    >>> advancedif_judgement('x "SATISFIED_ALL_REQUIREMENTS": "no" {')['satisfied'], advancedif_judgement('')['satisfied']
    ('NO', 'PARSE_ERROR')
    """
    text = reply if isinstance(reply, str) else ""
    result: dict[str, Any] = {"satisfied": "PARSE_ERROR", "rubrics_check": {}, "raw_json": None}
    match = _ADV_OBJECT.search(text) or _ADV_FLAT_OBJECT.search(text)
    if match:
        try:
            parsed = json.loads(match.group())
        except json.JSONDecodeError:
            parsed = None
        if parsed is not None:
            result["raw_json"] = parsed
            result["rubrics_check"] = parsed.get("rubrics_check", {})
            satisfied = parsed.get("SATISFIED_ALL_REQUIREMENTS", "")
            if isinstance(satisfied, str) and satisfied.strip().upper() in ("YES", "NO"):
                result["satisfied"] = satisfied.strip().upper()
                return result
    verdict = _ADV_VERDICT.search(text)
    if verdict:
        result["satisfied"] = verdict.group(1).upper()
    return result


@DICT_POSTPROCESSORS.register_module("advancedif_rubric_postprocess")
def advancedif_rubric_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """AdvancedIF's pass rate over samples and over rubric checks, from the judge's JSON verdicts.

    Example:
        >>> out = {'0': dict(prediction='{"rubrics_check": {"a": "Yes", "b": "No"}, "SATISFIED_ALL_REQUIREMENTS": "NO"}'),
        ...        '1': dict(prediction='garbage')}
        >>> r = advancedif_rubric_postprocess(out)
        >>> r['accuracy'], r['micro_pass_rate'], r['parse_error_rate']
        (0.0, 50.0, 50.0)
    """
    details = []
    correct = parse_errors = rubrics = passed = 0
    for value in output.values():
        reply = value.get("prediction", "")
        judgement = advancedif_judgement(reply)
        satisfied, checks = judgement["satisfied"], judgement["rubrics_check"]
        if satisfied == "YES":
            correct += 1
        elif satisfied == "PARSE_ERROR":
            parse_errors += 1
        if satisfied in ("YES", "NO") and isinstance(checks, dict):
            for decision in checks.values():
                rubrics += 1
                passed += isinstance(decision, str) and "yes" in decision.lower()
        details.append({"prediction": reply, "satisfied": satisfied, "rubrics_check": checks, "correct": satisfied == "YES"})
    total = len(details)
    return {"accuracy": correct / total * 100 if total else 0, "micro_pass_rate": passed / rubrics * 100 if rubrics else 0,
            "correct_count": correct, "total": total, "total_rubrics": rubrics, "passed_rubrics": passed,
            "parse_error_count": parse_errors, "parse_error_rate": parse_errors / total * 100 if total else 0,
            "details": details}


# -- Inverse IFEval -------------------------------------------------------------------------------

_IIF_ABBR = {"Question Correction": "QC", "Intentional Textual Flaws": "ITF", "Code without Comments": "CC",
             "Counter-Conventional Formatting": "CCF", "Deliberately Incorrect Answers": "DIA", "Instructional Induction": "II",
             "Mid-turn Instruction Modification": "MIM", "Counterfactual Answering": "CA"}
_IIF_DEFAULT_TEMPLATE = "<题目>：\n{prompt}\n\n<标准答案>：\n{response_reference}\n\n<学生答案>：\n{response}"


@ICL_PROMPT_TEMPLATES.register_module()
class InverseIFEvalJudgePromptTemplate:
    """Inverse IFEval's judge messages, built from each row's own judge template and system prompt.

    Example:
        >>> InverseIFEvalJudgePromptTemplate().generate_item(
        ...     {'prompt': 'Q', 'judge_prompt_template': '{prompt} / {response}', 'judge_system_prompt': 'S', 'prediction': 'A'})
        [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'Q / A'}]
    """

    #: OpenCompass's dotted name of the class, which a dataset's ``version`` hashes.
    opencompass_name = "opencompass.datasets.inverse_ifeval.InverseIFEvalJudgePromptTemplate"
    prompt_type = "raw_messages"
    sep_token = None
    ice_token = "</E>"

    def generate_item(self, entry: Mapping[str, Any], output_field: Any = None, output_field_replace_token: str = "",
                      ice_field_replace_token: str = "") -> list[dict[str, str]]:
        """The system and user messages of one row (``entry``: its fields, in order, and ``prediction``)."""
        values = dict(entry)
        values["response"] = entry.get("prediction", "")
        values["prediction"] = entry.get("prediction", "")
        text = entry.get("judge_prompt_template", "") or _IIF_DEFAULT_TEMPLATE
        for key, value in values.items():
            text = text.replace("{" + str(key) + "}", str(value))
        return [{"role": "system", "content": entry.get("judge_system_prompt", "")}, {"role": "user", "content": text}]


_IIF_BLOCK = re.compile(r"```(?:json)?\s*([\s\S]*?)```", re.IGNORECASE)
_IIF_OBJECT = re.compile(r"\{[\s\S]*?answer_score[\s\S]*?\}")
_IIF_PATTERNS = (re.compile(r'"answer_score"\s*:\s*"?([01])"?'), re.compile(r'answer_score\s*[:：]\s*"?([01])"?'),
                 re.compile(r"【评分】\s*[:：]\s*([01])\s*分"), re.compile(r"评分\s*[:：]\s*([01])\s*分"))


def inverse_ifeval_score(reply: Any) -> Any:
    """The ``answer_score`` (0 or 1) an Inverse IFEval judge gave, ``None`` when none can be read.

    >>> [inverse_ifeval_score(r) for r in ('```json\\n{"answer_score": 1}\\n```', '{"answer_score": "0"}', '评分：1分',
    ...                                     '{"answer_score": 2}', '', None)]
    [1, 0, 1, None, None, None]
    """
    if not isinstance(reply, str) or not reply.strip():
        return None
    for candidate in _IIF_BLOCK.findall(reply) + _IIF_OBJECT.findall(reply):
        try:
            parsed = json.loads(candidate.strip())
        except json.JSONDecodeError:
            continue
        if not isinstance(parsed, dict):
            continue
        score = parsed.get("answer_score")
        if score in (0, 1):
            return score
        if isinstance(score, str) and score.strip() in ("0", "1"):
            return int(score.strip())
    for pattern in _IIF_PATTERNS:
        match = pattern.search(reply)
        if match:
            return int(match.group(1))
    return None


def _bucket() -> dict[str, int]:
    return {"total": 0, "correct": 0, "parse_error": 0}


def _count(bucket: dict[str, int], score: Any) -> None:
    bucket["total"] += 1
    if score == 1:
        bucket["correct"] += 1
    elif score is None:
        bucket["parse_error"] += 1


def _accuracy(bucket: dict[str, int]) -> float:
    return bucket["correct"] / bucket["total"] * 100 if bucket["total"] else 0.0


@DICT_POSTPROCESSORS.register_module("inverse_ifeval_judge_postprocess")
def inverse_ifeval_judge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """Inverse IFEval's accuracy over the judge's scores, overall, per language and per instruction type.

    Example:
        >>> from assay.evaluators.llm_judge import judge_dataset
        >>> rows = judge_dataset([dict(language='english', instruction_types='Question Correction')] * 2)
        >>> r = inverse_ifeval_judge_postprocess({'0': dict(prediction='{"answer_score": 1}'), '1': dict(prediction='?')}, None, rows)
        >>> r['accuracy'], r['QC_accuracy'], r['english_QC_count'], r['parse_error_count']
        (50.0, 50.0, 2, 1)
    """
    overall = _bucket()
    by_language: dict[str, dict[str, int]] = defaultdict(_bucket)
    by_kind: dict[str, dict[str, int]] = defaultdict(_bucket)
    by_both: dict[tuple[str, str], dict[str, int]] = defaultdict(_bucket)
    rows = getattr(dataset, "test", None) if dataset is not None else None
    details = []
    for key in sorted(output, key=int):
        reply = output[key].get("prediction", "")
        score = inverse_ifeval_score(reply)
        sample = dict(rows[int(key)]) if rows is not None else {}
        language, kind = sample.get("language", ""), sample.get("instruction_types", "")
        _count(overall, score)
        if language:
            _count(by_language[language], score)
        if kind:
            _count(by_kind[kind], score)
        if language and kind:
            _count(by_both[(language, kind)], score)
        details.append({"idx": int(key), "prompt": sample.get("prompt", ""), "response_reference": sample.get("response_reference", ""),
                        "model_response": sample.get("prediction", ""), "judge_response": reply, "score": score,
                        "correct": score == 1, "language": language, "instruction_types": kind})
    result: dict[str, Any] = {"accuracy": _accuracy(overall), "correct_count": overall["correct"], "total": overall["total"],
                              "parse_error_count": overall["parse_error"],
                              "parse_error_rate": overall["parse_error"] / overall["total"] * 100 if overall["total"] else 0.0,
                              "details": details}
    for language, bucket in sorted(by_language.items()):
        result[f"{language}_accuracy"] = _accuracy(bucket)
        result[f"{language}_count"] = bucket["total"]
    for kind, bucket in sorted(by_kind.items()):
        result[f"{_IIF_ABBR.get(kind, kind)}_accuracy"] = _accuracy(bucket)
        result[f"{_IIF_ABBR.get(kind, kind)}_count"] = bucket["total"]
    for (language, kind), bucket in sorted(by_both.items()):
        result[f"{language}_{_IIF_ABBR.get(kind, kind)}_accuracy"] = _accuracy(bucket)
        result[f"{language}_{_IIF_ABBR.get(kind, kind)}_count"] = bucket["total"]
    return result
