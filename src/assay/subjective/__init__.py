"""Subjective (LLM-judged) evaluations: the judge outputs' dict postprocessors, their summarizers and statistics.

Pairwise families (a judge compares two models' answers):

* Arena-Hard (:mod:`assay.subjective.arena_hard`): ``arenahard_postprocess``,
  ``arenahard_bradleyterry_postprocess``, ``ArenaHardSummarizer`` (Elo ratings,
  win rate against the base model, bootstrap interval);
* AlpacaEval (:mod:`assay.subjective.alpaca_eval`), CompassArena
  (:mod:`assay.subjective.compassarena`, with its position-bias count),
  WildBench (:mod:`assay.subjective.wildbench`), CompassArena's subjective bench
  pairwise (:mod:`assay.subjective.compass_arena_subjective_bench_pairwise`);
* :mod:`assay.subjective.elo`: the Elo fit, its bootstrap and predicted win rates;
* :mod:`assay.subjective.pairwise`: assay's own statistics beside OpenCompass's numbers —
  seeded bootstrap intervals, position bias of ``infer_order='double'`` judgements,
  unread judge replies — as the ``pairwise`` section of a summary.

Each computes what OpenCompass 0.5.4 computes under the same name (its quirks
stated in the docstrings).  Importing this package imports none of its modules:
the registries import the one defining a name asked for.
"""

from __future__ import annotations

__all__: list[str] = []
