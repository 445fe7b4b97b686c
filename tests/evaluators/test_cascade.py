"""CascadeEvaluator: rule evaluator first, LLM judge for failures (or for all)."""

from __future__ import annotations

from datasets import Dataset

from assay.evaluators.cascade import CascadeEvaluator
from tests.judge.fake_server import FakeJudge

# OpenCompass's cascade gives its judge the test set's columns, prediction and reference (no obj_gold)
TEMPLATE = dict(type="RawPromptTemplate", messages=[dict(role="user", content="gold={reference} pred={prediction}")])


def lenient_grader(messages, attempt):
    """The judge accepts an answer equal to the gold up to spaces and case."""
    text = messages[-1]["content"]
    gold, pred = text[len("gold="):].split(" pred=")
    if pred == "??":
        return ("reply", "no idea")
    return ("reply", "A" if pred.strip().lower() == gold.lower() else "B")


def make(url, tmp_path, parallel):
    ev = CascadeEvaluator(
        rule_evaluator=dict(type="AccEvaluator"),
        llm_evaluator=dict(type="GenericLLMEvaluator", prompt_template=TEMPLATE,
                           judge_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=url, retry=2,
                                          timeout=2, backoff=0.01)),
        parallel=parallel,
    )
    ev._out_dir = str(tmp_path / "run" / "results" / "m" / "d")
    return ev


PREDS = ["a", " B ", "c", "??"]
REFS = ["a", "b", "x", "y"]


def test_sequential_mode_judges_only_rule_failures(tmp_path):
    ds = Dataset.from_dict({"q": ["1", "2", "3", "4"], "answer": REFS})
    with FakeJudge(lenient_grader) as server:
        res = make(server.base_url, tmp_path, parallel=False).score(PREDS, REFS, ds)
        assert server.requests == 3
    assert res["accuracy"] == 50.0
    assert [d["cascade_correct"] for d in res["details"]] == [True, True, False, False]
    assert res["details"][0]["llm_evaluation"] is None
    assert res["details"][0]["rule_evaluation"]["correct"] is True
    assert res["details"][1]["llm_evaluation"]["llm_correct"] is True
    assert res["details"][3]["llm_evaluation"]["llm_correct"] is False  # not "A", not "CORRECT…"
    stats = res["cascade_stats"]
    assert stats == {"total_samples": 4, "rule_correct": 1, "rule_accuracy": 25.0, "llm_evaluated": 3,
                     "llm_correct": 1, "llm_accuracy": 100 / 3, "llm_failed": 0, "final_correct": 2,
                     "final_accuracy": 50.0, "parallel_mode": False}


def test_parallel_mode_judges_every_sample_and_reruns_are_cached(tmp_path):
    ds = Dataset.from_dict({"q": ["1", "2", "3", "4"], "answer": REFS})
    with FakeJudge(lenient_grader) as server:
        res = make(server.base_url, tmp_path, parallel=True).score(PREDS, REFS, ds)
        assert server.requests == 4
        again = make(server.base_url, tmp_path, parallel=True).score(PREDS, REFS, ds)
        assert server.requests == 4
    assert res["cascade_stats"]["llm_evaluated"] == 4 and res["cascade_stats"]["llm_correct"] == 2
    assert res["details"][0]["llm_evaluation"]["llm_correct"] is True
    assert again["accuracy"] == res["accuracy"] == 50.0


def test_evaluate_uses_cascade_correct_for_g_pass(tmp_path):
    ds = Dataset.from_dict({"q": ["1", "2"], "answer": ["a", "b"]})
    both = Dataset.from_dict({"q": ["1", "2"] * 2, "answer": ["a", "b"] * 2})
    with FakeJudge(lenient_grader) as server:
        res = make(server.base_url, tmp_path, parallel=False).evaluate(
            k=2, n=2, original_dataset=both, predictions=["a", "B", "z", "b"], references=["a", "b"] * 2, test_set=both)
    assert res["accuracy (2 runs average)"] == 75.0
    assert res["details"][1]["cascade_correct"] == [True, True]
    assert "G-Pass@2_1.0" in res
    assert ds.num_rows == 2


