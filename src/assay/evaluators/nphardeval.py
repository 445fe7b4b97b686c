"""NPHardEval's nine checkers as OpenCompass 0.5.4 computes them (``HardGCPEvaluator``, ``Hard_TSP_Evaluator``,
``Hard_MSP_Evaluator``, ``CMP_GCP_D_Evaluator``, ``CMP_TSP_D_Evaluator``, ``CMP_KSP_Evaluator``,
``P_BSP_Evaluator``, ``P_EDP_Evaluator``, ``P_SPP_Evaluator``).

Each reference is ``'<level>####\\n<instance>'`` (see :mod:`assay.datasets.nphardeval`); each reply is
checked against the instance, and the metric, ``Weighted Accuracy``, is the levels of the passed
samples over the levels of all, × 100.  The reply's answer is the Python literal (read with
``ast.literal_eval``, which runs nothing) between ``<final_answer>`` and ``</final_answer>``:

* GCP, TSP and MSP first read the whole reply as XML and take its ``final_answer`` element (no such
  element: no answer); a reply that is not XML is cut at the first of each of the four tags
  (``<final_answer>``, ``</final_answer>``, ``<reasoning>``, ``</reasoning>`` must all be there), and
  an answer that is not a literal is tried again inside braces;
* GCP_Decision, TSP_Decision, KSP and BSP cut the reply the same way (the four tags needed), EDP
  and SPP between the answer tags from the first ``{`` to the first ``}``.

What passes (OpenCompass's checks, their quirks included):

* GCP: every vertex with an edge has a colour that differs from each neighbour's (a graph without
  edges passes whatever the reply); the number of colours is not checked.
* TSP: the ``Path`` (``'0->1->…->0'``) starts and ends at one city, has one more entry than there are
  cities (the cities themselves are not checked; a negative one counts from the end, as numpy
  indexes), and its length equals that of a greedy nearest-neighbour tour from a start city drawn
  at random with numpy's global generator — unseeded in OpenCompass, so that a reply can pass or
  fail from one run to the next where the greedy tours from different starts differ in length.
* MSP: every meeting scheduled in contiguous slots of its duration, within the slots, each
  participant available, nobody booked twice, no meeting the instance lacks.
* GCP_Decision: ``Feasible`` (``'yes'``/``'no'``, any case) agrees with whether a greedy colouring
  (vertices by degree, largest first; a self-loop counts twice) needs at most the target number of
  colours.
* TSP_Decision: ``Feasible`` agrees with whether the tour networkx's approximation
  (``traveling_salesman_problem``: Christofides) finds is within the threshold; a zero distance is
  no road, as networkx reads the matrix.  This one needs networkx (``pip install 'assay[nphardeval]'``).
* KSP: never: OpenCompass's evaluator reads the instance in place of the reply, so every sample
  fails and the metric is 0; an instance whose best value cannot be computed (no ``knapsack_capacity``,
  an item without ``weight`` or ``value``, a capacity that is not an integer) stops OpenCompass, and
  is an error record naming the sample here.
* BSP: never: OpenCompass's checker reads the already-read answer as a reply again, which it cannot
  be, so every sample fails and the metric is 0.
* EDP: ``Operations`` (an integer, or a string of one) is the edit distance of the two strings.
* SPP: the ``Path`` (``'s->…->t'``) runs from the first to the last of the instance's nodes along
  edges (either direction; the first edge listed between two nodes gives the weight), its
  ``TotalDistance`` (``int()`` of it) is the path's weight and the shortest path's; where no path
  exists, a ``TotalDistance`` that is not an integer or a string of digits passes.

OpenCompass divides by zero where the levels add up to 0 (an empty batch, or KSP instances of three
items); assay returns an error record.  A TSP reference whose matrix holds a gap (a ragged CSV row,
``null`` in its JSON) stops OpenCompass's evaluation; assay's is an error record naming the sample.

Details (assay's; OpenCompass returns none): ``level``, ``passed``, and ``answer``, the answer as read
(``repr`` of the literal, ``''`` where none was read).
"""

from __future__ import annotations

import ast
import heapq
import itertools
import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any, ClassVar

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = [
    "CMP_GCP_D_Evaluator", "CMP_KSP_Evaluator", "CMP_TSP_D_Evaluator", "HardGCPEvaluator", "Hard_MSP_Evaluator",
    "Hard_TSP_Evaluator", "P_BSP_Evaluator", "P_EDP_Evaluator", "P_SPP_Evaluator",
]

