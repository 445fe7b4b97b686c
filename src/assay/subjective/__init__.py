"""OpenCompass's subjective benchmarks: their judges' verdicts read, scored and summarized.

Each module is one family, under OpenCompass 0.5.4's names and computing what
they compute (each says which of OpenCompass's quirks it keeps): the dict
postprocessors the datasets' ``LMEvaluator`` hands the judged samples to
(registered in ``DICT_POSTPROCESSORS``) and the summarizers that read
``results/<model>_judged-by--<judge>/`` (registered in ``SUMMARIZERS``).

Importing this package imports none of its modules: each is imported the
first time one of its names is asked for (or a registry looks it up).
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
    from assay.subjective.default import METRIC_BLACKLIST, METRIC_WHITELIST, DefaultSubjectiveSummarizer
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
    "default": (
        "METRIC_BLACKLIST",
        "METRIC_WHITELIST",
        "DefaultSubjectiveSummarizer",
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
    "DefaultSubjectiveSummarizer",
    "ELBenchChoiceEvaluator",
    "ELBenchMathEvaluator",
    "FlamesSummarizer",
    "FofoSummarizer",
    "FollowBenchSummarizer",
    "JudgerBenchEvaluator",
    "METRIC_BLACKLIST",
    "METRIC_WHITELIST",
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
