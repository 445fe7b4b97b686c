"""Small benchmark data in OpenCompass's local layouts, the scoring runs recorded from it, and model replies.

Pure standard library: the recording script (``scripts/record_oc_knowledge.py``,
run with a Python that has opencompass==0.5.4) imports this module to build the
same files the tests build, writes prediction files with OpenCompass's own
output handlers and records OpenCompass's metrics.

* :func:`build_data` writes a family's files under ``<root>/data/...`` exactly
  where OpenCompass's dataset ids point (``opencompass/mmlu`` → ``./data/mmlu/``).
* :data:`RUNS` lists the recorded runs: an OpenCompass config of the family's
  folder, the variable holding its dataset list and the datasets kept.
* :func:`gen_reply` writes a varied model reply for a test row: the letter
  alone, "The answer is (B)", the answer's text, two candidates, think tags,
  an empty reply, a refusal, a wrong answer…
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.benchmarks_oc import families_nlu as _nlu

__all__ = ["EXTRA_LOADERS", "FAMILIES", "RUNS", "Run", "build_data", "clp_probs", "gen_reply", "ppl_choice", "runs_of"]

MODEL_ABBR = "oc-model"


@dataclass(frozen=True)
class Run:
    """One recorded scoring run: a config of OpenCompass's library, the datasets kept."""

    run_id: str
    family: str
    config: str  # path under opencompass/configs/datasets, without .py
    variable: str
    abbrs: tuple[str, ...]
    default: bool = False

    @property
    def module(self) -> str:
        """The config's module under OpenCompass's config library."""
        return "opencompass.configs.datasets." + self.config.replace("/", ".")


MMLU_SUBJECTS = ("college_biology", "abstract_algebra")
MMLU_PRO_CATEGORIES = ("math", "law")
CMMLU_SUBJECTS = ("agronomy", "anatomy")
CEVAL_SUBJECTS = ("computer_network", "operating_system")
BBH_MCQ = ("temporal_sequences", "date_understanding")
BBH_FREE = ("navigate", "word_sorting", "multistep_arithmetic_two", "boolean_expressions", "formal_fallacies", "dyck_languages", "object_counting")
AGIEVAL_SETS = ("gaokao-chinese", "lsat-ar", "jec-qa-kd", "gaokao-physics", "gaokao-mathcloze", "math", "sat-en-without-passage")

_mmlu = tuple(f"lukaemon_mmlu_{s}" for s in MMLU_SUBJECTS)
_cmmlu = tuple(f"cmmlu-{s}" for s in CMMLU_SUBJECTS)
_ceval = tuple(f"ceval-{s}" for s in CEVAL_SUBJECTS)
_bbh = tuple(f"bbh-{s}" for s in BBH_MCQ + BBH_FREE)
_agieval = tuple(f"agieval-{s}" for s in AGIEVAL_SETS)
_mmlu_pro = tuple(f"mmlu_pro_{c}" for c in MMLU_PRO_CATEGORIES)
_wiki = "wikibench-wiki-single_choice_cncircular"
_musr = ("musr_murder_mysteries", "musr_object_placements", "musr_team_allocation")

#: GAOKAO-Bench's files kept: (keyword, folder, question type)
GAOKAO_FILES = (
    ("2010-2022_Math_II_MCQs", "Multiple-choice_Questions", "single_choice"),
    ("2010-2022_Physics_MCQs", "Multiple-choice_Questions", "multi_choice"),
    ("2010-2022_Chinese_Modern_Lit", "Multiple-choice_Questions", "multi_question_choice"),
    ("2012-2022_English_Cloze_Test", "Multiple-choice_Questions", "five_out_of_seven"),
    ("2010-2022_Math_I_Fill-in-the-Blank", "Fill-in-the-blank_Questions", "cloze"),
    ("2010-2022_Geography_Open-ended_Questions", "Open-ended_Questions", "subjective"),
    ("2012-2022_English_Language_Error_Correction", "Open-ended_Questions", "correction"),
)
_gaokao = tuple(f"GaokaoBench_{keyword}" for keyword, _, _ in GAOKAO_FILES)

