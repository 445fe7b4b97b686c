"""Inert markers and stand-ins: the OpenCompass names assay serves without implementing them.

* An *inert marker* stands for an inference-side class that evaluation never
  instantiates (prompt templates, retrievers, inferencers, model classes,
  partitioners, runners, tasks): it keeps its OpenCompass name and module, so
  that ``infer_cfg`` still tells gen/ppl mode and hashes to OpenCompass's
  version string, but refuses to be instantiated.
* A *stand-in* stands for any other name OpenCompass 0.5.4 defines that assay
  does not implement: a class, function or value of the same kind that knows
  its dotted name (``_assay_standin = True``) and fails, naming it, when used —
  so a config importing it loads, and only the tasks that use it fail.  A name
  OpenCompass does not define either is a stand-in too, whose error says so.

:func:`registered_name` answers the names OpenCompass registers in its
registries (``'GaokaoBenchEvaluator_single_choice'``); :mod:`assay.opencompass`
installs it as the registries' fallback.
"""

from __future__ import annotations

import importlib
from typing import Any

from assay.errors import ConfigError
from assay.opencompass.names import _registered, opencompass_mode, opencompass_version

__all__ = [
    "ComponentUnavailable",
    "InertComponent",
    "OFFLINE_LIMITS",
    "OFFLINE_REASONS",
    "OPENCOMPASS_FAILS",
    "StandIn",
    "is_inert",
    "is_standin",
    "registered_name",
    "standin_for_type_name",
    "standin_name",
    "unavailable_message",
]

#: The registries whose names OpenCompass's configs give as ``type`` strings.
REGISTRIES = (
    "LOAD_DATASET", "ICL_EVALUATORS", "TEXT_POSTPROCESSORS", "DICT_POSTPROCESSORS", "MODELS", "SUMMARIZERS", "ICL_PROMPT_TEMPLATES",
)


class ComponentUnavailable(ConfigError):
    """A config uses an OpenCompass name that assay does not implement (a stand-in)."""


class InertComponent:
    """Base of inert marker classes standing for OpenCompass inference components."""

    _assay_inert = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ConfigError(
            f"{type(self).__module__}.{type(self).__qualname__} is an inference component; "
            "assay scores saved predictions and never instantiates it"
        )


_markers: dict[tuple[str, str], type] = {}


def _marker(module: str, name: str) -> type:
    key = (module, name)
    cls = _markers.get(key)
    if cls is None:
        cls = type(name, (InertComponent,), {"__module__": module, "__qualname__": name, "__doc__": f"Inert stand-in for {module}.{name}."})
        _markers[key] = cls
    return cls


def is_inert(obj: Any) -> bool:
    """True for an inert marker class standing for an inference component."""
    return isinstance(obj, type) and issubclass(obj, InertComponent)


# -- stand-ins ---------------------------------------------------------------------------


