"""SuperGPQA's evaluator and judge postprocessor as OpenCompass 0.5.4 computes them
(``SuperGPQAEvaluator``, ``supergpqa_llmjudge_postprocess``).

The evaluator reads a reply's option letter (``The answer is C``,
``Answer: $\\boxed{B}$``, a line that is just ``(D)``), else the text of one of
the options, on the last line first, then on the whole reply.

OpenCompass runs each search with Python's ``re`` under a five-second alarm,
a search that takes longer finding nothing.  Its patterns backtrack
exponentially where a search fails after a run of marks: opening marks
(``*$\\{([``, or a reply's leading non-word characters) right after a lead
(``Answer:``, ``The answer is``, the reply's start) that lead to no answer, or
closing marks (``\\}$)]``) after an answer that neither hold ``)`` nor end
before a space, ``:``, ``.``, ``*`` or the text's end; the cost is about
the product of both runs' costs.  Which such searches end within five
seconds depends on the machine; assay decides it from the text instead, so
that its verdicts are the same everywhere, with a cost model: where the
pattern reaches a failing run of ``o`` opening marks and, after an answer,
``c`` closing ones, the search there scores ``o/``:data:`OPEN_RUN` ``+
c/``:data:`CLOSE_RUN` (``c`` counting 0 where no answer follows), the scores
of the places the search tries before it matches combining as costs of
``2**(22*score)`` add.  Measured with ``re``, each opening mark multiplies
the time by about 2.05 and each closing mark after an answer by about 2.45
(the model: 2 and 2.6); a search scoring 1 (22 opening marks alone, 16
closing marks alone, 12 opening and 8 closing together) takes 2.5 to 4 s
on an idle current server core and about twice that on a busy one, as
OpenCompass's evaluation runs — the margin puts the boundary a little below
five seconds of a busy core.  A search scoring at least 1 counts as timed out — nothing
found, as in OpenCompass, and counted in the sample's ``search_timeouts``
detail — without being run.  A search scoring from :data:`NET_SCORE` (about
a hundredth of a second) up to 1 runs with ``re`` in a child process, which
is stopped after :data:`NET_SECONDS` (a safety net should the model miss: a
search stopped so — or by its CPU limit, just past it — counts as timed out
as well; one whose process ends otherwise, such as killed by the kernel's
out-of-memory killer or an operator's ``kill -9``, raises
:class:`SearchEnded` naming the sample); every other search runs
with ``re``, as OpenCompass's, to its end.  Every reply a model writes in
earnest is read as OpenCompass reads it, and so is every reply whose search
takes OpenCompass less than about 1.5 s or more than about 10 s; one
scoring within a mark or two of 1 may be read otherwise on a much faster or
slower machine than OpenCompass's.
"""

from __future__ import annotations

import math
import re
import signal
from functools import cache
from typing import Any

from assay._bounded import ANSWERED, EXITED, TIMED_OUT, run_bounded
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.evaluators.med_choice import _verdict
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS

__all__ = ["SuperGPQAEvaluator", "supergpqa_llmjudge_postprocess", "supergpqa_option_content", "supergpqa_option_label"]

#: Any run of opening marks and ``\boxed{``-like commands before the answer, and of closing ones after it.
_OPEN = r"(?:[\*\$\{\(\[\\(]*?(?:(?:\\boxed|\\mathbf|\\mathrm|\\text){)?)*\s*"
_CLOSE = r"(?:\\?\}?\$?\)?\]?\}?)*(?:[\s:\.\*)]|$)"
_LEADS_LABEL = (r"[Tt]he\s+(?:\w+\s+)?(?:answer|option)(?:\w+\s+)?\s+is?:?\s*", r"(?i:Answer)[\*\s]*:\s*", r"^[^\w\r\n]*")
_LEADS_CONTENT = (r"[Tt]he\s+(?:\w+\s+)?(?:answer|option)(?:\w+\s+)?\s+is:?\s*", r"(?i:Answer)\s*", r"^[^\w\r\n]*")
_LETTERS = "ABCDEFGHIJ"
_DIFFICULTIES = ("hard", "middle", "easy")

