"""``SubjectiveSummarizer`` writes OpenCompass 0.5.4's tables, and ``assay run`` dispatches to the datasets' summarizers.

``scripts/record_oc_subjective.py`` records the CSV files OpenCompass's
``SubjectiveSummarizer`` writes for a set of scores (two judges, a model
without scores, datasets with different score names, models in no order:
``expected/summarizer.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.summarize import SubjectiveSummarizer
from tests.judge.fake_server import FakeJudge, subjective_reply
from tests.subjective.test_oc_subjective import RUN, _record, _run, _setup

EXPECTED = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "subjective" / "expected"


def test_tables_are_opencompass_csv(tmp_path: Path) -> None:
    record = json.loads((EXPECTED / "summarizer.json").read_text(encoding="utf-8"))
    result = SubjectiveSummarizer({"work_dir": str(tmp_path)}, function="subjective").summarize(
        subjective_scores=record["scores"], time_str=RUN)
    folder = tmp_path / "summary" / RUN
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()} == record["files"]
    assert sorted(p.name for kind, p in result.paths.items() if kind != "json") == sorted(record["files"])
    assert result.paths["json"] == tmp_path / "summary" / f"summary_{RUN}.json"  # assay's leaderboard, beside them


_SUMMARIZED = '''
from opencompass.registry import SUMMARIZERS


@SUMMARIZERS.register_module()
class CountingSummarizer:
    """Per dataset of its group, per judged model: how many judge replies hold a rating."""

    def __init__(self, config, judge_type='plain'):
        self.cfg = config
        self.judge_type = judge_type

    def summarize(self, time_str):
        import json
        import os

        out = {}
        for ds in self.cfg['datasets']:
            per_judge = out.setdefault(ds['abbr'], {}).setdefault('judge-model', {})
            for model in ('model-a', 'model-b'):
                path = os.path.join(self.cfg['work_dir'], 'results', model + '_judged-by--judge-model', ds['abbr'] + '.json')
                with open(path, encoding='utf-8') as f:
                    result = json.load(f)
                per_judge[model] = {'rated_' + self.judge_type: sum('[[' in v['prediction'] for v in result.values())}
        return out


datasets = [dict(d, summarizer=dict(type='CountingSummarizer', judge_type='ignored')) for d in datasets]
summarizer = dict(type='SubjectiveSummarizer', function='subjective')
'''


@pytest.mark.slow
def test_run_summarizes_by_the_datasets_summarizers(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``summarizer=dict(function=...)``, each dataset group's own summarizer (built with the config only: its
    other options are dropped, as OpenCompass drops them) reads the judged results, and the judge's table is written."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    record = dict(record, config=record["config"] + _SUMMARIZED)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        assert _run(record, work, tmp_path, server) == 0
    tables = list((work / RUN / "summary").glob("*/Subjective_all_results-judged-by--judge-model.csv"))
    assert len(tables) == 1
    rated = {}
    for name, result in _record("single")["results"].items():
        folder, file = name.split("/")
        rated[(file[: -len(".json")], folder.split("_judged-by--")[0])] = sum("[[" in v["prediction"] for v in result.values())
    lines = tables[0].read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Dataset,Detailed Scores,model-a,model-b"
    assert lines[1:] == [f"{ds},rated_plain,{rated[(ds, 'model-a')]},{rated[(ds, 'model-b')]}"
                         for ds in ("alignment_bench", "mtbench_0.0")]


def test_a_failing_group_leaves_the_others(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A dataset group whose summarizer fails is named in the log and the text; the other groups' scores are written."""
    class _Broken:
        def __init__(self, config):
            pass

        def summarize(self, time_str):
            raise ValueError("needs wins on both sides")

    class _Fine:
        def __init__(self, config):
            self.cfg = config

        def summarize(self, time_str):
            return {d["abbr"]: {"judge": {"m": {"score": 1.5}}} for d in self.cfg["datasets"]}

    config = {"work_dir": str(tmp_path), "datasets": [dict(abbr="arena_x", summarizer=dict(type=_Broken)),
                                                     dict(abbr="alpaca_y", summarizer=dict(type=_Fine))]}
    result = SubjectiveSummarizer(config).summarize(time_str=RUN)
    assert "_Broken (arena): ValueError: needs wins on both sides" in result.text
    assert "_Broken (arena): ValueError: needs wins on both sides" in result.failed  # the command exits 1
    assert "arena_x" in caplog.text
    path = result.paths["judged-by--judge"]
    assert path.read_text(encoding="utf-8") == "Dataset,Detailed Scores,m\nalpaca_y,score,1.5\n"
