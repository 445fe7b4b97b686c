# LiveCodeBench's default config (code execution and test output prediction), unchanged, on the fixture problems.
from mmengine.config import read_base

from opencompass.models import HuggingFacewithChatTemplate

with read_base():
    from opencompass.configs.datasets.livecodebench.livecodebench_gen_a4f90b import LCBCodeExecution_dataset, LCBTestOutput_dataset

datasets = [LCBCodeExecution_dataset, LCBTestOutput_dataset]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
