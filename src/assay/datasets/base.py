"""The dataset-loader protocol and ``BaseDataset`` for OpenCompass-style loader classes.

A loader is registered in :data:`assay.registry.LOAD_DATASET` and is either a
class with a static ``load(**kwargs)`` method (OpenCompass's convention) or a
plain function; it returns a ``datasets.Dataset``, a ``datasets.DatasetDict``
or a list of row dicts.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BaseDataset"]


class BaseDataset:
    """Base class for loader classes written for OpenCompass.

    Subclasses implement ``@staticmethod load(**kwargs)``.  assay calls
    ``load`` directly; instantiating the class (as OpenCompass does) also works
    and exposes ``.dataset``, ``.train`` and ``.test``.
    """

    def __init__(self, reader_cfg: dict[str, Any] | None = None, k: int | list[int] = 1, n: int = 1, **kwargs: Any) -> None:
        self.abbr = kwargs.pop("abbr", "dataset")
        self.reader_cfg = dict(reader_cfg or {})
        self.k, self.n = k, n
        self.dataset = self.load(**kwargs)

    @staticmethod
    def load(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a dataset loader class must implement a static load(**kwargs)")

    @property
    def test(self) -> Any:
        split = self.reader_cfg.get("test_split", "test")
        return self.dataset[split] if _is_dict(self.dataset) else self.dataset

    @property
    def train(self) -> Any:
        split = self.reader_cfg.get("train_split", "train")
        return self.dataset[split] if _is_dict(self.dataset) else self.dataset


def _is_dict(obj: Any) -> bool:
    return hasattr(obj, "keys") and not hasattr(obj, "column_names")
