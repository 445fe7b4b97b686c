"""``opencompass.utils.code_execution``: OpenCompass's type-aware comparison for code tests, served by assay."""

from __future__ import annotations

import os
import subprocess
import sys


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)


def test_a_forged_equality_does_not_pass_a_hardened_assertion_and_a_real_value_does() -> None:
    done = _python(
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.utils.code_execution import TYPE_AWARE_EQUAL_NAME, make_assertions_type_aware, "
        "type_aware_equal\n"
        "from opencompass.datasets.livecodebench import testing_util\n"
        "class Forged:\n"
        "    def __eq__(self, other):\n"
        "        return True\n"
        "class ForgedInt(int):\n"
        "    def __eq__(self, other):\n"
        "        return True\n"
        "print(type_aware_equal(Forged(), 1), type_aware_equal([ForgedInt(7)], [1]), type_aware_equal(1, True),\n"
        "      type_aware_equal({'v': [1, (2, 3)]}, {'v': [1, (2, 3)]}), type_aware_equal({1, 2}, {2, 1}))\n"
        "program = make_assertions_type_aware('assert solve() == 1')\n"
        "print(program, make_assertions_type_aware('assert (') == 'assert (')\n"
        "for solve in (Forged, lambda: 1):\n"
        "    try:\n"
        "        exec(program, {'solve': solve, TYPE_AWARE_EQUAL_NAME: type_aware_equal})\n"
        "        print('passed')\n"
        "    except AssertionError:\n"
        "        print('rejected')\n"
        "print(testing_util.type_aware_equal is type_aware_equal)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "False False False True True",
        "assert __opencompass_type_aware_equal(solve(), 1) True",
        "rejected",
        "passed",
        "True",
    ]
