"""HumanEval Pro and MBPP Pro: ``HumanevalProEvaluator`` and ``MBPPProEvaluator``, run locally.

OpenCompass 0.5.4 builds, for each problem, the program ``<the reply's first fenced
block (else the reply)> + "\\n" + test_code`` and sends the programs to a code-evaluation
service (MultiPL-E's runner behind a Gradio app), which runs each with Python and
answers a ``status`` per program: ``pass@1`` is 100 × the share of programs whose
status is ``'OK'`` (they ran to the end with exit status 0).  assay builds the same
programs and runs each in :mod:`assay.sandbox` (no network, its own uid, resource
limits), reading the run as that runner does: ``'OK'``, ``'SyntaxError'`` (a syntax
error on standard error), ``'Exception'`` (another failure) or ``'Timeout'``.
Difference: a program that ends early with status 0 (``sys.exit(0)`` before the
tests) is ``'Exception'`` here, as the sandbox passes only programs that reach their
last line.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanevalProEvaluator", "MBPPProEvaluator", "PRO_PROMPT_WRAPPER", "service_extract_code"]

#: The prompt OpenCompass's Pro evaluators record with each result.
PRO_PROMPT_WRAPPER = (
    "You are an exceptionally intelligent coding assistant that consistently delivers accurate and reliable "
    "responses to user instructions.\nWrite a solution of python file to the following problems, the solution of "
    "the second problem requires single or multiple calls to the first solution.\n```python\n{raw_problem}\n"
    "{new_problem}\n```\nPlease put the two solutions within the Python code block provided below, and make sure "
    "that the block contains no other unrelated content:\n```python\n```\n"
)
_BLOCK = re.compile(r"```\w*\n(.*?)```", re.DOTALL)


def service_extract_code(text: Any) -> str:
    """The first fenced block whose fence has a word-only tag and ends its line, else the text (OpenCompass's
    ``CodeEvaluator._extract_code``).

    Example:
        >>> service_extract_code("Here:\\n```python\\ndef f():\\n    return 1\\n```\\n```\\nx\\n```")
        'def f():\\n    return 1\\n'
    """
    s = "" if text is None else str(text)
    blocks = _BLOCK.findall(s)
    return blocks[0] if blocks else s


def _status(res: Any) -> str:
    if res.passed:
        return "OK"
    if res.outcome.value == "timeout":
        return "Timeout"
    if "SyntaxError" in (res.stderr or "") or "SyntaxError" in (res.message or ""):
        return "SyntaxError"
    return "Exception"


class _ProEvaluator(BaseEvaluator):
    sample_outcome = SampleOutcome(correct="correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(self, language: str = "py", ip_address: str = "localhost", retry: int = 5, timeout: float = 5.0,
                 memory: int = 2 * 1024**3, max_workers: int | None = None, isolation: str = "auto",
                 pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if language not in ("py", "python"):
            raise ValueError(f"{type(self).__name__}: only Python programs are run (language 'py'), got {language!r}")
        if timeout <= 0:
            raise ValueError(f"{type(self).__name__}: timeout must be positive, got {timeout!r}")
        self.language, self.ip_address, self.retry = language, ip_address, retry
        self.timeout, self.memory, self.max_workers, self.isolation = float(timeout), int(memory), max_workers, isolation
        self._sandbox: Any = None

    def _run(self, programs: list[str]) -> list[Any]:
        if self._sandbox is None:
            from assay._pool import usable_cpus
            from assay.sandbox import Limits, Sandbox

            self._sandbox = Sandbox(Limits(timeout=self.timeout, memory=self.memory), isolation=self.isolation,  # type: ignore[arg-type]
                                    max_workers=self.max_workers or usable_cpus())
        logger.info("%s: running %d programs (%s isolation)", type(self).__name__, len(programs), self._sandbox.isolation.value)
        return list(self._sandbox.run_many(programs))

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length. "
                             f"len(predictions): {len(predictions)}, len(references): {len(references)}"}
        if test_set is None:
            return {"error": f"{name}: needs the test set (columns id, raw_problem, new_problem, test_code)"}
        columns = list(getattr(test_set, "column_names", None) or [])
        missing = [c for c in ("id", "raw_problem", "new_problem", "test_code") if c not in columns]
        if missing:
            return {"error": f"{name}: the test set lacks the column(s) {', '.join(missing)}"}
        rows: list[dict[str, Any]] = []
        seen: set[Any] = set()
        for row in test_set:  # the first occurrence of each value of the first column, as OpenCompass keeps them
            key = row[columns[0]]
            if key not in seen:
                seen.add(key)
                rows.append(dict(row))
        if len(rows) > len(predictions):
            return {"error": f"{name}: {len(rows)} problems but {len(predictions)} predictions"}
        codes = [service_extract_code(pred) + "\n" + str(row["test_code"]) for pred, row in zip(predictions, rows)]
        results = self._run(codes)
        details = []
        for row, code, res in zip(rows, codes, results):
            status = _status(res)
            details.append({
                "name": int(row["id"]), "language": self.language, "code": code, "status": status,
                "exit_code": res.exit_code, "stderr": res.stderr[-2000:], "outcome": res.outcome.value,
                "prompt": PRO_PROMPT_WRAPPER.format(raw_problem=row["raw_problem"], new_problem=row["new_problem"]),
                "correct": status == "OK",
            })
        correct = sum(d["correct"] for d in details)
        return {"pass@1": 100 * correct / len(rows), "details": details}


@ICL_EVALUATORS.register_module()
class HumanevalProEvaluator(_ProEvaluator):
    """HumanEval Pro (see the module's docstring); OpenCompass's ``HumanevalProEvaluator``.

    Inputs: ``predictions`` (one reply per problem), ``references`` (counted
    only) and ``test_set`` (``id``, ``raw_problem``, ``new_problem``,
    ``test_code``).  Metric ``pass@1`` (0–100); details per problem: ``name``
    (the id), ``language``, ``code``, ``status``, ``exit_code``, ``stderr``,
    ``outcome`` (the sandbox's), ``prompt`` and ``correct``.  ``ip_address``
    and ``retry`` (the service's) are accepted and not used; ``timeout`` is
    wall-clock seconds per program (MultiPL-E's Python runner allows 5 s; here
    they also cover starting the sandboxed interpreter).
    """


@ICL_EVALUATORS.register_module()
class MBPPProEvaluator(_ProEvaluator):
    """MBPP Pro, as :class:`HumanevalProEvaluator` (OpenCompass's two classes compute the same)."""
