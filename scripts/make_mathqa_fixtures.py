"""Write the small math / open-QA / instruction-following fixtures in OpenCompass's layouts.

Output, under ``tests/data/oc_families/mathqa``::

    cache/                       what $COMPASS_DATA_CACHE (and the working directory) holds:
        data/gsm8k/{train,test}.jsonl, data/math/{math.json,test_prm800k_500.jsonl},
        data/aime.jsonl, data/ifeval/input_data.jsonl, data/triviaqa/…, data/nq/…,
        data/nq-open/…, data/drop_simple_eval/dev.jsonl, data/drop/drop_dataset_dev.json,
        data/TheoremQA/{theoremqa_test.json,test.csv}, data/OlympiadBench/<category>.json,
        202412/<split>_<lang>.jsonl (LiveMathBench, ``path=''``)
    predictions/<dataset abbr>.json      prediction files as OpenCompass writes them

The replies vary as real ones do (``#### 42``, "The answer is 42", boxed
fractions against decimals, thousands separators, units, several numbers,
think tags, empty replies, refusals; for IFEval, replies keeping some
instructions and breaking others, for every instruction id).  Running the
script again gives byte-identical files.

Usage::

    python scripts/make_mathqa_fixtures.py
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "mathqa"
CACHE = ROOT / "cache"
PREDS = ROOT / "predictions"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    _write(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def _json(path: Path, value: Any) -> None:
    _write(path, json.dumps(value, ensure_ascii=False, indent=1) + "\n")


def _tsv(path: Path, rows: list[tuple[str, list[Any]]]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter="\t", lineterminator="\n")
    for question, answers in rows:
        writer.writerow([question, repr(answers)])
    _write(path, buf.getvalue())


def _predictions(abbr: str, prompts: list[Any], replies: list[Any], golds: list[Any]) -> None:
    records = {}
    for i, (prompt, reply, gold) in enumerate(zip(prompts, replies, golds)):
        record: dict[str, Any] = {"origin_prompt": prompt, "prediction": reply}
        if gold:
            record["gold"] = gold
        records[str(i)] = record
    _json(PREDS / f"{abbr}.json", records)


# -- GSM8K ------------------------------------------------------------------------------------
GSM8K = [
    ("Janet's ducks lay 16 eggs a day. She eats 3 and bakes with 4, selling the rest at $2. How much does she make?",
     "16 - 3 - 4 = <<16-3-4=9>>9 eggs, 9 * 2 = <<9*2=18>>18 dollars.\n#### 18",
     "Janet sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = 18 dollars.\n#### 18"),
    ("A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total?",
     "2 + 2/2 = <<2+2/2=3>>3\n#### 3", "The answer is 3.0"),
    ("A shop sells 40 toys at $25 each. How much money does it take in?",
     "40 * 25 = <<40*25=1000>>1000\n#### 1,000", "40 * 25 = 1,000. She takes in $1,000 in total."),
    ("Tom had 8 apples and gave away 3. How many are left?",
     "8 - 3 = <<8-3=5>>5\n#### 5", "<think>8 minus 3 is 4? no, 5.</think>So the answer is 5 apples."),
    ("What is 6 times 7?", "6 * 7 = <<6*7=42>>42\n#### 42", ""),
    ("A train travels 60 km per hour for 2 hours. How far does it go?",
     "60 * 2 = <<60*2=120>>120\n#### 120", "I'm sorry, but I can't help with that."),
    ("Sam reads 7 pages then 8 pages. How many pages?",
     "7 + 8 = <<7+8=15>>15\n#### 15", "First 7 pages, then 8 more, so 15 pages.\n\nQuestion: What is 2 + 2?\nAnswer: 4"),
    ("A pizza is cut into 8 slices and 3 are eaten. What fraction is left?",
     "5/8 = <<5/8=0.625>>0.625\n#### 0.625", "5/8 of the pizza is left, that is \\boxed{0.625}."),
]


def gsm8k() -> None:
    test = [{"question": q, "answer": a} for q, a, _ in GSM8K]
    _jsonl(CACHE / "data" / "gsm8k" / "test.jsonl", test)
    _jsonl(CACHE / "data" / "gsm8k" / "train.jsonl", test[:2])
    _predictions("gsm8k", [f"Question: {q}\nLet's think step by step\nAnswer:" for q, _, _ in GSM8K], [r for *_, r in GSM8K], [a for _, a, _ in GSM8K])


# -- MATH, MATH-500, AIME ----------------------------------------------------------------------
MATH = [
    ("What is 1/2 as a fraction?", "It is $\\boxed{\\frac{1}{2}}$.", "The answer is $\\boxed{0.5}$."),
    ("Find the perimeter in cm.", "The perimeter is $\\boxed{5\\text{ cm}}$.", "Final Answer: The final answer is $5$ cm. I hope it is correct."),
    ("Compute 10 times 100.", "So $\\boxed{1000}$.", "10 \\cdot 100 = \\boxed{1,000}"),
    ("What percent is 1/10?", "$\\boxed{10\\%}$", "It is \\boxed{10}."),
    ("Give the point.", "The point is $\\boxed{(1,2)}$.", "The point is $\\boxed{(1, 2)}$."),
    ("Simplify sqrt(8)/2.", "$\\boxed{\\sqrt{2}}$", "<think>sqrt 8 = 2 sqrt 2</think>\n\\boxed{\\sqrt2}"),
    ("Expand (x+1)^2 - 2x.", "$\\boxed{x^2+1}$", "We get $x^2 + 1$."),
    ("How many ways?", "There are $\\boxed{12}$ ways.", "The final answer is 12, I think. Or 13."),
    ("What is 3/4?", "$\\boxed{\\dfrac{3}{4}}$", "\\boxed{3/4}"),
    ("Solve for x.", "$x = \\boxed{7}$", ""),
    ("Find the value.", "It is $\\boxed{\\frac{2}{4}}$.", "I cannot solve this problem."),
    ("Name the interval.", "$\\boxed{[0, 1)}$", "$\\boxed{[0,1)}$"),
]


def math() -> None:
    _json(CACHE / "data" / "math" / "math.json", {str(i): {"problem": p, "level": "Level 2", "type": "Algebra", "solution": s}
                                                   for i, (p, s, _) in enumerate(MATH)})
    prm = []
    for i, (p, s, _) in enumerate(MATH):
        answer = s[s.index("\\boxed{") + 7 : s.rindex("}")]
        prm.append({"problem": p, "solution": s, "answer": answer, "subject": "Algebra", "level": 2, "unique_id": f"test/algebra/{i}.json"})
    _jsonl(CACHE / "data" / "math" / "test_prm800k_500.jsonl", prm)
    prompts = [f"{p}\nPlease reason step by step, and put your final answer within \\boxed{{}}." for p, _, _ in MATH]
    replies = [r for *_, r in MATH]
    _predictions("math", prompts, replies, [s[s.index("\\boxed{") + 7 : s.rindex("}")] for _, s, _ in MATH])
    _predictions("math-500", prompts, replies, [s for _, s, _ in MATH])
    # an agent's replies (MATHAgentEvaluator): the same replies, each with the steps of its tool calls
    golds = [s[s.index("\\boxed{") + 7 : s.rindex("}")] for _, s, _ in MATH]
    _predictions("math-agent", prompts, replies, golds)
    agent = json.loads((PREDS / "math-agent.json").read_text(encoding="utf-8"))
    for i, record in agent.items():
        record["steps"] = MATH_AGENT_STEPS[int(i)]
    _json(PREDS / "math-agent.json", agent)


def _tool(text: str, errmsg: str | None = None) -> list[dict[str, Any]]:
    return [{"type": "PythonInterpreter", "args": {"text": "print(...)"}, "result": {"text": text}, "errmsg": errmsg}]


#: per MATH item: no tool call, a call whose result is right or wrong, a failing call, a call then another action
MATH_AGENT_STEPS: list[list[dict[str, Any]]] = [
    _tool("0.5"), [], _tool("1000"), _tool("0.1"), [], _tool("sqrt(2)", "NameError: name 'sqrt' is not defined"),
    _tool("x**2 + 1"), [*_tool("12"), {"type": "FinishAction", "args": {}, "result": None, "errmsg": None}],
    _tool("3/4"), _tool("7", "Timeout"), [], _tool("[0, 1)"),
]


AIME = [
    ("Find the remainder when 2^10 is divided by 1000.", "24", "2^10 = 1024, so the remainder is $\\boxed{24}$."),
    ("How many positive divisors does 36 have?", "9", "36 = 2^2 3^2, so (2+1)(2+1) = 9. The answer is 9."),
    ("Find m+n.", "204", "<think>long thought</think>\n\nThus $m+n=\\boxed{204}$"),
    ("Compute the area.", "33", "The area is $\\boxed{33.0}$."),
    ("Find the number of triples.", "601", ""),
    ("Find the largest such integer.", "80", "I am not able to solve it. Maybe \\boxed{79}?"),
]


def aime() -> None:
    _jsonl(CACHE / "data" / "aime.jsonl", [{"origin_prompt": q, "gold_answer": a} for q, a, _ in AIME])
    _predictions("aime2024", [f"{q}\nPlease reason step by step, and put your final answer within \\boxed{{}}." for q, _, _ in AIME],
                 [r for *_, r in AIME], [a for _, a, _ in AIME])


# -- IFEval: every instruction id, kept by some replies and broken by others ----------------------------
_EN = ("Sunlight reaches the forest floor in narrow beams. The trees grow tall and their leaves move in the wind. "
       "Birds sing from the branches while small animals search the ground for food.")
IFEVAL: list[tuple[list[str], list[dict[str, Any]], str, str]] = [
    (["keywords:existence", "punctuation:no_comma"], [{"keywords": ["forest", "river"]}, {}],
     "Write about a forest and a river without commas.", "The forest meets the river at dawn and the water sings softly."),
    (["keywords:existence", "punctuation:no_comma"], [{"keywords": ["forest", "river"]}, {}],
     "Write about a forest and a river without commas.", "The forest is quiet, calm and green."),
    (["keywords:frequency", "keywords:forbidden_words"], [{"keyword": "light", "frequency": 2, "relation": "at least"}, {"forbidden_words": ["dark", "night"]}],
     "Describe light twice, avoid dark words.", "Light fills the room. The light is warm and bright."),
    (["keywords:frequency", "keywords:forbidden_words"], [{"keyword": "light", "frequency": 3, "relation": "less than"}, {"forbidden_words": ["dark", "night"]}],
     "Describe light rarely, avoid dark words.", "Light light light at night."),
    (["keywords:letter_frequency", "language:response_language"], [{"letter": "z", "let_frequency": 2, "let_relation": "at least"}, {"language": "en"}],
     "Use the letter z twice, in English.", "The lazy zebra dozed in the warm afternoon sun while the breeze moved through the tall grass of the plain."),
    (["language:response_language"], [{"language": "de"}],
     "Answer in German.", _EN),
    (["length_constraints:number_sentences", "length_constraints:number_words"], [{"num_sentences": 3, "relation": "less than"}, {"num_words": 10, "relation": "at least"}],
     "Fewer than three sentences, at least ten words.", "Dr. Smith walked home through the quiet park. He was tired but happy after a long day."),
    (["length_constraints:number_sentences", "length_constraints:number_words"], [{"num_sentences": 2, "relation": "at least"}, {"num_words": 5, "relation": "less than"}],
     "Two sentences, fewer than five words.", "Just one short sentence here today."),
    (["length_constraints:number_paragraphs"], [{"num_paragraphs": 2}],
     "Two paragraphs separated by ***.", "First paragraph about cats.\n***\nSecond paragraph about dogs."),
    (["length_constraints:nth_paragraph_first_word"], [{"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "second"}],
     "Two paragraphs, the second starts with 'second'.", "The first part is short.\n\nSecond, the next part follows."),
    (["length_constraints:nth_paragraph_first_word"], [{"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "second"}],
     "Two paragraphs, the second starts with 'second'.", "The first part is short.\n\nThen the next part follows."),
    (["detectable_content:number_placeholders", "detectable_content:postscript"], [{"num_placeholders": 2}, {"postscript_marker": "P.S."}],
     "Use two placeholders and a P.S.", "Dear [name], meet me at [address] tomorrow.\n\nP.S. Bring snacks."),
    (["detectable_content:number_placeholders", "detectable_content:postscript"], [{"num_placeholders": 3}, {"postscript_marker": "P.P.S"}],
     "Use three placeholders and a P.P.S.", "Dear [name], see you soon.\n\nP.S. Bring snacks."),
    (["detectable_format:number_bullet_lists", "detectable_format:number_highlighted_sections"], [{"num_bullets": 2}, {"num_highlights": 1}],
     "Two bullets and one highlight.", "Here is my list:\n* first item\n* second item\n\nThis part is *very important*."),
    (["detectable_format:number_bullet_lists", "detectable_format:number_highlighted_sections"], [{"num_bullets": 3}, {"num_highlights": 2}],
     "Three bullets and two highlights.", "* only one item\nAnd *one* highlight."),
    (["detectable_format:constrained_response"], [{}],
     "Answer with one of the given options.", "My answer is yes."),
    (["detectable_format:constrained_response"], [{}],
     "Answer with one of the given options.", "I suppose it could be true."),
    (["detectable_format:multiple_sections"], [{"section_spliter": "Section", "num_sections": 2}],
     "Two sections.", "Section 1\nThe start.\nSection 2\nThe end."),
    (["detectable_format:json_format"], [{}],
     "Wrap your answer in JSON.", "```json\n{\"answer\": \"forty two\"}\n```"),
    (["detectable_format:json_format"], [{}],
     "Wrap your answer in JSON.", "Here it is: {answer: 42"),
    (["detectable_format:title", "startend:quotation"], [{}, {}],
     "Give a title in double angle brackets and wrap the reply in quotes.", "\"<<A Poem of Joy>>\nThe sun is up.\""),
    (["detectable_format:title", "startend:quotation"], [{}, {}],
     "Give a title in double angle brackets and wrap the reply in quotes.", "A Poem of Joy\nThe sun is up."),
    (["combination:two_responses"], [{}],
     "Give two different responses separated by six asterisks.", "Response one is here.\n******\nResponse two is different."),
    (["combination:repeat_prompt"], [{"prompt_to_repeat": "Write a haiku about the sea."}],
     "Write a haiku about the sea. First repeat the request word for word.", "Write a haiku about the sea.\nWaves fold into foam\nsalt wind carries gull voices\nthe tide breathes slowly"),
    (["combination:repeat_prompt"], [{"prompt_to_repeat": "Write a haiku about the sea."}],
     "Write a haiku about the sea. First repeat the request word for word.", "Here is a haiku about the sea."),
    (["startend:end_checker"], [{"end_phrase": "Is there anything else I can help with?"}],
     "End with the exact phrase.", "The capital of France is Paris. Is there anything else I can help with?"),
    (["change_case:capital_word_frequency", "change_case:english_capital"], [{"capital_frequency": 3, "capital_relation": "at least"}, {}],
     "Use at least three capitalized words, all in capitals.", "THE SUN RISES OVER THE QUIET HILLS AND THE BIRDS BEGIN TO SING THEIR MORNING SONGS."),
    (["change_case:capital_word_frequency", "change_case:english_lowercase"], [{"capital_frequency": 2, "capital_relation": "less than"}, {}],
     "Fewer than two capital words, all lowercase.", "the sun rises over the quiet hills and the birds begin to sing their morning songs."),
    (["change_case:english_lowercase", "punctuation:no_comma"], [{}, {}],
     "All lowercase, no commas.", "**Note**\nthe sun rises, the birds sing."),
    (["detectable_format:number_highlighted_sections", "length_constraints:number_words"], [{"num_highlights": 1}, {"num_words": 3, "relation": "at least"}],
     "One highlight, three words.", ""),
]


def ifeval() -> None:
    rows = [{"key": 1000 + i, "prompt": p, "instruction_id_list": ids, "kwargs": kw} for i, (ids, kw, p, _) in enumerate(IFEVAL)]
    _jsonl(CACHE / "data" / "ifeval" / "input_data.jsonl", rows)
    _predictions("IFEval", [r["prompt"] for r in rows], [r for *_, r in IFEVAL], rows)


# -- TriviaQA, NQ -------------------------------------------------------------------------------------
OPEN_QA = [
    ("Which city is the capital of France?", ["Paris", "Paris, France"], "The answer is Paris."),
    ("Who wrote Hamlet?", ["William Shakespeare", "Shakespeare"], "shakespeare\nHe wrote it around 1600."),
    ("In which year did World War II end?", ["1945"], "It ended in 1945, in September."),
    ("What is the largest planet?", ["Jupiter"], "A: Saturn"),
    ("What is the chemical symbol for gold?", ["Au"], "Answer: The symbol is Au"),
    ("Which ocean is the largest?", ["Pacific Ocean", "The Pacific"], "the pacific ocean"),
    ("How many legs does a spider have?", ["8", "eight"], ""),
    ("Who painted the Mona Lisa?", ["Leonardo da Vinci"], "I don't know."),
]


def open_qa() -> None:
    dev = [(q, a) for q, a, _ in OPEN_QA]
    _tsv(CACHE / "data" / "triviaqa" / "trivia-dev.qa.csv", dev)
    _tsv(CACHE / "data" / "triviaqa" / "trivia-test.qa.csv", [(q, [a]) for q, a in dev[:3]])
    _jsonl(CACHE / "data" / "triviaqa" / "triviaqa-validation.jsonl", [{"question": q, "answer": a} for q, a in dev])
    _jsonl(CACHE / "data" / "triviaqa" / "triviaqa-train.jsonl", [{"question": q, "answer": a} for q, a in dev[:2]])
    _tsv(CACHE / "data" / "nq" / "nq-test.qa.csv", dev)
    _tsv(CACHE / "data" / "nq" / "nq-dev.qa.csv", [(q, [a]) for q, a in dev[:3]])
    _jsonl(CACHE / "data" / "nq-open" / "nq-open-validation.jsonl", [{"question": q, "answer": a} for q, a in dev])
    _jsonl(CACHE / "data" / "nq-open" / "nq-open-train.jsonl", [{"question": q, "answer": a} for q, a in dev[:2]])
    replies = [r for *_, r in OPEN_QA]
    prompts = [f"Question: {q}\nAnswer: " for q, _, _ in OPEN_QA]
    for abbr in ("triviaqa", "triviaqa_wiki_1shot", "nq", "nq_open_1shot"):
        _predictions(abbr, prompts, replies, [a for _, a, _ in OPEN_QA])


# -- DROP -------------------------------------------------------------------------------------------------
DROP = [
    ("The Bears scored on a 14-yard run and a 3-yard pass.", "How long was the run?", "14|fourteen", "14", "The run was 14 yards.\nAnswer: 14 yards"),
    ("In 1990 the city had 1,200 people; by 2000 it had 1,500.", "How many more people in 2000?", "300", "300",
     "1,500 - 1,200 = 300.\nAnswer: 300"),
    ("Smith threw to Jones for the touchdown.", "Who caught the touchdown?", "Jones", None, "Answer: Smith"),
    ("The war began in May 1990 and ended in June 1992.", "How many years did the war last?", "2", "2", "It lasted about two years."),
    ("There were 7 goals, 3 in the first half.", "How many goals in the second half?", "4", "4", "Answer: 40"),
    ("The team won 10 games.", "How many games did the team win?", "10", "10", ""),
]


def drop() -> None:
    _jsonl(CACHE / "data" / "drop_simple_eval" / "dev.jsonl",
           [{"context": f"{p}\n\nQuestion: {q}", "completion": a.split('|')[0], "ref_text": a} for p, q, a, _, _ in DROP])
    passages: dict[str, Any] = {}
    for i, (p, q, a, number, _) in enumerate(DROP):
        answer = {"number": number or "", "date": {"day": "", "month": "", "year": ""}, "spans": [] if number else [a]}
        passages[f"nfl_{i}"] = {"passage": p, "qa_pairs": [{"question": q, "answer": answer, "validated_answers": [answer, answer]}]}
    _json(CACHE / "data" / "drop" / "drop_dataset_dev.json", passages)
    replies = [r for *_, r in DROP]
    _predictions("drop", [f"{p}\n{q}" for p, q, *_ in DROP], replies, [a for _, _, a, _, _ in DROP])
    kept = [i for i, row in enumerate(DROP) if row[3]]
    _predictions("drop_deprecated", [f"{DROP[i][0]}\n{DROP[i][1]}" for i in kept], [DROP[i][4] for i in kept], [[DROP[i][3]] for i in kept])


# -- TheoremQA ------------------------------------------------------------------------------------------------
THEOREMQA = [
    ("What is the integral of 2x from 0 to 1?", 1, "integer", "The integral is x^2 from 0 to 1. The answer is 1."),
    ("What is 1/3 as a decimal?", 0.333, "float", "The answer is \\frac{1}{3}"),
    ("Is every bounded monotone sequence convergent?", True, "bool", "Yes, by the monotone convergence theorem. The answer is True."),
    ("Which option is right? (a) 1 (b) 2", "(b)", "option", "The answer is (b)."),
    ("What is the speed in m/s?", 3.5, "float", "v = 3.5 m/s. The answer is 3.5 m/s"),
    ("What is 2^{10}?", 1024, "integer", "The answer is: 2^{10}"),
    ("Find the roots.", [1, 2], "list of integer", "The answer is [1, 2]."),
    ("What is pi to two decimals?", 3.14, "float", "It is about \\pi."),
    ("Is 7 even?", False, "bool", "I do not know."),
    ("What is 12% of 50?", 6, "integer", "The answer is 6.1"),
    ("Give the eigenvalue.", 2.0, "float", ""),
]


def theoremqa() -> None:
    rows = [{"Question": q, "Answer": a, "Answer_type": t, "Picture": None, "id": f"tq{i}"} for i, (q, a, t, _) in enumerate(THEOREMQA)]
    _json(CACHE / "data" / "TheoremQA" / "theoremqa_test.json", rows)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["Question", "Answer", "Answer_type", "Picture"])
    for q, a, t, _ in THEOREMQA:
        writer.writerow([q, a, t, ""])
    _write(CACHE / "data" / "TheoremQA" / "test.csv", buf.getvalue())
    _predictions("TheoremQA", [q for q, *_ in THEOREMQA], [r for *_, r in THEOREMQA], [str(a) for _, a, _, _ in THEOREMQA])


# -- OlympiadBench ---------------------------------------------------------------------------------------------
OLYMPIAD_CATEGORIES = ("OE_TO_maths_en_COMP", "OE_TO_maths_zh_COMP", "OE_TO_maths_zh_CEE", "OE_TO_physics_en_COMP", "OE_TO_physics_zh_CEE")
OLYMPIAD = [
    ("Find x.", ["$\\frac{1}{2}$"], "Numerical", None, "So the final answer is $\\boxed{0.5}$."),
    ("Find all solutions.", ["$3,4$"], "Numerical", None, "So the final answer is $\\boxed{4,3}$."),
    ("Solve the inequality.", ["$[1,2)$"], "Interval", None, "So the final answer is $\\boxed{[1,2)}$."),
    ("Give the expression.", ["$x^{2}+2x+1$"], "Expression", None, "So the final answer is $\\boxed{(x+1)^2}$."),
    ("Give the equation of the line.", ["$y=2x+1$"], "Equation", None, "So the final answer is $\\boxed{2y=4x+2}$."),
    ("Find the speed.", ["$3 \\times 10^{8}$"], "Numerical", "m/s", "So the final answer is $\\boxed{3\\times 10^8}$ m/s."),
    ("Find the value.", ["$\\sqrt{2}$"], "Numerical", None, "I think it is 1.41"),
    ("Find the value.", ["$\\pm 1$"], "Numerical", None, "So the final answer is $\\boxed{1,-1}$."),
    ("Find n.", ["$5$"], "Numerical", None, ""),
]


def olympiadbench() -> None:
    for c, category in enumerate(OLYMPIAD_CATEGORIES):
        zh = "_zh_" in category
        subject = "Math" if "maths" in category else "Physics"
        rows = []
        for i, (q, answers, answer_type, unit, _) in enumerate(OLYMPIAD):
            rows.append({"id": 1000 * c + i, "subfield": "Algebra", "context": None, "question": q, "solution": ["..."],
                         "final_answer": answers, "is_multiple_answer": "," in answers[0], "unit": unit, "answer_type": answer_type,
                         "error": None, "question_type": "Open-ended", "subject": subject, "language": "Chinese" if zh else "English"})
        _json(CACHE / "data" / "OlympiadBench" / f"{category}.json", rows)
        replies = [r.replace("So the final answer is", "所以最终答案是") if zh and j % 2 else r for j, (*_, r) in enumerate(OLYMPIAD)]
        _predictions(f"OlympiadBench_{category}", [q for q, *_ in OLYMPIAD], replies, [a[0] for _, a, *_ in OLYMPIAD])


# -- LiveMathBench: n=48 runs, replies varying by run --------------------------------------------------------
LIVEMATH = {
    "CNMO": ("求 1+1。", "Compute 1+1.", "2"),
    "CCEE": ("求 $\\frac{1}{2}+\\frac{1}{4}$。", "Compute 1/2 + 1/4.", "\\frac{3}{4}"),
    "AMC": ("How many primes are below 10?", "How many primes are below 10?", "4"),
    "WLPMC": ("求 $x^2=4$ 的正根。", "Find the positive root of x^2=4.", "2"),
    "hard": ("求最小的完全数。", "Find the smallest perfect number.", "6"),
}


def _livemath_reply(answer: str, run: int, row: int) -> str:
    mode = (run * 7 + row * 3) % 6
    if mode == 0:
        return ""
    if mode == 1:
        return f"Let me think.\n\nThe answer is \\boxed{{{answer}}}."
    if mode == 2:
        return "<think>hmm</think>\\boxed{42}"
    if mode == 3:
        return f"So the final answer is {answer}."
    if mode == 4:
        return f"\\boxed{{{answer}}}"
    return "I refuse to answer."


def livemathbench() -> None:
    for split, (cn, en, answer) in LIVEMATH.items():
        for lang, question in (("cn", cn), ("en", en)):
            _jsonl(CACHE / "202412" / f"{split}_{lang}.jsonl", [{"question": question, "answer": answer, "question_type": "问答" if lang == "cn" else "Problem-Solving"}])
    for abbr, splits, n in (("LiveMathBench-v202412", ("CNMO", "CCEE", "AMC", "WLPMC"), 48), ("LiveMathBench-v202412-Hard", ("hard",), 48),
                            ("LiveMathBench_v202412", ("CNMO", "CCEE", "AMC", "WLPMC"), 48)):
        rows = [(LIVEMATH[s][0 if lang == "cn" else 1], LIVEMATH[s][2]) for s in splits for lang in ("cn", "en")]
        prompts, replies, golds = [], [], []
        for run in range(n):
            for r, (question, answer) in enumerate(rows):
                prompts.append(question)
                replies.append(_livemath_reply(answer, run, r))
                golds.append(answer)
        _predictions(abbr, prompts, replies, golds)


def main() -> None:
    for make in (gsm8k, math, aime, ifeval, open_qa, drop, theoremqa, olympiadbench, livemathbench):
        make()


if __name__ == "__main__":
    main()
