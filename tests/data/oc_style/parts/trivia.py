from opencompass.datasets import JsonlDataset
from opencompass.openicl.icl_evaluator import EMEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

trivia_datasets = [
    dict(
        abbr='trivia',
        type=JsonlDataset,
        path='data/trivia.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='Q: {question}\nA:'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
        eval_cfg=dict(evaluator=dict(type=EMEvaluator)),
    )
]