RUNS: tuple[Run, ...] = (
    Run("mmlu_gen", "mmlu", "mmlu/mmlu_gen", "mmlu_datasets", _mmlu, default=True),
    Run("mmlu_ppl", "mmlu", "mmlu/mmlu_ppl", "mmlu_datasets", _mmlu),
    Run("mmlu_gen_4d595a", "mmlu", "mmlu/mmlu_gen_4d595a", "mmlu_datasets", _mmlu),
    Run("mmlu_clean_ppl", "mmlu", "mmlu/mmlu_clean_ppl", "mmlu_datasets", _mmlu),
    Run("mmlu_pro_gen", "mmlu_pro", "mmlu_pro/mmlu_pro_gen", "mmlu_pro_datasets", _mmlu_pro, default=True),
    Run("mmlu_pro_few_shot_gen_bfaf90", "mmlu_pro", "mmlu_pro/mmlu_pro_few_shot_gen_bfaf90", "mmlu_pro_datasets", _mmlu_pro),
    Run("cmmlu_gen", "cmmlu", "cmmlu/cmmlu_gen", "cmmlu_datasets", _cmmlu, default=True),
    Run("cmmlu_ppl", "cmmlu", "cmmlu/cmmlu_ppl", "cmmlu_datasets", _cmmlu),
    Run("cmmlu_0shot_cot_gen_305931", "cmmlu", "cmmlu/cmmlu_0shot_cot_gen_305931", "cmmlu_datasets", _cmmlu),
    Run("ceval_gen", "ceval", "ceval/ceval_gen", "ceval_datasets", _ceval, default=True),
    Run("ceval_ppl", "ceval", "ceval/ceval_ppl", "ceval_datasets", _ceval),
    Run("ceval_clean_ppl", "ceval", "ceval/ceval_clean_ppl", "ceval_datasets", _ceval),
    Run("gpqa_gen", "gpqa", "gpqa/gpqa_gen", "gpqa_datasets", ("GPQA_diamond",), default=True),
    Run("gpqa_ppl_6bf57a", "gpqa", "gpqa/gpqa_ppl_6bf57a", "gpqa_datasets", ("GPQA_diamond",)),
    Run("gpqa_0shot_nocot_gen_772ea0", "gpqa", "gpqa/gpqa_0shot_nocot_gen_772ea0", "gpqa_datasets", ("GPQA_diamond",)),
    Run("gpqa_gen_4baadb", "gpqa", "gpqa/gpqa_gen_4baadb", "gpqa_datasets", ("GPQA_diamond",)),
    Run("bbh_gen", "bbh", "bbh/bbh_gen", "bbh_datasets", _bbh, default=True),
    Run("bbh_0shot_nocot_gen_925fc4", "bbh", "bbh/bbh_0shot_nocot_gen_925fc4", "bbh_datasets", _bbh),
    Run("ARC_c_gen", "ARC_c", "ARC_c/ARC_c_gen", "ARC_c_datasets", ("ARC-c",), default=True),
    Run("ARC_c_ppl", "ARC_c", "ARC_c/ARC_c_ppl", "ARC_c_datasets", ("ARC-c",)),
    Run("ARC_c_clean_ppl", "ARC_c", "ARC_c/ARC_c_clean_ppl", "ARC_c_datasets", ("ARC-c-test",)),
    Run("ARC_e_gen", "ARC_e", "ARC_e/ARC_e_gen", "ARC_e_datasets", ("ARC-e",), default=True),
    Run("ARC_e_ppl", "ARC_e", "ARC_e/ARC_e_ppl", "ARC_e_datasets", ("ARC-e",)),
    Run("hellaswag_gen", "hellaswag", "hellaswag/hellaswag_gen", "hellaswag_datasets", ("hellaswag",), default=True),
    Run("hellaswag_ppl", "hellaswag", "hellaswag/hellaswag_ppl", "hellaswag_datasets", ("hellaswag",)),
    Run("hellaswag_gen_6faab5", "hellaswag", "hellaswag/hellaswag_gen_6faab5", "hellaswag_datasets", ("hellaswag",)),
    Run("hellaswag_ppl_a6e128", "hellaswag", "hellaswag/hellaswag_ppl_a6e128", "hellaswag_datasets", ("hellaswag",)),
    Run("hellaswag_clean_ppl", "hellaswag", "hellaswag/hellaswag_clean_ppl", "hellaswag_datasets", ("hellaswag",)),
    Run("winogrande_gen", "winogrande", "winogrande/winogrande_gen", "winogrande_datasets", ("winogrande",), default=True),
    Run("winogrande_ll", "winogrande", "winogrande/winogrande_ll", "winogrande_datasets", ("winogrande",)),
    Run("winogrande_5shot_ll_252f01", "winogrande", "winogrande/winogrande_5shot_ll_252f01", "winogrande_datasets", ("winogrande",)),
    Run("race_gen", "race", "race/race_gen", "race_datasets", ("race-middle", "race-high"), default=True),
    Run("race_ppl", "race", "race/race_ppl", "race_datasets", ("race-middle", "race-high")),
    Run("commonsenseqa_gen", "commonsenseqa", "commonsenseqa/commonsenseqa_gen", "commonsenseqa_datasets", ("commonsense_qa",), default=True),
    Run("commonsenseqa_ppl", "commonsenseqa", "commonsenseqa/commonsenseqa_ppl", "commonsenseqa_datasets", ("commonsense_qa",)),
    Run("piqa_gen", "piqa", "piqa/piqa_gen", "piqa_datasets", ("piqa",), default=True),
    Run("piqa_ppl", "piqa", "piqa/piqa_ppl", "piqa_datasets", ("piqa",)),
    Run("piqa_ppl_0cfff2", "piqa", "piqa/piqa_ppl_0cfff2", "piqa_datasets", ("piqa",)),
    Run("siqa_gen", "siqa", "siqa/siqa_gen", "siqa_datasets", ("siqa",), default=True),
    Run("siqa_ppl", "siqa", "siqa/siqa_ppl", "siqa_datasets", ("siqa",)),
    Run("siqa_gen_e78df3", "siqa", "siqa/siqa_gen_e78df3", "siqa_datasets", ("siqa",)),
    Run("SuperGLUE_BoolQ_gen", "SuperGLUE_BoolQ", "SuperGLUE_BoolQ/SuperGLUE_BoolQ_gen", "BoolQ_datasets", ("BoolQ",), default=True),
    Run("SuperGLUE_BoolQ_ppl", "SuperGLUE_BoolQ", "SuperGLUE_BoolQ/SuperGLUE_BoolQ_ppl", "BoolQ_datasets", ("BoolQ",)),
    Run("SuperGLUE_BoolQ_ppl_314797", "SuperGLUE_BoolQ", "SuperGLUE_BoolQ/SuperGLUE_BoolQ_ppl_314797", "BoolQ_datasets", ("BoolQ",)),
    Run("agieval_gen", "agieval", "agieval/agieval_gen", "agieval_datasets", _agieval, default=True),
    Run("agieval_mixed", "agieval", "agieval/agieval_mixed", "agieval_datasets", _agieval),
    Run("agieval_gen_a0c741", "agieval", "agieval/agieval_gen_a0c741", "agieval_datasets", _agieval),
    # more variants: each differs from the runs above in its loader, evaluator, postprocessor or inferencer
    Run("mmlu_gen_23a9a9", "mmlu", "mmlu/mmlu_gen_23a9a9", "mmlu_datasets", _mmlu),
    Run("mmlu_gen_a484b3", "mmlu", "mmlu/mmlu_gen_a484b3", "mmlu_datasets", _mmlu),
    Run("mmlu_pro_gen_cdbebf", "mmlu_pro", "mmlu_pro/mmlu_pro_gen_cdbebf", "mmlu_pro_datasets", _mmlu_pro),
    Run("cmmlu_gen_c13365", "cmmlu", "cmmlu/cmmlu_gen_c13365", "cmmlu_datasets", _cmmlu),
    Run("cmmlu_ppl_041cbf", "cmmlu", "cmmlu/cmmlu_ppl_041cbf", "cmmlu_datasets", _cmmlu),
    Run("ceval_gen_2daf24", "ceval", "ceval/ceval_gen_2daf24", "ceval_datasets", _ceval),
    Run("ceval_internal_ppl_1cd8bf", "ceval", "ceval/ceval_internal_ppl_1cd8bf", "ceval_datasets", _ceval),
    Run("ceval_internal_ppl_93e5ce", "ceval", "ceval/ceval_internal_ppl_93e5ce", "ceval_datasets", _ceval + tuple(f"ceval-test-{s}" for s in CEVAL_SUBJECTS)),
    Run("ceval_zero_shot_gen_bd40ef", "ceval", "ceval/ceval_zero_shot_gen_bd40ef", "ceval_datasets", _ceval),
    Run("gpqa_few_shot_ppl_4b5a83", "gpqa", "gpqa/gpqa_few_shot_ppl_4b5a83", "gpqa_datasets", ("GPQA_diamond",)),
    Run("ARC_c_few_shot_gen_e9b043", "ARC_c", "ARC_c/ARC_c_few_shot_gen_e9b043", "ARC_c_datasets", ("ARC-c",)),
    Run("hellaswag_10shot_ppl_59c85e", "hellaswag", "hellaswag/hellaswag_10shot_ppl_59c85e", "hellaswag_datasets", ("hellaswag",)),
    Run("hellaswag_ppl_7d7f2d", "hellaswag", "hellaswag/hellaswag_ppl_7d7f2d", "hellaswag_datasets", ("hellaswag",)),
    Run("deprecated_winogrande_gen_a9ede5", "winogrande", "winogrande/deprecated_winogrande_gen_a9ede5", "winogrande_datasets", ("winogrande",)),
    Run("winogrande_5shot_gen_6447e6", "winogrande", "winogrande/winogrande_5shot_gen_6447e6", "winogrande_datasets", ("winogrande",)),
    Run("winogrande_5shot_gen_b36770", "winogrande", "winogrande/winogrande_5shot_gen_b36770", "winogrande_datasets", ("winogrande",)),
    Run("winogrande_ppl_55a66e", "winogrande", "winogrande/winogrande_ppl_55a66e", "winogrande_datasets", ("winogrande",)),
    Run("race_cot_gen_d95929", "race", "race/race_cot_gen_d95929", "race_datasets", ("race-middle", "race-high")),
    Run("race_few_shot_gen_a498ed", "race", "race/race_few_shot_gen_a498ed", "race_datasets", ("race-middle", "race-high")),
    Run("race_ppl_abed12", "race", "race/race_ppl_abed12", "race_datasets", ("race-middle", "race-high")),
    Run("commonsenseqa_7shot_cot_gen_734a22", "commonsenseqa", "commonsenseqa/commonsenseqa_7shot_cot_gen_734a22", "commonsenseqa_datasets", ("commonsense_qa",)),
    Run("SuperGLUE_BoolQ_cot_gen_1d56df", "SuperGLUE_BoolQ", "SuperGLUE_BoolQ/SuperGLUE_BoolQ_cot_gen_1d56df", "BoolQ_datasets", ("BoolQ",)),
    Run("SuperGLUE_BoolQ_few_shot_ppl", "SuperGLUE_BoolQ", "SuperGLUE_BoolQ/SuperGLUE_BoolQ_few_shot_ppl", "BoolQ_datasets", ("BoolQ",)),
    Run("agieval_gen_d3b941", "agieval", "agieval/agieval_gen_d3b941", "agieval_datasets", _agieval),
    # CLUE, FewCLUE, GLUE, SuperGLUE, SummEdits: HFDataset's PPL configs and the label loaders' gen configs
    Run("CLUE_afqmc_gen", "CLUE_afqmc", "CLUE_afqmc/CLUE_afqmc_gen_901306", "afqmc_datasets", ("afqmc-dev",), default=True),
    Run("CLUE_afqmc_ppl_378c5b", "CLUE_afqmc", "CLUE_afqmc/CLUE_afqmc_ppl_378c5b", "afqmc_datasets", ("afqmc-dev",)),
    Run("CLUE_ocnli_gen", "CLUE_ocnli", "CLUE_ocnli/CLUE_ocnli_gen_c4cb6c", "ocnli_datasets", ("ocnli",), default=True),
    Run("CLUE_ocnli_ppl_fdc6de", "CLUE_ocnli", "CLUE_ocnli/CLUE_ocnli_ppl_fdc6de", "ocnli_datasets", ("ocnli",)),
    Run("CLUE_cmnli_gen", "CLUE_cmnli", "CLUE_cmnli/CLUE_cmnli_gen_1abf97", "cmnli_datasets", ("cmnli",), default=True),
    Run("CLUE_cmnli_ppl_fdc6de", "CLUE_cmnli", "CLUE_cmnli/CLUE_cmnli_ppl_fdc6de", "cmnli_datasets", ("cmnli",)),
    Run("FewCLUE_bustm_gen", "FewCLUE_bustm", "FewCLUE_bustm/FewCLUE_bustm_gen_634f41", "bustm_datasets", ("bustm-dev", "bustm-test"), default=True),
    Run("FewCLUE_bustm_ppl_e53034", "FewCLUE_bustm", "FewCLUE_bustm/FewCLUE_bustm_ppl_e53034", "bustm_datasets", ("bustm-dev", "bustm-test")),
    Run("FewCLUE_eprstmt_gen", "FewCLUE_eprstmt", "FewCLUE_eprstmt/FewCLUE_eprstmt_gen_740ea0", "eprstmt_datasets", ("eprstmt-dev", "eprstmt-test"), default=True),
    Run("FewCLUE_eprstmt_ppl_f1e631", "FewCLUE_eprstmt", "FewCLUE_eprstmt/FewCLUE_eprstmt_ppl_f1e631", "eprstmt_datasets", ("eprstmt-dev", "eprstmt-test")),
    Run("FewCLUE_ocnli_fc_gen", "FewCLUE_ocnli_fc", "FewCLUE_ocnli_fc/FewCLUE_ocnli_fc_gen_f97a97", "ocnli_fc_datasets", ("ocnli_fc-dev", "ocnli_fc-test"), default=True),
    Run("FewCLUE_ocnli_fc_ppl_c08300", "FewCLUE_ocnli_fc", "FewCLUE_ocnli_fc/FewCLUE_ocnli_fc_ppl_c08300", "ocnli_fc_datasets", ("ocnli_fc-dev", "ocnli_fc-test")),
    Run("GLUE_CoLA_ppl", "GLUE", "GLUE_CoLA/GLUE_CoLA_ppl_77d0df", "CoLA_datasets", ("CoLA-validation",), default=True),
    Run("GLUE_MRPC_ppl", "GLUE", "GLUE_MRPC/GLUE_MRPC_ppl_96564c", "MRPC_datasets", ("MRPC-validation", "MRPC-test")),
    Run("GLUE_QQP_ppl", "GLUE", "GLUE_QQP/GLUE_QQP_ppl_250d00", "QQP_datasets", ("QQP-validation", "QQP-test")),
    Run("SuperGLUE_AX_b_gen", "SuperGLUE", "SuperGLUE_AX_b/SuperGLUE_AX_b_gen_4dfefa", "AX_b_datasets", ("AX_b",), default=True),
    Run("SuperGLUE_AX_b_ppl_6db806", "SuperGLUE", "SuperGLUE_AX_b/SuperGLUE_AX_b_ppl_6db806", "AX_b_datasets", ("AX_b",)),
    Run("SuperGLUE_AX_g_gen", "SuperGLUE", "SuperGLUE_AX_g/SuperGLUE_AX_g_gen_68aac7", "AX_g_datasets", ("AX_g",)),
    Run("SuperGLUE_AX_g_ppl_66caf3", "SuperGLUE", "SuperGLUE_AX_g/SuperGLUE_AX_g_ppl_66caf3", "AX_g_datasets", ("AX_g",)),
    Run("SuperGLUE_RTE_gen", "SuperGLUE", "SuperGLUE_RTE/SuperGLUE_RTE_gen_68aac7", "RTE_datasets", ("RTE",)),
    Run("SuperGLUE_RTE_ppl_66caf3", "SuperGLUE", "SuperGLUE_RTE/SuperGLUE_RTE_ppl_66caf3", "RTE_datasets", ("RTE",)),
    Run("SuperGLUE_CB_gen", "SuperGLUE", "SuperGLUE_CB/SuperGLUE_CB_gen_854c6c", "CB_datasets", ("CB",)),
    Run("SuperGLUE_CB_ppl_11c175", "SuperGLUE", "SuperGLUE_CB/SuperGLUE_CB_ppl_11c175", "CB_datasets", ("CB",)),
    Run("SuperGLUE_COPA_gen", "SuperGLUE", "SuperGLUE_COPA/SuperGLUE_COPA_gen_91ca53", "COPA_datasets", ("COPA",)),
    Run("SuperGLUE_COPA_ppl_9f3618", "SuperGLUE", "SuperGLUE_COPA/SuperGLUE_COPA_ppl_9f3618", "COPA_datasets", ("COPA",)),
    Run("summedits_gen", "summedits", "summedits/summedits_gen_315438", "summedits_datasets", ("summedits",), default=True),
    Run("summedits_ppl_3c30d0", "summedits", "summedits/summedits_ppl_3c30d0", "summedits_datasets", ("summedits",)),
    # CMRC and DRCD: extractive QA in SQuAD's layout, EMEvaluator, with and without their postprocessor
    Run("CLUE_CMRC_gen", "CLUE_CMRC", "CLUE_CMRC/CLUE_CMRC_gen", "CMRC_datasets", ("CMRC_dev",), default=True),
    Run("CLUE_CMRC_gen_3749cd", "CLUE_CMRC", "CLUE_CMRC/CLUE_CMRC_gen_3749cd", "CMRC_datasets", ("CMRC_dev",)),
    Run("CLUE_DRCD_gen", "CLUE_DRCD", "CLUE_DRCD/CLUE_DRCD_gen", "DRCD_datasets", ("DRCD_dev",), default=True),
    Run("CLUE_DRCD_gen_8484b9", "CLUE_DRCD", "CLUE_DRCD/CLUE_DRCD_gen_8484b9", "DRCD_datasets", ("DRCD_dev",)),
    # GAOKAO-Bench: one file of each question type
    Run("GaokaoBench_no_subjective_gen_4c31db", "GaokaoBench", "GaokaoBench/GaokaoBench_no_subjective_gen_4c31db", "GaokaoBench_datasets", _gaokao[:5], default=True),
    Run("GaokaoBench_gen", "GaokaoBench", "GaokaoBench/GaokaoBench_gen", "GaokaoBench_datasets", _gaokao),
    Run("GaokaoBench_mixed", "GaokaoBench", "GaokaoBench/GaokaoBench_mixed", "GaokaoBench_datasets", _gaokao[:3]),
    Run("FewCLUE_tnews_gen", "FewCLUE_tnews", "FewCLUE_tnews/FewCLUE_tnews_gen_b90e4a", "tnews_datasets", ("tnews-dev", "tnews-test"), default=True),
    Run("FewCLUE_tnews_ppl_d10e8a", "FewCLUE_tnews", "FewCLUE_tnews/FewCLUE_tnews_ppl_d10e8a", "tnews_datasets", ("tnews-dev", "tnews-test")),
    Run("FewCLUE_cluewsc_gen", "FewCLUE_cluewsc", "FewCLUE_cluewsc/FewCLUE_cluewsc_gen_c68933", "cluewsc_datasets", ("cluewsc-dev", "cluewsc-test"), default=True),
    Run("FewCLUE_cluewsc_ppl_868415", "FewCLUE_cluewsc", "FewCLUE_cluewsc/FewCLUE_cluewsc_ppl_868415", "cluewsc_datasets", ("cluewsc-dev", "cluewsc-test")),
    Run("FewCLUE_csl_gen", "FewCLUE_csl", "FewCLUE_csl/FewCLUE_csl_gen_28b223", "csl_datasets", ("csl_dev", "csl_test"), default=True),
    Run("FewCLUE_csl_ppl_841b62", "FewCLUE_csl", "FewCLUE_csl/FewCLUE_csl_ppl_841b62", "csl_datasets", ("csl_dev", "csl_test")),
    Run("SuperGLUE_WiC_gen", "SuperGLUE_WiC", "SuperGLUE_WiC/SuperGLUE_WiC_gen_d06864", "WiC_datasets", ("WiC",), default=True),
    Run("SuperGLUE_WiC_ppl_312de9", "SuperGLUE_WiC", "SuperGLUE_WiC/SuperGLUE_WiC_ppl_312de9", "WiC_datasets", ("WiC",)),
    # AdvGLUE: the attacked examples, then their originals; AccDropEvaluator
    Run("adv_glue_sst2_gen", "adv_glue", "adv_glue/adv_glue_sst2/adv_glue_sst2_gen_ee8d3b", "adv_sst2_datasets", ("adv_sst2",), default=True),
    Run("adv_glue_qqp_gen", "adv_glue", "adv_glue/adv_glue_qqp/adv_glue_qqp_gen_cdc277", "adv_qqp_datasets", ("adv_qqp",)),
    Run("adv_glue_mnli_gen", "adv_glue", "adv_glue/adv_glue_mnli/adv_glue_mnli_gen_bd8ef0", "adv_mnli_datasets", ("adv_mnli",)),
    Run("adv_glue_mnli_mm_gen", "adv_glue", "adv_glue/adv_glue_mnli_mm/adv_glue_mnli_mm_gen_bd8ef0", "adv_mnli_mm_datasets", ("adv_mnli_mm",)),
    Run("adv_glue_qnli_gen", "adv_glue", "adv_glue/adv_glue_qnli/adv_glue_qnli_gen_0b7326", "adv_qnli_datasets", ("adv_qnli",)),
    Run("adv_glue_rte_gen", "adv_glue", "adv_glue/adv_glue_rte/adv_glue_rte_gen_8cc547", "adv_rte_datasets", ("adv_rte",)),
    Run("musr_gen", "musr", "musr/musr_gen", "musr_datasets", _musr, default=True),
    Run("musr_gen_3622bb", "musr", "musr/musr_gen_3622bb", "musr_datasets", _musr),
    Run("musr_gen_3c6e15", "musr", "musr/musr_gen_3c6e15", "musr_datasets", _musr),
    Run("obqa_gen", "obqa", "obqa/obqa_gen", "obqa_datasets", ("openbookqa", "openbookqa_fact"), default=True),
    Run("obqa_ppl", "obqa", "obqa/obqa_ppl", "obqa_datasets", ("openbookqa", "openbookqa_fact")),
    Run("obqa_ppl_1defe8", "obqa", "obqa/obqa_ppl_1defe8", "obqa_datasets", ("openbookqa", "openbookqa_fact")),
    Run("obqa_ppl_6aac9e", "obqa", "obqa/obqa_ppl_6aac9e", "obqa_datasets", ("openbookqa_fact",)),
    Run("wikibench_gen", "wikibench", "wikibench/wikibench_gen_f96ece", "wikibench_datasets", (_wiki,), default=True),
    Run("Earth_Silver_gen", "Earth_Silver", "Earth_Silver/Earth_Silver_gen", "earth_silver_mcq_datasets", ("earth_silver_mcq",), default=True),
    Run("wikibench_gen_0978ad", "wikibench", "wikibench/wikibench_gen_0978ad", "wikibench_datasets", (_wiki,)),
)

