"""SciReasoner's LLM4Chem evaluators (``smol`` and USPTO-50K retrosynthesis), as OpenCompass 0.5.4 computes them.

* ``LLM4Chem_Evaluator`` — one of LLM4Chem's 14 tasks: SMILES answers by
  InChI identity and fingerprint similarity, formulas by their elements, IUPAC
  names by their ``;``-parts, numbers by RMSE, yes/no answers by accuracy, ROC
  AUC, precision, recall, F1 and MCC, captions by BLEU, ROUGE and METEOR over
  SciBERT's word pieces;
* ``RetrosynthesisEvaluator`` — top-k accuracy of the reactants' canonical
  SMILES, and of their largest fragment.

Both read SMILES with RDKit (``pip install 'assay[chem]'``), imported when a
task is scored; a dry run names it when it is missing.  OpenCompass's SMILES
canonicalisation rebuilds each molecule atom by atom and copies each atom's
chirality with the package ``rdchiral``; assay rebuilds it the same way and
copies the chirality as rdchiral does for a molecule without atom maps (the tag
kept where the atom has three single bonds or four neighbours), so rdchiral is
not needed.  Captions need SciBERT's vocabulary (``vocab.txt`` of
``allenai/scibert_scivocab_uncased``), which only a model hub provides: assay
reads it from the Hugging Face cache and never downloads it.
"""

from __future__ import annotations

import importlib
import math
import os
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.choice import _trapezoid_roc_auc
from assay.evaluators.smolinstruct import RDKIT_MISSING, parse_molecule, wordnet_reader
from assay.registry import ICL_EVALUATORS

__all__ = ["CAPTION_TOKENIZER", "LLM4Chem_Evaluator", "RetrosynthesisEvaluator", "WordPieceTokenizer",
           "caption_metrics", "caption_tokenizer_missing", "caption_vocabulary", "canonical_smiles", "rdkit_quiet",
           "text_scores"]

#: The tokenizer OpenCompass splits captions with (its vocabulary from the Hugging Face Hub).
CAPTION_TOKENIZER = "allenai/scibert_scivocab_uncased"
#: How many word pieces of a caption are kept, as OpenCompass's evaluator passes it.
CAPTION_TRUNCATION = 2048

_SMILES_TASKS = ("forward_synthesis", "molecule_generation", "name_conversion-i2s")
_SINGLE_ANSWER = ("property_prediction-esol", "property_prediction-lipo", "property_prediction-bbbp",
                  "property_prediction-clintox", "property_prediction-hiv", "property_prediction-sider")
TASKS = ("forward_synthesis", "retrosynthesis", "molecule_captioning", "molecule_generation", "name_conversion-i2f",
         "name_conversion-i2s", "name_conversion-s2f", "name_conversion-s2i", *_SINGLE_ANSWER)


@contextmanager
def rdkit_quiet() -> Iterator[Any]:
    """RDKit's ``Chem`` with its log silenced meanwhile (InChI warnings, bad SMILES, deprecations)."""
    try:
        from rdkit import Chem, RDLogger
    except ImportError:
        raise EvaluationError(RDKIT_MISSING) from None
    log: Any = RDLogger
    log.DisableLog("rdApp.*")
    try:
        yield Chem
    finally:
        log.EnableLog("rdApp.*")


def _rdkit_missing() -> list[str]:
    import importlib.util

    return [RDKIT_MISSING] if importlib.util.find_spec("rdkit") is None else []


# -- SMILES --------------------------------------------------------------------------------------


