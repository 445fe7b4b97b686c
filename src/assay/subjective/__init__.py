"""Subjective (LLM-judged) evaluations: the judge tasks, the judge outputs' dict postprocessors, their summarizers and statistics.

The judge step (a judge scores one model's answers, or compares two):

* :mod:`assay.subjective.plan` lists the judge tasks of a run config as
  OpenCompass 0.5.4's subjective partitioner plans them;
  :mod:`assay.subjective.task` runs one (its predictions, its test set,
  ``LMEvaluator``, the result in OpenCompass's ``_judged-by--`` layout);
  :mod:`assay.subjective.verdicts` reads a judge's reply the way each
  benchmark does, to count the replies no score can be read from.

Pairwise families (a judge compares two models' answers):

* Arena-Hard (:mod:`assay.subjective.arena_hard`): ``arenahard_postprocess``,
  ``arenahard_bradleyterry_postprocess``, ``ArenaHardSummarizer`` (Elo ratings,
  win rate against the base model, bootstrap interval);
* AlpacaEval (:mod:`assay.subjective.alpaca_eval`), CompassArena
  (:mod:`assay.subjective.compassarena`, with its position-bias count),
  WildBench (:mod:`assay.subjective.wildbench`), CompassArena's subjective bench
  pairwise (:mod:`assay.subjective.compass_arena_subjective_bench_pairwise`);
* :mod:`assay.subjective.elo`: the Elo fit, its bootstrap and predicted win rates;
* :mod:`assay.subjective.pairwise`: assay's own statistics beside OpenCompass's numbers —
  seeded bootstrap intervals, position bias of ``infer_order='double'`` judgements,
  unread judge replies — as the ``pairwise`` section of a summary.

Single-score families (a judge rates one model's answer), one module each: the dict
postprocessors their ``LMEvaluator`` hands the judged samples to (registered in
``DICT_POSTPROCESSORS``), the evaluators some name instead (``ICL_EVALUATORS``) and
the summarizers that read ``results/<model>_judged-by--<judge>/`` (``SUMMARIZERS``):
AlignBench, MT-Bench, MT-Bench-101, FoFo, FollowBench, Flames, HelloBench,
JudgerBench, WritingBench, ELBench, CompassArena's subjective bench point-wise
(:mod:`assay.subjective.compass_arena_subjective`), ``CommonSummarizer``,
and ``MultiroundSummarizer``.  ``DefaultSubjectiveSummarizer``, a subjective run's
per-judge summary, is :mod:`assay.summarize`'s.

Each computes what OpenCompass 0.5.4 computes under the same name (its quirks
stated in the docstrings).  Importing this package imports none of its modules:
the registries import the one defining a name asked for, and the single-score
families' names exported here are imported the first time one is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assay._discover import lazy_names

if TYPE_CHECKING:
    from assay.subjective.alignbench import (
        ALL_DIMENSIONS,
        CATEGORIES,
        AlignmentBenchSummarizer,
        alignbench_postprocess,
        capability_scores,
        dimension_scores,
        read_alignbench_rating,
        read_autoj_rating,
        read_judgelm_rating,
    )
    from assay.subjective.common import CommonSummarizer, read_single_rate
    from assay.subjective.compass_arena_subjective import (
        compassarena_subjectiveeval_pointwise_postprocess,
        read_pointwise_score,
    )
    from assay.subjective.elbench import (
        ELBenchChoiceEvaluator,
        ELBenchMathEvaluator,
        elbench_choice_letters,
        elbench_highlevel_edu_postprocess,
        elbench_safety_postprocess,
    )
    from assay.subjective.flames import FlamesSummarizer, read_flames_score
    from assay.subjective.fofo import FofoSummarizer, fofo_postprocess, fofo_scores, read_fofo_verdict
    from assay.subjective.followbench import (
        FollowBenchSummarizer,
        followbench_postprocess,
        followbench_scores,
        read_followbench_verdict,
    )
    from assay.subjective.hellobench import hellobench_postprocess, hellobench_weights, read_hellobench_checklist
    from assay.subjective.judgerbench import JudgerBenchEvaluator, judgerbench_verdict
    from assay.subjective.mtbench import (
        MTBENCH_COLUMNS,
        MTBenchSummarizer,
        mtbench_capability_scores,
        mtbench_postprocess,
        read_mtbench_rating,
    )
    from assay.subjective.mtbench101 import (
        MTBench101Summarizer,
        mtbench101_postprocess,
        mtbench101_task_scores,
        read_mtbench101_rating,
    )
    from assay.subjective.multiround import MULTIROUND_CATEGORIES, MultiroundSummarizer, read_broken_rounds
    from assay.subjective.writingbench import read_writingbench_score, writingbench_postprocess

#: Each module and the names exported here from it.
_WHERE: dict[str, tuple[str, ...]] = {
    "alignbench": (
        "ALL_DIMENSIONS",
        "CATEGORIES",
        "AlignmentBenchSummarizer",
        "alignbench_postprocess",
        "capability_scores",
        "dimension_scores",
        "read_alignbench_rating",
        "read_autoj_rating",
        "read_judgelm_rating",
    ),
    "common": (
        "CommonSummarizer",
        "read_single_rate",
    ),
    "compass_arena_subjective": (
        "compassarena_subjectiveeval_pointwise_postprocess",
        "read_pointwise_score",
    ),
    "elbench": (
        "ELBenchChoiceEvaluator",
        "ELBenchMathEvaluator",
        "elbench_choice_letters",
        "elbench_highlevel_edu_postprocess",
        "elbench_safety_postprocess",
    ),
    "flames": (
        "FlamesSummarizer",
        "read_flames_score",
    ),
    "fofo": (
        "FofoSummarizer",
        "fofo_postprocess",
        "fofo_scores",
        "read_fofo_verdict",
    ),
    "followbench": (
        "FollowBenchSummarizer",
        "followbench_postprocess",
        "followbench_scores",
        "read_followbench_verdict",
    ),
    "hellobench": (
        "hellobench_postprocess",
        "hellobench_weights",
        "read_hellobench_checklist",
    ),
    "judgerbench": (
        "JudgerBenchEvaluator",
        "judgerbench_verdict",
    ),
    "mtbench": (
        "MTBENCH_COLUMNS",
        "MTBenchSummarizer",
        "mtbench_capability_scores",
        "mtbench_postprocess",
        "read_mtbench_rating",
    ),
    "mtbench101": (
        "MTBench101Summarizer",
        "mtbench101_postprocess",
        "mtbench101_task_scores",
        "read_mtbench101_rating",
    ),
    "multiround": (
        "MULTIROUND_CATEGORIES",
        "MultiroundSummarizer",
        "read_broken_rounds",
    ),
    "writingbench": (
        "read_writingbench_score",
        "writingbench_postprocess",
    ),
}

__all__ = [
    "ALL_DIMENSIONS",
    "AlignmentBenchSummarizer",
    "CATEGORIES",
    "CommonSummarizer",
    "ELBenchChoiceEvaluator",
    "ELBenchMathEvaluator",
    "FlamesSummarizer",
    "FofoSummarizer",
    "FollowBenchSummarizer",
    "JudgerBenchEvaluator",
    "MTBENCH_COLUMNS",
    "MTBench101Summarizer",
    "MTBenchSummarizer",
    "MULTIROUND_CATEGORIES",
    "MultiroundSummarizer",
    "alignbench_postprocess",
    "capability_scores",
    "compassarena_subjectiveeval_pointwise_postprocess",
    "dimension_scores",
    "elbench_choice_letters",
    "elbench_highlevel_edu_postprocess",
    "elbench_safety_postprocess",
    "fofo_postprocess",
    "fofo_scores",
    "followbench_postprocess",
    "followbench_scores",
    "hellobench_postprocess",
    "hellobench_weights",
    "judgerbench_verdict",
    "mtbench101_postprocess",
    "mtbench101_task_scores",
    "mtbench_capability_scores",
    "mtbench_postprocess",
    "read_alignbench_rating",
    "read_autoj_rating",
    "read_broken_rounds",
    "read_flames_score",
    "read_fofo_verdict",
    "read_followbench_verdict",
    "read_hellobench_checklist",
    "read_judgelm_rating",
    "read_mtbench101_rating",
    "read_mtbench_rating",
    "read_pointwise_score",
    "read_single_rate",
    "read_writingbench_score",
    "writingbench_postprocess",
]
_getattr = lazy_names(__name__, _WHERE)


def __getattr__(name: str) -> Any:
    return _getattr(name)
