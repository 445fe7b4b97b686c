"""``JudgeEvaluator``: the model's verdict between two answers, as OpenCompass 0.5.4 reads it."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from assay.evaluators.judge_choice import JudgeEvaluator


def test_the_letter_after_the_last_choice_marker_is_the_verdict() -> None:
    replies = [
        'Both are fine, but {"Choice": "Model A"} ... no, {"Choice": "Model B"}',  # the last marker counts
        'Reasoning... {"Choice": "Model A"}',
        "B is better",  # no marker: the reply's first character
        "",  # no verdict
    ]
    result = JudgeEvaluator().score(replies, [{"winner": "B"}, {"winner": "B"}, {"winner": "B"}, {"winner": "A"}])
    assert result["accuracy"] == 50.0
    assert [d["correct"] for d in result["details"]] == [True, False, True, False]
    assert result["details"][1] == {"pred": replies[1], "answer": "B", "correct": False}


def test_a_reply_cut_off_before_the_letter_fails_the_evaluation_quoting_it() -> None:
    result = JudgeEvaluator().score(['{"Choice": "Model A"}', 'fine, cut here {"Choice": "Model '], [{"winner": "A"}] * 2)
    assert set(result) == {"error"}
    assert re.search(r'reply 1 ends right after .*"Choice": "Model .*cut here', result["error"])
    assert JudgeEvaluator().score([], []) == {"error": "JudgeEvaluator: no samples to score"}


def test_served_under_opencompass_judge_evaluator_module() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    code = (
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.openicl.icl_evaluator.icl_judge_evaluator import JudgeEvaluator\n"
        "print(JudgeEvaluator().score(['x {\"Choice\": \"Model A\"}'], [{'winner': 'A'}])['accuracy'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "100.0"