NETWORKX_MISSING = "networkx is not installed (pip install networkx, or pip install 'assay[nphardeval]')"
_TAGS = ("<final_answer>", "</final_answer>", "<reasoning>", "</reasoning>")


class _BadReference(Exception):
    pass


# -- reading the replies -----------------------------------------------------------------------------------------

def _between_tags(text: Any) -> str:
    """The text between the first ``<final_answer>`` and the first ``</final_answer>`` when all four tags are there, else ``''``."""
    if not isinstance(text, str) or not all(tag in text for tag in _TAGS):
        return ""
    return text[text.index(_TAGS[0]) + len(_TAGS[0]): text.index(_TAGS[1])]


def _xml_answer(text: Any) -> Any:
    """The ``final_answer`` element of the reply read as XML (``None`` when it has none), else :func:`_between_tags`."""
    try:
        return ET.fromstring(text).find("final_answer")
    except Exception:
        return _between_tags(text)


def _literal(text: str) -> Any:
    return ast.literal_eval(text)


def _decision_answer(text: Any) -> Any:
    """The literal between the answer tags (all four tags needed), stripped; ``''`` when none."""
    try:
        return _literal(_between_tags(text).strip())
    except Exception:
        return ""


def _braced_answer(text: Any) -> Any:
    """The literal from the first ``{`` to the first ``}`` between the answer tags (EDP, SPP); ``''`` when none."""
    if not isinstance(text, str) or _TAGS[0] not in text or _TAGS[1] not in text:
        return ""
    inner = text[text.index(_TAGS[0]) + len(_TAGS[0]): text.index(_TAGS[1])].strip()
    if "{" not in inner or "}" not in inner:
        return ""
    try:
        return _literal(inner[inner.index("{"): inner.index("}") + 1].strip())
    except Exception:
        return ""


# -- the instances ---------------------------------------------------------------------------------------------

def _dimacs(graph: str) -> dict[int, set[int]]:
    """Each vertex's neighbours (vertices ``1..n`` of the ``p`` line; edges naming others ignored)."""
    lines = graph.strip().split("\n")
    p_line = next(line for line in lines if line.startswith("p"))
    _, _, vertices, edges = p_line.split()
    adjacency: dict[int, set[int]] = {i: set() for i in range(1, int(vertices) + 1)}
    int(edges)
    for line in lines:
        if line.startswith("e"):
            _, a, b = line.split()
            u, v = int(a), int(b)
            if u in adjacency and v in adjacency:
                adjacency[u].add(v)
                adjacency[v].add(u)
    return adjacency


def _frame(instance: str) -> Any:
    """The ``DataFrame`` a CSV problem's reference encodes (as OpenCompass rebuilds it)."""
    import pandas as pd

    encoded = json.loads(instance)
    if not isinstance(encoded, str):
        raise _BadReference("the instance is not the JSON string of a DataFrame's JSON")
    if "null" in encoded:
        raise _BadReference("the distance matrix has gaps (null), which OpenCompass's evaluation cannot read")
    return pd.DataFrame(json.loads(encoded))


def _feasible(answer: Any, default: str) -> bool:
    flag: bool = answer.get("Feasible", default).lower() == "yes"
    return flag


# -- the checks (each returns whether the sample passes; an exception fails it) ------------------------------------

def _gcp(graph: str, reply: Any) -> bool:
    adjacency = _dimacs(graph)
    answer = _xml_answer(reply)
    read: Any = {}
    if isinstance(answer, str) and answer != "":
        try:
            read = _literal(answer)
        except Exception:
            try:
                read = _literal("{" + answer + "}")
            except Exception:
                read = {}
    elif isinstance(answer, ET.Element):
        read = _literal(answer.text)  # type: ignore[arg-type]  # None raises, failing the sample
    colours = {int(k): v for k, v in read.items()}
    for vertex, neighbours in adjacency.items():
        for neighbour in neighbours:
            try:
                if colours[vertex] == colours[neighbour]:
                    return False
            except Exception:
                return False
    return True


def _read_key(answer: Any, key: str | None) -> Any:
    """An XML answer's literal (its ``key`` entry when given) as TSP's and MSP's checks read it: an element's text,
    else the text, else the text inside braces; ``None`` when none is read."""
    def read(text: Any) -> Any:
        value = _literal(text)
        return value if key is None else value[key]

    if isinstance(answer, str):
        try:
            return read(answer)
        except Exception:
            try:
                return read("{" + answer + "}")
            except Exception:
                return None
    try:
        return read(answer.text)
    except Exception:
        return None


