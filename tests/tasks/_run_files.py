"""A varied run whose written files are kept in ``tests/data/run_files``: the inputs, the run, and its files
made comparable across machines.

:func:`write_case` writes a config, test sets and prediction files covering the per-sample work of a
task: multiple-choice replies in several shapes read by a postprocessor with a corrected counterpart
(so the extraction audit reads them twice), repeated runs (``n``, ``k``), a model-level postprocessor,
a sample-decomposable and a whole-set evaluator, repeated keys, split and JSON Lines prediction files,
references from the records' ``gold``, a null reply, a task split into shards and merged, and a task
that fails.  :func:`run_files` runs it and returns every file a run writes that a later run must
write again byte for byte — the result files, their ``.stats``, the run index's entries, the summary
``.json`` and the tasks' logs —
with what depends on the machine or on assay's own source replaced by placeholders
(:func:`normalize`).

``scripts/record_run_files.py`` records them (:func:`produce`); ``tests/tasks/test_run_files.py`` compares.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

RUN = "RUN"
MODELS = ("model-a", "model-b")
#: The commands recorded, by the name of their file in ``tests/data/run_files`` (``{config}``, ``{work}``:
#: the config and the work directory): the statistics written beside each result, in this process; the
#: summary tables only, in two forked workers.
COMMANDS = {
    "eval": ["eval", "{config}", "-w", "{work}", "-r", "RUN", "--workers", "1"],
    "run_no_report": ["run", "{config}", "-w", "{work}", "-r", "RUN", "--workers", "2", "--no-report"],
}
#: Tasks with more samples than this (and a sample-decomposable evaluator) are split into shards.
SHARD_SIZE = 40

_LETTERS = "ABCD"
_MCQ_REPLIES = (
    "{x}",
    "The answer is ({x}).",
    "答案是{x}",
    "Answer: {x}",
    "Let me think step by step. Option A seems unlikely; after checking each choice, option {x} is correct.",
    "The answer is {x}, not A",
    "Dolphin ({x})",
    "综上所述，故选{x}",
    "**Answer:** {x}\n\nExplanation: it follows from the definition.",
    "I cannot tell.",
    "只有选项{x}是对的",
    "",
)

CONFIG = f"""\
datasets = [
    dict(abbr='mcq', type='JsonlDataset', path='data/mcq.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'))),
    dict(abbr='mcq_runs', type='JsonlDataset', path='data/mcq_runs.jsonl', n=3, k=[1, 2],
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABCD', cushion=False))),
    dict(abbr='big', type='JsonlDataset', path='data/big.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'))),
    dict(abbr='gsm', type='JsonlDataset', path='data/gsm.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'), pred_postprocessor=dict(type='gsm8k_postprocess'))),
    dict(abbr='bbeh', type='JsonlDataset', path='data/bbeh.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='BBEHEvaluator_mcq'), pred_postprocessor=dict(type='bbh_mcq_postprocess'))),
    dict(abbr='em', type='JsonlDataset', path='data/em.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='EMEvaluator'))),
    dict(abbr='dup', type='JsonlDataset', path='data/dup.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'))),
    dict(abbr='split', type='JsonlDataset', path='data/split.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'))),
    dict(abbr='lines', type='JsonlDataset', path='data/lines.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'))),
    dict(abbr='gold', type='JsonlDataset', path='data/not_there.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                       pred_postprocessor=dict(type='first_option_postprocess', options='ABC'))),
    dict(abbr='short', type='JsonlDataset', path='data/short.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'))),
]
models = [
    dict(abbr='model-a'),
    dict(abbr='model-b', pred_postprocessor=dict(type='think_pred_postprocess')),
]
eval = dict(shard_size={SHARD_SIZE})
"""


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _predictions(path: Path, records: list[dict[str, Any]], *, repeat: dict[int, dict[str, Any]] | None = None) -> None:
    """An OpenCompass prediction file (indent 4); ``repeat`` gives some keys a second time, after the others."""
    path.parent.mkdir(parents=True, exist_ok=True)
    members = [(str(i), r) for i, r in enumerate(records)] + [(str(i), r) for i, r in (repeat or {}).items()]
    body = ",\n".join(f"    {json.dumps(k)}: " + json.dumps(r, indent=4, ensure_ascii=False).replace("\n", "\n    ")
                      for k, r in members)
    path.write_text("{\n" + body + "\n}\n", encoding="utf-8")


def _mcq_reply(rng: random.Random, answer: str, model: int) -> str | None:
    letter = answer if rng.random() < 0.5 + 0.2 * model else rng.choice(_LETTERS)
    reply = rng.choice(_MCQ_REPLIES).format(x=letter)
    if model == 1 and rng.random() < 0.3:
        reply = f"<think>maybe {rng.choice(_LETTERS)}</think>{reply}"
    return reply


def write_case(root: Path) -> Path:
    """Write the case's config, test sets and prediction files under ``root``; the config's path."""
    rng = random.Random(20250101)
    preds = root / "runs" / RUN / "predictions"

    def mcq_rows(name: str, count: int, letters: str = _LETTERS) -> list[dict[str, Any]]:
        rows = [{"question": f"{name} question {i}", "answer": rng.choice(letters), "subdivision": ("easy", "hard")[i % 2]}
                for i in range(count)]
        _jsonl(root / "data" / f"{name}.jsonl", rows)
        return rows

    def records(rows: list[dict[str, Any]], model: int, runs: int = 1, *, gold: bool = False) -> list[dict[str, Any]]:
        out = []
        for _ in range(runs):
            for row in rows:
                record: dict[str, Any] = {"origin_prompt": row["question"], "prediction": _mcq_reply(rng, row["answer"], model)}
                if gold:
                    record["gold"] = row["answer"]
                out.append(record)
        return out

    for name, count in (("mcq", 30), ("big", 50)):
        rows = mcq_rows(name, count)
        for m, model in enumerate(MODELS):
            recs = records(rows, m, gold=True)
            if name == "mcq" and m == 0:
                recs[3]["prediction"] = None  # a null reply: scored as an empty one
            _predictions(preds / model / f"{name}.json", recs)
    rows = mcq_rows("mcq_runs", 12)
    for m, model in enumerate(MODELS):
        _predictions(preds / model / "mcq_runs.json", records(rows, m, runs=3))
    rows = mcq_rows("dup", 10)
    for m, model in enumerate(MODELS):
        recs = records(rows, m)
        again = {2: {"origin_prompt": rows[2]["question"], "prediction": "The answer is (D)."}} if m == 0 else None
        _predictions(preds / model / "dup.json", recs, repeat=again)
    rows = mcq_rows("split", 20)
    for m, model in enumerate(MODELS):
        recs = records(rows, m)
        _predictions(preds / model / "split_0.json", recs[:10])
        _predictions(preds / model / "split_1.json", recs[10:])
    rows = mcq_rows("gold", 10, "ABC")
    (root / "data" / "gold.jsonl").unlink()  # the references come from the records' gold
    for m, model in enumerate(MODELS):
        _predictions(preds / model / "gold.json", records(rows, m, gold=True))
    rows = mcq_rows("lines", 8)
    for m, model in enumerate(MODELS):
        path = preds / model / "lines.jsonl"
        path.write_text("".join(json.dumps({"id": i, "prediction": row["answer"] if (i + m) % 3 else "Z"}) + "\n"
                                for i, row in enumerate(rows)), encoding="utf-8")
    rows = mcq_rows("short", 6)
    for m, model in enumerate(MODELS):  # model-a's file is one record short: its task fails
        _predictions(preds / model / "short.json", [{"prediction": r["answer"]} for r in rows[: 5 if m == 0 else 6]])

    gsm = [{"question": f"gsm {i}", "answer": str(rng.randint(1, 3000))} for i in range(20)]
    _jsonl(root / "data" / "gsm.jsonl", gsm)
    for model in MODELS:
        recs = []
        for row in gsm:
            value = row["answer"] if rng.random() < 0.6 else str(rng.randint(1, 3000))
            number = f"{int(value):,}" if rng.random() < 0.3 else value
            recs.append({"prediction": rng.choice((f"The answer is {number}.", f"So she pays ${number} in total.\n\n",
                                                   f"{number} apples, then 3 more", "No number here"))})
        _predictions(preds / model / "gsm.json", recs)

    bbeh = [{"question": f"bbeh {i}", "answer": f"({rng.choice(_LETTERS)})"} for i in range(15)]
    _jsonl(root / "data" / "bbeh.jsonl", bbeh)
    for model in MODELS:
        recs = [{"prediction": rng.choice((f"The answer is: {row['answer']}", f"So the answer is {row['answer'][1]}.",
                                           f"I think {row['answer']} is right", "The answer is: (E)", "",
                                           f"So The Answer Is {row['answer']}", "so the answer is 42",
                                           f"Options (A) and {row['answer']}. So the answer is {row['answer']}."))}
                for row in bbeh]
        _predictions(preds / model / "bbeh.json", recs)

    em = [{"question": f"em {i}", "answer": [rng.choice(("Paris", "paris", "The Seine")), "Seine"]} for i in range(15)]
    _jsonl(root / "data" / "em.jsonl", em)
    for model in MODELS:
        _predictions(preds / model / "em.json", [{"prediction": rng.choice(("Paris.", "the Seine", "London", "paris", " Seine "))}
                                                  for _ in em])
    config = root / "config.py"
    config.write_text(CONFIG, encoding="utf-8")
    return config


# -- the files a run writes, comparable across machines --------------------------------------


def _placeholders(root: Path, results: Path) -> dict[str, str]:
    """Strings of a run's files that depend on the machine or on assay's source, each with its placeholder."""
    out = {str(root): "<ROOT>"}
    for path in sorted(results.rglob("*.json")):
        data = path.read_bytes()
        out[hashlib.sha256(data).hexdigest()] = f"<digest of {path.relative_to(results).as_posix()}>"
        meta = json.loads(data).get("_meta") or {}
        inputs = meta.get("inputs") or {}
        for key in ("assay", "evaluator_source", "extraction_audit"):
            if key in inputs:
                out[inputs[key]] = f"<{key} digest>"
        if "fingerprint" in meta:
            out[meta["fingerprint"]] = f"<fingerprint of {path.relative_to(results).as_posix()}>"
        if "assay_version" in meta:
            out[f'"assay_version": "{meta["assay_version"]}"'] = '"assay_version": "<version>"'
            out[f'"assay_version":"{meta["assay_version"]}"'] = '"assay_version":"<version>"'
    return out


def normalize(data: bytes, placeholders: dict[str, str]) -> str:
    """``data`` as text with every placeholder's string replaced (longest first)."""
    text = data.decode("utf-8")
    for value in sorted(placeholders, key=len, reverse=True):
        text = text.replace(value, placeholders[value])
    return text


