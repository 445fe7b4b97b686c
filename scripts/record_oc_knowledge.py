"""Record what OpenCompass 0.5.4 computes on the benchmark families' test files.

Run with a Python that has opencompass==0.5.4 installed (never with assay's own
environment), from the repository root::

    python scripts/record_oc_knowledge.py [run_id ...]

For each run of ``tests/benchmarks_oc/families.py`` (a config of OpenCompass's
library and the datasets kept from it) it

1. builds the family's data files in OpenCompass's local layout in a temporary
   folder (``./data/...``) and works from there;
2. loads the config with mmengine, loads each dataset with OpenCompass's own
   loader and writes a prediction file with OpenCompass's own output handler
   (gen, PPL, log-likelihood or conditional-probability records, with ``gold``) holding varied replies;
3. scores them with OpenCompass's ``OpenICLEvalTask`` (the config dumped and
   reloaded as the command line does, details dumped);
4. writes the prediction files to ``tests/data/oc_families/<run>/predictions/``
   and, to ``tests/data/oc_families/knowledge/<run>.json``, the loader's output
   (every split), the test rows, the references and postprocessed predictions
   the evaluator received, and the result.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import write_json

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.benchmarks_oc.families import (  # noqa: E402
    EXTRA_LOADERS,
    MODEL_ABBR,
    RUNS,
    Run,
    build_data,
    clp_probs,
    gen_reply,
    ppl_choice,
)

OUT = REPO / "tests" / "data" / "oc_families"
FRAMEWORK = ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")


def _configs_root() -> Path:
    import opencompass

    return Path(opencompass.__file__).parent / "configs" / "datasets"


def _plain(value: Any) -> Any:
    """JSON-ready copy of a value (mmengine ConfigDicts, numpy scalars, tuples)."""
    import numpy as np

    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


def _type_name(value: Any) -> str:
    if isinstance(value, str):
        return value.rsplit(".", 1)[-1]
    return getattr(value, "__name__", repr(value))


def _rows(ds: Any) -> Any:
    from datasets import Dataset

    if isinstance(ds, Dataset):
        return [{k: v for k, v in r.items()} for r in ds.to_list()]
    return {split: _rows(part) for split, part in ds.items()}


def _labels(infer_cfg: dict[str, Any], test: Any, output_column: str) -> list[Any]:
    inferencer = infer_cfg.get("inferencer", {})
    if inferencer.get("labels"):
        return list(inferencer["labels"])
    prompt = infer_cfg.get("prompt_template")
    ice = infer_cfg.get("ice_template")
    if prompt is not None and isinstance(prompt.get("template"), dict):
        return list(prompt["template"].keys())
    if ice is not None and ice.get("ice_token") is not None and isinstance(ice.get("template"), dict):
        return list(ice["template"].keys())
    return sorted(set(test[output_column]), key=str)


def _write_predictions(run: Run, ds_cfg: dict[str, Any], pred_dir: Path) -> str:
    from opencompass.openicl.icl_inferencer.icl_base_inferencer import (
        GenInferencerOutputHandler,
        PPLInferencerOutputHandler,
    )
    from opencompass.openicl.icl_inferencer.icl_ll_inferencer import LLInferencerOutputHandler
    from opencompass.utils import build_dataset_from_cfg

    test = build_dataset_from_cfg(ds_cfg).test
    reader = ds_cfg["reader_cfg"]
    output_column = reader["output_column"]
    golds = test[output_column]
    rows = [{k: v for k, v in r.items() if k not in ("subdivision", "idx")} for r in test.to_list()]
    mode = _type_name(ds_cfg["infer_cfg"]["inferencer"]["type"])
    abbr = ds_cfg["abbr"]
    if mode == "GenInferencer":
        handler: Any = GenInferencerOutputHandler()
        for i, (row, gold) in enumerate(zip(rows, golds)):
            handler.save_results(f"<prompt of {abbr} #{i}>", gen_reply(run, abbr, i, row), i, gold=gold)
    elif mode in ("PPLInferencer", "LLInferencer"):
        labels = _labels(ds_cfg["infer_cfg"], test, output_column)
        handler = PPLInferencerOutputHandler() if mode == "PPLInferencer" else LLInferencerOutputHandler()
        handler.save_ice(["" for _ in rows])
        chosen = [ppl_choice(i, labels, gold) for i, gold in enumerate(golds)]
        for j, label in enumerate(labels):
            for i in range(len(rows)):
                prompt = f"<prompt of {abbr} #{i} for {label}>"
                if mode == "PPLInferencer":
                    ppl = 1.25 if label == chosen[i] else 2.0 + 0.25 * j
                    handler.save_prompt_and_ppl(label, prompt, prompt, ppl, i)
                    handler.results_dict[str(i)][f"label: {label}"]["BPB"] = ppl * 8 / len(prompt.encode())
                else:
                    ll = -0.5 if label == chosen[i] else -2.0 - 0.25 * j
                    handler.save_prompt_and_loglikelihood(label, prompt, prompt, ll, i)
        handler.save_predictions(chosen)
        handler.save_golds(golds)
    elif mode == "CLPInferencer":
        from opencompass.openicl.icl_inferencer.icl_base_inferencer import CLPInferencerOutputHandler

        handler = CLPInferencerOutputHandler()
        handler.save_ice(["" for _ in rows])
        for i, gold in enumerate(golds):
            prompt = f"<prompt of {abbr} #{i}>"
            handler.save_prompt_and_condprob(prompt, prompt, clp_probs(i, gold), i, ["no", "yes"], gold=gold)
    else:
        raise SystemExit(f"{run.run_id}/{abbr}: unsupported inferencer {mode}")
    pred_dir.mkdir(parents=True, exist_ok=True)
    handler.write_to_json(str(pred_dir), f"{abbr}.json")
    return mode


def _what_the_evaluator_got(task_cfg: Any, model_cfg: Any, ds_cfg: Any) -> dict[str, Any]:
    """The references and postprocessed predictions OpenCompass's eval task hands the evaluator."""
    from opencompass.tasks.openicl_eval import OpenICLEvalTask

    task = OpenICLEvalTask(task_cfg)
    task.model_cfg = model_cfg
    task.dataset_cfg = ds_cfg
    task.eval_cfg = copy.deepcopy(ds_cfg.get("eval_cfg"))
    task.output_column = copy.deepcopy(ds_cfg["reader_cfg"]["output_column"])
    test_set = task._load_and_preprocess_test_data()
    _, pred_strs = task._load_predictions()
    processed = task._process_predictions(pred_strs)
    return {"references": _plain(list(test_set[task.output_column])), "predictions": _plain(list(processed))}


