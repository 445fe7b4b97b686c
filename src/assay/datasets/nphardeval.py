"""NPHardEval's nine problems as OpenCompass 0.5.4 reads them (``HardGCPDataset``, ``Hard_TSP_Dataset``,
``Hard_MSP_Dataset``, ``CMP_GCP_D_Dataset``, ``CMP_TSP_D_Dataset``, ``CMP_KSP_Dataset``, ``P_BSP_Dataset``,
``P_EDP_Dataset``, ``P_SPP_Dataset``).

Layout (``path`` as the library's config gives it, ``./data/NPHardEval/<problem>/``, resolved by
:func:`~assay.datasets.location.get_data_path`; each file is read inside that folder — OpenCompass appends the
file's name to the path, so that there a path without its trailing ``/`` names other files)::

    GCP/synthesized_data_GCP_<0..9>.txt              graphs in DIMACS form, one per paragraph
    GCP_Decision/decision_data_GCP_<0..9>.txt        the same, with a target number of colours
    TSP/synthesized_data_TSP_level_<0..9>_instance_<1..10>.csv        distance matrices
    TSP_Decision/decision_data_TSP_level_<0..9>_instance_<1..10>.csv  the same, last row the threshold
    MSP/msp_instances.json  KSP/ksp_instances.json  BSP/bsp_instances.json
    EDP/edp_instances.json  SPP/spp_instances.json

Each row has ``prompt`` (the problem's introduction, question, output instructions and the instance
written out), ``level`` and ``q``, the reference: ``'<level>####\\n'`` and the instance — the DIMACS
text, the JSON of the record, or, for the CSV problems, the JSON string of the matrix's
``DataFrame.to_json()`` (a JSON string holding JSON, as OpenCompass encodes it).  The level is the
file's number plus one (GCP, GCP_Decision, the CSV problems), ``complexity_level`` (MSP, SPP),
the number of items less 3 (KSP), of array elements less 2 (BSP) or of ``string_a``'s characters
less 2 (EDP).  Each paragraph of a DIMACS file is a graph but the last, which OpenCompass drops
(the file is read as split on blank lines).  As OpenCompass, the BSP prompt lists the array sorted,
the SPP prompt asks for a path from the first to the last of ``nodes``, and the MSP prompt's
participant count is the ``participants`` mapping itself.  The prompt texts are the benchmark's
own, kept in ``nphardeval_prompts.json`` beside this module.  A missing file, a record without a
field the loader reads, or a graph without its header lines is an error naming the loader, the
file and the value.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc import open_text, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "CMP_GCP_D_Dataset", "CMP_KSP_Dataset", "CMP_TSP_D_Dataset", "HardGCPDataset", "Hard_MSP_Dataset", "Hard_TSP_Dataset",
    "P_BSP_Dataset", "P_EDP_Dataset", "P_SPP_Dataset",
]


@cache
def _prompts() -> dict[str, dict[str, str]]:
    """Per problem (``GCP``, ``TSP``, …, ``SPP``): its ``Intro``, ``Initial_question``, ``Output_content``, ``Output_format``."""
    with open(Path(__file__).with_name("nphardeval_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, dict[str, str]] = json.load(handle)
    return texts


def _head(problem: str, **fields: Any) -> str:
    p = _prompts()[problem]
    return "\n".join([p["Intro"], p["Initial_question"].format(**fields), p["Output_content"], p["Output_format"]])


def _row(level: int, prompt: str, instance: str) -> dict[str, Any]:
    return {"prompt": prompt, "q": f"{level}####\n{instance}", "level": level}


# -- DIMACS graphs (GCP, GCP_Decision) -----------------------------------------------------------------

def _paragraphs(path: str, loader: str) -> list[str]:
    with open_text(path, loader) as fh:
        return fh.read().split("\n\n")[:-1]


def _edge_lines(graph: str) -> str:
    out = ""
    for line in graph.split("\n")[2:]:
        words = line.split(" ")
        out += f"Vertex {words[1]} is connected to vertex {words[2]}.\n"
    return out


def _graph_rows(path: str, stem: str, loader: str, prompt: Callable[[str], str]) -> list[dict[str, Any]]:
    rows = []
    for number in range(10):
        file = os.path.join(path, f"{stem}_{number}.txt")
        for graph in _paragraphs(file, loader):
            try:
                text = prompt(graph)
            except (IndexError, ValueError):
                raise InputFileError(f"{loader}: file {file}: a graph without its two header lines and 'e <u> <v>' edges: "
                                     f"{graph[:200]!r}") from None
            rows.append(_row(number + 1, text, graph))
    return rows


def _gcp_prompt(graph: str) -> str:
    lines = graph.split("\n")
    head = _head("GCP", max_vertices=lines[1].split(" ")[2], max_colors=lines[0][-1])
    return head + "\n The graph is below: \n" + _edge_lines(graph)


def _gcp_d_prompt(graph: str) -> str:
    lines = graph.split("\n")
    head = _head("GCP_Decision", total_vertices=lines[1].split(" ")[2], number_of_colors=lines[0].split()[-2])
    return head + "\n" + "\n The graph is below: \n" + _edge_lines(graph)


# -- distance matrices (TSP, TSP_Decision) ---------------------------------------------------------------

def _matrices(path: str, stem: str, loader: str) -> list[tuple[int, Any]]:
    import pandas as pd

    out = []
    for level in range(10):
        for number in range(10):
            file = os.path.join(path, f"{stem}_level_{level}_instance_{number + 1}.csv")
            with open_text(file, loader):  # a missing or unreadable file named
                pass
            try:
                table = pd.read_csv(file, header=None, index_col=False)
            except (ValueError, pd.errors.ParserError) as exc:
                raise InputFileError(f"{loader}: file {file} is not a CSV distance matrix: {exc}") from None
            out.append((level + 1, table))
    return out


def _distances(shape: tuple[int, int], cells: Any, wording: str) -> str:
    """The upper triangle of a distance matrix (``cells[i, j]``), a sentence a distance, each value as Python formats it."""
    out = ""
    for i in range(shape[0]):
        for j in range(shape[1]):
            if i < j:
                out += wording.format(i, j, cells[i, j]) + "\n"
    return out


# -- JSON instances -------------------------------------------------------------------------------------------

def _instances(path: str, name: str, loader: str) -> list[dict[str, Any]]:
    file = os.path.join(path, name)
    data = read_json(file, loader)
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise InputFileError(f"{loader}: file {file} must hold a JSON list of objects, got {type(data).__name__}")
    return data


def _field_error(loader: str, file: str, index: int, exc: Exception) -> InputFileError:
    return InputFileError(f"{loader}: file {file}: instance {index} lacks a field the loader reads or holds one of "
                          f"another kind: {type(exc).__name__}: {exc}")


def _json_rows(path: str, name: str, loader: str, level: Callable[[dict[str, Any]], int],
               prompt: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:
    rows = []
    for index, instance in enumerate(_instances(path, name, loader)):
        try:
            rows.append(_row(level(instance), prompt(instance), json.dumps(instance)))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise _field_error(loader, os.path.join(path, name), index, exc) from None
    return rows


def _msp_prompt(q: dict[str, Any]) -> str:
    participants = q["participants"]
    text = _head("MSP", total_participants=participants, total_timeslots=q["time_slots"])
    text += "\n The meetings and participants details are as below: \n"
    for meeting in q["meetings"]:
        text += "Meeting {} is with duration {}.".format(meeting["id"], meeting["duration"]) + "\n"
    for key in participants:
        text += "Participant {} is available at time slots {} and has meetings {}.".format(
            key, participants[key]["available_slots"], participants[key]["meetings"]) + "\n"
    return text


def _ksp_prompt(q: dict[str, Any]) -> str:
    text = _head("KSP", knapsack_capacity=q["knapsack_capacity"]) + "\n The items details are as below: \n"
    for item in q["items"]:
        text += f"Item {item['id']} has weight {item['weight']} and value {item['value']}." + "\n"
    return text


def _bsp_prompt(q: dict[str, Any]) -> str:
    array = sorted(q["array"])
    return _head("BSP", target_value=q["target"]) + "\n The sorted array elements are: " + ", ".join(map(str, array)) + "\n"


def _edp_prompt(q: dict[str, Any]) -> str:
    return _head("EDP", string_a=q["string_a"], string_b=q["string_b"])


def _spp_prompt(q: dict[str, Any]) -> str:
    text = _head("SPP", start_node=q["nodes"][0], end_node=q["nodes"][-1]) + "\n The graph's edges and weights are as follows: \n"
    for edge in q["edges"]:
        text += f"Edge from {edge['from']} to {edge['to']} has a weight of {edge['weight']}." + "\n"
    return text


def _local(path: str, loader: str) -> str:
    return get_data_path(path, local_mode=True)


@LOAD_DATASET.register_module()
class HardGCPDataset(BaseDataset):
    """Graph colouring: ``synthesized_data_GCP_<n>.txt``, level ``n + 1``; the reference the DIMACS graph."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "HardGCPDataset"
        return rows_table(_graph_rows(_local(path, loader), "synthesized_data_GCP", loader, _gcp_prompt), path)


