"""OpenCompass's L-Eval, InfiniteBench and MRCR configs, run by ``assay run``, give OpenCompass's numbers and table.

Each family's library configs are imported unchanged (``from
opencompass.configs.datasets.leval.leval import leval_datasets`` inside
``read_base``, with the family's summarizer config or summary groups), the
prediction files of ``tests/data/oc_families/<family>/predictions`` are scored,
and every metric of every result and the summary table are compared with what
OpenCompass 0.5.4 computed on the same files (``expected.json``,
``summary.csv``; ``scripts/record_oc_long_context.py``).  The test sets are
read from the small local copies under ``cache/`` (the layout OpenCompass's
loaders read), or — with no data on disk — the references are taken from the
predictions' ``gold``.  InfiniteBench's En.QA and Zh.QA are scored with LongBench's
``LongBenchF1Evaluator``, compared like the rest.  The library comes from the ``oc_library`` fixture.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "oc_families"
RUN = "20250101_000000"
MODEL = "oc-model"

#: family → (the config's imports, its datasets expression, its summarizer expression)
CONFIGS: dict[str, tuple[list[str], str, str]] = {
    "leval": (
        ["from opencompass.configs.datasets.leval.leval import leval_datasets",
         "from opencompass.configs.summarizers.leval import summarizer"],
        "leval_datasets", "summarizer",
    ),
    "infinitebench": (
        ["from opencompass.configs.datasets.infinitebench.infinitebench import infinitebench_datasets",
         "from opencompass.configs.summarizers.infinitebench import summarizer"],
        "infinitebench_datasets", "summarizer",
    ),
    "mrcr": (
        ["from opencompass.configs.datasets.mrcr.mrcr_v2_full_rawprompt_gen import mrcr_datasets",
         "from opencompass.configs.datasets.mrcr.mrcr_v2_upto128k_rawprompt_gen import mrcr_upto128k_datasets",
         *[f"from opencompass.configs.datasets.mrcr.mrcr_v2_{s}_rawprompt_gen import mrcr_{s}_datasets"
           for s in ("8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m")],
         "from opencompass.configs.summarizers.groups.mrcr_v2 import mrcr_v2_summary_groups"],
        "[*mrcr_datasets, *mrcr_upto128k_datasets, "
        + ", ".join(f"*mrcr_{s}_datasets" for s in ("8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m")) + "]",
        "dict(summary_groups=mrcr_v2_summary_groups)",
    ),
}


def _config(family: str) -> str:
    imports, datasets, summarizer = CONFIGS[family]
    lines = ["from mmengine.config import read_base", "", "with read_base():", *[f"    {line}" for line in imports], "",
             f"datasets = {datasets}", f"summarizer = {summarizer}", f"models = [dict(abbr={MODEL!r}, path='org/model')]"]
    return "\n".join(lines) + "\n"


def _expected(family: str) -> dict[str, Any]:
    return json.loads((DATA / family / "expected.json").read_text(encoding="utf-8"))


def _run(family: str, tmp_path: Path, *, command: str = "run") -> Path:
    config = tmp_path / "config.py"
    config.write_text(_config(family), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in _expected(family):
        shutil.copy(DATA / family / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    main([command, str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    return work / RUN


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


#: datasets scored by an evaluator of another family, and the groups over them
BORROWED = {"InfiniteBench_enqa": "LongBenchF1Evaluator", "InfiniteBench_zhqa": "LongBenchF1Evaluator"}
GROUPS_OVER_BORROWED = {"InfiniteBench"}


def _not_implemented() -> set[str]:
    """The datasets whose evaluator, borrowed from another family, assay does not implement yet."""
    from assay.registry import ICL_EVALUATORS

    return {abbr for abbr, name in BORROWED.items() if ICL_EVALUATORS.lookup(name) is None}


def _assert_opencompass_numbers(family: str, run_dir: Path) -> None:
    """Every metric of every result and every row of the summary table are OpenCompass's.

    Every dataset is scored, those scored by another family's evaluator (``BORROWED``) too.
    """
    missing = _not_implemented()
    assert not missing, f"scored by evaluators assay lacks: {sorted(missing)}"
    for abbr, entry in _expected(family).items():
        result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        if abbr in missing:
            assert BORROWED[abbr] in result["error"], abbr
            continue
        assert "error" not in result, (abbr, result["error"])
        metrics = {k: v for k, v in entry["result"].items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        assert metrics, abbr
        for key, value in metrics.items():
            assert result[key] == pytest.approx(value, abs=1e-9), (abbr, key)
    (table,) = (run_dir / "summary").glob("summary_*.csv")
    skipped = missing | (GROUPS_OVER_BORROWED if missing else set())
    ours = [row for row in _rows(table.read_text(encoding="utf-8")) if row[0] not in skipped]
    theirs = [row for row in _rows((DATA / family / "summary.csv").read_text(encoding="utf-8")) if row[0] not in skipped]
    assert ours == theirs
    assert len(theirs) > 2


@pytest.mark.slow
@pytest.mark.parametrize("family", list(CONFIGS))
def test_library_configs_on_local_data_give_opencompass_numbers_and_table(
    family: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(DATA / family / "cache"))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(DATA / family / "cache")
    run_dir = _run(family, tmp_path)
    _assert_opencompass_numbers(family, run_dir)


@pytest.mark.slow
@pytest.mark.parametrize("family", list(CONFIGS))
def test_library_configs_without_data_score_from_gold(family: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(empty))
    monkeypatch.setenv("HOME", str(empty))  # no ~/.cache/opencompass either
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(empty)
    run_dir = _run(family, tmp_path)
    _assert_opencompass_numbers(family, run_dir)


@pytest.mark.slow
def test_leval_summary_groups_give_opencompass_table(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenCompass's ``groups/leval.py`` (the mean of each task's first metric) on the scored L-Eval results."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    run_dir = _run("leval", tmp_path, command="eval")
    config = tmp_path / "groups.py"
    config.write_text(_config("leval").replace(
        "from opencompass.configs.summarizers.leval import summarizer",
        "from opencompass.configs.summarizers.groups.leval import leval_summary_groups",
    ).replace("summarizer = summarizer", "summarizer = dict(summary_groups=leval_summary_groups)"), encoding="utf-8")
    main(["summarize", str(config), "-w", str(tmp_path / "work"), "-r", RUN])
    (table,) = (run_dir / "summary").glob("summary_*.csv")
    assert _rows(table.read_text(encoding="utf-8")) == _rows((DATA / "leval" / "summary_groups.csv").read_text(encoding="utf-8"))


# -- each dataset's components, on what OpenCompass's evaluator received ------------------------


def _library_datasets(family: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    import assay

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / f"{family}.py"
    config.write_text(_config(family), encoding="utf-8")
    return list(assay.load_config(config).datasets)


@pytest.mark.parametrize("family", list(CONFIGS))
def test_postprocessors_and_evaluators_compute_what_opencompass_did(
    family: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per dataset: the config's prediction postprocessor turns the replies into the answers OpenCompass's evaluator
    received, and the config's evaluator, given OpenCompass's answers and references, gives its metrics."""
    from assay.opencompass import is_standin
    from assay.postprocess.chain import build_postprocessor
    from assay.registry import ICL_EVALUATORS, resolve_type

    expected = _expected(family)
    checked = 0
    for ds in _library_datasets(family, oc_library, tmp_path, monkeypatch):
        entry = expected.get(ds["abbr"])
        if entry is None:
            continue
        eval_cfg = dict(ds["eval_cfg"])
        evaluator_cfg = dict(eval_cfg["evaluator"])
        evaluator_type = resolve_type(evaluator_cfg.pop("type"), ICL_EVALUATORS)
        assert not is_standin(evaluator_type), (ds["abbr"], evaluator_type)
        records = json.loads((DATA / family / "predictions" / f"{ds['abbr']}.json").read_text(encoding="utf-8"))
        replies = [records[str(i)]["prediction"] for i in range(len(records))]
        post = build_postprocessor(eval_cfg.get("pred_postprocessor"))
        assert ([post(r) for r in replies] if post else replies) == entry["predictions"], ds["abbr"]
        got = evaluator_type(**evaluator_cfg).score(entry["predictions"], entry["references"])
        for key, value in entry["result"].items():
            assert got[key] == pytest.approx(value, abs=1e-9), (ds["abbr"], key)
        checked += 1
    assert checked == len(expected)