def _rebuilt(chem: Any, smiles: str) -> str:
    """The molecule of ``smiles`` rebuilt from its atoms' symbols and charges and its bonds, then partly
    sanitised, its stereochemistry assigned and written as isomeric canonical SMILES (LLM4Chem's ``canonicalize``)."""
    all_chem: Any = importlib.import_module("rdkit.Chem.AllChem")
    source = chem.MolFromSmiles(smiles.replace(" ", ""), sanitize=False)
    source.UpdatePropertyCache()
    mol = chem.RWMol(chem.MolFromSmiles(""))
    for atom in source.GetAtoms():
        copy = chem.Atom(atom.GetSymbol())
        copy.SetFormalCharge(atom.GetFormalCharge())
        if atom.GetIsAromatic() and atom.GetNoImplicit():
            copy.SetNumExplicitHs(atom.GetNumExplicitHs())
        mol.AddAtom(copy)
    for bond in source.GetBonds():
        begin, end = bond.GetBeginAtom().GetIdx(), bond.GetEndAtom().GetIdx()
        mol.AddBond(begin, end, bond.GetBondType())
        added = mol.GetBondBetweenAtoms(begin, end)
        added.SetBondDir(bond.GetBondDir())
        added.SetStereo(bond.GetStereo())
    single = chem.BondType.SINGLE
    for atom in mol.GetAtoms():
        degree = atom.GetDegree()
        if degree < 3 or (degree == 3 and any(b.GetBondType() != single for b in atom.GetBonds())):
            continue
        atom.SetChiralTag(source.GetAtomWithIdx(atom.GetIdx()).GetChiralTag())
    flags = chem.SanitizeFlags
    chem.SanitizeMol(mol, sanitizeOps=flags.SANITIZE_SETAROMATICITY | flags.SANITIZE_PROPERTIES | flags.SANITIZE_ADJUSTHS,
                     catchErrors=True)
    all_chem.AssignStereochemistry(mol, cleanIt=False, force=True, flagPossibleStereoCenters=True)
    return str(chem.MolToSmiles(mol, isomericSmiles=True, canonical=True))


def _canonical_part(chem: Any, part: str) -> str:
    mol = chem.MolFromSmiles(part)
    for atom in mol.GetAtoms():
        atom.SetAtomMapNum(0)
    text = chem.MolToSmiles(mol, kekuleSmiles=False, isomericSmiles=True)
    for _ in range(2):
        text = chem.MolToSmiles(chem.MolFromSmiles(text), kekuleSmiles=False, isomericSmiles=True)
    rebuilt = _rebuilt(chem, text)
    again = chem.MolFromSmiles(rebuilt)
    if again is None:
        raise ValueError(f"{rebuilt!r} does not parse after canonicalisation")
    return str(chem.MolToSmiles(again, kekuleSmiles=True, isomericSmiles=True))


def canonical_smiles(chem: Any, smiles: str, none_for_error: bool = True) -> str | None:
    """LLM4Chem's canonical SMILES: each ``.``-part written, read and written again thrice (atom maps
    cleared), rebuilt (:func:`_rebuilt`) and written in Kekulé form; the parts sorted and joined by ``.``.

    Quirks kept: the first part RDKit cannot read is returned as it is, alone
    (``'CCO.X'`` gives ``'X'``), so an unreadable answer is not invalid; an empty
    part (``'C..O'``) or a failure later is an error — ``None``, or raised when
    ``none_for_error`` is false (as for references).
    """
    parts = []
    for part in smiles.split("."):
        try:
            if part == "":
                raise ValueError("SMILES contains an empty part")
            if chem.MolFromSmiles(part) is None:
                return part
            parts.append(_canonical_part(chem, part))
        except Exception:
            if none_for_error:
                return None
            raise
    return ".".join(sorted(parts))


def _inchi(chem: Any, smiles: str) -> str:
    mol = chem.MolFromSmiles(smiles)
    return "" if mol is None else str(chem.MolToInchi(mol))


def _molecule_id(chem: Any, smiles: str) -> tuple[str, ...]:
    return tuple(sorted({_inchi(chem, part) for part in smiles.split(".")}))


def _canonical_golds(chem: Any, golds: list[list[str]], name: str) -> list[list[str]]:
    out = []
    for i, sample in enumerate(golds):
        canonical = []
        for gold in sample:
            try:
                value = canonical_smiles(chem, gold.strip(), none_for_error=False)
            except Exception as exc:
                raise EvaluationError(f"{name}: reference {i} {gold!r:.120} is not a SMILES RDKit can canonicalise "
                                      f"({type(exc).__name__}: {exc}); OpenCompass fails on it too") from None
            canonical.append(str(value))
        out.append(canonical)
    return out


