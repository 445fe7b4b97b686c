"""OpenCompass's math-verify evaluator module under its own name (``opencompass.evaluator.math_evaluator``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from assay.evaluators import math_evaluator
from assay.evaluators.math import MATHVerifyEvaluator as AssayMATHVerifyEvaluator


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)


def test_replacing_the_per_sample_helper_reaches_the_evaluator_once_per_sample() -> None:
    done = _python(
        "import json\n"
        "from unittest import mock\n"
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.evaluator import math_evaluator as me\n"
        "from opencompass.evaluator.math_evaluator import MATHVerifyEvaluator\n"
        "calls = []\n"
        "def verdict(pred, ref, timeout=10):\n"
        "    calls.append([pred, ref, timeout])\n"
        "    if ref == 'bad':\n"
        "        return {'skipped': True}\n"
        "    if pred == 'slow':\n"
        "        return {'timed_out': True}\n"
        "    return {'answer_correct': float(pred == ref), 'answer_parsed': '[' + pred + ']', 'gold_parsed': '[' + ref + ']'}\n"
        "with mock.patch('opencompass.evaluator.math_evaluator._verify_with_timeout', side_effect=verdict):\n"
        "    result = MATHVerifyEvaluator().score(['7', '8', 'x', 'slow'], ['7', '9', 'bad', '1'])\n"
        "print(json.dumps([me.__name__, calls, result]))\n"
    )
    assert done.returncode == 0, done.stderr
    name, calls, result = json.loads(done.stdout)
    assert name == "assay.evaluators.math_evaluator"
    assert calls == [["7", "7", 10], ["8", "9", 10], ["x", "bad", 10], ["slow", "1", 10]]
    assert result == {
        "accuracy": 25.0,  # the skipped sample counts in the denominator
        "details": [
            {"pred": "[7]", "answer": "[7]", "correct": True},
            {"pred": "[8]", "answer": "[9]", "correct": False},
            {"pred": "slow", "answer": "1", "correct": False},
        ],
    }


def test_the_package_and_configs_keep_assays_evaluator() -> None:
    done = _python(
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.evaluator import MATHVerifyEvaluator\n"
        "from opencompass.evaluator.math_evaluator import MATHVerifyEvaluator as per_sample\n"
        "print(MATHVerifyEvaluator.__module__, per_sample.__module__)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["assay.evaluators.math", "assay.evaluators.math_evaluator"]


def test_without_math_verify_it_fails_as_opencompass_does() -> None:
    done = _python(
        "import sys\n"
        "sys.modules['math_verify'] = None\n"
        "from assay.evaluators.math_evaluator import MATHVerifyEvaluator\n"
        "try:\n"
        "    MATHVerifyEvaluator().score(['1'], ['1'])\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "pip install math_verify latex2sympy2_extended" in done.stdout


def test_real_verdicts_give_assays_accuracy() -> None:
    pytest.importorskip("math_verify")
    predictions = ["so $\\boxed{\\frac{1}{2}}$", "it is $3$", "no answer", "$\\boxed{2}$"]
    references = ["0.5", "4", "1", "\\"]
    ours = math_evaluator.MATHVerifyEvaluator().score(predictions, references)
    theirs = AssayMATHVerifyEvaluator(workers=1).score(predictions, references)
    assert ours["accuracy"] == theirs["accuracy"] == 25.0
    assert [d["correct"] for d in ours["details"]] == [True, False, False]  # the unparsable reference is left out
    assert ours["details"][0] == {"pred": theirs["details"][0]["pred"], "answer": theirs["details"][0]["answer"], "correct": True}


def test_one_sample_helper_reports_each_kind_of_result() -> None:
    pytest.importorskip("math_verify")
    assert math_evaluator._verify_with_timeout("$\\boxed{3}$", "3") == {"answer_correct": 1.0, "answer_parsed": "[3, '3']",
                                                                       "gold_parsed": "[3, '3']"}
    assert math_evaluator._verify_with_timeout("$3$", "\\") == {"skipped": True}
    assert math_evaluator._verify_with_timeout("nothing", "3")["answer_correct"] == 0.0
