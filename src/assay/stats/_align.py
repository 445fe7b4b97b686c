"""Which samples of two results are the same question: alignment by the tools' ids or by content.

Two results compared sample by sample (``assay compare``) must pair each
sample of one model with the same question of the other.  Results of one
tool (or both assay's own) list the same samples under the same ids; results
of two tools do not: lm-evaluation-harness numbers its documents
(``doc_id``), inspect_ai names its samples by the dataset's ids, HELM by its
instance ids, and each sends the question inside a prompt of its own template.

* **by id** — a sample's identity is its tool's id.  Where both samples carry
  a document hash (lm-evaluation-harness's ``doc_hash``) the hashes must agree,
  and where both carry a question the questions must: the same id over two
  different documents is refused (``conflicts``).
* **by content** — a sample's identity is its question text, normalized
  (Unicode NFKC, case folded, runs of white space made one space): the
  question the tool logged before any template (inspect_ai's input, HELM's
  instance input, the lm-evaluation-harness document field that its prompt
  quotes), else the prompt the model saw.  Templates differ between tools, the
  question rarely does, so the question is what is compared — not the prompt,
  whose template would tell every pair apart, and not the reference, which
  tools format differently (lm-evaluation-harness logs GSM8K's whole worked
  answer, others only its number).  Samples pair when their questions are
  equal as words and punctuation marks; a question left over pairs with the one
  prompt of the other side that quotes it whole (its words, not parts of them:
  ``5 plus 6`` is not quoted by ``5 plus 66``).  The references then check the pairs:
  where both samples have one and neither, normalized, contains the other's
  words in order, the pair is refused (``conflicts``).

Either way a sample whose identity occurs twice on either side
(``duplicates``: both copies and the other side's sample of that identity),
or that has several candidates by quotation (``ambiguous``: a question several
prompts quote, a prompt that quotes several questions), is refused rather than
guessed at, and counted.

>>> a = [SampleIdentity('0', question='What is 2 plus 3?', reference='2 + 3 = 5\\n#### 5'),
...      SampleIdentity('1', question='What is 4 plus 4?', reference='8')]
>>> b = [SampleIdentity('q7', prompt='Q: what is 4  plus 4?\\nA:', reference='8'),
...      SampleIdentity('q9', question='What is 2 plus 3?', reference='5')]
>>> al = align_samples(a, b, 'content')
>>> al.pairs, al.counts()['aligned']
([(0, 1), (1, 0)], 2)
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from assay._dataclass import DataclassMethods, FrozenMethods

__all__ = ["ALIGN_MODES", "Alignment", "SampleIdentity", "align_samples", "normalize_text", "references_agree"]

#: ``auto`` is the caller's choice between the two (by id within one tool, by content across tools).
ALIGN_MODES = ("auto", "id", "content")
#: Example ids listed per kind of unaligned sample.
EXAMPLES = 5

_SPACE = re.compile(r"\s+")


def normalize_text(text: Any) -> str | None:
    """Text as compared: NFKC, case folded, white space collapsed and stripped; ``None`` for no text.

    >>> normalize_text('  What IS\\n 2+2? '), normalize_text(''), normalize_text(None)
    ('what is 2+2?', None, None)
    """
    if not isinstance(text, str):
        return None
    out = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return out or None


_TOKEN = re.compile(r"\w+|[^\w\s]")
#: How many first words of a question index it for finding it in prompts.
_HEAD = 3


def _words(text: str) -> list[str]:
    """Normalized text as words and punctuation marks (``'6?'`` is ``['6', '?']``)."""
    return _TOKEN.findall(text)


@lru_cache(maxsize=1 << 16)
def _tokens(text: str) -> tuple[str, ...]:
    """A text's normalized words and punctuation marks (kept for the key and the quotation search alike)."""
    norm = normalize_text(text)
    return tuple(_words(norm)) if norm else ()


