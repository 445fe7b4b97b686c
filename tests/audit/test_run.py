"""The extraction audit: an OpenCompass-named postprocessor with a declared corrected counterpart is
scored both ways; the official numbers stay, the audit records the difference (R-9.2)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.audit import correction_for, declare_correction, withdraw_correction
from assay.cli import main
from assay.postprocess.math import gsm8k_postprocess
from assay.postprocess.options import first_option_postprocess
from assay.registry import TEXT_POSTPROCESSORS
from assay.rundir.results import META_KEY, read_result

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")

RUN = "RUN"
FIXED = "tests-gsm8k-fixed"


@TEXT_POSTPROCESSORS.register_module(FIXED)
def gsm8k_fixed(text: str) -> str:
    """A corrected GSM8K reading: the last number, thousands separators removed, ``12.00`` read as ``12``."""
    numbers = re.findall(r"-?\d[\d,]*(?:\.\d+)?", str(text))
    if not numbers:
        return ""
    value = numbers[-1].replace(",", "")
    return value.rstrip("0").rstrip(".") if "." in value else value


@TEXT_POSTPROCESSORS.register_module("tests-capital-fixed")
def capital_fixed(text: str, letters: str = "ABCD") -> str:
    """A corrected option reading: the first capital among ``letters`` standing alone."""
    found = re.search(rf"\b([{letters}])\b", str(text))
    return found.group(1) if found else ""


@TEXT_POSTPROCESSORS.register_module("tests-gsm8k-broken")
def gsm8k_broken(text: str) -> str:
    if "1,234" in str(text):
        raise ValueError("cannot read this one")
    return gsm8k_fixed(text)


@TEXT_POSTPROCESSORS.register_module("tests-gsm8k-same")
def gsm8k_same(text: str) -> str:
    return gsm8k_postprocess(text)


REPLIES = [
    "So the total is 1,234 dollars.",
    "The answer is 12.00",
    "I think 7",
    "no idea",
    "Answer: 45.",
    "3 + 4 = 7.0",
    "It costs $2,500 in all.",
    "5",
]
REFERENCES = ["1234", "12", "7", "5", "45", "7", "2500", "5"]


def _write_run(tmp_path: Path, *, evaluator_extra: str = "", dataset_pp: str = "dict(type='gsm8k_postprocess')") -> Path:
    (tmp_path / "gsm.jsonl").write_text("".join(json.dumps({"q": f"q{i}", "answer": a}) + "\n" for i, a in enumerate(REFERENCES)))
    preds = tmp_path / "work" / RUN / "predictions" / "m"
    preds.mkdir(parents=True, exist_ok=True)
    (preds / "gsm.json").write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(REPLIES)}))
    (preds / "plain.json").write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(REPLIES)}))
    cfg = tmp_path / "config.py"
    cfg.write_text(
        f"""