def unavailable_message(dotted: str | list[str]) -> str:
    """How to get OpenCompass components assay does not implement.

    >>> unavailable_message('opencompass.datasets.x.XEvaluator').split(';')[0]
    'assay does not implement opencompass.datasets.x.XEvaluator'
    """
    names = [dotted] if isinstance(dotted, str) else list(dotted)
    unknown = [n for n in names if n in _UNKNOWN]
    if unknown:
        return (
            f"{', '.join(unknown)}: neither assay nor OpenCompass {opencompass_version()} defines "
            f"{'this name' if len(unknown) == 1 else 'these names'} (misspelt, or from another OpenCompass version); "
            "register an implementation under the name to use it"
        ) + ("; " + unavailable_message([n for n in names if n not in _UNKNOWN]) if len(unknown) < len(names) else "")
    offline = [n for n in names if n in OFFLINE_LIMITS]
    if offline:
        rest = [n for n in names if n not in OFFLINE_LIMITS]
        return "; ".join(
            f"{n} cannot be scored offline ({OFFLINE_LIMITS[n][0]}): {OFFLINE_LIMITS[n][1]}" for n in offline
        ) + ("; " + unavailable_message(rest) if rest else "")
    broken = [n for n in names if n in OPENCOMPASS_FAILS]
    if broken:
        rest = [n for n in names if n not in OPENCOMPASS_FAILS]
        return "; ".join(
            f"{n} fails in OpenCompass {opencompass_version()} too, and assay does not implement it: {OPENCOMPASS_FAILS[n]}"
            for n in broken
        ) + ("; " + unavailable_message(rest) if rest else "")
    judged = [n for n in names if n in JUDGED]
    if judged:
        rest = [n for n in names if n not in JUDGED]
        return "; ".join(f"{n} needs a judge model: {JUDGED[n]}" for n in judged) + (
            "; " + unavailable_message(rest) if rest else ""
        )
    shorts = ", ".join(repr(n.rsplit(".", 1)[-1]) for n in names)
    version = opencompass_version()
    return (
        f"assay does not implement {', '.join(names)}; to use {'it' if len(names) == 1 else 'them'}, install OpenCompass "
        f"with its dependencies next to assay (pip install opencompass=={version}), or register an implementation "
        f"under the name {shorts} (e.g. @ICL_EVALUATORS.register_module() for an evaluator, @LOAD_DATASET or "
        "@TEXT_POSTPROCESSORS for a loader or a postprocessor, in a module the config imports or an 'assay.plugins' "
        "entry point)"
    )


#: OpenCompass components assay does not implement because they ask a model to judge each reply,
#: and how (what :func:`unavailable_message` says of them instead of the general advice).
JUDGED: dict[str, str] = {
    "opencompass.datasets.leval.evaluators.LEvalGPTEvaluator": (
        "OpenCompass's evaluator asks OpenAI's gpt-4-0613 (OPENAI_API_KEY) to compare each reply with "
        "turbo-16k-0613's, read from a file opencompass/datasets/leval/turbo-16k-0613.pred.jsonl relative to "
        "the working directory; assay does not implement it — score L-Eval's open-ended tasks with "
        "RougeEvaluator (the library configs' choice) or an LLM judge (GenericLLMEvaluator with a judge_cfg)"
    ),
}


#: OpenCompass components that OpenCompass 0.5.4 defines but whose own code fails whenever a task uses them, and
#: why (what :func:`unavailable_message` says of them instead of the general advice, which is to install OpenCompass).
OPENCOMPASS_FAILS: dict[str, str] = {
    "opencompass.datasets.cibench.CIBenchEvaluator": (
        "its constructor assigns self.output_dir, a read-only property of OpenCompass's BaseEvaluator, so building it "
        "raises AttributeError (\"property 'output_dir' of 'CIBenchEvaluator' object has no setter\") before anything "
        "is scored; past that, its score() imports opencompass.lagent, which OpenCompass does not ship"
    ),
    "opencompass.datasets.omni_math.OmniMathEvaluator": (
        "the library's config lists no Omni-Judge server (url=[]), over which its batches are divided (a division by "
        "zero), and it loads the Omni-Judge tokenizer's code from the Hub"
    ),
}


#: Why a file of OpenCompass's library cannot be scored on a machine that has the predictions but reaches no
#: service or model hub: the documented reasons (docs/benchmarks.md, "The whole library") of
#: :data:`OFFLINE_LIMITS`.
OFFLINE_REASONS: dict[str, str] = {
    "remote service": "the evaluator sends each reply to a service on the network, which alone holds the tests",
    "model weights": "the evaluator runs a model whose weights only a model hub provides",
    "NLTK data": "the evaluator reads data files (a word list, a tagger's trained weights) that only NLTK's downloader provides",
    "multimodal": "the benchmark's inputs are images, scored by a vision-language toolkit",
    "scorer outside PyPI": "the evaluator imports a scoring package that only a Git repository provides",
    "program outside PyPI and Debian": "the evaluator runs a program that neither PyPI nor Debian's archive provides",
    "Hub loading script": "the data is read by a dataset script the Hugging Face Hub serves (trust_remote_code), "
                          "which assay does not run",
}