def _key(text: Any) -> str | None:
    return " ".join(_tokens(text)) or None if isinstance(text, str) else None


def _contains(longer: list[str], shorter: list[str]) -> bool:
    n = len(shorter)
    return any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def references_agree(a: Any, b: Any) -> bool | None:
    """Whether two samples' references can be the same answer: one's normalized words appear, in order and
    together, in the other's (``'5'`` in ``'2 + 3 = 5 #### 5'``); a list agrees when any of its items does.
    ``None`` when either has no reference.

    >>> references_agree('5', '2 + 3 = 5\\n#### 5'), references_agree('5', '55'), references_agree(['x', 'Five'], 'five')
    (True, False, True)
    """
    items_a = [t for t in (normalize_text(x) for x in (a if isinstance(a, list) else [a])) if t]
    items_b = [t for t in (normalize_text(x) for x in (b if isinstance(b, list) else [b])) if t]
    if not items_a or not items_b:
        return None
    for x in items_a:
        for y in items_b:
            wx, wy = _words(x), _words(y)
            if _contains(wx, wy) or _contains(wy, wx):
                return True
    return False


@dataclass(repr=False, eq=False)
class SampleIdentity(FrozenMethods):
    """What identifies one sample of a result.

    Attributes:
        id: the tool's id (lm-evaluation-harness's ``doc_id``, inspect_ai's sample id, HELM's instance id;
            assay's own: the sample's index), as a string.
        question: the question before any template, where known.
        prompt: the prompt the model saw.
        reference: the reference answer (a string or a list of them).
        doc_hash: the tool's hash of the document, where it logs one.
    """

    id: str
    question: str | None = None
    prompt: str | None = None
    reference: Any = None
    doc_hash: str | None = None


