"""The Ray runner: the same eval through a real local Ray cluster gives byte-identical result files."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CONFIG = """
from assay.evaluate import BaseEvaluator

def share(correct, samples):
    return 100.0 * correct / samples

class ConfigDefinedAcc(BaseEvaluator):
    sample_decomposable = True
    sample_sums = {'accuracy': ('correct', share)}

    def score(self, predictions, references):
        ok = [p == r for p, r in zip(predictions, references)]
        return {'accuracy': 100.0 * sum(ok) / len(ok), 'details': [{'pred': p, 'correct': c} for p, c in zip(predictions, ok)]}

datasets = [
    dict(abbr='local_class', type='JsonlDataset', path='data.jsonl', n=2, k=[1, 2], reader_cfg=dict(output_column='a'),
         eval_cfg=dict(evaluator=dict(type=ConfigDefinedAcc))),
    dict(abbr='builtin', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='first-capital'))),
]
models = [dict(abbr=m, predictions=f'preds/{m}') for m in ('m1', 'm2')]
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'assay[ray]')")
    ray_bin = Path(sys.executable).with_name("ray")
    if not ray_bin.exists():
        pytest.skip("the `ray` command is not installed next to this Python")
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay short
    head = subprocess.Popen(
        [
            str(ray_bin), "start", "--head", "--block", "--port", str(port), "--node-ip-address", "127.0.0.1",
            "--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats",
            "--object-store-memory", str(100 * 2**20), "--temp-dir", temp,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if head.poll() is not None:
                pytest.fail(f"ray start failed: {head.stderr.read().decode() if head.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the Ray head did not start within 120 s")
                time.sleep(0.2)
        yield address
    finally:
        head.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=30)
        shutil.rmtree(temp, ignore_errors=True)


def _setup(tmp_path: Path) -> Path:
    rows = 23
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": "ABCD"[i % 4]}) + "\n" for i in range(rows)))
    for m, skew in (("m1", 1), ("m2", 3)):
        folder = tmp_path / "preds" / m
        folder.mkdir(parents=True)
        for abbr, n in (("local_class", 2), ("builtin", 1)):
            records = {str(i): {"prediction": "ABCD"[(i * skew) % 4] + " is my answer"} for i in range(rows * n)}
            (folder / f"{abbr}.json").write_text(json.dumps(records, indent=4))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


def _eval(cfg: Path, work: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", "eval", str(cfg), "-w", str(work), "-r", "RUN", "--shard-size", "5", *extra],
        cwd=cfg.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow  # starts a Ray head
def test_ray_runner_gives_byte_identical_results(ray_address: str, tmp_path: Path) -> None:
    cfg = _setup(tmp_path)
    local = _eval(cfg, tmp_path / "local", "--workers", "2")
    assert local.returncode == 0, local.stderr
    remote = _eval(cfg, tmp_path / "ray", "--ray", ray_address)
    assert remote.returncode == 0, remote.stderr
    assert "5 shards" in remote.stderr  # the 23-sample datasets were split on the cluster too
    local_files = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("results/**/*.json"))
    assert len(local_files) == 4
    for rel in local_files:
        assert (tmp_path / "ray" / rel).read_bytes() == (tmp_path / "local" / rel).read_bytes(), rel
