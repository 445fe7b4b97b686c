"""Renderings: the fast table layout equals tabulate's, markdown and csv layouts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from assay.summarize._table import render_csv, render_markdown, render_simple

text_cell = st.one_of(
    st.sampled_from(
        ["", "-", "sub_a", "4d3a0b", "accuracy", "gen", "1", "12345", "x y", "--- Exam ---", "1e5", "考试",
         " lead", "trail ", "a\tb", "a\nb", "1,5"]
    ),
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=12),
)
number_cell = st.one_of(
    st.just("-"),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda v: f"{v:.2f}"),
)
model_cell = st.one_of(
    number_cell, number_cell, st.sampled_from(["acc", "12", "1e3", "nan", "True", "0x10", "inf", "", " 1.00", "1.00 "])
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[str]], int]:
    text_columns = draw(st.integers(1, 4))
    models = draw(st.integers(0, 4))
    header = draw(st.lists(text_cell, min_size=text_columns + models, max_size=text_columns + models))
    n_rows = draw(st.integers(1, 6))
    rows = [
        draw(st.lists(text_cell, min_size=text_columns, max_size=text_columns))
        + draw(st.lists(model_cell, min_size=models, max_size=models))
        for _ in range(n_rows)
    ]
    return [header, *rows], text_columns


@settings(max_examples=400, deadline=None)
@given(tables())
def test_fast_layout_equals_tabulate(case: tuple[list[list[str]], int]) -> None:
    table, text_columns = case
    expected = tabulate(table, headers="firstrow", floatfmt=".2f", disable_numparse=list(range(text_columns)))
    assert render_simple(table, text_columns) == expected


def test_version_that_looks_like_a_number_is_kept() -> None:
    table = [
        ["dataset", "version", "metric", "mode", "m"],
        ["a", "1e5000", "acc", "gen", "1.00"],
        ["b", "012345", "acc", "gen", "2.00"],
    ]
    out = render_simple(table)
    assert "1e5000" in out and "012345" in out


def test_markdown_layout() -> None:
    table = [["dataset", "version", "metric", "mode", "m1"], ["a", "-", "acc", "gen", "1.00"]]
    assert render_markdown(table) == (
        "| dataset | version | metric | mode | m1 |\n|----- | ----- | ----- | ----- | -----|\n| a | - | acc | gen | 1.00 |\n"
    )


def test_csv_layout() -> None:
    table = [["dataset", "m1"], ["a,b", "1.00"]]
    assert render_csv(table) == "dataset,m1\na b,1.00\n"
    assert render_csv([["a", "b,", ",c"], ["1", "2", "3"]]) == "a,b , c\n1,2,3\n"
    assert render_csv(table, for_file=False) == "dataset,m1\na,b,1.00"
