from mmengine.config import read_base

from opencompass.datasets import JsonlDataset
from opencompass.models import HuggingFacewithChatTemplate, VLLMwithChatTemplate
from opencompass.openicl.icl_evaluator import AccEvaluator, EMEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask
from opencompass.utils.text_postprocessors import extract_non_reasoning_content, first_capital_postprocess

with read_base():
    from .parts.trivia import trivia_datasets

mcq_reader_cfg = dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer')
mcq_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(round=[dict(role='HUMAN', prompt='{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:')]),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)
mcq_eval_cfg = dict(evaluator=dict(type=AccEvaluator), pred_postprocessor=dict(type=first_capital_postprocess))

ppl_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template={c: f'{{question}} {c}' for c in 'ABCD'}),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer),
)

datasets = [
    dict(abbr='mcq', type=JsonlDataset, path='data/mcq.jsonl', reader_cfg=mcq_reader_cfg,
         infer_cfg=mcq_infer_cfg, eval_cfg=mcq_eval_cfg),
    dict(abbr='mcq_ppl', type=JsonlDataset, path='data/mcq.jsonl', reader_cfg=mcq_reader_cfg,
         infer_cfg=ppl_infer_cfg, eval_cfg=dict(evaluator=dict(type=AccEvaluator))),
    dict(abbr='toy', type=JsonlDataset, path='data/toy.jsonl', n=4, k=[2, 4],
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         infer_cfg=mcq_infer_cfg, eval_cfg=mcq_eval_cfg),
    *trivia_datasets,
]

models = [
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='chat-7b',
        path='org/chat-7b',
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
        pred_postprocessor=dict(type=extract_non_reasoning_content),
    ),
    dict(
        type=VLLMwithChatTemplate,
        abbr='reasoner-14b',
        path='org/reasoner-14b',
        model_kwargs=dict(tensor_parallel_size=2),
        max_out_len=8192,
        batch_size=16,
        run_cfg=dict(num_gpus=2),
        pred_postprocessor=dict(type=extract_non_reasoning_content),
    ),
]

eval = dict(
    partitioner=dict(type=NaivePartitioner),
    runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)),
)
work_dir = 'outputs/oc_style'