#: OpenCompass components that cannot be scored offline, with the reason (a key of :data:`OFFLINE_REASONS`)
#: and how OpenCompass scores them; :func:`unavailable_message` says so instead of the general advice.
OFFLINE_LIMITS: dict[str, tuple[str, str]] = {
    "opencompass.datasets.dingo.DingoEvaluator": (
        "model weights", "OpenCompass hands the replies to dingo-python's llm_base rules, which detect each reply's language "
        "with fastText's lid.176.bin, a model it downloads on first use",
    ),
    "opencompass.datasets.dingo.DingoDataset": (
        "model weights", "its evaluator runs dingo-python's rules, which need fastText's lid.176.bin, a downloaded model",
    ),
    "opencompass.datasets.codecompass.CodeCompass.CodeCompassCodeGenerationDataset": (
        "Hub loading script", "OpenCompass reads opencompass/CodeCompass through the script CodeCompass.py of the "
        "Hub's repository (trust_remote_code), which joins its problems and test cases (Parquet files) as its own "
        "revision decides",
    ),
    "opencompass.datasets.codecompass.evaluator.CodeCompassEvaluator": (
        "Hub loading script", "it loads the whole of opencompass/CodeCompass (through the Hub's script CodeCompass.py) "
        "for the test cases of the programs it compiles and runs",
    ),
    "opencompass.datasets.livecodebench_pro.livecodebench_pro_evaluator.LCBProEvaluator": (
        "remote service",
        "OpenCompass submits each program to LiveCodeBench Pro's judge (lightcpverifier), which holds the problems' test cases",
    ),
    "opencompass.datasets.livecodebench_pro.livecodebench_pro.LCBProDataset": (
        "remote service", "its evaluator submits each program to LiveCodeBench Pro's remote judge",
    ),
    "opencompass.datasets.teval.TEvalDataset": (
        "model weights", "T-Eval's planning and reasoning scores embed replies with thenlper/gte-large (sentence-transformers)",
    ),
    "opencompass.datasets.teval.teval_postprocess": (
        "model weights", "T-Eval's evaluator embeds replies with thenlper/gte-large (sentence-transformers)",
    ),
    "opencompass.openicl.icl_evaluator.icl_plugin_evaluator.TEvalEvaluator": (
        "model weights", "T-Eval's planning and reasoning scores embed replies with thenlper/gte-large (sentence-transformers)",
    ),
    "opencompass.datasets.perspectivegap.PerspectiveGapRoleAssignmentEvaluator": (
        "scorer outside PyPI", "PerspectiveGap's scores come from its `perspective_gap` package, installed from its Git repository",
    ),
    "opencompass.datasets.perspectivegap.PerspectiveGapPromptWritingEvaluator": (
        "scorer outside PyPI", "PerspectiveGap's scores come from its `perspective_gap` package, installed from its Git repository",
    ),
    "opencompass.datasets.internsandbox.InternSandboxEvaluator": (
        "scorer outside PyPI", "each task's verifier is a class of the `intern_sandbox` package (InternBootcamp), not on PyPI",
    ),
    "opencompass.datasets.SciReasoner.bio_instruction.bio_instruction_Evaluator": (
        "model weights", "SciReasoner's bio_instruction falls back to facebook/bart-large-mnli (transformers, torch) "
                         "to classify replies",
    ),
    "opencompass.datasets.SciReasoner.Mol_Instructions.biotext.Mol_Instructions_Evaluator_BioText": (
        "model weights", "Mol-Instructions' biotext scores replies with BERTScore, which runs a model from a model hub",
    ),
    "opencompass.datasets.SciReasoner.unconditional_protein_generation.UPG.UPG_Evaluator": (
        "model weights", "unconditional protein generation folds each reply with OmegaFold, whose weights a model hub provides",
    ),
    "opencompass.datasets.SciReasoner.uncond_RNA.RNA_Evaluator": (
        "program outside PyPI and Debian", "unconditional RNA generation folds each reply with ViennaRNA's RNAfold program, "
                                           "which Debian's archive does not package and whose PyPI wheel (ViennaRNA) holds "
                                           "only the Python bindings, then searches it with Infernal's cmscan against the "
                                           "Rfam database ($COMPASS_DATA_CACHE/Rfam/Rfam.cm and Rfam.clanin)",
    ),
    "opencompass.datasets.SciReasoner.uncond_RNA.Uncond_RNA_Dataset": (
        "program outside PyPI and Debian", "unconditional RNA generation folds each reply with ViennaRNA's RNAfold program, "
                                           "which Debian's archive does not package and whose PyPI wheel (ViennaRNA) holds "
                                           "only the Python bindings, then searches it with Infernal's cmscan against the "
                                           "Rfam database ($COMPASS_DATA_CACHE/Rfam/Rfam.cm and Rfam.clanin)",
    ),
    "opencompass.datasets.SciReasoner.uncond_RNA.RNA_postprocessor": (
        "program outside PyPI and Debian", "unconditional RNA generation folds each reply with ViennaRNA's RNAfold program, "
                                           "which Debian's archive does not package and whose PyPI wheel (ViennaRNA) holds "
                                           "only the Python bindings, then searches it with Infernal's cmscan against the "
                                           "Rfam database ($COMPASS_DATA_CACHE/Rfam/Rfam.cm and Rfam.clanin)",
    ),
    "opencompass.datasets.truthfulqa.TruthfulQAEvaluator": (
        "scorer outside PyPI", "TruthfulQA's BLEU, ROUGE and BLEURT are the Hugging Face Hub's evaluate-metric scripts "
                               "(evaluate.load fetches their code when scoring); its truth and info metrics run "
                               "allenai's truthfulqa judge models",
    ),
    "opencompass.datasets.truthfulqa.TruthfulQADataset": (
        "scorer outside PyPI", "its evaluator's metrics are the Hugging Face Hub's evaluate-metric scripts or judge models",
    ),
    "opencompass.datasets.IFBench.ifbench.IFBenchEvaluator": (
        "NLTK data", "IFBench's checkers read NLTK's English stop words (corpora/stopwords) and its averaged perceptron "
                     "tagger's weights (taggers/averaged_perceptron_tagger_eng), which nltk.download fetches and no PyPI "
                     "package ships",
    ),
    "opencompass.datasets.vlmevalkit.dataset.VLMEvalKitDataset": (
        "multimodal", "MMBench and MMMU-Pro are image benchmarks loaded and scored through VLMEvalKit",
    ),
    "opencompass.evaluator.vlmevalkit.VLMEvalKitEvaluator": (
        "multimodal", "MMBench and MMMU-Pro are image benchmarks scored through VLMEvalKit",
    ),
}