reader = dict(input_columns=['q'], output_column='answer')
datasets = [
    dict(abbr='gsm', type='JsonlDataset', path='gsm.jsonl', reader_cfg=reader,
         eval_cfg=dict(pred_postprocessor={dataset_pp}, evaluator=dict(type='AccEvaluator'{evaluator_extra}))),
    dict(abbr='plain', type='JsonlDataset', path='gsm.jsonl', reader_cfg=reader,
         eval_cfg=dict(pred_postprocessor=dict(type='general_postprocess'), evaluator=dict(type='AccEvaluator'))),
]
models = [dict(abbr='m')]
"""
    )
    return cfg


def _eval(cfg: Path, tmp_path: Path, *extra: str) -> int:
    return main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1", *extra])


def _result(tmp_path: Path, abbr: str = "gsm") -> dict[str, Any]:
    return read_result(tmp_path / "work" / RUN / "results" / "m" / f"{abbr}.json")


def _accuracy(answers: list[Any], refs: list[str]) -> float:
    return 100 * sum(str(a) == r for a, r in zip(answers, refs)) / len(refs)


@pytest.mark.builtin_pairs
def test_builtin_pairs_audit_opencompass_extractors_by_default(tmp_path: Path) -> None:
    from assay.postprocess.math import gsm8k_extract

    assert _eval(_write_run(tmp_path), tmp_path) == 0
    result = _result(tmp_path)
    official = [gsm8k_postprocess(r) for r in REPLIES]
    corrected = [gsm8k_extract(r) for r in REPLIES]
    differing = [i for i, (a, b) in enumerate(zip(official, corrected)) if a != b]
    assert differing  # '1,234' is read as '234' by OpenCompass's extractor
    assert result["accuracy"] == pytest.approx(_accuracy(official, REFERENCES))  # the official number stays
    audit = result["extraction_audit"]
    assert audit["corrections"][0]["official"] == "gsm8k_postprocess"
    assert audit["corrections"][0]["corrected"] == "gsm8k_extract"
    assert audit["samples"] == differing
    assert audit["metrics"]["accuracy"] == pytest.approx(_accuracy(corrected, REFERENCES))


@pytest.fixture
def fixed_gsm8k() -> Iterator[None]:
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        yield
    finally:
        withdraw_correction("gsm8k_postprocess")


def test_counts_and_would_be_values_are_right(tmp_path: Path, fixed_gsm8k: None) -> None:
    assert _eval(_write_run(tmp_path), tmp_path) == 0
    result = _result(tmp_path)
    # computed here, independently of the eval
    official = [gsm8k_postprocess(r) for r in REPLIES]
    corrected = [gsm8k_fixed(r) for r in REPLIES]
    differing = [i for i, (a, b) in enumerate(zip(official, corrected)) if a != b]
    assert len(differing) >= 2  # '12.00' and '7.0' at least
    assert result["accuracy"] == pytest.approx(_accuracy(official, REFERENCES))  # the official number, unchanged
    audit = result["extraction_audit"]
    assert audit["corrections"] == [{"at": "eval_cfg.pred_postprocessor", "official": "gsm8k_postprocess", "corrected": FIXED}]
    assert audit["replies"] == len(REPLIES)
    assert audit["differ"] == len(differing)
    assert audit["samples"] == differing
    would_be = _accuracy(corrected, REFERENCES)
    assert would_be != result["accuracy"]
    assert audit["metrics"]["accuracy"] == pytest.approx(would_be)
    assert [r["official"] for r in audit["readings"]] == [[official[i]] for i in differing]
    assert [r["corrected"] for r in audit["readings"]] == [[corrected[i]] for i in differing]
    assert [r["correct"] for r in audit["readings"]] == [[corrected[i] == REFERENCES[i]] for i in differing]
    # nested, never a metric: the details are the official ones
    assert [d["pred"] for d in result["details"]] == [[a] for a in official]
    assert "extraction_audit" in result[META_KEY]["inputs"]
    # absent where the chain has no corrected counterpart
    plain = _result(tmp_path, "plain")
    assert "extraction_audit" not in plain and "extraction_audit" not in plain[META_KEY]["inputs"]


def test_absent_without_a_declared_counterpart(tmp_path: Path) -> None:
    assert correction_for("gsm8k_postprocess") is None
    assert _eval(_write_run(tmp_path), tmp_path) == 0
    result = _result(tmp_path)
    assert "extraction_audit" not in result and "extraction_audit" not in result[META_KEY]["inputs"]


def test_any_name_of_the_official_postprocessor_is_audited(tmp_path: Path, fixed_gsm8k: None) -> None:
    # the config names it by its other registered name and by the function object's dotted path
    for spec in ("dict(type='gsm8k')", "dict(type='assay.postprocess.math.gsm8k_postprocess')"):
        assert _eval(_write_run(tmp_path, dataset_pp=spec), tmp_path, "--force") == 0
        assert _result(tmp_path)["extraction_audit"]["corrections"][0]["corrected"] == FIXED


def test_evaluator_level_substitution_with_repeated_runs_and_option_mapping(tmp_path: Path) -> None:
    """``first_option_postprocess`` at the evaluator level, two runs: sample indices and verdicts are per sample, per run."""
    replies = ["B", "The answer is C", "A or B? B", "Dolphin (C)", "none", "D"]  # run 0 then run 1 of 3 samples
    refs = ["B", "C", "C"]
    (tmp_path / "mc.jsonl").write_text("".join(json.dumps({"q": str(i), "answer": a}) + "\n" for i, a in enumerate(refs)))
    preds = tmp_path / "work" / RUN / "predictions" / "m"
    preds.mkdir(parents=True)
    (preds / "mc.json").write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(replies)}))
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "datasets = [dict(abbr='mc', type='JsonlDataset', path='mc.jsonl', n=2, k=1,\n"
        "    reader_cfg=dict(input_columns=['q'], output_column='answer'),\n"
        "    eval_cfg=dict(evaluator=dict(type='AccEvaluator', pred_postprocessor=dict(type='first_option_postprocess', options='ABC', cushion=False))))]\n"
        "models = [dict(abbr='m')]\n"
    )
    declare_correction("first_option_postprocess", "tests-capital-fixed", options={"options": "letters", "cushion": None})
    try:
        assert _eval(cfg, tmp_path) == 0
    finally:
        withdraw_correction("first_option_postprocess")
    result = _result(tmp_path, "mc")
    official = [first_option_postprocess(r, options='ABC', cushion=False) for r in replies]
    corrected = [capital_fixed(r, letters="ABC") for r in replies]
    differ = [i for i in range(6) if official[i] != corrected[i]]
    audit = result["extraction_audit"]
    assert audit["corrections"] == [{"at": "eval_cfg.evaluator.pred_postprocessor", "official": "first_option_postprocess",
                                     "corrected": "tests-capital-fixed", "options": {"letters": "ABC"}}]
    assert audit["replies"] == 6 and audit["differ"] == len(differ) > 0
    assert audit["samples"] == sorted({i % 3 for i in differ})
    runs_refs = refs * 2
    assert result["accuracy (2 runs average)"] == pytest.approx(_accuracy(official, runs_refs))
    assert audit["metrics"]["accuracy (2 runs average)"] == pytest.approx(_accuracy(corrected, runs_refs))
    for j, reading in zip(audit["samples"], audit["readings"]):
        assert reading["official"] == [official[j], official[3 + j]]
        assert reading["corrected"] == [corrected[j], corrected[3 + j]]
        assert reading["correct"] == [corrected[j] == refs[j], corrected[3 + j] == refs[j]]


def test_nothing_differs_no_second_scoring(tmp_path: Path) -> None:
    """A counterpart that reads every reply the same: differ 0, the official metrics, the evaluator scored once."""
    log = tmp_path / "scored.txt"
    (tmp_path / "counting.py").write_text(
        "from assay.evaluators.exact import AccEvaluator\n"
        "class CountingAcc(AccEvaluator):\n"
        "    def __init__(self, log, pred_postprocessor=None):\n"
        "        super().__init__(pred_postprocessor=pred_postprocessor)\n"
        "        self.log = log\n"
        "    def score(self, predictions, references):\n"
        "        with open(self.log, 'a') as fh:\n"
        "            fh.write('scored\\n')\n"
        "        return super().score(predictions, references)\n"
    )
    cfg = _write_run(tmp_path)
    cfg.write_text("from counting import CountingAcc\n" + cfg.read_text().replace("type='AccEvaluator'", f"type=CountingAcc, log={str(log)!r}", 1))
    declare_correction("gsm8k_postprocess", "tests-gsm8k-same")
    try:
        assert _eval(cfg, tmp_path) == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    result = _result(tmp_path)
    audit = result["extraction_audit"]
    assert audit["differ"] == 0 and audit["samples"] == [] and audit["replies"] == len(REPLIES)
    assert audit["metrics"] == {"accuracy": result["accuracy"]}
    assert log.read_text().count("scored") == 1


def test_an_audit_failure_keeps_the_official_result(tmp_path: Path) -> None:
    declare_correction("gsm8k_postprocess", "tests-gsm8k-broken")
    try:
        assert _eval(_write_run(tmp_path), tmp_path) == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    result = _result(tmp_path)
    assert result["accuracy"] == pytest.approx(_accuracy([gsm8k_postprocess(r) for r in REPLIES], REFERENCES))
    audit = result["extraction_audit"]
    assert "cannot read this one" in audit["error"] and "metrics" not in audit
    assert audit["corrections"][0]["corrected"] == "tests-gsm8k-broken"


def test_a_changed_declaration_recomputes_the_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _write_run(tmp_path)
    assert _eval(cfg, tmp_path) == 0
    assert "extraction_audit" not in _result(tmp_path)
    capsys.readouterr()
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        assert _eval(cfg, tmp_path) == 0
        err = capsys.readouterr().err
        assert "m/gsm ok" in err and "m/plain reused" in err
        assert _result(tmp_path)["extraction_audit"]["differ"] > 0
        assert _eval(cfg, tmp_path) == 0
        assert "m/gsm reused" in capsys.readouterr().err
        declare_correction("gsm8k_postprocess", "tests-gsm8k-same", replace=True)
        assert _eval(cfg, tmp_path) == 0
        assert "m/gsm ok" in capsys.readouterr().err
        assert _result(tmp_path)["extraction_audit"]["differ"] == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    assert _eval(cfg, tmp_path) == 0
    assert "m/gsm ok" in capsys.readouterr().err
    assert "extraction_audit" not in _result(tmp_path)


CANDIDATES = """
from assay.evaluate.base import BaseEvaluator