def record(run: Run) -> dict[str, Any]:
    from mmengine.config import Config
    from opencompass.tasks.openicl_eval import OpenICLEvalTask
    from opencompass.utils import get_logger

    get_logger()  # the shared logger exists before the evaluators' modules log
    cfg = Config.fromfile(str(_configs_root() / f"{run.config}.py"))
    from opencompass.utils import dataset_abbr_from_cfg

    for d in cfg[run.variable]:  # a config without abbr is named as OpenCompass names it (path, then name)
        d.setdefault("abbr", dataset_abbr_from_cfg(d))
    by_abbr = {d["abbr"]: d for d in cfg[run.variable]}
    kept = [a for a in run.abbrs if a in by_abbr]  # the datasets the family's data has, among the config's
    if not kept:
        raise SystemExit(f"{run.run_id}: {run.config} has none of the datasets {list(run.abbrs)}")
    model = dict(abbr=MODEL_ABBR, type="opencompass.models.HuggingFacewithChatTemplate", path="oc/model")
    knowledge: dict[str, Any] = {"run": run.run_id, "family": run.family, "config": run.config, "variable": run.variable, "model_abbr": MODEL_ABBR, "datasets": {}}
    with tempfile.TemporaryDirectory() as tmp, _cwd(Path(tmp)):
        build_data(run.family, Path(tmp))
        pred_dir = Path(tmp) / "work" / "predictions" / MODEL_ABBR
        selected = [by_abbr[a] for a in kept]
        for ds_cfg in selected:
            loader = ds_cfg["type"]
            loader_cls = loader if not isinstance(loader, str) else None
            if loader_cls is None:
                from opencompass.registry import LOAD_DATASET

                loader_cls = LOAD_DATASET.get(loader)
            kwargs = {k: v for k, v in ds_cfg.items() if k not in FRAMEWORK}
            mode = _write_predictions(run, ds_cfg, pred_dir)
            knowledge["datasets"][ds_cfg["abbr"]] = {
                "loader": _type_name(loader),
                "loader_kwargs": _plain(kwargs),
                "reader_cfg": _plain(ds_cfg["reader_cfg"]),
                "mode": mode,
                "loaded": _plain(_rows(_loaded(loader_cls, kwargs))),
            }
        task_dict = dict(
            models=[model], datasets=[selected], work_dir="work",
            eval=dict(runner=dict(task=dict(dump_details=True))),
        )
        dumped = Path(tmp) / "task_cfg.py"
        Config(task_dict).dump(str(dumped))
        task_cfg = Config.fromfile(str(dumped))
        OpenICLEvalTask(task_cfg).run()
        for ds_cfg in task_cfg["datasets"][0]:
            abbr = ds_cfg["abbr"]
            entry = knowledge["datasets"][abbr]
            entry["eval_cfg"] = _plain(_eval_cfg_summary(ds_cfg["eval_cfg"]))
            entry.update(_what_the_evaluator_got(task_cfg, task_cfg["models"][0], ds_cfg))
            result_file = Path(tmp) / "work" / "results" / MODEL_ABBR / f"{abbr}.json"
            entry["result"] = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else None
        target = OUT / run.run_id / "predictions" / MODEL_ABBR
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(pred_dir, target)
    return knowledge


