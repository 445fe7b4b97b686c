"""SciCode's evaluator under OpenCompass 0.5.4's name: ``SciCodeEvaluator``.

A SciCode problem is solved in steps, one reply per step (OpenCompass's
``ChatInferencer`` in ``every`` mode writes them as the sample's list of
replies).  For each step a program is built, as OpenCompass builds it: the
problem's ``import`` lines, then the code of every reply so far — each reply's
text between its first ``python`` fence and the next fence, its ``import``
and ``from … import`` lines removed, or nothing when the reply has no such
fence — then the step's test cases, each preceded by ``target = targets[i]``.
The step passes when its program runs to its end (a failed assertion, any
exception, or more than ``timeout`` seconds fail it).  Problems ``13`` (from
its sixth reply on), ``62`` (every reply) and ``76`` (from its third reply
on) take the test cases of the step after the reply's, as OpenCompass
numbers them.  The problems and their test cases come from the evaluator's
own ``dataset_path`` (row ``i`` for sample ``i``), not from the test set.

Metrics: ``accuracy``, the percentage of problems all of whose steps pass, and
``sub_accuracy``, the percentage of steps that pass.  Programs are named
``<problem id>-<step>`` and grouped by the id up to its first ``-``; a second
sample of the same problem and step replaces the first, as the second file
written replaces the first in OpenCompass.

The targets are read from ``test_data/<problem id>.<step>.h5`` under
``./data/scicode`` (``$COMPASS_DATA_CACHE`` first, as OpenCompass's
``get_data_path`` resolves it; the folder OpenCompass reads whatever the
config's ``dataset_path``): group ``<step>/test<k>``, one value when it holds one
member, else a tuple of its members in the file's order; a member group is a
list (``list``), a sparse matrix (``sparse_matrix``: COO with ``row``/``col``,
BSR with ``blocksize``, else CSR) or a dict (keys that read as numbers become
floats; byte strings are decoded).  Reading needs ``h5py`` (the ``scicode``
extra); the programs run in :mod:`assay.sandbox` and need numpy and scipy, and
the libraries the problems import, in the sandbox's Python.  A step whose file
or test group is missing fails, as in OpenCompass; a missing ``test_data``
folder is an error record naming it.

Deviations from OpenCompass 0.5.4, which has a race: it pairs the scripts with
their exit statuses in the order the runs *finish*, so a problem can be
credited with another's steps; assay pairs each program with its own run.
OpenCompass also scores every script left in the result folder by earlier runs;
assay scores this run's programs only.  Scripts are not written to disk.
"""

from __future__ import annotations

import base64
import logging
import os
import pickle
import re
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["SciCodeEvaluator", "read_scicode_targets"]

_IMPORT_LINE = re.compile(r"^\s*(import .*|from .*\s+import\s+.*)", re.MULTILINE)
#: problem id → the first reply (0-based) from which the step numbering skips one
_SKIPPED_STEP = {"13": 5, "62": 0, "76": 2}


def _reply_code(reply: str) -> str:
    """The code of a reply: between its first ``python`` fence and the next fence, imports removed."""
    if "```python" not in reply or "```" not in reply:
        return ""
    code = reply.split("```python")[1].split("```")[0]
    return _IMPORT_LINE.sub("", code)


def _sparse(group: Any) -> Any:
    import scipy.sparse

    data, shape = group["data"][()], tuple(group["shape"][()])
    if "row" in group and "col" in group:
        return scipy.sparse.coo_matrix((data, (group["row"][()], group["col"][()])), shape=shape)
    if "blocksize" in group:
        return scipy.sparse.bsr_matrix((data, group["indices"][()], group["indptr"][()]), shape=shape,
                                       blocksize=tuple(group["blocksize"][()]))
    return scipy.sparse.csr_matrix((data, group["indices"][()], group["indptr"][()]), shape=shape)


def _value(item: Any) -> Any:
    """A member of a test group: a dataset's value (bytes decoded), or a group read by its first key."""
    import h5py

    if isinstance(item, h5py.Group):
        for key in item:
            if key == "list":
                return [item[key][k][()] for k in item[key]]
            if key == "sparse_matrix":
                return _sparse(item[key])
            out: dict[Any, Any] = {}
            for name, member in item.items():
                if isinstance(member, h5py.Group):
                    out[name] = _sparse(member["sparse_matrix"])
                elif isinstance(member[()], bytes):
                    out[name] = member[()].decode("utf-8", errors="strict")
                else:
                    try:
                        out[float(name)] = member[()]
                    except ValueError:
                        out[name] = member[()]
            return out
        return None
    value = item[()]
    return value.decode("utf-8", errors="strict") if isinstance(value, bytes) else value


def read_scicode_targets(file: str | os.PathLike[str], step: str, cases: int) -> list[Any]:
    """The targets of test cases ``1..cases`` of ``step`` (``'1.1'``) in SciCode's HDF5 file.

    Raises:
        FileNotFoundError: the file, or a test case's group, is missing.
    """
    import h5py

    if not os.path.isfile(file):
        raise FileNotFoundError(f"no such file: {file}")
    targets: list[Any] = []
    with h5py.File(file, "r") as f:
        for k in range(1, cases + 1):
            where = f"{step}/test{k}"
            group = f.get(where)
            if not isinstance(group, h5py.Group):
                raise FileNotFoundError(f"{file} has no group {where}")
            members = list(group.keys())
            if len(members) == 1:
                targets.append(_value(group[members[0]]))
            else:
                targets.append(tuple(_value(group[m]) for m in members))
    return targets