# the NLU families' runs, data and replies live in their own module
RUNS += tuple(Run(run_id, family, config, variable, abbrs, default=default)
              for run_id, family, config, variable, abbrs, default in _nlu.RUN_SPECS)

FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(r.family for r in RUNS))

#: Loaders no config of the library names, recorded on their own: (family, loader, keyword arguments).
EXTRA_LOADERS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("gpqa", "GPQASimpleEvalDataset", {"path": "./data/gpqa/", "name": "gpqa_diamond.csv"}),
    *_nlu.EXTRA_LOADERS,
)
clp_probs = _nlu.clp_probs


def runs_of(family: str) -> list[Run]:
    """The recorded runs of one family, the default config first."""
    return sorted((r for r in RUNS if r.family == family), key=lambda r: not r.default)


# -- text pools ------------------------------------------------------------------------------

_EN = (
    "mitochondria", "the ribosome", "Golgi apparatus", "a lysosome", "42", "3.5 m/s", "Paris",
    "photosynthesis", "Newton's second law", "the Treaty of Versailles", "x = 2", "an isotope",
    "ionic bonding", "Kepler", "osmosis", "entropy", "a prime number", "the Krebs cycle",
    "DNA polymerase", "Avogadro's number", "Beethoven", "supply and demand", "a sonnet",
    "tectonic plates", "It increases. Then it stops", "none of the above", "both A and B", "0",
    "the second one", "velocity", "Z", "it depends on the temperature",
)
_ZH = (
    "光合作用", "细胞核", "线粒体", "牛顿第二定律", "北京", "唐朝", "氧化还原反应", "勾股定理", "长江",
    "孔子", "供求关系", "二氧化碳", "TCP协议", "进程调度", "死锁", "虚拟内存", "IP地址", "以上都不对",
    "A和B", "水稻", "土壤酸化", "骨骼肌", "心脏", "氮肥",
)


def _pick(pool: tuple[str, ...], seed: int, k: int) -> list[str]:
    """``k`` distinct entries of ``pool`` chosen deterministically from ``seed``."""
    out: list[str] = []
    i = seed * 7 + 3
    while len(out) < k:
        word = pool[i % len(pool)]
        if word not in out:
            out.append(word)
        i += 5
    return out


