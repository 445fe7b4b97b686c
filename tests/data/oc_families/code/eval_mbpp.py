# MBPP's default config, its pass@k variant and sanitized MBPP, unchanged, on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.mbpp.mbpp_gen import mbpp_datasets
    from opencompass.configs.datasets.mbpp.mbpp_passk_gen_830460 import mbpp_datasets as mbpp_passk_datasets
    from opencompass.configs.datasets.mbpp.sanitized_mbpp_gen_830460 import sanitized_mbpp_datasets

datasets = [*mbpp_datasets, *mbpp_passk_datasets, *sanitized_mbpp_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
