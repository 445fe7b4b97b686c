"""ArxivRollBench's library config resolves to assay's readers, which read as OpenCompass 0.5.4 reads.

The readers' outputs on the whole postprocessor corpus are compared with
OpenCompass's in ``test_opencompass_corpus.py``; here, the library file itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.postprocess.chain import build_postprocessor


def test_library_config_reads_replies_with_these_readers(oc_library: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.arxivrollbench.arxivrollbench_gen import "
                      "arxivrollbench_datasets, arxivrollbench_full_datasets\n", encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["arxivrollbench_datasets"] + variables["arxivrollbench_full_datasets"]
    assert len(datasets) == 144
    reply = "I think the order is Selection 3; not (b)."
    seen = set()
    for ds in datasets:
        read = build_postprocessor(ds["eval_cfg"]["pred_postprocessor"])
        assert read is not None
        task = ds["abbr"].split("-")[3]
        seen.add(task)
        assert read(reply) == {"s": "Selection 3", "c": "Selection 3", "p": "B"}[task], ds["abbr"]
    assert seen == {"s", "c", "p"}