def _fingerprints(chem: Any, preds: list[str], golds: list[list[str]], name: str) -> tuple[float, float, float]:
    import numpy as np
    from rdkit import DataStructs

    all_chem: Any = importlib.import_module("rdkit.Chem.AllChem")
    maccs_keys: Any = importlib.import_module("rdkit.Chem.MACCSkeys")

    maccs: list[float] = []
    rdk: list[float] = []
    morgan: list[float] = []
    for i, (pred, sample) in enumerate(zip(preds, golds)):
        pred_mol = chem.MolFromSmiles(pred)
        if pred_mol is None:
            continue
        gold_mols = []
        for gold in sample:
            gold_mol = chem.MolFromSmiles(gold)
            if gold_mol is None:
                raise EvaluationError(f"{name}: reference {i} {gold!r:.120} is not a SMILES RDKit reads, for its "
                                      "fingerprint; OpenCompass fails on it too")
            gold_mols.append(gold_mol)
        best = [0.0, 0.0, 0.0]
        for gold_mol in gold_mols:
            best[0] = max(best[0], DataStructs.FingerprintSimilarity(
                maccs_keys.GenMACCSKeys(gold_mol), maccs_keys.GenMACCSKeys(pred_mol), metric=DataStructs.TanimotoSimilarity))
            best[1] = max(best[1], DataStructs.FingerprintSimilarity(
                chem.RDKFingerprint(gold_mol), chem.RDKFingerprint(pred_mol), metric=DataStructs.TanimotoSimilarity))
            best[2] = max(best[2], DataStructs.TanimotoSimilarity(
                all_chem.GetMorganFingerprint(gold_mol, 2), all_chem.GetMorganFingerprint(pred_mol, 2)))
        maccs.append(best[0])
        rdk.append(best[1])
        morgan.append(best[2])
    return tuple(float(np.mean(v)) if v else math.nan for v in (maccs, rdk, morgan))  # type: ignore[return-value]


def _smiles_metrics(preds: list[str], golds_raw: list[list[str]], name: str, multiple: bool) -> dict[str, Any]:
    n = len(preds)
    with rdkit_quiet() as chem:
        canonical: list[str | None] = []
        no_answer: list[bool] = []
        invalid: list[bool] = []
        for pred in preds:
            if pred == "":
                canonical.append(None)
                no_answer.append(True)
                invalid.append(False)
                continue
            value = canonical_smiles(chem, pred)
            canonical.append(value)
            no_answer.append(False)
            invalid.append(value is None)
        golds = _canonical_golds(chem, golds_raw, name)
        result: dict[str, Any] = {"num_all": n, "num_t1_no_answer": sum(no_answer), "num_t1_invalid": sum(invalid)}
        exact = []
        for answer, sample in zip(canonical, golds):
            if answer is None or answer.strip() == "":
                exact.append(False)
                continue
            wanted = _molecule_id(chem, answer)
            exact.append(any(_molecule_id(chem, gold) == wanted for gold in sample))
        result["num_t1_exact_match"] = sum(exact)
        kept = [(p, g) for p, g, empty, bad in zip(canonical, golds, no_answer, invalid)
                if p is not None and p.strip() != "" and not empty and not bad]
        scores = _fingerprints(chem, [p for p, _ in kept], [g for _, g in kept], name)
        result["t1_maccs_fps"], result["t1_rdk_fps"], result["t1_morgan_fps"] = scores
        if multiple:
            overlap = []
            for answer, sample in zip(canonical, golds):
                if answer is None:
                    overlap.append(False)
                    continue
                parts = {_inchi(chem, p) for p in answer.split(".")}
                overlap.append(any(parts & {_inchi(chem, p) for p in gold.split(".")} for gold in sample))
            # OpenCompass counts the overlapping answers under both names
            result["num_t1_subset"] = result["num_t1_intersection"] = sum(overlap)
    return result


# -- formulas, numbers, yes/no -------------------------------------------------------------------


def _formula_metrics(preds: list[str], golds: list[list[str]], split: bool, name: str) -> dict[str, Any]:
    golds = [[g.strip() for g in sample] for sample in golds]
    for i, sample in enumerate(golds):
        if any(g == "" for g in sample):
            raise EvaluationError(f"{name}: reference {i} is empty; OpenCompass fails on it too")
    n = len(preds)
    result: dict[str, Any] = {"num_all": n, "num_t1_no_answer": sum(p == "" for p in preds)}
    if split:
        matched = sum(any(tuple(sorted(p.split(";"))) == tuple(sorted(g.split(";"))) for g in sample)
                      for p, sample in zip(preds, golds))
        result["num_t1_split_match"] = matched
        return result
    matches = 0
    invalid = 0
    for i, (pred, sample) in enumerate(zip(preds, golds)):
        if pred == "":
            continue
        try:
            elements = parse_molecule(pred)
        except ValueError:
            invalid += 1
            continue
        for gold in sample:
            try:
                gold_elements = parse_molecule(gold)
            except ValueError:
                raise EvaluationError(f"{name}: reference {i} {gold!r:.120} is not a molecular formula; "
                                      "OpenCompass fails on it too") from None
            if elements == gold_elements:
                matches += 1
                break
    result["num_t1_ele_match"] = matches
    result["num_t1_formula_invalid"] = invalid
    return result


