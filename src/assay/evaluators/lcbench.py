"""LCBench (LeetCode contest problems): ``LCEvaluator`` and ``LCPassKEvaluator``, as OpenCompass 0.5.4 scores them.

A reply gives one or more code blocks (:func:`lc_code_blocks`); each block is
checked by the problem's assertions, rewritten to compare type-aware (as for
MBPP), with ``Solution().f(`` for ``f(`` when the block defines ``class
Solution`` (:func:`lc_test_program`).  The block and the assertions run in
:mod:`assay.sandbox`, the assertions in a second process that calls the block's
functions (:func:`assay.evaluators._code_exec.checked_program`).  A reply
passes when any of its blocks passes; otherwise it counts under its first
block's verdict: ``wrong_answer`` (an ``AssertionError``), ``failed`` (another
exception, a syntax error, a crash, the memory limit) or ``timeout``.

Differences from OpenCompass 0.5.4: a reply that is a Python string literal
is read as its string without evaluating the reply (OpenCompass runs ``eval``
on it); when no block passes, OpenCompass counts the reply under the verdict
of the block whose run finished first, assay under its first block's; a reply
that forges a pass in OpenCompass's process (reaching the harness) is wrong
here.

Time: OpenCompass gives ``LCPassKEvaluator``'s programs 29 s (an alarm in a
child process given 30 s) and ``LCEvaluator``'s 2 s (3 s); the defaults are
the same wall-clock times, start-up included.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import Checked, SandboxPool, Verdict, checked_program, count_kinds, harden_assertions
from assay.evaluators._common import check_batch
from assay.evaluators.code import estimate_pass_at_k
from assay.evaluators.mbpp import mbpp_verdict
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["LCEvaluator", "LCPassKEvaluator", "lc_code_blocks", "lc_test_program"]


def _literal_text(text: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text
    return value if isinstance(value, str) else text


def lc_code_blocks(text: Any) -> list[str]:
    """The code blocks OpenCompass 0.5.4 tries for one LCBench reply (its ``_process_answer``).

    Every ```` ```python ```` block, else every fenced block (its first line
    dropped when the fence does not end its line and the block has more), else
    the text after the first fence, else the whole reply; each block stripped,
    cut between ``[BEGIN]`` and ``[DONE]`` (or ``BEGIN``/``DONE``, with a quote
    beside them), one quote taken off each end, and every backslash removed.

    Example:
        >>> lc_code_blocks("[BEGIN]\\n 'def f(x):\\n    return x' \\n[DONE]")
        ['def f(x):\\n    return x']
        >>> lc_code_blocks("```python\\ndef a(): pass\\n```\\nor\\n```python\\ndef b(): pass\\n```")
        ['def a(): pass', 'def b(): pass']
    """
    text = "" if text is None else str(text)
    text = _literal_text(text)
    blocks: list[str] = []
    if "```" in text:
        python_blocks = re.findall(r"```python\s*(.*?)```", text, re.DOTALL)
        if python_blocks:
            blocks.extend(b.strip() for b in python_blocks)
        else:
            fenced = re.findall(r"```(.*?)```", text, re.DOTALL)
            if not fenced:
                parts = text.split("```")
                if len(parts) > 1:
                    blocks.append(parts[1])
            else:
                for block in fenced:
                    if not block.startswith("\n") and "\n" in block:
                        block = block[block.find("\n") + 1 :]
                    blocks.append(block.strip())
    if not blocks:
        blocks = [text]
    out = []
    for code in blocks:
        code = code.strip()
        done = re.search(r"('\s*|)(\[DONE\]|DONE)", code)
        if done:
            code = code[: done.start()]
        begin = re.search(r"(\[BEGIN\]|BEGIN)('\s*|)", code)
        if begin:
            code = code[begin.end() :]
        code = code.strip()
        if code.startswith("'"):
            code = code[1:]
        if code.endswith("'"):
            code = code[:-1]
        out.append(code.replace("\\", ""))
    return out


