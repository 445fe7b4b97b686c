"""Test sets kept as Arrow tables: the light view, the lazy ``datasets.Dataset``, and what a run imports."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import datasets
import pytest

from assay.datasets import local
from assay.datasets.build import build_test_set
from assay.datasets.table import TableView
from assay.errors import InputFileError

ROWS = [{"q": f"q{i}", "answer": "ABCD"[i % 4], "score": i * 0.5} for i in range(12)]


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    p = tmp_path / "d.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return p


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("test_range", [None, "[2:9:2]"])
@pytest.mark.parametrize("post", [None, str.lower])
def test_view_columns_equal_the_datasets_columns(jsonl: Path, n: int, test_range: str | None, post: Any) -> None:
    reader_cfg: dict[str, object] = {"output_column": "answer"}
    if test_range:
        reader_cfg["test_range"] = test_range
    cfg = {"abbr": "d", "type": "JsonlDataset", "path": str(jsonl), "n": n, "reader_cfg": reader_cfg, "eval_cfg": {"dataset_postprocessor": post}}
    ts = build_test_set(cfg)
    view, ds = ts.view, ts.dataset
    assert len(view) == len(ds) == ts.size * n
    assert view.column_names == ds.column_names
    for name in ds.column_names:
        assert view[name] == list(ds[name]), name
    assert view.select_columns(["subdivision", "idx"])[: ts.size] == ds.select_columns(["subdivision", "idx"])[: ts.size]
    assert ts.references == list(ds["answer"])
    if post:
        assert set(ts.references) <= set("abcd")
    if test_range:
        assert view["q"][: ts.size] == ["q2", "q4", "q6", "q8"]


def test_loader_features_survive_into_the_datasets_object(tmp_path: Path) -> None:
    """A loader returning a datasets.Dataset with a ClassLabel keeps it in the test set evaluators see."""
    features = datasets.Features({"q": datasets.Value("string"), "label": datasets.ClassLabel(names=["no", "yes"])})
    table = datasets.Dataset.from_dict({"q": ["a", "b", "c"], "label": [0, 1, 1]}, features=features)

    def loader(**_: object) -> datasets.Dataset:
        return table

    ts = build_test_set({"abbr": "cl", "type": loader, "reader_cfg": {"output_column": "label", "test_range": "[1:]"}})
    assert ts.references == [1, 1]
    assert ts.dataset.features["label"] == features["label"]
    assert ts.dataset.features["idx"] == datasets.Value("int64")
    assert ts.dataset["q"][:] == ["b", "c"]


def test_view_is_a_small_dataset_lookalike() -> None:
    view = TableView({"q": ["x", "y"], "idx": [0, 1]})
    assert list(view) == [{"q": "x", "idx": 0}, {"q": "y", "idx": 1}]
    assert view[-1] == {"q": "y", "idx": 1}
    with pytest.raises(IndexError):
        view[2]
    with pytest.raises(KeyError, match="no column 'z'"):
        view["z"]


def test_a_plain_accuracy_run_imports_neither_datasets_nor_pandas(tmp_path: Path) -> None:
    """Scoring a small JSONL test set with an evaluator that never sees it skips the heavy imports (start-up cost)."""
    (tmp_path / "d.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    preds = tmp_path / "out" / "run" / "predictions" / "m"
    preds.mkdir(parents=True)
    (preds / "d.json").write_text(json.dumps({str(i): {"prediction": f"The answer is {r['answer']}."} for i, r in enumerate(ROWS)}))
    (tmp_path / "config.py").write_text(
        textwrap.dedent(
            """
            datasets = [dict(abbr='d', type='JsonlDataset', path='d.jsonl',
                             reader_cfg=dict(input_columns=['q'], output_column='answer'),
                             eval_cfg=dict(evaluator=dict(type='AccEvaluator'),
                                           pred_postprocessor=dict(type='first_option_postprocess', options='ABCD')))]
            models = [dict(abbr='m')]
            """
        )
    )
    probe = textwrap.dedent(
        """
        import sys
        from assay.cli import main
        code = main(['eval', 'config.py', '-w', 'out', '-r', 'run', '--workers', '1'])
        print(code, sorted(m for m in ('datasets', 'pandas', 'pyarrow', 'sympy', 'math_verify') if m in sys.modules))
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "0 []", done.stdout + done.stderr
    result = json.loads((tmp_path / "out" / "run" / "results" / "m" / "d.json").read_text())
    assert result["accuracy"] == 100.0