def _greedy_tour_length(matrix: Any) -> Any:
    import numpy as np

    unvisited = set(range(matrix.shape[0]))
    current = np.random.choice(list(unvisited))
    tour = [current]
    total = 0
    while unvisited:
        unvisited.remove(current)
        if unvisited:
            candidates = list(unvisited)
            nearest = candidates[np.argmin(matrix[current][candidates])]
            tour.append(nearest)
            total += matrix[current, nearest]
            current = nearest
    return total + matrix[current, tour[0]]


def _tsp(matrix: Any, reply: Any) -> bool:
    import numpy as np

    matrix = np.array(matrix)
    answer = _xml_answer(reply)
    if answer is None or (isinstance(answer, str) and answer == ""):
        return False
    path = _read_key(answer, "Path")
    if path is None:
        return False
    try:
        tour = list(map(int, path.split("->")))
    except Exception:
        return False
    if tour[0] != tour[-1] or len(tour) != len(matrix) + 1:
        return False
    length = sum(matrix[tour[i]][tour[i + 1]] for i in range(len(tour) - 1))
    return bool(length == _greedy_tour_length(matrix))


def _msp(instance: dict[str, Any], reply: Any) -> bool:
    answer = _xml_answer(reply)
    if answer is None or (isinstance(answer, str) and answer == ""):
        return False
    solution = _read_key(answer, None)
    if not isinstance(solution, dict):
        return False
    solution = {int(k): v for k, v in solution.items()}
    participants = instance["participants"]
    for meeting in instance["meetings"]:
        m_id, duration = meeting["id"], meeting["duration"]
        slots = solution.get(m_id)
        if slots is None:
            return False
        if any(slot >= instance["time_slots"] for slot in slots):
            return False
        if len(slots) != duration or not all(slots[i] + 1 == slots[i + 1] for i in range(len(slots) - 1)):
            return False
        for participant in participants.values():
            if m_id in participant["meetings"] and not all(slot in participant["available_slots"] for slot in slots):
                return False
    schedule: dict[Any, list[Any]] = {p: [] for p in participants}
    for m_id, slots in solution.items():
        try:
            duration = next(meeting["duration"] for meeting in instance["meetings"] if meeting["id"] == m_id)
            if len(slots) != duration:
                return False
            for p_id, participant in participants.items():
                if m_id in participant["meetings"]:
                    schedule[p_id].extend(slots)
        except Exception:
            return False
    return all(len(booked) == len(set(booked)) for booked in schedule.values())


def _greedy_colours(adjacency: dict[int, set[int]]) -> int:
    """The colours a greedy colouring uses, vertices by degree (largest first, a self-loop counted twice, ties in order)."""
    def degree(v: int) -> int:
        return len(adjacency[v]) + (1 if v in adjacency[v] else 0)

    colours: dict[int, int] = {}
    for vertex in sorted(adjacency, key=degree, reverse=True):
        taken = {colours[n] for n in adjacency[vertex] if n in colours}
        colours[vertex] = next(c for c in itertools.count() if c not in taken)
    return max(colours.values()) + 1


def _gcp_decision(graph: str, answer: Any, target: int) -> bool:
    adjacency = _dimacs(graph)
    try:
        feasible = _feasible(answer, "no")
    except Exception:
        return False
    return feasible == (_greedy_colours(adjacency) <= target)


def _tsp_decision(frame: Any, answer: Any) -> bool:
    threshold = frame.iloc[-1, 0]
    matrix = frame.iloc[:-1].values
    try:
        feasible = _feasible(answer, "no")
    except Exception:
        return False
    import networkx as nx

    tour = nx.approximation.traveling_salesman_problem(nx.from_numpy_array(matrix))
    length = sum(matrix[tour[i], tour[i + 1]] for i in range(len(tour) - 1)) + matrix[tour[-1], tour[0]]
    return bool(feasible == (length <= threshold))


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = previous[j - 1] if a[i - 1] == b[j - 1] else 1 + min(previous[j], row[j - 1], previous[j - 1])
        previous = row
    return previous[len(b)]


def _edp(instance: dict[str, Any], answer: Any) -> bool:
    try:
        reported = int(answer.get("Operations", -1))
    except Exception:
        reported = -1
    actual = _edit_distance(instance["string_a"], instance["string_b"])
    return reported != -1 and reported == actual