#: The shortest failing run of opening marks alone after a lead that counts as OpenCompass's five-second time-out.
OPEN_RUN = 22
#: The shortest failing run of closing marks alone after an answer that counts as OpenCompass's five-second time-out.
CLOSE_RUN = 16
#: Searches whose cost score is at least this run in a child process, stopped after :data:`NET_SECONDS`.
NET_SCORE = 0.6
#: The most seconds one search may take in its child process before it counts as timed out.
NET_SECONDS = 20.0
#: How much more a search at score 1 costs than one at score 0 (each opening mark about doubles the cost).
_SCORE_BASE = 2.0**OPEN_RUN

_OPENING = re.compile(r"(?:[*${(\[\\]|\\(?:boxed|mathbf|mathrm|text)\{)*+")
_NON_WORD_START = re.compile(r"[^\w\r\n]*+")
_SPACES = re.compile(r"\s*+")
_CLOSING = re.compile(r"[\\}$)\]]*+")
_CLOSE_END = frozenset(" \t\n\r\f\v:.*")


@cache
def _compiled(pattern: str, ignore_case: bool) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


def _closes(text: str, at: int) -> tuple[bool, int]:
    """Does the closing part match after an answer ending at ``at``, and the length of the run of closing marks there."""
    run = _CLOSING.match(text, at)
    assert run is not None
    marks = run.group()
    end = run.end()
    return ")" in marks or end == len(text) or text[end] in _CLOSE_END, len(marks)


def _score(lead: str, answer: re.Pattern[str], text: str) -> float:
    """The cost score of the search of ``lead`` + marks + ``answer`` + marks in ``text``: 1 where it costs
    OpenCompass's five seconds (see the module)."""
    starts = [0] if lead.startswith("^") else [m.end() for m in _compiled(lead, True).finditer(text)]
    total = 0.0
    for start in starts:
        if lead.startswith("^"):  # the reply's leading non-word characters, then any opening commands
            prefix = _NON_WORD_START.match(text)
            run = _OPENING.match(text, prefix.end())  # type: ignore[union-attr]
        else:
            prefix, run = None, _OPENING.match(text, start)
        assert run is not None
        opened, at = len(run.group()) + (len(prefix.group()) if prefix else 0), run.end()
        at = _SPACES.match(text, at).end()  # type: ignore[union-attr]
        found = answer.match(text, at)
        closes, closing = _closes(text, found.end()) if found else (False, 0)
        if found and closes:  # the search ends here, found
            break
        total += _SCORE_BASE ** (opened / OPEN_RUN + (closing / CLOSE_RUN if found else 0.0))
    return math.log(total) / math.log(_SCORE_BASE) if total > 0 else 0.0


class SearchEnded(RuntimeError):
    """A search's child process ended without an answer and not by the net's deadline (killed from elsewhere,
    crashed, out of memory)."""


#: The address space, in bytes, a search's child process may add to what it holds at the fork.
_NET_MEMORY = 1024**3


def _search_bounded(pattern: re.Pattern[str], text: str) -> tuple[bool, str | None]:
    """``pattern``'s search of ``text`` in a child process (:func:`assay._bounded.run_bounded`): whether it ended
    within :data:`NET_SECONDS`, and its first group (``None`` where nothing is found)."""

    def search() -> str | None:
        found = pattern.search(text)
        return found.group(1) if found else None

    ended = run_bounded(search, seconds=NET_SECONDS, memory=_NET_MEMORY)
    if ended.how == TIMED_OUT or (ended.how == EXITED and ended.status == -signal.SIGXCPU):
        return False, None  # the net's deadline, or the CPU limit just past it (the same time spent searching)
    if ended.how != ANSWERED:  # a SIGKILL from elsewhere (the kernel's OOM killer, an operator) is no time-out
        raise SearchEnded(f"the search of a reply ended its process without an answer ({ended.how}"
                           f"{'' if ended.value is None else ': ' + str(ended.value)}, status {ended.status}): {text[:80]!r}")
    return True, ended.value


def _first(leads: tuple[str, ...], answer: str, text: str, ignore_case: bool) -> tuple[str | None, int]:
    """The first group of the first pattern's match on the last line of ``text`` (right-stripped), else on the
    whole text, and the number of searches counted as timed out."""
    text = text.rstrip()
    answer_pattern = _compiled(answer, ignore_case)
    timeouts = 0
    for where in (text.split("\n")[-1], text):
        for lead in leads:
            score = _score(lead, answer_pattern, where)
            if score >= 1.0:
                timeouts += 1
                continue
            pattern = _compiled(lead + _OPEN + answer + _CLOSE, ignore_case)
            if score >= NET_SCORE:
                ended, group = _search_bounded(pattern, where)
                if not ended:
                    timeouts += 1
                    continue
            else:
                found = pattern.search(where)
                group = found.group(1) if found else None
            if group is not None:
                return group, timeouts
    return None, timeouts


