"""Record what OpenCompass 0.5.4 computes on PHYBench's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_phy.py

It writes a small ``PHYBench-fullques_v1.json`` in OpenCompass's local layout
under ``tests/data/oc_families/phy/cache/data/phybench`` (the cache folder is
both ``$COMPASS_DATA_CACHE`` and the working directory), reads it with
OpenCompass's own loader and writes a prediction file (``origin_prompt``,
``prediction``, ``gold``) with varied replies under ``predictions/``.  Then
OpenCompass's own eval task (``OpenICLEvalTask``: loader, evaluator, details
dumped) scores it with each library config (unchanged), and
``expected/<case>.json`` gets the result file (details included) and the test
set's rows.

``expected/eed_corpus.json`` holds, for further pairs of LaTeX answers,
OpenCompass's two clean-up stages of each side (or the exception they raise),
``EED``'s four numbers, and ``extract_boxed_latex`` on further replies.

``tests/evaluators/test_oc_phybench.py`` checks assay's namesakes against these.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, library_datasets, use_data_cache, write_json

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "phy"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable)
CASES: dict[str, tuple[str, str]] = {
    "phybench_gen": ("PHYBench/phybench_gen.py", "phybench_datasets"),
    "phybench_rawprompt_gen": ("PHYBench/phybench_rawprompt_gen.py", "phybench_datasets"),
}

#: (question, answer) of the local PHYBench file
PROBLEMS: list[tuple[str, str]] = [
    ("A ball of mass $m$ falls from height $h$. Find its speed on reaching the ground.", "v=\\sqrt{2 g h}"),
    ("Find the period of a pendulum of length $l$.", "T = 2\\pi\\sqrt{\\frac{l}{g}}"),
    ("Find the energy stored in a capacitor $C$ at voltage $U$.", "\\frac{1}{2} C U^{2}"),
    ("Find the tension.", "T=m g \\cos\\theta+\\frac{m v^2}{l}"),
    ("Find the force.", "F = \\frac{G M m}{(R+h)^2}"),
    ("Find the work.", "W=\\int_0^L F dx"),
    ("Find the charge.", "q=C U(1-e^{-\\frac{t}{R C}})"),
    ("Find the speed.", "\\sqrt{\\frac{2 q U}{m}}"),
]

REPLIES: list[str] = [
    "Energy conservation gives $m g h = \\frac12 m v^2$, so \\boxed{v = \\sqrt{2gh}}.",
    "The period is \\boxed{2\\pi \\sqrt{l/g}}",
    "We get \\boxed{\\frac{C U^{2}}{4}}.",
    "Resolving forces:\n\\boxed{T = m g\\cos\\theta}",
    "No box here.\nF = \\frac{GMm}{R^2}",
    "\\boxed{F L}",
    "q = \\boxed{C U \\left(1 - e^{-t/(RC)}\\right)} and more {",
    "\\boxed{\\sqrt{\\frac{2 q U}{m}}",
]

#: (reference, reply's answer) pairs for EED beyond the eval task
EED_PAIRS: list[tuple[str, str]] = [
    ("x+y", "y+x"),
    ("\\frac{1}{2} m v^2", "\\frac{m v^{2}}{2}"),
    ("\\frac{1}{2} m v^2", "m v^2"),
    ("a b c d e f", "a b c"),
    ("\\sin(x)+\\cos(y)", "\\sin x"),
    ("\\sqrt{2 g h}", "\\sqrt{g h}"),
    ("2\\pi\\sqrt{\\frac{l}{g}}", "2\\pi\\sqrt{\\frac{g}{l}}"),
    ("\\frac{G M m}{(R+h)^2}", "\\frac{G M m}{R^2+h^2}"),
    ("e^{-\\frac{t}{RC}}", "e^{-t/(RC)}"),
    ("x^\\frac{1}{2}", "\\sqrt{x}"),
    ("x^\\frac12 y", "\\sqrt{x} y"),
    ("v \\approx 2 g", "2g"),
    ("v \\approx 2 g", "approx 2 g"),
    ("a = b = 3 c", "3c"),
    ("x \\geq 2 y", "2y"),
    ("E = m c^2 \\quad \\text{(rest)}", "m c^{2}"),
    ("\\boxed{m g h}", "mgh"),
    ("{m g h}", "m g h"),
    ("x{m g}", "m g"),
    ("\\hat x + y", "x + y"),
    ("\\text{ m}\\,s", "s"),
    ("\\mathbf{F} \\cdot \\vec{r}", "F r"),
    ("\\vec{\\bar{a}_{b}}", "a_b"),
    ("\\vec a + \\vec\\beta", "a + \\beta"),
    ("\\left(a+b\\right)^2", "(a+b)^{2}"),
    ("\\dfrac{a}{b}", "\\tfrac{a}{b}"),
    ("\\frac\\alpha2", "\\frac{\\alpha}{2}"),
    ("I R", "U"),
    ("m_e c^2", "m_{e} c^{2}"),
    ("e_0 E", "E e_0"),
    ("E_0 x", "E_{0} x"),
    ("a \\pm b", "a + b"),
    ("a \\mp b", "a - b"),
    ("\\sqrt[3]{x}", "x^{1/3}"),
    ("\\begin{pmatrix} a \\end{pmatrix}", "a"),
    ("\\frac{a}{b}.", "a/b"),
    ("\\ln(2) k T", "k T \\log 2"),
    ("\\exp(x)", "e^{x}"),
    ("\\tan\\theta", "\\frac{\\sin\\theta}{\\cos\\theta}"),
    ("\\arctan(x) + 1", "\\arctan x"),
    ("2.5 m", "\\frac{5}{2} m"),
    ("0.1 x", "0.2 x"),
    ("\\infty", "x"),
    ("\\int_0^1 x dx", "1/2"),
    ("\\sum_i x_i", "x"),
    ("x", ""),
    ("x", "x+y+z+w+v"),
    ("x", "x"),
    ("(a+b", "a+b"),
    ("\\{a\\}", "a"),
    ("a+b", "\\{a+b"),
    ("\\frac{1}{2}", "\\frac{1}{3}"),
    ("\\alpha^2 \\beta", "\\beta \\alpha^{3}"),
    ("\\omega_0 t + \\phi", "\\omega_{0} t"),
    ("\\frac{\\hbar^2}{2 m a^2}", "\\frac{\\hbar^2}{m a^2}"),
    ("\\frac{\\mu_0 I}{2 \\pi r}", "\\frac{\\mu_0 I}{4 \\pi r}"),
    ("\\epsilon_0 E^2", "\\varepsilon_0 E^2"),
    ("\\frac{\\partial f}{\\partial x}", "f'"),
    ("a \\times b", "a b"),
    ("x_{+} + x_-", "x_p + x_m"),
    ("\\sqrt{\\frac{k}{m}} t", "t\\sqrt{k/m}"),
    ("\\frac{3}{2} k_B T", "1.5 k_{B} T"),
    ("\\cosh(x)^2 - \\sinh(x)^2", "1"),
    ("\\frac{m_1 m_2}{m_1+m_2}", "\\frac{m_1 m_2}{m_1 - m_2}"),
    ("\\sin(\\omega t + \\phi) A", "A \\cos(\\omega t)"),
    ("x > 0", "0"),
    ("y < 3 x", "3x"),
    ("a = \\{b\\}", "b"),
    ("\\Big( a \\Big) b", "a b"),
    ("\\frac{a}{b} \\quad x", "a/b"),
    ("\\overline{v}", "v"),
    ("\\boldsymbol{p} c", "p c"),
    ("\\mathrm{d} x", "d x"),
    ("{a}_{b} + 1", "a_b + 1"),
    ("\\frac{x}{y}^2", "x^2/y^2"),
    ("x^{\\frac{3}{2}}", "x\\sqrt{x}"),
    ("10^{3} x", "1000 x"),
    ("\\frac{a+b}{c+d} + e f g h", "\\frac{a}{c}"),
    ("\\sqrt{a^2+b^2+c^2+d^2+f^2+g^2}", "a+b"),
    ("\\left\\{x\\right\\}", "x"),
    ("\\sqrt{x", "x"),
    ("$x^2$", "x^2"),
    ("x\\\\", "x"),
    # a command still present after its first removal
    ("m_1 + m_2", "\\mathrm{m}_2 + \\mathrm{m}_1"),
    ("m_1 + m_2", "\\boxed{\\mathrm{m}_2 + \\mathrm{m}_1}"),
    ("\\mathrm{d} x", "\\mathrm{d}x \\mathrm{d}y"),
    ("\\mathrm{\\mathrm{x}}", "x"),
    ("\\text{a}+\\text{b}", "a+b"),
    ("a+b", "\\text{a}+\\text{b}"),
    ("\\text{ m}\\,s + \\text{ kg}", "s"),
    ("\\hat{x} + \\hat{y}", "x + y"),
    ("\\hat x + \\hat y", "x + y"),
    ("\\textbf{F} x", "F x"),
    ("\\textbf{F} + \\textbf{G}", "F + G"),
    ("\\text{N} \\textbf{F}", "F"),
    ("\\mathbf{a} \\cdot \\mathbf{b}", "a b"),
    ("\\overline{v} + \\overline{u}", "v + u"),
    ("\\boldsymbol{p} \\boldsymbol{q}", "p q"),
    ("\\vec{\\bar{a}}", "a"),
    ("\\vec{\\bar{a} + \\bar{b}}", "a + b"),
    ("\\vec{\\bar{a}} + \\vec{\\bar{b}}", "a + b"),
    ("\\boxed{a} + \\boxed{b}", "a+b"),
    ("\\begin{x\\begin} y", "y"),
    ("\\begin{pmatrix} a \\end{pmatrix} \\begin{pmatrix} b \\end{pmatrix}", "a b"),
]

BOXED_REPLIES: list[str] = [
    "\\boxed{x}",
    "a \\boxed{ {x} + 1 } then \\boxed{y}",
    "\\boxed{x",
    "no box\n\n  last line  \n",
    "",
    "   ",
    "\\boxed {x}\nlast",
    "\\boxed{}",
    "\\boxed{\\frac{a}{b}} }",
]


def build_data() -> None:
    folder = FIXTURES / "cache" / "data" / "phybench"
    folder.mkdir(parents=True, exist_ok=True)
    problems = [{"id": i, "tag": "MECHANICS", "content": q, "answer": a} for i, (q, a) in enumerate(PROBLEMS)]
    write_json(folder / "PHYBench-fullques_v1.json", problems)


def _datasets(case: str) -> list[dict[str, Any]]:
    return library_datasets(*CASES[case])


def write_predictions(case: str) -> None:
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        golds = test["target"]
        records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": r, "gold": g}
                   for i, (q, r, g) in enumerate(zip(test["input"], REPLIES, golds, strict=True))}
        out = FIXTURES / "predictions" / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_json(out, records)


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    rel, variable = CASES[case]
    out: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for ds in _datasets(case):
        abbr = ds["abbr"]
        run_dir = work / case / RUN
        pred_dir = run_dir / "predictions" / MODEL
        pred_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred_dir / f"{abbr}.json")
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        OpenICLEvalTask(cfg).run()
        result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        rows = build_dataset_from_cfg(ds).test.to_list()
        out["datasets"][abbr] = jsonable({"result": result, "test_rows": rows})
    return out


def _stage(fn: Any, text: Any) -> Any:
    try:
        return fn(text)
    except Exception as exc:  # the exception's type is what is recorded
        return {"raises": type(exc).__name__}


def record_corpus() -> dict[str, Any]:
    from opencompass.datasets.phybench.box_extract import extract_boxed_latex
    from opencompass.datasets.phybench.EED import EED
    from opencompass.datasets.phybench.latex_pre_process import first_pre_process, second_pre_process

    pairs = []
    for reference, answer in EED_PAIRS:
        sides = {}
        for name, text in (("reference", reference), ("answer", answer)):
            first = _stage(first_pre_process, text)
            second = _stage(second_pre_process, first) if isinstance(first, str) else first
            sides[name] = {"first": first, "second": second}
        pairs.append({"reference": reference, "answer": answer, "stages": sides, "eed": list(EED(reference, answer))})
    boxed = [{"reply": r, "clean": extract_boxed_latex(r)} for r in BOXED_REPLIES]
    return jsonable({"pairs": pairs, "boxed": boxed})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    use_data_cache(FIXTURES / "cache")
    build_data()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for case in CASES:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            write_json(out_dir / f"{case}.json", record, sort_keys=True)
    print("recording the EED corpus", flush=True)
    write_json(out_dir / "eed_corpus.json", record_corpus())
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