def _shortest(instance: dict[str, Any], source: Any, target: Any) -> Any:
    """The weight of a shortest path from ``source`` to ``target`` in the undirected graph (the last weight given
    between two nodes counts), ``None`` without a path."""
    graph: dict[Any, dict[Any, Any]] = {node: {} for node in instance["nodes"]}
    for edge in instance["edges"]:
        a, b, w = edge["from"], edge["to"], edge["weight"]
        graph.setdefault(a, {})[b] = w
        graph.setdefault(b, {})[a] = w
    if source not in graph or target not in graph:
        raise KeyError(f"node {source if source not in graph else target} is not in the graph")
    done: dict[Any, Any] = {}
    heap: list[tuple[Any, int, Any]] = [(0, 0, source)]
    counter = itertools.count(1)
    while heap:
        dist, _, node = heapq.heappop(heap)
        if node in done:
            continue
        done[node] = dist
        if node == target:
            return dist
        for neighbour, weight in graph[node].items():
            if neighbour not in done:
                heapq.heappush(heap, (dist + weight, next(counter), neighbour))
    return None


def _spp(instance: dict[str, Any], answer: Any) -> bool:
    start, end = instance["nodes"][0], instance["nodes"][-1]
    try:
        path_text = answer.get("Path", "")
        cost_text = answer.get("TotalDistance", "")
    except Exception:
        return False
    optimal = _shortest(instance, start, end)
    if optimal is None:
        return not (isinstance(cost_text, int) or cost_text.isdigit())
    try:
        path = list(map(int, path_text.split("->")))
        total = int(cost_text)
    except Exception:
        return False
    if not path or path[0] != start or path[-1] != end:
        return False
    cost = 0
    for a, b in itertools.pairwise(path):
        edge = next((e for e in instance["edges"] if (e["from"] == a and e["to"] == b) or (e["from"] == b and e["to"] == a)), None)
        if not edge:
            return False
        cost += edge["weight"]
    return bool(cost == total and cost == optimal)


# -- the evaluators ----------------------------------------------------------------------------------------------

def _split(reference: Any) -> tuple[int, str]:
    text = str(reference)
    head, sep, _ = text.partition("####\n")
    if not sep:
        raise _BadReference("no '<level>####\\n' before the instance")
    try:
        level = int(head)
    except ValueError:
        raise _BadReference(f"the level {head!r} is not an integer") from None
    return level, text.split("####\n")[-1]


def _shown(answer: Any) -> str:
    if answer is None or (isinstance(answer, str) and answer == ""):
        return ""
    if isinstance(answer, ET.Element):
        return ET.tostring(answer, encoding="unicode")
    return repr(answer)


class _NPHardEvaluator(BaseEvaluator):
    """One NPHardEval problem: :meth:`check` a sample, the metric the passed levels' share (see the module)."""

    #: what the checker reads of the instance: ``'text'`` (DIMACS), ``'json'`` (a record), ``'frame'`` (a matrix)
    instance_kind: ClassVar[str] = "json"

    def read_instance(self, text: str) -> Any:
        if self.instance_kind == "text":
            return text
        if self.instance_kind == "frame":
            return _frame(text)
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise _BadReference(f"the instance is not JSON: {exc}") from None

    def answer(self, reply: Any) -> Any:
        """The answer as the checker reads it from the reply (for the details)."""
        return _decision_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        raise NotImplementedError

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        passed = failed = 0
        details = []
        for index, (reply, reference) in enumerate(zip(predictions, references)):
            try:
                level, text = _split(reference)
                instance = self.read_instance(text)
            except (_BadReference, ValueError) as exc:
                return {"error": f"{name}: reference {index} ({str(reference)[:120]!r}): {exc}"}
            try:
                ok = bool(self.check(instance, reply))
            except Exception:
                ok = False
            if ok:
                passed += level
            else:
                failed += level
            details.append({"level": level, "passed": ok, "answer": _shown(self.answer(reply))})
        if passed + failed == 0:
            return {"error": f"{name}: the levels of the {len(details)} samples add up to 0, over which OpenCompass's "
                             "weighted accuracy divides"}
        return {"Weighted Accuracy": share_percent(passed, passed + failed), "details": details}


@ICL_EVALUATORS.register_module()
class HardGCPEvaluator(_NPHardEvaluator):
    """Graph colouring: a valid colouring of every vertex with an edge (see the module)."""

    instance_kind = "text"

    def answer(self, reply: Any) -> Any:
        return _xml_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        return _gcp(instance, reply)