@LOAD_DATASET.register_module()
class CMP_GCP_D_Dataset(BaseDataset):
    """Graph colouring's decision version: ``decision_data_GCP_<n>.txt``, level ``n + 1``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "CMP_GCP_D_Dataset"
        return rows_table(_graph_rows(_local(path, loader), "decision_data_GCP", loader, _gcp_d_prompt), path)


@LOAD_DATASET.register_module()
class Hard_TSP_Dataset(BaseDataset):
    """The travelling salesman: ``synthesized_data_TSP_level_<l>_instance_<i>.csv``, level ``l + 1``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "Hard_TSP_Dataset"
        rows = []
        for level, table in _matrices(_local(path, loader), "synthesized_data_TSP", loader):
            text = _head("TSP", total_cities=table.shape[0]) + "\n The distances between cities are below: \n"
            text += _distances(table.shape, table.iloc, "The path between City {} and City {} is with distance {}.")
            rows.append(_row(level, text, json.dumps(table.to_json())))
        return rows_table(rows, path)


@LOAD_DATASET.register_module()
class CMP_TSP_D_Dataset(BaseDataset):
    """The travelling salesman's decision version: ``decision_data_TSP_level_<l>_instance_<i>.csv``, its last
    row's first value the threshold, the rows before it the distances; level ``l + 1``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "CMP_TSP_D_Dataset"
        rows = []
        for level, table in _matrices(_local(path, loader), "decision_data_TSP", loader):
            matrix = table.iloc[:-1].values
            text = _head("TSP_Decision", total_cities=matrix.shape[0], distance_limit=table.iloc[-1, 0]) + "\n"
            text += "The distances between cities are below: \n"
            text += _distances(matrix.shape, matrix, "The distance between City {} and City {} is {}.")
            rows.append(_row(level, text, json.dumps(table.to_json())))
        return rows_table(rows, path)


@LOAD_DATASET.register_module()
class Hard_MSP_Dataset(BaseDataset):
    """Meeting scheduling: ``msp_instances.json``, level ``complexity_level``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "Hard_MSP_Dataset"
        return rows_table(_json_rows(_local(path, loader), "msp_instances.json", loader,
                                     lambda q: int(q["complexity_level"]), _msp_prompt), path)


