"""Record HELM's own run folders for assay's ``helm`` source reader.

Run with a Python that has ``crfm-helm`` installed (not a dependency of assay)::

    python scripts/record_helm.py [--out tests/data/sources/helm/benchmark_output]

It declares two model deployments of its own through HELM's ``prod_env`` folder
(``model_deployments.yaml``, ``model_metadata.yaml``): ``assay/scripted-a`` and
``assay/scripted-b``, both served by :class:`ScriptedClient` (this module),
which answers the parity questions of HELM's built-in ``simple_mcqa`` and
``simple_classification`` scenarios (no download) deterministically, some
right, some wrong and some right but in lower case (so that HELM's
``exact_match`` and ``quasi_exact_match`` differ), with no network and no
weights.  Then it runs HELM's own ``helm-run`` (``simple_mcqa`` with one train
trial, ``simple_classification`` with two) and ``helm-summarize`` (which adds
``instances.json`` and ``display_predictions.json`` to each run folder, and
``groups/<run group>.json``: its tables, per the schema
``tests/data/sources/helm/schema.yaml`` that names the two scenarios as run
groups), and keeps the run folders as HELM wrote them, less
``display_requests.json``, and the tables.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "data" / "sources" / "helm"
SUITE = "assay"
MODELS = {"assay/scripted-a": "a", "assay/scripted-b": "b"}
#: how often each profile answers right (of the questions it answers right, profile b writes one in four in lower case)
SKILL = {"a": 0.5, "b": 0.8}


def _unit(*parts: str) -> float:
    """A deterministic number in [0, 1) from the parts."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def answer(profile: str, prompt: str) -> str:
    """The scripted answer to the last question of ``prompt``: a letter for a lettered question, else a word."""
    number = int(re.findall(r"\d+", prompt)[-1])
    lettered = prompt.rstrip().endswith("Answer:")
    right = number % 2 == 0
    if _unit(profile, str(number)) >= SKILL[profile]:
        right = not right
    if lettered:
        return "A" if right else "B"
    word = "Even" if right else "Odd"
    if profile == "b" and _unit("case", str(number)) < 0.25:
        word = word.lower()
    return word


def __getattr__(name: str) -> Any:
    """``ScriptedClient``, built on first use (HELM imports it by name; helm is imported only then)."""
    if name != "ScriptedClient":
        raise AttributeError(name)
    from helm.clients.client import CachingClient
    from helm.common.request import GeneratedOutput, Request, RequestResult, Token, wrap_request_time

    class ScriptedClient(CachingClient):  # type: ignore[misc]
        def __init__(self, cache_config: Any, profile: str = "a") -> None:
            super().__init__(cache_config=cache_config)
            self.profile = profile

        def make_request(self, request: Request) -> RequestResult:
            raw = {"engine": request.model_engine, "prompt": request.prompt, "profile": self.profile}

            def do_it() -> dict[str, Any]:
                return {"completions": [answer(self.profile, request.prompt)]}

            response, cached = self.cache.get(CachingClient.make_cache_key(raw, request), wrap_request_time(do_it))
            completions = [GeneratedOutput(text=t, logprob=-0.5, tokens=[Token(text=t, logprob=-0.5)])
                           for t in response["completions"]]
            return RequestResult(success=True, cached=cached, request_time=response["request_time"],
                                 request_datetime=response.get("request_datetime"), completions=completions, embedding=[])

    globals()["ScriptedClient"] = ScriptedClient
    return ScriptedClient


def _prod_env(folder: Path) -> None:
    folder.mkdir(parents=True)
    deployments = ["model_deployments:"]
    metadata = ["models:"]
    for name, profile in MODELS.items():
        deployments += [
            f"  - name: {name}", f"    model_name: {name}", "    tokenizer_name: simple/tokenizer1",
            "    max_sequence_length: 2048", "    client_spec:", f"      class_name: \"{Path(__file__).stem}.ScriptedClient\"",
            "      args:", f"        profile: {profile}",
        ]
        metadata += [
            f"  - name: {name}", f"    display_name: Scripted {profile.upper()}", "    description: A scripted test model.",
            "    creator_organization_name: assay", "    access: open", "    release_date: 2026-01-01",
            "    tags: [TEXT_MODEL_TAG, FULL_FUNCTIONALITY_TEXT_MODEL_TAG]",
        ]
    (folder / "model_deployments.yaml").write_text("\n".join(deployments) + "\n")
    (folder / "model_metadata.yaml").write_text("\n".join(metadata) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "benchmark_output"))
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _prod_env(work / "prod_env")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
        for entry, trials in (("simple_mcqa", 1), ("simple_classification", 2)):
            entries = [f"{entry}:model={name}" for name in MODELS]
            subprocess.run([str(bindir / "helm-run"), "--run-entries", *entries, "--suite", SUITE, "-m", "8",
                            "-t", str(trials), "-n", "1"], cwd=work, env=env, check=True)
        subprocess.run([str(bindir / "helm-summarize"), "--suite", SUITE, "--schema-path", str(HERE / "schema.yaml")],
                       cwd=work, env=env, check=True)
        suite = work / "benchmark_output" / "runs" / SUITE
        out = Path(args.out) / "runs" / SUITE
        if out.exists():
            shutil.rmtree(out)
        for run in sorted(suite.iterdir()):
            if (run / "run_spec.json").is_file():  # a run folder (the suite's summary tables are left out)
                shutil.copytree(run, out / run.name, ignore=shutil.ignore_patterns("display_requests.json"))
        (out / "groups").mkdir()
        for table in sorted((suite / "groups").glob("*.json")):  # helm-summarize's tables, one file per run group
            shutil.copy(table, out / "groups" / table.name)
    print(f"recorded into {out}")


if __name__ == "__main__":
    main()