class TwoChecks(BaseEvaluator):
    '''Each answer passes a strict check (equal to the reference) and a lenient one (or empty): a list of candidates.'''

    def score(self, predictions, references):
        details = [{'pred': p, 'correct': [p == r, p in ('', r)]} for p, r in zip(predictions, references)]
        shares = [sum(d['correct']) / len(d['correct']) for d in details]
        return {'accuracy': 100 * sum(shares) / len(shares), 'details': details}
"""


def test_audit_verdicts_follow_the_statistics_rule(tmp_path: Path, fixed_gsm8k: None, capsys: pytest.CaptureFixture[str]) -> None:
    """A run's verdict given as a list of candidates is the share of correct ones in the audit as in the statistics,
    so ``assay verify`` recomputes the would-be accuracy of a sound run to the value the evaluator gave."""
    from assay.stats import correctness_matrix

    cfg = _write_run(tmp_path)
    cfg.write_text(CANDIDATES + cfg.read_text().replace("evaluator=dict(type='AccEvaluator')", "evaluator=dict(type=TwoChecks)", 1))
    assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1", "--no-report"]) == 0
    audit = _result(tmp_path)["extraction_audit"]
    corrected = [gsm8k_fixed(r) for r in REPLIES]
    empty = corrected.index("")  # read as nothing by the corrected extractor: fails the strict check, passes the lenient one
    assert empty in audit["samples"]
    readings = dict(zip(audit["samples"], audit["readings"]))
    assert readings[empty]["correct"] == [0.5]
    assert correctness_matrix([{"correct": [[False, True]]}]) == [[0.5]]  # the statistics' reading of the same verdict
    assert all(readings[j]["correct"] == [True] for j in audit["samples"] if j != empty)
    assert audit["metrics"]["accuracy"] == pytest.approx(100 * (len(REPLIES) - 0.5) / len(REPLIES))
    capsys.readouterr()
    rc = main(["verify", str(tmp_path / "work"), "-r", RUN, "-v"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "extraction_audit.metrics.accuracy" not in out


COUNTING = """
from assay.evaluators.exact import AccEvaluator


