"""Record what OpenCompass 0.5.4 reads and sends to its code-evaluation service for P-MMEval's HumanEval-XL fixture.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_pmmeval_humanevalxl.py``).  For each entry of the library's
``PMMEval/humanevalxl_gen_bdec92`` (imported unchanged) whose natural language
the fixture holds (``tests/data/oc_families/pmmeval_humanevalxl``, written by
``scripts/make_pmmeval_humanevalxl_fixtures.py``; ``COMPASS_DATA_CACHE``
pointing there), OpenCompass's own ``PMMEvalHumanEvalXLDataset`` loads the
rows and its ``PMMEvalHumanEvalXLEvaluator`` scores the fixture's replies
against the config's reference column.  Its service address is pointed at a
closed local port: the evaluator writes the file it would post (each sample's
``task_id`` and cleaned ``generation``), finds no service, copies that file to
``outputs/humanevalx_<language>.json`` and stops; the file is what is recorded,
in ``expected/humanevalxl_gen_bdec92.json``, with the rows OpenCompass's
loader read and the start of the evaluator's error.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "pmmeval_humanevalxl"
CONFIG = "humanevalxl_gen_bdec92"
NATURAL = ("English", "Chinese")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    os.environ["COMPASS_DATA_CACHE"] = str(ROOT)
    from opencompass.datasets.PMMEval import PMMEvalHumanEvalXLDataset, PMMEvalHumanEvalXLEvaluator

    module = importlib.import_module(f"opencompass.configs.datasets.PMMEval.{CONFIG}")
    out: dict[str, object] = {"config": f"PMMEval/{CONFIG}.py", "variable": "PMMEval_HumanEvalXL_datasets", "datasets": {}}
    for entry in module.PMMEval_HumanEvalXL_datasets:
        if entry["lang"] not in NATURAL:
            continue
        column = entry["reader_cfg"]["output_column"]
        test = PMMEvalHumanEvalXLDataset.load(path=entry["path"], lang=entry["lang"], program_lang=entry["program_lang"])
        preds = json.loads((ROOT / "predictions" / f"{entry['abbr']}.json").read_text(encoding="utf-8"))
        replies = [preds[str(i)]["prediction"] for i in range(len(preds))]
        kwargs = {k: v for k, v in entry["eval_cfg"]["evaluator"].items() if k != "type"}
        kwargs.update(ip_address="127.0.0.1", port=_closed_port(), timeout=30)
        evaluator = PMMEvalHumanEvalXLEvaluator(**kwargs)
        language = kwargs["language"]
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
                lines = Path("outputs", f"humanevalx_{language}.json").read_text(encoding="utf-8").splitlines()
            finally:
                os.chdir(cwd)
        out["datasets"][entry["abbr"]] = {  # type: ignore[index]
            "language": language,
            "text_language": entry["lang"],
            "output_column": column,
            "rows": [dict(r) for r in test],
            "sent": [json.loads(line) for line in lines],
            "error": message[:80],
        }
    target = ROOT / "expected"
    target.mkdir(parents=True, exist_ok=True)
    (target / f"{CONFIG}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(CONFIG, "recorded", file=sys.stderr)


if __name__ == "__main__":
    main()
