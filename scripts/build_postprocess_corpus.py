"""Build the differential corpus of model replies for the OpenCompass-named postprocessors.

The corpus is ``tests/data/postprocess/opencompass_corpus/replies.jsonl``: one reply
per line (``id``, ``kind``, ``text``).  It holds

* the real chain-of-thought exemplars of the golden cases (MMLU and BBH, see
  ``tests/data/postprocess/golden/README.md``), as written and in the shapes chat
  models give them (inside a reasoning block, followed by a second thought, in
  bold, in Chinese);
* replies built on real MMATH problems (boxed, stated, plain, with thousands
  separators, with a trailing few-shot question);
* hand-written replies of the kinds that trip extractors: several candidates,
  thousands separators, LaTeX, refusals, Chinese, empty, very long;
* the texts of the hand-written quirk cases and OpenCompass's own test vectors.

The choice of golden cases and variants is drawn from a fixed seed, so running the
script again gives the same file.  After changing the corpus, record OpenCompass's
outputs again with ``scripts/record_oc_postprocessors.py``.

Usage::

    python scripts/build_postprocess_corpus.py [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "postprocess"
GOLDEN = DATA / "golden"
OUT = DATA / "opencompass_corpus" / "replies.jsonl"

HAND_WRITTEN: list[tuple[str, str]] = [
    # several candidates
    ("candidates", "The answer is B, not A."),
    ("candidates", "A seems plausible at first, but on reflection the answer is (C)."),
    ("candidates", "Options A and D are wrong. B is tempting. The correct answer is C."),
    ("candidates", "Answer: A\n\nWait, let me reconsider. Answer: D"),
    ("candidates", "I think it's B or C. Final answer: C"),
    ("candidates", "(A) is incorrect because the velocity doubles; (B) is incorrect too. So (D)."),
    ("candidates", "Between A and B, I choose B."),
    ("candidates", "The correct option is \\boxed{B}, although one might argue for A."),
    ("candidates", "The correct answer is: after careful thought, \\boxed{D}"),
    ("candidates", "Step 1. Eliminate A. Step 2. Eliminate C. The answer is **B**."),
    ("candidates", "1. B\n2. A\n3. D"),
    ("candidates", "Dolphin (C)"),
    ("candidates", "Dolphins are mammals, so the answer is C"),
    ("candidates", "Based on the passage, B."),
    ("candidates", "The best answer is D: all of the above."),
    ("candidates", "The answer to the question is A."),
    ("candidates", "Option B is correct."),
    ("candidates", "Correct answer: (E) None of these"),
    ("candidates", "answer: c"),
    ("candidates", "ANSWER: B\nExplanation: The enzyme is denatured."),
    ("candidates", "**Answer: A**"),
    ("candidates", "The answer is: (A)"),
    ("candidates", "the answer is option D"),
    ("candidates", "The correct answer is option C."),
    ("candidates", "Hence the answer is $\\boxed{\\text{(B)}}$."),
    ("candidates", "B) 42"),
    ("candidates", "C."),
    ("candidates", "B"),
    ("candidates", " D \n"),
    ("candidates", "(B)"),
    ("candidates", "[C]"),
    ("candidates", "It is neither A nor B; I'd go with C if forced."),
    ("candidates", "In 1990, the treaty was signed. Therefore the answer is B."),
    ("candidates", "Let me solve this.\n1. First, the pressure is constant.\n2. The volume doubles.\nThus B."),
    # think tags
    ("think", "<think>\nThe question asks about photosynthesis. Option A is respiration. Option C is correct.\n</think>\n\nThe answer is C."),
    ("think", "<think>Let me compute 12 * 15 = 180. Then 180 + 20 = 200.</think>The total is 200."),
    ("think", "<think>A? no. B? maybe.</think>\n**B**"),
    ("think", "Okay, the user wants the capital. Paris.</think>\n\nParis"),
    ("think", "<think>reasoning that never ends because the budget ran out... A or B"),
    ("think", "<think>first</think>Answer: A<think>second</think> Answer: D"),
    ("think", "<think>\n\n</think>\n\n\\boxed{7}"),
    ("think", "<think>The sum is 1,234 + 1 = 1,235.</think>\nSo the answer is 1,235."),
    ("think", "<|begin_of_thought|>x = 3<|end_of_thought|>\nThe answer is 3."),
    ("think", "</think>B"),
    ("think", "<think>答案是A吗？不对。</think>\n答案是 C。"),
    ("think", "<think>Let me reason.\nStep one.\n</think>\nFirst line answer: B\nSecond line: because of X."),
    ("think", "<conclude>B</conclude>"),
    ("think", "I considered it carefully. <conclude> A </conclude> then changed my mind <conclude>C</conclude>"),
    ("think", "<answer>42</answer>"),
    ("think", "<answer>\n\\frac{1}{2}\n</answer> is what I got."),
    # thousands separators and numbers
    ("numbers", "She earns $1,234 per week, so in 4 weeks she earns $4,936."),
    ("numbers", "The population grew from 12,500 to 15,000, an increase of 2,500."),
    ("numbers", "Total cost: 3 * $2.50 = $7.50. The answer is 7.5"),
    ("numbers", "The answer is 1,000,000."),
    ("numbers", "He ran 5 km, then 3.5 km. In total 8.5 km.\n\nQuestion: Tom has 3 apples..."),
    ("numbers", "Answer: -12"),
    ("numbers", "The temperature dropped to -3.5 degrees, then rose by 10 to 6.5."),
    ("numbers", "The answer is 18.\n#### 18"),
    ("numbers", "So 48/2 = 24 clips in May, and 48 + 24 = 72 in total.\n#### 72"),
    ("numbers", "Step 1: 15% of 80 is 12.\nStep 2: 80 - 12 = 68.\nThe final answer is 68."),
    ("numbers", "There are 2 dozen eggs, i.e. 24 eggs. She uses 3 for breakfast and 4 for muffins, so 24-3-4=17 remain, sold at $2 each: 17*2=34."),
    ("numbers", "The answer is 5."),
    ("numbers", "The answer is .5"),
    ("numbers", "１２３ is written with full-width digits; the answer is ４５."),
    ("numbers", "It costs 1.000,50 euros in German notation."),
    ("numbers", "v1.2.3 of the software"),
    ("numbers", "The sum is 3 + 4 = 7, so the answer is seven."),
    ("numbers", "No numbers here at all."),
    ("numbers", "The ratio is 3:2, and 10,5 is not a number in English."),
    ("numbers", "Result: 2e10 operations."),
    # LaTeX
    ("latex", "We find $x = \\frac{3}{4}$. The final answer is $\\frac{3}{4}$."),
    ("latex", "Thus $\\boxed{\\frac{\\sqrt{3}}{2}}$."),
    ("latex", "So the answer is $\\boxed{{5}}$."),
    ("latex", "The final answer is \\boxed{(2, 3)}."),
    ("latex", "Therefore, the answer is $\\dfrac{1}{2}$."),
    ("latex", "The final answer is $10\\%$."),
    ("latex", "The final answer is $45^\\circ$."),
    ("latex", "The final answer is \\text{(C)}."),
    ("latex", "The final answer is $\\$1,250$."),
    ("latex", "The answer is $x^2 + 2x + 1$. I hope it is correct."),
    ("latex", "Final Answer: The final answer is $2\\sqrt{2}$. I hope it is correct."),
    ("latex", "\\boxed{5} is wrong; the real answer is \\boxed{6"),
    ("latex", "\\fbox{12}"),
    ("latex", "The answer is \\boxed 7."),
    ("latex", "We get \\boxed{a}+\\boxed{b}, i.e. \\boxed{{a}+{b}}."),
    ("latex", "The final answer is $\\left( 3, \\frac{\\pi}{2} \\right)$."),
    ("latex", "The final answer is 3.14159."),
    ("latex", "The answer is \\frac12 meters."),
    ("latex", "The final answer is \\sqrt3 units."),
    ("latex", "The final answer is $\\text{Banana split}$."),
    ("latex", "The final answer is $\\{1, 2, 3\\}$."),
    ("latex", "$$\\int_0^1 x\\,dx = \\frac{1}{2}$$ so the final answer is $\\frac{1}{2}$"),
    ("latex", "The final answer is $x \\in [2, \\infty)$."),
    ("latex", "The final answer is: 12 square feet"),
    ("latex", "The final answer is 1,000 dollars."),
    ("latex", "The final answer is $\\mbox{ 4 inches}$"),
    ("latex", "The answer is 2.\\boxed{}"),
    ("latex", "Answer: B"),
    ("latex", "Answer: \\boxed{B}"),
    # refusals and non-answers
    ("refusal", "I'm sorry, but I can't help with that."),
    ("refusal", "I cannot determine the answer from the information given."),
    ("refusal", "As an AI language model, I don't have personal opinions."),
    ("refusal", "None of the options is correct."),
    ("refusal", "I don't know."),
    ("refusal", "Error: the request timed out."),
    ("refusal", "抱歉，我无法回答这个问题。"),
    ("refusal", "This question cannot be answered; all of A, B, C and D are flawed."),
    # Chinese
    ("chinese", "答案是 B"),
    ("chinese", "答案：C"),
    ("chinese", "答案为D。"),
    ("chinese", "故选A"),
    ("chinese", "所以选B"),
    ("chinese", "只有选项B是对的"),
    ("chinese", "综上所述，正确答案是C。"),
    ("chinese", "因此，答案应该是 A。"),
    ("chinese", "分析：A项错误，B项正确，C项错误，D项错误。故本题选B。"),
    ("chinese", "说法错误的是D"),
    ("chinese", "正确的选项为 C"),
    ("chinese", "选项A正确"),
    ("chinese", "A是正确的"),
    ("chinese", "显然 D"),
    ("chinese", "我认为答案是(B)。"),
    ("chinese", "答案选项为：A"),
    ("chinese", "答案是DA"),
    ("chinese", "答案是(DA)"),
    ("chinese", "该题答案应该选C"),
    ("chinese", "小明有3个苹果，又买了5个，一共有8个。答案是 8。"),
    ("chinese", "北京是中国的首都。"),
    ("chinese", "根据题意，甲比乙多 1,200 元，所以答案是 1200。"),
    ("chinese", "首先计算：$2 \\times 3 = 6$，最终答案是 $\\boxed{6}$。"),
    ("chinese", "选择题：\n1. B\n2. C"),
    ("chinese", "我选 C 选项。"),
    ("chinese", "C选项是正确答案"),
    ("chinese", "答案应该是B，因为A不符合题意。"),
    ("chinese", "本题的正确答案是：A. 光合作用"),
    ("chinese", "所以答案为：B。"),
    ("chinese", "即 C。"),
    ("chinese", "那么, 因此B"),
    # free form short answers
    ("freeform", "The Eiffel Tower."),
    ("freeform", "the quick brown fox, jumping"),
    ("freeform", "An apple a day keeps the doctor away"),
    ("freeform", "So the answer is **yes**."),
    ("freeform", "So the answer is No, because the premise fails."),
    ("freeform", "So the answer is apple, banana, cherry."),
    ("freeform", "So the answer is 1, 2, 3."),
    ("freeform", "Let's think step by step. ... So the answer is **valid**."),
    ("freeform", "The answer is True. Also the answer is False."),
    ("freeform", "answer is: (A)"),
    ("freeform", "Answer is (B)"),
    ("freeform", "So the answer is **12.**"),
    ("freeform", "Sure!\n```python\ndef add(a, b):\n    return a + b\n```\nThis adds two numbers."),
    ("freeform", "```\n    return sorted(set(l))\n```"),
    ("freeform", "```python\ndef f():\n    pass\n```\nand an improved version:\n```python\ndef f():\n    return 1\n```"),
    ("freeform", "```c++\nint main() {}\n```"),
    ("freeform", "    return x * 2"),
    ("freeform", "'The quoted fox'"),
    ("freeform", "\"B\""),
    ("freeform", "['A', 'B']"),
    ("freeform", "42"),
    # empty and whitespace
    ("empty", ""),
    ("empty", " "),
    ("empty", "\n\n\t"),
    ("empty", "."),
    ("empty", "..."),
]


def _jsonl(name: str) -> list[dict[str, Any]]:
    with (GOLDEN / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _cases(name: str) -> list[dict[str, Any]]:
    return list(json.loads((DATA / name).read_text(encoding="utf-8"))["cases"])


def build(rng: random.Random) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []

    def add(kind: str, text: str) -> None:
        rows.append({"id": f"{kind}/{sum(1 for r in rows if r['kind'] == kind)}", "kind": kind, "text": text})

    for kind, text in HAND_WRITTEN:
        add(kind, text)
    mmlu = _jsonl("mmlu_cot.jsonl")
    bbh = _jsonl("bbh_cot.jsonl")
    mmath = _jsonl("mmath_numeric.jsonl")
    for case in mmlu:
        add("mmlu_cot", case["text"])
    for case in bbh:
        add("bbh_cot", case["text"])
    for case in rng.sample(mmlu, 60):
        text, letter = case["text"], case["expected"]
        other = rng.choice([x for x in "ABCD" if x != letter])
        shape = rng.randrange(6)
        if shape == 0:
            add("mmlu_chat", f"<think>\n{text}\n</think>\n\nThe answer is ({letter}).")
        elif shape == 1:
            add("mmlu_chat", f"{text}\n\nWait, let me double-check option {other}. No, the answer is still {letter}.")
        elif shape == 2:
            add("mmlu_chat", text.replace(f"The answer is ({letter}).", f"**Answer: {letter}**"))
        elif shape == 3:
            add("mmlu_chat", f"{text}\n答案是 {letter}。")
        elif shape == 4:
            add("mmlu_chat", text.replace(f"The answer is ({letter}).", f"Therefore, the correct answer is option {letter}."))
        else:
            add("mmlu_chat", f"{letter}. " + text)
    for case in rng.sample(mmath, 80):
        q, a = case["question"], case["expected"]
        shape = rng.randrange(6)
        if shape == 0:
            add("mmath", f"{q}\n\nWorking through it, the final answer is $\\boxed{{{a}}}$.")
        elif shape == 1:
            add("mmath", f"{q}\n\nSo the final answer is {a}.")
        elif shape == 2:
            add("mmath", f"{q}\n所以答案是 {a}。")
        elif shape == 3:
            big = f"{int(a):,}" if a.lstrip("-").isdigit() else a
            add("mmath", f"Let me compute step by step. {q[:200]}\nThe answer is {big}.")
        elif shape == 4:
            add("mmath", f"The answer is {a}.\n\nQuestion: {q[:150]}\nAnswer: 12")
        else:
            add("mmath", f"<think>{q[:300]}</think>\n\\boxed{{{a}}}")
    seen = {r["text"] for r in rows}
    for name in ("quirk_cases.json", "opencompass_vectors.json"):
        for case in _cases(name):
            if case["text"] not in seen:
                seen.add(case["text"])
                add("cases", case["text"])
    long_reasoning = " ".join(rng.choice(mmlu)["text"] for _ in range(40))
    add("long", long_reasoning + "\n\nAfter all this, the answer is (B).")
    add("long", "Let me think. " + "Hmm. " * 4000 + "Answer: C")
    add("long", "答案" + "，" * 3000 + "所以选D")
    add("long", "\\boxed{" * 300 + "1")
    add("long", " ".join(f"{n:,}" for n in range(1000, 400000, 997)) + " is the list; the answer is 12,345.")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = build(random.Random(13))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
