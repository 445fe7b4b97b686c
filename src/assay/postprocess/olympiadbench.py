"""OlympiadBench's answer extractor as OpenCompass 0.5.4 defines it."""

from __future__ import annotations

import re

from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["olympiadbench_postprocess_v2"]


@TEXT_POSTPROCESSORS.register_module(["olympiadbench_postprocess_v2"])
def olympiadbench_postprocess_v2(text: str, is_chinese: bool = False, is_deepseek: bool = False) -> str:
    """The text after the last "So the final answer is" (``所以最终答案是`` with ``is_chinese``;
    DeepSeek-Math's "The answer is: " / ``## 解题答案`` with ``is_deepseek``) to the end of its line,
    stripped; the whole reply when there is none.

    >>> olympiadbench_postprocess_v2('...\\nSo the final answer is $\\\\boxed{3}$.')
    '$\\\\boxed{3}$.'
    """
    if is_deepseek:
        pattern = "## 解题答案(.*)" if is_chinese else "The answer is: (.*)"
    else:
        pattern = "所以最终答案是(.*)" if is_chinese else "So the final answer is (.*)"
    text = text or ""  # OpenCompass fails on None; an empty reply here
    found = re.findall(pattern, text)
    return found[-1].strip() if found else text
