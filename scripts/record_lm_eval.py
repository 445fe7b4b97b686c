"""Record lm-evaluation-harness's own output files for assay's ``lm_eval`` source reader.

Run with a Python that has ``lm-eval`` installed (not a dependency of assay)::

    python scripts/record_lm_eval.py [--out tests/data/sources/lm_eval/out]

It registers a scripted model through lm-evaluation-harness's plugin API
(``register_model``): two profiles (``a`` and ``b``) answer the arithmetic
questions and rank the multiple-choice continuations deterministically, some
right and some wrong, with no network and no weights.  Then it runs
lm-evaluation-harness's own command line on the small local tasks in
``tests/data/sources/lm_eval/tasks`` (a ``generate_until`` task with two
filters, two ``multiple_choice`` tasks and a group of them) with
``--log_samples``, so that the folder holds exactly what lm-evaluation-harness
writes: ``<model>/results_<time>.json`` and ``samples_<task>_<time>.jsonl``, but
for the tasks' scratch folder, which its files name: ``tasks/…`` there (the
folder beside ``out``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "tests" / "data" / "sources" / "lm_eval"


def _unit(*parts: str) -> float:
    """A deterministic number in [0, 1) from the parts."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _register() -> None:
    from lm_eval.api.model import LM
    from lm_eval.api.registry import register_model

    @register_model("assay-scripted")
    class ScriptedLM(LM):  # type: ignore[misc]
        """Answers from the question's own numbers; ``profile`` sets how often it is right."""

        def __init__(self, pretrained: str = "scripted", profile: str = "a", **_: object) -> None:
            super().__init__()
            self.profile = profile
            self.skill = {"a": 0.45, "b": 0.7}[profile]

        @classmethod
        def create_from_arg_string(cls, arg_string: str, additional_config: dict | None = None) -> ScriptedLM:
            args = dict(part.split("=", 1) for part in arg_string.split(",") if part)
            return cls(**args)

        def loglikelihood(self, requests, disable_tqdm: bool = False):
            out = []
            for request in requests:
                context, continuation = request.arguments
                m = re.search(r"twice (\d+)", context)
                right = m is not None and continuation.strip() == str(2 * int(m.group(1)))
                knows = _unit(self.profile, "knows", context) < self.skill
                score = -5 * _unit(self.profile, context, continuation) - len(continuation) * 0.01
                if right and knows:
                    score = 0.5
                out.append((score, False))
            return out

        def generate_until(self, requests, disable_tqdm: bool = False):
            out = []
            for request in requests:
                context = request.arguments[0]
                a, b = (int(x) for x in re.findall(r"What is (\d+) plus (\d+)", context)[-1])
                u = _unit(self.profile, "gen", context)
                if u < self.skill:
                    reply = f"{a} plus {b} makes {a + b}.\n#### {a + b}"
                elif u < self.skill + 0.1:
                    reply = f"I think it is {a + b}."  # right, but only the flexible filter finds it
                elif u < self.skill + 0.15:
                    reply = ""  # an empty reply
                else:
                    reply = f"{a} plus {b} makes {a + b + 1}.\n#### {a + b + 1}"
                out.append(reply)
            return out

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
            return [-_unit(self.profile, "rolling", r.arguments[0]) for r in requests]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args()
    _register()
    from lm_eval.__main__ import cli_evaluate

    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        tasks = Path(scratch) / "tasks"  # the task files name their own path: not this checkout's
        shutil.copytree(HERE / "tasks", tasks)
        os.chdir(tasks)  # the tasks' data_files are relative to here
        for profile in ("a", "b"):
            sys.argv = [
                "lm_eval", "run", "--model", "assay-scripted",
                "--model_args", f"pretrained=scripted-{profile},profile={profile}",
                "--tasks", "assay_arith,assay_mcq_suite", "--include_path", str(tasks),
                "--output_path", str(out), "--log_samples", "--seed", "0",
            ]
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                cli_evaluate()
            # lm-evaluation-harness's own summary table, as it printed it
            (out / f"scripted-{profile}" / "printed.md").write_text(printed.getvalue())
            _neutral_paths(out / f"scripted-{profile}", tasks)


def _neutral_paths(folder: Path, tasks: Path) -> None:
    """The scratch copy of the tasks, which lm-evaluation-harness names in its files (``config_source``), named
    ``tasks/…`` instead: relative to the lm_eval folder, whose ``tasks`` it copies, not this machine's."""
    for path in folder.iterdir():
        text = path.read_text(encoding="utf-8")
        neutral = text.replace(json.dumps(str(tasks))[1:-1] + "/", "tasks/")
        if neutral != text:
            path.write_text(neutral, encoding="utf-8")


if __name__ == "__main__":
    main()
