"""lm-evaluation-harness's output of one model on many tasks, built from the recorded ``assay_arith`` task: for
the tests that kill an import or a run reading it halfway."""

from __future__ import annotations

import json
from pathlib import Path

#: The recorded output the tasks are copied from.
RECORDED = Path(__file__).parents[1] / "data" / "sources" / "lm_eval" / "out" / "scripted-a"
#: The samples of ``assay_arith`` (as many in each copy, times ``repeat``).
SAMPLES = 24


def many_tasks(folder: Path, tasks: int, *, version: str = "0.4.13", repeat: int = 1) -> Path:
    """lm-evaluation-harness ``version``'s output of model ``scripted-a`` on ``tasks`` tasks ``arith_000``…, each a
    copy of the recorded ``assay_arith`` whose logged samples are repeated ``repeat`` times (new ``doc_id``\\ s: the
    metrics stay the recorded ones); ``folder``."""
    (results,) = RECORDED.glob("results_*.json")
    (samples,) = RECORDED.glob("samples_assay_arith_*.jsonl")
    stamp = results.stem.removeprefix("results_")
    data = json.loads(results.read_text())
    for key in ("groups", "group_subtasks"):
        data.pop(key, None)
    data["lm_eval_version"] = version
    rows = [json.loads(line) for line in samples.read_text().splitlines() if line.strip()]
    lines = []
    for r in range(repeat):
        for row in rows:
            lines.append(json.dumps({**row, "doc_id": r * len(rows) + row["doc_id"]}) + "\n")
    logged = "".join(lines)
    model = folder / "scripted-a"
    model.mkdir(parents=True)
    tables = ("results", "configs", "versions", "n-shot", "higher_is_better", "n-samples", "task_hashes")
    copies: dict[str, dict[str, object]] = {t: {} for t in tables}
    for i in range(tasks):
        name = f"arith_{i:03d}"
        for table in tables:
            entry = json.loads(json.dumps(data[table]["assay_arith"]))
            if table == "results":
                entry["alias"] = entry["name"] = name
                entry["sample_len"] = SAMPLES * repeat
            elif table == "configs":
                entry["task"] = name
            elif table == "n-samples":
                entry = {"original": SAMPLES * repeat, "effective": SAMPLES * repeat}
            copies[table][name] = entry
        (model / f"samples_{name}_{stamp}.jsonl").write_text(logged)
    data.update(copies)
    (model / results.name).write_text(json.dumps(data))
    return folder
