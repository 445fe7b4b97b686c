"""Record what OpenCompass 0.5.4 computes on the LCBench fixture.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_lcbench.py``).  For each LCBench dataset config of
OpenCompass's library (imported unchanged), OpenCompass's ``LCDataset`` loads
the fixture (``tests/data/oc_families/lcbench/data``, ``COMPASS_DATA_CACHE``
pointing there) and the config's evaluator scores the fixture's replies
(``predictions/<abbr>.json``) on the reader's output column, running the
programs as OpenCompass runs them.  Written to ``expected/<config>.json``: the
test rows' contest ids, the metrics, and each reply's verdict per code block
(OpenCompass's details without the programs).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "lcbench"
CONFIGS = {
    "lcbench_gen_5ff288": "LCBench_datasets",
    "lcbench_levels_gen_bb665f": "LCBench_datasets",
    "lcbench_repeat10_gen_5ff288": "LCBench_repeat10_datasets",
}


def record(config: str, variable: str) -> dict[str, object]:
    from opencompass.datasets import LCDataset
    from opencompass.registry import ICL_EVALUATORS

    module = importlib.import_module(f"opencompass.configs.datasets.LCBench.{config}")
    out: dict[str, object] = {"config": f"LCBench/{config}.py", "variable": variable, "datasets": {}}
    for entry in getattr(module, variable):
        load = {k: v for k, v in entry.items() if k in ("path", "num_repeats", "difficulty", "local_mode")}
        test = LCDataset.load(**load)["test"]
        column = entry["reader_cfg"]["output_column"]
        preds = json.loads((ROOT / "predictions" / f"{entry['abbr']}.json").read_text(encoding="utf-8"))
        replies = [preds[str(i)]["prediction"] for i in range(len(preds))]
        evaluator_cfg = dict(entry["eval_cfg"]["evaluator"])
        kind = evaluator_cfg.pop("type")
        evaluator = (ICL_EVALUATORS.get(kind) if isinstance(kind, str) else kind)(**evaluator_cfg)
        result = evaluator.score(replies, list(test[column]))
        details = result.pop("details")
        out["datasets"][entry["abbr"]] = {  # type: ignore[index]
            "evaluator": kind if isinstance(kind, str) else kind.__name__,
            "contest_ids": list(test["Contest id"]),
            "metrics": result,
            "details": {key: {k: v for k, v in d.items() if k != "program"} for key, d in sorted(details.items())},
        }
    return out


def main() -> None:
    os.environ["COMPASS_DATA_CACHE"] = str(ROOT)
    target = ROOT / "expected"
    target.mkdir(parents=True, exist_ok=True)
    for config, variable in CONFIGS.items():
        data = record(config, variable)
        (target / f"{config}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(config, "recorded", file=sys.stderr)


if __name__ == "__main__":
    main()
