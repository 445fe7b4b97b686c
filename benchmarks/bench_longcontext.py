"""Benchmark: scoring long-context predictions, prompts of up to a million tokens, against reading them.

Generates an OpenCompass work directory of long-context predictions laid out as
NeedleBench's 1000k configs name them (``Length{tokens}Depth{percent}_origin_{en,zh}_1000k``:
8 context lengths from 20,000 to 1,000,000 tokens × 11 needle depths × 2 languages), each
record holding the whole haystack as ``origin_prompt`` with a needle at its depth, a short
reply and the needle's answer as ``gold``; the test set of each dataset is a small JSONL file
of answers.  ``--size`` is the total size of the prompts (default 2 GiB: several samples per
dataset; a smaller size scales the prompts of one sample per dataset down).

Then times ``assay eval`` (``--evaluator``, default ``EMEvaluator``: any evaluator assay
registers that scores a reply against a reference) on it as a user would run it, and
prints its wall time, samples per second and peak resident memory — of the largest
process of the run (``RUSAGE_CHILDREN``'s ``ru_maxrss``: the driver or a worker) —
next to the floor: reading and parsing every prediction file in one process, and that
process's peak.  The generated work directory is kept under ``--root`` and reused.

Usage::

    python benchmarks/bench_longcontext.py [--root DIR] [--size 2G] [--evaluator EMEvaluator]
                                           [--workers N] [--repeat 1] [--against REV_OR_DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import orjson
from bench_eval import REPO, version_source

RUN = "20250101_000000"
MODEL = "long-model"
LENGTHS = (20000, 160000, 300000, 440000, 580000, 720000, 860000, 1000000)
DEPTHS = (0, 10, 21, 31, 42, 52, 63, 73, 84, 94, 100)
#: Bytes of prompt per token: English text about 4 characters a token, Chinese about 1.5 characters of 3 bytes.
BYTES_PER_TOKEN = {"en": 4.0, "zh": 4.5}
_WORDS = ("the", "river", "city", "of", "ancient", "market", "light", "stone", "winter", "garden", "said", "and", "road")
_CJK = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可也你说"
_DATA_VERSION = 2


def _filler(rng: random.Random, language: str, size: int) -> str:
    """About ``size`` bytes of haystack text."""
    if language == "en":
        words = rng.choices(_WORDS, k=size // 5 + 1)
        return " ".join(words)[:size]
    return "".join(rng.choices(_CJK, k=size // 3 + 1))[: size // 3]


def _prompt(rng: random.Random, language: str, size: int, depth: int, needle: str) -> str:
    chunk = _filler(rng, language, min(size, 1 << 16))
    haystack = (chunk * (size // max(1, len(chunk.encode())) + 1))[: size if language == "en" else size // 3]
    at = len(haystack) * depth // 100
    return f"{haystack[:at]} {needle} {haystack[at:]}\nQuestion: what is the hidden answer?"


def datasets() -> list[tuple[str, str, int, int]]:
    """``(abbr, language, tokens, depth)`` of every dataset, in NeedleBench's order."""
    return [
        (f"Length{length}Depth{depth}_origin_{language}_1000k", language, length, depth)
        for language in ("en", "zh")
        for length in LENGTHS
        for depth in DEPTHS
    ]