@LOAD_DATASET.register_module()
class CMP_KSP_Dataset(BaseDataset):
    """The knapsack: ``ksp_instances.json``, level the number of items less 3."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "CMP_KSP_Dataset"
        return rows_table(_json_rows(_local(path, loader), "ksp_instances.json", loader,
                                     lambda q: len(q["items"]) - 3, _ksp_prompt), path)


@LOAD_DATASET.register_module()
class P_BSP_Dataset(BaseDataset):
    """Binary search: ``bsp_instances.json``, level the array's length less 2."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "P_BSP_Dataset"
        return rows_table(_json_rows(_local(path, loader), "bsp_instances.json", loader,
                                     lambda q: len(q["array"]) - 2, _bsp_prompt), path)


@LOAD_DATASET.register_module()
class P_EDP_Dataset(BaseDataset):
    """Edit distance: ``edp_instances.json``, level ``string_a``'s length less 2."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "P_EDP_Dataset"
        return rows_table(_json_rows(_local(path, loader), "edp_instances.json", loader,
                                     lambda q: len(q["string_a"]) - 2, _edp_prompt), path)


@LOAD_DATASET.register_module()
class P_SPP_Dataset(BaseDataset):
    """Shortest path: ``spp_instances.json``, level ``complexity_level``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "P_SPP_Dataset"
        return rows_table(_json_rows(_local(path, loader), "spp_instances.json", loader,
                                     lambda q: int(q["complexity_level"]), _spp_prompt), path)