class _StandInAttributeError(AttributeError):
    pass


class _StandInMeta(type):
    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _StandInAttributeError(f"{cls._assay_dotted}.{name}: {unavailable_message(cls._assay_dotted)}")


class StandIn(metaclass=_StandInMeta):
    """Base of stand-in classes: OpenCompass classes assay does not implement.

    A stand-in keeps OpenCompass's module and name; creating one raises
    :class:`ComponentUnavailable` naming it and the ways to get it.
    """

    _assay_standin = True
    _assay_dotted = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ComponentUnavailable(unavailable_message(type(self)._assay_dotted))


class _StandInValue:
    """A constant of OpenCompass that assay does not have: any use of it fails, naming it."""

    _assay_standin = True

    def __init__(self, dotted: str) -> None:
        object.__setattr__(self, "_assay_dotted", dotted)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise ComponentUnavailable(unavailable_message(object.__getattribute__(self, "_assay_dotted")))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _StandInAttributeError(unavailable_message(object.__getattribute__(self, "_assay_dotted")))

    def __repr__(self) -> str:
        return f"<stand-in for {object.__getattribute__(self, '_assay_dotted')}>"

    __str__ = __repr__  # printing or dumping a config that holds one works; using it does not

    def __bool__(self) -> bool:
        return True

    __call__ = __iter__ = __len__ = __getitem__ = __contains__ = _fail
    __add__ = __radd__ = __mul__ = _fail


