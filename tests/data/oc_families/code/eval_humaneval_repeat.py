# HumanEval's n=5, k=3 variant, unchanged, on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.humaneval.humaneval_openai_sample_evals_repeat_gen_dcae0e import humaneval_datasets

datasets = [*humaneval_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
