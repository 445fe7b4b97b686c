# MBPP's n=5, k=3 variant, unchanged, on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.mbpp.mbpp_repeat_gen_18dd1b import mbpp_datasets

datasets = [*mbpp_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
