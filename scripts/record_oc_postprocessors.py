"""Record what OpenCompass 0.5.4's postprocessors return on the differential corpus.

Run it with a Python that has opencompass==0.5.4 installed (with jieba); OpenCompass
is not a dependency of assay::

    python scripts/record_oc_postprocessors.py [--corpus FILE] [--out FILE]

For every function in ``CALLS`` and every option set listed with it (the option
sets assay's and OpenCompass's dataset configs use), the function is imported from
OpenCompass and called on every reply of
``tests/data/postprocess/opencompass_corpus/replies.jsonl``.  The outputs go to
``opencompass_outputs.json`` beside it: per call, the function's name (the same
name in :mod:`assay.postprocess`), its options and its outputs in corpus order
(``ids`` lists the reply ids once).  An output equal to the reply itself is
recorded as ``{"same": true}``, a call that raises as ``{"raises": "<exception
type>"}``, a value JSON cannot hold as ``{"repr": ...}``.
``tests/postprocess/test_opencompass_corpus.py`` checks that assay's namesakes
return the same outputs.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import logging
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "tests" / "data" / "postprocess" / "opencompass_corpus"

_TEXT = "opencompass.utils.text_postprocessors"
_OPTION_SETS = ("AB", "ABC", "ABCD", "ABCDE", "ABCDEFGHIJ")

#: (module, function, option sets).
CALLS: list[tuple[str, str, list[dict[str, Any]]]] = [
    (_TEXT, "general_postprocess", [{}]),
    (_TEXT, "general_cn_postprocess", [{}]),
    (_TEXT, "first_capital_postprocess", [{}]),
    (_TEXT, "last_capital_postprocess", [{}]),
    (_TEXT, "think_pred_postprocess", [{"re_pattern": r"</think>(.*)"}, {"re_pattern": r"<think>.*?</think>\s*(.*)"}]),
    (
        _TEXT,
        "first_option_postprocess",
        [{"options": o, "cushion": c} for o in _OPTION_SETS for c in (True, False)],
    ),
    (_TEXT, "first_capital_postprocess_multi", [{}]),
    (_TEXT, "last_option_postprocess", [{"options": "ABCD"}, {"options": "ABCDE"}]),
    (_TEXT, "first_number_postprocess", [{}]),
    (_TEXT, "multiple_select_postprocess", [{}]),
    (_TEXT, "xml_tag_postprocessor", [{"tag": "<conclude>"}, {"tag": "<answer>"}]),
    (
        _TEXT,
        "match_answer_pattern",
        [{"answer_pattern": r"(?i)ANSWER\s*:\s*([A-D])"}, {"answer_pattern": r"(?i)ANSWER\s*:\s*([^\n]+)"}],
    ),
    (
        _TEXT,
        "extract_non_reasoning_content",
        [{}, {"think_start_token": "<|begin_of_thought|>", "think_end_token": "<|end_of_thought|>"}],
    ),
    ("opencompass.datasets.gsm8k", "gsm8k_postprocess", [{}]),
    ("opencompass.datasets.gsm8k", "gsm8k_dataset_postprocess", [{}]),
    ("opencompass.datasets.math", "math_postprocess", [{}]),
    ("opencompass.datasets.math", "math_postprocess_v2", [{}]),
    ("opencompass.datasets.math", "normalize_final_answer", [{}]),
    ("opencompass.datasets.math", "extract_boxed_answer", [{}, {"strip_double_curly_brace": True}]),
    ("opencompass.datasets.bbh", "bbh_mcq_postprocess", [{}]),
    ("opencompass.datasets.bbh", "bbh_freeform_postprocess", [{}]),
    ("opencompass.datasets.humaneval", "humaneval_postprocess_v2", [{}]),
    ("opencompass.datasets.humaneval", "humaneval_postprocess_v3", [{}]),
    ("opencompass.datasets.humaneval", "humaneval_internal_v1_postprocess", [{}]),
    ("opencompass.datasets.humaneval", "humaneval_internal_v2_postprocess", [{}]),
    ("opencompass.datasets.gpqa", "GPQA_Simple_Eval_postprocess", [{}]),
    ("opencompass.datasets.TheoremQA", "TheoremQA_postprocess", [{}]),
    ("opencompass.datasets.TheoremQA", "TheoremQA_postprocess_v2", [{}]),
    ("opencompass.datasets.TheoremQA", "TheoremQA_postprocess_v3", [{}]),
    ("opencompass.datasets.TheoremQA", "TheoremQA_postprocess_v4", [{}]),
    ("opencompass.datasets.OlympiadBench", "olympiadbench_postprocess_v2", [{}, {"is_chinese": True}]),
    ("opencompass.datasets.math_intern", "math_intern_postprocess", [{}]),
    ("opencompass.datasets.cruxeval", "cruxeval_o_postprocess", [{}]),
    ("opencompass.datasets.leval.leval_gsm100", "gsm100_postprocess", [{}]),
    ("opencompass.datasets.leval.leval_gsm100", "gsm100_dataset_postprocess", [{}]),
    ("opencompass.datasets.infinitebench.utils", "InfiniteBench_first_number_postprocess", [{}]),
    ("opencompass.datasets.needlebench.origin", "needlebench_postprocess", [{}]),
    ("opencompass.datasets.needlebench.origin", "needlebench_dataset_postprocess", [{}]),
    ("opencompass.datasets.needlebench_v2.atc_elder_only", "needlebench_atc_postprocess_v2", [{}]),
    ("opencompass.datasets.longbench.longbench_trivia_qa", "triviaqa_postprocess", [{}]),
    ("opencompass.datasets.longbench.longbench_lsht", "lsht_postprocess", [{}]),
    ("opencompass.datasets.longbench.longbench_samsum", "samsum_postprocess", [{}]),
    ("opencompass.datasets.longbench.longbench_trec", "trec_postprocess", [{}]),
    ("opencompass.datasets.cmrc", "cmrc_postprocess", [{}]),
    ("opencompass.datasets.drcd", "drcd_postprocess", [{}]),
    ("opencompass.datasets.mathbench", "mathbench_postprocess", [{"name": "cloze_en"}, {"name": "cloze_cn"}]),
    # NLU families: ReCoRD, StrategyQA, CrowS-Pairs
    ("opencompass.datasets.record", "ReCoRD_postprocess", [{}]),
    ("opencompass.datasets.strategyqa", "strategyqa_pred_postprocess", [{}]),
    ("opencompass.datasets.strategyqa", "strategyqa_dataset_postprocess", [{}]),
    ("opencompass.datasets.crowspairs", "crowspairs_postprocess", [{}]),
    ("opencompass.datasets.SeedBench", "my_multiple_select_postprocess", [{}]),
    ("opencompass.datasets.charm", "charm_reason_postprocess", [{}]),
    ("opencompass.datasets.scibench", "scibench_postprocess", [{}]),
    ("opencompass.datasets.mgsm", "mgsm_postprocess", [{"lang": "en"}, {"lang": "zh"}, {"lang": "bn"}]),
    ("opencompass.datasets.smolinstruct", "smolinstruct_acc_postprocess", [{}]),
    ("opencompass.datasets.smolinstruct", "smolinstruct_acc_0shot_postprocess", [{}]),
    ("opencompass.datasets.SciReasoner.GUE", "GUE_postprocessor", [{}]),
    ("opencompass.datasets.SciReasoner.LLM4Mat", "LLM4Mat_postprocessor", [{"property": "band_gap"}, {"property": "is_stable"}]),
    # the generation families: summaries and translations
    ("opencompass.datasets.lcsts", "lcsts_postprocess", [{}]),
    ("opencompass.datasets.xsum", "Xsum_postprocess", [{}]),
    ("opencompass.datasets.flores", "flores_postprocess", [{}]),
    ("opencompass.datasets.flores", "flores_postprocess_chinese", [{}]),
    # BIG-Bench Extra Hard
    ("opencompass.datasets.bbeh", "bbeh_freeform_postprocess", [{}]),
    ("opencompass.datasets.bbeh", "bbeh_mcq_postprocess", [{}]),
    # P-MMEval: each returns the reply with the language its evaluator reads it in
    ("opencompass.datasets.PMMEval.flores", "pmmeval_flores_postprocess", [{"lang_fullname": "Chinese"}]),
    ("opencompass.datasets.PMMEval.mhellaswag", "pmmeval_mhellaswag_postprocess", [{"lang_code": "en"}]),
    ("opencompass.datasets.PMMEval.mifeval", "pmmeval_mifeval_postprocess", [{"lang_code": "zh"}]),
    ("opencompass.datasets.PMMEval.mlogiqa", "pmmeval_mlogiqa_postprocess", [{"lang_code": "ar"}]),
    ("opencompass.datasets.PMMEval.mmmlu", "pmmeval_mmmlu_postprocess", [{"lang_code": "ja"}]),
    ("opencompass.datasets.PMMEval.xnli", "pmmeval_xnli_postprocess", [{"lang_code": "fr"}]),
    # the science families
    ("opencompass.datasets.arxivrollbench", "arxivrollbench_selection_postprocess", [{}]),
    ("opencompass.datasets.arxivrollbench", "arxivrollbench_choice_postprocess", [{}]),
    ("opencompass.datasets.SciReasoner.uncond_material", "material_postprocessor", [{}]),
    ("opencompass.datasets.SciReasoner.opi.evaluator", "opi_postprocess", [{"task": "GO"}]),
    # SciReasoner's LLM4Chem and Mol-Instructions readers (their modules import RDKit and rdchiral)
    ("opencompass.datasets.SciReasoner.LLM4Chem.evaluator", "LLM4Chem_postprocess",
     [{"task": "forward_synthesis"}, {"task": "molecule_captioning"}, {"task": "name_conversion-i2f"},
      {"task": "property_prediction-esol"}, {"task": "property_prediction-bbbp"}]),
    ("opencompass.datasets.SciReasoner.LLM4Chem.retrosynthesis_evaluator", "Retrosynthesis_postprocess", [{}]),
    ("opencompass.datasets.SciReasoner.Mol_Instructions.molecule", "Mol_Instructions_postprocess_Mol",
     [{"task": "property_prediction_str"}, {"task": "description_guided_molecule_design"},
      {"task": "molecular_description_generation"}]),
    # SciReasoner's Mol-Instructions protein and PEER readers
    ("opencompass.datasets.SciReasoner.Mol_Instructions.protein", "Mol_Instructions_postprocess_Protein", [{}]),
    ("opencompass.datasets.SciReasoner.Mol_Instructions.protein", "Mol_Instructions_postprocess_Protein_Design", [{}]),
    ("opencompass.datasets.SciReasoner.PEER", "PEER_postprocess", [{}]),
    ("opencompass.datasets.SciReasoner.PEER", "PEER_postprocess_default", [{}]),
    ("opencompass.datasets.SciReasoner.PEER", "PEER_postprocess_float_compare", [{"compare_number": 1}]),
    # the symbolic-regression families: SRBench's formula reader
    ("opencompass.datasets.srbench", "mydataset_postprocess", [{}]),
]


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return {"repr": repr(value)}


def record(corpus: Path) -> dict[str, Any]:
    replies = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    calls = []
    for module_name, fn_name, option_sets in CALLS:
        fn = getattr(importlib.import_module(module_name), fn_name)
        for options in option_sets:
            outputs: list[Any] = []
            for reply in replies:
                try:
                    value = fn(reply["text"], **options)
                except Exception as exc:  # recorded: the test knows where OpenCompass fails
                    outputs.append({"raises": type(exc).__name__})
                    continue
                outputs.append({"same": True} if isinstance(value, str) and value == reply["text"] else _jsonable(value))
            calls.append({"fn": fn_name, "module": module_name, "kwargs": options, "outputs": outputs})
    return {
        "about": "Outputs of OpenCompass's own postprocessors on replies.jsonl, recorded by scripts/record_oc_postprocessors.py.",
        "opencompass": importlib.metadata.version("opencompass"),
        "ids": [reply["id"] for reply in replies],
        "calls": calls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR / "replies.jsonl")
    parser.add_argument("--out", type=Path, default=CORPUS_DIR / "opencompass_outputs.json")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # jieba and OpenCompass log on import
    result = record(args.corpus)
    lines = [json.dumps(call, ensure_ascii=False, sort_keys=True) for call in result.pop("calls")]
    head = json.dumps(result, ensure_ascii=False, sort_keys=True)
    # One call per line, so that a change of behaviour shows as a one-line diff.
    args.out.write_text(head[:-1] + ', "calls": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
