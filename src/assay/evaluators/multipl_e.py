"""MultiPL-E's HumanEval and MBPP: ``MultiplEEvaluator``, as OpenCompass 0.5.4 and its code-evaluation service score them.

OpenCompass's evaluator (a ``CodeEvaluator``) prepares one program per
problem and posts the list of them (``name``, ``language``, ``code``) to a
code-evaluation service (a Gradio app at the config's ``ip_address``, its
``/evaluate`` endpoint); the service answers one object per program, and a
program passes when its ``status`` is ``OK``.  assay prepares the same
programs, byte for byte, and runs each itself in :mod:`assay.sandbox` with the
runners of MultiPL-E's HumanEval (:mod:`assay.evaluators.humaneval_multi`: the
same per-language steps, toolchains and statuses).

The program of a problem and its reply (:func:`multiple_e_program`) is
``prompt + completion + "\\n" + tests``, the completion being the reply

1. cut to the body of its first fenced code block (a line ````` ```lang `````
   up to the next ````` ``` `````), when it has one (:func:`first_fenced_block`);
2. with everything up to and including the first of its lines that is at
   least 95 % similar to the prompt's last line removed (``difflib``'s
   ``SequenceMatcher`` ratio; the remaining lines joined with ``\\n``, which
   drops a trailing newline), when a line is (:func:`remove_prompt_repeat`);
3. cut at the earliest of the problem's own ``stop_tokens``
   (:func:`~assay.evaluators.humaneval_multi.stop_at_stop_token`).

OpenCompass's quirk, kept: step 2 drops the newline after a block's last
line, so a C# or Java reply whose block ends with the method's closing brace
keeps it (their stop token, ``"\n    }\n"``, needs the newline) and its
program does not compile.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import count_outcomes
from assay.evaluators._common import check_batch
from assay.evaluators._compiled_driver import rows_of_test_set
from assay.evaluators.humaneval_multi import (
    MISSING_DEPENDENCY,
    UNSCORABLE,
    UNSUPPORTED,
    HumanevalMultiEvaluator,
    stop_at_stop_token,
)
from assay.registry import ICL_EVALUATORS

__all__ = ["MultiplEEvaluator", "first_fenced_block", "multiple_e_completion", "multiple_e_program", "remove_prompt_repeat"]

#: The fenced code block OpenCompass's ``CodeEvaluator`` takes the first of.
_FENCE = re.compile(r"```\w*\n(.*?)```", re.DOTALL)
#: How similar (``SequenceMatcher.ratio``) a reply's line must be to the prompt's last line to count as its repeat.
PREFIX_SIMILARITY = 0.95


def first_fenced_block(text: str) -> str:
    """The body of ``text``'s first fenced code block, or ``text`` when it has none.

    Example:
        >>> first_fenced_block('Here:\\n```cpp\\nint x;\\n```\\nand\\n```\\nint y;\\n```')
        'int x;\\n'
        >>> first_fenced_block('    return 1;')
        '    return 1;'
    """
    blocks = _FENCE.findall(text)
    return blocks[0] if blocks else text


def remove_prompt_repeat(prompt: str, completion: str, threshold: float = PREFIX_SIMILARITY) -> str:
    """``completion`` after its first line at least ``threshold`` similar to ``prompt``'s last line (the rest of its
    lines joined with ``\\n``); ``completion`` unchanged when no line is, or ``prompt`` has no line.

    Example:
        >>> remove_prompt_repeat('// adds\\nlong add(long x, long y) {\\n', 'long add(long x, long y) {\\n    return x + y;\\n}\\n')
        '    return x + y;\\n}'
    """
    prompt_lines = prompt.splitlines()
    if not prompt_lines:
        return completion
    last = prompt_lines[-1]
    lines = completion.splitlines()
    for i, line in enumerate(lines):
        if difflib.SequenceMatcher(None, last, line).ratio() >= threshold:
            return "\n".join(lines[i + 1:])
    return completion


def multiple_e_completion(problem: Mapping[str, Any], reply: Any) -> str:
    """The completion OpenCompass's ``MultiplEEvaluator`` makes of ``reply``: first code block, the prompt's repeat
    removed, cut at the problem's stop tokens.

    Example:
        >>> multiple_e_completion({'prompt': 'def f(x):\\n', 'stop_tokens': ['\\ndef']},
        ...                       '```python\\ndef f(x):\\n    return x\\ndef g(): pass\\n```')
        '    return x'
    """
    text = first_fenced_block("" if reply is None else str(reply))
    text = remove_prompt_repeat(str(problem.get("prompt") or ""), text)
    return stop_at_stop_token(text, [str(t) for t in (problem.get("stop_tokens") or [])])


def multiple_e_program(problem: Mapping[str, Any], completion: str) -> str:
    """The program posted for ``problem``: its prompt, the completion, a newline, its tests.

    Example:
        >>> multiple_e_program({'prompt': 'def f(x):\\n', 'tests': 'assert f(1) == 1\\n'}, '    return x')
        'def f(x):\\n    return x\\nassert f(1) == 1\\n'
    """
    return str(problem.get("prompt") or "") + completion + "\n" + str(problem.get("tests") or "")


@ICL_EVALUATORS.register_module()
class MultiplEEvaluator(HumanevalMultiEvaluator):
    """MultiPL-E's pass@1 for one language, the programs run locally as OpenCompass's service runs them.

    Inputs: ``predictions`` (replies), ``references`` (the reader's output
    column, ``tests``; unused) and ``test_set`` (the MultiPL-E rows: ``name``,
    ``language``, ``prompt``, ``tests``, ``stop_tokens``).  As OpenCompass:
    the problems are the rows with a distinct value in the test set's first
    column (``name`` in MultiPL-E's files), in order, and problem ``i`` is
    scored on reply ``i``.

    Metric (OpenCompass's, 0–100): ``pass@1`` — 100 × the programs whose
    status is ``OK`` / the problems.  A config's ``n`` (the repeat file's
    5) scores each of the ``n`` runs so, and assay's evaluation averages them
    (``pass@1 (5 runs average)``) and adds G-Pass@k from the details'
    ``correct``, as OpenCompass does.  ``outcomes`` counts the outcomes.
    Details per problem: ``name``, ``language``, ``prompt``, ``completion``
    (what is put between prompt and tests), ``status`` (MultiPL-E's: ``OK``,
    ``SyntaxError: …``, ``Exception: …``, ``Timeout``), ``correct``,
    ``outcome`` and ``message``.

    Differences from OpenCompass 0.5.4: no service is called (``ip_address``
    and ``retry`` are accepted and unused), so no details of the service's
    reply; the languages assay runs are those of
    :mod:`assay.evaluators.humaneval_multi` (the library's ten all are), the
    others' samples, and those of a language whose toolchain is missing, are
    unscorable and counted as not passing.  OpenCompass's own quirk is kept:
    when a run's rows repeat a name, reply ``i`` goes with the ``i``-th
    distinct problem and the replies past their number are not scored.

    Args:
        language: MultiPL-E's language key (``'cpp'``, ``'rs'``, …).
        ip_address, retry: OpenCompass's service address and retries; unused.
        step_timeout, memory, max_workers, isolation, javatuples: as
            :class:`~assay.evaluators.humaneval_multi.HumanevalMultiEvaluator`.
    """

    sample_outcome = SampleOutcome(correct="correct", unscorable="outcome", unscorable_values=UNSCORABLE)

    def __init__(
        self,
        language: str = "py",
        ip_address: str = "localhost",
        retry: int = 5,
        step_timeout: float = 15.0,
        memory: int = 4 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        javatuples: str | None = None,
        pred_postprocessor: Any = None,
    ) -> None:
        BaseEvaluator.__init__(self, pred_postprocessor=pred_postprocessor)
        self.language = str(language)
        self.ip_address, self.retry = ip_address, retry
        self.step_timeout = float(step_timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self.javatuples = javatuples
        self._sandbox: Any = None

    def prepare(self, predictions: Sequence[Any], test_set: Any) -> list[dict[str, Any]]:
        """What OpenCompass posts to its service for one run: per distinct problem, ``name``, ``language`` and
        ``code`` (the program), with the ``completion`` and ``prompt`` it was made of."""
        name = type(self).__name__
        rows = rows_of_test_set(test_set)
        if rows is None:
            raise ValueError(f"{name}: needs the test set (the MultiPL-E rows)")
        if not rows:
            raise ValueError(f"{name}: the test set has no rows")
        for i, row in enumerate(rows):
            missing = [c for c in ("name", "language", "prompt", "tests", "stop_tokens") if c not in row]
            if missing:
                raise ValueError(f"{name}: test set row {i} lacks {', '.join(missing)}")
        first = next(iter(rows[0]))
        problems: list[dict[str, Any]] = []
        seen: set[Any] = set()
        for row in rows:
            key = _hashable(row[first])
            if key not in seen:
                seen.add(key)
                problems.append(row)
        out = []
        for problem, reply in zip(problems, predictions):
            completion = multiple_e_completion(problem, reply)
            out.append({"name": problem["name"], "language": problem["language"],
                        "code": multiple_e_program(problem, completion), "completion": completion,
                        "prompt": problem["prompt"]})
        return out

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        try:
            posts = self.prepare(predictions, test_set)
        except ValueError as exc:
            return {"error": str(exc)}
        runs = self._run_programs([p["code"] for p in posts])
        passed = [status == "OK" for status, _, _ in runs]
        out: dict[str, Any] = {"pass@1": 100 * sum(passed) / len(posts)}
        out["outcomes"] = count_outcomes(o for _, o, _ in runs)
        missing = sorted({m for (_, o, m) in runs if o in (MISSING_DEPENDENCY, UNSUPPORTED)})
        if missing:
            out["missing_dependencies"] = missing
        out["details"] = [
            {"name": p["name"], "language": p["language"], "prompt": p["prompt"], "completion": p["completion"],
             "status": status, "correct": ok, "outcome": outcome, "message": message}
            for p, (status, outcome, message), ok in zip(posts, runs, passed)
        ]
        return out


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value
