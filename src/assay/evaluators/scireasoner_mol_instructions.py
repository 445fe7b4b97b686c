"""SciReasoner's Mol-Instructions molecule evaluator (``Mol_Instructions_Evaluator_Mol``), as OpenCompass 0.5.4 computes it.

It reads SMILES with RDKit and SELFIES (``pip install 'assay[chem]'``), imported
when a task is scored; descriptions are split with SciBERT's vocabulary, read from
the Hugging Face cache as LLM4Chem's captions are
(:mod:`assay.evaluators.scireasoner_llm4chem`).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.scireasoner_llm4chem import (
    caption_tokenizer_missing,
    caption_vocabulary,
    rdkit_quiet,
    text_scores,
)
from assay.evaluators.smolinstruct import RDKIT_MISSING, SELFIES_MISSING, _wordnet_missing
from assay.registry import ICL_EVALUATORS

__all__ = ["Mol_Instructions_Evaluator_Mol", "levenshtein"]

_SMILES_TASKS = ("description_guided_molecule_design", "forward_reaction_prediction", "retrosynthesis", "reagent_prediction")
TASKS = ("property_prediction_str", *_SMILES_TASKS, "molecular_description_generation")
#: How many word pieces of a description are kept, as OpenCompass's evaluator reads them.
DESCRIPTION_TRUNCATION = 512


def levenshtein(a: str, b: str) -> int:
    """The edit distance of two texts (insertions, deletions, substitutions of one character each).

    >>> levenshtein('kitten', 'sitting')
    3
    """
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _missing(module: str, message: str) -> list[str]:
    import importlib.util

    return [message] if importlib.util.find_spec(module) is None else []


def _fingerprint_scores(chem: Any, preds: list[Any], golds: list[Any], name: str) -> dict[str, float]:
    import numpy as np
    from rdkit import DataStructs

    all_chem: Any = importlib.import_module("rdkit.Chem.AllChem")
    maccs_keys: Any = importlib.import_module("rdkit.Chem.MACCSkeys")
    bad = 0
    pairs = []
    for i, (pred, gold) in enumerate(zip(preds, golds)):
        if pred is None:
            bad += 1
            continue
        if not isinstance(gold, str) or not isinstance(pred, str):
            raise EvaluationError(f"{name}: reference {i} {gold!r:.120} or its reply {pred!r:.120} is not a SMILES "
                                  "(OpenCompass stops in its debugger on it)")
        pred_mol = chem.MolFromSmiles(pred)
        gold_mol = chem.MolFromSmiles(gold)
        if pred_mol is None:
            bad += 1
            continue
        if gold_mol is None:
            raise EvaluationError(f"{name}: reference {i} {gold!r:.120} is not a SMILES RDKit reads; OpenCompass fails on it too")
        pairs.append((gold_mol, pred_mol))
    maccs, rdk, morgan = [], [], []
    for gold_mol, pred_mol in pairs:
        maccs.append(DataStructs.FingerprintSimilarity(maccs_keys.GenMACCSKeys(gold_mol), maccs_keys.GenMACCSKeys(pred_mol),
                                                       metric=DataStructs.TanimotoSimilarity))
        rdk.append(DataStructs.FingerprintSimilarity(chem.RDKFingerprint(gold_mol), chem.RDKFingerprint(pred_mol),
                                                     metric=DataStructs.TanimotoSimilarity))
        morgan.append(DataStructs.TanimotoSimilarity(all_chem.GetMorganFingerprint(gold_mol, 2),
                                                     all_chem.GetMorganFingerprint(pred_mol, 2)))
    return {"validity_score": len(pairs) / (len(pairs) + bad),
            "maccs_sims_score": float(np.mean(maccs)) if maccs else math.nan,
            "rdk_sims_score": float(np.mean(rdk)) if rdk else math.nan,
            "morgan_sims_score": float(np.mean(morgan)) if morgan else math.nan}


def _translation_scores(chem: Any, preds: list[Any], golds: list[Any]) -> dict[str, float]:
    import numpy as np
    from nltk.translate.bleu_score import corpus_bleu

    try:
        selfies: Any = importlib.import_module("selfies")
    except ImportError:
        raise EvaluationError(SELFIES_MISSING) from None
    kept = []
    for pred, gold in zip(preds, golds):
        if pred is None:
            continue
        try:
            kept.append((selfies.encoder(gold), selfies.encoder(pred), gold, pred))
        except Exception:
            continue
    bleu = float(corpus_bleu([[list(g)] for g, _, _, _ in kept], [list(p) for _, p, _, _ in kept])) if kept else 0.0
    exact = 0
    distances = []
    for _, _, gold, pred in kept:
        try:
            if chem.MolToInchi(chem.MolFromSmiles(pred)) == chem.MolToInchi(chem.MolFromSmiles(gold)):
                exact += 1
        except Exception:
            pass
        distances.append(levenshtein(pred, gold))
    return {"bleu_self_scores": bleu, "exact_match_score": exact / max(len(kept), 1),
            "levenshtein_score_smi": float(np.mean(distances)) if distances else math.nan}


@ICL_EVALUATORS.register_module()
class Mol_Instructions_Evaluator_Mol(BaseEvaluator):
    """Mol-Instructions' molecule scores for ``task`` (replies and references read by
    ``Mol_Instructions_postprocess_Mol``; with several replies per question the first is read).

    * ``property_prediction_str``: ``mae``, the mean absolute error × 1000 (both
      sides read as numbers; one that is not fails the task, as OpenCompass raises);
    * ``description_guided_molecule_design``, ``forward_reaction_prediction``,
      ``retrosynthesis``, ``reagent_prediction`` (canonical SMILES, ``None`` when
      unread): ``validity_score`` (the share of replies RDKit reads), over those the
      mean MACCS, RDKit and Morgan (radius 2, counts) Tanimoto similarities
      (``maccs_sims_score``, ``rdk_sims_score``, ``morgan_sims_score``; NaN over
      none); over the pairs SELFIES encodes, NLTK's corpus BLEU of their SELFIES
      characters (``bleu_self_scores``, 0 over none), the share with equal InChIs
      (``exact_match_score``) and the mean character edit distance of their SMILES
      (``levenshtein_score_smi``, NaN over none);
    * ``molecular_description_generation``: each reply cut after its last ``.``,
      then ``bleu2``, ``bleu4``, ``meteor_score``, ``rouge1``, ``rouge2``,
      ``rougeL`` as LLM4Chem's captions (:func:`~assay.evaluators.scireasoner_llm4chem.text_scores`,
      512 word pieces), every sample counted.

    A reference RDKit cannot read fails the task naming it.  No details, as in
    OpenCompass.
    """

    def __init__(self, task: str, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        if task not in TASKS:
            raise EvaluationError(f"Mol_Instructions_Evaluator_Mol: unknown task {task!r}; its tasks are {', '.join(TASKS)}")
        self.task = task

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit and SELFIES, or the description tokenizer and WordNet."""
        task = cfg.get("task")
        if task == "molecular_description_generation":
            return caption_tokenizer_missing() + _wordnet_missing()
        if task in _SMILES_TASKS:
            return _missing("rdkit", RDKIT_MISSING) + _missing("selfies", SELFIES_MISSING)
        return []

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = f"Mol_Instructions_Evaluator_Mol({self.task})"
        preds = [p[0] if isinstance(p, list) and p else p for p in predictions]
        golds = [r[0] if isinstance(r, list) and r else r for r in references]
        if self.task == "property_prediction_str":
            return {"mae": self._mae(preds, golds, name)}
        if self.task in _SMILES_TASKS:
            with rdkit_quiet() as chem:
                fingerprints = _fingerprint_scores(chem, preds, golds, name)
                translation = _translation_scores(chem, preds, golds)
            return {"exact_match_score": translation["exact_match_score"],
                    "bleu_self_scores": translation["bleu_self_scores"],
                    "levenshtein_score_smi": translation["levenshtein_score_smi"],
                    "rdk_sims_score": fingerprints["rdk_sims_score"],
                    "maccs_sims_score": fingerprints["maccs_sims_score"],
                    "morgan_sims_score": fingerprints["morgan_sims_score"],
                    "validity_score": fingerprints["validity_score"]}
        return self._descriptions(preds, golds, name)

    @staticmethod
    def _mae(preds: Sequence[Any], golds: Sequence[Any], name: str) -> float:
        import numpy as np

        values = []
        for side, items in (("prediction", preds), ("reference", golds)):
            try:
                values.append(np.array([float(v) for v in items]))
            except (TypeError, ValueError) as exc:
                raise EvaluationError(f"{name}: a {side} is not a number ({exc}); OpenCompass fails on it too") from None
        return float(np.average(np.average(np.abs(values[0] - values[1]), axis=0)) * 1000)

    @staticmethod
    def _descriptions(preds: Sequence[Any], golds: Sequence[Any], name: str) -> dict[str, Any]:
        pairs = []
        for i, (pred, gold) in enumerate(zip(preds, golds)):
            if not isinstance(pred, str) or not isinstance(gold, str):
                raise EvaluationError(f"{name}: sample {i}'s reply {pred!r:.80} or reference {gold!r:.80} is not text")
            pairs.append((gold, pred.rsplit(".", 1)[0] + "."))
        scores = text_scores(pairs, caption_vocabulary(name), DESCRIPTION_TRUNCATION)
        return {"bleu2": scores["bleu2"], "bleu4": scores["bleu4"], "meteor_score": scores["meteor"],
                "rouge1": scores["rouge1"], "rouge2": scores["rouge2"], "rougeL": scores["rougeL"]}
