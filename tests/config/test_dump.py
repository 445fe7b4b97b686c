"""The dumped config: ``pprint``'s text of the plain values, built without ``pprint``'s walk per level."""

from __future__ import annotations

import pprint
import random
from typing import Any

import pytest

from assay.config.dump import dump_config_source


def _value(rng: random.Random, depth: int) -> Any:
    """A config-like value: nested dicts and lists of texts (some long enough to be wrapped), numbers, flags."""
    kind = rng.randrange(9 if depth < 5 else 5)
    if kind == 0:
        return rng.choice(["", "gen", "a" * rng.randrange(150), "x y " * rng.randrange(60), "{question}\nA. {A}\nAnswer:"])
    if kind == 1:
        return rng.choice([0, -3, 10**12, 0.5, 1e-9, float("inf")])
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return "opencompass.datasets.JsonlDataset"
    if kind == 4:
        return []
    if kind in (5, 6):
        return {(i if rng.random() < 0.1 else f"k{i}_{'w' * rng.randrange(30)}"): _value(rng, depth + 1)
                for i in range(rng.randrange(6))}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(6))]


@pytest.mark.parametrize("seed", range(40))
def test_the_dump_is_pprint_text_of_the_values(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte for byte what ``pprint.pformat(value, indent=1, width=100, sort_dicts=False)`` writes, without
    ``pprint`` formatting any value piece by piece in Python (it did so again at each level it broke over lines)."""
    rng = random.Random(seed)
    variables = {f"var{i}": _value(rng, 0) for i in range(4)}
    variables["datasets"] = [{"abbr": f"set{i}", "infer_cfg": {"prompt_template": {"template": {"round": [
        {"role": "HUMAN", "prompt": "Question: {question}\n" * 4}]}}}, "n": i} for i in range(12)]
    expected = [f"{name} = {pprint.pformat(value, indent=1, width=100, sort_dicts=False)}" for name, value in variables.items()]

    def walked(*args: Any) -> Any:
        raise AssertionError("pprint walked a value in Python")

    monkeypatch.setattr(pprint.PrettyPrinter, "_safe_repr", walked)
    dumped = dump_config_source(variables)
    assert dumped.split("\n")[4:] == [*"\n\n".join(expected).split("\n"), ""]
