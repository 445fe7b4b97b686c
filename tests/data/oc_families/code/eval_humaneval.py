# HumanEval's default config and its num_repeats=10 variant, unchanged, on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.humaneval.humaneval_gen import humaneval_datasets
    from opencompass.configs.datasets.humaneval.humaneval_repeat10_gen_8e312c import humaneval_datasets as humaneval_repeat10_datasets

datasets = [*humaneval_datasets, *humaneval_repeat10_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
