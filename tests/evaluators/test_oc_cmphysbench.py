"""CMPhysBench's loader and SEED evaluator against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_cmphysbench.py`` with OpenCompass
installed: its own eval task scored the prediction file under
``tests/data/oc_families/cmphysbench/predictions`` on a local
``weidawang/CMPhysBench`` folder (``cache``) with each library config, and its
``SEED`` and clean-up stages were run on a corpus of 1,600 (prediction,
reference, type) triples.  The cases import the library's configs unchanged and
run ``assay eval`` on the same predictions with the data on disk (the files'
``gold`` replaced, so that only the data gives the references); the metric and
every sample's score must be OpenCompass's.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import MODEL, library_config, with_data, without_data

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "cmphysbench"
CASES = ("cmphysbench_gen", "cmphysbench_rawprompt_gen")
CORPUS = json.loads((ROOT / "expected" / "seed_corpus.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
STAGES = ("first", "second", "numeric_part", "tuple", "interval", "quantity")


@pytest.fixture
def no_pint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus was recorded without ``pint`` (OpenCompass installs it only with its ``full`` extra)."""
    assert CORPUS["pint_installed"] is False
    monkeypatch.setitem(sys.modules, "pint", None)


def _record(case: str) -> dict[str, Any]:
    return json.loads((ROOT / "expected" / f"{case}.json").read_text(encoding="utf-8"))


