"""DS-1000 evaluators under OpenCompass 0.5.4's names: ``DS1000Evaluator``, ``DS1000ServiceEvaluator``,
``DS1000InterpreterEvaluator``.

A DS-1000 problem is checked, as OpenCompass checks it, by a program made of the
problem's ``code_context`` with ``[insert]`` replaced by the solution, run once per
test case (``python program.py --test_case <i>``, 60 s each) in a copy of the
problem's folder; each run writes ``result/result_<i>.pkl``, which the problem's
``test_code.py`` compares with ``ans/ans<i>.pkl`` (``test(result, ans) == 1``);
``test_type`` 3 problems first have ``stringTest`` read the solution (its lines
holding ``print`` dropped as OpenCompass drops them, which skips the line after
each one dropped).  Reproduced from OpenCompass: the runs fail the problem only
when their exit statuses add up to more than 0 (a run killed by a signal or the
time limit has a negative status); only the last test case's comparison decides
(earlier ones are overwritten); ``stringTest``'s answer is overwritten too, only
its exceptions fail the problem.

Here the whole check runs in :mod:`assay.sandbox` (no network, its own uid,
resource limits): the problem's files are copied into the run's private folder,
the test-case runs are child processes of the sandbox's Python (OpenCompass calls
whatever ``python`` its ``PATH`` holds).  The problems need their library
(pandas, numpy, scipy, scikit-learn, matplotlib, PyTorch, TensorFlow) in the
sandbox's Python: a problem whose files import a module it lacks is not run and is
unscorable (``outcome`` ``missing-dependency``, the modules named), never wrong
(the modules its ``code_context`` and ``test_code.py`` import are looked up).
Like OpenCompass, the comparison unpickles what the solution wrote, in the
checking process (inside the sandbox).
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay.evaluate.base import INCOMPLETE_KEY, BaseEvaluator, SampleOutcome, incomplete_entry
from assay.evaluators.humanevalx import MISSING_DEPENDENCY, UNSCORABLE
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["DS1000Evaluator", "DS1000InterpreterEvaluator", "DS1000ServiceEvaluator", "ds1000_check_program"]

#: The libraries the service's evaluators are configured with.
_SERVICE_LIBRARIES = ("Pandas", "Numpy", "Tensorflow", "Scipy", "Sklearn", "Pytorch", "Matplotlib")
_MARK = "__assay_ds1000__"
_FILES_CAP = 64 * 1024**2
_IMPORTS = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.MULTILINE)

_DRIVER = '''import base64 as _b64, importlib.util as _iu, json as _j, os as _os, pickle as _p, subprocess as _sp, sys as _s


def _report(passed, stage, message=""):
    print("\\n" + MARK + _j.dumps({"passed": bool(passed), "stage": stage, "message": str(message)[-2000:]}))
    _s.stdout.flush()
    _os._exit(0)


for _name, _data in FILES.items():
    _os.makedirs(_os.path.dirname(_name) or ".", exist_ok=True)
    with open(_name, "wb") as _f:
        _f.write(_b64.b64decode(_data))
_os.mkdir("result")
with open("program.py", "w", encoding="utf-8") as _f:
    _f.write(CONTEXT.replace("[insert]", CODE))
_statuses, _errors = [], []
for _i in range(1, max(1, COUNT) + 1):
    try:
        _run = _sp.run([_s.executable, "program.py", "--test_case", str(_i)], capture_output=True, timeout=STEP,
                       start_new_session=True)
        _statuses.append(_run.returncode)
        if _run.returncode:
            _errors.append(_run.stderr.decode("utf-8", "replace")[-1500:])
    except _sp.TimeoutExpired:
        _statuses.append(-15)
        _errors.append(f"test case {_i}: time limit of {STEP} s reached")
if sum(_statuses) > 0:
    _report(False, "execution", "\\n".join(_errors))
try:
    _spec = _iu.spec_from_file_location("test_code", "test_code.py")
    _module = _iu.module_from_spec(_spec)
    _s.modules["test_code"] = _module
    _spec.loader.exec_module(_module)
except BaseException as _e:
    _report(False, "test_code", f"{type(_e).__name__}: {_e}")
_flag = True
if int(TEST_TYPE) == 3:
    _lines = CODE.split("\\n")
    _k = 0
    while _k < len(_lines):
        _line = _lines[_k]
        if "print" in _line and "#" not in _line.split("print"):
            _lines.remove(_line)
        _k += 1
    try:
        _flag = _module.stringTest("\\n".join(_lines))
    except Exception as _e:
        _report(False, "stringTest", f"{type(_e).__name__}: {_e}")
for _i in range(1, max(COUNT, 1) + 1):
    try:
        _ans = _p.load(open(f"ans/ans{_i}.pkl", "rb"))
        _result = _p.load(open(f"result/result_{_i}.pkl", "rb"))
        _flag = _module.test(_result, _ans) == 1
    except Exception as _e:
        _report(False, "test", f"test case {_i}: {type(_e).__name__}: {_e}")
_report(_flag, "test", "" if _flag else "the last test case's comparison failed")
'''


def _problem_files(folder: Path) -> dict[str, str]:
    """The problem folder's files, relative path → base64 (``program.py`` and ``result/`` are the run's own)."""
    files: dict[str, str] = {}
    total = 0
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        total += len(data)
        if total > _FILES_CAP:
            raise ValueError(f"DS-1000 problem {folder}: its files exceed {_FILES_CAP} bytes")
        files[path.relative_to(folder).as_posix()] = base64.b64encode(data).decode("ascii")
    return files


def ds1000_check_program(files: dict[str, str], code: str, context: str, test_case_cnt: Any, test_type: Any, step: float) -> str:
    """The program that checks one solution in the sandbox (see the module's docstring).

    Example:
        >>> compile(ds1000_check_program({}, "result = 1", "[insert]", "1", "1", 60.0), "p", "exec") is not None
        True
    """
    head = (f"FILES = {files!r}\nCODE = {code!r}\nCONTEXT = {context!r}\nCOUNT = {int(test_case_cnt)!r}\n"
            f"TEST_TYPE = {str(test_type)!r}\nSTEP = {float(step)!r}\nMARK = {_MARK!r}\n")
    return head + _DRIVER


def _imports(text: str) -> set[str]:
    return set(_IMPORTS.findall(text))


class _DS1000Runner:
    """Runs DS-1000 checks in the sandbox; a problem whose files import a module the sandbox lacks is not run."""

    def __init__(self, step: float, memory: int, max_workers: int | None, isolation: str) -> None:
        if step <= 0:
            raise ValueError(f"timeout must be positive, got {step!r}")
        self.step, self.memory, self.max_workers, self.isolation = float(step), int(memory), max_workers, isolation
        self._sandboxes: dict[int, Any] = {}

    def _sandbox(self, cases: int) -> Any:
        if cases not in self._sandboxes:
            from assay._pool import usable_cpus
            from assay.sandbox import Limits, Sandbox

            wall = self.step * cases + 30
            limits = Limits(timeout=wall, cpu_time=int(wall) + 1, memory=self.memory, processes=256,
                            file_size=256 * 1024**2, open_files=1024, tmpfs=512 * 1024**2)
            self._sandboxes[cases] = Sandbox(limits, isolation=self.isolation,  # type: ignore[arg-type]
                                             max_workers=self.max_workers or usable_cpus())
        return self._sandboxes[cases]

    def run(self, owner: str, codes: Sequence[str], refs: Sequence[Any]) -> list[tuple[bool, str, str]]:
        """(passed, outcome, message) per solution."""
        from assay.sandbox import missing_modules

        out: list[tuple[bool, str, str]] = [(False, "", "")] * len(codes)
        needs: list[set[str]] = []
        for ref in refs:
            folder = Path(str(ref["problem_path"]))
            texts = [str(ref["code_context"])]
            with contextlib.suppress(OSError):
                texts.append((folder / "test_code.py").read_text(encoding="utf-8"))
            needs.append(set().union(*map(_imports, texts)))
        absent = set(missing_modules(sorted(set().union(*needs)))) if needs else set()
        todo: dict[int, list[int]] = {}
        programs: dict[int, str] = {}
        for i, (code, ref) in enumerate(zip(codes, refs)):
            lacking = sorted(needs[i] & absent)
            if lacking:
                out[i] = (False, MISSING_DEPENDENCY, f"the sandbox's Python lacks {', '.join(lacking)}")
                continue
            folder = Path(str(ref["problem_path"]))
            if not folder.is_dir():
                raise ValueError(f"{owner}: the problem folder {folder} does not exist")
            cases = max(1, int(ref["test_case_cnt"]))
            programs[i] = ds1000_check_program(_problem_files(folder), code, str(ref["code_context"]),
                                               ref["test_case_cnt"], ref["test_type"], self.step)
            todo.setdefault(cases, []).append(i)
        for cases, indices in sorted(todo.items()):
            sandbox = self._sandbox(cases)
            logger.info("%s: checking %d solutions (%s isolation)", owner, len(indices), sandbox.isolation.value)
            for i, res in zip(indices, sandbox.run_many([programs[i] for i in indices])):
                out[i] = _verdict(res)
        return out


def _verdict(res: Any) -> tuple[bool, str, str]:
    at = res.stdout.rfind("\n" + _MARK)
    if at >= 0:
        try:
            report = json.loads(res.stdout[at + len(_MARK) + 1 :].split("\n", 1)[0])
        except ValueError:
            report = None
        if isinstance(report, dict):
            passed = bool(report.get("passed"))
            return passed, "passed" if passed else "failed", "" if passed else f"{report.get('stage')}: {report.get('message')}"
    return False, res.outcome.value if res.outcome.value != "passed" else "failed", (res.message or "no verdict")[:2000]


def _references(refs: Sequence[Any], owner: str) -> str | None:
    for i, ref in enumerate(refs):
        if not isinstance(ref, dict) or any(k not in ref for k in ("problem_path", "code_context", "test_case_cnt", "test_type")):
            return (f"{owner}: reference {i} must be DS-1000's test_column (problem_path, code_context, test_case_cnt, "
                    f"test_type), got {ref!r:.120}")
    return None


def _incomplete(outcomes: Sequence[str], messages: Sequence[str], total: int) -> list[dict[str, Any]] | None:
    missing = sorted({m for o, msg in zip(outcomes, messages) if o == MISSING_DEPENDENCY for m in msg.rsplit(" lacks ", 1)[-1].split(", ")})
    count = sum(o == MISSING_DEPENDENCY for o in outcomes)
    if not count:
        return None
    return [incomplete_entry("not_executed", count, f"{count} of {total} problems need modules the sandbox's Python lacks: {', '.join(missing)}")]


class _DS1000Base(BaseEvaluator):
    sample_outcome = SampleOutcome(correct="correct", unscorable="outcome", unscorable_values=UNSCORABLE)
    #: the reply → solution step of the evaluator itself (none: the config's postprocessor did it)
    _extract: ClassVar[Callable[[Any], str] | None] = None

    def __init__(self, timeout: float, memory: int, max_workers: int | None, isolation: str, pred_postprocessor: Any) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._runner = _DS1000Runner(timeout, memory, max_workers, isolation)

    def _check(self, codes: list[str], references: list[Any]) -> tuple[dict[str, Any], int, int]:
        """Details, the number passed and the number scored."""
        runs = self._runner.run(type(self).__name__, codes, references)
        outcomes = [o for _, o, _ in runs]
        messages = [m for _, _, m in runs]
        out: dict[str, Any] = {}
        counts: dict[str, int] = {}
        for outcome in outcomes:
            counts[outcome] = counts.get(outcome, 0) + 1
        out["outcomes"] = dict(sorted(counts.items()))
        incomplete = _incomplete(outcomes, messages, len(codes))
        if incomplete:
            out[INCOMPLETE_KEY] = incomplete
            out["missing_libraries"] = sorted({m for o, msg in zip(outcomes, messages) if o == MISSING_DEPENDENCY
                                               for m in msg.rsplit(" lacks ", 1)[-1].split(", ")})
        out["details"] = [
            {"solution": code, "problem_path": str(ref["problem_path"]), "correct": ok, "outcome": outcome, "message": msg}
            for code, ref, (ok, outcome, msg) in zip(codes, references, runs)
        ]
        scored = sum(o != MISSING_DEPENDENCY for o in outcomes)
        return out, sum(ok for ok, _, _ in runs), scored


@ICL_EVALUATORS.register_module()
class DS1000Evaluator(_DS1000Base):
    """DS-1000, OpenCompass's ``DS1000Evaluator`` (see the module's docstring).

    Inputs: ``predictions`` (solutions, after the config's ``ds1000_postprocess``,
    ``ds1000_completion_postprocess`` or ``ds1000_matplotlib_postprocess``) and
    ``references`` (the ``test_column`` of each problem).

    Metric: ``accuracy``, the share of problems passed as a fraction in [0, 1]
    (OpenCompass 0.5.4 does not multiply by 100; reproduced), over the problems
    that could be scored; ``outcomes``; ``missing_libraries`` when some are.
    OpenCompass returns no details; here each sample has ``solution``,
    ``problem_path``, ``correct``, ``outcome`` and ``message``.

    Args:
        num_workers: OpenCompass's process count (accepted; ``max_workers`` applies).
        timeout: seconds per test-case run (OpenCompass's 60).
        memory: address-space bytes per process.
        max_workers: problems checked in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.
    """

    def __init__(self, num_workers: int = 16, timeout: float = 60.0, memory: int = 8 * 1024**3, max_workers: int | None = None,
                 isolation: str = "auto", pred_postprocessor: Any = None) -> None:
        super().__init__(timeout, memory, max_workers, isolation, pred_postprocessor)
        self.num_workers = num_workers

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        error = _references(references, name)
        if error:
            return {"error": error}
        codes = ["" if p is None else str(p) for p in predictions]
        out, passed, scored = self._check(codes, references)
        result: dict[str, Any] = {"accuracy": passed / scored} if scored else {}
        return {**result, **out}


@ICL_EVALUATORS.register_module()
class DS1000ServiceEvaluator(_DS1000Base):
    """DS-1000 as OpenCompass's code-evaluation service scores it (``DS1000ServiceEvaluator``), run locally.

    OpenCompass posts ``{i: {"prediction", "gold"}}`` (a reply longer than 10,000
    characters sent as ``''``) to the service, which reads each raw reply with
    its own extraction (:func:`assay.postprocess.ds1000.ds1000_service_postprocess`;
    for ``lib='Matplotlib'`` the plot-clearing lines dropped too), checks it as
    ``DS1000Evaluator`` does and answers ``accuracy`` in percent, rounded to two
    decimals.  assay does the same without the service; ``ip_address``,
    ``port`` and ``timeout`` (the service's) are accepted and not used.

    Metric: ``accuracy`` (0–100, two decimals), over the problems that could be
    scored; details as ``DS1000Evaluator``'s, with ``prediction`` (what would be
    sent).
    """

    def __init__(self, lib: str, ip_address: str = "localhost", port: Any = "", timeout: Any = 600,
                 step_timeout: float = 60.0, memory: int = 8 * 1024**3, max_workers: int | None = None,
                 isolation: str = "auto", pred_postprocessor: Any = None) -> None:
        if lib not in _SERVICE_LIBRARIES:
            raise ValueError(f"DS1000ServiceEvaluator: lib must be one of {list(_SERVICE_LIBRARIES)}, got {lib!r}")
        super().__init__(step_timeout, memory, max_workers, isolation, pred_postprocessor)
        self.lib = lib
        self.ip_address, self.port, self.service_timeout = ip_address, port, timeout

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay.postprocess.ds1000 import ds1000_service_matplotlib_postprocess, ds1000_service_postprocess

        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        error = _references(references, name)
        if error:
            return {"error": error}
        sent = ["" if p is None else str(p) for p in predictions]
        sent = ["" if len(p) > 10000 else p for p in sent]
        extract = ds1000_service_matplotlib_postprocess if self.lib == "Matplotlib" else ds1000_service_postprocess
        out, passed, scored = self._check([extract(p) for p in sent], references)
        for detail, prediction in zip(out["details"], sent):
            detail["prediction"] = prediction
        result: dict[str, Any] = {"accuracy": round(passed / scored * 100, 2)} if scored else {}
        return {**result, **out}


@ICL_EVALUATORS.register_module()
class DS1000InterpreterEvaluator(BaseEvaluator):
    """DS-1000 solved with a code interpreter, OpenCompass's ``DS1000InterpreterEvaluator``.

    Inputs: ``predictions``, ``references`` (counted only) and ``steps`` (the
    prediction files' field: per reply, the agent's steps, dicts with ``type``,
    ``args``, ``result`` and ``errmsg``).  A reply's action is its last step of
    type ``action``.  Over the ``total`` replies (in [0, 100]): ``action_pct``
    (an action), ``soft_code_acc`` (an action without ``errmsg``),
    ``follow_acc`` (an action whose code, ``args['text']``, holds ``assert``)
    and ``code_acc`` (such an action whose ``result['text']`` is ``'True'``).
    No details, as in OpenCompass.

    >>> step = lambda code, out: [{'type': 'PythonInterpreter', 'args': {'text': code}, 'result': {'text': out}, 'errmsg': None}]
    >>> r = DS1000InterpreterEvaluator().score(['', ''], ['', ''], [step('assert f() == 1', 'True'), []])
    >>> r['action_pct'], r['code_acc']
    (50.0, 50.0)
    """

    sample_decomposable = False
    sample_outcome: ClassVar[SampleOutcome | None] = None

    def __init__(self, action: str = "PythonInterpreter") -> None:
        super().__init__()
        self.action = action

    def score(self, predictions: list[Any], references: list[Any], steps: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        total = len(references)
        if not total:
            return {"error": f"{name}: no samples to score"}
        acted = soft = follow = success = 0
        for i, reply_steps in enumerate(steps):
            if not isinstance(reply_steps, list):
                return {"error": f"{name}: steps of sample {i} must be a list of step dicts, got {reply_steps!r:.80}"}
            found = next((s for s in reversed(reply_steps) if isinstance(s, dict) and s.get("type") == self.action), None)
            if not found:
                continue
            acted += 1
            if not found.get("errmsg"):
                soft += 1
            args = found.get("args")
            if args and "assert" in args["text"]:
                follow += 1
                if found.get("result"):
                    success += found["result"]["text"] == "True"
        return {
            "action_pct": 100 * acted / total,
            "soft_code_acc": 100 * soft / total,
            "follow_acc": 100 * follow / total,
            "code_acc": 100 * success / total,
        }
