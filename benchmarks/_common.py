"""Shared pieces of the benchmarks: a synthetic work directory, the floor, and a measured run.

The work directory follows OpenCompass's layout::

    <root>/data/<dataset>.jsonl                       multiple-choice questions, options A–D
    <root>/config.py                                  an assay/OpenCompass config
    <root>/work                                       the work dir: RUN/predictions/<model>/<dataset>.json

Predictions are realistic messy replies ("The answer is (B).", "答案是C",
"I think option D is right because …"), so the postprocessor does real work.
The long replies are all different; the short ones repeat, as short replies do.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

RUN = "20250101_000000"
_DATA_VERSION = 2  # bumped when the generated data changes; an older work dir is rebuilt
OPTIONS = "ABCD"

_TEMPLATES = (
    "{x}",
    "The answer is ({x}).",
    "答案是{x}",
    "Answer: {x}",
    "Let me think step by step. The question asks about {topic}. Option A seems unlikely, "
    "and after checking each choice, I believe option {x} is correct.",
    "{x}. {topic} is the best match among the choices.",
    "Based on the passage, the correct answer is {x} because it explains {topic}.",
    "I'm not sure, but I would go with ({x})",
    "综上所述，故选{x}",
    "**Answer:** {x}\n\nExplanation: {topic} follows from the definition.",
    "",
)
_TOPICS = ("photosynthesis", "the French revolution", "prime numbers", "tectonic plates", "Newton's laws", "supply and demand")


def _question(rng: random.Random, i: int) -> dict[str, str]:
    topic = rng.choice(_TOPICS)
    return {
        "question": f"Question {i}: which statement about {topic} is correct?",
        "A": f"{topic} is unrelated to {rng.choice(_TOPICS)}",
        "B": f"{topic} was first described in {rng.randint(1500, 2000)}",
        "C": f"{topic} depends on {rng.choice(_TOPICS)}",
        "D": f"none of the above about {topic}",
        "answer": rng.choice(OPTIONS),
    }


def _reply(rng: random.Random, answer: str, skill: float) -> str:
    letter = answer if rng.random() < skill else rng.choice(OPTIONS)
    # the long replies name a random case, so that each of them is unique as real reasoning is;
    # the short ones ("B", "答案是C", "Answer: A") repeat across samples as real short replies do
    topic = f"{rng.choice(_TOPICS)} (case {rng.randrange(10**6)})"
    return rng.choice(_TEMPLATES).format(x=letter, topic=topic)


def write_dataset(path: Path, rows: int, seed: int) -> list[dict[str, str]]:
    """Write ``rows`` MCQ rows as JSONL; return them."""
    rng = random.Random(seed)
    data = [_question(rng, i) for i in range(rows)]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        for row in data:
            fh.write(orjson.dumps(row) + b"\n")
    return data


def write_predictions(path: Path, data: list[dict[str, str]], seed: int, skill: float) -> None:
    """Write an OpenCompass prediction file (``{"0": {...}, ...}``, indent 4) for ``data``."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        fh.write(b"{")
        for i, row in enumerate(data):
            prompt = f"{row['question']}\nA. {row['A']}\nB. {row['B']}\nC. {row['C']}\nD. {row['D']}\nAnswer:"
            record = {"origin_prompt": prompt, "prediction": _reply(rng, row["answer"], skill), "gold": row["answer"]}
            body = orjson.dumps(record, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n    ")
            fh.write(b"," if i else b"")
            fh.write(b'\n    "' + str(i).encode() + b'": ' + body)
        fh.write(b"\n}\n")


CONFIG = """
DATASETS = {datasets!r}
MODELS = {models!r}
datasets = [
    dict(
        abbr=abbr,
        type='JsonlDataset',
        path=f'data/{abbr}.jsonl',
        reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
        eval_cfg=dict(
            evaluator=dict(type='AccEvaluator'),
            pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'),
        ),
    )
    for abbr in DATASETS
]
models = [dict(abbr=abbr) for abbr in MODELS]
"""


def make_work_dir(root: Path, *, models: int, datasets: int, samples: int) -> Path:
    """Create data, config and predictions under ``root`` (reused when already there); return the config."""
    model_names = [f"model_{m}" for m in range(models)]
    dataset_names = [f"mcq_{d}" for d in range(datasets)]
    config = root / "config.py"
    marker = root / f".complete_{models}x{datasets}x{samples}_v{_DATA_VERSION}"
    if marker.exists():
        return config
    for d, name in enumerate(dataset_names):
        rows = write_dataset(root / "data" / f"{name}.jsonl", samples, seed=d)
        for m, model in enumerate(model_names):
            write_predictions(
                root / "work" / RUN / "predictions" / model / f"{name}.json", rows, seed=1000 * m + d, skill=0.4 + 0.1 * m
            )
    config.write_text(CONFIG.replace("{datasets!r}", repr(dataset_names)).replace("{models!r}", repr(model_names)))
    marker.write_text("")
    return config


_FLOOR_PATTERN = re.compile(r"\b([ABCD])\b")


def measure_floor(root: Path) -> tuple[float, int]:
    """Read and parse every prediction file and run one regex per prediction; (seconds, predictions)."""
    start = time.perf_counter()
    count = 0
    for path in sorted((root / "work" / RUN / "predictions").rglob("*.json")):
        records = orjson.loads(path.read_bytes())
        for record in records.values():
            _FLOOR_PATTERN.search(record["prediction"])
            count += 1
    return time.perf_counter() - start, count


def measure_least(root: Path) -> float:
    """The least work that scoring the benchmark's config with its extraction audit implies, in this process:
    reading and parsing every prediction file, reading each distinct reply of a file with the official cascade
    (``first_option_postprocess``) and with its corrected counterpart (``first_option_extract``, the audit's),
    and comparing the two readings reply by reply; seconds.

    Nothing else a score needs (the test set, the verdicts, the result files, the summary) is done; the
    cascades are assay's own (gated: a pattern that cannot match is not tried).  Any scorer of this config
    with the audit does at least this work.
    """
    from assay.postprocess.options import first_option_extract, first_option_postprocess

    start = time.perf_counter()
    for path in sorted((root / "work" / RUN / "predictions").rglob("*.json")):
        replies = [record["prediction"] for record in orjson.loads(path.read_bytes()).values()]
        distinct = dict.fromkeys(replies)
        official = {reply: first_option_postprocess(reply, OPTIONS) for reply in distinct}
        corrected = {reply: first_option_extract(reply, OPTIONS) for reply in distinct}
        sum(map(str.__ne__, map(official.__getitem__, replies), map(corrected.__getitem__, replies)))
    return time.perf_counter() - start


def _tree_rss(pid: int) -> tuple[int, int]:
    """(resident bytes now, largest peak resident bytes of one process) over ``pid`` and its descendants.

    The peak of each process is its ``VmHWM`` (high-water mark), so a spike between
    two polls is still seen.  Descendants are found through each thread's
    ``children`` file, which costs far less than scanning all of ``/proc`` (the
    measuring must not take CPU time from the run it measures).
    """
    page = os.sysconf("SC_PAGE_SIZE")
    total, largest, stack = 0, 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * page
            threads = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue  # the process ended meanwhile
        largest = max(largest, _high_water_mark(p))
        for tid in threads:
            try:
                with open(f"/proc/{p}/task/{tid}/children", "rb") as fh:
                    stack.extend(int(c) for c in fh.read().split())
            except OSError:
                continue
    return total, largest


def _high_water_mark(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class Measured:
    seconds: float
    peak_tree_rss: int
    max_child_rss: int
    returncode: int
    stderr: str
    #: user + system CPU seconds of the process tree (the command and every process it waited for)
    cpu_seconds: float = 0.0


def run_assay(args: list[str], cwd: Path) -> Measured:
    """Run ``python -m assay ARGS`` like a user; poll the process tree's RSS while it runs.

    Python caches compiled modules as an installed package does, even where the
    environment turns that off, so that the runs time assay and not the compiler.
    """
    peak = largest = 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "assay", *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr_chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: stderr_chunks.append(proc.stderr.read() if proc.stderr else b""))
    reader.start()
    while True:
        now, hwm = _tree_rss(proc.pid)
        peak, largest = max(peak, now), max(largest, hwm)
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # the usage includes the children it waited for
        if pid:
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    return Measured(seconds, peak, largest, proc.returncode, b"".join(stderr_chunks).decode(errors="replace"),
                    usage.ru_utime + usage.ru_stime)


def report(title: str, measured: Measured, predictions: int, floor_seconds: float) -> None:
    """Print the figures of one measured run."""
    print(f"== {title}")
    print(f"exit status            {measured.returncode}")
    print(f"wall seconds           {measured.seconds:.2f}")
    print(f"CPU seconds, tree      {measured.cpu_seconds:.2f}")
    print(f"predictions            {predictions:,}")
    print(f"predictions/s          {predictions / measured.seconds:,.0f}")
    print(f"peak RSS, process tree {measured.peak_tree_rss / 2**20:,.0f} MiB (polled every 20 ms)")
    print(f"largest process peak   {measured.max_child_rss / 2**20:,.0f} MiB (its VmHWM)")
    print(f"floor (read+parse+1 regex, one process) {floor_seconds:.2f} s; ratio {measured.seconds / floor_seconds:.2f}x")
    if measured.returncode:
        print(measured.stderr[-3000:])
