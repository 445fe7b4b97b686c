"""A run mixing assay's own results with lm-evaluation-harness's and inspect_ai's recorded ones.

The quick start's config (its OpenCompass-format predictions, scored by assay) with ``sources``
naming the recorded files under ``tests/data/sources``: lm-evaluation-harness's ``scripted-b`` and
inspect_ai's ``mockllm/scripted-b`` both become the config's ``chat-small``, beside its own
results; their ``scripted-a`` runs are models of their own.  ``mixed_mcq`` averages one
multiple-choice dataset of each source.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from assay.cli import main

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data" / "sources"
TIME = "20260101_000000"

SOURCES = f"""
sources = [
    dict(type='lm_eval', path={str(DATA / 'lm_eval' / 'out')!r}, models={{'scripted-a': 'lm-a', 'scripted-b': 'chat-small'}}),
    dict(type='inspect_ai', path={str(DATA / 'inspect_ai' / 'logs' / 'eval')!r},
         models={{'mockllm/scripted-a': 'inspect-a', 'mockllm/scripted-b': 'chat-small'}},
         datasets={{'assay_arith': 'inspect_arith', 'assay_mcq': 'inspect_mcq'}}),
]
summarizer['summary_groups'] = quickstart_summary_groups + [
    dict(name='mixed_mcq', subsets=[['quick_mcq', 'accuracy'], ['assay_mcq_a', 'acc,none'],
                                    ['inspect_mcq', 'choice/accuracy']]),
]
summarizer['dataset_abbrs'] = [['mixed_mcq', 'naive_average'], *summarizer['dataset_abbrs']]
"""


def make_mixed_run(root: Path) -> tuple[Path, Path]:
    """Run the mixed config under ``root`` (report included); (run directory, config)."""
    folder = root / "quickstart"
    shutil.copytree(ROOT / "examples" / "quickstart", folder)
    config = folder / "config.py"
    config.write_text(config.read_text() + SOURCES)
    work = root / "work"
    assert main(["run", str(config), "-w", str(work), "-r", TIME]) == 0
    return work / TIME, config
