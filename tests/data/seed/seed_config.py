# The two placements of pred_postprocessor described for the evaluator skeleton.
from seed_evaluator import MyEvaluator
from seed_postprocessors import my_pred_postprocess, my_reference_postprocess

from opencompass.datasets import JsonlDataset

reader_cfg = dict(input_columns=['question'], output_column='answer')

datasets = [
    dict(
        abbr='qa_dataset',
        type=JsonlDataset,
        path='qa.jsonl',
        reader_cfg=reader_cfg,
        eval_cfg=dict(
            pred_postprocessor=dict(type=my_pred_postprocess),
            dataset_postprocessor=dict(type=my_reference_postprocess),
            evaluator=dict(type=MyEvaluator),
        ),
    ),
    dict(
        abbr='qa_evaluator_level',
        type=JsonlDataset,
        path='qa.jsonl',
        reader_cfg=reader_cfg,
        eval_cfg=dict(
            dataset_postprocessor=dict(type=my_reference_postprocess),
            evaluator=dict(
                type=MyEvaluator,
                pred_postprocessor=dict(type='my_pred_postprocess'),
            ),
        ),
    ),
]
models = [dict(abbr='seed-model', path='seed-model', predictions='preds/seed-model')]