@ICL_EVALUATORS.register_module()
class Hard_TSP_Evaluator(_NPHardEvaluator):
    """The travelling salesman: a closed tour as long as a greedy one from a random start (see the module)."""

    instance_kind = "frame"

    def answer(self, reply: Any) -> Any:
        return _xml_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        return _tsp(instance, reply)


@ICL_EVALUATORS.register_module()
class Hard_MSP_Evaluator(_NPHardEvaluator):
    """Meeting scheduling: a valid schedule of every meeting (see the module)."""

    def answer(self, reply: Any) -> Any:
        return _xml_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        return _msp(instance, reply)


@ICL_EVALUATORS.register_module()
class CMP_GCP_D_Evaluator(_NPHardEvaluator):
    """Graph colouring's decision: ``Feasible`` agrees with a greedy colouring (see the module)."""

    instance_kind = "text"

    def read_instance(self, text: str) -> Any:
        try:
            target = int(text.split("\n")[0].split()[-2])
        except (IndexError, ValueError):
            raise _BadReference("its first line does not end with '<colours> colors'-like words") from None
        return text, target

    def check(self, instance: Any, reply: Any) -> bool:
        graph, target = instance
        return _gcp_decision(graph, _decision_answer(reply), target)


@ICL_EVALUATORS.register_module()
class CMP_TSP_D_Evaluator(_NPHardEvaluator):
    """The travelling salesman's decision: ``Feasible`` agrees with Christofides' tour and the threshold (see the module)."""

    instance_kind = "frame"

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: networkx when it is missing."""
        import importlib.util

        return [NETWORKX_MISSING] if importlib.util.find_spec("networkx") is None else []

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        import importlib.util

        if importlib.util.find_spec("networkx") is None:
            return {"error": f"{type(self).__name__}: {NETWORKX_MISSING}"}
        return super().score(predictions, references)

    def check(self, instance: Any, reply: Any) -> bool:
        return _tsp_decision(instance, _decision_answer(reply))


@ICL_EVALUATORS.register_module()
class CMP_KSP_Evaluator(_NPHardEvaluator):
    """The knapsack: every sample fails, as OpenCompass checks the instance in place of the reply (see the module).

    OpenCompass's check still computes the instance's best value first, and
    stops where it cannot (the instance is not an object, lacks
    ``knapsack_capacity``, an item lacks ``id``, ``weight`` or ``value``, a
    capacity or weight is not an integer): such a reference is an error
    record naming the sample.
    """

    def read_instance(self, text: str) -> Any:
        instance = super().read_instance(text)
        try:
            items = instance.get("items", [])
            knapsacks = {item["id"]: (item["weight"], item["value"]) for item in items}
            capacity = instance["knapsack_capacity"]
            best = [0] * (capacity + 1)
            for weight, value in knapsacks.values():
                for room in range(capacity, weight - 1, -1):
                    best[room] = max(best[room], value + best[room - weight])
            _ = best[capacity]  # read as OpenCompass reads it: an index error for a negative capacity
        except KeyError as exc:
            raise _BadReference(f"the instance or one of its items lacks {exc}, which OpenCompass's knapsack check reads") from None
        except (AttributeError, TypeError, IndexError) as exc:
            raise _BadReference(f"OpenCompass's knapsack check cannot compute the instance's best value: "
                                f"{type(exc).__name__}: {exc}") from None
        return instance

    def answer(self, reply: Any) -> Any:
        return ""

    def check(self, instance: Any, reply: Any) -> bool:
        return False


@ICL_EVALUATORS.register_module()
class P_BSP_Evaluator(_NPHardEvaluator):
    """Binary search: every sample fails, as OpenCompass reads the answer as a reply again (see the module)."""

    def check(self, instance: Any, reply: Any) -> bool:
        return False


@ICL_EVALUATORS.register_module()
class P_EDP_Evaluator(_NPHardEvaluator):
    """Edit distance: ``Operations`` is the strings' edit distance (see the module)."""

    def answer(self, reply: Any) -> Any:
        return _braced_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        return _edp(instance, _braced_answer(reply))


@ICL_EVALUATORS.register_module()
class P_SPP_Evaluator(_NPHardEvaluator):
    """Shortest path: a path from the first node to the last of the shortest weight (see the module)."""

    def answer(self, reply: Any) -> Any:
        return _braced_answer(reply)

    def check(self, instance: Any, reply: Any) -> bool:
        return _spp(instance, _braced_answer(reply))

