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
    from assay.subjective.alignbench import AlignmentBenchSummarizer, alignbench_postprocess
    from assay.subjective.default import DefaultSubjectiveSummarizer
    from assay.subjective.mtbench import MTBenchSummarizer, mtbench_postprocess

#: Each module and the names exported here from it.
_WHERE: dict[str, tuple[str, ...]] = {
    "alignbench": ("AlignmentBenchSummarizer", "alignbench_postprocess"),
    "default": ("DefaultSubjectiveSummarizer",),
    "mtbench": ("MTBenchSummarizer", "mtbench_postprocess"),
}

__all__ = [
    "AlignmentBenchSummarizer",
    "DefaultSubjectiveSummarizer",
    "MTBenchSummarizer",
    "alignbench_postprocess",
    "mtbench_postprocess",
]
_getattr = lazy_names(__name__, _WHERE)


def __getattr__(name: str) -> Any:
    return _getattr(name)
