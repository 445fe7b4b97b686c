"""SRBench (symbolic regression) as OpenCompass 0.5.4 reads it (``SRbenchDataset``).

Layout (id ``opencompass/srbench`` → ``./data/SRBENCH``): the folder holds
``formula_data.json``, JSON Lines (or a JSON list) of formulas, each with
``formula`` (``'y = x0*x1'``) and ``data``, its points: rows of the variables'
values then ``y`` (two to five columns; a wider row gives an empty prompt).

OpenCompass draws 300 of each formula's points without replacement from
NumPy's global generator, unseeded, so its prompts change from one run to the
next (and a formula with fewer than 300 points fails its loader).  assay draws
them from ``numpy.random.default_rng(seed)`` (``seed`` 0 unless given), one
generator for the file's formulas in order, so that the same seed gives the
same prompts; the draw is the same distribution as OpenCompass's: 300 points,
each ordering of each set of 300 equally likely.
"""

from __future__ import annotations

import json
import os
from typing import Any

from assay.datasets._oc import json_objects, open_text, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SRbenchDataset", "all_integers", "change_data_to_prompt", "draw_points"]

_LOADER = "SRbenchDataset"
FILE_NAME = "formula_data.json"

#: The points drawn of each formula.
DRAWN = 300


def change_data_to_prompt(points: Any) -> str:
    """The points as the prompt lists them: a line per point, ``x0=…, x1=…, y=…`` to five decimals.

    Only points of two to five columns (one to four variables) are written;
    wider ones give ``''``, as in OpenCompass.

    >>> change_data_to_prompt([[1.0, 2.5], [-0.000004, 3.0]])
    'x0=1.00000, y=2.50000\\nx0=-0.00000, y=3.00000\\n'
    """
    lines = []
    for point in points:
        width = len(point)
        if not 2 <= width <= 5:
            continue
        values = [f"x{i}={point[i]:.5f}" for i in range(width - 1)]
        lines.append(", ".join([*values, f"y={point[-1]:.5f}"]) + "\n")
    return "".join(lines)


def all_integers(tables: Any) -> bool:
    """Whether every value of every table of points in ``tables`` (the file's ``data``) is a JSON integer.

    OpenCompass reads the file as one table whose ``data`` column takes one
    type: integers when every value of the file is one, else floats; its
    points are then drawn, written and fitted as NumPy integers (a negative
    power of them fails, a constant answer is cut to an integer).

    >>> all_integers([[[1, 2]], [[3, 4]]]), all_integers([[[1, 2]], [[3, 4.0]]])
    (True, False)
    """
    for table in tables:
        if not isinstance(table, list):
            return False
        for point in table:
            if not isinstance(point, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in point):
                return False
    return True


def draw_points(data: Any, rng: Any, where: str, integer: bool = False) -> Any:
    """:data:`DRAWN` of ``data``'s points drawn by ``rng`` without replacement, in the order drawn (a NumPy array
    of integers with ``integer``, of floats otherwise: see :func:`all_integers`).

    A ``null``, ``true`` or ``false`` among the values is refused (:class:`~assay.errors.InputFileError` naming
    ``where``, the point and the value), as OpenCompass cannot write it in a prompt.
    """
    import numpy as np

    if isinstance(data, list):
        for n, point in enumerate(data):
            for value in point if isinstance(point, list) else [point]:
                if value is None or isinstance(value, bool):
                    raise InputFileError(f"{where}: point {n} holds {json.dumps(value)} ({json.dumps(point)[:120]}), not a "
                                         "number (OpenCompass's loader fails writing its prompt)")
    try:
        points = np.array(data, dtype=np.int64 if integer else float)
    except (TypeError, ValueError, OverflowError):
        raise InputFileError(f"{where}: 'data' is not a table of numbers: {str(data)[:120]!r}") from None
    if points.ndim != 2 or points.shape[1] < 1:
        raise InputFileError(f"{where}: 'data' must be a list of points (rows of numbers), got shape {points.shape}")
    if len(points) < DRAWN:
        raise InputFileError(f"{where}: 'data' holds {len(points)} points; {DRAWN} are drawn of each formula "
                             "(OpenCompass's loader fails on it too)")
    return points[rng.choice(len(points), DRAWN, replace=False)]


def _formulas(file: str) -> list[dict[str, Any]]:
    with open_text(file, _LOADER) as fh:
        try:
            text = fh.read()
        except UnicodeDecodeError as exc:
            raise InputFileError(f"{_LOADER}: file {file} is not UTF-8 text: {exc}") from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        return json_objects(file, _LOADER)
    rows = whole if isinstance(whole, list) else [whole]
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise InputFileError(f"{_LOADER}: file {file}, formula {i} is {type(row).__name__}, expected a JSON object")
    return rows


@LOAD_DATASET.register_module()
class SRbenchDataset(BaseDataset):
    """The file's formulas, each with its columns and ``prompt1`` (the first 291 points drawn, 97%), ``prompt2``
    (the other 9) and ``data_samples_list`` (the 300 points drawn, in order).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`;
    ``seed`` (assay's) sets the draw.
    """

    @staticmethod
    def load(path: str, seed: int = 0, **kwargs: Any) -> Any:
        import numpy as np

        file = os.path.join(get_data_path(path), FILE_NAME)
        if not os.path.isfile(file):
            raise InputFileError(f"{_LOADER}: file {file} does not exist")
        rng = np.random.default_rng(seed)
        rows = []
        formulas = _formulas(file)
        for i, row in enumerate(formulas):
            if "data" not in row:
                raise InputFileError(f"{_LOADER}: file {file}, formula {i}: no 'data' (its points) in {str(row)[:120]!r}")
        integer = all_integers([row["data"] for row in formulas])
        for i, row in enumerate(formulas):
            points = draw_points(row["data"], rng, f"{_LOADER}: file {file}, formula {i}", integer)
            split = int(len(points) * 0.97)
            rows.append({**row, "prompt1": change_data_to_prompt(points[:split]), "prompt2": change_data_to_prompt(points[split:]),
                         "data_samples_list": points.tolist()})
        return rows_table(rows, file)
