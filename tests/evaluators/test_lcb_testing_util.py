"""LiveCodeBench's in-process harness under OpenCompass's names (``opencompass.datasets.livecodebench.testing_util``)."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys

from assay.evaluators import lcb_testing_util as tu


def _sample(inputs: list[str], outputs: list[str], fn_name: str | None = None) -> dict:
    io: dict = {"inputs": inputs, "outputs": outputs}
    if fn_name is not None:
        io["fn_name"] = fn_name
    return {"input_output": json.dumps(io)}


CALL = _sample(["[1, 2]", "[5, 5]"], ["3", "10"], fn_name="sum_pair")


def test_a_call_based_solution_runs_in_a_child_and_stops_at_the_first_wrong_answer() -> None:
    right = "class Solution:\n    def sum_pair(self, pair):\n        return pair[0] + pair[1]\n"
    assert tu.codegen_check_correctness(CALL, right, timeout=3, debug=False) == ([True, True], {})
    wrong = "def sum_pair(pair):\n    return pair[0] + pair[1] if pair[0] < 5 else 0\n"
    results, meta = tu.codegen_check_correctness(CALL, wrong, timeout=3, debug=False)
    assert results == [True, False] and meta["error_message"] == "Wrong Answer" and meta["expected"] == "10"
    missing = "def other(pair):\n    return 0\n"
    results, meta = tu.codegen_check_correctness(CALL, missing, timeout=3, debug=False)
    assert results == [-2] and meta["error_message"] == "Unable to extract code"


def test_a_standard_input_solution_is_compared_by_its_printed_lines() -> None:
    sample = _sample(["2\n", "7\n"], ["4\n", "14\n"])
    assert tu.codegen_check_correctness(sample, "n = int(input())\nprint(n * 2)\n", timeout=3, debug=False) == ([True, True], {})


def test_a_child_that_ends_without_a_result_counts_every_test_failed() -> None:
    results, meta = tu.codegen_check_correctness(CALL, "import os\nos._exit(3)\n", timeout=3, debug=False)
    assert results == [-1, -1]
    assert meta == {"error_code": -3, "error_message": "Global Timeout or Memory Limit Exceeded"}


def _guarded(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    import resource
    import shutil

    tu.reliability_guard(maximum_memory_bytes=1 << 34)
    queue.put([resource.getrlimit(resource.RLIMIT_AS)[0], os.kill is None, os.system is None, shutil.rmtree is None,
               sys.modules.get("resource", 0) is None])


def test_reliability_guard_limits_memory_and_disables_destructive_functions_of_its_process() -> None:
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    child = multiprocessing.Process(target=_guarded, args=(queue,))
    child.start()
    got = queue.get(timeout=30)
    child.join()
    assert got == [1 << 34, True, True, True, True]
    assert os.kill is not None  # this process is untouched


def test_the_opencompass_names_serve_this_module() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    code = (
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.datasets.livecodebench import evaluator, testing_util\n"
        "from assay.evaluators import lcb_testing_util\n"
        "assert testing_util is lcb_testing_util, testing_util\n"
        "assert evaluator.codegen_check_correctness is lcb_testing_util.codegen_check_correctness\n"
        "print(evaluator.DEFAULT_MEMORY_LIMIT_BYTES)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(4 * 1024**3)