def _loaded(loader_cls: Any, kwargs: dict[str, Any]) -> Any:
    """What the loader gives: its static ``load``, or, for a loader whose ``load`` is a method (AdvGLUE's), that
    method on an instance set up by the class's own ``__init__`` (without the columns ``BaseDataset`` adds)."""
    import inspect

    from opencompass.datasets.base import BaseDataset

    if isinstance(inspect.getattr_static(loader_cls, "load"), staticmethod):
        return loader_cls.load(**kwargs)
    original = BaseDataset.__init__
    BaseDataset.__init__ = lambda self, **kw: None  # type: ignore[method-assign]
    try:
        instance = loader_cls(**kwargs)
    finally:
        BaseDataset.__init__ = original  # type: ignore[method-assign]
    return instance.load(**kwargs)


def _eval_cfg_summary(eval_cfg: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in eval_cfg.items():
        if isinstance(value, dict) and "type" in value:
            out[key] = {**{k: v for k, v in value.items() if k != "type"}, "type": _type_name(value["type"])}
        else:
            out[key] = value
    return out


@contextlib.contextmanager
def _cwd(path: Path) -> Any:
    old = os.getcwd()
    saved = os.environ.pop("COMPASS_DATA_CACHE", None)
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)
        if saved is not None:
            os.environ["COMPASS_DATA_CACHE"] = saved


def record_extra_loaders() -> list[dict[str, Any]]:
    """The output of loaders no config names, on the families' data."""
    from opencompass.registry import LOAD_DATASET

    out = []
    for family, loader, kwargs in EXTRA_LOADERS:
        with tempfile.TemporaryDirectory() as tmp, _cwd(Path(tmp)):
            build_data(family, Path(tmp))
            rows = _rows(LOAD_DATASET.get(loader).load(**kwargs))
        out.append({"family": family, "loader": loader, "loader_kwargs": kwargs, "loaded": _plain(rows)})
    return out


def main(argv: list[str]) -> int:
    # datasets.load_dataset keeps what it read of a local folder in a cache keyed by the folder's name: a fresh
    # cache, so that a dataset read before (another copy of the same folder name) is never served instead
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="record-oc-hf-")
    wanted = set(argv)
    runs = [r for r in RUNS if not wanted or r.run_id in wanted or r.family in wanted]
    (OUT / "knowledge").mkdir(parents=True, exist_ok=True)
    failed = []
    if not wanted or "loaders" in wanted:
        extra = record_extra_loaders()
        write_json(OUT / "knowledge" / "_loaders.json", extra)
    for run in runs:
        try:
            knowledge = record(run)
        except Exception:
            import traceback

            traceback.print_exc()
            failed.append(run.run_id)
            continue
        path = OUT / "knowledge" / f"{run.run_id}.json"
        path.write_text(json.dumps(knowledge, ensure_ascii=False, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        metrics = {a: {k: v for k, v in (d["result"] or {}).items() if k != "details"} for a, d in knowledge["datasets"].items()}
        print(f"{run.run_id}: {json.dumps(metrics, ensure_ascii=False)}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
