"""Record the names OpenCompass 0.5.4 gives models and datasets that have no ``abbr``.

Run it with a Python that has ``opencompass==0.5.4`` installed; OpenCompass is
not a dependency of assay::

    python scripts/record_oc_abbr.py [--out DIR]

In a scratch working directory named ``oc-cwd`` (holding ``store/real-model/``
and a symbolic link ``models/link`` to it, since OpenCompass resolves a model's
path to its real path) it loads ``config.py`` as OpenCompass's command does —
``Config.fromfile``, dumped, and the dump loaded again, which turns every class
into the dotted name the config imported it under — and names each model and
dataset with OpenCompass's ``model_abbr_from_cfg`` / ``dataset_abbr_from_cfg``.
It also names a list of plain configs whose ``type`` is already a string (as in
dumped configs).

Output, under ``tests/data/oc_abbr`` (default): ``dumped.py`` (the config as
OpenCompass dumps it) and ``expected.json`` (the names).
``tests/config/test_abbr.py`` names the same configs with assay, in a working
directory of the same name and layout.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "oc_abbr"
CWD_NAME = "oc-cwd"

#: Plain configs, types as strings (as OpenCompass's dumped configs spell them).
MODEL_CASES: list[dict[str, Any]] = [
    {"type": "opencompass.models.huggingface.HuggingFace", "path": "lesliehd/Mistral-7B-Instruct-v0.2"},
    {"type": "opencompass.models.HuggingFaceCausalLM", "path": "/nonexistent-root/a/b/c"},
    {"type": "opencompass.models.OpenAISDK", "path": "deepseek-chat"},
    {"type": "opencompass.models.VLLM", "path": "./qwen/Qwen2-7B/../Qwen2-1.5B"},
    {"type": "opencompass.models.HuggingFace", "path": "models/link"},
    {"type": "opencompass.models.HuggingFace", "path": "org/name/"},
    {"type": "opencompass.models.HuggingFace", "path": "org/name", "abbr": "given"},
]
DATASET_CASES: list[dict[str, Any]] = [
    {"path": "opencompass/gsm8k"},
    {"path": "opencompass/xsum", "name": "dev"},
    {"path": "./data/civilcomments/", "name": ""},
    {"path": "iwslt2017", "name": "iwslt2017-en-de"},
    {"path": "data/a/b.jsonl", "name": "x/y"},
    {"path": "mmlu", "abbr": "given"},
]


def _layout(cwd: Path) -> None:
    (cwd / "store" / "real-model").mkdir(parents=True)
    (cwd / "models").mkdir()
    os.symlink("../store/real-model", cwd / "models" / "link")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    from mmengine.config import Config
    from opencompass.utils.abbr import dataset_abbr_from_cfg, model_abbr_from_cfg

    out: Path = args.out.resolve()
    source = out / "config.py"
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp) / CWD_NAME
        cwd.mkdir()
        _layout(cwd)
        shutil.copyfile(source, cwd / "config.py")
        here = os.getcwd()
        os.chdir(cwd)
        try:
            cfg = Config.fromfile("config.py", format_python_code=False)
            cfg.dump("dumped.py")  # OpenCompass's command dumps the config and reads the dump again
            dumped = Config.fromfile("dumped.py", format_python_code=False)
            expected = {
                "opencompass": importlib.metadata.version("opencompass"),
                "cwd_name": CWD_NAME,
                "config_models": [model_abbr_from_cfg(m) for m in dumped["models"]],
                "config_datasets": [dataset_abbr_from_cfg(d) for d in dumped["datasets"]],
                "models": [[case, model_abbr_from_cfg(case)] for case in MODEL_CASES],
                "datasets": [[case, dataset_abbr_from_cfg(case)] for case in DATASET_CASES],
            }
            shutil.copyfile("dumped.py", out / "dumped.py")
        finally:
            os.chdir(here)
    (out / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