def _number_metrics(preds: list[str], golds: list[str], name: str) -> dict[str, Any]:
    import numpy as np

    no_answer = invalid = 0
    pairs: list[tuple[float, float]] = []
    for i, (pred, gold) in enumerate(zip(preds, golds)):
        if pred == "":
            no_answer += 1
            continue
        try:
            value = float(pred)
        except ValueError:
            invalid += 1
            continue
        try:
            pairs.append((value, float(gold)))
        except ValueError:
            raise EvaluationError(f"{name}: reference {i} {gold!r:.120} is not a number; OpenCompass fails on it too") from None
    with np.errstate(all="ignore"):
        diff = np.array([p for p, _ in pairs]) - np.array([g for _, g in pairs])
        rmse = float(np.sqrt((diff ** 2).mean())) if pairs else math.nan
    return {"num_all": len(preds), "num_no_answer": no_answer, "num_invalid": invalid, "RMSE": rmse}


def _binary_scores(truth: list[int], guess: list[int]) -> dict[str, float]:
    """scikit-learn's binary precision, recall and F1 (0 where undefined) and Matthews correlation."""
    import numpy as np

    tp = sum(t == 1 and g == 1 for t, g in zip(truth, guess))
    predicted = sum(guess)
    actual = sum(truth)
    precision = tp / predicted if predicted else 0.0
    recall = tp / actual if actual else 0.0
    f1 = 2 * tp / (actual + predicted) if actual + predicted else 0.0
    n = len(truth)
    t_sum = np.array([n - actual, actual], dtype=np.float64)
    p_sum = np.array([n - predicted, predicted], dtype=np.float64)
    correct = np.float64(sum(t == g for t, g in zip(truth, guess)))
    total = p_sum.sum()
    cov_tp = correct * total - np.dot(t_sum, p_sum)
    cov_pp = total ** 2 - np.dot(p_sum, p_sum)
    cov_tt = total ** 2 - np.dot(t_sum, t_sum)
    mcc = 0.0 if cov_pp * cov_tt == 0 else float(cov_tp / np.sqrt(cov_tt * cov_pp))
    return {"precision": float(precision), "recall": float(recall), "f1_score": float(f1), "mcc": mcc}


def _boolean_metrics(preds: list[str], golds: list[str], name: str) -> dict[str, Any]:
    no_answer = invalid = correct = 0
    truth: list[int] = []
    guess: list[int] = []
    for pred, gold in zip(preds, golds):
        answer = pred.strip().lower()
        if answer == "":
            no_answer += 1
            continue
        if answer not in ("yes", "no"):
            invalid += 1
            continue
        guess.append(1 if answer == "yes" else 0)
        truth.append(1 if gold.strip().lower() == "yes" else 0)
        correct += guess[-1] == truth[-1]
    result: dict[str, Any] = {"num_all": len(preds), "num_no_answer": no_answer, "num_invalid": invalid,
                              "num_correct": correct}
    auc = _trapezoid_roc_auc(truth, [float(g) for g in guess]) if truth else None
    if auc is None:
        raise EvaluationError(
            f"{name}: the ROC AUC is undefined: the {len(truth)} samples answered yes or no have "
            f"{'no' if not truth else 'one'} class of reference ({sorted(set(truth))}); OpenCompass fails on it too")
    result["roc_auc_score"] = auc
    scores = _binary_scores(truth, guess)
    result.update(precision=scores["precision"], recall=scores["recall"], f1_score=scores["f1_score"], mcc=scores["mcc"])
    return result


# -- captions --------------------------------------------------------------------------------------


