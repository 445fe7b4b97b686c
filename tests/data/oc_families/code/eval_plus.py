# HumanEval+ and MBPP+ default configs, unchanged, on the fixture problems
# (EvalPlus's problem files: HUMANEVAL_OVERRIDE_PATH / MBPP_OVERRIDE_PATH).
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.humaneval_plus.humaneval_plus_gen import humaneval_plus_datasets
    from opencompass.configs.datasets.mbpp_plus.mbpp_plus_gen import mbpp_plus_datasets

datasets = [*humaneval_plus_datasets, *mbpp_plus_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
