"""Postprocessors used with the seed's evaluator skeleton."""

from opencompass.registry import TEXT_POSTPROCESSORS


@TEXT_POSTPROCESSORS.register_module('my_pred_postprocess')
def my_pred_postprocess(text):
    """The text after the last 'Answer:', stripped and upper-cased."""
    return text.rsplit('Answer:', 1)[-1].strip().upper()


def my_reference_postprocess(text):
    return text.strip().upper()