_standins: dict[str, Any] = {}
#: dotted names imported from OpenCompass's packages that OpenCompass 0.5.4 does not define either
_UNKNOWN: set[str] = set()


def _standin(dotted: str, kind: str) -> Any:
    """The one stand-in object of the OpenCompass definition ``dotted``."""
    found = _standins.get(dotted)
    if found is not None:
        return found
    module, _, name = dotted.rpartition(".")
    obj: Any
    if kind == "c":
        obj = _StandInMeta(name, (StandIn,), {
            "__module__": module, "__qualname__": name, "_assay_dotted": dotted,
            "__doc__": f"Stand-in for {dotted}, which assay does not implement.",
        })
    elif kind == "f":
        def standin(*args: Any, **kwargs: Any) -> Any:
            raise ComponentUnavailable(unavailable_message(dotted))

        standin.__name__ = standin.__qualname__ = name
        standin.__module__ = module
        standin.__doc__ = f"Stand-in for {dotted}, which assay does not implement."
        standin._assay_standin = True  # type: ignore[attr-defined]
        standin._assay_dotted = dotted  # type: ignore[attr-defined]
        obj = standin
    else:
        obj = _StandInValue(dotted)
    _standins[dotted] = obj
    return obj


def registered_name(registry: str, name: str) -> Any:
    """What OpenCompass registered as ``name`` in its registry ``registry`` (e.g. ``'ICL_EVALUATORS'``), or ``None``.

    Where OpenCompass is fully installed, its own object; else a stand-in.
    Used for ``type='GaokaoBenchEvaluator_single_choice'``-style registry names:
    importing :mod:`assay.opencompass` installs it as the registries' fallback
    (:func:`assay.registry.set_fallback`).
    """
    entry = _registered().get(registry, {}).get(name)
    if entry is None:
        if opencompass_mode() == "full":  # registered in OpenCompass's registry by the user's own code
            real = getattr(importlib.import_module("opencompass.registry"), registry, None)
            found = real.get(name) if real is not None and name in getattr(real, "module_dict", {}) else None
            return found
        return None
    kind, dotted = entry[0], entry[1]
    if opencompass_mode() == "full":
        module, _, attr = dotted.rpartition(".")
        mod = importlib.import_module(module)
        if hasattr(mod, attr):
            return getattr(mod, attr)
        real = importlib.import_module("opencompass.registry")
        return getattr(real, registry).get(name)
    return _standin(dotted, kind)


def standin_for_type_name(name: str) -> Any:
    """The stand-in for a ``type`` given as a string — a name OpenCompass registers, or an ``opencompass.*``
    dotted path — that assay does not implement, or ``None``."""
    from assay import registry

    short = name.rsplit(".", 1)[-1] if name.startswith("opencompass.") else name
    if any(getattr(registry, r).lookup(short) is not None for r in REGISTRIES):
        return None
    if short != name:  # a dotted path, as in a config OpenCompass dumped
        try:
            obj = registry.import_dotted(name)
        except (ImportError, AttributeError):
            return None
        return obj if is_standin(obj) else None
    for reg_name in _registered():
        found = registered_name(reg_name, name)
        if found is not None:
            return found if is_standin(found) else None
    return None


def is_standin(obj: Any) -> bool:
    """True for a stand-in: an OpenCompass name assay does not implement."""
    try:
        return getattr(obj, "_assay_standin", False) is True
    except Exception:
        return False


def standin_name(obj: Any) -> str:
    """The dotted OpenCompass name a stand-in stands for."""
    try:
        return str(object.__getattribute__(obj, "_assay_dotted"))
    except AttributeError:  # marked by hand: its own module and name
        return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', None) or getattr(obj, '__name__', repr(obj))}"

