"""MultiPL-E's HumanEval and MBPP: ``MultiplEEvaluator``, as OpenCompass 0.5.4 and its code-evaluation service score them.

OpenCompass's evaluator (a ``CodeEvaluator``) prepares one program per
problem and posts the list of them (``name``, ``language``, ``code``) to a
code-evaluation service (a Gradio app at the config's ``ip_address``, its
``/evaluate`` endpoint); the service answers one object per program, and a
program passes when its ``status`` is ``OK``.  assay prepares the same
programs, byte for byte, and runs each itself in :mod:`assay.sandbox` with the
commands and toolchains of MultiPL-E's HumanEval
(:mod:`assay.evaluators.humaneval_multi`), judged as MultiPL-E's harness judges
them (its ``evaluation/src/eval_<language>.py``; :func:`harness_steps`), which
the service behind ``humaneval_multi`` does not:

* ``cpp``, ``java``: compiler and program 15 s each; status 0 is ``OK``; a
  compiler's error or timeout is ``SyntaxError``;
* ``cs``: ``mono`` 5 s (the compiler ``step_timeout``: the harness sets none);
  ``OK`` whatever the exit status unless standard error holds
  ``System.Diagnostics.DefaultTraceListener.Fail`` or ``Unhandled Exception``;
* ``go``: ``go test`` 30 s; ``OK`` whatever the exit status unless standard
  output holds ``[setup failed]`` or ``[build failed]`` (``SyntaxError``) or
  ``FAIL`` (``Exception``);
* ``rb``: 5 s; status 0 is ``OK``; another is ``SyntaxError`` when standard
  error holds anything, else ``Exception``;
* ``r``: 5 s; status 0 is ``OK``; another is ``SyntaxError`` when the output
  says ``unexpected``, else ``Exception``;
* ``rs``: compiler 15 s, program 5 s; status 0 is ``OK``;
* ``php``: 15 s; status 0 is ``OK`` unless standard output holds ``PHP Parse
  error`` (``SyntaxError``, whatever the status); a timeout is ``Exception``
  (the harness does not look at its reader's timeout);
* ``sh``: 15 s; status 0 is ``OK``; another is ``SyntaxError`` when standard
  error says ``syntax error``, else ``Exception``;
* ``js``: 15 s; status 0 is ``OK`` (the failures' labels are
  ``humaneval_multi``'s).

A status is the harness's label, ``: `` and the run's standard error (else its
standard output), cut to 4,000 characters.  The harness's reader keeps the
first 2 KB of each stream (``cpp``, ``java``, ``js``, ``php``, ``sh``); assay
reads them whole.

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
    _steps,
    stop_at_stop_token,
)
from assay.registry import ICL_EVALUATORS

__all__ = ["MultiplEEvaluator", "first_fenced_block", "harness_steps", "multiple_e_completion", "multiple_e_program", "remove_prompt_repeat"]

#: The fenced code block OpenCompass's ``CodeEvaluator`` takes the first of.
_FENCE = re.compile(r"```\w*\n(.*?)```", re.DOTALL)
#: How similar (``SequenceMatcher.ratio``) a reply's line must be to the prompt's last line to count as its repeat.
PREFIX_SIMILARITY = 0.95
#: Seconds MultiPL-E's harness gives a run (and Go's ``go test``, Rust's compiler) where it differs from 15.
HARNESS_SECONDS: Mapping[str, float] = {"cs": 5.0, "rb": 5.0, "r": 5.0, "rs": 5.0, "go": 30.0}


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

    def _language_steps(self, tools: Mapping[str, str], python: str) -> list[dict[str, Any]]:
        return harness_steps(self.language, tools, python, self.step_timeout)


def harness_steps(language: str, tools: Mapping[str, str], python: str, step_timeout: float) -> list[dict[str, Any]]:
    """The driver's steps for ``language`` judged as MultiPL-E's harness (its ``eval_<language>.py``) judges a run.

    The toolchains and commands are :mod:`assay.evaluators.humaneval_multi`'s; the time limits and the rules that
    decide ``OK`` are the harness's (the module's docstring lists them); a language the harness file of which
    assay does not follow here keeps humaneval_multi's steps, ``step_timeout`` seconds each.
    """
    steps = _steps(language, tools, python, step_timeout)
    seconds = HARNESS_SECONDS.get(language)
    if language in ("cpp", "java"):
        # the compiler runs under the harness's 15 s reader, whose timeout leaves status -1: a SyntaxError
        return [{**steps[0], "timeout": 15.0, "timeout_result": "SyntaxError"}, {**steps[1], "timeout": 15.0}]
    if language == "cs":
        # mono, 5 s: OK unless standard error names a failed Debug.Assert or an unhandled exception, whatever the status
        run = {k: v for k, v in steps[1].items() if k != "otherwise"}
        return [steps[0], {**run, "timeout": seconds, "any_status": True, "otherwise": "Exception: {err}"}]
    if language == "go":
        # go test, 30 s: judged on standard output alone, whatever the status
        run = {k: v for k, v in steps[0].items() if k not in ("fail_on_stdout", "fail_on_result")}
        return [{**run, "timeout": seconds, "any_status": True,
                 "checks": [["stdout", "[setup failed]", "SyntaxError: {err}"], ["stdout", "[build failed]", "SyntaxError: {err}"],
                            ["stdout", "FAIL", "Exception: {err}"]]}]
    if language == "rb":
        # ruby, 5 s: status 0 is OK; another is SyntaxError when standard error holds anything, else Exception
        return [{**steps[0], "timeout": seconds,
                 "otherwise": {"stderr_nonempty": True, "then": "SyntaxError: {err}", "else": "Exception: {err}"}}]
    if language == "r":
        # Rscript, 5 s: status 0 is OK; another is SyntaxError when the output says "unexpected", else Exception
        return [{**steps[0], "timeout": seconds,
                 "otherwise": {"needle": "unexpected", "both": True, "then": "SyntaxError: {err}", "else": "Exception: {err}"}}]
    if language == "rs":
        # rustc 15 s (its timeout is Timeout), the program 5 s
        return [{**steps[0], "timeout": 15.0}, {**steps[1], "timeout": seconds}]
    if language == "php":
        # php, 15 s: "PHP Parse error" on standard output is SyntaxError whatever the status; the harness does not
        # look at its reader's timeout, so a run killed there has status -1: Exception
        return [{**steps[0], "timeout": 15.0, "timeout_result": "Exception",
                 "checks": [["stdout", "PHP Parse error", "SyntaxError: {err}"]]}]
    if language == "sh":
        # bash, 15 s: status 0 is OK; another is SyntaxError when standard error says "syntax error"
        return [{**steps[0], "timeout": 15.0,
                 "otherwise": {"needle": "syntax error", "then": "SyntaxError: {err}", "else": "Exception: {err}"}}]
    if language == "js":
        return [{**steps[0], "timeout": 15.0}]
    return steps


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value
