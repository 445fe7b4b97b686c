"""Record an OpenCompass work dir: the config it dumps, and the results it computes.

Run with a Python that has ``opencompass==0.5.4`` installed (its command
``opencompass`` on the ``PATH`` beside that Python)::

    python scripts/record_oc_workdir.py [--out DIR]

In a scratch folder it writes a small config (two toy datasets in the shapes
OpenCompass's library uses: ``GSM8KDataset`` on the dataset id
``opencompass/gsm8k``, and ``CustomDataset`` on ``./data/toy/mcq.jsonl``),
their data in OpenCompass's layout under ``./data``, and prediction files in
the format OpenCompass's inferencers write (``origin_prompt``, ``prediction``,
``gold`` per record).  It then runs ``opencompass CONFIG -m eval -w
outputs/toy -r 20250101_000000 --debug``, which dumps the config into the run
directory and scores the predictions.

Output, under ``tests/data/oc_workdir`` (default):

* ``outputs/toy/20250101_000000/configs/*.py``: the config exactly as
  OpenCompass dumped it (types as dotted strings);
* ``outputs/toy/20250101_000000/predictions/``: the prediction files;
* ``expected/<model>/<dataset>.json``: OpenCompass's results (without details),
  and ``expected/summary.csv``: its summary table;
* ``data/``: the data files, for tests that score with the data present.

Tests score the run directory with assay, without the config and without the
data (references from ``gold``), and compare with OpenCompass's results.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "tests" / "data" / "oc_workdir"
RUN = "20250101_000000"
MODEL = "toy-model"

CONFIG = """\
from opencompass.datasets import CustomDataset, GSM8KDataset, Gsm8kEvaluator, gsm8k_dataset_postprocess, gsm8k_postprocess
from opencompass.models import OpenAI
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.utils.text_postprocessors import first_option_postprocess

gsm8k_toy = dict(
    abbr='gsm8k-toy',
    type=GSM8KDataset,
    path='opencompass/gsm8k',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {question}\\nA:')])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer, max_out_len=256),
    ),
    eval_cfg=dict(
        evaluator=dict(type=Gsm8kEvaluator),
        pred_postprocessor=dict(type=gsm8k_postprocess),
        dataset_postprocessor=dict(type=gsm8k_dataset_postprocess),
    ),
)
mcq_toy = dict(
    abbr='mcq-toy',
    type=CustomDataset,
    path='data/toy/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer:')])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    ),
    eval_cfg=dict(evaluator=dict(type=AccEvaluator), pred_postprocessor=dict(type=first_option_postprocess, options='ABCD')),
)
datasets = [gsm8k_toy, mcq_toy]
models = [dict(abbr='toy-model', type=OpenAI, path='toy-model', key='none', max_out_len=256, batch_size=4)]
summarizer = dict(summary_groups=[dict(name='toy-average', subsets=['gsm8k-toy', 'mcq-toy'])])
"""

# (question, worked answer ending in "#### N", the model's reply)
ARITHMETIC = [
    ("Ann has 3 apples and buys 4 more. How many apples does she have?", "3 + 4 = 7\n#### 7", "She has 3 + 4 = 7 apples. The answer is 7"),
    ("A box holds 12 pens; 5 are taken. How many remain?", "12 - 5 = 7\n#### 7", "12 - 5 = 7 pens remain. The answer is 7"),
    ("Tom reads 20 pages a day for 6 days. How many pages?", "20 * 6 = 120\n#### 120", "He reads 20 * 6 = 100 pages. The answer is 100"),
    ("A shop sells 1,250 cups in March and 750 in April. Total?", "1,250 + 750 = 2,000\n#### 2,000", "1250 + 750 = 2000 cups. The answer is 2000"),
    ("Half of 64 is shared by 4 friends. How much each?", "64 / 2 / 4 = 8\n#### 8", "32 / 4 = 8. The answer is 8"),
    ("A train goes 45 km/h for 2 hours. Distance?", "45 * 2 = 90\n#### 90", "The distance is 45 * 2 = 90 km, so 90"),
]
CHOICES = [
    ("Which is a primary colour?", ("Green", "Red", "Purple", "Orange"), "B", "B. Red"),
    ("Which number is prime?", ("4", "6", "7", "9"), "C", "The answer is C"),
    ("Which planet is closest to the sun?", ("Mercury", "Venus", "Earth", "Mars"), "A", "D"),
    ("Water boils at sea level at?", ("50 C", "80 C", "100 C", "120 C"), "C", "It is C."),
    ("Which animal is a mammal?", ("Shark", "Dolphin", "Trout", "Squid"), "B", "I think (A) Shark"),
]


def _jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _predictions(path: Path, records: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({str(i): r for i, r in enumerate(records)}, indent=4, ensure_ascii=False), encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    opencompass = shutil.which("opencompass", path=str(Path(sys.executable).parent)) or shutil.which("opencompass")
    if opencompass is None:
        sys.exit("the `opencompass` command is not installed beside this Python (pip install opencompass==0.5.4)")

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        gsm = [{"question": q, "answer": a} for q, a, _ in ARITHMETIC]
        _jsonl(root / "data" / "gsm8k" / "train.jsonl", gsm[:2])
        _jsonl(root / "data" / "gsm8k" / "test.jsonl", gsm)
        mcq = [{"question": q, "A": o[0], "B": o[1], "C": o[2], "D": o[3], "answer": ans} for q, o, ans, _ in CHOICES]
        _jsonl(root / "data" / "toy" / "mcq.jsonl", mcq)
        (root / "cfg.py").write_text(CONFIG, encoding="utf-8")
        preds = root / "outputs" / "toy" / RUN / "predictions" / MODEL
        _predictions(
            preds / "gsm8k-toy.json",
            [{"origin_prompt": f"Q: {q}\nA:", "prediction": reply, "gold": a} for q, a, reply in ARITHMETIC],
        )
        _predictions(
            preds / "mcq-toy.json",
            [
                {"origin_prompt": f"{q}\nA. {o[0]}\nB. {o[1]}\nC. {o[2]}\nD. {o[3]}\nAnswer:", "prediction": reply, "gold": ans}
                for q, o, ans, reply in CHOICES
            ],
        )
        env = dict(os.environ, COMPASS_DATA_CACHE="")
        cmd = [opencompass, "cfg.py", "-m", "eval", "-w", "outputs/toy", "-r", RUN, "--debug"]
        done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
            return 1

        out: Path = args.out
        if out.exists():
            shutil.rmtree(out)
        run = out / "outputs" / "toy" / RUN
        shutil.copytree(root / "outputs" / "toy" / RUN / "configs", run / "configs")
        shutil.copytree(root / "outputs" / "toy" / RUN / "predictions", run / "predictions")
        shutil.copytree(root / "data", out / "data")
        for result in sorted((root / "outputs" / "toy" / RUN / "results").rglob("*.json")):
            data = json.loads(result.read_text(encoding="utf-8"))
            data.pop("details", None)
            target = out / "expected" / result.relative_to(root / "outputs" / "toy" / RUN / "results")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        (summary,) = sorted((root / "outputs" / "toy" / RUN / "summary").glob("summary_*.csv"))
        shutil.copyfile(summary, out / "expected" / "summary.csv")
        print(f"recorded {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