def _seed(text: str) -> int:
    return zlib.crc32(text.encode("utf-8")) % 1000


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _jsonl(rows: list[Any]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def _csv(rows: list[list[str]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def _mc(tag: str, n: int, letters: str = "ABCD", zh: bool = False) -> list[tuple[str, list[str], str]]:
    """``n`` multiple-choice items ``(question, options, gold letter)``."""
    pool = _ZH if zh else _EN
    items = []
    for i in range(n):
        seed = _seed(f"{tag}-{i}")
        options = _pick(pool, seed, len(letters))
        gold = letters[(seed + i) % len(letters)]
        q = f"{tag} 第{i + 1}题：下列哪一项正确？" if zh else f"{tag} question {i + 1}: which of the following is correct?"
        items.append((q, options, gold))
    return items


N = 13  # test rows per dataset: one per reply style


# -- builders, one per family -------------------------------------------------------------------

def _build_mmlu(root: Path) -> None:
    for k, name in enumerate(MMLU_SUBJECTS):
        for split, n in (("dev", 5), ("test", N + 4 * k)):
            rows = [[q, *opts, gold] for q, opts, gold in _mc(f"{name}-{split}", n)]
            if split == "test":
                rows[3][0] = 'A quoted "question", with a comma\nand a line break'
            _write(root, f"data/mmlu/{split}/{name}_{split}.csv", _csv(rows))
        # the second subject has no input-and-label contaminated question: OpenCompass's accuracy is NaN there
        labels = ["clean", "input contamination", "input-and-label contamination"][: 3 - k]
        notes = {f"{name} {i}": [labels[i % len(labels)], "note"] for i in range(N + 4 * k) if i % 5 != 4}
        _write(root, "data/mmlu/test/MMLU_test_contamination_annotations.json", json.dumps({**_existing(root, "data/mmlu/test/MMLU_test_contamination_annotations.json"), **notes}))


def _existing(root: Path, rel: str) -> dict[str, Any]:
    path = root / rel
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _build_mmlu_pro(root: Path) -> None:
    import_rows = []
    letters = "ABCDEFGHIJ"
    qid = 0
    for split, n in (("validation", 3), ("test", N)):
        for k, category in enumerate((*MMLU_PRO_CATEGORIES, "biology")):
            for i, (q, opts, gold) in enumerate(_mc(f"{category}-{split}", n + (4 * k if split == "test" else 0), letters)):
                if i == 2:
                    opts[letters.index(gold)] = "It rises. Then it falls"  # an option holding '. '
                if i == 4:
                    opts[-1] = "N/A"
                    if gold == "J":
                        gold = "I"
                cot = f"A: Let's think step by step. We consider {opts[0]}. The answer is ({gold})." if split == "validation" else ""
                import_rows.append(
                    {
                        "question_id": qid, "question": q, "options": opts, "answer": gold,
                        "answer_index": letters.index(gold), "cot_content": cot, "category": category,
                        "src": f"ori_mmlu-{category}", "split": split,
                    }
                )
                qid += 1
    # the HF layout: data/<split>-00000-of-00001.parquet, written by the recorder (needs pyarrow); a
    # JSON Lines copy per split is what this builder writes
    for split in ("validation", "test"):
        rows = [{k: v for k, v in r.items() if k != "split"} for r in import_rows if r["split"] == split]
        _write(root, f"data/mmlu_pro/data/{split}-00000-of-00001.jsonl", _jsonl(rows))


def _build_cmmlu(root: Path) -> None:
    header = ["", "Question", "A", "B", "C", "D", "Answer"]
    for k, name in enumerate(CMMLU_SUBJECTS):
        for split, n in (("dev", 5), ("test", N + 4 * k)):
            rows = [header] + [[str(i), q, *opts, gold] for i, (q, opts, gold) in enumerate(_mc(f"{name}-{split}", n, zh=True))]
            _write(root, f"data/cmmlu/{split}/{name}.csv", _csv(rows))


def _build_ceval(root: Path) -> None:
    base = "data/ceval/formal_ceval"
    notes: dict[str, Any] = {}
    labels = ["clean", "input contamination", "input-and-label contamination"]
    for k, name in enumerate(CEVAL_SUBJECTS):
        for split, n in (("dev", 5), ("val", N + 4 * k), ("test", 4)):
            header = ["id", "question", "A", "B", "C", "D"]
            if split != "test":
                header.append("answer")
            if split == "dev":
                header.append("explanation")
            rows: list[list[str]] = [header]
            for i, (q, opts, gold) in enumerate(_mc(f"{name}-{split}", n, zh=True)):
                row = [str(i), q, *opts]
                if split != "test":
                    row.append(gold)
                if split == "dev":
                    row.append(f"1. 分析选项{gold}。")
                rows.append(row)
            _write(root, f"{base}/{split}/{name}_{split}.csv", _csv(rows))
        notes.update({f"{name}-{i}": [labels[i % 3], 0.5] for i in range(N + 4 * k) if i % 5 != 4})
    _write(root, f"{base}/val/ceval_contamination_annotations.json", json.dumps(notes))
    # the "internal" configs read the same layout from ./data/ceval_internal/formal_ceval, in local mode
    import shutil

    shutil.copytree(root / base, root / "data/ceval_internal/formal_ceval", dirs_exist_ok=True)


def _build_gpqa(root: Path) -> None:
    header = [
        "Pre-Revision Question", "Pre-Revision Correct Answer", "Pre-Revision Incorrect Answer 1",
        "Pre-Revision Incorrect Answer 2", "Pre-Revision Incorrect Answer 3", "Pre-Revision Explanation",
        "Self-reported question-writing time (minutes)", "Question", "Correct Answer", "Incorrect Answer 1",
        "Incorrect Answer 2", "Incorrect Answer 3", "Explanation",
    ]
    rows: list[list[str]] = [header]
    for i in range(N):
        opts = _pick(_EN, _seed(f"gpqa-{i}"), 4)
        q = f"GPQA question {i + 1}: which option holds?"
        rows.append([q, *opts, "why", "10", q, *opts, "because"])
    _write(root, "data/gpqa/gpqa_diamond.csv", _csv(rows))


_BBH_FREE_TARGETS = {
    "navigate": ["Yes", "No"],
    "boolean_expressions": ["True", "False"],
    "formal_fallacies": ["valid", "invalid"],
    "multistep_arithmetic_two": ["-37", "24", "0", "1,024"],
    "object_counting": ["7", "12"],
    "word_sorting": ["apple banana cherry", "dog elephant", "kiwi lemon mango nectarine"],
    "dyck_languages": [") ]", "} ) >", "]"],
}


def _build_bbh(root: Path) -> None:
    for name in BBH_MCQ:
        examples = []
        for i in range(N):
            opts = _pick(_EN, _seed(f"{name}-{i}"), 4)
            gold = "ABCD"[(i * 3 + len(name)) % 4]
            text = "\n".join(f"({L}) {o}" for L, o in zip("ABCD", opts))
            examples.append({"input": f"{name} task {i + 1}.\nOptions:\n{text}", "target": f"({gold})"})
        _write(root, f"data/BBH/data/{name}.json", json.dumps({"canary": "BENCHMARK DATA", "examples": examples}, indent=2))
    for name in BBH_FREE:
        targets = _BBH_FREE_TARGETS[name]
        examples = [{"input": f"{name} task {i + 1}: answer it.", "target": targets[i % len(targets)]} for i in range(N)]
        _write(root, f"data/BBH/data/{name}.json", json.dumps({"examples": examples}, indent=2))


def _arc_rows(tag: str) -> list[dict[str, Any]]:
    rows = []
    for i, (q, opts, gold) in enumerate(_mc(tag, N + 2)):
        labels = list("1234") if i % 5 == 1 else list("ABCD")
        if i == N:  # three choices: OpenCompass skips the question
            opts, labels = opts[:3], labels[:3]
            gold = "A"
        if i == N + 1:  # five choices: skipped too
            opts, labels = [*opts, "a fifth"], [*labels, "E"]
        choices = [{"text": t, "label": lab} for t, lab in zip(opts, labels)]
        answer = labels["ABCD".index(gold)]
        rows.append({"id": f"{tag}_{i}", "question": {"stem": q, "choices": choices}, "answerKey": answer})
    rows.insert(4, rows.pop(N))  # a skipped question in the middle of the file
    return rows


def _build_arc(root: Path, which: str) -> None:
    if which == "c":
        _write(root, "data/ARC/ARC-c/ARC-Challenge-Dev.jsonl", _jsonl(_arc_rows("ARC-Challenge-Dev")))
        test = _arc_rows("ARC-Challenge-Test")
        _write(root, "data/ARC/ARC-c/ARC-Challenge-Test.jsonl", _jsonl(test))
        labels = ["clean", "input contamination", "input-and-label contamination"]
        notes = {row["id"]: [labels[i % 3], []] for i, row in enumerate(test) if i % 4 != 2}
        _write(root, "data/ARC/ARC-c/ARC_c_test_contamination_annotations.json", json.dumps(notes))
    else:
        _write(root, "data/ARC/ARC-e/ARC-Easy-Dev.jsonl", _jsonl(_arc_rows("ARC-Easy-Dev")))


def _hellaswag_rows(tag: str, n: int) -> list[dict[str, Any]]:
    rows = []
    for i, (q, opts, gold) in enumerate(_mc(tag, n)):
        ctx = f"Cooking: {q.replace('question', 'scene')} Then the person" if i % 3 else f"{q}: the person"
        rows.append({"ind": i, "query": f"Home and Garden: {ctx}", "choices": opts, "gold": "ABCD".index(gold), "label": gold})
    return rows


def _build_hellaswag(root: Path) -> None:
    rows = _hellaswag_rows("hellaswag", N)
    _write(root, "data/hellaswag/hellaswag.jsonl", _jsonl(rows))
    _write(root, "data/hellaswag/hellaswag_train_sampled25.jsonl", _jsonl(_hellaswag_rows("hellaswag-train", 10)))
    labels = ["clean", "input contamination", "input-and-label contamination"]
    notes = {str(i): [labels[i % 3]] for i in range(N) if i % 4 != 1}
    _write(root, "data/hellaswag/hellaswag_val_contamination_annotations.json", json.dumps(notes))


def _winogrande_rows(tag: str, n: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        a, b = _pick(_EN, _seed(f"{tag}-{i}"), 2)
        rows.append(
            {
                "qID": f"{tag}-{i}", "sentence": f"Sam preferred {a} to {b} because _ was easier to explain.",
                "option1": a, "option2": b, "answer": "" if (tag == "dev" and i == 5) else str(1 + (i % 2)),
            }
        )
    return rows


def _build_winogrande(root: Path) -> None:
    _write(root, "data/winogrande/dev.jsonl", _jsonl(_winogrande_rows("dev", N)))
    _write(root, "data/winogrande/train_xs.jsonl", _jsonl(_winogrande_rows("train", 10)))


def _build_race(root: Path) -> None:
    for k, level in enumerate(("middle", "high")):
        for split in ("validation", "test"):
            rows = []
            for i, (q, opts, gold) in enumerate(_mc(f"race-{level}-{split}", N + 4 * k)):
                rows.append({"example_id": f"{level}{i}.txt", "article": f"Article {i} about {opts[0]}.", "question": q, "options": opts, "answer": gold})
            _write(root, f"data/race/{split}/{level}.jsonl", _jsonl(rows))


def _build_commonsenseqa(root: Path) -> None:
    for stub, n in (("train_rand_split.jsonl", 8), ("dev_rand_split.jsonl", N)):
        rows = []
        for i, (q, opts, gold) in enumerate(_mc(stub, n, "ABCDE")):
            rows.append(
                {
                    "answerKey": gold, "id": f"{stub}-{i}",
                    "question": {"question_concept": "thing", "choices": [{"label": L, "text": t} for L, t in zip("ABCDE", opts)], "stem": q},
                }
            )
        _write(root, f"data/commonsenseqa/{stub}", _jsonl(rows))


def _build_piqa(root: Path) -> None:
    for split, n in (("train", 6), ("dev", N)):
        rows, labels = [], []
        for i in range(n):
            a, b = _pick(_EN, _seed(f"piqa-{split}-{i}"), 2)
            goal = f"how do I use {a}?" if i % 2 else f"to make tea with {a}"
            rows.append({"id": f"{split}-{i}", "goal": goal, "sol1": f"use {a} gently", "sol2": f"Use {b} quickly"})
            labels.append(str(i % 2))
        _write(root, f"data/piqa/{split}.jsonl", _jsonl(rows))
        _write(root, f"data/piqa/{split}-labels.lst", "\n".join(labels) + "\n")


def _build_siqa(root: Path) -> None:
    for split, n in (("train", 6), ("dev", N)):
        rows, labels = [], []
        for i in range(n):
            a, b, c = _pick(_EN, _seed(f"siqa-{split}-{i}"), 3)
            rows.append({"context": f"Alex thought about {a}.", "question": "What will Alex want to do next?", "answerA": a, "answerB": b, "answerC": c})
            labels.append(str(1 + (i * 2) % 3))
        _write(root, f"data/siqa/{split}.jsonl", _jsonl(rows))
        _write(root, f"data/siqa/{split}-labels.lst", "\n".join(labels) + "\n")


def _build_boolq(root: Path) -> None:
    rows = []
    for i in range(N):
        a = _pick(_EN, _seed(f"boolq-{i}"), 1)[0]
        rows.append(
            {
                "question": f"is {a} part of the syllabus", "passage": f"Syllabus -- The syllabus covers {a}. -- It is long.",
                "idx": i, "label": "true" if i % 3 else "false",
            }
        )
    _write(root, "data/SuperGLUE/BoolQ/val.jsonl", _jsonl(rows))
    # BoolQDatasetV3 reads its path in local mode: 'opencompass/boolq' is a file under the working directory
    _write(root, "opencompass/boolq", _jsonl(rows))


_AGIEVAL_CLOZE = ["\\frac{1}{2}", "3", "2\\sqrt{2}", "(1,2)", "\\frac{\\pi}{3}", "-4", "0.25", "12"]


def _build_agieval(root: Path) -> None:
    for name in AGIEVAL_SETS:
        rows = []
        zh = name.startswith(("gaokao", "jec", "logiqa-zh"))
        for i in range(N):
            if name in ("gaokao-mathcloze", "math"):
                answer = _AGIEVAL_CLOZE[i % len(_AGIEVAL_CLOZE)]
                rows.append({"passage": None, "question": f"求第{i + 1}题的值。" if zh else f"Compute value {i + 1}.", "options": None, "label": None, "answer": answer, "other": None})
                continue
            n_opt = 5 if name == "lsat-ar" else 4
            opts = _pick(_ZH if zh else _EN, _seed(f"{name}-{i}"), n_opt)
            options = [f"({L}){t}" for L, t in zip("ABCDE", opts)]
            if name in ("jec-qa-kd", "gaokao-physics"):
                label: Any = ["A", "C"] if i % 3 == 0 else ["B"] if i % 3 == 1 else ["D"]
            else:
                label = "ABCDE"[(i * 2 + 1) % n_opt]
            passage = None if name != "gaokao-chinese" else f"阅读材料{i}。"
            rows.append({"passage": passage, "question": f"第{i + 1}题" if zh else f"Question {i + 1}", "options": options, "label": label, "answer": None, "other": None})
        _write(root, f"data/AGIEval/data/v1/{name}.jsonl", _jsonl(rows))


_PAIRS_ZH = (("今天天气怎么样", "今天的天气如何"), ("花呗怎么还款", "借呗可以提前还吗"), ("我想退货", "怎么申请退款"),
             ("他在北京工作", "他住在上海"), ("这部电影很好看", "这部电影不好看"))


def _pairs(tag: str, n: int, labels: tuple[Any, ...], extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        a, b = _PAIRS_ZH[(i + _seed(tag)) % len(_PAIRS_ZH)]
        rows.append({"sentence1": f"{a}（{tag} {i}）", "sentence2": b, "label": labels[(i * 3 + _seed(tag)) % len(labels)], **(extra or {})})
    return rows


def _build_clue(root: Path, which: str) -> None:
    if which == "afqmc":
        _write(root, "data/CLUE/AFQMC/dev.json", _jsonl(_pairs("afqmc", N, ("0", "1"))))
    elif which in ("ocnli", "cmnli"):
        rows = _pairs(which, N + 1, ("entailment", "contradiction", "neutral"))
        rows[5]["label"] = "-"  # annotators disagreed: the V2 loader and CMNLIDataset drop it, HFDataset keeps it
        rel = "data/CLUE/OCNLI/dev.json" if which == "ocnli" else "data/CLUE/cmnli/cmnli_public/dev.json"
        _write(root, rel, _jsonl(rows))
    elif which == "bustm":
        for split, n in (("dev_few_all", N), ("test_public", N + 3)):
            _write(root, f"data/FewCLUE/bustm/{split}.json", _jsonl([{"id": i, **r} for i, r in enumerate(_pairs(f"bustm-{split}", n, ("0", "1")))]))
    elif which == "eprstmt":
        for split, n in (("dev_few_all", N), ("test_public", N + 3)):
            rows = [{"id": i, "sentence": f"{r['sentence1']}，{r['sentence2']}", "label": ("Positive", "Negative")[(i + len(split)) % 2]}
                    for i, r in enumerate(_pairs(f"eprstmt-{split}", n, ("x",)))]
            _write(root, f"data/FewCLUE/eprstmt/{split}.json", _jsonl(rows))
    elif which == "ocnli_fc":
        for split, n in (("dev_few_all", N), ("test_public", N + 3)):
            rows = _pairs(f"ocnli_fc-{split}", n, ("entailment", "contradiction", "neutral"))
            rows[2]["label"] = "-"
            _write(root, f"data/FewCLUE/ocnli/{split}.json", _jsonl(rows))


_TNEWS = ("news_agriculture", "news_travel", "news_game", "news_tech", "news_sports", "news_edu", "news_entertainment",
          "news_finance", "news_military", "news_car", "news_house", "news_world", "news_culture", "news_story", "news_stock")


def _build_fewclue(root: Path, which: str) -> None:
    for split, n in (("dev_few_all", N), ("test_public", N + 3)):
        rows: list[dict[str, Any]] = []
        for i, r in enumerate(_pairs(f"{which}-{split}", n, ("x",))):
            if which == "csl":
                rows.append({"id": i, "abst": f"{r['sentence1']}。{r['sentence2']}。", "keyword": [*r["sentence2"][:4].split("的"), "关键词"],
                             "label": ("0", "1")[(i * 2 + len(split)) % 3 % 2]})
            elif which == "tnews":
                category = _TNEWS[(i * 4 + len(split)) % len(_TNEWS)]
                rows.append({"label": str(100 + _TNEWS.index(category)), "label_desc": category, "sentence": r["sentence1"], "keywords": ""})
            else:
                text = f"{r['sentence1']}他说{r['sentence2']}"
                at = text.index("他")
                rows.append({"target": {"span2_index": at, "span1_index": 0, "span1_text": r["sentence1"][:2], "span2_text": "他"},
                             "idx": i, "label": ("true", "false")[(i + len(split)) % 2], "text": text})
        _write(root, f"data/FewCLUE/{which}/{split}.json", _jsonl(rows))


def _build_wic(root: Path) -> None:
    rows = []
    for i in range(N):
        a, b = _pick(_EN, _seed(f"wic-{i}"), 2)
        rows.append({"word": a, "sentence1": f"I saw {a} there.", "sentence2": f"{a} and {b} differ.", "idx": i,
                     "label": "true" if i % 3 else "false", "start1": 6, "start2": 0, "end1": 6 + len(a), "end2": len(a), "version": 1.1})
    _write(root, "data/SuperGLUE/WiC/val.jsonl", _jsonl(rows))


def _glue_readme(configs: dict[str, tuple[str, ...]]) -> str:
    lines = ["---", "configs:"]
    for name, splits in configs.items():
        lines += [f"- config_name: {name}", "  data_files:"]
        lines += [f"  - split: {split}\n    path: {name}/{split}.jsonl" for split in splits]
    return "\n".join([*lines, "---", "", "A local copy of the dataset.", ""])


def _build_glue(root: Path) -> None:
    """``glue/``: a local copy of the Hub dataset, one configuration per task (``README.md``), JSON Lines per split."""
    splits = ("train", "validation", "test")
    for i_split, split in enumerate(splits):
        n = 25 if split == "train" else N + i_split
        cola = [{"sentence": f"The {w} sat on the mat ({split} {i}).", "label": (i * 5 + i_split) % 3 % 2, "idx": i}
                for i, w in enumerate(_pick(_EN, i_split, n) if n <= len(_EN) else [*_EN, *_EN][:n])]
        _write(root, f"glue/cola/{split}.jsonl", _jsonl(cola))
        test = split == "test"  # GLUE's test labels are -1
        mrpc = [{"sentence1": f"{r['sentence1']}", "sentence2": r["sentence2"], "label": -1 if test else int(r["label"]), "idx": i}
                for i, r in enumerate(_pairs(f"mrpc-{split}", n, ("0", "1")))]
        _write(root, f"glue/mrpc/{split}.jsonl", _jsonl(mrpc))
        qqp = [{"question1": f"{r['sentence1']}？", "question2": f"{r['sentence2']}？", "label": -1 if test else int(r["label"]), "idx": i}
               for i, r in enumerate(_pairs(f"qqp-{split}", n, ("1", "0")))]
        _write(root, f"glue/qqp/{split}.jsonl", _jsonl(qqp))
    _write(root, "glue/README.md", _glue_readme({name: splits for name in ("cola", "mrpc", "qqp")}))


def _build_superglue(root: Path) -> None:
    ent = ("entailment", "not_entailment")
    ax_b = [{"idx": i, "label": ent[(i + i // 3) % 2], "sentence1": f"{a} is bigger than {b}.", "sentence2": f"{b} is smaller than {a}."}
            for i, (a, b) in enumerate(_pick(_EN, k, 2) for k in range(N))]
    _write(root, "data/SuperGLUE/AX-b/AX-b.jsonl", _jsonl(ax_b))
    ax_g = [{"hypothesis": f"The {a} helped.", "idx": i, "label": ent[(i * 2 + i // 4) % 2], "premise": f"The {a} asked {b} for help.", "pair_id": i // 2}
            for i, (a, b) in enumerate(_pick(_EN, 40 + k, 2) for k in range(N))]
    _write(root, "data/SuperGLUE/AX-g/AX-g.jsonl", _jsonl(ax_g))
    rte = [{"premise": f"{a} was discussed at length.", "hypothesis": f"{b} was discussed.", "label": ent[(i * 7) % 3 % 2], "idx": i}
           for i, (a, b) in enumerate(_pick(_EN, 80 + k, 2) for k in range(N))]
    _write(root, "data/SuperGLUE/RTE/val.jsonl", _jsonl(rte))
    cb_labels = ("contradiction", "entailment", "neutral")
    cb = [{"premise": f"She said that {a} mattered.", "hypothesis": f"{b} mattered", "label": cb_labels[(i * 2 + 1) % 3], "idx": i}
          for i, (a, b) in enumerate(_pick(_EN, 120 + k, 2) for k in range(N))]
    _write(root, "data/SuperGLUE/CB/val.jsonl", _jsonl(cb))
    copa = [{"premise": f"The man studied {a}.", "choice1": f"He liked {a}.", "choice2": f"He disliked {b}.",
             "question": ("cause", "effect")[i % 2], "idx": i, "label": (i * 3 + 1) % 5 % 2}
            for i, (a, b) in enumerate(_pick(_EN, 160 + k, 2) for k in range(N))]
    _write(root, "data/SuperGLUE/COPA/val.jsonl", _jsonl(copa))


def _build_summedits(root: Path) -> None:
    rows = [{"doc": f"The report covers {a} and {b}.", "summary": f"The report covers {a}." if i % 3 else f"The report ignores {a}.",
             "label": 1 if i % 3 else 0, "domain": "news", "seed_id": i}
            for i, (a, b) in enumerate(_pick(_EN, 200 + k, 2) for k in range(N))]
    _write(root, "data/summedits/summedits.jsonl", _jsonl(rows))


_SPANS = (("北京", "上海"), ("一九八四年", "一九九零年"), ("李白", "杜甫"), ("長江", "黃河"), ("三個", "五個"), ("蘋果", "香蕉"))


def _build_extractive(root: Path, rel: str, tag: str) -> None:
    """SQuAD's layout: articles of paragraphs, each question with its answers."""
    articles = []
    for a in range(3):
        paragraphs = []
        for p in range(2):
            qas = []
            for q in range(3 if p == 0 else 2):
                k = a * 5 + p * 3 + q
                right = _SPANS[k % len(_SPANS)][0]
                # answers given more than once are listed once (several distinct ones would be listed in a
                # set's order by OpenCompass, which changes from one process to the next)
                answers = [{"text": right, "answer_start": 3}] * (1 + k % 3)
                qas.append({"question": f"{tag}第{k + 1}题：文中提到的是什么？", "id": f"{tag}-{k}", "answers": answers})
            paragraphs.append({"id": f"{tag}-{a}-{p}", "context": f"文章{a}段{p}：{_SPANS[(a + p) % len(_SPANS)][0]}出现在这里。", "qas": qas})
        articles.append({"id": f"{tag}-{a}", "title": f"{tag}{a}", "paragraphs": paragraphs})
    _write(root, rel, json.dumps({"version": "v1.0", "data": articles}, ensure_ascii=False))


_EXTRACTIVE_REPLIES = (
    "答案是{a}", "答案是{a}。", "{a}", "根据文章，答案是{a}，不是{b}。", "", "答案是{b}", "答案是{a}答案是{b}",
    "我不知道。", "答案是 {a} ", "The answer is {a}.", "答案是：{a}", "答案是{a}市", "{b}",
)


def _gaokao_answer(kind: str, i: int) -> list[str]:
    if kind == "single_choice":
        return ["ABCD"[(i * 3 + 1) % 4]]
    if kind == "multi_choice":
        return [("BC", "A", "ACD", "D", "AB")[i % 5]]
    if kind == "multi_question_choice":
        return [("B", "C", "A", "D")[(i + j) % 4] for j in range(1 + i % 3)]
    if kind == "five_out_of_seven":
        return [("A", "C", "D", "F", "G", "B", "E")[(i + j) % 7] for j in range(5)]
    if kind == "cloze":
        return [("\\frac{1}{2}", "3", "2\\sqrt{2}")[i % 3]]
    return [f"第{i + 1}题的参考答案。"]


def _build_gaokao(root: Path) -> None:
    for keyword, folder, kind in GAOKAO_FILES:
        examples = [
            {"year": str(2010 + i), "category": "（新课标）", "question": f"{keyword} 第{i + 1}题", "answer": _gaokao_answer(kind, i),
             "analysis": "解析。", "index": i, "score": 5}
            for i in range(N)
        ]
        _write(root, f"data/GAOKAO-BENCH/data/{folder}/{keyword}.json", json.dumps({"keywords": keyword, "example": examples}, ensure_ascii=False))


_GAOKAO_REPLIES = {
    "single_choice": ("【答案】{a}", "答案是{a}。", "{w}", "", "分析：A不对，B不对，所以选{a}", "The answer is {a}, not D", "无法确定",
                      "选{a}。\nBecause", "【答案】{w} <eoa>", "{a}{w}", "答案：{a}", "a", "【解析】略【答案】{a}"),
    "multi_choice": ("【答案】{a}", "解析：……【答案】 {a} <eoa>", "{a}", "【答案】{a}，因为选项说明了很多内容", "", "解析很长很长【答案】{w}",
                     "【答案】A", "最后选{a}", "The answer is {a}", "BD", "解析【答案】{part}", "不确定", "解析【答案】{a}{w}"),
    "multi_question_choice": ("{marked}", "{plain}", "【答案】{first}", "", "{marked} 【答案】D", "I think {plain}", "答案：{plain}",
                              "无", "{marked}", "ABCD", "{plain}{plain}", "【答案】: {first}", "{marked}"),
    "five_out_of_seven": ("{plain}", "【答案】{plain}", "ABCDE", "", "{plain}G", "答案是 {plain}", "Answers: {plain}",
                          "{first}", "FGABC", "{plain}", "no idea", "{plain}", "A B C D E F G"),
}


_ADV_FIELDS = {
    "sst2": ("sentence",), "qqp": ("question1", "question2"), "mnli": ("premise", "hypothesis"),
    "mnli-mm": ("premise", "hypothesis"), "qnli": ("question", "sentence"), "rte": ("sentence1", "sentence2"),
}


def _build_adv_glue(root: Path) -> None:
    """``dev_ann.json``: per task, attacked examples; a field that was perturbed keeps its original under ``original_<field>``."""
    data: dict[str, Any] = {}
    for task, fields in _ADV_FIELDS.items():
        classes = 3 if task.startswith("mnli") else 2
        examples = []
        for i in range(N):
            words = _pick(_EN, _seed(f"adv-{task}-{i}"), len(fields))
            example: dict[str, Any] = {"idx": i, "label": (i * 2 + len(task)) % classes, "type": ("word", "sentence", "human")[i % 3]}
            for j, (field, word) in enumerate(zip(fields, words)):
                example[field] = f"The {word}s were fine ({task} {i})."
                if (i + j) % 3 != 2:  # this field was perturbed
                    example[f"original_{field}"] = f"The {word} was fine ({task} {i})."
                elif i % 2:
                    example[f"original_{field}"] = None
            examples.append(example)
        data[task] = examples
    _write(root, "data/adv_glue/dev_ann.json", json.dumps(data, ensure_ascii=False))


def _build_musr(root: Path) -> None:
    """Stories of 1–3 questions with 2–3 choices; some stories share a ``story_hash_id`` (contrastive pairs)."""
    for task in ("murder_mysteries", "object_placements", "team_allocation"):
        stories = []
        for i in range(6):
            questions = []
            for j in range(1 + i % 3):
                k = 2 + (i + j) % 2
                choices = _pick(_EN, _seed(f"musr-{task}-{i}-{j}"), k)
                questions.append({
                    "question": f"{task} story {i}, question {j}: which one?",
                    "choices": choices,
                    "answer": (i + 2 * j) % k,
                    "intermediate_trees": [],
                    "intermediate_data": [{"story_hash_id": f"{task}-{i // 2}"}],
                })
            stories.append({"context": f"A {task.replace('_', ' ')} story, number {i}.\nIt mentions {choices[0]}.", "questions": questions})
        _write(root, f"data/musr/{task}.json", json.dumps(stories, ensure_ascii=False, indent=1))


def _build_obqa(root: Path) -> None:
    """The Main file (no facts) and the Additional one (with ``fact1``); some stems end with ``?``, some do not."""
    for rel, facts in (("Main/test.jsonl", False), ("Additional/test_complete.jsonl", True)):
        rows = []
        for i, (stem, options, gold) in enumerate(_mc(f"obqa-{rel}", N)):
            line: dict[str, Any] = {"id": f"{i}", "question": {"stem": stem if i % 3 else stem.rstrip("?"),
                                                               "choices": [{"text": t, "label": L} for t, L in zip(options, "ABCD")]},
                                    "answerKey": gold}
            if facts:
                line["fact1"] = f"fact {i}: {options[0]} matters"
            rows.append(line)
        _write(root, f"data/openbookqa/{rel}", _jsonl(rows))


def _build_wikibench(root: Path) -> None:
    rows = [{"question": f" {q} ", "options": options, "answer": gold, "id": f"w{i}"}
            for i, (q, options, gold) in enumerate(_mc("wikibench", 5, zh=True))]
    _write(root, "data/WikiBench/single_choice_cn.jsonl", _jsonl(rows))


def _build_earth_silver(root: Path) -> None:
    """A local copy of the Hugging Face dataset ``ai-earth/Earth-Silver`` in the working folder: its ``README.md``
    names the ``multiple_choice`` split's file, as the Hub's copy does."""
    rows = []
    for q, options, gold in _mc("earth", N):
        rows.append({"question": q + "\n" + "\n".join(f"{L}. {t}" for L, t in zip("ABCD", options)), "answer": gold,
                     **{L: t for L, t in zip("ABCD", options)}})
    _write(root, "ai-earth/Earth-Silver/README.md", "---\nconfigs:\n- config_name: default\n  data_files:\n"
                                                   "  - split: multiple_choice\n    path: multiple_choice.jsonl\n---\n")
    _write(root, "ai-earth/Earth-Silver/multiple_choice.jsonl", _jsonl(rows))


_BUILDERS = {
    "mmlu": _build_mmlu,
    "mmlu_pro": _build_mmlu_pro,
    "cmmlu": _build_cmmlu,
    "ceval": _build_ceval,
    "gpqa": _build_gpqa,
    "bbh": _build_bbh,
    "ARC_c": lambda root: _build_arc(root, "c"),
    "ARC_e": lambda root: _build_arc(root, "e"),
    "hellaswag": _build_hellaswag,
    "winogrande": _build_winogrande,
    "race": _build_race,
    "commonsenseqa": _build_commonsenseqa,
    "piqa": _build_piqa,
    "siqa": _build_siqa,
    "SuperGLUE_BoolQ": _build_boolq,
    "agieval": _build_agieval,
    "CLUE_afqmc": lambda root: _build_clue(root, "afqmc"),
    "CLUE_ocnli": lambda root: _build_clue(root, "ocnli"),
    "CLUE_cmnli": lambda root: _build_clue(root, "cmnli"),
    "FewCLUE_bustm": lambda root: _build_clue(root, "bustm"),
    "FewCLUE_eprstmt": lambda root: _build_clue(root, "eprstmt"),
    "FewCLUE_ocnli_fc": lambda root: _build_clue(root, "ocnli_fc"),
    "GLUE": _build_glue,
    "SuperGLUE": _build_superglue,
    "summedits": _build_summedits,
    "CLUE_CMRC": lambda root: _build_extractive(root, "data/CLUE/CMRC/dev.json", "CMRC"),
    "CLUE_DRCD": lambda root: _build_extractive(root, "data/CLUE/DRCD/dev.json", "DRCD"),
    "GaokaoBench": _build_gaokao,
    "adv_glue": _build_adv_glue,
    "FewCLUE_tnews": lambda root: _build_fewclue(root, "tnews"),
    "FewCLUE_cluewsc": lambda root: _build_fewclue(root, "cluewsc"),
    "FewCLUE_csl": lambda root: _build_fewclue(root, "csl"),
    "SuperGLUE_WiC": _build_wic,
    "musr": _build_musr,
    "obqa": _build_obqa,
    "wikibench": _build_wikibench,
    "Earth_Silver": _build_earth_silver,
    **_nlu.BUILDERS,
}


def build_data(family: str, root: Path) -> None:
    """Write ``family``'s files under ``root/data`` in OpenCompass's local layout.

    MMLU-Pro's split files are written as JSON Lines; :func:`mmlu_pro_to_parquet`
    turns them into the Parquet files of the Hugging Face layout.
    """
    _BUILDERS[family](Path(root))
    if family == "mmlu_pro":
        mmlu_pro_to_parquet(Path(root))


def mmlu_pro_to_parquet(root: Path) -> None:
    """Replace MMLU-Pro's JSON Lines split files by Parquet files (``data/test-00000-of-00001.parquet``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for path in sorted((root / "data" / "mmlu_pro" / "data").glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        pq.write_table(pa.Table.from_pylist(rows), path.with_suffix(".parquet"))
        path.unlink()


# -- replies ----------------------------------------------------------------------------------------

_STYLES = ("letter", "paren", "colon", "text", "two", "think", "empty", "refusal", "wrong", "zh", "bold", "lower", "cot")


def _mc_reply(style: str, gold: str, wrong: str, texts: dict[str, str], zh: bool) -> str:
    text = texts.get(gold, gold)
    if style == "letter":
        return gold
    if style == "paren":
        return f"答案是({gold})。" if zh else f"The answer is ({gold})."
    if style == "colon":
        return f"答案: {gold}" if zh else f"ANSWER: {gold}"
    if style == "text":
        return text
    if style == "two":
        return f"{wrong}和{gold}都有可能。" if zh else f"Both {wrong} and {gold} look plausible."
    if style == "think":
        return f"<think>\nOption {wrong} is tempting, but it is wrong.\n</think>\n\nANSWER: {gold}"
    if style == "empty":
        return ""
    if style == "refusal":
        return "抱歉，我无法回答这个问题。" if zh else "I'm sorry, but I can't help with that request."
    if style == "wrong":
        return f"答案：{wrong}" if zh else f"Answer: {wrong}"
    if style == "zh":
        return f"答案：{gold}"
    if style == "bold":
        return f"**{gold}. {text}**"
    if style == "lower":
        return f"the answer is {gold.lower()}"
    if style == "cot":
        if zh:
            return f"让我们一步一步思考。选项{wrong}不对，所以答案是{gold}。"
        return f"Let's think step by step. {texts.get(wrong, wrong)} does not fit, so the correct choice is {gold}.\nSo the answer is {gold}."
    raise ValueError(style)


_BBH_MCQ_REPLIES = (
    "Let's think step by step.\nFirst, list the facts.\nSo the answer is ({g}).",
    "So the answer is {g}.",
    "({g})",
    "The answer is ({w}). No wait, the answer is ({g}).",
    "<think>Could it be (A)?</think>\nSo the answer is ({g}).",
    "",
    "I cannot determine the answer.",
    "the answer is ({w}).",
    "so the answer is 42",
    "Answer: ({g})",
    "Options (A) and ({g}) remain; so the answer is ({g})",
    "{g}",
    "THE ANSWER IS ({g})",
)

_BBH_FREE_REPLIES = (
    "Let's think step by step.\nWe evaluate it.\nSo the answer is {t}.",
    "So the answer is **{t}**.",
    "the answer is {lower}",
    "Answer is: {t}",
    "",
    "I'm not able to solve this.",
    "So the answer is {w}.",
    "<think>The answer is {w}?</think> The answer is {t}",
    "So the answer is {commas}.",
    "{t}\n\nExplanation: it follows.",
    "The final answer is {t}",
    "So the answer is {t} because it follows.",
    "So the answer is: {upper}.",
)


def _bbh_wrong(target: str) -> str:
    swaps = {"Yes": "No", "No": "Yes", "True": "False", "False": "True", "valid": "invalid", "invalid": "valid"}
    if target in swaps:
        return swaps[target]
    if target.lstrip("-").replace(",", "").isdigit():
        return str(int(target.replace(",", "")) + 1)
    return " ".join(reversed(target.split()))


_CLOZE_REPLIES = (
    "The answer is ${a}$",
    "\\boxed{{{a}}}",
    "x = {a}",
    "{a}",
    "",
    "I don't know.",
    "So we get 0.5",
    "答案是 ${a}$",
    "The answer is $7$",
    "$\\dfrac{{1}}{{2}}$",
    "\\boxed{{x={a}}}",
    "\\boxed{{{a}",
    "The answer is {a}.",
)

_MULTI_REPLIES = (
    "{lab}",
    "答案是{lab}",
    "{spaced}",
    "The answer is {first}",
    "",
    "抱歉，我无法回答。",
    "选项{lab}正确",
    "<think>A?</think>{lab}",
    "BD",
    "({first})",
    "{lab}。因为……",
    "答案：C",
    "ABCD",
)

_PRO_BASE_REPLIES = (
    "{g}",
    "{g}. {text}",
    "{text}",
    "({g})",
    "The answer is ({g}).",
    "",
    "I cannot answer this.",
    "{g}\nbecause the reasoning holds",
    "  {text}  \nmore lines",
    "{w}",
    "{g}.",
    "{lower}",
    "Answer: {g}",
)


#: MuSR replies: the choice on an ``ANSWER:`` line, elsewhere, twice, in lower case, after a line without a digit.
_MUSR_REPLIES = (
    "Step by step, the facts point one way.\nANSWER: {g}",
    "ANSWER: ({g}) that one",
    "ANSWER: {w}",
    "I think it is choice {g}.",
    "answer: {g}",
    "ANSWER: none of them fits\nANSWER: {g}",
    "The ANSWER: {g} or maybe {w}",
    "Reasoning...\nFinal ANSWER: ANSWER: {g}\nANSWER: {w}",
    "ANSWER: choice number {w}, not {g}",
    "",
    "ANSWER:{g}",
    "ANSWER: {g}0",
    "ANSWER: ٢",
)


def _style_index(abbr: str, index: int, count: int) -> int:
    return (index + _seed(abbr)) % count


def _letters_of(row: dict[str, Any], keys: str) -> dict[str, str]:
    return {k: str(row[k]) for k in keys if k in row}


def gen_reply(run: Run, abbr: str, index: int, row: dict[str, Any]) -> str:
    """A model reply to test row ``index`` of dataset ``abbr`` (varied by row, deterministic)."""
    fam = run.family
    if fam in _nlu.REPLIES:
        return _nlu.REPLIES[fam](abbr, index, row)
    if fam == "bbh":
        target = str(row["target"])
        if target.startswith("("):
            g = target[1]
            w = "ABCD"[("ABCD".index(g) + 1) % 4] if g in "ABCD" else "A"
            return _BBH_MCQ_REPLIES[_style_index(abbr, index, len(_BBH_MCQ_REPLIES))].format(g=g, w=w)
        tpl = _BBH_FREE_REPLIES[_style_index(abbr, index, len(_BBH_FREE_REPLIES))]
        return tpl.format(t=target, w=_bbh_wrong(target), lower=target.lower(), upper=target.upper(), commas=", ".join(target.split()))
    if fam == "agieval":
        name = abbr.removeprefix("agieval-")
        label = str(row.get("label"))
        if name in ("gaokao-mathcloze", "math"):
            return _CLOZE_REPLIES[_style_index(abbr, index, len(_CLOZE_REPLIES))].format(a=label)
        if name in ("jec-qa-kd", "gaokao-physics", "jec-qa-ca"):
            return _MULTI_REPLIES[_style_index(abbr, index, len(_MULTI_REPLIES))].format(lab=label, spaced=", ".join(label), first=label[:1])
        zh = name.startswith(("gaokao", "jec", "logiqa-zh"))
        texts: dict[str, str] = {}
        options = row.get("options") or ""
        for line in str(options).split("\n"):
            if len(line) > 3 and line[0] == "(" and line[2] == ")":
                texts[line[1]] = line[3:]
        return _mc_styled(abbr, index, label, texts, zh, "ABCDE")
    if fam == "mmlu_pro" and run.run_id == "mmlu_pro_few_shot_gen_bfaf90":
        letters = "ABCDEFGHIJ"
        g = str(row["answer"])
        w = letters[(letters.index(g) + 1) % 10]
        opts = row["options"]
        text = opts[letters.index(g)] if letters.index(g) < len(opts) else ""
        tpl = _PRO_BASE_REPLIES[_style_index(abbr, index, len(_PRO_BASE_REPLIES))]
        return tpl.format(g=g, w=w, text=text, lower=text.lower())
    if fam == "siqa" and run.run_id == "siqa_gen_e78df3":
        g = str(row["label"])
        texts = {"A": row["answerA"], "B": row["answerB"], "C": row["answerC"]}
        return _mc_styled(abbr, index, g, texts, False, "ABC")
    if fam == "adv_glue":  # the originals (second half) answered in other styles than their attacks
        gold, texts, letters, zh = _mc_view(fam, row)
        return _mc_styled(abbr, index % 5 if row.get("type") == "original" else index, gold, texts, zh, letters)
    if fam == "GaokaoBench":
        kind = next(k for keyword, _, k in GAOKAO_FILES if abbr == f"GaokaoBench_{keyword}")
        answer = [str(a) for a in row["answer"]]
        if kind not in _GAOKAO_REPLIES:
            return ("{a}", "答案：{a}", "", "我不会。")[index % 4].format(a=answer[0])
        tpl = _GAOKAO_REPLIES[kind][_style_index(abbr, index, len(_GAOKAO_REPLIES[kind]))]
        a = answer[0]
        w = "ABCD"[("ABCD".index(a[0]) + 1) % 4] if a[:1] in "ABCD" else "A"
        marked = " ".join(f"【答案】{x}" for x in answer)
        return tpl.format(a=a, w=w, part=a[:1], marked=marked, plain="".join(answer), first=answer[0])
    if fam in ("CLUE_CMRC", "CLUE_DRCD"):
        answer = str(row["answers"][0])
        other = next(b for a, b in _SPANS if a == answer)
        return _EXTRACTIVE_REPLIES[_style_index(abbr, index, len(_EXTRACTIVE_REPLIES))].format(a=answer, b=other)
    if fam == "musr":
        g = int(row["gold_answer"])
        w = g % len(row["choices"]) + 1
        return _MUSR_REPLIES[_style_index(abbr, index, len(_MUSR_REPLIES))].format(g=g, w=w)
    gold, texts, letters, zh = _mc_view(fam, row)
    return _mc_styled(abbr, index, gold, texts, zh, letters)


def _mc_styled(abbr: str, index: int, gold: str, texts: dict[str, str], zh: bool, letters: str) -> str:
    style = _STYLES[_style_index(abbr, index, len(_STYLES))]
    first = gold[:1] if gold[:1] in letters else letters[0]
    wrong = letters[(letters.index(first) + 1) % len(letters)]
    return _mc_reply(style, gold, wrong, texts, zh)


def _mc_view(fam: str, row: dict[str, Any]) -> tuple[str, dict[str, str], str, bool]:
    """``(gold letter, option texts by letter, option letters, Chinese?)`` of a multiple-choice row."""
    if fam == "mmlu":
        return str(row["target"]), _letters_of(row, "ABCD"), "ABCD", False
    if fam == "mmlu_pro":
        letters = "ABCDEFGHIJ"
        return str(row["answer"]), dict(zip(letters, map(str, row["options"]))), letters[: len(row["options"])], False
    if fam in ("cmmlu", "ceval"):
        return str(row["answer"]), _letters_of(row, "ABCD"), "ABCD", True
    if fam in ("gpqa", "race"):
        return str(row["answer"]), _letters_of(row, "ABCD"), "ABCD", False
    if fam in ("ARC_c", "ARC_e"):
        return str(row["answerKey"]), {L: str(row[f"text{L}"]) for L in "ABCD"}, "ABCD", False
    if fam == "hellaswag":
        label = row["label"]
        gold = label if isinstance(label, str) else "ABCD"[int(label)]
        return gold, _letters_of(row, "ABCD"), "ABCD", False
    if fam == "winogrande":
        return str(row["answer"]), {"A": str(row["only_option1"]), "B": str(row["only_option2"])}, "AB", False
    if fam == "commonsenseqa":
        return str(row["answerKey"]), _letters_of(row, "ABCDE"), "ABCDE", False
    if fam == "piqa":
        return str(row["answer"]), {"A": str(row["sol1"]), "B": str(row["sol2"])}, "AB", False
    if fam == "siqa":
        return str(row["answer"]), _letters_of(row, "ABC"), "ABC", False
    if fam == "SuperGLUE_BoolQ":
        return str(row["label"]), {"A": "Yes", "B": "No"}, "AB", False
    if fam in ("CLUE_afqmc", "FewCLUE_bustm"):
        return str(row["label"]), {"A": "不完全一致", "B": "完全一致"}, "AB", True
    if fam in ("CLUE_ocnli", "CLUE_cmnli", "FewCLUE_ocnli_fc"):
        return str(row["label"]), {"A": "对", "B": "错", "C": "可能"}, "ABC", True
    if fam == "FewCLUE_eprstmt":
        return str(row["label"]), {"A": "好评", "B": "差评"}, "AB", True
    if fam == "SuperGLUE":
        if "choice1" in row:
            return str(row["label"]), {"A": str(row["choice1"]), "B": str(row["choice2"])}, "AB", False
        return str(row["label"]), {"A": "Yes", "B": "No", "C": "Maybe"}, "ABC", False
    if fam == "FewCLUE_tnews":
        return str(row["label_desc2"]), {}, "ABCDEFGHIJKLMNO", True
    if fam in ("FewCLUE_csl", "SuperGLUE_WiC"):
        return str(row["label"]), {"A": "是", "B": "否"}, "AB", fam == "FewCLUE_csl"
    if fam == "FewCLUE_cluewsc":
        return str(row["label"]), {"A": "是", "B": "否"}, "AB", True
    if fam == "adv_glue":
        return str(row["label_option"]), {"A": "yes", "B": "maybe" if "premise" in row else "no", "C": "no"}, "ABC", False
    if fam == "summedits":
        return str(row["label"]), {"A": "Yes", "B": "No"}, "AB", False
    if fam == "wikibench":
        return str(row["answer"]).split("--")[1], dict(zip("ABCD", map(str, row["options"]))), "ABCD", True
    if fam == "Earth_Silver":
        return str(row["answer"]), _letters_of(row, "ABCD"), "ABCD", False
    if fam == "obqa":
        return str(row["answerKey"]), _letters_of(row, "ABCD"), "ABCD", False
    if fam in _nlu.VIEWS:
        return _nlu.VIEWS[fam](row)
    raise KeyError(f"no reply view for family {fam}")


def ppl_choice(index: int, labels: list[Any], gold: Any) -> Any:
    """The label a PPL (or log-likelihood) run picks for row ``index``: the gold one, except every fourth row."""
    wanted = str(gold[0]) if isinstance(gold, list) and len(gold) == 1 else str(gold)  # GAOKAO-Bench's ['B']
    matching = [lab for lab in labels if str(lab) == wanted]
    if matching and index % 4 != 3:
        return matching[0]
    others = [lab for lab in labels if str(lab) != wanted] or list(labels)
    return others[index % len(others)]
