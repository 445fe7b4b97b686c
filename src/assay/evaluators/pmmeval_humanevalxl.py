"""P-MMEval's HumanEval-XL: ``PMMEvalHumanEvalXLEvaluator``, as OpenCompass 0.5.4 prepares it, run locally.

OpenCompass cleans each reply as it cleans HumanEval-X's
(:func:`assay.evaluators.humanevalx.clean_up_code`, with the config's language
key: ``'python'``, ``'java'`` or ``'javascript'`` — the last matches none of
the cleaner's language branches, so a JavaScript generation keeps what follows
its last ``}``), writes each sample's ``task_id`` (``Python/<i>``,
``Java/<i>``, ``JavaScript/<i>``, ``i`` its position) and ``generation`` to a
file and posts it to the HumanEval-X code-evaluation service
(``dataset=humanevalx/<language>``).  That service tests a generation against
its own HumanEval-X problem of the same id, not against the HumanEval-XL row,
and answers only when every problem of its full data set was attempted, which
HumanEval-XL's 80 problems a language never are: OpenCompass 0.5.4 gets no
numbers from it.  assay runs each generation against its own row instead, as
HumanEval-X's service runs a program (:class:`HumanevalXEvaluator`): the
prompt, the generation, a newline and the row's ``test`` — for Python after
the service's imports and followed by ``check(<entry_point>)``, since
HumanEval-XL's Python tests, like HumanEval's, define ``check`` without calling
it; Java's test holds the ``Main`` class that runs the checks; JavaScript's
test needs lodash (Debian's ``node-lodash``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay.evaluators._common import check_batch
from assay.evaluators._compiled_driver import rows_of_test_set
from assay.evaluators.humanevalx import HumanevalXEvaluator, clean_up_code
from assay.registry import ICL_EVALUATORS

__all__ = ["PMMEvalHumanEvalXLEvaluator"]

#: OpenCompass's language keys → (the task ids' name, the HumanEval-X runner's language).
LANGUAGES: Mapping[str, tuple[str, str]] = {
    "java": ("Java", "java"), "javascript": ("JavaScript", "js"), "js": ("JavaScript", "js"), "python": ("Python", "python"),
}


@ICL_EVALUATORS.register_module()
class PMMEvalHumanEvalXLEvaluator(HumanevalXEvaluator):
    """HumanEval-XL's pass@1 for one program language, each generation run against its own row in the sandbox.

    Inputs: ``predictions`` (replies), ``references`` (the config's
    ``declaration`` column, whose last line is the function head
    :func:`clean_up_code` cuts at) and ``test_set`` (the HumanEval-XL rows:
    ``prompt``, ``test``, ``entry_point``).

    Metric: ``pass@1`` (0–100, the service's key).  Details per sample:
    ``task_id`` (OpenCompass's ``<Language>/<i>``), ``generation`` (what
    OpenCompass sends), ``result`` (the service's text: ``passed``,
    ``failed: …``, ``timed out``), ``passed``, ``is_correct``, ``outcome`` and
    ``message``; ``outcomes`` counts the outcomes.

    Differences from OpenCompass 0.5.4: no service is called (``ip_address``,
    ``port``, ``retry``, ``timeout`` and ``text_language`` are accepted and
    unused); the generations are tested against the test set's own rows (see
    the module's docstring), where OpenCompass's service would test them
    against HumanEval-X's problems of the same position and, given fewer than
    all of them, answer with an error; a reply is read as a string literal
    without being evaluated.

    Args:
        language: ``'python'``, ``'java'``, ``'javascript'`` (or ``'js'``).
        step_timeout, memory, max_workers, isolation: see :class:`HumanevalXEvaluator`.
    """

    def __init__(
        self,
        language: str,
        ip_address: str = "localhost",
        text_language: str = "",
        port: Any = "",
        retry: int = 2,
        timeout: Any = 600,
        step_timeout: float = 15.0,
        memory: int = 4 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"PMMEvalHumanEvalXLEvaluator: language must be one of {sorted(LANGUAGES)}, got {language!r}")
        super().__init__(LANGUAGES[language][1], ip_address=ip_address, port=port, retry=retry, timeout=timeout, k=(1,),
                         step_timeout=step_timeout, memory=memory, max_workers=max_workers, isolation=isolation,
                         pred_postprocessor=pred_postprocessor)
        self.oc_language = language
        self.text_language = text_language

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: the language's toolchain when it is missing.

        >>> PMMEvalHumanEvalXLEvaluator.dry_run_notes({'language': 'python'})
        []
        """
        language = str(cfg.get("language", ""))
        return HumanevalXEvaluator.dry_run_notes({"language": LANGUAGES[language][1]}) if language in LANGUAGES else []

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        rows = rows_of_test_set(test_set)
        if rows is None:
            return {"error": f"{name}: needs the test set (the HumanEval-XL rows)"}
        if len(rows) != len(predictions):
            return {"error": f"{name}: {len(predictions)} predictions but the test set has {len(rows)} rows"}
        for i, row in enumerate(rows):
            missing = [c for c in ("prompt", "test", "entry_point") if c not in row]
            if missing:
                return {"error": f"{name}: test set row {i} lacks {', '.join(missing)}"}
        task_name = LANGUAGES[self.oc_language][0]
        ids = [f"{task_name}/{i}" for i in range(len(predictions))]
        generations = [clean_up_code(p, self.oc_language, r) for p, r in zip(predictions, references)]
        if self.language == "python":
            # HumanEval-XL's Python tests define check(candidate) without calling it
            rows = [{**row, "task_id": ids[i], "test": f"{row['test']}\ncheck({row['entry_point']})\n"} for i, row in enumerate(rows)]
        else:
            rows = [{**row, "task_id": ids[i]} for i, row in enumerate(rows)]
        return self._scored(rows, ids, generations)