def _one(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


@pytest.mark.parametrize("case", CASES)
def test_library_config_scores_as_opencompass(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(case)
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(library_config(record["config"], record["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in record["datasets"].items():
        expected = entry["result"]
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert result["score"] == expected["score"], abbr
        got = [{k: _one(d[k]) for k in ("pred", "answer", "score")} for d in result["details"]]
        assert got == [{k: _one(d[k]) for k in ("pred", "answer", "score")} for d in expected["details"]], abbr


@pytest.mark.parametrize("case", CASES)
def test_library_config_loads_opencompass_rows(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    record = _record(case)
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(library_config(record["config"], record["variable"]), encoding="utf-8")
    (ds,) = load_config(config).variables["datasets"]
    assert ds["type"].__module__ == "assay.datasets.cmphysbench"
    table = ds["type"].load(path=ds["path"])
    rows = [dict(zip(table.column_names, values)) for values in zip(*(table.column_values(c) for c in table.column_names))]
    expected = [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in record["datasets"][ds["abbr"]]["test_rows"]]
    assert rows == expected
    assert len(rows) == 13  # the row with no final answer is left out


def _stage_or_raise(fn: Any, *args: Any) -> Any:
    try:
        return json.loads(json.dumps(fn(*args)))
    except Exception as exc:  # the type is what OpenCompass's recording names
        return {"raises": type(exc).__name__}


def test_corpus_covers_every_answer_type() -> None:
    assert len(CORPUS["pairs"]) >= 1500
    types = {p["type"] for p in CORPUS["pairs"]}
    assert {"Expression", "Equation", "Tuple", "Interval", "Numeric", "Magnetism"} <= types
    scores = {p["seed"][0] for p in CORPUS["pairs"]}
    assert {0, 80, 90, 100} <= scores and any(0 < s < 60 for s in scores)


def test_latex_clean_up_is_opencompass_s() -> None:
    from assay.evaluators import _cmphysbench_seed as seed

    readers = {"numeric_part": seed.extract_numeric_part, "tuple": seed.extract_tuple, "interval": seed.judge_interval,
               "quantity": seed.parse_quantity}
    for pair in CORPUS["pairs"]:
        for side in ("pred", "ref"):
            text = pair[side]
            first = _stage_or_raise(seed.first_stage, text.replace("~", ""), pair["type"])
            got = {"first": first, "second": _stage_or_raise(seed.second_stage, first) if isinstance(first, str) else first}
            got.update({name: _stage_or_raise(reader, text) for name, reader in readers.items()})
            assert got == {k: pair["stages"][side][k] for k in STAGES}, (text, pair["type"])


def _check_seed(pairs: list[dict[str, Any]]) -> None:
    from assay.evaluators._cmphysbench_seed import seed

    for pair in pairs:
        got = _stage_or_raise(seed, pair["pred"], pair["ref"], pair["type"])
        assert got == pair["seed"], (pair["pred"], pair["ref"], pair["type"])


def test_seed_numbers_are_opencompass_s_on_a_sample(no_pint: None) -> None:
    """Every 25th pair of the corpus and every pair scoring 80 or 90 (the numeric tolerances)."""
    pairs = CORPUS["pairs"]
    _check_seed([p for n, p in enumerate(pairs) if n % 25 == 0 or p["seed"][0] in (80, 90)])


QUARTERS = range(4)


@pytest.mark.slow
@pytest.mark.parametrize("quarter", QUARTERS)
def test_seed_numbers_are_opencompass_s(quarter: int, no_pint: None) -> None:
    _check_seed(CORPUS["pairs"][quarter::4])


@pytest.mark.slow
@pytest.mark.parametrize("quarter", QUARTERS)
def test_sympy_conversion_is_opencompass_s(quarter: int) -> None:
    from sympy import srepr

    from assay.evaluators._cmphysbench_seed import to_sympy

    for pair in CORPUS["pairs"][quarter::4]:
        for side in ("pred", "ref"):
            expr = to_sympy(pair[side], pair["type"])
            assert (None if expr is None else srepr(expr)) == pair["stages"][side]["sympy"], (pair[side], pair["type"])


def test_units_convert_as_opencompass_s_with_pint() -> None:
    """Recorded with pint installed (OpenCompass's ``full`` extra): the quantities converted to the model answer's
    unit, and the ``Numeric`` score."""
    pint = pytest.importorskip("pint")
    from assay.evaluators._cmphysbench_seed import convert_quantities, seed

    units = json.loads((ROOT / "expected" / "seed_units_pint.json").read_text(encoding="utf-8"))
    if pint.__version__ != units["pint_version"]:
        pytest.skip(f"recorded with pint {units['pint_version']}, installed: {pint.__version__}")
    for pair in units["pairs"]:
        assert _stage_or_raise(convert_quantities, pair["pred"], pair["ref"]) == pair["converted"], (pair["pred"], pair["ref"])
    sample = [p for n, p in enumerate(units["pairs"]) if n < 40 or n % 10 == 0]
    for pair in sample:
        assert _stage_or_raise(seed, pair["pred"], pair["ref"], "Numeric") == pair["seed"], (pair["pred"], pair["ref"])


@pytest.mark.slow
def test_numeric_scores_with_units_are_opencompass_s_with_pint() -> None:
    pytest.importorskip("pint")
    from assay.evaluators._cmphysbench_seed import seed

    units = json.loads((ROOT / "expected" / "seed_units_pint.json").read_text(encoding="utf-8"))
    for pair in units["pairs"]:
        assert _stage_or_raise(seed, pair["pred"], pair["ref"], "Numeric") == pair["seed"], (pair["pred"], pair["ref"])


def test_boxed_answer_is_read_as_opencompass_reads_it() -> None:
    from assay.evaluators.cmphysbench import last_boxed_answer

    assert [last_boxed_answer(b["reply"]) for b in CORPUS["boxed"]] == [b["answer"] for b in CORPUS["boxed"]]


def test_topic_is_the_answer_type_and_the_reply_is_seed_s_ground_truth() -> None:
    """A topic scores as an expression; the numeric tolerance is relative to the model's value (OpenCompass's
    SEED gives 0, 80 and 90 for these pairs)."""
    evaluator = ICL_EVALUATORS.get("CMPhysBenchEvaluator")(workers=1)
    result = evaluator.score(["\\boxed{1.0}", "\\boxed{1.0}", "so \\boxed{1.0101}"],
                             [["0.99", "Magnetism"], ["1.0101", "Numeric"], ["1.0", "Numeric"]])
    assert [d["score"] for d in result["details"]] == [0, 80, 90]
    assert result["details"][2] == {"pred": "1.0101", "answer": ["1.0", "Numeric"], "score": 90}
    assert result["score"] == 170 / 3


def test_sample_past_the_time_limit_scores_zero_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    evaluator = ICL_EVALUATORS.get("CMPhysBenchEvaluator")(timeout=0.001, workers=1)
    with caplog.at_level("WARNING"):
        result = evaluator.score(["\\boxed{\\frac{m v^2}{2}}"], [["\\frac{1}{2} m v^2", "Expression"]])
    assert result["score"] == 0
    assert result["details"][0]["score"] == 0 and "no score within" in result["details"][0]["error"]
    assert "CMPhysBench SEED: sample 0 took more than" in caplog.text and "math-verify" not in caplog.text


def test_bad_input_is_an_error_record_naming_the_sample() -> None:
    evaluator = ICL_EVALUATORS.get("CMPhysBenchEvaluator")()
    result = evaluator.score(["\\boxed{x}", None], [["x", "Expression"], ["y", "Expression"]])
    assert set(result) == {"error"} and "sample 1" in result["error"] and "CMPhysBenchEvaluator" in result["error"]
    result = evaluator.score(["\\boxed{x}"], ["x"])
    assert set(result) == {"error"} and "sample 0" in result["error"] and "[answer, topic]" in result["error"]
    assert evaluator.score([], []) == {"error": "CMPhysBenchEvaluator: no samples to score"}
    # OpenCompass scores a missing answer 0 and takes a missing topic as no type (an expression)
    result = ICL_EVALUATORS.get("CMPhysBenchEvaluator")(workers=1).score(["\\boxed{x}", "\\boxed{2x}"], [[None, "Magnetism"], ["x + x", None]])
    assert [d["score"] for d in result["details"]] == [0, 100]


def test_missing_data_is_an_error_naming_the_loader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(InputFileError, match=r"CMPhysBenchDataset: 'weidawang/CMPhysBench' is neither a local folder"):
        LOAD_DATASET.get("CMPhysBenchDataset").load(path="weidawang/CMPhysBench")
    folder = tmp_path / "weidawang" / "CMPhysBench"
    folder.mkdir(parents=True)
    (folder / "train.jsonl").write_text('{"question": "q", "topic": "Magnetism"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CMPhysBenchDataset: .* has no column 'final_answer'"):
        LOAD_DATASET.get("CMPhysBenchDataset").load(path="weidawang/CMPhysBench")


QUIRKS = json.loads((ROOT / "expected" / "seed_quirks.json").read_text(encoding="utf-8"))
#: digit-less quantities OpenCompass's ``eval`` gives a value that assay does not compute: Python's built-ins,
#: attributes, subscripts and text handed to SymPy (which would parse it) are never evaluated
NOT_EVALUATED = {"abs(pi)", "round(E)", "float(pi)", "int(E)", "max(pi, E)", "pi.evalf()", "S.Half", "[pi][False]",
                 "Float('nan')"}


def _recorded(value: Any) -> Any:
    """``value`` as the recording writes it (non-finite floats as their ``repr``)."""
    if isinstance(value, (list, tuple)):
        return [_recorded(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def test_nested_bracket_subscripts_are_numbered_as_opencompass_numbers_them() -> None:
    """Each match is taken from the original text and spliced back at its original span, so an enclosing match
    drops its inner match's counter and leaves a character behind (``((a)_b)_c`` → ``((a)2_b)_cc``)."""
    from assay.evaluators._cmphysbench_seed import _number_bracket_subscripts

    assert any(n["numbered"].endswith("}}") for n in QUIRKS["numbered"])
    for entry in QUIRKS["numbered"]:
        assert _number_bracket_subscripts(entry["text"]) == entry["numbered"], entry["text"]


def test_nested_bracket_subscripts_score_as_opencompass_s() -> None:
    """The numbered text no longer parses (``\\tilde{(U)_0}_{k}`` scores 0, where renumbering the rewritten text
    would give a parsable one scoring 44.6)."""
    from sympy import srepr

    from assay.evaluators._cmphysbench_seed import second_stage, to_sympy

    pairs = [p for p in QUIRKS["pairs"] if p["type"] != "Numeric"]
    assert {p["seed"][0] for p in pairs} == {0, 100}
    for pair in pairs:
        for side in ("pred", "ref"):
            expr = to_sympy(pair[side], pair["type"])
            assert (None if expr is None else srepr(expr)) == pair["stages"][side]["sympy"], pair[side]
            first = pair["stages"][side]["first"]
            if isinstance(first, str):
                assert _stage_or_raise(second_stage, first) == pair["stages"][side]["second"], pair[side]
    _check_seed(pairs)


def test_digit_less_quantities_have_opencompass_s_values() -> None:
    """OpenCompass evaluates a quantity without a digit where SymPy's names are imported: ``pi``, ``sqrt(pi)``,
    ``not False``, ``x = pi`` have values; unknown names, ``re(…)`` (Python's module there) and bad calls raise."""
    from assay.evaluators._cmphysbench_seed import parse_quantity

    quantities = QUIRKS["quantities"]
    assert {q["text"] for q in quantities} >= NOT_EVALUATED
    valued = [q for q in quantities if q["text"] not in NOT_EVALUATED and isinstance(q["quantity"], list)]
    assert {"pi", "E", "oo", "sqrt(pi)", "not False", "x = pi", "bar_size"} <= {q["text"] for q in valued}
    assert sum(isinstance(q["quantity"], dict) for q in quantities) >= 20
    for entry in quantities:
        got = _recorded(_stage_or_raise(parse_quantity, entry["text"]))
        if entry["text"] in NOT_EVALUATED:
            assert got == {"raises": "ValueError"} != entry["quantity"], entry["text"]
        else:
            assert got == entry["quantity"], entry["text"]


def test_text_in_a_quantity_is_never_run() -> None:
    import builtins

    from assay.evaluators._cmphysbench_seed import parse_quantity

    probe = "__import__('builtins').__setattr__('assay_cmphys_probe', True)"
    for text in (probe, "pi.__class__.__init__", "open", "sqrt.__globals__", "(lambda: pi)()", "exec('pi')"):
        with pytest.raises(ValueError, match="Failed to compute numeric value"):
            parse_quantity(text)
    # SymPy parses (runs) text it is given, also inside lists, tuples and sets
    for text in (f"sqrt({probe!r})", f"Max([{probe!r}])", f"sqrt(({probe!r},))", f"Min({{{probe!r}}})",
                 f"N(pi, [{probe!r}])", f"pi + ({probe!r},)", f"pi < [{probe!r}]", f"[{probe!r}] * oo",
                 f"E == [[{probe!r}]]", f"Rational(True, [{probe!r}])"):
        with pytest.raises(ValueError, match="Failed to compute numeric value"):
            parse_quantity(text)
    assert not hasattr(builtins, "assay_cmphys_probe")


TWO = "(True+True)"
#: digit-less quantities whose integers OpenCompass computes until its sample timeout
HUGE = (f"{TWO}**{TWO}**{TWO}**{TWO}**{TWO}**{TWO}", "(True+True+True)**(bar_size**bar_size**bar_size)",
        f"pi**({TWO}**{TWO}**{TWO}**{TWO}**{TWO})", f"factorial({TWO}**{TWO}**{TWO}**{TWO}**{TWO})",
        "N(pi, bar_size**bar_size**bar_size)", "True << (bar_size**bar_size**bar_size)",
        f"-E**(-({TWO}**{TWO}**{TWO}**{TWO}**{TWO}))", "(bar_size+bar_size)**(bar_size**bar_size**bar_size)",
        "zeta(bar_size**(bar_size+True))", "Rational(True, bar_size+True)**(bar_size**bar_size**(True+True))")


def test_huge_integers_in_a_quantity_fail_at_the_bound() -> None:
    from assay.evaluators._cmphysbench_seed import QuantityBoundError, parse_quantity

    for text in HUGE:
        with pytest.raises(QuantityBoundError, match="more than"):
            parse_quantity(text)
    # below the bounds the values are computed, as OpenCompass computes them
    assert parse_quantity(f"{TWO}**{TWO}**{TWO}**{TWO}") == (65536.0, "")
    assert parse_quantity(f"pi**({TWO}**{TWO}**{TWO})") == (pytest.approx(math.pi**16), "")
    assert parse_quantity("True << (bar_size - True)") == (16.0, "")
    # big integers that OpenCompass computes at once are computed (float() may overflow, as there)
    with pytest.raises(ValueError, match="int too large to convert to float"):
        parse_quantity("(bar_size+bar_size)**(bar_size**(bar_size+True+True))")  # 78,125 digits
    assert parse_quantity("(bar_size+bar_size)**(bar_size**(bar_size+True+True)) > (True+True)**(bar_size**bar_size)"
                          ) == (1.0, "")
    big = "bar_size**((True+True)*(bar_size+True+True+True))"  # 5**16
    assert parse_quantity(f"exp({big}) * E**(-{big})") == (1.0, "")
    assert parse_quantity(f"sqrt({big})") == (390625.0, "")
    assert parse_quantity("zeta(bar_size**bar_size) + gamma(bar_size**bar_size)") == (math.inf, "")  # 3125
    assert parse_quantity("Rational(True, bar_size+True)**(bar_size**(bar_size+True))") == (0.0, "")


def test_a_reply_asking_for_a_huge_integer_scores_zero_naming_the_bound() -> None:
    """OpenCompass computes such an integer until its sample timeout, scoring the sample 0; assay stops at the
    quantity reader's bound and scores 0 with the bound in the details, the other samples scored as before."""
    pytest.importorskip("pint")
    evaluator = ICL_EVALUATORS.get("CMPhysBenchEvaluator")(workers=1)
    replies = [f"\\boxed{{{text}}}" for text in HUGE[:2]] + ["\\boxed{3.14}"]
    result = evaluator.score(replies, [["3.14", "Numeric"]] * 3)
    for detail in result["details"][:2]:
        assert detail["score"] == 0
        assert detail["error"].startswith("QuantityBoundError: ") and "more than 1048576 bits" in detail["error"]
    assert result["details"][2] == {"pred": "3.14", "answer": ["3.14", "Numeric"], "score": 100}
    assert result["score"] == 100 / 3


BIG = json.loads((ROOT / "expected" / "seed_big_numbers.json").read_text(encoding="utf-8"))


def test_big_numbers_below_the_bounds_score_as_opencompass_s() -> None:
    """``3\\times10^20000`` m against itself is 100 in OpenCompass (``float`` overflows, the conversion is
    skipped, the numbers are compared by SymPy); ``exp(5**16)*E**(-5**16)`` is 1 there; so in assay."""
    from assay.evaluators._cmphysbench_seed import parse_quantity

    pint = pytest.importorskip("pint")
    if pint.__version__ != BIG["pint_version"]:
        pytest.skip(f"recorded with pint {BIG['pint_version']}, installed: {pint.__version__}")
    pairs = BIG["pairs"]
    assert sum(p["seed"][0] == 100 for p in pairs) >= 10 and any(p["seed"][0] == 0 for p in pairs)
    assert any("10^20000" in p["pred"] and p["seed"][0] == 100 for p in pairs)
    assert any(p["pred"].startswith("exp(") and p["seed"][0] == 100 for p in pairs)
    _check_seed(pairs)
    for pair in pairs:
        got = [_recorded(_stage_or_raise(parse_quantity, text)) for text in (pair["pred"], pair["ref"])]
        assert got == pair["quantities"], pair["pred"]


def test_digit_less_numeric_answers_score_as_opencompass_s_with_pint() -> None:
    """``pi`` against ``3.1416`` is 100 with ``pint`` installed (the quantity's value is SymPy's ``pi``)."""
    pint = pytest.importorskip("pint")
    if pint.__version__ != QUIRKS["pint_version"]:
        pytest.skip(f"recorded with pint {QUIRKS['pint_version']}, installed: {pint.__version__}")
    pairs = [p for p in QUIRKS["pairs"] if p["type"] == "Numeric"]
    assert any(p["pred"] == "pi" and p["seed"][0] == 100 for p in pairs)
    _check_seed([p for p in pairs if p["pred"] not in NOT_EVALUATED and p["ref"] not in NOT_EVALUATED])


@pytest.mark.parametrize("case", CASES)
def test_library_config_scores_from_gold_as_opencompass(case: str, oc_library: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the data on disk, the references come from OpenCompass's own prediction files' ``gold`` (the
    ``[answer, topic]`` list as OpenCompass writes it): the same metric and details as with the data."""
    record = _record(case)
    without_data(tmp_path, monkeypatch, oc_library)
    config = tmp_path / "config.py"
    config.write_text(library_config(record["config"], record["variable"]), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in record["datasets"].items():
        expected = entry["result"]
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert result["_meta"]["references"] == "gold", abbr
        assert result["score"] == expected["score"], abbr
        got = [{k: _one(d[k]) for k in ("pred", "answer", "score")} for d in result["details"]]
        assert got == [{k: _one(d[k]) for k in ("pred", "answer", "score")} for d in expected["details"]], abbr