def make_work_dir(root: Path, size: int, evaluator: str) -> tuple[Path, int, int]:
    """Data, config and predictions under ``root`` (reused when there); (config, samples, prompt bytes)."""
    grid = datasets()
    one_sample = sum(BYTES_PER_TOKEN[lang] * tokens for _, lang, tokens, _ in grid)
    samples = max(1, math.ceil(size / one_sample)) if size >= one_sample else 1
    scale = min(1.0, size / one_sample)
    marker = root / f".complete_{size}_v{_DATA_VERSION}"
    config = root / "config.py"
    config.write_text(
        f"DATASETS = {[abbr for abbr, *_ in grid]!r}\n"
        "datasets = [dict(abbr=abbr, type='JsonlDataset', path=f'data/{abbr}.jsonl',\n"
        "                 reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        f"                 eval_cfg=dict(evaluator=dict(type={evaluator!r}))) for abbr in DATASETS]\n"
        f"models = [dict(abbr={MODEL!r})]\n"
    )
    stats = root / "sizes.json"
    if marker.exists():
        known = json.loads(stats.read_text())
        return config, known["samples"], known["bytes"]
    shutil.rmtree(root / "work", ignore_errors=True)
    shutil.rmtree(root / "data", ignore_errors=True)
    total = count = 0
    rng = random.Random(0)
    for d, (abbr, language, tokens, depth) in enumerate(grid):
        answers = [f"code-{d}-{i}-{rng.randrange(10**6)}" for i in range(samples)]
        data = root / "data" / f"{abbr}.jsonl"
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_bytes(b"".join(orjson.dumps({"question": "what is the hidden answer?", "answer": a}) + b"\n" for a in answers))
        path = root / "work" / RUN / "predictions" / MODEL / f"{abbr}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:  # as OpenCompass writes it: one object, indented
            fh.write(b"{")
            for i, answer in enumerate(answers):
                prompt = _prompt(rng, language, int(BYTES_PER_TOKEN[language] * tokens * scale), depth, f"The hidden answer is {answer}.")
                reply = answer if rng.random() < 0.7 else f"I could not find it ({rng.randrange(100)})"
                record = {"origin_prompt": prompt, "prediction": reply, "gold": answer}
                body = orjson.dumps(record, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n    ")
                fh.write((b"," if i else b"") + b'\n    "' + str(i).encode() + b'": ' + body)
                total += len(prompt.encode())
                count += 1
            fh.write(b"\n}\n")
    stats.write_text(json.dumps({"samples": count, "bytes": total}))
    marker.write_text("")
    return config, count, total


def floor(root: Path) -> tuple[float, int]:
    """Read and parse every prediction file, one at a time, in a fresh process: (seconds, its peak RSS in bytes)."""
    code = (
        "import orjson, pathlib, resource, sys, time\n"
        "t = time.perf_counter()\n"
        "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.json')):\n"
        "    records = orjson.loads(p.read_bytes())\n"
        "    assert all(isinstance(r['prediction'], str) for r in records.values())\n"
        "    del records\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(root / "work" / RUN / "predictions")], capture_output=True, text=True, check=True)
    seconds, peak = done.stdout.split()
    return float(seconds), int(peak)


def run_eval(src: Path, root: Path, config: Path, workers: int | None) -> tuple[float, int, float]:
    """``assay eval`` with ``PYTHONPATH=src``: (wall seconds, peak RSS of its largest process in bytes, CPU seconds)."""
    shutil.rmtree(root / "work" / RUN / "results", ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    command = [sys.executable, "-m", "assay", "eval", str(config), "-w", str(root / "work"), "-r", RUN, "--force"]
    if workers:
        command += ["--workers", str(workers)]
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"assay eval with PYTHONPATH={src} failed:\n{stderr.decode(errors='replace')[-3000:]}")
    return seconds, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


def _size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    return int(float(text[:-1]) * units[text[-1]]) if text and text[-1] in units else int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_longcontext")
    parser.add_argument("--size", type=_size, default=2 << 30, help="total bytes of prompts (default 2G; K, M, G suffixes)")
    parser.add_argument("--evaluator", default="EMEvaluator", help="the evaluator's registered name (default EMEvaluator)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--against", metavar="REV_OR_DIR", help="also measure this version of assay (see bench_eval.py)")
    args = parser.parse_args()
    root = args.root.resolve()
    root.mkdir(parents=True, exist_ok=True)
    config, samples, prompt_bytes = make_work_dir(root, args.size, args.evaluator)
    files = sorted((root / "work" / RUN / "predictions").rglob("*.json"))
    largest = max(p.stat().st_size for p in files)
    print(f"== {len(files)} datasets, {samples:,} samples, {prompt_bytes / 2**30:.2f} GiB of prompts, "
          f"largest prediction file {largest / 2**20:.1f} MiB; evaluator {args.evaluator}")
    with version_source(args.against) if args.against else contextlib.nullcontext() as other:
        versions = {"this checkout": REPO / "src"}
        if other is not None:
            versions[other[1]] = other[0]
        for round_ in range(args.repeat):
            floor_seconds, floor_peak = floor(root)
            print(f"-- round {round_ + 1}: floor (read and parse every file, one process) {floor_seconds:.2f} s, "
                  f"peak RSS {floor_peak / 2**20:,.0f} MiB")
            for name, src in versions.items():
                seconds, peak, cpu = run_eval(src, root, config, args.workers)
                print(f"   {name}: assay eval {seconds:.2f} s wall ({seconds / floor_seconds:.2f}x the floor), "
                      f"{samples / seconds:,.1f} samples/s, CPU {cpu:.2f} s, peak RSS of its largest process "
                      f"{peak / 2**20:,.0f} MiB")


if __name__ == "__main__":
    main()
