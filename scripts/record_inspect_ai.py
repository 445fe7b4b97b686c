"""Record inspect_ai's own log files for assay's ``inspect_ai`` source reader.

Run with a Python that has ``inspect_ai`` installed (not a dependency of assay)::

    python scripts/record_inspect_ai.py [--out tests/data/sources/inspect_ai/logs] [--js-tiktoken DIR] [--shared]

Two small local tasks read the JSON datasets in ``tests/data/sources/inspect_ai/data``:
``assay_arith`` (solver ``generate()``, scorers ``match()`` and ``includes()``) and
``assay_mcq`` (solver ``multiple_choice()``, which generates and marks the chosen
letter, scorer ``choice()``).  The model is inspect's ``mockllm`` provider with
``custom_outputs`` (its hook for scripted replies): a function answering each prompt
from its own numbers, deterministically right or wrong per profile, so that
``mockllm/scripted-a`` and ``mockllm/scripted-b`` are two models with different
results.  Each (model, task) is evaluated once and written in both of inspect's log
formats (``log_format='eval'``, a zip of Zstandard-compressed JSON entries, into
``<out>/eval/``; ``'json'``, one document, into ``<out>/json/``), and once more with
``epochs=2`` (``<out>/epochs/``: the scores reduced per sample by inspect's
``mean`` reducer).  ``inspect log dump --header-only`` of every ``.eval`` log —
what inspect itself shows of it, its results' metrics included — is kept in
``<out>/../dumps/<log name>.json``.

``--shared`` records only ``assay_arith_shared`` (``data/arith_shared.json``: twenty of
lm-evaluation-harness's ``tests/data/sources/lm_eval/tasks/arith.jsonl`` questions, its
documents 4 to 23 under ids of their own, shuffled, with the number alone as target, as
inspect's tasks take GSM8K's; one question a second time under another id, and two
questions lm-evaluation-harness was not asked) for ``mockllm/scripted-b`` into
``<out>/shared/`` (which a full run records too), leaving the other logs as they are: the
same questions answered through two tools, for ``assay compare`` across them.

Offline, ``mockllm`` still counts tokens with tiktoken's ``o200k_base``, which
tiktoken downloads on first use.  The npm package ``js-tiktoken`` carries the same
ranks (``dist/ranks/o200k_base.js``: lines ``<tag> <first rank> <token> <token> …``,
tokens in base64, ranks consecutive); this script converts them to tiktoken's file
format (``<token> <rank>`` per line, by rank), checks the result against the SHA-256
tiktoken expects, and writes it into a temporary ``TIKTOKEN_CACHE_DIR`` under the
name tiktoken looks for (the SHA-1 of the file's URL).  ``--js-tiktoken`` names the
unpacked package (``npm pack js-tiktoken``); without it the script runs ``npm pack``
itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent / "tests" / "data" / "sources" / "inspect_ai"
O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def _o200k_cache(js_tiktoken: Path | None, scratch: Path) -> Path:
    """A tiktoken cache folder holding ``o200k_base`` converted from js-tiktoken's ranks."""
    if js_tiktoken is None:
        subprocess.run(["npm", "pack", "js-tiktoken", "--silent"], cwd=scratch, check=True, stdout=subprocess.DEVNULL)
        (tgz,) = scratch.glob("js-tiktoken-*.tgz")
        shutil.unpack_archive(tgz, scratch)
        js_tiktoken = scratch / "package"
    source = (js_tiktoken / "dist" / "ranks" / "o200k_base.js").read_text()
    ranks_json = source[source.index("{") : source.rindex("}") + 1]
    ranks: dict[int, str] = {}
    for line in json.loads(ranks_json)["bpe_ranks"].split("\n"):
        if not line:
            continue
        _tag, first, *tokens = line.split(" ")
        for i, token in enumerate(tokens):
            ranks[int(first) + i] = token
    data = "".join(f"{ranks[r]} {r}\n" for r in sorted(ranks)).encode()
    if hashlib.sha256(data).hexdigest() != O200K_SHA256:
        raise SystemExit("o200k_base converted from js-tiktoken does not have the SHA-256 tiktoken expects")
    cache = scratch / "tiktoken"
    cache.mkdir()
    (cache / hashlib.sha1(O200K_URL.encode()).hexdigest()).write_bytes(data)
    return cache


