"""Record what OpenCompass 0.5.4 sends to its code-evaluation service for the HumanEval-X fixture.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_humanevalx.py``).  For each HumanEval-X dataset config of
OpenCompass's library (imported unchanged) and each of its languages,
OpenCompass's own ``HumanevalXDataset`` loads the fixture
(``tests/data/oc_families/humanevalx/data``, ``COMPASS_DATA_CACHE`` pointing
there), and its ``HumanevalXEvaluator`` scores the fixture's replies
(``predictions/humanevalx-<language>.json``) against the config's reference
column.  Its service address is pointed at a closed local port: the evaluator
writes the file it would post (each sample's ``task_id`` and cleaned
``generation``), finds no service, copies that file to
``outputs/humanevalx_<language>.json`` and stops; the file is what is recorded,
in ``expected/<config>.json``, with the rows OpenCompass's loader read.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "humanevalx"
CONFIGS = {
    "humanevalx_gen_620cfa": "humanevalx_datasets",
    "humanevalx_gen_3d84a3": "humanevalx_datasets",
    "humanevalx_gen_0af626": "humanevalx_datasets",
    "humanevalx_0shot_nocot_gen_3e4bbd": "humanevalx_datasets",
}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def record(config: str, variable: str) -> dict[str, object]:
    from opencompass.datasets import HumanevalXDataset, HumanevalXEvaluator

    module = importlib.import_module(f"opencompass.configs.datasets.humanevalx.{config}")
    out: dict[str, object] = {"config": f"humanevalx/{config}.py", "variable": variable, "datasets": {}}
    for entry in getattr(module, variable):
        lang = entry["language"]
        column = entry["reader_cfg"]["output_column"]
        test = HumanevalXDataset.load(path=entry["path"], language=lang)
        preds = json.loads((ROOT / "predictions" / f"humanevalx-{lang}.json").read_text(encoding="utf-8"))
        replies = [preds[str(i)]["prediction"] for i in range(len(preds))]
        kwargs = {k: v for k, v in entry["eval_cfg"]["evaluator"].items() if k != "type"}
        kwargs.update(ip_address="127.0.0.1", port=_closed_port(), timeout=30)
        evaluator = HumanevalXEvaluator(**kwargs)
        with tempfile.TemporaryDirectory() as tmp:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                os.makedirs("outputs")
                try:
                    evaluator.score(replies, list(test[column]))
                except Exception as exc:  # the service is not there: the file it would get was kept
                    message = str(exc).split("\n")[0]
                else:
                    raise RuntimeError("a service answered on a closed port")
                lines = Path("outputs", f"humanevalx_{lang}.json").read_text(encoding="utf-8").splitlines()
            finally:
                os.chdir(cwd)
        out["datasets"][entry["abbr"]] = {  # type: ignore[index]
            "language": lang,
            "output_column": column,
            "rows": [dict(r) for r in test],
            "sent": [json.loads(line) for line in lines],
            "error": message[:80],
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
