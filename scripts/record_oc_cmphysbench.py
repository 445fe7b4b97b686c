"""Record what OpenCompass 0.5.4 computes on CMPhysBench's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_cmphysbench.py

The library configs load ``weidawang/CMPhysBench`` with ``datasets.load_dataset``;
this script writes a small ``train.jsonl`` in the local folder of that name under
``tests/data/oc_families/cmphysbench/cache`` (the working directory of the run),
reads it with OpenCompass's own loader and writes a prediction file
(``origin_prompt``, ``prediction``, ``gold``) with varied replies under
``predictions/``.  Then OpenCompass's own eval task (``OpenICLEvalTask``: loader,
evaluator, details dumped) scores it with each library config (unchanged), and
``expected/<case>.json`` gets the result file (details included) and the test
set's rows.  The rows' ``topic`` is what the evaluator takes as the answer's type,
so the local file's topics are the scorer's types (``Expression``, ``Equation``,
``Tuple``, ``Interval``, ``Numeric``) and topics that are none of them.

``expected/seed_corpus.json`` holds, for a corpus of (prediction, reference, type)
triples drawn from a fixed seed over numbers, expressions, equations, intervals,
tuples, matrices, relations, quantities with units and malformed LaTeX, each
side's clean-up stages (``first_pre_process``, ``second_pre_process``, the SymPy
expression as ``srepr``, and the type readers ``extract_numeric_part``,
``extract_tuple``, ``judge_interval``, ``parse_latex_quantity_general``) or the
exception they raise, and ``SEED``'s four numbers (or the exception it raises);
also the boxed answer read from further replies.  ``pint``, which converts the
units of ``Numeric`` answers, is not installed with OpenCompass (only its
``full`` extra has it): this corpus is recorded with ``pint`` hidden.
``expected/seed_units_pint.json`` holds ``SEED`` and OpenCompass's unit
conversion on ``Numeric`` pairs with units, recorded with ``pint`` (required
there; its version is noted).  ``expected/seed_quirks.json`` (also with ``pint``)
holds nested bracket subscripts (their numbering, stages and ``SEED``) and the
values OpenCompass's ``eval`` gives digit-less quantities (``pi``, ``sqrt(pi)``,
``not False``, names and calls that raise) and ``SEED`` on such ``Numeric`` pairs;
``--quirks-only`` records just that file.  ``expected/seed_big_numbers.json`` (with ``pint``;
``--big-only`` records just it) holds ``SEED`` on ``Numeric`` pairs asking for big integers below assay's
bounds (digits with large exponents, SymPy functions of big integers), which OpenCompass computes at once.

``tests/evaluators/test_oc_cmphysbench.py`` checks assay's namesakes against these.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, library_datasets, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "cmphysbench"
RUN = "20250101_000000"
MODEL = "oc-model"
SEED_NUMBER = 20250101
CORPUS_SIZE = 1600

#: case id → (config under opencompass/configs/datasets, variable)
CASES: dict[str, tuple[str, str]] = {
    "cmphysbench_gen": ("CMPhysBench/cmphysbench_gen.py", "cmphysbench_datasets"),
    "cmphysbench_rawprompt_gen": ("CMPhysBench/cmphysbench_rawprompt_gen.py", "cmphysbench_datasets"),
}

#: (question, final answers, topic) of the local file; the row with no answer is left out by the loader
PROBLEMS: list[tuple[str, list[str], str]] = [
    ("Find the magnon dispersion at small k.", ["\\omega = D k^{2}"], "Magnetism"),
    ("Give the critical field.", ["H_c = \\frac{\\Phi_0}{2\\pi\\xi^2}"], "Expression"),
    ("Write the BCS gap equation at T=0.", ["\\Delta = 2\\hbar\\omega_D e^{-1/(N(0)V)}"], "Equation"),
    ("Give the Fermi energy in eV.", ["7.0 \\mathrm{eV}"], "Numeric"),
    ("Give the lattice constant.", ["3.61\\times 10^{-10}"], "Numeric"),
    ("For which temperatures is the phase stable?", ["[0, T_c)"], "Interval"),
    ("Give the two band energies.", ["(\\epsilon_0 - t, \\epsilon_0 + t)"], "Tuple"),
    ("Unanswered.", [], "Magnetism"),
    ("Give the specific heat.", ["C = \\gamma T + \\beta T^{3}"], "Superconductivity"),
    ("Give the Hall coefficient.", ["R_H = -\\frac{1}{n e}", "-1/(ne)"], "Semiconductors"),
    ("Give the density of states.", ["\\frac{m}{\\pi\\hbar^2}"], "Expression"),
    ("Give the Curie constant.", ["\\frac{n \\mu_0 \\mu^2}{3 k_B}"], "Magnetism"),
    ("Give the energy.", ["\\int_0^1 x dx"], "Expression"),
    ("Give the gap.", ["0"], "Numeric"),
]

REPLIES: list[str] = [
    "The dispersion is quadratic, so \\boxed{\\omega = D k^2}.",
    "\\boxed{H_c = \\frac{\\Phi_0}{2 \\pi \\xi^{2}}} and also \\boxed{H_c = \\frac{\\Phi_0}{\\pi \\xi^2}}",
    "We find \\boxed{\\Delta = 2 \\hbar \\omega_D \\exp(-\\frac{1}{N(0) V})}",
    "E_F = \\boxed{7.02 \\, \\mathrm{eV}}",
    "a = \\boxed{3.6 \\times 10^{-10}}",
    "\\boxed{\\left[0, T_c\\right)}",
    "\\boxed{(\\epsilon_0 + t, \\epsilon_0 - t)}",
    "no box at all: C = \\gamma T",
    "\\boxed{-\\frac{1}{ne}",
    "\\boxed{}",
    "\\boxed{\\frac{n \\mu_0 \\mu^2}{3 k_B T}}",
    "\\boxed{1/2}",
    "\\boxed{0.0}",
]

#: LaTeX answers the corpus draws from, by kind (each kind's natural type first in TYPES_OF)
POOL: dict[str, list[str]] = {
    "expression": [
        "\\frac{1}{2} m v^2", "\\sqrt{2 g h}", "2\\pi\\sqrt{\\frac{l}{g}}", "\\frac{\\hbar^2 k^2}{2 m}",
        "\\frac{\\mu_0 I}{2 \\pi r}", "k_B T \\ln 2", "e^{-\\frac{E}{k_B T}}", "\\frac{n e^2 \\tau}{m}",
        "\\frac{\\Phi_0}{2\\pi\\xi^2}", "-\\frac{1}{n e}", "\\gamma T + \\beta T^3", "\\frac{1}{e^{\\beta\\epsilon}-1}",
        "\\hbar\\omega(n+\\frac{1}{2})", "J S^2 z", "\\frac{C}{T-\\theta}", "\\sin(k a)", "\\cos^2\\theta",
        "2t\\cos(k_x a)+2t\\cos(k_y a)", "\\frac{\\pi^2}{3} k_B^2 T g(E_F)", "\\Delta_0 \\tanh(\\frac{\\Delta}{2 k_B T})",
        "\\frac{\\partial E}{\\partial k}", "\\frac{dE}{dk}", "\\frac{1}{\\hbar}\\frac{dE}{dk}", "a^\\dagger a",
        "\\langle n \\rangle", "|\\psi\\rangle", "f'(x)", "x^*", "\\vec{k}\\cdot\\vec{r}", "\\dot{x}", "\\ddot{x} m",
        "H + \\text{h.c.}", "\\hat{H}", "\\mathbf{B}", "\\mathrm{d}x", "\\boldsymbol{\\sigma}", "\\mathcal{H}",
        "\\operatorname{sinh}(x)", "\\operatorname{rot} A", "\\overline{v}", "\\varkappa^2", "\\epsilon_F",
        "\\Omega_{+}", "V_{CKM}^{ij*}", "\\not{k}", "x^{*2}", "M^{-1}_{ij}", "(a+b)_{i}", "{a}_{b}",
        "\\frac{a}{b} \\quad \\text{for } b>0", "\\frac{3}{2} k_B T", "10^{3} x", "\\sqrt[3]{x}", "x^\\frac{1}{2}",
        "\\exp(i k x)", "\\Exp(x)", "\\dfrac{a}{b}", "\\tfrac{1}{2}", "a \\times b", "A_{\\perp}", "B_{\\parallel}",
        "x_+ + x_-", "e_1 + E_2", "I R", "m_e c^2", "a \\pm b", "\\mp a", "\\infty", "\\frac{1}{2}\\bar{E}1_a^i",
        "x \\sim y", "\\{a, b\\}", "p;q", "·x", "\\lim_{x arrow 0} x", "i arrow f", "dE_{k}", "d\\mathbf{E}_{k}",
        "\\frac{d x_1}{d t_0}", "d\\alpha", "2 \\frac{1}{2}", "\\Big( a \\Big) b", "$x^2$", "\\(x\\)", "x \\\\",
        "能量 E", "\\mathbb{R}", "\\pmb{x}", "\\mathfrak{g}", "\\mathscr{L}", "\\frac\\alpha2", "x^+ + y^-",
        "x^{\\ast}", "x^ + 1", "a^{\\prime}", "f^{(3)}", "x^^^", "\\vec x", "\\vec{\\bar{a}}", "\\vec{a_{i}}",
        "\\frac{a}{b}.", "\\Exp", "\\operatorname{Im} z", "\\operatorname{dim} V", "\\overleftarrow{x}",
        "\\psi^\\dagger \\psi", "x\\|y", "\\sqrt{\\frac{k}{m}}", "\\frac{x}{y}^2", "\\log(x)", "\\arctan(x)",
    ],
    "equation": [
        "E = m c^2", "\\omega = D k^{2}", "H_c = \\frac{\\Phi_0}{2\\pi\\xi^2}", "T_c = 1.13 \\hbar\\omega_D e^{-1/(N V)}",
        "x^2 + y^2 = r^2", "\\nabla^2 \\phi = 0", "F = m a", "p V = n R T", "E = \\hbar \\omega",
        "C = \\gamma T + \\beta T^{3}", "R_H = -\\frac{1}{n e}", "v_g = \\frac{1}{\\hbar}\\frac{dE}{dk}",
        "a = b = c", "E \\approx 2 t", "y \\approx x", "\\chi = \\frac{C}{T}", "k = \\frac{2\\pi}{\\lambda}",
    ],
    "number": [
        "3.2", "-1.5\\times 10^{-3}", "2.0e5", "\\frac{1}{3}", "0", "1.28 \\times 10^{-5}", "6.022\\times10^{23}",
        "0.5", "-0.25", "100", "1.0", "3.14159", "\\pi", "2\\sqrt{2}", "e^{2}", "1.38 \\\\times 10^{-23}",
        "4.2E-2", "+7", ".5", "x = 3.2", "E \\approx 1.5", "T \\sim 300", "\\approx 2.7", "3,000",
    ],
    "unit": [
        "5\\,\\mathrm{km}", "5000 m", "3.0 \\text{ eV}", "300 K", "1.2 \\mathrm{m/s}", "9.8 \\mathrm{m/s^{2}}",
        "1.6\\times 10^{-19} \\mathrm{C}", "2 \\mathrm{T}", "0.5 \\mathrm{meV}", "500 \\mathrm{\\mu eV}",
        "10 \\mathrm{nm}", "1 \\text{ GHz}", "4.5 \\, \\mathrm{kJ/mol}", "2.3 \\mathrm{W\\,m^{-1}K^{-1}}",
        "7.0 \\mathrm{eV}", "7000 \\mathrm{meV}", "12 \\text{Hz}", "1 \\mathrm{{m}}",
    ],
    "interval": [
        "[0,1)", "(-\\infty, 0]", "\\left(a, b\\right]", "[T_c, 2T_c]", "(0, \\frac{\\pi}{2})", "[0, T_c)",
        "\\left[ -1, 1 \\right]", "$(1, 2)$", "(x, y]", "[1,2,3]", "(a)",
    ],
    "tuple": [
        "(a, b)", "(x, y) = (1, 2)", "\\left(\\frac{1}{2}, 0, 1\\right)", "(\\epsilon_0 - t, \\epsilon_0 + t)",
        "(1, 2, 3)", "$(k_x, k_y)$", "(E_1, E_2) = (\\hbar\\omega, 2\\hbar\\omega)", "()", "[a, b]", "\\(a, b\\)",
        "(a, (b, c))", "(a = 1, b)",
    ],
    "matrix": [
        "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}", "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}",
        "\\begin{pmatrix} \\cos\\theta & -\\sin\\theta \\\\ \\sin\\theta & \\cos\\theta \\end{pmatrix}",
        "\\begin{matrix} x & y \\end{matrix}", "\\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix}",
        "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\begin{array}{cc} a & b \\end{array}",
    ],
    "relation": [
        "x < 1", "T > T_c", "0<x<1", "a \\leq b", "E \\geq 0", "x \\neq 0", "k \\gg 1", "\\omega \\ll \\omega_D",
        "x \\in [0,1]", "a \\land b", "x > 1 \\text{ or } x < -1", "\\Delta \\ge 0", "v \\le c",
    ],
    "malformed": [
        "\\frac{a}{", "(a+b", "\\sqrt{x", "}{", "\\text{hello}", "a+b)", "\\left( a", "x^", "_", "\\", "{}", "",
        "   ", "\\int_0^1 x dx", "\\sum_i x_i", "\\boxed{x}", "\\boxed{a} + \\boxed{b}", "\\frac{}{}", "a &= b",
        "\\begin{x}", "\\end", "$$", "\\text{a}\\text{b}", "a b c d e f g h i j", "\\frac{1}{0}", "0/0", "x^{-}",
        "\\zeta(3)", "\\Gamma(x)", "\\nabla", "\\oint", "||x||", "\\{", "\\}", "\\%", "a,b,c", "\\mathrm{",
    ],
}

#: the types a kind's answers are scored under (the first, most of the time)
TYPES_OF: dict[str, list[str]] = {
    "expression": ["Expression", "Magnetism", "Equation", "Numeric"],
    "equation": ["Equation", "Expression", "Superconductivity"],
    "number": ["Numeric", "Expression", "Others"],
    "unit": ["Numeric", "Expression"],
    "interval": ["Interval", "Expression", "Tuple"],
    "tuple": ["Tuple", "Expression", "Interval"],
    "matrix": ["Expression", "Equation", "Tuple"],
    "relation": ["Expression", "Equation", "Interval", "Strongly Correlated Systems"],
    "malformed": ["Expression", "Numeric", "Tuple", "Interval", "Equation"],
}

BOXED_REPLIES: list[str] = [
    "\\boxed{x}", "a \\boxed{ {x} + 1 } then \\boxed{y}", "\\boxed{x", "\\boxed{a} and \\boxed{b",
    "no box\n\n  last line  \n", "", "   ", "\\boxed {x}\nlast", "\\boxed{}", "\\boxed{  }", "\\boxed{\\frac{a}{b}} }",
    "\\boxed{\\text{ans}: 3}", "\\\\boxed{x}", "\\boxed{\\boxed{x}}", "\\boxed{a}\\boxed{}", "\\boxed{{}",
]


def _number_variants(text: str, rng: random.Random) -> list[str]:
    import re

    m = re.search(r"\d+\.?\d*", text)
    if not m:
        return []
    value = float(m.group(0))
    out = []
    for factor in (1.0, 1.003, 1.007, 1.015, 1.05, -1.0, 0.0, 1.0049, 1.0101, 1.0199):
        new = f"{value * factor:.6g}"
        out.append(text[: m.start()] + new + text[m.end():])
    return out


def _variants(ref: str, kind: str, rng: random.Random) -> list[str]:
    others = POOL[kind]
    every = [x for k in POOL for x in POOL[k]]
    out = [ref, ref.replace(" ", ""), " " + ref + " ", "2" + ref, "2 \\cdot (" + ref + ")", ref + " + 1",
           rng.choice(others), rng.choice(others), rng.choice(every), "\\boxed{" + ref + "}", "$" + ref + "$",
           "x = " + ref, ref + " \\quad \\text{(approx)}", ref[: max(1, len(ref) // 2)], "-" + ref,
           "\\left(" + ref + "\\right)", "{" + ref + "}", ref + ".", ref.replace("\\frac", "\\dfrac"),
           ref.replace("(", "[").replace(")", "]"), ref.replace(", ", ",")]
    if kind in ("number", "unit"):
        out += _number_variants(ref, rng) * 2
    if kind == "tuple":
        inner = ref.strip("$()")
        parts = inner.split(",")
        out += ["(" + ",".join(reversed(parts)) + ")", "(" + ",".join(parts[:-1]) + ")", "(" + inner + ", 0)"]
    return out


def corpus_triples() -> list[tuple[str, str, str]]:
    """(prediction, reference, type): every answer of the pool against itself and against drawn variants."""
    rng = random.Random(SEED_NUMBER)
    triples: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str, str]] = set()

    def add(pred: str, ref: str, kind_type: str) -> None:
        key = (pred, ref, kind_type)
        if key not in seen:
            seen.add(key)
            triples.append(key)

    for kind, answers in POOL.items():
        for ref in answers:
            add(ref, ref, TYPES_OF[kind][0])
    while len(triples) < CORPUS_SIZE:
        kind = rng.choice(list(POOL))
        ref = rng.choice(POOL[kind])
        pred = rng.choice(_variants(ref, kind, rng))
        types = TYPES_OF[kind]
        kind_type = types[0] if rng.random() < 0.6 else rng.choice(types)
        if rng.random() < 0.5:
            add(pred, ref, kind_type)
        else:
            add(ref, pred, kind_type)
    return triples


#: (model answer, reference) pairs of quantities for the unit conversion with pint
UNIT_PAIRS: list[tuple[str, str]] = [
    ("5\\,\\mathrm{km}", "5000 m"), ("5000 m", "5\\,\\mathrm{km}"), ("7.0 \\mathrm{eV}", "7000 \\mathrm{meV}"),
    ("7000 \\mathrm{meV}", "7.0 \\mathrm{eV}"), ("1 \\text{ GHz}", "1000 \\text{ MHz}"), ("300 K", "300"),
    ("300", "300 K"), ("1.2 \\mathrm{m/s}", "120 \\mathrm{cm/s}"), ("1.2 \\mathrm{m/s}", "1.2 \\mathrm{m}"),
    ("9.8 \\mathrm{m/s^{2}}", "9.8 \\mathrm{m/s^2}"), ("2 \\mathrm{T}", "20000 \\mathrm{G}"),
    ("1.6\\times 10^{-19} \\mathrm{C}", "1.6e-19 C"), ("1.6\\times 10^{-19} \\mathrm{C}", "1.60\\times10^{-19}\\,\\mathrm{C}"),
    ("500 \\mathrm{\\mu eV}", "0.5 \\mathrm{meV}"), ("10 \\mathrm{nm}", "100 \\text{ angstrom}"),
    ("4.5 \\, \\mathrm{kJ/mol}", "4500 \\mathrm{J/mol}"), ("12 \\text{Hz}", "12 \\text{s^{-1}}"),
    ("1 \\mathrm{{m}}", "100 cm"), ("3 x", "3 y"), ("2.5 \\mathrm{kg}", "2500 g"), ("2.5 \\mathrm{kg}", "2.53 kg"),
    ("1 eV", "1.602e-19 J"), ("1 eV", "1.5 J"), ("-3 \\mathrm{K}", "3 K"), ("0 K", "0 \\mathrm{mK}"),
    ("1.0 \\mathrm{atm}", "101325 Pa"), ("5 \\mathrm{foo}", "5 \\mathrm{foo}"), ("5 \\mathrm{foo}", "5 bar"),
    ("E = 2 \\mathrm{J}", "2000 \\mathrm{mJ}"), ("1.0\\times10^{3} m", "1 km"), ("1 km", "1.0\\times10^{3} m"),
    ("1e3 m", "1 km"), ("2 \\, \\mathrm{W\\,m^{-1}K^{-1}}", "2 W/(m K)"), ("10 \\mathrm{ms}", "0.01 s"),
    ("1 \\mathrm{min}", "60 s"), ("60 s", "1 \\mathrm{min}"), ("1 h", "3600 s"), ("3 \\mathrm{A}", "3000 mA"),
]


#: digit-less quantities, whose whole text OpenCompass evaluates in its SEED module (SymPy's names imported there)
QUANTITY_TEXTS: list[str] = [
    "pi", "E", "oo", "-oo", "zoo", "nan", "I", "I*I", "EulerGamma", "Catalan", "GoldenRatio", "TribonacciConstant",
    "true", "false", "True", "False", "None", "not False", "not pi", "x = pi", "T \\approx E", "E \\sim pi",
    "pi + E", "pi - E", "pi * E", "pi / E", "pi ** E", "pi ** -E", "pi // E", "pi % E", "-pi", "+pi", "~True",
    "True + True", "True << True", "True | False", "True & True", "True ^ True", "pi ^ E", "pi @ E",
    "pi > E", "pi < E", "E < pi < oo", "pi == pi", "pi != E", "pi is pi", "pi and E", "False or E", "E or pi",
    "pi if True else E", "pi if False else E", "sqrt(pi)", "sqrt(E)", "exp(pi)", "exp(-pi)", "log(E)", "ln(pi)",
    "log(pi, E)", "sin(pi)", "cos(pi)", "tan(pi / (True + True + True + True))", "atan(oo)", "asin(True)",
    "sinh(E)", "cosh(-E)", "tanh(oo)", "Abs(-pi)", "sign(-pi)", "floor(pi)", "ceiling(E)", "frac(pi)", "re(pi + I)",
    "im(pi + I)", "arg(-True)", "conjugate(E)", "Min(pi, E)", "Max(pi, E)", "gamma(pi)", "factorial(True + True)",
    "binomial(pi, E)", "erf(E)", "zeta(pi)", "N(pi)", "Integer(pi)", "Rational(True, True + True)", "Float(E)",
    "cbrt(pi)", "root(pi, E)", "atan2(E, pi)", "sqrt(sqrt(pi))", "exp(log(pi))", "sqrt(pi) * E + log(E)",
    "sqrt(-pi)", "log(False)", "sqrt(I)", "exp(I * pi)", "x", "pi x", "pi(", "sqrt()", "sqrt(pi, E, oo)",
    "sqrt('pi')", "Float('nan')", "pi + 'a'", "'nan'", "'inf'", "'pi'", "abs(pi)", "round(E)", "float(pi)",
    "int(E)", "max(pi, E)", "bar_size", "discount_slope", "simplify_time_limit * pi", "SEED", "re", "sqrt",
    "pi.evalf()", "pi.__class__", "S.Half", "[pi][False]", "(pi, E)", "[pi]", "{pi}", "lambda: pi",
    "__import__", "Symbol", "\\pi", "\\sqrt{\\pi}", "e", "",
]

#: (model answer, reference, type) pairs whose bracket-subscript numbering nests, and digit-less ``Numeric`` ones
QUIRK_PAIRS: list[tuple[str, str, str]] = [
    ("\\left[ E_F \\right]_{0}", "E_F", "Expression"),
    ("\\left[ \\frac{1}{E_F} \\right]_{0}", "\\frac{1}{E_F}", "Expression"),
    ("(\\Delta(T) + E_F)_{T}", "\\Delta + E_F", "Magnetism"),
    ("\\left(\\frac{dE_F}{dT}\\right)_{n}", "\\frac{dE_F}{dT}", "Expression"),
    ("\\left(\\Delta(0) E_F\\right)_{0}", "\\Delta E_F", "Expression"),
    ("\\left[ g(E_F) \\right]_{T}", "g", "Expression"),
    ("2 \\left[ E_F \\right]_{0} + 1", "2 E_F + 1", "Expression"),
    ("((a)_b)_c", "a_b", "Expression"),
    ("{(a)_{b}}_{c} + (d)_e", "a_b + d_e", "Expression"),
    ("\\gamma T + \\beta T^3 + \\hat{(n)_0}_{k}", "\\gamma T + \\beta T^3 + n_k", "Expression"),
    ("\\gamma T + \\beta T^{3} + \\tilde{(n)_0}_{k}", "\\gamma T + \\beta T^{3}", "Magnetism"),
    ("\\frac{\\hbar^2 k^2}{2 m} + \\tilde{(U)_0}_{k}", "\\frac{\\hbar^2 k^2}{2 m}", "Superconductivity"),
    ("(((x)_a)_b)_c", "x", "Expression"),
    ("pi", "3.1416", "Numeric"), ("E", "2.718", "Numeric"), ("\\pi", "3.1416", "Numeric"),
    ("x = pi", "3.1416", "Numeric"), ("3.1416", "pi", "Numeric"), ("sqrt(pi)", "1.7725", "Numeric"),
    ("oo", "oo", "Numeric"), ("not False", "1", "Numeric"), ("pi", "3", "Numeric"), ("E", "2.7 m", "Numeric"),
    ("abs(pi)", "3.1416", "Numeric"), ("bar_size", "5", "Numeric"),
]


def build_data() -> None:
    rows = [{"question": q, "final_answer": a, "topic": t} for q, a, t in PROBLEMS]
    write_jsonl(FIXTURES / "cache" / "weidawang" / "CMPhysBench" / "train.jsonl", rows)


def write_predictions(case: str) -> None:
    from opencompass.utils import build_dataset_from_cfg

    for ds in library_datasets(*CASES[case]):
        test = build_dataset_from_cfg(ds).test
        records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": r, "gold": g}
                   for i, (q, r, g) in enumerate(zip(test["prompt"], REPLIES, test["ground_truth"], strict=True))}
        write_json(FIXTURES / "predictions" / f"{ds['abbr']}.json", records)


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    rel, variable = CASES[case]
    out: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for ds in library_datasets(rel, variable):
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


def _call(fn: Any, *args: Any) -> Any:
    try:
        return jsonable(fn(*args))
    except Exception as exc:  # the exception's type is what is recorded
        return {"raises": type(exc).__name__}


def _side(text: str, kind_type: str) -> dict[str, Any]:
    from opencompass.datasets.cmphysbench.SEED import SEED as seed_module
    from opencompass.datasets.cmphysbench.SEED.latex_pre_process import (
        first_pre_process,
        master_convert,
        second_pre_process,
    )
    from sympy import srepr

    first = _call(first_pre_process, text.replace("~", ""), kind_type)
    second = _call(second_pre_process, first) if isinstance(first, str) else first
    converted = master_convert(text, kind_type)
    return {
        "first": first,
        "second": second,
        "sympy": None if converted is None else srepr(converted),
        "numeric_part": _call(seed_module.extract_numeric_part, text),
        "tuple": _call(seed_module.extract_tuple, text),
        "interval": _call(seed_module.judge_interval, text),
        "quantity": _call(seed_module.parse_latex_quantity_general, text),
    }


def record_corpus() -> dict[str, Any]:
    from opencompass.datasets.cmphysbench.cmphysbench import extract_boxed_text_overlap
    from opencompass.datasets.cmphysbench.SEED.SEED import SEED

    hidden = sys.modules.get("pint", "absent")
    sys.modules["pint"] = None  # type: ignore[assignment]  # OpenCompass as installed without its full extra
    try:
        import pint  # noqa: F401

        has_pint = True
    except ImportError:
        has_pint = False
    triples = corpus_triples()
    entries = []
    slowest = 0.0
    for n, (pred, ref, kind_type) in enumerate(triples):
        start = time.monotonic()
        seed = _call(SEED, pred, ref, kind_type)
        slowest = max(slowest, time.monotonic() - start)
        entries.append({"pred": pred, "ref": ref, "type": kind_type, "seed": seed,
                        "stages": {"pred": _side(pred, kind_type), "ref": _side(ref, kind_type)}})
        if n % 100 == 0:
            print(f"  {n}/{len(triples)}", file=sys.stderr, flush=True)
    print(f"slowest SEED call: {slowest:.1f} s", file=sys.stderr)
    boxed = [{"reply": r, "answer": extract_boxed_text_overlap(r)} for r in BOXED_REPLIES]
    if hidden == "absent":
        del sys.modules["pint"]
    else:
        sys.modules["pint"] = hidden  # type: ignore[assignment]
    return jsonable({"pint_installed": has_pint, "pairs": entries, "boxed": boxed})


def record_units() -> dict[str, Any]:
    import pint
    from opencompass.datasets.cmphysbench.SEED.SEED import SEED, convert_and_output_general

    triples = [(p, r) for p, r, t in corpus_triples() if t == "Numeric"]
    pairs = list(dict.fromkeys(UNIT_PAIRS + triples))
    entries = [{"pred": p, "ref": r, "converted": _call(convert_and_output_general, p, r),
                "seed": _call(SEED, p, r, "Numeric")} for p, r in pairs]
    return jsonable({"pint_version": pint.__version__, "pairs": entries})


def record_quirks() -> dict[str, Any]:
    """Nested bracket subscripts (each side's stages, SymPy expression and ``SEED``) and digit-less quantities
    (``parse_latex_quantity_general``, and ``SEED`` on ``Numeric`` pairs), recorded with ``pint``."""
    import pint
    from opencompass.datasets.cmphysbench.SEED import SEED as seed_module
    from opencompass.datasets.cmphysbench.SEED.latex_pre_process import add_number_to_bracket_subscripts

    numbered = sorted({text for pair in QUIRK_PAIRS for text in pair[:2] if pair[2] != "Numeric"})
    return jsonable({
        "pint_version": pint.__version__,
        "numbered": [{"text": t, "numbered": _call(add_number_to_bracket_subscripts, t)} for t in numbered],
        "quantities": [{"text": t, "quantity": _call(seed_module.parse_latex_quantity_general, t)}
                       for t in QUANTITY_TEXTS],
        "pairs": [{"pred": p, "ref": r, "type": t, "seed": _call(seed_module.SEED, p, r, t),
                   "stages": {"pred": _side(p, t), "ref": _side(r, t)}} for p, r, t in QUIRK_PAIRS],
    })


_T = "(True+True)"
_BIG_EXPONENT = "bar_size**(T+T+T+T+T+T+T+T)".replace("T", _T)  # 5**16
#: Numeric pairs asking for big integers that OpenCompass computes at once (``float`` overflowing or not)
BIG_PAIRS = [
    (r"3\times10^20000\,\mathrm{m}", r"3 \times 10^20000 m"),
    (r"3\times10^20000 m", r"3\times10^20000 km"),
    (r"1.5\times10^30000 J", r"1.5 \times 10^30000 J"),
    (r"10^20000 m", r"10^{20000} m"),
    (r"5\times 10^100000 s", r"5 \times 10^100000 s"),
    (r"5\times 10^100000 s", r"6 \times 10^100000 s"),
    (r"7\times 10^{315000} kg", r"7 \times 10^{315000} kg"),
    (r"2\times 10^315000", r"3 \times 10^315000"),
    (r"x = 4\times10^25000 \mathrm{eV}", r"4 \times 10^25000 eV"),
    (r"4\times10^25000 eV", r"4\times10^25000 \mathrm{eV}"),
    (r"-4\times10^25000 eV", r"-4\times10^25000 \mathrm{eV}"),
    (r"4\times10^25000 eV", r"4\times10^25000 keV"),
    (r"3\times 10^{30} m", r"3 \times 10^{30} m"),
    (f"exp({_BIG_EXPONENT}) * E**(-{_BIG_EXPONENT})", "1"),
    (f"exp({_BIG_EXPONENT}) * E**(-{_BIG_EXPONENT}) m", "1 m"),
    (f"pi**({_BIG_EXPONENT})", "1"),
    (f"E**(-{_BIG_EXPONENT}) s", "0 s"),
    (f"sqrt({_BIG_EXPONENT})", "390625"),
    (f"log({_BIG_EXPONENT})", "25.75"),
    (f"Max(pi, {_BIG_EXPONENT}) m", "152587890625 m"),
    (f"{_T}**({_BIG_EXPONENT} // bar_size**(bar_size+bar_size+{_T}))", "1"),
    ("(bar_size+bar_size)**(bar_size**(bar_size+True))", "1"),
]


def record_big() -> dict[str, Any]:
    """``SEED`` on :data:`BIG_PAIRS` (``Numeric``), recorded with ``pint``."""
    import pint
    from opencompass.datasets.cmphysbench.SEED import SEED as seed_module

    entries = []
    for pred, ref in BIG_PAIRS:
        start = time.monotonic()
        entries.append({"pred": pred, "ref": ref, "type": "Numeric", "seed": _call(seed_module.SEED, pred, ref, "Numeric"),
                        "quantities": [_call(seed_module.parse_latex_quantity_general, t) for t in (pred, ref)]})
        print(f"  {pred[:40]}: {time.monotonic() - start:.2f} s", file=sys.stderr, flush=True)
    return jsonable({"pint_version": pint.__version__, "pairs": entries})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus-only", action="store_true", help="record only the SEED corpus")
    parser.add_argument("--cases-only", action="store_true", help="record only the eval task's cases")
    parser.add_argument("--quirks-only", action="store_true",
                        help="record only the nested bracket subscripts and digit-less quantities")
    parser.add_argument("--big-only", action="store_true", help="record only the pairs asking for big integers")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    build_data()
    os.chdir(FIXTURES / "cache")
    os.environ.pop("DATASET_SOURCE", None)
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.quirks_only:
        print("recording nested bracket subscripts and digit-less quantities", flush=True)
        write_json(out_dir / "seed_quirks.json", record_quirks())
        return
    if args.big_only:
        print("recording pairs asking for big integers", flush=True)
        write_json(out_dir / "seed_big_numbers.json", record_big())
        return
    if not args.corpus_only:
        with tempfile.TemporaryDirectory() as work:
            for case in CASES:
                print(f"recording {case}", flush=True)
                write_predictions(case)
                write_json(out_dir / f"{case}.json", run_case(case, Path(work)), sort_keys=True)
    if not args.cases_only:
        print("recording the SEED corpus", flush=True)
        write_json(out_dir / "seed_corpus.json", record_corpus())
        print("recording the unit conversions with pint", flush=True)
        write_json(out_dir / "seed_units_pint.json", record_units())
        print("recording nested bracket subscripts and digit-less quantities", flush=True)
        write_json(out_dir / "seed_quirks.json", record_quirks())
        print("recording pairs asking for big integers", flush=True)
        write_json(out_dir / "seed_big_numbers.json", record_big())
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