def lc_test_program(tests: str, code: str) -> str:
    """The assertions that check ``code``: ``Solution().f(`` for each asserted ``f(`` when ``code`` defines
    ``class Solution``, then rewritten to compare type-aware.

    Example:
        >>> lc_test_program("assert f(1) == 2", "class Solution:\\n    def f(self, x): return x + 1")
        'assert __opencompass_type_aware_equal(Solution().f(1), 2)'
    """
    if "class Solution" in code:
        for name in set(re.findall(r"assert\s+(\w+)\(", tests)):
            tests = re.sub(r"(\bassert\s+)" + name + r"(\()", r"\1Solution()." + name + r"\2", tests)
    return harden_assertions(tests)


class _LCBase(BaseEvaluator):
    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(self, timeout: float, memory: int, max_workers: int | None, isolation: str, pred_postprocessor: Any) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    @property
    def timeout(self) -> float:
        return self._pool.timeout

    def _run(self, replies: list[tuple[int, Any, str]]) -> list[tuple[int, list[str], list[Verdict]]]:
        """For each ``(owner, reply, tests)``: its owner, its blocks and their verdicts."""
        programs: list[Checked] = []
        spans: list[tuple[int, list[str], int, int]] = []
        for owner, reply, tests in replies:
            blocks = lc_code_blocks(reply)
            start = len(programs)
            for code in blocks:
                programs.append(checked_program([code], [lc_test_program(tests, code)], type_aware_equal=True))
            spans.append((owner, blocks, start, len(programs)))
        verdicts = self._pool.run(type(self).__name__, programs)
        return [(owner, blocks, verdicts[a:b]) for owner, blocks, a, b in spans]


def _reply_verdict(verdicts: list[Verdict]) -> tuple[str, Verdict]:
    """The reply's verdict name and the run that decided it: the first passing block, else the first block."""
    for v in verdicts:
        if v.passed:
            return "pass", v
    return mbpp_verdict(verdicts[0]), verdicts[0]


