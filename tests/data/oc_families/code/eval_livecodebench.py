# LiveCodeBench's default config (code generation, code execution, test output prediction), unchanged,
# on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.livecodebench.livecodebench_gen import LCB_datasets

datasets = [*LCB_datasets]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
