"""A library file changing what it imported from another changes its own copy, as under mmengine.

NeedleBench's multi-needle files import the single-needle file's evaluation
config and set its evaluator; the single-needle datasets of a file importing
both (``needlebench_v2_4k.py``) keep their own evaluator.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import assay


def test_a_file_changing_an_imported_config_leaves_the_other_importers_theirs(
    oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n"
        "    from opencompass.configs.datasets.needlebench_v2.needlebench_v2_4k.needlebench_v2_4k import needlebench_datasets\n"
        "    from opencompass.configs.datasets.needlebench_v2.needlebench_v2_4k.needlebench_v2_single_4k import (\n"
        "        needlebench_en_datasets as single_en,\n"
        "    )\n\n"
        "datasets = needlebench_datasets + single_en\n"
        "models = [dict(abbr='m', path='org/model')]\n",
        encoding="utf-8",
    )
    cfg = assay.load_config(config)
    kinds = Counter((d["abbr"].split("_")[1], d["eval_cfg"]["evaluator"]["type"].__name__) for d in cfg.datasets)
    assert kinds == {
        ("origin", "NeedleBenchV2OriginEvaluator"): 88 + 44,
        ("parallel", "NeedleBenchParallelEvaluator"): 8,
        **{(f"{n}needle", "NeedleBenchATCEvaluator"): 88 for n in range(2, 6)},
    }