def _program(code: str, tests: Sequence[str], targets: list[Any] | Exception) -> str:
    if isinstance(targets, Exception):
        loaded = f"raise FileNotFoundError({str(targets)!r})\n"
    else:
        blob = base64.b64encode(pickle.dumps(targets, protocol=4)).decode("ascii")
        loaded = f"targets = __import__('pickle').loads(__import__('base64').b64decode('{blob}'))\n"
    parts = [code, "\n\n", loaded]
    for i, test in enumerate(tests):
        parts.append(f"target = targets[{i}]\n\n")
        parts.extend(line + "\n" for line in str(test).split("\n"))
    return "".join(parts)


@ICL_EVALUATORS.register_module()
class SciCodeEvaluator(BaseEvaluator):
    """SciCode's steps run against their test cases (see the module's description).

    Args:
        dataset_path: the folder of SciCode's problem files (as the dataset's ``path``).
        with_bg: read the file with the steps' background.
        timeout: seconds each step's program may run (OpenCompass: 120).
        memory: address-space bytes of each program.
        max_workers: programs run at once (default: the usable CPUs).
        isolation: the sandbox's isolation (``auto``, ``namespaces``, ``limits-only``).
    """

    sample_decomposable = False

    def __init__(self, dataset_path: str, with_bg: Any, timeout: float = 120.0, memory: int = 4 * 1024**3,
                 max_workers: int | None = None, isolation: str = "auto", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from assay.datasets.scicode import SciCodeDataset

        #: the problems as the dataset's table holds them (its columns unified across rows, as OpenCompass reads them)
        self.problems = [dict(row) for row in SciCodeDataset.load(dataset_path, with_bg)]
        self.timeout, self.memory, self.max_workers, self.isolation = float(timeout), int(memory), max_workers, isolation

    def _run(self, programs: list[str]) -> list[str]:
        from assay._pool import usable_cpus
        from assay.sandbox import Limits, Sandbox

        limits = Limits(timeout=self.timeout, cpu_time=int(self.timeout) + 1, memory=self.memory, processes=256,
                        file_size=256 * 1024**2, open_files=1024, tmpfs=512 * 1024**2)
        sandbox = Sandbox(limits, isolation=self.isolation,  # type: ignore[arg-type]
                          max_workers=self.max_workers or usable_cpus())
        return [res.outcome.value for res in sandbox.run_many(programs)]

    def score(self, predictions: Sequence[Any], references: Sequence[Any] | None = None) -> dict[str, Any]:
        from assay.datasets.location import get_data_path

        name = type(self).__name__
        if not predictions:
            return no_samples(self)
        if len(predictions) > len(self.problems):
            return {"error": f"{name}: {len(predictions)} predictions but {len(self.problems)} problems in the dataset file"}
        try:
            import h5py  # noqa: F401
        except ImportError:
            return {"error": f"{name}: h5py is not installed (pip install h5py, or pip install 'assay[scicode]'); "
                             "it reads SciCode's test data"}
        data = get_data_path("./data/scicode/test_data", local_mode=True)
        if not os.path.isdir(data):
            return {"error": f"{name}: SciCode's test data folder {os.path.abspath(data)} does not exist; put the "
                             "<step>.h5 files of SciCode's test data there"}
        programs: dict[str, str] = {}  # program name → program, in the order first written
        per_sample: list[tuple[str, list[str]]] = []
        for idx, replies in enumerate(predictions):
            problem = self.problems[idx]
            pid = str(problem.get("id"))
            if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
                return {"error": f"{name}: sample {idx} (problem {pid}) must be the list of the steps' replies, "
                                 f"got {replies!r:.80}"}
            tests = problem.get("test")
            code = str(problem.get("import", ""))
            per_sample.append((pid, []))
            for turn, reply in enumerate(replies):
                code += _reply_code(reply)
                step_index = turn + 1 if pid in _SKIPPED_STEP and turn >= _SKIPPED_STEP[pid] else turn
                if not isinstance(tests, list) or step_index >= len(tests) or not isinstance(tests[step_index], list):
                    return {"error": f"{name}: problem {pid} (sample {idx}) has no test cases for step {step_index + 1} "
                                     f"(its 'test' holds {len(tests) if isinstance(tests, list) else 'no'} lists)"}
                step = f"{pid}.{step_index + 1}"
                file = os.path.join(data, f"{step}.h5")
                try:
                    targets: list[Any] | Exception = read_scicode_targets(file, step, len(tests[step_index]))
                except FileNotFoundError as exc:
                    logger.warning("%s: step %s fails: %s", name, step, exc)
                    targets = exc
                programs[f"{pid}-{step_index + 1}"] = _program(code, tests[step_index], targets)
                per_sample[-1][1].append(f"{pid}-{step_index + 1}")
        names = list(programs)
        outcome = dict(zip(names, self._run([programs[n] for n in names])))
        by_problem: dict[str, list[str]] = {}
        for program in names:
            by_problem.setdefault(program.split("-")[0], []).append(outcome[program])
        steps = [o for group in by_problem.values() for o in group]
        solved = sum(all(o == "passed" for o in group) for group in by_problem.values())
        details = [{"problem": pid, "steps": {p: outcome[p] for p in own}, "correct": all(outcome[p] == "passed" for p in own)}
                   for pid, own in per_sample]
        return {"accuracy": 100 * solved / len(by_problem),
                "sub_accuracy": 100 * sum(o == "passed" for o in steps) / len(steps),
                "details": details}