def test_failed_judge_requests_are_listed_as_unjudged_and_all_failed_is_an_error(tmp_path):
    def grader(messages, attempt):
        return ("status", 503) if "pred=c" in messages[-1]["content"] else lenient_grader(messages, attempt)

    ds = Dataset.from_dict({"q": ["1", "2", "3", "4"], "answer": REFS})
    with FakeJudge(grader) as server:
        res = make(server.base_url, tmp_path, parallel=False).score(PREDS, REFS, ds)
    # OpenCompass's counting: the unjudged sample is not correct, every sample in the denominator
    assert res["accuracy"] == 50.0 and res["cascade_stats"]["llm_failed"] == 1
    (entry,) = res["_incomplete"]
    assert entry["kind"] == "unjudged" and entry["count"] == 1 and "HTTP 503" in entry["detail"]

    with FakeJudge(lambda m, a: ("status", 503)) as server:
        res = make(server.base_url, tmp_path / "other", parallel=False).score(PREDS, REFS, ds)
    assert set(res) == {"error"} and "the judge answered none of the 3 requests: HTTP 503" in res["error"]


# -- sample_score: one sample's rule verdict, as OpenCompass 0.5.4 gives it --------------------------------


class _RuleWithoutTestSet:
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def score(self, predictions: list, references: list) -> dict:
        self.seen.append((predictions, references))
        return {"details": [{"pred": predictions[0], "correct": predictions[0] == references[0]}]}


class _RuleWithTestSet(_RuleWithoutTestSet):
    def score(self, predictions: list, references: list, test_set: object = None) -> dict:  # type: ignore[override]
        self.seen.append((predictions, references, test_set))
        return {"accuracy": 100.0 if predictions[0] == references[0] else 0.0}


def _bare(rule: object = None, fn: object = None) -> CascadeEvaluator:
    ev = CascadeEvaluator.__new__(CascadeEvaluator)
    ev.rule_evaluator, ev.sample_score_fn = rule, fn  # type: ignore[assignment]
    return ev


def test_sample_score_asks_the_rule_about_one_sample_passing_the_row_only_if_it_takes_a_test_set() -> None:
    plain = _RuleWithoutTestSet()
    assert _bare(plain).sample_score("B", "B", {"q": "x"}) == {"pred": "B", "correct": True}
    assert plain.seen == [(["B"], ["B"])]

    with_rows = _RuleWithTestSet()
    # no details: the verdict is the accuracy, with the prediction and reference
    assert _bare(with_rows).sample_score("B", "C", {"q": "x"}) == {"correct": False, "pred": "B", "answer": "C"}
    assert with_rows.seen == [(["B"], ["C"], [{"q": "x"}])]


def test_sample_score_takes_sample_score_fn_first_and_wraps_a_plain_verdict() -> None:
    rule = _RuleWithoutTestSet()
    assert _bare(rule, lambda p, r, row: p == r and row["q"] == "x").sample_score("A", "A", {"q": "x"}) == {
        "correct": True, "pred": "A", "answer": "A",
    }
    assert _bare(rule, lambda p, r, row: {"score": 0.5}).sample_score("A", "B") == {"score": 0.5}
    assert rule.seen == []


def test_without_a_test_set_nothing_is_judged(tmp_path):
    """OpenCompass's cascade asks its judge only when it has the test set."""
    with FakeJudge(lenient_grader) as server:
        res = make(server.base_url, tmp_path, parallel=True).score(PREDS, REFS, None)
        assert server.requests == 0
    assert res["accuracy"] == 25.0 and res["cascade_stats"]["llm_evaluated"] == 0
    assert all(d["llm_evaluation"] is None for d in res["details"])


def test_the_judge_reads_the_prediction_the_cascade_received(tmp_path):
    """The judge's pred_postprocessor does not reach its prompt: OpenCompass's cascade puts the
    prediction it received into the judge's test set before the judge postprocesses anything."""
    seen = []

    def grader(messages, attempt):
        seen.append(messages[-1]["content"])
        return ("reply", "A")

    def shout(text: str) -> str:
        return text.upper()

    with FakeJudge(grader) as server:
        ev = CascadeEvaluator(
            rule_evaluator=dict(type="AccEvaluator"),
            llm_evaluator=dict(type="GenericLLMEvaluator", prompt_template=TEMPLATE, pred_postprocessor=dict(type=shout),
                               judge_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=server.base_url, retry=1)),
            parallel=False,
        )
        ev._out_dir = str(tmp_path / "run" / "results" / "m" / "d")
        ds = Dataset.from_dict({"q": ["1"], "answer": ["yes"]})
        res = ev.score(["no way"], ["yes"], ds)
    assert seen == ["gold=yes pred=no way"]
    assert res["accuracy"] == 100.0