def _text(cell: Any) -> Any:
    """A cell of the index as JSON can hold it: bytes as text, or as hex when they are not UTF-8."""
    if not isinstance(cell, (bytes, memoryview)):
        return cell
    try:
        return bytes(cell).decode("utf-8")
    except UnicodeDecodeError:
        return "hex:" + bytes(cell).hex()


def _log_text(text: str) -> str:
    """A task's log without what depends on the moment, on assay's version and on its source: the time of each
    line, the durations, the frames of a traceback (its last line, the error, is kept)."""
    text = re.sub(r"(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d ", "<time> ", text)
    text = re.sub(r"\b\d+\.\d\ds\b", "<seconds>", text)
    text = re.sub(r"\(assay [^)\s]+\)", "(assay <version>)", text)
    return re.sub(r"Traceback \(most recent call last\):\n(?:  .*\n)+", "Traceback (most recent call last):\n  <frames>\n", text)


def run_files(root: Path) -> dict[str, str]:
    """The files of ``root``'s run that a later run must write again, by name, normalized (see :func:`normalize`):
    each result file and ``.stats`` under ``results/``, each entry of the run index (``index/<table>/<key>``),
    without the identity of the file on disk and the time the entry was taken, the summary ``.json`` (where the
    extraction audits are kept; its time as ``<time>``) and each task's log (see :func:`_log_text`)."""
    run = root / "runs" / RUN
    results = run / "results"
    placeholders = _placeholders(root, results)
    out: dict[str, str] = {}
    for path in sorted(p for p in results.rglob("*") if p.is_file()):
        out[f"results/{path.relative_to(results).as_posix()}"] = normalize(path.read_bytes(), placeholders)
    for path in sorted((run / "summary").glob("summary_*.json")):
        time = json.loads(path.read_bytes())["time"]
        text = normalize(path.read_bytes(), {**placeholders, f'"time": "{time}"': '"time": "<time>"'})
        out[f"summary/{path.name.replace(time, '<time>')}"] = text
    for path in sorted((run / "logs").rglob("*.out")):
        out[f"logs/{path.relative_to(run / 'logs').as_posix()}"] = _log_text(normalize(path.read_bytes(), placeholders))
    with sqlite3.connect(run / "index.sqlite") as con:
        queries = {
            "files": "SELECT path, digest, details, head, written, s_digests, s_settings, s_data FROM files",
            "stats": "SELECT result, digests, settings, data FROM stats",
            "samples": "SELECT path, digest, settings, data FROM samples",
        }
        for table, query in queries.items():
            for row in con.execute(query).fetchall():
                # each cell normalized as it is written (a placeholder's string inside a cell is escaped by the dump)
                cells = [normalize(c.encode(), placeholders) if isinstance(c, str) else c for c in map(_text, row)]
                out[f"index/{table}/{row[0]}"] = json.dumps(cells, ensure_ascii=False, indent=1)
    return out


def produce(name: str, root: Path) -> dict[str, str]:
    """Write the case under ``root``, run the command ``name`` of :data:`COMMANDS` on it and return
    :func:`run_files`; the command must end with status 1 (one task fails, the others are scored)."""
    from assay.cli import main

    config = write_case(root)
    args = [str(config) if a == "{config}" else str(root / "runs") if a == "{work}" else a for a in COMMANDS[name]]
    status = main(args)
    if status != 1:
        raise AssertionError(f"assay {' '.join(COMMANDS[name])} ended with status {status}, expected 1 (one failed task)")
    return run_files(root)
