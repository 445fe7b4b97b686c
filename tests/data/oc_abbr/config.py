# Models and datasets without abbr, named by OpenCompass from their type and path.
from opencompass.datasets import GSM8KDataset, Gsm8kEvaluator
from opencompass.models import HuggingFaceCausalLM, OpenAI
from opencompass.models.huggingface import HuggingFace
from opencompass.openicl.icl_evaluator import AccEvaluator

_eval = dict(evaluator=dict(type=AccEvaluator))
models = [
    dict(type=HuggingFaceCausalLM, path='lesliehd/Mistral-7B-v0.1'),
    dict(type=HuggingFace, path='/nonexistent-root/weights/internlm/internlm-7b/'),
    dict(type=OpenAI, path='gpt-4'),
    dict(type=HuggingFace, path='models/link'),
    dict(type=OpenAI, path='gpt-4o', abbr='gpt-4o-named'),
]
datasets = [
    dict(type=GSM8KDataset, path='opencompass/gsm8k', reader_cfg=dict(input_columns=['question'], output_column='answer'),
         eval_cfg=dict(evaluator=dict(type=Gsm8kEvaluator))),
    dict(type=GSM8KDataset, path='data/xsum/dev.jsonl', name='v1', reader_cfg=dict(output_column='answer'), eval_cfg=_eval),
    dict(type=GSM8KDataset, path='opencompass/ceval', name='', reader_cfg=dict(output_column='answer'), eval_cfg=_eval),
    dict(type=GSM8KDataset, path='mmlu', abbr='mmlu-named', reader_cfg=dict(output_column='answer'), eval_cfg=_eval),
]
