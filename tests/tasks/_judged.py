"""A judged run for the task tests: one dataset ``d`` scored by ``GenericLLMEvaluator`` through an ``OpenAISDK`` judge
at a local server, its rows and one model ``m``'s predictions written beside the config."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path


def judged_run(folder: Path, base_url: str, rows: Sequence[dict[str, str]], predictions: Sequence[str], judge: str,
               key: str = "k-123456") -> Path:
    """Write ``d.jsonl`` (``rows``: question and answer), ``preds/d.json`` and ``cfg.py`` in ``folder``, the judge's
    options (after its address) ``judge``; the config's path."""
    (folder / "d.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    preds = folder / "preds"
    preds.mkdir(exist_ok=True)
    (preds / "d.json").write_text(json.dumps({str(i): {"prediction": p} for i, p in enumerate(predictions)}))
    cfg = folder / "cfg.py"
    cfg.write_text(
        f"judge_cfg = dict(type='OpenAISDK', path='judge-model', key={key!r}, openai_api_base={base_url!r},"
        f" {judge})\n"
        "evaluator = dict(type='GenericLLMEvaluator', judge_cfg=judge_cfg,\n"
        "    prompt_template=dict(type='RawPromptTemplate', messages=[\n"
        "        dict(role='user', content='Question: {question}\\nGold: {obj_gold}\\nAnswer: {prediction}\\n')]))\n"
        "datasets = [dict(abbr='d', type='JsonlDataset', path='d.jsonl',"
        " reader_cfg=dict(input_columns=['question'], output_column='answer'), eval_cfg=dict(evaluator=evaluator))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    return cfg