def _unit(*parts: str) -> float:
    """A deterministic number in [0, 1) from the parts."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _replier(profile: str, epoch_salt: list[int]) -> Any:
    """``custom_outputs`` for mockllm: a reply computed from the prompt, right as often as the profile's skill."""
    from inspect_ai.model import ModelOutput

    skill = {"a": 0.5, "b": 0.8}[profile]
    calls: dict[str, int] = {}

    def reply(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        prompt = messages[-1].text
        # a second epoch of the same prompt answers afresh (as a sampled model would)
        seen = calls[prompt] = calls.get(prompt, -1) + 1
        u = _unit(profile, prompt, str(seen + epoch_salt[0]))
        name = f"scripted-{profile}"
        if m := re.search(r"What is (\d+) plus (\d+)\?", prompt):
            total = int(m.group(1)) + int(m.group(2))
            if u < skill:
                text = str(total)  # exactly the target: match() and includes() both
            elif u < skill + 0.15:
                text = f"I believe the sum is {total} or close to it."  # includes() only
            else:
                text = f"{total + 1}"
            return ModelOutput.from_content(name, text)
        m = re.search(r"What is twice (\d+)\?", prompt)
        assert m, prompt
        right = str(2 * int(m.group(1)))
        options = dict(re.findall(r"^([A-D])\) (.*)$", prompt, re.MULTILINE))
        letter = next(k for k, v in options.items() if v.strip() == right)
        if u < skill:
            text = f"Twice {m.group(1)} is {right}.\n\nANSWER: {letter}"
        elif u < skill + 0.1:
            text = "I cannot tell."  # no answer given
        else:
            wrong = next(k for k in "ABCD" if k in options and k != letter)
            text = f"ANSWER: {wrong}"
        return ModelOutput.from_content(name, text)

    return reply


def _tasks() -> dict[str, Any]:
    from inspect_ai import Task
    from inspect_ai.dataset import json_dataset
    from inspect_ai.scorer import choice, includes, match
    from inspect_ai.solver import generate, multiple_choice

    data = Path("data")  # relative: the logs name the dataset by this path
    return {
        "assay_arith": lambda: Task(
            name="assay_arith", dataset=json_dataset(str(data / "arith.json")), solver=generate(), scorer=[match(), includes()]
        ),
        "assay_mcq": lambda: Task(
            name="assay_mcq", dataset=json_dataset(str(data / "mcq.json")), solver=multiple_choice(), scorer=choice()
        ),
        "assay_arith_shared": lambda: Task(
            name="assay_arith_shared", dataset=json_dataset(str(data / "arith_shared.json")), solver=generate(),
            scorer=[match(), includes()],
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "logs")
    parser.add_argument("--js-tiktoken", type=Path, default=None)
    parser.add_argument("--shared", action="store_true", help="record only assay_arith_shared into <out>/shared")
    args = parser.parse_args()
    out = args.out.resolve()
    shutil.rmtree(out / "shared" if args.shared else out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        os.environ["TIKTOKEN_CACHE_DIR"] = str(_o200k_cache(args.js_tiktoken, scratch))
        shutil.copytree(HERE / "data", scratch / "data")
        os.chdir(scratch)  # no path of this checkout (nor its git revision) in the logs
        from inspect_ai import eval as inspect_eval
        from inspect_ai.model import get_model

        tasks = _tasks()
        shared = tasks.pop("assay_arith_shared")
        (log,) = inspect_eval(
            shared(), model=get_model("mockllm/scripted-b", custom_outputs=_replier("b", [0])),
            log_dir=str(out / "shared"), log_format="eval", display="none", max_connections=1, max_samples=1,
        )
        if log.status != "success":
            raise SystemExit(f"assay_arith_shared with scripted-b: {log.status}: {log.error}")
        if args.shared:
            return
        runs = [("eval", "eval", 1), ("json", "json", 1), ("epochs", "eval", 2)]
        for folder, log_format, epochs in runs:
            for profile in ("a", "b"):
                if epochs > 1 and profile == "b":
                    continue
                for name, task in tasks.items():
                    salt = [0]
                    model = get_model(f"mockllm/scripted-{profile}", custom_outputs=_replier(profile, salt))
                    (log,) = inspect_eval(
                        task(), model=model, log_dir=str(out / folder), log_format=log_format, epochs=epochs,
                        display="none", max_connections=1, max_samples=1,
                    )
                    if log.status != "success":
                        raise SystemExit(f"{name} with scripted-{profile}: {log.status}: {log.error}")
        shutil.rmtree(out.parent / "dumps", ignore_errors=True)
        for log_file in sorted((out / "eval").glob("*.eval")):
            dump = subprocess.run(
                [sys.executable, "-m", "inspect_ai", "log", "dump", "--header-only", str(log_file)],
                check=True, capture_output=True, text=True,
            ).stdout
            dumps = out.parent / "dumps"
            dumps.mkdir(exist_ok=True)
            (dumps / f"{log_file.stem}.json").write_text(dump)


if __name__ == "__main__":
    main()
