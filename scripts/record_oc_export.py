"""Record OpenCompass 0.5.4's summary of a work dir written by ``assay export --format opencompass``.

Run it with a Python that has ``opencompass==0.5.4`` installed, naming a Python that runs assay
(OpenCompass is not a dependency of assay, nor assay of OpenCompass)::

    python scripts/record_oc_export.py --assay-python .venv/bin/python [--out DIR]

With assay it makes the run of ``tests/sources/mixed_run.py`` (the quick start's results scored
by assay beside lm-evaluation-harness's and inspect_ai's recorded ones) and exports it as an
OpenCompass work dir; then OpenCompass's own ``DefaultSummarizer`` reads that folder with the
config the export wrote (``configs/<time>.py``, loaded with mmengine's ``Config.fromfile``).

Output, under ``tests/data/export`` (default): ``opencompass_summary.csv`` (OpenCompass's csv)
and ``meta.json`` (OpenCompass's version). ``tests/commands/test_export.py`` checks that assay's
summary of the exported folder shows OpenCompass's numbers.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "export"
TIME = "20260101_000000"

_MAKE = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.sources.mixed_run import make_mixed_run
run, _ = make_mixed_run(Path({tmp!r}))
print(run)
"""


def export_mixed_run(assay_python: str, tmp: Path) -> Path:
    """Make the mixed run and export it with assay; the exported folder."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p))
    made = subprocess.run([assay_python, "-c", _MAKE.format(root=str(ROOT), tmp=str(tmp / "mixed"))], env=env, check=True,
                          capture_output=True, text=True, cwd=tmp)
    run = made.stdout.strip().splitlines()[-1]
    out = tmp / "exported"
    subprocess.run([assay_python, "-m", "assay", "export", run, "--format", "opencompass", "--out", str(out)], env=env,
                   check=True, capture_output=True, cwd=tmp)
    return out


def opencompass_summary(work: Path, out: Path) -> Path:
    """OpenCompass's ``DefaultSummarizer`` on ``work`` with its config; the csv it wrote."""
    from mmengine.config import Config
    from opencompass.summarizers import DefaultSummarizer

    (config_path,) = (work / "configs").glob("*.py")
    cfg = Config.fromfile(str(config_path))
    cfg["work_dir"] = str(work)
    summarizer_cfg = cfg.get("summarizer", {})
    summarizer = DefaultSummarizer(cfg, dataset_abbrs=summarizer_cfg.get("dataset_abbrs"),
                                   summary_groups=summarizer_cfg.get("summary_groups", []))
    summarizer.summarize(output_path=str(out / "summary.txt"), time_str=TIME)
    return out / "summary.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assay-python", required=True, help="a Python that runs assay (its dependencies installed)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        work = export_mixed_run(args.assay_python, tmp)
        csv_path = opencompass_summary(work, tmp)
        args.out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(csv_path, args.out / "opencompass_summary.csv")
    meta = {"opencompass": importlib.metadata.version("opencompass"),
            "run": "tests/sources/mixed_run.py, exported with assay export --format opencompass"}
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out / 'opencompass_summary.csv'}")


if __name__ == "__main__":
    main()
