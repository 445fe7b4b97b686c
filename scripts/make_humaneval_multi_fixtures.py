"""Write the small MultiPL-E HumanEval fixture in OpenCompass's layout.

Output, under ``tests/data/oc_families/humaneval_multi``::

    data/multi-data/humaneval_multipl-e/humaneval-<language>-reworded.jsonl   two problems per language
    predictions/humaneval_multiple-<language>.json                            replies, as OpenCompass writes them

Languages: ``py``, ``js``, ``cpp``, ``sh``, ``pl``, ``go``, ``java``, ``rb``, ``lua``, ``php``,
``r``, ``rs``, ``ts``, ``cs``, ``d``, ``rkt`` and ``scala`` (those assay runs) and ``jl`` (one it does
not: Debian packages no Julia).  Each language has two problems in MultiPL-E's row
format (``add``: the sum of two integers; ``max_of``: the larger of two), each
with its own tests and the language's stop tokens.  The replies: for ``add``
a correct body followed by text past a stop token, for ``max_of`` a wrong body
(and, in a second fixture file ``humaneval-<language>-remove.jsonl`` read with
``num_repeats=2``, a correct and a broken one: a program that does not
compile, or raises).

Usage::

    python scripts/make_humaneval_multi_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "humaneval_multi"
FOLDER = ROOT / "data" / "multi-data" / "humaneval_multipl-e"

#: language -> stop tokens, (prompt, tests) per problem, replies (version -> list).
LANGUAGES: dict[str, dict[str, Any]] = {
    "py": {
        "stop": ["\ndef", "\n#", "\nif", "\nclass"],
        "add": ("def add(x: int, y: int) -> int:\n    \"\"\"Add two numbers x and y\n    >>> add(2, 3)\n    5\n    \"\"\"\n",
                "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-4, 4) == 0\n\n"
                "def test_check():\n    check(add)\n\ntest_check()\n"),
        "max_of": ("def max_of(a: int, b: int) -> int:\n    \"\"\"The larger of a and b\n    >>> max_of(1, 7)\n    7\n    \"\"\"\n",
                   "def check(candidate):\n    assert candidate(1, 7) == 7\n    assert candidate(9, 2) == 9\n\n"
                   "def test_check():\n    check(max_of)\n\ntest_check()\n"),
        "reworded": ["    return x + y\n\ndef unused():\n    return 0\n", "    return min(a, b)\n"],
        "remove": ["    return x + y\n", "    return x - y\n", "    return a if a > b else b\n#done\n", "    return undefined_name\n"],
    },
    "js": {
        "stop": ["\nfunction ", "\n/*", "\n//", "\nconsole.log"],
        "add": ("//Add two numbers x and y\n// >>> add(2, 3)\n// 5\nfunction add(x, y){\n",
                "const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = add;\n"
                "  assert.deepEqual(candidate(1, 2),3);\n  assert.deepEqual(candidate(-4, 4),0);\n}\n\ntest();"),
        "max_of": ("//The larger of a and b\n// >>> max_of(1, 7)\n// 7\nfunction max_of(a, b){\n",
                   "const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = max_of;\n"
                   "  assert.deepEqual(candidate(1, 7),7);\n  assert.deepEqual(candidate(9, 2),9);\n}\n\ntest();"),
        "reworded": ["  return x + y;\n}\n\nconsole.log(add(1, 2));\n", "  return Math.min(a, b);\n}\n"],
        "remove": ["  return x + y;\n}\n", "  return x * y;\n}\n", "  return a > b ? a : b;\n}\n// done\n", "  return a > b ? a : ;\n}\n"],
    },
    "cpp": {
        "stop": ["\n}"],
        "add": ("#include<assert.h>\n#include<bits/stdc++.h>\n// Add two numbers x and y\n// >>> add((2), (3))\n// (5)\n"
                "long add(long x, long y) {\n",
                "}\nint main() {\n    auto candidate = add;\n    assert(candidate((1), (2)) == (3));\n"
                "    assert(candidate((-4), (4)) == (0));\n}\n"),
        "max_of": ("#include<assert.h>\n#include<bits/stdc++.h>\n// The larger of a and b\n// >>> max_of((1), (7))\n// (7)\n"
                   "long max_of(long a, long b) {\n",
                   "}\nint main() {\n    auto candidate = max_of;\n    assert(candidate((1), (7)) == (7));\n"
                   "    assert(candidate((9), (2)) == (9));\n}\n"),
        "reworded": ["    return x + y;\n}\nint main() { return 1; }\n", "    return std::min(a, b);\n}\n"],
        "remove": ["    return x + y;\n}\n", "    return x + y + 1;\n}\n", "    return std::max(a, b);\n}\n", "    return a >;\n}\n"],
    },
    "sh": {
        "stop": ["\n}"],
        "add": ("#!/bin/bash\n# Add two numbers x and y\n# >>> $(add \"2\" \"3\")\n# \"5\"\n#\n# $1 is an integer\n# $2 is an integer\n"
                "add() {\n",
                "}\n\ncandidate() {\n    add \"$@\"\n}\n\nset -e\nrun_test() {\n    [[ $(candidate \"1\" \"2\") = \"3\" ]]\n"
                "    [[ $(candidate \"-4\" \"4\") = \"0\" ]]\n}\n\nrun_test"),
        "max_of": ("#!/bin/bash\n# The larger of a and b\n# >>> $(max_of \"1\" \"7\")\n# \"7\"\n#\n# $1 is an integer\n"
                   "# $2 is an integer\nmax_of() {\n",
                   "}\n\ncandidate() {\n    max_of \"$@\"\n}\n\nset -e\nrun_test() {\n    [[ $(candidate \"1\" \"7\") = \"7\" ]]\n"
                   "    [[ $(candidate \"9\" \"2\") = \"9\" ]]\n}\n\nrun_test"),
        "reworded": ["    echo $(( $1 + $2 ))\n}\necho extra\n", "    if [ \"$1\" -lt \"$2\" ]; then echo $1; else echo $2; fi\n}\n"],
        "remove": ["    echo $(( $1 + $2 ))\n}\n", "    echo $(( $1 * $2 ))\n}\n",
                   "    if [ \"$1\" -gt \"$2\" ]; then echo $1; else echo $2; fi\n}\n", "    exit 3\n}\n"],
    },
    "pl": {
        "stop": ["\nsub", "\n#", "\n\n"],
        "add": ("# Add two numbers x and y\n# >>> add(2, 3)\n# 5\nsub add {\n    my($x, $y) = @_;\n",
                "use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&add;\n"
                "        if(eq_deeply($candidate->(1, 2),3)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n"
                "        if(eq_deeply($candidate->(-4, 4),0)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n}\n\n"
                "testhumaneval();"),
        "max_of": ("# The larger of a and b\n# >>> max_of(1, 7)\n# 7\nsub max_of {\n    my($a, $b) = @_;\n",
                   "use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&max_of;\n"
                   "        if(eq_deeply($candidate->(1, 7),7)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n"
                   "        if(eq_deeply($candidate->(9, 2),9)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n}\n\n"
                   "testhumaneval();"),
        "reworded": ["    return $x + $y;\n}\n\nprint add(1, 2);\n", "    return $a < $b ? $a : $b;\n}\n"],
        "remove": ["    return $x + $y;\n}\n", "    return $x - $y;\n}\n", "    return $a > $b ? $a : $b;\n}\n", "    return $a >;\n}\n"],
    },
    "go": {
        "stop": ["\nfunc", "struct", "\n// "],
        "add": ("package add_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\n// Add two numbers x and y\n"
                "func add(x int, y int) int {\n",
                "func TestAdd(t *testing.T) {\n  candidate := add\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate(1, 2), expected: 3 },\n     { actual: candidate(-4, 4), expected: 0 },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n"),
        "max_of": ("package max_of_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\n// The larger of a and b\n"
                   "func max_of(a int, b int) int {\n",
                   "func TestMax_Of(t *testing.T) {\n  candidate := max_of\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate(1, 7), expected: 7 },\n     { actual: candidate(9, 2), expected: 9 },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n"),
        "reworded": ["    return x + y\n}\n\nfunc main() {}\n", "    if a < b {\n        return a\n    }\n    return b\n}\n"],
        "remove": ["    return x + y\n}\n", "    return x * y\n}\n", "    if a > b {\n        return a\n    }\n    return b\n}\n",
                   "    return a >\n}\n"],
    },
    "java": {
        "stop": ["\n    }\n"],
        "add": ("import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\nimport java.security.*;\nimport java.math.*;\nimport java.io.*;\nimport java.util.stream.*;\nclass Problem {\n    // Add two numbers x and y\n    public static long add(long x, long y) {\n",
                "    }\n    public static void main(String[] args) {\n    assert(add((1l), (2l)) == (3l));\n"
                "    assert(add((-4l), (4l)) == (0l));\n    }\n\n}\n"),
        "max_of": ("import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\nimport java.security.*;\nimport java.math.*;\nimport java.io.*;\nimport java.util.stream.*;\nclass Problem {\n    // The larger of a and b\n    public static long maxOf(long a, long b) {\n",
                   "    }\n    public static void main(String[] args) {\n    assert(maxOf((1l), (7l)) == (7l));\n"
                   "    assert(maxOf((9l), (2l)) == (9l));\n    }\n\n}\n"),
        "reworded": ["        return x + y;\n    }\n    static int unused() { return 0; }\n", "        return Math.min(a, b);\n    }\n"],
        "remove": ["        return x + y;\n    }\n", "        return x - y;\n    }\n", "        return Math.max(a, b);\n    }\n",
                   "        return Pair.with(a, b);\n    }\n"],
    },
    "rb": {
        "stop": ["\nclass", "\ndef", "\n#", "\n\n"],
        "add": ("# Add two numbers x and y\n# >>> add.call(2, 3)\n# 5\ndef add(x, y)\n",
                "require 'test/unit'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_add\n    candidate = method(:add)\n"
                "    assert_equal(3, candidate.call(1, 2))\n  end\nend\n"),
        "max_of": ("# The larger of a and b\n# >>> max_of.call(1, 7)\n# 7\ndef max_of(a, b)\n",
                   "require 'test/unit'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_max_of\n"
                   "    candidate = method(:max_of)\n    assert_equal(7, candidate.call(1, 7))\n  end\nend\n"),
        "reworded": ["  x + y\nend\n", "  [a, b].min\nend\n"],
        "remove": ["  x + y\nend\n", "  x - y\nend\n", "  [a, b].max\nend\n", "  a >\nend\n"],
    },
    "lua": {
        "stop": ["\nlocal", "\nfunction", "\n--", "\n\n"],
        "add": ("-- Add two numbers x and y\n-- >>> add(2, 3)\n-- 5\nlocal function add(x, y)\n",
                "lu = require('luaunit')\n\nfunction test_humaneval()\nlocal candidate = add\n    lu.assertEquals(candidate(1, 2), 3)\n"
                "    lu.assertEquals(candidate(-4, 4), 0)\nend\n\nos.exit(lu.LuaUnit.run())"),
        "max_of": ("-- The larger of a and b\n-- >>> max_of(1, 7)\n-- 7\nlocal function max_of(a, b)\n",
                   "lu = require('luaunit')\n\nfunction test_humaneval()\nlocal candidate = max_of\n    lu.assertEquals(candidate(1, 7), 7)\n"
                   "    lu.assertEquals(candidate(9, 2), 9)\nend\n\nos.exit(lu.LuaUnit.run())"),
        "reworded": ["    return x + y\nend\n\nprint(add(1, 2))\n", "    return math.min(a, b)\nend\n"],
        "remove": ["    return x + y\nend\n", "    return x - y\nend\n", "    if a > b then return a end\n    return b\nend\n",
                   "    return a >\nend\n"],
    },
    "php": {
        "stop": ["\nfunction", "\n?>", "\n//", "\n#"],
        "add": ("<?php\n// Add two numbers x and y\n// >>> add(2, 3)\n// 5\nfunction add($x, $y) {\n",
                "function candidate(...$args) {\n    return add(...$args);\n}\n\nfunction test(): void {\n"
                "    if (candidate(1, 2) !== 3) { throw new Exception(\"Test failed!\"); }\n"
                "    if (candidate(-4, 4) !== 0) { throw new Exception(\"Test failed!\"); }\n}\n\ntest();"),
        "max_of": ("<?php\n// The larger of a and b\n// >>> max_of(1, 7)\n// 7\nfunction max_of($a, $b) {\n",
                   "function candidate(...$args) {\n    return max_of(...$args);\n}\n\nfunction test(): void {\n"
                   "    if (candidate(1, 7) !== 7) { throw new Exception(\"Test failed!\"); }\n"
                   "    if (candidate(9, 2) !== 9) { throw new Exception(\"Test failed!\"); }\n}\n\ntest();"),
        "reworded": ["  return $x + $y;\n}\n\nfunction unused() { return 0; }\n", "  return min($a, $b);\n}\n"],
        "remove": ["  return $x + $y;\n}\n", "  return $x * $y;\n}\n", "  return max($a, $b);\n}\n", "  return $a >;\n}\n"],
    },
    "r": {
        "stop": ["\n#", "\n```"],
        "add": ("# Add two numbers x and y\n# >>> add(2, 3)\n# 5\nadd <- function(x, y) {\n",
                "test_humaneval <- function() {\ncandidate <- add\n    if(!identical(candidate(1, 2), 3)){quit('no', 1)}\n"
                "    if(!identical(candidate(-4, 4), 0)){quit('no', 1)}\n}\ntest_humaneval()"),
        "max_of": ("# The larger of a and b\n# >>> max_of(1, 7)\n# 7\nmax_of <- function(a, b) {\n",
                   "test_humaneval <- function() {\ncandidate <- max_of\n    if(!identical(candidate(1, 7), 7)){quit('no', 1)}\n"
                   "    if(!identical(candidate(9, 2), 9)){quit('no', 1)}\n}\ntest_humaneval()"),
        "reworded": ["  x + y\n}\n# done\n", "  min(a, b)\n}\n"],
        "remove": ["  x + y\n}\n", "  x * y\n}\n", "  max(a, b)\n}\n", "  stop('not done')\n}\n"],
    },
    "rs": {
        "stop": ["\n}"],
        "add": ("/// Add two numbers x and y\n/// >>> add(2, 3)\n/// 5\nfn add(x: isize, y: isize) -> isize {\n",
                "}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(1, 2), 3);\n    assert_eq!(candidate(-4, 4), 0);\n}\n"),
        "max_of": ("/// The larger of a and b\n/// >>> max_of(1, 7)\n/// 7\nfn max_of(a: isize, b: isize) -> isize {\n",
                   "}\n\nfn main() {\n    let candidate = max_of;\n    assert_eq!(candidate(1, 7), 7);\n    assert_eq!(candidate(9, 2), 9);\n}\n"),
        "reworded": ["    x + y\n}\nfn main() {}\n", "    a.min(b)\n}\n"],
        "remove": ["    x + y\n}\n", "    x - y\n}\n", "    a.max(b)\n}\n", "    a >\n}\n"],
    },
    "ts": {
        "stop": ["\nfunction ", "\n/*", "\n//", "\nclass"],
        "add": ("//Add two numbers x and y\n// >>> add(2, 3)\n// 5\nfunction add(x: number, y: number): number {\n",
                "declare var require: any;\nconst assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = add;\n"
                "  assert.deepEqual(candidate(1, 2),3);\n  assert.deepEqual(candidate(-4, 4),0);\n}\n\ntest();"),
        "max_of": ("//The larger of a and b\n// >>> max_of(1, 7)\n// 7\nfunction max_of(a: number, b: number): number {\n",
                   "declare var require: any;\nconst assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = max_of;\n"
                   "  assert.deepEqual(candidate(1, 7),7);\n  assert.deepEqual(candidate(9, 2),9);\n}\n\ntest();"),
        "reworded": ["  return x + y;\n}\n\nfunction unused(): number { return 0; }\n", "  return Math.min(a, b);\n}\n"],
        "remove": ["  return x + y;\n}\n", "  return x * y;\n}\n", "  return Math.max(a, b);\n}\n", "  return a > b ? a : \"b\";\n}\n"],
    },
    "cs": {
        "stop": ["\n    }\n"],
        "add": ("using System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\n"
                "using System.Text;\nusing System.Security.Cryptography;\nclass Problem {\n    // Add two numbers x and y\n"
                "    // >>> Add((2L), (3L))\n    // (5L)\n    public static long Add(long x, long y) {\n",
                "    }\n    public static void Main(string[] args) {\n    Debug.Assert(Add((1L), (2L)) == (3L));\n"
                "    Debug.Assert(Add((-4L), (4L)) == (0L));\n    }\n\n}\n"),
        "max_of": ("using System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\n"
                   "using System.Text;\nusing System.Security.Cryptography;\nclass Problem {\n    // The larger of a and b\n"
                   "    // >>> MaxOf((1L), (7L))\n    // (7L)\n    public static long MaxOf(long a, long b) {\n",
                   "    }\n    public static void Main(string[] args) {\n    Debug.Assert(MaxOf((1L), (7L)) == (7L));\n"
                   "    Debug.Assert(MaxOf((9L), (2L)) == (9L));\n    }\n\n}\n"),
        "reworded": ["        return x + y;\n    }\n    static int Unused() { return 0; }\n", "        return Math.Min(a, b);\n    }\n"],
        "remove": ["        return x + y;\n    }\n", "        return x - y;\n    }\n", "        return Math.Max(a, b);\n    }\n",
                   "        return a >;\n    }\n"],
    },
    "d": {
        "stop": ["\n\n", "\nvoid", "\nbool", "\nint"],
        "add": ("import std.math;\nimport std.typecons;\n/*\nAdd two numbers x and y\n    >>> add(2L, 3L)\n    5L\n    \n*/\n"
                "long add(long x, long y) \n{\n",
                "unittest\n{\n    alias candidate = add;\n\n    assert(candidate(1L, 2L) == 3L);\n    assert(candidate(-4L, 4L) == 0L);\n}\n"
                "void main(){}"),
        "max_of": ("import std.math;\nimport std.typecons;\n/*\nThe larger of a and b\n    >>> max_of(1L, 7L)\n    7L\n    \n*/\n"
                   "long max_of(long a, long b) \n{\n",
                   "unittest\n{\n    alias candidate = max_of;\n\n    assert(candidate(1L, 7L) == 7L);\n    assert(candidate(9L, 2L) == 9L);\n}\n"
                   "void main(){}"),
        "reworded": ["    return x + y;\n}\n\nlong unused() { return 0; }\n", "    return a < b ? a : b;\n}\n"],
        "remove": ["    return x + y;\n}\n", "    return x - y;\n}\n", "    return a > b ? a : b;\n}\n", "    return a >;\n}\n"],
    },
    "rkt": {
        "stop": ["\n(define ", "\n#|", "\n;", "\n("],
        "add": ("#lang racket\n\n;; Add two numbers x and y\n;; >>> (add 2 3)\n;; 5\n(define (add x y)\n",
                "(require rackunit)\n\n(define (test-humaneval) \n\n  (let (( candidate add))\n    (check-equal? (candidate 1 2) 3)\n"
                "    (check-equal? (candidate -4 4) 0)\n))\n\n(test-humaneval)"),
        "max_of": ("#lang racket\n\n;; The larger of a and b\n;; >>> (max_of 1 7)\n;; 7\n(define (max_of a b)\n",
                   "(require rackunit)\n\n(define (test-humaneval) \n\n  (let (( candidate max_of))\n    (check-equal? (candidate 1 7) 7)\n"
                   "    (check-equal? (candidate 9 2) 9)\n))\n\n(test-humaneval)"),
        "reworded": ["  (+ x y))\n\n(define (unused) 0)\n", "  (min a b))\n"],
        "remove": ["  (+ x y))\n", "  (- x y))\n", "  (max a b))\n", "  (+ a b)\n"],
    },
    "scala": {
        "stop": ["\n    }\n"],
        "add": ("import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n    // Add two numbers x and y\n"
                "    // >>> add((2l), (3l))\n    // (5l)\n    def add(x : Long, y : Long) : Long = {\n",
                "    }\n    def main(args: Array[String]) = {\n    assert(add((1l), (2l)) == (3l));\n"
                "    assert(add((-4l), (4l)) == (0l));\n    }\n\n}\n"),
        "max_of": ("import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n    // The larger of a and b\n"
                   "    // >>> maxOf((1l), (7l))\n    // (7l)\n    def maxOf(a : Long, b : Long) : Long = {\n",
                   "    }\n    def main(args: Array[String]) = {\n    assert(maxOf((1l), (7l)) == (7l));\n"
                   "    assert(maxOf((9l), (2l)) == (9l));\n    }\n\n}\n"),
        "reworded": ["        x + y\n    }\n    def unused() : Long = 0\n", "        min(a, b)\n    }\n"],
        "remove": ["        x + y\n    }\n", "        x - y\n    }\n", "        max(a, b)\n    }\n", "        a >\n    }\n"],
    },
    "jl": {
        "stop": ["\nfunction", "\nmacro", "\n\n"],
        "add": ("\"\"\"Add two numbers x and y\n>>> add(2, 3)\n5\"\"\"\nfunction add(x::Int64, y::Int64)::Int64 \n",
                "using Test\n\n@testset begin\n\ncandidate = add;\n\t@test(candidate(1, 2) == 3)\n\t@test(candidate(-4, 4) == 0)\nend\n"),
        "max_of": ("\"\"\"The larger of a and b\n>>> max_of(1, 7)\n7\"\"\"\nfunction max_of(a::Int64, b::Int64)::Int64 \n",
                   "using Test\n\n@testset begin\n\ncandidate = max_of;\n\t@test(candidate(1, 7) == 7)\n\t@test(candidate(9, 2) == 9)\nend\n"),
        "reworded": ["    return x + y\nend\n", "    return min(a, b)\nend\n"],
        "remove": ["    return x + y\nend\n", "    return x - y\nend\n", "    return max(a, b)\nend\n", "    return a >\nend\n"],
    },
}


def _row(language: str, name: str, version: str, spec: dict[str, Any]) -> dict[str, Any]:
    prompt, tests = spec[name]
    number = 0 if name == "add" else 1
    return {
        "name": f"HumanEval_{number}_{name}",
        "language": language,
        "prompt": prompt,
        "doctests": "transform" if version != "remove" else "remove",
        "original": f"../datasets/originals-with-cleaned-doctests/HumanEval_{number}_{name}.py",
        "prompt_terminology": "reworded" if version == "reworded" else "verbatim",
        "tests": tests,
        "stop_tokens": spec["stop"],
    }


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    (ROOT / "predictions").mkdir(parents=True, exist_ok=True)
    for language, spec in LANGUAGES.items():
        for version in ("reworded", "remove"):
            rows = [_row(language, name, version, spec) for name in ("add", "max_of")]
            with open(FOLDER / f"humaneval-{language}-{version}.jsonl", "w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(row) + "\n")
            suffix = "" if version == "reworded" else "-remove"
            replies = spec[version]
            preds = {str(i): {"origin_prompt": "", "prediction": reply} for i, reply in enumerate(replies)}
            (ROOT / "predictions" / f"humaneval_multiple-{language}{suffix}.json").write_text(
                json.dumps(preds, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