@pytest.mark.parametrize("family", [pytest.param(f, marks=[pytest.mark.slow] if f == "mrcr" else []) for f in CONFIGS])
def test_loaders_read_the_rows_opencompass_read(family: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each library dataset's loader, on the local copy, gives the test rows OpenCompass's loader gave (every column:
    L-Eval's ``length`` and QuALITY's option letter, InfiniteBench's options and parsed calls, MRCR's ``gold``)."""
    from assay.datasets.build import build_test_set
    from assay.datasets.location import locate_data
    from assay.datasets.table import column_values

    expected = _expected(family)
    datasets = _library_datasets(family, oc_library, tmp_path, monkeypatch)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(DATA / family / "cache"))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.chdir(DATA / family / "cache")
    for ds in datasets:
        rows = expected[ds["abbr"]]["test_rows"]  # with the subdivision and idx columns both add
        test = build_test_set(ds, resolve_path=lambda value: locate_data(value).path)
        assert test.size == len(rows), ds["abbr"]
        assert set(rows[0]) == set(test.table.column_names), ds["abbr"]
        assert test.source.num_rows == len(rows), ds["abbr"]
        columns = [c for c in rows[0] if c != "subdivision"]  # OpenCompass names a split's rows '<abbr>_test', assay '<abbr>'
        loaded = {c: column_values(test.source, c) for c in columns if c != "idx"}  # as the loader gave them
        assert loaded == {c: [r[c] for r in rows] for c in columns if c != "idx"}, ds["abbr"]
        assert test.column("idx") == [r["idx"] for r in rows], ds["abbr"]


def _vector_cases() -> list[Any]:
    cases = []
    for family in CONFIGS:
        for i, vector in enumerate(json.loads((DATA / family / "vectors.json").read_text(encoding="utf-8"))):
            cases.append(pytest.param(vector, id=f"{vector['evaluator']}-{i}"))
    return cases


@pytest.mark.parametrize("vector", _vector_cases())
def test_evaluators_on_tricky_inputs_give_opencompass_metrics_and_details(vector: dict[str, Any]) -> None:
    """Separators, case, signs, non-ASCII digits, empty and missing prefixes, a reference given as a string
    where a list is expected, long replies (difflib's junk heuristic): OpenCompass's numbers on each."""
    from assay.registry import ICL_EVALUATORS

    evaluator = ICL_EVALUATORS.get(vector["evaluator"])()
    got = evaluator.score(vector["predictions"], vector["references"])
    expected = vector["result"]
    for key, value in expected.items():
        if key == "details":  # MRCR's, as OpenCompass writes them
            assert got["details"] == value, key  # the same floats: difflib's ratios computed alike
        else:
            assert got[key] == pytest.approx(value, abs=1e-9), key


def test_mrcr_autojunk_off_compares_every_character_of_long_replies() -> None:
    """OpenCompass's ratio ignores the frequent characters of a long expected reply; ``autojunk=False`` does not."""
    from assay.evaluators.mrcr import MRCREvaluator

    poem = "Tapirs " + "wander at dusk and sleep at dawn, " * 12
    gold = json.dumps({"answer": "p1" + poem, "prefix": "p1"})
    reply = "p1" + poem.replace("dusk", "dawn")
    assert MRCREvaluator().score([reply], [gold])["score"] < 10
    assert MRCREvaluator(autojunk=False).score([reply], [gold])["score"] > 90


def test_mrcr_version_is_opencompass_s(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MRCR's prompt (``RawPromptTemplate``, which assay implements) hashes to OpenCompass's version."""
    from assay.summarize._collect import prompt_version

    versions = {prompt_version(ds) for ds in _library_datasets("mrcr", oc_library, tmp_path, monkeypatch)}
    assert versions == {"5c1722"}


# -- bad input -----------------------------------------------------------------------------------


def _result(run_dir: Path, abbr: str) -> dict[str, Any]:
    return json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))


def test_missing_infinitebench_file_without_gold_names_the_file(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from opencompass.configs.datasets.infinitebench.infinitebenchretrievepasskey.infinitebench_retrievepasskey_gen "
        "import InfiniteBench_retrievepasskey_datasets as datasets\n\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n", encoding="utf-8")
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    records = json.loads((DATA / "infinitebench" / "predictions" / "InfiniteBench_retrievepasskey.json").read_text(encoding="utf-8"))
    for record in records.values():
        del record["gold"]
    (predictions / "InfiniteBench_retrievepasskey.json").write_text(json.dumps(records), encoding="utf-8")
    assert main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) != 0
    error = _result(tmp_path / "work" / RUN, "InfiniteBench_retrievepasskey")["error"]
    assert "data/InfiniteBench/passkey.jsonl" in error


def test_leval_copy_missing_a_task_file_names_it(tmp_path: Path) -> None:
    from assay.datasets.leval import LEvalTPODataset
    from assay.errors import InputFileError

    copy = tmp_path / "L4NLP" / "LEval"
    shutil.copytree(DATA / "leval" / "cache" / "L4NLP" / "LEval", copy)
    (copy / "LEval" / "Exam" / "tpo.jsonl").unlink()
    with pytest.raises(InputFileError, match="LEvalTPODataset") as info:
        LEvalTPODataset.load(path=str(copy), name="tpo")
    assert "tpo.jsonl" in str(info.value) or str(copy) in str(info.value)
    assert LEvalTPODataset.load(path=str(copy), name="quality")["test"].num_rows == 4  # the other tasks still read


def test_leval_missing_copy_names_the_path(tmp_path: Path) -> None:
    from assay.datasets.leval import LEvalCourseraDataset
    from assay.errors import InputFileError

    with pytest.raises(InputFileError, match=r"LEvalCourseraDataset: .*L4NLP/LEval does not exist"):
        LEvalCourseraDataset.load(path=str(tmp_path / "L4NLP" / "LEval"), name="coursera")


def test_infinitebench_answer_not_among_the_options_names_file_and_line(tmp_path: Path) -> None:
    from assay.datasets.infinitebench import InfiniteBenchcodedebugDataset
    from assay.errors import InputFileError

    file = tmp_path / "code_debug.jsonl"
    good = {"context": "c", "input": "q", "options": ["f1", "f2", "f3", "f4"], "answer": ["f2"]}
    file.write_text(json.dumps(good) + "\n" + json.dumps(dict(good, answer=["g7"])) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"InfiniteBenchcodedebugDataset: file .*code_debug.jsonl, line 2: the answer 'g7'"):
        InfiniteBenchcodedebugDataset.load_table(str(file))
    file.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert InfiniteBenchcodedebugDataset.load_table(str(file)).column_values("answer") == ["B"]


def test_mrcr_reference_that_is_not_its_gold_json_is_named() -> None:
    from assay.errors import InputFileError
    from assay.evaluators.mrcr import MRCREvaluator

    gold = json.dumps({"answer": "p1 a poem", "prefix": "p1"})
    with pytest.raises(InputFileError, match=r"MRCREvaluator: reference 1 is 'a poem'"):
        MRCREvaluator().score(["p1 a poem", "x"], [gold, "a poem"])


def test_dry_run_says_leval_gpt_evaluator_needs_a_judge_model(
    oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from opencompass.configs.datasets.leval.levalnarrativeqa.leval_narrativeqa_gen import LEval_narrativeqa_datasets\n"
        "from opencompass.datasets.leval import LEvalGPTEvaluator\n\n"
        "datasets = [dict(d, eval_cfg=dict(evaluator=dict(type=LEvalGPTEvaluator), pred_role='BOT')) for d in LEval_narrativeqa_datasets]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n", encoding="utf-8")
    assert main(["eval", str(config), "-w", str(tmp_path / "work"), "--dry-run"]) == 1
    out = capsys.readouterr()
    assert "LEvalGPTEvaluator needs a judge model" in out.out + out.err
