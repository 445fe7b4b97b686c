from opencompass.openicl.icl_evaluator import AccEvaluator, BaseEvaluator
from opencompass.datasets import JsonlDataset
from opencompass.utils.text_postprocessors import first_capital_postprocess

reader = dict(input_columns=['question'], output_column='answer')
eval_cfg = dict(evaluator=dict(type=AccEvaluator), pred_postprocessor=dict(type=first_capital_postprocess))
good = dict(abbr='good', type=JsonlDataset, path='../_shared/good.jsonl', reader_cfg=reader, eval_cfg=eval_cfg)
models = [dict(abbr='m', path='m', predictions='preds')]

datasets = [good, dict(type=JsonlDataset, reader_cfg=reader, eval_cfg=eval_cfg)]