@pytest.mark.parametrize("small", [True, False], ids=["python-read", "arrow-read"])
def test_date_like_strings_stay_strings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small: bool) -> None:
    """A JSONL reference such as "2020-01-01" is compared as written, never as a timestamp (also nested)."""
    if not small:
        monkeypatch.setattr(local, "_SMALL_JSONL", 0)
    p = tmp_path / "dates.jsonl"
    rows = [{"q": "when?", "answer": "2020-01-01", "meta": {"seen": "2021-02-03"}}, {"q": "and?", "answer": "1999-12-31", "meta": {"seen": "x"}}]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ts = build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(p), "reader_cfg": {"output_column": "answer"}})
    assert ts.references == ["2020-01-01", "1999-12-31"]
    assert ts.view["meta"] == [{"seen": "2021-02-03"}, {"seen": "x"}]
    flat = tmp_path / "flat.jsonl"
    flat.write_text("".join(json.dumps({"q": r["q"], "answer": r["answer"], "n": i}) + "\n" for i, r in enumerate(rows)))
    ts = build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(flat), "reader_cfg": {"output_column": "answer"}})
    assert ts.references == ["2020-01-01", "1999-12-31"]
    assert ts.view["n"] == [0, 1]


@pytest.mark.parametrize("small", [True, False], ids=["python-read", "arrow-read"])
def test_small_and_large_jsonl_files_give_the_same_test_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small: bool) -> None:
    """Integers beside floats read as floats either way; nested values (lists of one type too) and bad columns behave alike."""
    if not small:
        monkeypatch.setattr(local, "_SMALL_JSONL", 0)
    p = tmp_path / "mixed.jsonl"
    rows = [
        {"q": "a", "answer": 3, "meta": {"k": 1}, "names": ["x", None], "ids": [1, 2], "mix": [1, 2.5]},
        {"q": "b", "answer": 2.5, "meta": {"j": "x"}, "names": [], "mix": [3]},
    ]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ts = build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(p), "reader_cfg": {"output_column": "answer"}})
    assert ts.references == [3.0, 2.5] and all(type(r) is float for r in ts.references)
    assert ts.view["meta"] == [{"k": 1, "j": None}, {"k": None, "j": "x"}]
    assert ts.view["names"] == [["x", None], []] and ts.view["ids"] == [[1, 2], None]
    assert ts.view["mix"] == [[1.0, 2.5], [3.0]] and all(type(v) is float for v in ts.view["mix"][0])
    assert list(ts.dataset["answer"]) == [3.0, 2.5]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"answer": "A"}) + "\n" + json.dumps({"answer": ["A"]}) + "\n")
    with pytest.raises(InputFileError, match=r"bad\.jsonl"):
        build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(bad), "reader_cfg": {"output_column": "answer"}})


def test_the_quickstart_example_imports_no_table_library(tmp_path: Path) -> None:
    """Its short-answer set lists several acceptable answers per question: read as the file has them, no Arrow
    (nor ``pandas``, which Arrow's conversion of Python values loads) for a small JSONL file."""
    example = Path(__file__).resolve().parents[2] / "examples" / "quickstart" / "config.py"
    probe = textwrap.dedent(
        f"""
        import sys
        from assay.cli import main
        code = main(['run', {str(example)!r}, '-w', 'out', '--workers', '1', '--no-report'])
        print(code, sorted(m for m in ('datasets', 'pandas', 'pyarrow', 'numpy') if m in sys.modules))
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "0 []", done.stdout + done.stderr
    scored = json.loads(next((tmp_path / "out").glob("*/results/chat-small/quick_short.json")).read_text())
    assert scored["score"] == 37.5

