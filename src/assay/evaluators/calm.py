"""CaLM's evaluator, as OpenCompass 0.5.4 computes it (``CaLMEvaluator``).

The references are the ``gt_item`` objects of
:class:`assay.datasets.calm.CaLMDataset`.  Each of CaLM's 46 tasks reads a
reply with one of a few reading rules (:data:`TASK_RULES`), described by data
(the answer phrases in ``calm_answers.json`` beside this module, benchmark
data recorded by ``scripts/record_oc_calm.py``):

* yes/no rules (``CLADDER``, ``AR-B_CaLM-AR``, ``CA-B_FA``, ``CA-B_FP``,
  ``ECI``, ``PCD-B``, ``AC-B_causal_judgement``, ``CEI-B``): the reply,
  stripped and lower-cased, is ``1`` when it starts with a yes-phrase (any
  ending, at least *k* characters long, of the start phrases listed under *k*),
  else ``0`` when it starts with a no-phrase; else ``1`` when it holds one of
  the rule's yes-phrases — then ``0`` when one of its no-phrases occurs before
  the *first listed* yes-phrase found (the first in list order, not the
  earliest in the reply, as OpenCompass's short-circuiting search finds it);
  else ``0`` when it holds a no-phrase; else ``-1``.  A few rules add
  conditions (``AR-B_CaLM-AR``: ``yes`` with ``causes``/``does cause``;
  ``CA-B_*``: ``yes`` with an ancestor/parent phrase, 不是 with 祖先节点/父节点;
  ``AC-B_causal_judgement``: both ``- yes`` and ``- no`` read ``-1``).
  ``AR-B_CaLM-AR`` and ``CA-B_*`` pair the yes- and no-start tables entry by
  entry and keep only the pairs (OpenCompass zips them), so fewer start
  phrases count there.  The label is compared with ``gt_answer`` (``CLADDER``:
  ``'yes'``/``'no'`` as 1/0; ``AC-B``: ``'Yes'``/``'No'``; others as given).
* option rules (``PCD-C`` two options labelled 0/1, ``AS`` three and
  ``CR-C_CRASS`` four labelled 1…): a reply naming several options reads
  ``-1`` (``AS``, ``CR-C_CRASS``); the first option whose start phrases or
  text match the reply wins; else the first option (in order) one of whose
  phrases the reply holds, then each next option in turn when one of its
  phrases occurs before the first listed phrase of the first option.  The
  phrases include the option's text (lower-cased, its last character cut),
  and — as OpenCompass formats them — one entry is the text written as a
  Python set (``{'…'}``), and PCD-C's second option's "the … of the input
  event is that …" entry is cut to the *first* hypothesis's length.  The
  label is compared with ``int(gt_answer)`` (PCD-C: ``gt_answer``).
* JSON rules (``Natural``: the ``answer`` value, compared with ``gt_answer``
  stripped and lower-cased; ``Probability``: the ``prob`` value as a float,
  compared with ``gt_answer`` after both are rounded to 4 decimals): the
  reply, stripped, lower-cased and with ``}`` appended, is searched for runs
  ``{…}`` (shortest, braces repeated), the outer doubled braces trimmed; each
  is read as JSON, else again with bare words quoted and “”/' made ``"``,
  until one holds the key.  A ``prob`` of ``0`` (a number) or ``""`` reads as
  no value, as OpenCompass's truth test has it.
* ``CEG-O_E-CARE`` (an open answer): the mean over samples of the ``rouge``
  package's ROUGE-L *recall* of the reply against ``gt_answer`` — both
  segmented by jieba (words joined by spaces) when the reply holds a CJK
  character; a pair the package refuses (an empty reply, ``'...'``) scores 0.

Metrics (fractions, not percentages, as OpenCompass reports them):
``Accuracy`` (the share of labels equal to the reference), and — except for
``CEG-O_E-CARE`` — OpenCompass's error analysis over the replies (stripped,
lower-cased): ``Language inconsistency`` (a Chinese task's reply with two
Latin letters in a row — seven for the JSON rules —, an English task's with a CJK character),
``Limitation of instruction-following`` (the reply does not start as the
task's answer format does), ``Repetition`` (it holds a phrase of the prompt),
``Empty response`` (shares), and ``Same response to all questions`` (``1``
when every label is the same answer: all yes / all no, all one option; for
``Natural`` all ``yes``/``是`` or all ``no``/``否``; for ``Probability`` all
``0.1234`` or all ``0``; else ``0``).  Beyond OpenCompass, the details give
each sample's ``pred`` (the label read), ``answer`` (the reference label),
``correct`` and ``score`` (1/0, or the ROUGE-L recall) and the four error
flags.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from assay.errors import ConfigError, EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["TASK_RULES", "CaLMEvaluator", "read_label"]

_YES_NO = ("CLADDER", "AR-B_CaLM-AR", "CA-B_FA", "CA-B_FP", "ECI", "PCD-B", "AC-B_causal_judgement", "CEI-B")
_OPTIONS = ("PCD-C", "AS", "CR-C_CRASS")
_JSON = ("Natural", "Probability")
_OPEN = "CEG-O_E-CARE"


def _task_rules() -> dict[str, str]:
    rules: dict[str, str] = {}
    plain = {
        "CORR-B_correlation": "CLADDER", "EAE-B_exp-away": "CLADDER", "CR-B_det-counterfactual": "CLADDER",
        "BAS-B_backadj": "CLADDER", "CB-B_collider-bias": "CLADDER", "AR-B_CaLM-AR": "AR-B_CaLM-AR", "CA-B_FA": "CA-B_FA",
        "CA-B_FP": "CA-B_FP", "ECI-B_CTB": "ECI", "ECI-B_ESC": "ECI", "ECI-B_MAVEN-ERE": "ECI", "PCD-B_COPA": "PCD-B",
        "PCD-B_E-CARE": "PCD-B", "PCD-C_COPA": "PCD-C", "PCD-C_E-CARE": "PCD-C",
        "AC-B_causal_judgement": "AC-B_causal_judgement", "CEG-O_E-CARE": _OPEN, "CR-C_CRASS": "CR-C_CRASS",
        "BAS-C_max-BAS": "AS", "BAS-C_min-BAS": "AS", "BAS-C_mix-BAS": "AS", "FAS-C_FAS": "AS", "IV-C_CaLM-IV": "AS",
        **{f"CEI-B_0.{i}-UC": "CEI-B" for i in (2, 4, 6, 8)},
    }
    for kind in ("ATE", "CDE", "ETT", "NDE", "NIE"):
        plain[f"{kind}-B_{kind}-natural"] = "Natural"
    for kind in ("ATE", "CDE", "ETT", "NDE", "NIE", "PN", "PS"):
        for level in ("basic", "hard"):
            plain[f"{kind}-P_{kind}-{level}"] = "Probability"
    for name, rule in plain.items():
        rules[f"{name}_CN"] = rules[f"{name}_EN"] = rule
    return rules


#: CaLM's task name → its reading rule (92 names: 46 tasks × ``_CN``/``_EN``).
TASK_RULES: dict[str, str] = _task_rules()

#: The prompt styles and the library config's: error analysis exists for the basic ones here.
_STYLES = ("basic", "basic-CN")


@cache
def _answers() -> dict[str, Any]:
    with open(Path(__file__).with_name("calm_answers.json"), encoding="utf-8") as handle:
        answers: dict[str, Any] = json.load(handle)
    return answers


def _table(name: str) -> dict[int, list[str]]:
    return {int(k): list(v) for k, v in _answers()[name]}


def _suffixes(tables: Sequence[dict[int, list[str]]], paired: bool) -> list[tuple[str, ...]]:
    """Each table's start phrases: every ending of an entry at least as long as its key.

    ``paired``: the tables are walked together, key by key and entry by entry,
    keeping only what all of them have at that place (a ``zip``)."""
    out: list[list[str]] = [[] for _ in tables]
    if paired:
        for keys in zip(*(t.keys() for t in tables)):
            for entries in zip(*(t[k] for t, k in zip(tables, keys))):
                for j, (key, text) in enumerate(zip(keys, entries)):
                    out[j] += [text[-i:] for i in range(key, len(text) + 1)]
    else:
        for j, table in enumerate(tables):
            for key, texts in table.items():
                for text in texts:
                    out[j] += [text[-i:] for i in range(key, len(text) + 1)]
    return [tuple(o) for o in out]


def _first_hit(reply: str, phrases: Sequence[str]) -> int | None:
    """Where the first phrase (in list order) the reply holds starts; ``None`` when it holds none."""
    for phrase in phrases:
        at = reply.find(phrase)
        if at > -1:
            return min(len(reply), at)
    return None


def _before(reply: str, phrases: Sequence[str], limit: int) -> bool:
    return any(phrase in reply and reply.find(phrase) < limit for phrase in phrases)


def _inner(rule: str, name: str, values: dict[str, str] | None = None) -> list[str]:
    spec = _answers()["rules"][rule][name]
    own = [e if isinstance(e, str) else e["fmt"].format(*((values or {})[a] for a in e["args"])) for e in spec["own"]]
    return own + (_answers()[spec["shared"]] if spec["shared"] else [])


# --- yes/no rules --------------------------------------------------------------------------------

#: Rule → (additional yes conditions, additional no conditions): each a word and words one of which
#: must also be present.
_EXTRA: dict[str, tuple[list[tuple[str, tuple[str, ...]]], list[tuple[str, tuple[str, ...]]]]] = {
    "AR-B_CaLM-AR": ([("yes", ("causes", "does cause")), ("是", ("会导致",))], [("否", ("不会导致",))]),
    "CA-B_FA": ([("yes", ("is the ancestor of", "is an ancestor of", "serves as the ancestor node of",
                          "serves as an ancestor node of")), ("是", ("祖先节点",))], [("不是", ("祖先节点",))]),
    "CA-B_FP": ([("yes", ("is the parent of",)), ("是", ("父节点",))], [("不是", ("父节点",))]),
}
_PAIRED_STARTS = ("AR-B_CaLM-AR", "CA-B_FA", "CA-B_FP")


def _holds(reply: str, conditions: list[tuple[str, tuple[str, ...]]]) -> bool:
    return any(word in reply and any(o in reply for o in others) for word, others in conditions)


@cache
def _yes_no_tables(rule: str) -> tuple[tuple[str, ...], tuple[str, ...], list[str], list[str]]:
    starts = _suffixes([_table("common_start_true_dict"), _table("common_start_false_dict")], rule in _PAIRED_STARTS)
    return starts[0], starts[1], _inner(rule, "inner_option1_list"), _inner(rule, "inner_option2_list")


def _yes_no(rule: str, reply: str) -> int:
    text = reply.strip().lower()
    yes_start, no_start, yes, no = _yes_no_tables(rule)
    extra_yes, extra_no = _EXTRA.get(rule, ([], []))
    if rule == "AC-B_causal_judgement" and (("- yes" in text and "- no" in text) or ("- 是" in text and "- 否" in text)):
        return -1
    if text.startswith(yes_start):
        return 1
    if text.startswith(no_start):
        return 0
    hit = _first_hit(text, yes)
    if hit is not None or _holds(text, extra_yes):
        return 0 if _before(text, no, len(text) if hit is None else hit) else 1
    if any(p in text for p in no) or _holds(text, extra_no):
        return 0
    return -1


# --- option rules --------------------------------------------------------------------------------

#: Rule → (the sample's option fields, labels, start templates added under ``len(option) - 1``).
_OPTION_RULES: dict[str, tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]] = {
    "PCD-C": (("hypothesis1", "hypothesis2"), (0, 1), ("答案（选项一或选项二？）：{}", "answer (option 1 or option 2) : {}")),
    "AS": (("option1", "option2", "option3"), (1, 2, 3),
           ("答案（选项一或选项二或选项三？）：{}", "答案（选项一或选项二或选项三？）： {}", "answer (option 1 or 2 or 3?):{}",
            "answer (option 1 or 2 or 3?): {}")),
    "CR-C_CRASS": (("Answer1", "Answer2", "Answer3", "Answer4"), (1, 2, 3, 4),
                   ("答案（选项一或选项二或选项三或选项四？）：{}", "答案（选项一或选项二或选项三或选项四？）： {}",
                    "answer (option 1 or 2 or 3 or 4?):{}", "answer (option 1 or 2 or 3 or 4?): {}")),
}
_CN_NUMBERS = ("选项一", "选项二", "选项三", "选项四")


def _abstains(rule: str, text: str) -> bool:
    if rule == "CR-C_CRASS":
        return any(o in text for o in ("选项一或选项二", "选项三或选项四")) or all(o in text for o in _CN_NUMBERS)
    if rule == "AS":
        return (any(o in text for o in ("选项一或选项二", "选项二或选项三", "option 1 or option 2", "option2 or option 3"))
                or all(o in text for o in ("option 1", "option 2", "option 3")) or all(o in text for o in _CN_NUMBERS[:3])
                or len(text) == 0)
    return False


def _names_option(rule: str, text: str, option: str) -> bool:
    if rule == "PCD-C":
        return option in (text, text[: len(option)], text + ".") or (text in option and len(text) > 1)
    if option == text:
        return True
    if len(option) > 1 and len(text) > 0:
        return text in option or (rule == "CR-C_CRASS" and option in text)
    return False


def _options(rule: str, reply: str, item: dict[str, Any]) -> int:
    fields, labels, templates = _OPTION_RULES[rule]
    missing = [f for f in (*fields, *(("ask-for",) if rule == "PCD-C" else ())) if f not in item]
    if missing:
        raise EvaluationError(f"CaLMEvaluator ({rule} rule): a reference has no {', '.join(map(repr, missing))}: {item!r:.200}")
    for f in fields:  # OpenCompass stops on these (``.strip()`` of a value that is not text)
        if not isinstance(item[f], str):
            raise EvaluationError(f"CaLMEvaluator ({rule} rule): the reference's {f!r} {item[f]!r:.200} is not text")
    text = reply.strip().lower()
    options = [item[f].strip().lower() for f in fields]
    # OpenCompass formats ``ask-for`` into its phrases as it is (``str.format``), text or not
    values: dict[str, str] = {"ask_for": format(item["ask-for"]) if rule == "PCD-C" else ""}
    for i, option in enumerate(options, 1):
        values[f"opt{i}"] = option
        values[f"opt{i}_cut"] = option[: len(option) - 1] if rule == "PCD-C" else option[:-1]
        values[f"opt{i}_cut_set"] = str({values[f"opt{i}_cut"]})
    if rule == "PCD-C":
        values["opt2_cut_len1"] = options[1][: len(options[0]) - 1]
    tables = []
    for i, option in enumerate(options, 1):
        table = dict(_table(f"common_start_op{i}_dict"))
        table[len(option) - 1] = [t.format(option[:-1]) for t in templates]
        tables.append(table)
    starts = _suffixes(tables, paired=rule != "PCD-C")
    inner = [_inner(rule, f"inner_option{i}_list", values) for i in range(1, len(options) + 1)]
    if _abstains(rule, text):
        return -1
    for i, option in enumerate(options):
        if text.startswith(starts[i]) or _names_option(rule, text, option):
            return labels[i]
    low = len(text)
    for i in range(len(options)):
        if i == 0:
            hit = _first_hit(text, inner[0])
            found = hit is not None
            low = low if hit is None else hit
        else:
            found = any(text.find(p) > -1 for p in inner[i])
        if rule == "AS" and "正确答案" in text and _CN_NUMBERS[i] in text:
            found = True
        if found:
            label = labels[i]
            for j in range(i + 1, len(options)):
                if not _before(text, inner[j], low):
                    break
                label = labels[j]
            return label
    return -1


# --- JSON rules ----------------------------------------------------------------------------------

_CHAIN_OF_THOUGHT_KINDS = ("NIE", "NDE", "ETT", "CDE", "ATE")


def _quote_bare_words(text: str) -> str:
    return re.sub(r"(?<=[:,])\s*([\w_]+)\s*(?=[,:\]})])", r' "\1" ', text)


def _straight_quotes(text: str) -> str:
    return text.replace("“", '"').replace("”", '"').replace("'", '"')


def json_value(reply: str, key: str, style: str, kind: str) -> Any:
    """The value of ``key`` in the first ``{…}`` run of the reply that holds it (see the module); ``None`` when none does.

    >>> json_value('The result: {"ANSWER": "Yes", "PROB": "0.5"}', 'answer', 'basic', 'ATE')
    'yes'
    >>> json_value("{'prob': '0.25'}", 'prob', 'basic', 'PN')
    '0.25'
    >>> json_value('{prob: 0.25}', 'prob', 'basic', 'PN') is None  # 0.25 is not a bare word: not quoted, not JSON
    True
    """
    text = reply.strip().lower() + "}"
    if "CoT" in style and any(k in kind for k in _CHAIN_OF_THOUGHT_KINDS):
        runs = re.findall(r"\{\"answer\":.*?\}", text, re.DOTALL)
    else:
        runs = re.findall(r"\{+.*?\}+", text, re.DOTALL | re.IGNORECASE)
    value = None
    for run in runs:
        found = run.lower()
        if found.startswith("{{") and found.endswith("}}}"):
            found = found[1:-2]
        elif found.startswith("{{") and found.endswith("}}"):
            found = found[1:-1]
        elif found.startswith("{{") and found.endswith("}"):
            found = found[1:]
        elif found.startswith("{") and found.endswith("}}"):
            found = found[:-1]
        if not found:
            continue
        try:
            obj = json.loads(found)
        except json.JSONDecodeError:
            try:
                obj = json.loads(_straight_quotes(_quote_bare_words(found)))
            except Exception:
                obj = {}
        value = obj.get(key) if isinstance(obj, dict) else None
        if value is not None:
            break
    return value


def _probability(value: Any) -> float | None:
    if not value:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


# --- labels and references ------------------------------------------------------------------------

def read_label(task: str, reply: str, item: dict[str, Any], prompt_style: str = "basic") -> Any:
    """The label OpenCompass's reading rule of ``task`` gives ``reply`` for the sample ``item`` (see the module).

    >>> read_label('CORR-B_correlation_EN', 'Yes, they are.', {})
    1
    >>> read_label('PN-P_PN-basic_EN', 'So {"prob": "0.1234"}', {})
    0.1234
    """
    rule = TASK_RULES[task]
    if rule in _YES_NO:
        return _yes_no(rule, reply)
    if rule in _OPTIONS:
        return _options(rule, reply, item)
    kind = task.split("-")[0]
    if rule == "Natural":
        return json_value(reply, "answer", prompt_style, kind)
    if rule == "Probability":
        return _probability(json_value(reply, "prob", prompt_style, kind))
    return reply


def reference_label(task: str, item: Any) -> Any:
    """The reference label of a ``gt_item``; an error naming the task and the value it cannot read."""
    rule = TASK_RULES[task]
    if not isinstance(item, dict) or "gt_answer" not in item:
        raise EvaluationError(f"CaLMEvaluator ({task}): a reference has no 'gt_answer': {item!r:.200}")
    answer = item["gt_answer"]
    try:
        if rule == "CLADDER":
            return {"yes": 1, "no": 0}[answer]
        if rule == "AC-B_causal_judgement":
            return {"Yes": 1, "No": 0}[answer]
        if rule in ("AS", "CR-C_CRASS"):
            return int(answer)
        if rule == "Natural":
            return answer.strip().lower()
        if rule == "Probability":
            round(answer, 4)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise EvaluationError(f"CaLMEvaluator ({task}): gt_answer {answer!r} cannot be read by the {rule} rule") from None
    return answer


# --- error analysis ------------------------------------------------------------------------------

_ERROR_MODULE = {"CA-B_FA": "CA-B", "CA-B_FP": "CA-B"}
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[A-Za-z]{2,}")
#: The numeric rules allow shorter Latin words in a Chinese reply (JSON keys such as ``answer``).
_LATIN_WORD = re.compile(r"[A-Za-z]{7,}")


def _standard(rule: str, task: str, text: str) -> int:
    kind = task.split("-")[0]
    if rule == "Natural" or (rule == "Probability" and any(k in kind for k in _CHAIN_OF_THOUGHT_KINDS)):
        return 0 if text.startswith('{"answer":') and text.endswith("}") else 1
    if rule == "Probability":
        return 0 if text.startswith('{"prob":') and text.endswith("}") else 1
    starts = _answers()["errors"][_ERROR_MODULE.get(rule, rule)]["standard"]
    return 0 if text.startswith(tuple(starts)) else 1


def item_errors(task: str, reply: str) -> dict[str, int]:
    """OpenCompass's four error flags of one reply (see the module)."""
    rule = TASK_RULES[task]
    text = reply.strip().lower()
    latin = _LATIN_WORD if rule in _JSON else _LATIN
    language = (latin if "CN" in task else _CJK).search(text) is not None
    repeats = _answers()["errors"][_ERROR_MODULE.get(rule, rule)]["repetition"]
    return {"language_error": int(language), "nonstandrad": _standard(rule, task, text),
            "repetition": int(any(p in text for p in repeats)), "empty": int(text == "")}