class WordPieceTokenizer:
    """BERT's uncased WordPiece tokenizer over a ``vocab.txt`` (one piece a line), as ``BertTokenizerFast`` splits text.

    Control characters, ``\\ufffd`` and NUL are dropped, other white space is a
    space; Chinese characters are split apart; the text is lower-cased and its
    accents removed (NFD, marks dropped); it is split at white space and around
    each punctuation character (ASCII symbols and Unicode ``P*``); a word of more
    than 100 characters is ``[UNK]``, other words are cut greedily into the
    longest pieces of the vocabulary (continuations ``##``-prefixed), a word
    that cannot be cut so being ``[UNK]``.

    >>> import tempfile, pathlib
    >>> folder = tempfile.mkdtemp()
    >>> _ = (pathlib.Path(folder) / 'vocab.txt').write_text('[UNK]\\nthe\\nmol\\n##ecule\\n.\\n')
    >>> WordPieceTokenizer(folder).tokenize('The Molecule.')
    ['the', 'mol', '##ecule', '.']
    """

    def __init__(self, folder: str) -> None:
        path = os.path.join(folder, "vocab.txt")
        try:
            with open(path, encoding="utf-8") as handle:
                self.vocab = {line.rstrip("\n") for line in handle}
        except OSError as exc:
            raise EvaluationError(f"LLM4Chem_Evaluator: cannot read the caption tokenizer's vocabulary {path}: {exc}") from None

    @staticmethod
    def _punctuation(char: str) -> bool:
        code = ord(char)
        if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
            return True
        return unicodedata.category(char).startswith("P")

    @staticmethod
    def _chinese(code: int) -> bool:
        return any(lo <= code <= hi for lo, hi in (
            (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
            (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)))

    def _words(self, text: str) -> list[str]:
        cleaned = []
        for char in text:
            code = ord(char)
            if code == 0 or code == 0xFFFD:
                continue
            category = unicodedata.category(char)
            if char in " \t\n\r" or category == "Zs":
                cleaned.append(" ")
            elif category.startswith("C"):
                continue
            elif self._chinese(code):
                cleaned.append(f" {char} ")
            else:
                cleaned.append(char)
        words = []
        for token in "".join(cleaned).lower().split():
            token = "".join(c for c in unicodedata.normalize("NFD", token) if unicodedata.category(c) != "Mn")
            current = ""
            for char in token:
                if self._punctuation(char):
                    if current:
                        words.append(current)
                    words.append(char)
                    current = ""
                else:
                    current += char
            if current:
                words.append(current)
        return words

    def tokenize(self, text: str) -> list[str]:
        pieces: list[str] = []
        for word in self._words(text):
            if len(word) > 100:
                pieces.append("[UNK]")
                continue
            start = 0
            cut: list[str] = []
            while start < len(word):
                end = len(word)
                found = None
                while start < end:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.vocab:
                        found = piece
                        break
                    end -= 1
                if found is None:
                    cut = ["[UNK]"]
                    break
                cut.append(found)
                start = end
            pieces.extend(cut)
        return pieces


def _hub_snapshot(repo: str) -> str | None:
    """The newest snapshot folder of ``repo`` in the Hugging Face cache that holds ``vocab.txt``, else ``None``."""
    cache = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface"), "hub")
    folder = os.path.join(cache, "models--" + repo.replace("/", "--"), "snapshots")
    try:
        found = [os.path.join(folder, s) for s in os.listdir(folder) if os.path.isfile(os.path.join(folder, s, "vocab.txt"))]
    except OSError:
        return None
    return max(found, key=os.path.getmtime) if found else None


def caption_tokenizer_missing() -> list[str]:
    if _hub_snapshot(CAPTION_TOKENIZER) is not None:
        return []
    return [f"molecule captions are split with {CAPTION_TOKENIZER}'s vocabulary, which only a model hub provides and "
            "the Hugging Face cache does not hold (huggingface-cli download "
            f"{CAPTION_TOKENIZER} vocab.txt, on a machine that reaches the Hub)"]


def text_scores(pairs: Sequence[tuple[str, str]], tokenizer: WordPieceTokenizer, truncation: int) -> dict[str, float]:
    """NLTK's corpus BLEU-2 and BLEU-4 and the mean METEOR over the word pieces (the first ``truncation``) of
    each (reference, reply), and the mean rouge_score ROUGE-1, -2 and -L F-measures of the texts (reply as
    the target, as in OpenCompass): ``bleu2``, ``bleu4``, ``meteor``, ``rouge1``, ``rouge2``, ``rougeL``.
    With no pair the means are NaN, as NumPy's mean of nothing."""
    import warnings

    import numpy as np
    from nltk.translate.bleu_score import corpus_bleu
    from nltk.translate.meteor_score import meteor_score
    from rouge_score import rouge_scorer

    wordnet = wordnet_reader()
    references: list[list[list[str]]] = []
    hypotheses: list[list[str]] = []
    meteors: list[float] = []
    rouges = []
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    for gold, pred in pairs:
        gold_pieces = tokenizer.tokenize(gold)[:truncation]
        pred_pieces = tokenizer.tokenize(pred)[:truncation]
        references.append([gold_pieces])
        hypotheses.append(pred_pieces)
        meteors.append(meteor_score([gold_pieces], pred_pieces, wordnet=wordnet))
        rouges.append(scorer.score(pred, gold))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "bleu2": float(corpus_bleu(references, hypotheses, weights=(.5, .5))),
            "bleu4": float(corpus_bleu(references, hypotheses, weights=(.25, .25, .25, .25))),
            "meteor": float(np.mean(meteors)),
            "rouge1": float(np.mean([r["rouge1"].fmeasure for r in rouges])),
            "rouge2": float(np.mean([r["rouge2"].fmeasure for r in rouges])),
            "rougeL": float(np.mean([r["rougeL"].fmeasure for r in rouges])),
        }


