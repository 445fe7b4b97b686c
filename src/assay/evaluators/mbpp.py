"""MBPP evaluators under OpenCompass's names: ``MBPPEvaluator`` and ``MBPPPassKEvaluator``.

A reply is cut to its code as OpenCompass 0.5.4 cuts it
(:func:`mbpp_extract_code`); the program is the code, then the test
assertions rewritten to compare values type-aware (``assert f(x) == y``
fails when the types differ or ``__eq__`` is forged), both run with ``exec``
in one fresh globals dict inside :mod:`assay.sandbox` (one isolated process
per program, resource limits, no network, no view of the caller's files).

The test assertions run in a second process of the sandbox that calls the
code's functions through a pipe and compares the plain values they return
(:func:`assay.evaluators._code_exec.checked_program`).  Difference from
OpenCompass 0.5.4: a reply that forges a pass there (reports the harness's
result itself, found by walking the stack; patches the tests) is a wrong
answer or a failure here; honest replies get OpenCompass's verdicts.

Each program ends as one of OpenCompass's four verdicts: ``pass``,
``wrong_answer`` (an ``AssertionError``), ``failed`` (any other exception,
a syntax error, a crash, the memory limit) or ``timeout``.  ``outcomes``
counts the sandbox's outcomes besides, so that programs that could not be run
to a verdict (``timeout``, ``memory``, ``killed``) stay apart from wrong ones.

Time: OpenCompass stops a program after 9 s (an alarm inside a child process
given 10 s), so a slow correct solution passes or not depending on the
machine; the default ``timeout`` here is the same 9 s of wall-clock time,
which also covers starting the sandboxed interpreter.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import Checked, SandboxPool, Verdict, checked_program, count_kinds, harden_assertions
from assay.evaluators._common import check_batch
from assay.evaluators.code import estimate_pass_at_k
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["MBPPEvaluator", "MBPPPassKEvaluator", "mbpp_extract_code", "mbpp_verdict"]

# The reply shapes OpenCompass tries in turn; the first that matches gives the code.
_ANSWER_PATTERNS: tuple[str, ...] = (
    r"\[BEGIN\]\s*'(.*)'\s*\[DONE\]",
    r"BEGIN\s*'(.*)'\s*\[DONE\]",
    r"\[BEGIN\]\s*'(.*)'\s*DONE",
    r"BEGIN\s*'(.*)'\s*DONE",
    r"\[BEGIN\]\s*'(.*)\s*\[DONE\]",
    r"BEGIN\s*'(.*)\s*\[DONE\]",
    r"\[BEGIN\]\s*'(.*)\s*DONE",
    r"BEGIN\s*'(.*)\s*DONE",
    r"\[BEGIN\]\s*(.*)\s*\[DONE\]",
    r"BEGIN\s*(.*)\s*\[DONE\]",
    r"\[BEGIN\]\s*(.*)\s*DONE",
    r"BEGIN\s*(.*)\s*DONE",
    r"```python\s*(.*)\s*```",
    r"```\s*(.*)\s*```",
    r"```python\s*(.*)\s*$",
    r"```\s*(.*)\s*$",
    r"(.*)\s*```.*",
    r"\[BEGIN\]\s*'(.*)",
    r"\[BEGIN\](.*)",
    r"'(.*)'\s*\[DONE\]",
)
_PATTERN_SECONDS = 10.0


def mbpp_extract_code(text: Any) -> str:
    """The code OpenCompass's ``MBPPEvaluator`` takes from a reply.

    The first of its twenty patterns that matches (``[BEGIN] '...' [DONE]``
    variants, then fenced blocks, greedy: from the first fence to the last)
    gives the text; a pattern running longer than 10 s counts as not matching;
    the text is then cut at the next fence and at a ``DONE`` marker, ``\\_``
    becomes ``_``, and it is stripped.

    Example:
        >>> mbpp_extract_code("[BEGIN]\\n 'def f():\\n    return 1' \\n[DONE]")
        'def f():\\n    return 1'
        >>> mbpp_extract_code("Here:\\n```python\\ndef f(): return 2\\n```\\nBye")
        'def f(): return 2'
    """
    import regex

    s = "" if text is None else str(text)
    for pattern in _ANSWER_PATTERNS:
        try:
            match = regex.search(pattern, s, regex.DOTALL, timeout=_PATTERN_SECONDS)
        except TimeoutError:
            match = None
        if match:
            s = match.group(1)
            break
    s = s.split("```")[0]
    s = regex.split(r"'?\s*\[?DONE\]?", s)[0]
    return s.replace("\\_", "_").strip()


def mbpp_verdict(v: Verdict) -> str:
    """OpenCompass's verdict name for one run: ``pass``, ``wrong_answer``, ``timeout`` or ``failed``.

    Example:
        >>> from assay.evaluators._code_exec import Verdict
        >>> mbpp_verdict(Verdict('assertion', 'failed')), mbpp_verdict(Verdict('memory', 'memory'))
        ('wrong_answer', 'failed')
    """
    if v.kind == "pass":
        return "pass"
    if v.kind == "assertion":
        return "wrong_answer"
    if v.kind == "timeout":
        return "timeout"
    return "failed"


class _MBPPBase(BaseEvaluator):
    def __init__(self, timeout: float, memory: int, max_workers: int | None, isolation: str, pred_postprocessor: Any) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    @property
    def timeout(self) -> float:
        return self._pool.timeout

    def _program(self, reply: Any, tests: str) -> tuple[str, str, Checked]:
        code = mbpp_extract_code(reply)
        hardened = harden_assertions(tests)
        return code, hardened, checked_program([code], [hardened], type_aware_equal=True)


@ICL_EVALUATORS.register_module()
class MBPPEvaluator(_MBPPBase):
    """MBPP functional correctness, OpenCompass's ``MBPPEvaluator``.

    Inputs: ``predictions`` (one reply per sample) and ``references`` (the
    ``test_list_2`` column: the assertions, one per line).

    Metrics: ``pass``, ``timeout``, ``failed``, ``wrong_answer`` (counts),
    ``score`` (100 × pass / samples) and ``outcomes`` (sandbox outcome
    counts).  Details per sample: ``origin`` (the reply), ``programs`` (the
    extracted code and the type-aware tests), ``result`` (the verdict),
    ``is_correct``, ``outcome`` and ``message``.

    With ``metric='MBPPPlus'`` each extracted solution is checked by EvalPlus
    differential testing instead (:mod:`assay.evaluators.evalplus`; the
    problems come from the MBPP+ data file, ``plus_path``), and the metric is
    ``mbpp_plus_pass@1``: 100 × the share of *tasks* whose first solution
    passed the extra tests (OpenCompass looks at the plus status only, and at
    one solution per task; reproduced).

    Args:
        metric: ``'MBPP'`` or ``'MBPPPlus'`` (see above).
        plus_path: the MBPP+ data file for ``metric='MBPPPlus'``.
        timeout: wall-clock seconds per program (OpenCompass: 9 s).
        memory: address-space bytes per program.
        max_workers: programs run in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.

    Example:
        >>> ev = MBPPEvaluator()
        >>> res = ev.score(["[BEGIN]\\n 'def inc(x):\\n    return x + 1' \\n[DONE]"], ["assert inc(1) == 2"])
        >>> res['score'], res['pass'], res['details'][0]['result']
        (100.0, 1, 'pass')
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        metric: str = "MBPP",
        timeout: float = 9.0,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
        plus_path: str | None = None,
    ) -> None:
        if metric not in ("MBPP", "MBPPPlus"):
            raise ValueError(f"MBPPEvaluator: metric must be 'MBPP' or 'MBPPPlus', got {metric!r}")
        super().__init__(timeout, memory, max_workers, isolation, pred_postprocessor)
        self.metric = metric
        self.plus_path = plus_path
        self._plus: Any = None

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        if self.metric != "MBPP":
            return self._score_plus(predictions, references)
        parts = [self._program(pred, str(ref)) for pred, ref in zip(predictions, references)]
        verdicts = self._pool.run(name, [p[2] for p in parts])
        out: dict[str, Any] = {"pass": 0, "timeout": 0, "failed": 0, "wrong_answer": 0}
        details: list[dict[str, Any]] = []
        for pred, (code, tests, _), v in zip(predictions, parts, verdicts):
            verdict = mbpp_verdict(v)
            out[verdict] += 1
            details.append(
                {
                    "origin": pred,
                    "programs": [code, tests],
                    "result": verdict,
                    "is_correct": verdict == "pass",
                    "outcome": v.outcome,
                    "message": v.message,
                }
            )
        out["score"] = out["pass"] / len(predictions) * 100
        out["isolation"] = self._pool.isolation_name
        out["outcomes"] = count_kinds(verdicts)
        out["details"] = details
        return out

    def _score_plus(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay.evaluators.evalplus import _MEMORY, _PER_CHECK_CAP, EvalPlusRunner, mbpp_plus_score

        if self._plus is None:
            pool = SandboxPool(_PER_CHECK_CAP, _MEMORY, self._pool.max_workers, self._pool.isolation)
            self._plus = EvalPlusRunner("mbpp", pool)
        solutions: list[tuple[str, str]] = []
        owners: list[int] = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            for reply in pred if isinstance(pred, list) else [pred]:
                solutions.append((str(ref), mbpp_extract_code(reply)))
                owners.append(i)
        return mbpp_plus_score(self._plus, self.plus_path, type(self).__name__, solutions, owners, len(predictions))


@ICL_EVALUATORS.register_module()
class MBPPPassKEvaluator(_MBPPBase):
    """MBPP pass@k, OpenCompass's ``MBPPPassKEvaluator``.

    Inputs: ``predictions`` (a reply, or a list of replies, per sample) and
    ``references`` (the ``test_column`` column: ``{'test_list_2', 'task_id'}``).
    All replies of one ``task_id`` form that problem's samples.

    Metrics: the verdict counts ``pass``, ``timeout``, ``failed``,
    ``wrong_answer``; ``pass@k`` (0–100) for each ``k`` every problem has at
    least ``k`` samples for; ``outcomes``.  OpenCompass returns no details;
    here each sample has ``task_id``, ``result`` (its verdict, a list for a
    list of replies), ``is_correct``, ``outcome`` and ``message``.

    Args:
        k: the k values (OpenCompass's default ``(1, 10, 100)``).
        timeout, memory, max_workers, isolation, pred_postprocessor: as
            :class:`MBPPEvaluator`.

    Example:
        >>> ev = MBPPPassKEvaluator(k=[1, 2])
        >>> ref = {'test_list_2': 'assert inc(1) == 2', 'task_id': 7}
        >>> res = ev.score([['def inc(x): return x + 1', 'def inc(x): return x']], [ref])
        >>> res['pass@1'], res['pass@2'], res['wrong_answer']
        (50.0, 100.0, 1)
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        k: int | Sequence[int] = (1, 10, 100),
        timeout: float = 9.0,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(timeout, memory, max_workers, isolation, pred_postprocessor)
        self.k = [k] if isinstance(k, int) else list(k)
        if not self.k or any(not isinstance(x, int) or x < 1 for x in self.k):
            raise ValueError(f"MBPPPassKEvaluator: k must be a positive int or a list of them, got {k!r}")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        owners: list[int] = []
        programs: list[Checked] = []
        task_ids: list[Any] = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            if not isinstance(ref, dict) or "test_list_2" not in ref or "task_id" not in ref:
                return {"error": f"{name}: reference {i} is {ref!r}; expected the test_column dict (test_list_2, task_id)"}
            task_ids.append(ref["task_id"])
            for reply in pred if isinstance(pred, list) else [pred]:
                owners.append(i)
                programs.append(self._program(reply, str(ref["test_list_2"]))[2])
        verdicts = self._pool.run(name, programs)

        out: dict[str, Any] = {"pass": 0, "timeout": 0, "failed": 0, "wrong_answer": 0}
        passes: dict[Any, int] = {t: 0 for t in task_ids}
        totals: dict[Any, int] = {}
        per_sample: list[list[Verdict]] = [[] for _ in predictions]
        for i, v in zip(owners, verdicts):
            verdict = mbpp_verdict(v)
            out[verdict] += 1
            totals[task_ids[i]] = totals.get(task_ids[i], 0) + 1
            passes[task_ids[i]] += verdict == "pass"
            per_sample[i].append(v)
        order = sorted(totals)
        total_list = [totals[t] for t in order]
        pass_list = [passes[t] for t in sorted(passes)]
        if len(pass_list) == len(total_list):
            for k in self.k:
                if all(t >= k for t in total_list):
                    out[f"pass@{k}"] = estimate_pass_at_k(total_list, pass_list, k) * 100
        out["isolation"] = self._pool.isolation_name
        out["outcomes"] = count_kinds(verdicts)
        details: list[dict[str, Any]] = []
        for i, (pred, runs) in enumerate(zip(predictions, per_sample)):
            fields: dict[str, Any] = {
                "result": [mbpp_verdict(v) for v in runs],
                "is_correct": [v.passed for v in runs],
                "outcome": [v.outcome for v in runs],
                "message": [v.message for v in runs],
            }
            if not isinstance(pred, list):
                fields = {key: value[0] if value else None for key, value in fields.items()}
            details.append({"task_id": task_ids[i], **fields})
        out["details"] = details
        return out
