"""Time per molecule of MolecularIQ's functional-group, reaction-template, BRICS and Murcko functions.

Prints, for each function of ``assay.evaluators.moleculariq_groups``, the mean time per molecule over the 834
NCI molecules of the recorded corpus (``tests/data/oc_families/moleculariq/groups/corpus.json.gz``), each
molecule taken ``--repeat`` times.  The patterns and templates are compiled before the clock starts (they are
compiled once per process).  Needs RDKit.

Usage::

    python benchmarks/bench_moleculariq_groups.py [--repeat 1]
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from assay.evaluators import moleculariq_groups as groups

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "moleculariq" / "groups" / "corpus.json.gz"
FUNCTIONS = ("functional_group_data", "reaction_data", "brics_fragment_count", "brics_bond_indices",
             "murcko_scaffold_count", "murcko_scaffold_indices", "murcko_scaffold_value")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    smiles = [row["smiles"] for row in json.loads(gzip.decompress(CORPUS.read_bytes()))["molecules"]] * args.repeat
    for name in FUNCTIONS:
        function = getattr(groups, name)
        function("C")  # compiles the patterns and templates
        start = time.perf_counter()
        for s in smiles:
            function(s)
        elapsed = time.perf_counter() - start
        print(f"{name:<26} {elapsed / len(smiles) * 1000:8.2f} ms per molecule ({len(smiles)} molecules)")


if __name__ == "__main__":
    main()