def supergpqa_option_label(text: Any) -> str | None:
    """The option letter ``text`` gives (``A``–``J``, any case), ``'error'`` for a non-text reply, else ``None``.

    >>> supergpqa_option_label('Some thought.\\nAnswer: $\\\\boxed{C}$'), supergpqa_option_label('the answer is b.')
    ('C', 'b')
    """
    if not isinstance(text, str):
        return "error"
    return _option_label(text)[0]


def _option_label(text: str) -> tuple[str | None, int]:
    return _first(_LEADS_LABEL, f"([{_LETTERS}])", text, True)


def supergpqa_option_content(text: Any, options: Any) -> str | None:
    """The option whose text ``text`` gives as its answer, ``'error'`` for a non-text reply or options, else ``None``.

    >>> supergpqa_option_content('The answer is 40', ['10', '40'])
    '40'
    """
    return _option_content(text, options)[0]


def _option_content(text: Any, options: Any) -> tuple[str | None, int]:
    if not isinstance(text, str) or not isinstance(options, list):
        return "error", 0
    escaped = [re.escape(option) for option in options]
    text_found, timeouts = _first(_LEADS_CONTENT, "(" + "|".join(escaped) + ")", text, False)
    if text_found is None:
        return None, timeouts
    return (options[escaped.index(text_found)] if text_found in escaped else text_found), timeouts


def _letter(text: str, options: list[Any], timeouts: list[int]) -> str | None:
    label, count = _option_label(text)
    timeouts[0] += count
    if label is not None:
        return label
    content, count = _option_content(text, options)
    timeouts[0] += count
    if not content:
        return None
    if content not in options:
        raise ValueError(f"the answer found, {content!r}, is none of the options")
    return chr(options.index(content) + 65)