@dataclass(repr=False, eq=False)
class Alignment(DataclassMethods):
    """How two results' samples paired: ``pairs`` of (index in A, index in B), in A's order, and what did not pair.

    ``unaligned_a``/``unaligned_b`` hold the ids of samples that found no partner; ``duplicates_*`` those whose
    identity occurs more than once on either side (the copies, and the sample of the other side they would pair with);
    ``ambiguous_a``/``ambiguous_b`` those with several candidates: a question several prompts of the other side
    quote, a prompt several questions of the other side are quoted by; ``conflicts`` (id in A, id in B, why) pairs refused for a differing
    document hash or reference.
    """

    mode: Literal["id", "content"]
    n_a: int
    n_b: int
    pairs: list[tuple[int, int]] = field(default_factory=list)
    unaligned_a: list[str] = field(default_factory=list)
    unaligned_b: list[str] = field(default_factory=list)
    duplicates_a: list[str] = field(default_factory=list)
    duplicates_b: list[str] = field(default_factory=list)
    ambiguous_a: list[str] = field(default_factory=list)
    ambiguous_b: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str, str]] = field(default_factory=list)
    #: samples without the identity the mode needs (no question nor prompt), per side
    unidentified_a: list[str] = field(default_factory=list)
    unidentified_b: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many samples: of each side, aligned, left over per side, and refused per reason."""
        return {
            "samples_a": self.n_a, "samples_b": self.n_b, "aligned": len(self.pairs),
            "unaligned_a": len(self.unaligned_a), "unaligned_b": len(self.unaligned_b),
            "duplicates_a": len(self.duplicates_a), "duplicates_b": len(self.duplicates_b),
            "ambiguous_a": len(self.ambiguous_a), "ambiguous_b": len(self.ambiguous_b), "conflicts": len(self.conflicts),
            "unidentified_a": len(self.unidentified_a), "unidentified_b": len(self.unidentified_b),
        }

    def to_json(self) -> dict[str, Any]:
        """The counts and a few example ids of each kind (at most :data:`EXAMPLES`)."""
        out: dict[str, Any] = {"mode": self.mode, **self.counts()}
        examples: dict[str, Any] = {}
        for name in ("unaligned_a", "unaligned_b", "duplicates_a", "duplicates_b", "ambiguous_a", "ambiguous_b",
                     "unidentified_a", "unidentified_b"):
            ids = getattr(self, name)
            if ids:
                examples[name] = ids[:EXAMPLES]
        if self.conflicts:
            examples["conflicts"] = [{"a": a, "b": b, "why": why} for a, b, why in self.conflicts[:EXAMPLES]]
        out["examples"] = examples
        return out

    def describe(self) -> str:
        """One line: ``aligned 19 of 24 (A) and 23 (B) samples by content; A unaligned 4 (0, 1, 2, 3); …``, each kind
        of sample left out counted, with up to :data:`EXAMPLES` ids."""
        c = self.counts()
        parts = [f"aligned {c['aligned']} of {self.n_a} (A) and {self.n_b} (B) samples by {self.mode}"]
        for label, ids in (
            ("A unaligned", self.unaligned_a), ("B unaligned", self.unaligned_b),
            ("A duplicates refused", self.duplicates_a), ("B duplicates refused", self.duplicates_b),
            ("A ambiguous refused", self.ambiguous_a), ("B ambiguous refused", self.ambiguous_b),
            ("A without identity", self.unidentified_a),
            ("B without identity", self.unidentified_b),
        ):
            if ids:
                parts.append(f"{label} {len(ids)} ({_sample(ids)})")
        if self.conflicts:
            shown = ", ".join(f"{a}~{b}: {why}" for a, b, why in self.conflicts[:EXAMPLES])
            parts.append(f"conflicts refused {len(self.conflicts)} ({shown}{', …' if len(self.conflicts) > EXAMPLES else ''})")
        return "; ".join(parts)


def _sample(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:EXAMPLES])
    return shown + (", …" if len(ids) > EXAMPLES else "")


def _unique(keys: list[str | None]) -> tuple[dict[str, int], set[int]]:
    """Key → index for the keys occurring once; the indices of keys occurring more than once."""
    counts = Counter(k for k in keys if k is not None)
    single = {k: i for i, k in enumerate(keys) if k is not None and counts[k] == 1}
    dup = {i for i, k in enumerate(keys) if k is not None and counts[k] > 1}
    return single, dup


def align_samples(a: Sequence[SampleIdentity], b: Sequence[SampleIdentity], mode: Literal["id", "content"]) -> Alignment:
    """Pair the samples of ``a`` with those of ``b`` by id or by content (see the module's rules)."""
    out = Alignment(mode, len(a), len(b))
    if mode == "id":
        keys_a: list[str | None] = [s.id for s in a]
        keys_b: list[str | None] = [s.id for s in b]
    else:
        keys_a = [_key(s.question) or _key(s.prompt) for s in a]
        keys_b = [_key(s.question) or _key(s.prompt) for s in b]
        out.unidentified_a = [a[i].id for i, k in enumerate(keys_a) if k is None]
        out.unidentified_b = [b[j].id for j, k in enumerate(keys_b) if k is None]
    single_a, dup_a = _unique(keys_a)
    single_b, dup_b = _unique(keys_b)
    # keys repeated on one side refuse their partners on the other too: which copy is meant cannot be told
    dup_keys = {keys_a[i] for i in dup_a} | {keys_b[j] for j in dup_b}
    dup_a |= {i for i, k in enumerate(keys_a) if k in dup_keys}
    dup_b |= {j for j, k in enumerate(keys_b) if k in dup_keys}
    out.duplicates_a = [a[i].id for i in sorted(dup_a)]
    out.duplicates_b = [b[j].id for j in sorted(dup_b)]
    matched: dict[int, int] = {i: single_b[k] for k, i in single_a.items() if k in single_b and k not in dup_keys}
    if mode == "content":
        _by_quote(a, b, keys_a, keys_b, matched, dup_a, dup_b, out)
    used_b: set[int] = set()
    for i in sorted(matched):
        j = matched[i]
        why = _conflict(a[i], b[j], mode)
        if why:
            out.conflicts.append((a[i].id, b[j].id, why))
            continue
        out.pairs.append((i, j))
        used_b.add(j)
    paired_a = {i for i, _ in out.pairs}
    conflicted_a = {a[i].id for i in matched if i not in paired_a}
    skip_a = {a[i].id for i in dup_a} | conflicted_a | set(out.ambiguous_a) | set(out.unidentified_a)
    skip_b = {b[j].id for j in dup_b} | {cb for _, cb, _ in out.conflicts} | set(out.ambiguous_b) | set(out.unidentified_b)
    out.unaligned_a = [s.id for i, s in enumerate(a) if i not in paired_a and s.id not in skip_a]
    out.unaligned_b = [s.id for j, s in enumerate(b) if j not in used_b and s.id not in skip_b]
    return out


def _by_quote(
    a: Sequence[SampleIdentity], b: Sequence[SampleIdentity], keys_a: list[str | None], keys_b: list[str | None],
    matched: dict[int, int], skip_a: set[int], skip_b: set[int], out: Alignment,
) -> None:
    """Pair the questions left over with the one prompt of the other side that quotes them whole."""
    taken_b = set(matched.values())
    left_a = [i for i in range(len(a)) if i not in matched and i not in skip_a and keys_a[i] is not None]
    left_b = [j for j in range(len(b)) if j not in taken_b and j not in skip_b and keys_b[j] is not None]
    # candidates of each sample: the other side's prompts quoting its question, the other side's questions its prompt quotes
    cand_a: dict[int, set[int]] = {}
    cand_b: dict[int, set[int]] = {}
    for i, j in _quotations({i: a[i].question for i in left_a}, {j: b[j].prompt for j in left_b}):
        cand_a.setdefault(i, set()).add(j)
        cand_b.setdefault(j, set()).add(i)
    for j, i in _quotations({j: b[j].question for j in left_b}, {i: a[i].prompt for i in left_a}):
        cand_a.setdefault(i, set()).add(j)
        cand_b.setdefault(j, set()).add(i)
    out.ambiguous_a = [a[i].id for i in sorted(cand_a) if len(cand_a[i]) > 1]
    out.ambiguous_b = [b[j].id for j in sorted(cand_b) if len(cand_b[j]) > 1]
    for i, js in cand_a.items():
        if len(js) == 1:
            (j,) = js
            if len(cand_b[j]) == 1:
                matched[i] = j


def _quotations(questions: dict[int, str | None], prompts: dict[int, str | None]) -> set[tuple[int, int]]:
    """(question, prompt) for every prompt that quotes a question whole, as words and punctuation marks.

    The questions are indexed by their first words, so that each prompt is read once, word by word.
    """
    index: dict[tuple[str, ...], list[tuple[int, tuple[str, ...]]]] = {}
    for q, text in questions.items():
        quoted = _tokens(text) if isinstance(text, str) else ()
        if quoted:
            index.setdefault(quoted[:_HEAD], []).append((q, quoted))
    found: set[tuple[int, int]] = set()
    if not index:
        return found
    heads = {len(k) for k in index}
    for p, text in prompts.items():
        words = _tokens(text) if isinstance(text, str) else ()
        for start in range(len(words)):
            for k in heads:
                for q, quoted in index.get(words[start : start + k], ()):
                    if words[start : start + len(quoted)] == quoted:
                        found.add((q, p))
    return found


def _conflict(x: SampleIdentity, y: SampleIdentity, mode: str) -> str | None:
    if x.doc_hash and y.doc_hash and x.doc_hash != y.doc_hash:
        return "different document hashes"
    if mode == "id" and (qx := _key(x.question)) and (qy := _key(y.question)) and qx != qy:
        return "different questions"
    if mode == "content" and references_agree(x.reference, y.reference) is False:
        return f"references {_short(x.reference)} and {_short(y.reference)} differ"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…'"
