"""Write the small MultiPL-E fixture (HumanEval and MBPP tags) in OpenCompass's layout, and the verdicts assay's runs give.

Output, under ``tests/data/oc_families/multipl_e``::

    data/multipl_e/<tag>-<language>.jsonl        two problems per tag and language (MultiPL-E's row format)
    predictions/<abbr>.json                      replies for multiple_top_ten_gen_f44aaf (one per problem)
    predictions_repeat/<abbr>.json               replies for multiple_top_ten_repeat_gen_0cd6ce (cpp; n=5)
    verdicts.json                                program (SHA-256) -> the status assay's run gives

The languages are the library's ten (``cpp``, ``cs``, ``go``, ``java``,
``rb``, ``js``, ``php``, ``r``, ``rs``, ``sh``); the problems are those of the
MultiPL-E HumanEval fixture (``scripts/make_humaneval_multi_fixtures.py``:
``add`` and ``max_of``, their prompts, tests and stop tokens), named as
HumanEval's (``HumanEval_0_add``) under the ``humaneval`` tag and as MBPP's
(``mbpp_2_add``) under ``mbpp``.  One reply per problem: under ``humaneval``,
a chat reply whose fenced block repeats the prompt's last line before a right
body (it passes) and a bare wrong body (it fails); under ``mbpp``, a body that
never ends (it times out) and one that does not compile (or, for an
interpreted language, raises; for C# and Java, a chat reply whose block ends
with the method's closing brace, which OpenCompass's cleaning leaves in the
program).  The repeat config's replies mix the four,
five runs of each cpp problem.

``verdicts.json`` holds, for each program assay prepares from these replies,
the status assay's sandbox run gives on this machine; where a language's
toolchain is missing here, the status its reply is written to give (``OK``,
``Exception``, ``SyntaxError``, ``Timeout``) and ``"ran": false``.
``scripts/record_oc_multipl_e.py``'s stand-in service answers OpenCompass with
these statuses; the tests check that assay's runs give them.

Usage (with assay installed)::

    python scripts/make_multipl_e_fixtures.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_humaneval_multi_fixtures import LANGUAGES as HUMANEVAL_MULTI

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "multipl_e"
FOLDER = ROOT / "data" / "multipl_e"
TOP_TEN = ("cpp", "cs", "go", "java", "rb", "js", "php", "r", "rs", "sh")
#: Markdown fence names of the languages.
FENCE = {"cpp": "cpp", "cs": "csharp", "go": "go", "java": "java", "rb": "ruby", "js": "javascript", "php": "php",
         "r": "r", "rs": "rust", "sh": "bash"}
#: A body of ``add`` that never returns, per language.
ENDLESS = {
    "cpp": "    while (true) {}\n    return x;\n}\n",
    "cs": "        while (true) {}\n    }\n",
    "go": "    for {\n    }\n}\n",
    "java": "        while (true) {}\n    }\n",
    "rb": "  loop do\n  end\nend\n",
    "js": "  while (true) {}\n}\n",
    "php": "  while (true) {}\n}\n",
    "r": "  repeat {}\n}\n",
    "rs": "    loop {}\n}\n",
    "sh": "    while true; do :; done\n}\n",
}
NAMES = {"humaneval": ("HumanEval_0_add", "HumanEval_1_max_of"), "mbpp": ("mbpp_2_add", "mbpp_3_max_of")}


def _row(language: str, tag: str, index: int) -> dict[str, Any]:
    spec = HUMANEVAL_MULTI[language]
    problem = ("add", "max_of")[index]
    prompt, tests = spec[problem]
    name = NAMES[tag][index]
    return {"name": name, "language": language, "prompt": prompt, "doctests": "transform",
            "original": f"../datasets/originals/{name}.py", "prompt_terminology": "reworded", "tests": tests,
            "stop_tokens": spec["stop"]}


def _chat(language: str, prompt: str, body: str, blank: bool = True) -> str:
    """A chat reply: prose, then a fenced block repeating the prompt's last line before ``body`` (and a blank line,
    when ``blank``), then more prose and a second block."""
    last = prompt.splitlines()[-1]
    tail = "\n" if blank else ""
    return (f"Here is the completed {language} code:\n```{FENCE[language]}\n{last}\n{body}{tail}```\n"
            f"The function above is complete.\n```\nnot this block\n```\n")


def _kinds(language: str) -> dict[str, tuple[str, str]]:
    """The replies of ``language``, by role: (reply, the status kind it is written to give)."""
    spec = HUMANEVAL_MULTI[language]
    right_add, wrong_add, right_max, broken = spec["remove"]
    compiled = language in ("cpp", "cs", "java", "rs")
    kinds = {
        "chat_add": (_chat(language, spec["add"][0], right_add), "OK"),
        "right_add": (right_add, "OK"),
        "wrong_add": (wrong_add, "Exception"),
        "right_max": (right_max, "OK"),
        # MultiPL-E's harness: R's parse error ("unexpected", here the trailing text) and Go's build failure are
        # SyntaxError, and so is Ruby's failure with anything on standard error; PHP's timeout is an Exception
        "wrong_max": (spec["reworded"][1] + "\n\n// trailing text\n", "SyntaxError" if language == "r" else "Exception"),
        "broken": (broken, "SyntaxError" if compiled or language in ("go", "rb") else "Exception"),
        "endless": (ENDLESS[language], "Exception" if language == "php" else "Timeout"),
    }
    if language in ("cs", "java"):
        # the fenced block's last line is the method's closing brace: prefix removal drops the newline after it, the
        # stop token ("\n    }\n") needs one, and the brace stays in the program, which then does not compile
        kinds["chat_max_unclosed"] = (_chat(language, spec["max_of"][0], right_max, blank=False), "SyntaxError")
    return kinds


def _replies(language: str) -> dict[str, list[str]]:
    """The roles of the replies per tag: [add, max_of] for the gen config."""
    last = "chat_max_unclosed" if language in ("cs", "java") else "broken"
    return {"humaneval": ["chat_add", "wrong_max"], "mbpp": ["endless", last]}


def _repeat_replies(language: str) -> dict[str, list[str]]:
    """The roles of five runs of [add, max_of] per tag, run-major (OpenCompass's order for a config's ``n``)."""
    humaneval = [("chat_add", "wrong_max"), ("right_add", "right_max"), ("wrong_add", "right_max"),
                 ("chat_add", "wrong_max"), ("broken", "wrong_max")]
    mbpp = [("right_add", "broken"), ("endless", "wrong_max"), ("right_add", "right_max"), ("chat_add", "right_max"),
            ("right_add", "wrong_max")]
    return {"humaneval": [r for pair in humaneval for r in pair], "mbpp": [r for pair in mbpp for r in pair]}


def _write_predictions(folder: Path, abbr: str, replies: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    preds = {str(i): {"origin_prompt": "", "prediction": r, "gold": ""} for i, r in enumerate(replies)}
    (folder / f"{abbr}.json").write_text(json.dumps(preds, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    from assay.evaluators.humaneval_multi import _missing
    from assay.evaluators.multipl_e import MultiplEEvaluator

    FOLDER.mkdir(parents=True, exist_ok=True)
    samples: list[tuple[str, tuple[str, str], dict[str, Any]]] = []  # (language, (reply, kind), row)
    for language in TOP_TEN:
        kinds = _kinds(language)
        gen = {tag: [kinds[r] for r in roles] for tag, roles in _replies(language).items()}
        repeat = ({tag: [kinds[r] for r in roles] for tag, roles in _repeat_replies(language).items()}
                  if language == "cpp" else None)
        for tag in ("humaneval", "mbpp"):
            rows = [_row(language, tag, i) for i in range(2)]
            with open(FOLDER / f"{tag}-{language}.jsonl", "w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(row) + "\n")
            abbr = f"{tag}-multiple-{language}"
            _write_predictions(ROOT / "predictions", abbr, [r for r, _ in gen[tag]])
            samples += [(language, reply, row) for reply, row in zip(gen[tag], rows)]
            if repeat is not None:
                _write_predictions(ROOT / "predictions_repeat", abbr, [r for r, _ in repeat[tag]])
                samples += [(language, reply, rows[i % 2]) for i, reply in enumerate(repeat[tag])]
    verdicts: dict[str, dict[str, Any]] = {}
    for language in TOP_TEN:
        mine = [(reply, row) for lang, reply, row in samples if lang == language]
        evaluator = MultiplEEvaluator(language=language)
        posts = [evaluator.prepare([reply], [row])[0] for (reply, _), row in mine]
        unique = {hashlib.sha256(p["code"].encode("utf-8")).hexdigest(): (p, kind) for p, ((_, kind), _) in zip(posts, mine)}
        ran = not _missing(language, [p["code"] for p, _ in unique.values()])[1]
        statuses = ([s for s, _, _ in evaluator._run_programs([p["code"] for p, _ in unique.values()])] if ran
                    else [kind for _, kind in unique.values()])
        for (digest, (post, want)), status in zip(unique.items(), statuses):
            if ran and status.split(":")[0] != want:
                print(f"{language} {post['name']}: assay's run gives {status[:200]!r}, the reply was written to give {want}",
                      file=sys.stderr)
            verdicts[digest] = {"language": language, "name": post["name"], "kind": want, "status": status, "ran": ran}
        print(language, "ran" if ran else "not run here", len(unique), "programs", file=sys.stderr)
    (ROOT / "verdicts.json").write_text(json.dumps(verdicts, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                        encoding="utf-8")


if __name__ == "__main__":
    main()