def _same_answer(rule: str, labels: list[Any]) -> int:
    def every(test: Callable[[Any], bool]) -> bool:
        return all(test(v) for v in labels)

    if rule == "Natural":
        return int(every(lambda v: v in ("yes", "是")) or every(lambda v: v in ("no", "否")))
    if rule == "Probability":
        return int(sum(1 for v in labels if v == 0.1234) / len(labels) == 1 or every(lambda v: v == 0))
    if rule in _OPTIONS:
        return int(any(all(v == want for v in labels) for want in _OPTION_RULES[rule][1]))
    return int(every(lambda v: v == 1) or every(lambda v: v == 0))


_ERROR_METRICS = (("Language inconsistency", "language_error"), ("Limitation of instruction-following", "nonstandrad"),
                  ("Repetition", "repetition"), ("Empty response", "empty"))


@ICL_EVALUATORS.register_module()
class CaLMEvaluator(BaseEvaluator):
    """CaLM's accuracy and error analysis of one task, as OpenCompass 0.5.4 computes them (see the module).

    ``task`` is CaLM's task name (e.g. ``'CORR-B_correlation_EN'``),
    ``prompt_style`` the loader's; ``core_metrics`` and ``error_analysis``
    switch the two parts (both on in the library config).
    """

    sample_outcome = SampleOutcome(scores={"Accuracy": "score"})

    def __init__(self, core_metrics: bool = True, error_analysis: bool = True, prompt_style: str = "basic",
                 task: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if task not in TASK_RULES:
            raise ConfigError(f"CaLMEvaluator: task {task!r} is not one of CaLM's tasks")
        if prompt_style not in _STYLES:
            raise ConfigError(f"CaLMEvaluator: prompt_style {prompt_style!r} is not implemented (assay has {', '.join(_STYLES)})")
        self.core_metrics = core_metrics
        self.error_analysis = error_analysis
        self.prompt_style = prompt_style
        self.task = task

    def _accuracy(self, replies: list[str], items: list[Any]) -> tuple[float, list[dict[str, Any]]]:
        rule = TASK_RULES[self.task]
        details: list[dict[str, Any]] = []
        if rule == _OPEN:
            from assay.evaluators._longtext import jieba_words, rouge_l_scores

            total = 0.0
            for reply, item in zip(replies, items):
                gold = reference_label(self.task, item)
                pred, ref = reply, gold
                if _CJK.search(reply) is not None:
                    if not isinstance(gold, str):  # OpenCompass stops here: jieba cannot segment it
                        raise EvaluationError(f"CaLMEvaluator ({self.task}): gt_answer {gold!r:.200} is not text; a Chinese "
                                              "reply is compared with it segmented into words, which needs text")
                    pred, ref = " ".join(jieba_words(reply)), " ".join(jieba_words(gold))
                scores = rouge_l_scores(pred, ref, frames=_ROUGE_FRAMES) if isinstance(ref, str) else None
                recall = 0.0 if scores is None else scores[0]
                total += recall
                details.append({"pred": reply, "answer": gold, "score": recall})
            return total / len(items), details
        correct = 0
        for reply, item in zip(replies, items):
            gold = reference_label(self.task, item)
            label = read_label(self.task, reply, item, self.prompt_style)
            if rule == "Probability":
                ok = label is not None and round(label, 4) == round(gold, 4)
            else:
                ok = bool(label == gold)
            correct += ok
            details.append({"pred": label, "answer": gold, "correct": ok, "score": float(ok)})
        return correct / len(items), details

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        replies = ["" if p is None else str(p) for p in predictions]
        result: dict[str, Any] = {}
        details: list[dict[str, Any]] = [{} for _ in replies]
        if self.core_metrics:
            result["Accuracy"], details = self._accuracy(replies, list(references))
        if self.error_analysis and not self.task.startswith(_OPEN):
            rule = TASK_RULES[self.task]
            labels = [read_label(self.task, r, i, self.prompt_style) for r, i in zip(replies, references)]
            flags = [item_errors(self.task, r) for r in replies]
            result["Same response to all questions"] = _same_answer(rule, labels)
            for metric, key in _ERROR_METRICS:
                result[metric] = sum(f[key] for f in flags) / len(flags)
            for detail, flag in zip(details, flags):
                detail.update(flag)
        result["details"] = details
        return result


#: Frames on the stack when the ``rouge`` package's LCS walk starts under OpenCompass's CaLM evaluator, its eval
#: task run as its runners run it (``python opencompass/tasks/openicl_eval.py <config>``, a process of its own):
#: 6 up to the evaluator's ``score`` (measured by ``scripts/record_oc_calm.py``), then ``compute_core_metrics``
#: and the accuracy function, then the package's 6 — a reply and reference of 985 identical words are scored,
#: 986 are not.  ``opencompass --debug`` runs the task inside its own process, deeper, where fewer words fit.
_ROUGE_FRAMES = 6 + 2 + 6