@ICL_EVALUATORS.register_module()
class LCEvaluator(_LCBase):
    """LCBench accuracy, OpenCompass's ``LCEvaluator``.

    Inputs: ``predictions`` (replies) and ``references`` (the assertions, one
    text).  Metrics: the counts ``pass``, ``timeout``, ``failed``,
    ``wrong_answer`` (one per reply), ``score`` (0–100, the share passed) and
    ``outcomes`` (the sandbox's, per block).  Details per reply: ``result``,
    ``is_correct``, ``num_attempts`` (blocks run), ``code_blocks_tried``,
    ``outcome`` and ``message`` of the deciding block.

    Example:
        >>> LCEvaluator().score(["[BEGIN]\\n 'def f(x):\\n    return x + 1' \\n[DONE]"], ["assert f(1) == 2"])['score']
        100.0
    """

    def __init__(self, timeout: float = 2.0, memory: int = 1024**3, max_workers: int | None = None, isolation: str = "auto",
                 pred_postprocessor: Any = None) -> None:
        super().__init__(timeout, memory, max_workers, isolation, pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        runs = self._run([(i, pred, str(ref)) for i, (pred, ref) in enumerate(zip(predictions, references))])
        out: dict[str, Any] = {"pass": 0, "timeout": 0, "failed": 0, "wrong_answer": 0}
        details = []
        for _, blocks, verdicts in runs:
            name, decided = _reply_verdict(verdicts)
            out[name] += 1
            details.append({"result": name, "is_correct": name == "pass", "num_attempts": len(verdicts),
                            "code_blocks_tried": len(blocks), "outcome": decided.outcome, "message": decided.message})
        out["score"] = out["pass"] / len(predictions) * 100
        out["outcomes"] = count_kinds([v for _, _, vs in runs for v in vs])
        out["details"] = details
        return out


@ICL_EVALUATORS.register_module()
class LCPassKEvaluator(_LCBase):
    """LCBench pass@k, OpenCompass's ``LCPassKEvaluator``.

    Inputs: ``predictions`` (a reply, or a list of replies, per sample) and
    ``references`` (the ``test_column`` dicts: ``test_list_2``, the assertions,
    and ``task_id``, the contest id).  All replies of one ``task_id`` are that
    problem's samples (a dataset with ``num_repeats`` pools its repeated rows).

    Metrics: the counts ``pass``, ``timeout``, ``failed``, ``wrong_answer`` (one
    per reply); ``pass@k`` (0–100) for each ``k`` every problem has at least
    ``k`` replies for; ``outcomes``.  Details per sample (OpenCompass keys its
    details by reply and block): ``task_id``, ``result``, ``is_correct``,
    ``outcome``, ``message`` (lists for a list of replies).

    Example:
        >>> ev = LCPassKEvaluator(k=[1, 2])
        >>> ref = {'test_list_2': 'assert inc(1) == 2', 'task_id': 'weekly-1'}
        >>> res = ev.score([['def inc(x): return x + 1', 'def inc(x): return x']], [ref])
        >>> res['pass@1'], res['pass@2'], res['wrong_answer']
        (50.0, 100.0, 1)
    """

    def __init__(self, k: int | Sequence[int] = (1, 10, 100), timeout: float = 29.0, memory: int = 1024**3,
                 max_workers: int | None = None, isolation: str = "auto", pred_postprocessor: Any = None) -> None:
        super().__init__(timeout, memory, max_workers, isolation, pred_postprocessor)
        self.k = [k] if isinstance(k, int) else list(k)
        if not self.k or any(not isinstance(x, int) or x < 1 for x in self.k):
            raise ValueError(f"LCPassKEvaluator: k must be a positive int or a list of them, got {k!r}")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        replies: list[tuple[int, Any, str]] = []
        task_ids: list[Any] = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            if not isinstance(ref, dict) or "test_list_2" not in ref or "task_id" not in ref:
                return {"error": f"{name}: reference {i} is {ref!r}; expected the test_column dict (test_list_2, task_id)"}
            task_ids.append(ref["task_id"])
            for reply in pred if isinstance(pred, list) else [pred]:
                replies.append((i, reply, str(ref["test_list_2"])))
        runs = self._run(replies)
        out: dict[str, Any] = {"pass": 0, "timeout": 0, "failed": 0, "wrong_answer": 0}
        passes: dict[Any, int] = {t: 0 for t in task_ids}
        totals: dict[Any, int] = {}
        per_sample: list[list[tuple[str, Verdict]]] = [[] for _ in predictions]
        for owner, _, verdicts in runs:
            verdict, decided = _reply_verdict(verdicts)
            out[verdict] += 1
            task = task_ids[owner]
            totals[task] = totals.get(task, 0) + 1
            passes[task] += verdict == "pass"
            per_sample[owner].append((verdict, decided))
        order = sorted(totals)
        total_list = [totals[t] for t in order]
        pass_list = [passes[t] for t in order]
        for k in self.k:
            if all(t >= k for t in total_list):
                out[f"pass@{k}"] = estimate_pass_at_k(total_list, pass_list, k) * 100
        out["outcomes"] = count_kinds([v for _, _, vs in runs for v in vs])
        details: list[dict[str, Any]] = []
        for i, (pred, sample) in enumerate(zip(predictions, per_sample)):
            fields: dict[str, Any] = {
                "result": [r for r, _ in sample],
                "is_correct": [r == "pass" for r, _ in sample],
                "outcome": [v.outcome for _, v in sample],
                "message": [v.message for _, v in sample],
            }
            if not isinstance(pred, list):
                fields = {key: value[0] if value else None for key, value in fields.items()}
            details.append({"task_id": task_ids[i], **fields})
        out["details"] = details
        return out