def caption_metrics(preds: Sequence[str], golds: Sequence[str], tokenizer: WordPieceTokenizer,
                    truncation: int = CAPTION_TRUNCATION) -> dict[str, Any]:
    """LLM4Chem's caption scores: :func:`text_scores` over the samples with a (stripped) reply, as
    ``bleu2``, ``bleu4``, ``rouge_1``, ``rouge_2``, ``rouge_l``, ``meteor_score``, with ``num_all`` and
    ``num_no_answer``."""
    preds = [p.strip() for p in preds]
    golds = [g.strip() for g in golds]
    scores = text_scores([(g, p) for g, p in zip(golds, preds) if p != ""], tokenizer, truncation)
    return {"num_all": len(preds), "num_no_answer": sum(p == "" for p in preds), "bleu2": scores["bleu2"],
            "bleu4": scores["bleu4"], "rouge_1": scores["rouge1"], "rouge_2": scores["rouge2"],
            "rouge_l": scores["rougeL"], "meteor_score": scores["meteor"]}


def caption_vocabulary(name: str) -> WordPieceTokenizer:
    """SciBERT's tokenizer from the Hugging Face cache; an error naming ``name`` (the evaluator) when it is not there."""
    folder = _hub_snapshot(CAPTION_TOKENIZER)
    if folder is None:
        raise EvaluationError(f"{name}: {caption_tokenizer_missing()[0]}")
    return WordPieceTokenizer(folder)


# -- the evaluators ---------------------------------------------------------------------------------


def _first_texts(values: Sequence[Any], side: str, name: str) -> list[str]:
    out = []
    for i, value in enumerate(values):
        item = value[0] if isinstance(value, list) and value else value
        if not isinstance(item, str):
            raise EvaluationError(f"{name}: {side} {i} is {item!r:.80}, expected text")
        out.append(item)
    return out


def _rounded_shares(result: dict[str, Any]) -> None:
    n = result["num_all"]
    for count, share in (("num_t1_exact_match", "top1_exact_match"), ("num_t1_ele_match", "top1_ele_match"),
                         ("num_correct", "accuracy"), ("num_t1_split_match", "top1_split_match")):
        if count in result:
            result[share] = round(result[count] / n * 100, 2)


