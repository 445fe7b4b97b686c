"""A logged sample's question, before its tool's template: what ``assay compare`` aligns samples of two tools by.

* inspect_ai: the sample's input (its solver adds any template later);
* HELM: the instance's input text;
* lm-evaluation-harness: the longest text field of the logged document that the
  prompt quotes (``question`` in ``'Question: {{question}}\\nAnswer:'``); none when
  the prompt quotes no field.

See :mod:`assay.stats._align` for how the questions are compared.
"""

from __future__ import annotations

from typing import Any

from assay.sources.model import ExternalSample

__all__ = ["sample_question"]


def sample_question(tool: str, sample: ExternalSample) -> str | None:
    """The question of ``sample``, logged by ``tool``; ``None`` when the tool's log does not tell it apart.

    >>> s = ExternalSample('0', prompt='Question: What is 2 plus 3?\\nAnswer:', doc={'id': 'a-0', 'question': 'What is 2 plus 3?'})
    >>> sample_question('lm_eval', s), sample_question('inspect_ai', ExternalSample('q1', prompt='What is 2 plus 3?'))
    ('What is 2 plus 3?', 'What is 2 plus 3?')
    >>> sample_question('helm', ExternalSample('id60', doc={'input': {'text': 'Is 70 even or odd?'}}))
    'Is 70 even or odd?'
    """
    if tool == "inspect_ai":
        return sample.prompt
    if tool == "helm":
        given = (sample.doc or {}).get("input")
        text = given.get("text") if isinstance(given, dict) else None
        return text if isinstance(text, str) and text.strip() else None
    if tool == "lm_eval":
        return _quoted_field(sample.doc, sample.prompt)
    return None


def _quoted_field(doc: Any, prompt: str | None) -> str | None:
    if not isinstance(doc, dict) or not prompt:
        return None
    quoted = [v for v in doc.values() if isinstance(v, str) and len(v.strip()) > 1 and v.strip() in prompt]
    return max(quoted, key=len).strip() if quoted else None