@ICL_EVALUATORS.register_module()
class SuperGPQAEvaluator(BaseEvaluator):
    """SuperGPQA accuracy as a fraction in [0, 1] (``accuracy``), with ``error_rate``, ``miss_rate``
    and ``hard_accuracy``, ``middle_accuracy``, ``easy_accuracy`` (0 for a difficulty without questions).

    Inputs: ``predictions``, ``references`` (the ``answer_letter`` column) and
    the test set (``prompt_mode`` of its first row, ``options``,
    ``difficulty``, ``answer_letter``, ``answer``).  A ``zero-shot`` reply
    gives its letter (:func:`supergpqa_option_label`), else the letter of
    the option whose text it gives; a ``five-shot`` reply is read up to its
    first ``Question:`` first, then whole.  A letter in lower case is found
    but never equals the reference (as in OpenCompass).  Details:
    ``pred``, ``answer`` (the right option's text), ``parsed_answer``,
    ``correct``.  A difficulty other than hard, middle, easy, a reference
    other than the row's ``answer_letter`` or another prompt mode (where
    OpenCompass stops) gives an error record naming the sample.  A sample
    whose searches are counted as OpenCompass's five-second time-out (see the
    module's description: decided from the text by a cost model, a clock
    only as a safety net past :data:`NET_SECONDS`) has ``search_timeouts``,
    their number, in its details.
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"accuracy": "correct"})  # a fraction: the mean, × 1

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if len(predictions) != len(references) or len(rows) != len(predictions):
            return {"error": f"SuperGPQAEvaluator: {len(predictions)} predictions, {len(references)} references, {len(rows)} test rows"}
        mode = rows[0].get("prompt_mode")
        if mode not in ("zero-shot", "five-shot"):
            return {"error": f"SuperGPQAEvaluator: unsupported prompt_mode {mode!r} (zero-shot or five-shot)"}
        right = errors = missed = 0
        by_level = {d: [0, 0] for d in _DIFFICULTIES}
        details = []
        for i, (pred, gold, row) in enumerate(zip(predictions, references, rows)):
            difficulty = row.get("difficulty", "unknown")
            if difficulty not in by_level:
                return {"error": f"SuperGPQAEvaluator: sample {i}: difficulty {difficulty!r} is not hard, middle or easy"}
            if row.get("answer_letter") != gold:
                return {"error": f"SuperGPQAEvaluator: sample {i}: the reference {gold!r} is not the row's answer_letter "
                                 f"{row.get('answer_letter')!r}"}
            timeouts = [0]
            try:
                if mode == "five-shot" and isinstance(pred, str):
                    found = _letter(pred.split("Question:")[0], row["options"], timeouts)
                    found = found if found is not None else _letter(pred, row["options"], timeouts)
                elif mode == "five-shot":
                    raise ValueError(f"a reply must be text, got {type(pred).__name__} {pred!r}")
                else:
                    found = _letter(pred, row["options"], timeouts)
            except (ValueError, KeyError) as exc:
                return {"error": f"SuperGPQAEvaluator: sample {i}: {exc}"}
            except SearchEnded as exc:
                raise SearchEnded(f"SuperGPQAEvaluator: sample {i}: {exc}") from None
            hit = bool(found) and found == gold
            right += hit
            missed += found is None or found == ""
            errors += (not hit) and found == "error"
            by_level[difficulty][0] += hit
            by_level[difficulty][1] += 1
            detail = {"pred": pred, "answer": row.get("answer"), "parsed_answer": found, "correct": hit}
            if timeouts[0]:
                detail["search_timeouts"] = timeouts[0]
            details.append(detail)
        count = len(details)
        result: dict[str, Any] = {"accuracy": right / count, "error_rate": errors / count, "miss_rate": missed / count}
        for level in _DIFFICULTIES:
            level_right, level_count = by_level[level]
            result[f"{level}_accuracy"] = level_right / level_count if level_count > 0 else 0
        result["details"] = details
        return result


@DICT_POSTPROCESSORS.register_module("supergpqa_llmjudge_postprocess")
def supergpqa_llmjudge_postprocess(output: dict[str, Any], output_path: str | None = None, dataset: Any = None) -> dict[str, Any]:
    """SuperGPQA's judged accuracy, overall and per discipline, field and subfield, as OpenCompass 0.5.4 computes it.

    Each judge output ``"i"`` is graded by its first ``A`` or ``B`` (else
    ``B``; ``A`` is correct) and read with the judge dataset's row ``i``.
    Metrics: ``accuracy`` (rounded to 2 decimals, in [0, 100]),
    ``total_correct``, ``total_count``, then ``SuperGPQA-<discipline>``,
    ``SuperGPQA-<discipline>-<field>``, ``SuperGPQA-<discipline>-<field>-<subfield>``
    (rounded).  Details: ``id``, ``question``, ``options``,
    ``origin_prompt``, ``prediction`` (the grade), ``gold``, ``is_correct``,
    ``discipline``, ``field``, ``subfield``.  A discipline or field whose name
    holds ``/`` stops OpenCompass when it names the metric; here it is an
    error record naming it.
    """
    rows = dataset.reader.dataset["test"]
    stats: dict[str, dict[str, list[int]]] = {"discipline": {}, "field": {}, "subfield": {}}
    correct, details = 0, []
    for key, record in output.items():
        row = rows[int(key)]
        grade = _verdict(record.get("prediction"))
        discipline, field, subfield = (row.get(c, "unknown") for c in ("discipline", "field", "subfield"))
        hit = grade == "A"
        correct += hit
        for level, name in (("discipline", discipline), ("field", f"{discipline}/{field}"),
                            ("subfield", f"{discipline}/{field}/{subfield}")):
            counts = stats[level].setdefault(name, [0, 0])
            counts[0] += hit
            counts[1] += 1
        details.append({"id": key, "question": row["question"], "options": row["options"], "origin_prompt": record.get("origin_prompt"),
                        "prediction": grade, "gold": record.get("gold", ""), "is_correct": hit, "discipline": discipline,
                        "field": field, "subfield": subfield})
    total = len(details)
    result: dict[str, Any] = {"accuracy": round(correct / total * 100, 2) if total > 0 else 0.00, "total_correct": correct,
                              "total_count": total, "details": details}
    for level, parts in (("discipline", 1), ("field", 2), ("subfield", 3)):
        for name, (level_right, level_count) in stats[level].items():
            if len(name.split("/")) != parts:
                return {"error": f"supergpqa_llmjudge_postprocess: the {level} name {name!r} holds '/' more often than "
                                 f"its levels (OpenCompass stops naming its metric)"}
            result["SuperGPQA-" + "-".join(name.split("/"))] = round(level_right / level_count * 100, 2)
    return result