@ICL_EVALUATORS.register_module()
class LLM4Chem_Evaluator(BaseEvaluator):
    """LLM4Chem's scores for ``task`` (replies and references each read by ``LLM4Chem_postprocess``; with
    several replies per question only the first is read).

    * ``forward_synthesis``, ``molecule_generation``, ``name_conversion-i2s``: the
      answers' canonical SMILES (:func:`canonical_smiles`), ``num_all``,
      ``num_t1_no_answer`` (empty replies), ``num_t1_invalid`` (replies the
      canonicalisation fails on), ``num_t1_exact_match`` (the set of the parts'
      InChIs equals the reference's; a part RDKit cannot read has the InChI
      ``''``, so two unreadable answers match, as in OpenCompass) and
      ``top1_exact_match`` (percent, 2 decimals), and over the readable replies
      the mean MACCS, RDKit and Morgan (radius 2, counts) Tanimoto similarities
      ``t1_maccs_fps``, ``t1_rdk_fps``, ``t1_morgan_fps`` (NaN when there is none);
    * ``retrosynthesis``: the exact match and similarities, and ``num_t1_subset`` and
      ``num_t1_intersection``, both the replies sharing a part with the
      reference (OpenCompass counts the overlap under both names);
    * ``name_conversion-i2f``/``-s2f``: ``num_t1_ele_match`` (the formula's
      element counts equal the reference's, read as ``NCElementMatchEvaluator``
      reads them), ``num_t1_formula_invalid``, ``top1_ele_match``;
    * ``name_conversion-s2i``: ``num_t1_split_match`` (the sorted ``;``-parts
      equal), ``top1_split_match``;
    * ``property_prediction-esol``/``-lipo``: ``RMSE`` over the replies that are
      numbers (Python's ``float``), ``num_no_answer``, ``num_invalid``;
    * ``property_prediction-bbbp``/``-clintox``/``-hiv``/``-sider``: over the
      replies ``yes`` or ``no`` (any case), ``num_correct`` and ``accuracy``
      (percent of all, 2 decimals), scikit-learn's ``roc_auc_score``,
      ``precision``, ``recall``, ``f1_score`` and ``mcc`` (fractions);
    * ``molecule_captioning``: :func:`caption_metrics`, split with SciBERT's
      vocabulary from the Hugging Face cache.

    Where OpenCompass fails (a reference RDKit cannot canonicalise, an empty
    formula, a ROC AUC over one class), the task fails naming the reference
    or the reason.  No details, as in OpenCompass.  Needs RDKit for the SMILES
    tasks, WordNet's files for captions (``pip install 'assay[chem]'``).
    """

    def __init__(self, task: str, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        if task not in TASKS:
            raise EvaluationError(f"LLM4Chem_Evaluator: unknown task {task!r}; LLM4Chem's tasks are {', '.join(TASKS)}")
        self.task = task

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit, or the caption tokenizer's vocabulary and WordNet's files."""
        from assay.evaluators.smolinstruct import _wordnet_missing

        task = cfg.get("task")
        if task == "molecule_captioning":
            return caption_tokenizer_missing() + _wordnet_missing()
        if task in _SMILES_TASKS or task == "retrosynthesis":
            return _rdkit_missing()
        return []

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = f"LLM4Chem_Evaluator({self.task})"
        preds = _first_texts(predictions, "prediction", name)
        golds = _first_texts(references, "reference", name)
        task = self.task
        if task in _SMILES_TASKS or task == "retrosynthesis":
            result = _smiles_metrics(preds, [[g] for g in golds], name, multiple=task == "retrosynthesis")
        elif task == "molecule_captioning":
            result = caption_metrics(preds, golds, caption_vocabulary(name))
        elif task in ("name_conversion-i2f", "name_conversion-s2f", "name_conversion-s2i"):
            result = _formula_metrics(preds, [[g] for g in golds], task == "name_conversion-s2i", name)
        elif task in ("property_prediction-esol", "property_prediction-lipo"):
            result = _number_metrics(preds, golds, name)
        else:
            result = _boolean_metrics(preds, golds, name)
        _rounded_shares(result)
        return result


def _clear_map_canonical(chem: Any, smiles: str, synthon: bool, largest: bool) -> Any:
    """The reactants' isomeric SMILES with atom maps cleared and, with ``largest``, the (full, largest
    fragment) pair; ``''`` (or ``('', '')``) when RDKit cannot read or write it."""
    mol = chem.MolFromSmiles(smiles, sanitize=not synthon)
    if mol is None:
        return ("", "") if largest else ""
    for atom in mol.GetAtoms():
        if atom.HasProp("molAtomMapNumber"):
            atom.ClearProp("molAtomMapNumber")
    try:
        full = str(chem.MolToSmiles(mol, isomericSmiles=True))
    except Exception:
        return ("", "") if largest else ""
    if not largest:
        return full
    fragments = full.split(".")
    if len(fragments) == 1:
        return full, full
    sizes = []
    for fragment in fragments:
        part = chem.MolFromSmiles(fragment, sanitize=not synthon)
        if part is not None:
            sizes.append((fragment, part.GetNumAtoms()))
    if not sizes:
        return full, ""
    biggest = sorted(sizes, key=lambda item: item[1], reverse=True)[0][0]
    return full, _clear_map_canonical(chem, biggest, synthon, False)


def _ranked(group: list[list[tuple[str, str]]], beam_size: int, n_best: int, alpha: float,
            raw: bool) -> tuple[list[tuple[str, str]], list[int]]:
    scores: dict[tuple[str, str], float] = {}
    highest: dict[tuple[str, str], int] = {}
    invalid = [0] * beam_size
    if raw:
        for k, pred in enumerate(group[0]):
            if not pred or not pred[0]:
                invalid[k] += 1
                continue
            scores[pred] = 1 / (alpha * k + 1)
        ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    else:
        for beams in group:
            seen: list[tuple[str, str]] = []
            for k, pred in enumerate(beams):
                if pred and pred[0]:
                    if pred not in seen:
                        seen.append(pred)
                else:
                    invalid[k] += 1
            for k, pred in enumerate(seen):
                scores[pred] = scores.get(pred, 0) + 1 / (alpha * k + 1)
                highest[pred] = min(k, highest.get(pred, k))
        ranked = sorted(((p, s + highest[p] * -1e8) for p, s in scores.items()), key=lambda item: item[1], reverse=True)
    return [p for p, _ in ranked[:n_best]], invalid


@ICL_EVALUATORS.register_module()
class RetrosynthesisEvaluator(BaseEvaluator):
    """USPTO-50K's retrosynthesis: top-k accuracy of the reactants' SMILES (after ``Retrosynthesis_postprocess``).

    Replies come ``beam_size`` per question per augmentation, flattened (a list
    reply is spread out); another count is an error record.  Each side is read by
    RDKit (unsanitised with ``synthon``), its atom maps cleared and written as
    isomeric SMILES, with its largest fragment (most atoms, the first of equals)
    written again; unreadable is ``''``.  Per question the readable beams are
    ranked — with one augmentation by beam position, else by the summed
    ``1/(score_alpha·k+1)`` of their de-duplicated positions, the best position
    first — and the first ``n_best`` kept.  Metrics, percent of all questions
    (those with an unreadable reference count as misses): ``Top-k Accuracy``
    (the full SMILES among the first k) and ``Top-k MaxFrag Accuracy`` (the
    largest fragment) for k in 1, 3, 5, 10 up to ``n_best``, and ``Invalid SMILES
    Rate (at beam 1)`` over the questions with a readable reference, divided by
    all questions × augmentations (as in OpenCompass).  ``process_number`` is
    accepted and not read (assay reads the SMILES in the task's process).  No
    details, as in OpenCompass.  Needs RDKit.
    """

    def __init__(self, beam_size: int = 10, n_best: int = 10, augmentation: int = 1, score_alpha: float = 1.0,
                 synthon: bool = False, process_number: int | None = None) -> None:
        super().__init__()
        self.beam_size = beam_size
        self.n_best = n_best
        self.augmentation = augmentation
        self.score_alpha = score_alpha
        self.synthon = synthon

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit when it is missing."""
        return _rdkit_missing()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if not predictions or not references:
            return {"error": "RetrosynthesisEvaluator: no samples to score"}
        if isinstance(predictions[0], list):
            predictions = [x for y in predictions for x in y]
        size = len(references)
        expected = size * self.augmentation * self.beam_size
        if len(predictions) != expected:
            return {"error": f"Length of predictions ({len(predictions)}) does not match expected length ({expected})"}
        for side, values in (("prediction", predictions), ("reference", references)):
            for i, value in enumerate(values):
                if not isinstance(value, str):
                    return {"error": f"RetrosynthesisEvaluator: {side} {i} is {value!r:.80}, expected text"}
        with rdkit_quiet() as chem:
            preds = [_clear_map_canonical(chem, p, self.synthon, True) for p in predictions]
            golds = [_clear_map_canonical(chem, r, self.synthon, True) for r in references]
        accuracy = [0] * self.n_best
        fragment_accuracy = [0] * self.n_best
        invalid_total = [0] * self.beam_size
        for i in range(size):
            group = [preds[(i * self.augmentation + j) * self.beam_size:(i * self.augmentation + j + 1) * self.beam_size]
                     for j in range(self.augmentation)]
            target = golds[i]
            if not target or not target[0]:
                continue
            ranked, invalid = _ranked(group, self.beam_size, self.n_best, self.score_alpha, self.augmentation == 1)
            for j, count in enumerate(invalid):
                invalid_total[j] += count
            for j, pred in enumerate(ranked):
                if pred[0] == target[0]:
                    for k in range(j, self.n_best):
                        accuracy[k] += 1
                    break
            for j, pred in enumerate(ranked):
                if pred[1] and pred[1] == target[1]:
                    for k in range(j, self.n_best):
                        fragment_accuracy[k] += 1
                    break
        result: dict[str, Any] = {}
        for k in (1, 3, 5, 10):
            if k <= self.n_best:
                result[f"Top-{k} Accuracy"] = accuracy[k - 1] / size * 100
                result[f"Top-{k} MaxFrag Accuracy"] = fragment_accuracy[k - 1] / size * 100
        if self.beam_size > 0:
            total = size * self.augmentation
            result["Invalid SMILES Rate (at beam 1)"] = invalid_total[0] / total * 100 if total > 0 else 0
        return result
