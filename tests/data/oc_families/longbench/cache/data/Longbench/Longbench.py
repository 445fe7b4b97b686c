"""Reads LongBench's subsets from this folder (data/<name>.jsonl)."""
import json
import os

import datasets


class Subsets(datasets.GeneratorBasedBuilder):
    BUILDER_CONFIGS = [datasets.BuilderConfig(name=n) for n in ['narrativeqa', 'qasper', 'multifieldqa_en', 'multifieldqa_zh', 'hotpotqa', '2wikimqa', 'musique', 'dureader', 'gov_report', 'qmsum', 'multi_news', 'vcsum', 'trec', 'triviaqa', 'samsum', 'lsht', 'passage_count', 'passage_retrieval_en', 'passage_retrieval_zh', 'lcc', 'repobench-p']]

    def _info(self):
        return datasets.DatasetInfo()

    def _split_generators(self, dl_manager):
        root = self.base_path
        return [datasets.SplitGenerator(name=datasets.Split.TEST, gen_kwargs={"file": os.path.join(root, "data", self.config.name + ".jsonl")})]

    def _generate_examples(self, file):
        with open(file, encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                yield number, json.loads(line)
