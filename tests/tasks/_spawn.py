"""Starting ``python -m assay`` as a separate process group, for tests that kill a run halfway, and the
slow sample-decomposable evaluator their configs score with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any


def spawn_assay(*args: str, cwd: Path, stderr: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``python -m assay ARGS`` in its own session (so that the whole group can be killed), with SIGHUP and SIGTERM
    as a terminal's program has them even when the tests run under ``nohup`` (assay leaves an ignored signal
    ignored)."""
    return subprocess.Popen(
        [sys.executable, "-m", "assay", *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
        preexec_fn=default_hangup,
    )


def default_hangup() -> None:
    """In the child before it runs assay: SIGHUP and SIGTERM at their default actions."""
    import signal

    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def slow_acc_config(sleep: float, datasets: str) -> str:
    """A config whose evaluator ``SlowAcc`` (sample-decomposable, its ``sample_sums`` declared: shards
    merge exactly) sleeps ``sleep`` seconds per batch it scores; ``datasets`` is the config's
    ``datasets = …`` statement (its evaluator ``dict(type=SlowAcc)``), the model ``m`` reads ``preds/``."""
    return f"""
import time
from assay.evaluate import BaseEvaluator

def share(correct, samples):
    return 100.0 * correct / samples

class SlowAcc(BaseEvaluator):
    sample_decomposable = True
    sample_sums = {{'accuracy': ('correct', share)}}

    def score(self, predictions, references):
        time.sleep({sleep})
        ok = [p == r for p, r in zip(predictions, references)]
        return {{'accuracy': share(sum(ok), len(ok)), 'details': [{{'pred': p, 'correct': c}} for p, c in zip(predictions, ok)]}}

{datasets}
models = [dict(abbr='m', predictions='preds')]
"""
