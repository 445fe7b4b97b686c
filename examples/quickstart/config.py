"""Quick start: score two models' saved predictions on three small datasets.

Run from anywhere:  assay run examples/quickstart/config.py -w outputs/quickstart
Relative paths are read from the working directory when they exist there, else
from this folder.
"""

from mmengine.config import read_base

from opencompass.datasets import Gsm8kEvaluator, JsonlDataset, gsm8k_dataset_postprocess, gsm8k_postprocess
from opencompass.models import HuggingFacewithChatTemplate, VLLMwithChatTemplate
from opencompass.openicl.icl_evaluator import AccEvaluator, EMEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.utils.text_postprocessors import extract_non_reasoning_content, first_option_postprocess

with read_base():
    from .groups.quickstart import quickstart_summary_groups


def gen_infer_cfg(template):
    return dict(
        prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt=template)])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )


datasets = [
    dict(
        abbr='quick_mcq',
        type=JsonlDataset,
        path='data/mcq.jsonl',
        reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
        infer_cfg=gen_infer_cfg('{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:'),
        eval_cfg=dict(
            evaluator=dict(type=AccEvaluator),
            pred_postprocessor=dict(type=first_option_postprocess, options='ABCD'),
        ),
    ),
    dict(
        abbr='quick_short',
        type=JsonlDataset,
        path='data/short.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answers'),
        infer_cfg=gen_infer_cfg('Answer briefly. {question}'),
        eval_cfg=dict(evaluator=dict(type=EMEvaluator)),
    ),
    dict(
        abbr='quick_numeric',
        type=JsonlDataset,
        path='data/numeric.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=gen_infer_cfg("Question: {question}\nLet's think step by step\nAnswer:"),
        eval_cfg=dict(
            evaluator=dict(type=Gsm8kEvaluator),
            pred_postprocessor=dict(type=gsm8k_postprocess),
            dataset_postprocessor=dict(type=gsm8k_dataset_postprocess),
        ),
    ),
]

models = [
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='chat-small',
        path='example-org/chat-small',
        predictions='predictions/chat-small',
    ),
    dict(
        type=VLLMwithChatTemplate,
        abbr='reasoner',
        summarizer_abbr='reasoner (think)',
        path='example-org/reasoner',
        predictions='predictions/reasoner',
        pred_postprocessor=dict(type=extract_non_reasoning_content),
    ),
]

summarizer = dict(
    dataset_abbrs=[
        ['quickstart', 'naive_average'],
        ['quickstart_weighted', 'weighted_average'],
        '',
        ['quick_mcq', 'accuracy'],
        ['quick_short', 'score'],
        ['quick_numeric', 'accuracy'],
    ],
    summary_groups=quickstart_summary_groups,
)

work_dir = 'outputs/quickstart'
