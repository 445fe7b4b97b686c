"""Subjective evaluation: an LLM judge scores the saved answers of models, alone or in pairs.

``plan`` lists the judge tasks of a run config as OpenCompass 0.5.4's
subjective partitioner plans them, ``task`` runs one (its predictions, its
test set, ``LMEvaluator``, the result in OpenCompass's ``_judged-by--``
layout), ``verdicts`` reads a judge's reply the way each benchmark does, to
count the replies no score can be read from.  Importing the package imports
none of its modules.
"""