class CountingAcc(AccEvaluator):
    '''AccEvaluator writing the size of every batch it scores to ``log``.'''

    def __init__(self, log, pred_postprocessor=None):
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.log = log

    def score(self, predictions, references):
        with open(self.log, 'a') as fh:
            fh.write(f'{len(predictions)}\\n')
        return super().score(predictions, references)


class WholeAcc(CountingAcc):
    '''The same, declared not sample-decomposable: the audit scores every sample again.'''

    sample_decomposable = False


class SeeingAcc(CountingAcc):
    '''The same, reading the answers from the test set it is given (a datasets.Dataset).'''

    def score(self, predictions, references, test_set):
        return super().score(predictions, list(test_set['answer']))
"""


def _batches(log: Path) -> list[int]:
    return [int(line) for line in log.read_text().split()]


@pytest.mark.parametrize("runs", [1, 2], ids=["one-run", "two-runs-g-pass"])
def test_a_decomposable_evaluator_rescores_only_the_differing_samples(tmp_path: Path, runs: int) -> None:
    """The would-be metrics of a sample-decomposable evaluator come from the differing samples scored again
    and the others' official verdicts: the record is the one scoring every sample again gives, to the bits
    (G-Pass@k over repeated runs included), and the evaluator sees only the differing samples."""
    replies = REPLIES * runs  # run-major: the same replies in every run
    refs = REFERENCES
    (tmp_path / "gsm.jsonl").write_text("".join(json.dumps({"q": f"q{i}", "answer": a}) + "\n" for i, a in enumerate(refs)))
    preds = tmp_path / "work" / RUN / "predictions" / "m"
    preds.mkdir(parents=True)
    for abbr in ("parts", "whole", "seeing"):
        (preds / f"{abbr}.json").write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(replies)}))
    (tmp_path / "audit_counting.py").write_text(COUNTING)
    cfg = tmp_path / "config.py"
    repeat = f", n={runs}, k={runs}" if runs > 1 else ""
    cfg.write_text(
        "from audit_counting import CountingAcc, SeeingAcc, WholeAcc\n"
        "reader = dict(input_columns=['q'], output_column='answer')\n"
        "datasets = [\n"
        + "".join(
            f"    dict(abbr={abbr!r}, type='JsonlDataset', path='gsm.jsonl', reader_cfg=reader{repeat},\n"
            f"         eval_cfg=dict(pred_postprocessor=dict(type='gsm8k_postprocess'),\n"
            f"                       evaluator=dict(type={kind}, log={str(tmp_path / (abbr + '.log'))!r}))),\n"
            for abbr, kind in (("parts", "CountingAcc"), ("whole", "WholeAcc"), ("seeing", "SeeingAcc"))
        )
        + "]\nmodels = [dict(abbr='m')]\n"
    )
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        assert _eval(cfg, tmp_path) == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    parts, whole = _result(tmp_path, "parts"), _result(tmp_path, "whole")
    audit = parts["extraction_audit"]
    differing = audit["samples"]
    assert 0 < len(differing) < len(REPLIES)
    expected = dict(whole["extraction_audit"])  # G-Pass@k per subdivision: the dataset's abbr
    expected["metrics"] = {key.replace("whole/", "parts/"): value for key, value in expected["metrics"].items()}
    assert audit == expected  # every value, to the last bit
    seeing = dict(_result(tmp_path, "seeing")["extraction_audit"])  # given the differing samples' rows of the test set
    seeing["metrics"] = {key.replace("seeing/", "parts/"): value for key, value in seeing["metrics"].items()}
    assert seeing == expected
    metric = "accuracy" if runs == 1 else f"accuracy ({runs} runs average)"
    assert audit["metrics"][metric] == pytest.approx(_accuracy([gsm8k_fixed(r) for r in replies], refs * runs))
    if runs > 1:
        assert any(key.startswith("G-Pass@2") for key in audit["metrics"])
    size = len(REPLIES)
    assert _batches(tmp_path / "whole.log") == [size] * runs * 2
    assert _batches(tmp_path / "parts.log") == _batches(tmp_path / "seeing.log") == [size] * runs + [len(differing)] * runs


SIDE_FILES = '''
from assay.evaluators.exact import AccEvaluator

class SideFileAcc(AccEvaluator):
    """AccEvaluator that writes a side file and a side folder beside its output path, as judge evaluators do."""

    def score(self, predictions, references):
        import os
        os.makedirs(os.path.dirname(self.output_dir), exist_ok=True)
        with open(self.output_dir + "_side.json", "w") as fh:
            fh.write("{}")
        os.makedirs(self.output_dir + "_cache")
        return super().score(predictions, references)
'''


def test_the_audit_makes_no_folder_for_its_evaluator_and_removes_its_side_files(
    tmp_path: Path, fixed_gsm8k: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evaluator scoring the corrected answers writes its side files in the run's scratch folder under a
    name of their own, removed after: no folder is made (and removed) for each audit, and none is left."""
    import os

    (tmp_path / "side_files.py").write_text(SIDE_FILES)
    cfg = _write_run(tmp_path)
    cfg.write_text("from side_files import SideFileAcc\n" + cfg.read_text().replace("type='AccEvaluator'", "type=SideFileAcc"))
    run = tmp_path / "work" / RUN
    made: list[str] = []
    mkdir = os.mkdir

    def counting(path: Any, *args: Any, **kwargs: Any) -> None:
        made.append(os.fspath(path))
        mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", counting)
    assert _eval(cfg, tmp_path) == 0  # one worker: both tasks in this process
    assert _result(tmp_path)["extraction_audit"]["differ"] > 0
    scratch = os.fspath(run / ".scratch")
    in_scratch = [p for p in made if p.startswith(scratch + os.sep)]
    assert in_scratch and all(p.endswith("_cache") for p in in_scratch)  # only those the evaluator made itself
    assert not (run / ".scratch").exists()
    assert sorted(p.name for p in (run / "results" / "m").iterdir() if "side" in p.name or "cache" in p.name) == [
        "gsm_cache", "gsm_side.json", "plain_cache", "plain_side.json",  # the official scoring's, where OpenCompass puts them
    ]


def test_the_summary_text_shows_the_audit_without_its_per_sample_lists(tmp_path: Path, fixed_gsm8k: None) -> None:
    """The raw section of ``summary_<time>.txt`` shows each result without its details; an audit record's
    differing samples and their readings are left out there too (thousands of them on a large run), while
    the summary's ``.json`` keeps them whole."""
    cfg = _write_run(tmp_path)
    assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1", "--no-report"]) == 0
    audit = _result(tmp_path)["extraction_audit"]
    assert audit["samples"] and audit["readings"]
    summary = tmp_path / "work" / RUN / "summary"
    (text,) = summary.glob("summary_*.txt")
    (line,) = [line for line in text.read_text().splitlines() if line.startswith("gsm: ")]
    shown = {key: value for key, value in audit.items() if key not in ("samples", "readings")}
    assert line == "gsm: " + repr({**{k: v for k, v in _result(tmp_path).items() if k not in ("details", META_KEY)},
                                   "extraction_audit": shown})
    (data,) = summary.glob("summary_*.json")
    assert json.loads(data.read_text())["extraction_audits"]["m"]["gsm"] == audit
