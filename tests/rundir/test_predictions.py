"""Prediction files: OpenCompass JSON, split files, JSONL (R-1.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.rundir.predictions import load_predictions


def test_fields_are_collected_from_every_record(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"0": {"prediction": "A"}, "1": {"prediction": "B", "gold": "B", "steps": [1]}}))
    cols = load_predictions(tmp_path, "d").columns()
    assert cols == {"prediction": ["A", "B"], "gold": [None, "B"], "steps": [None, [1]]}


def test_likelihood_inferencer_records_without_prediction_are_read(tmp_path: Path) -> None:
    """OpenCompass's PPL, Min-K% and sliding cross-entropy inferencers write their statistics and no reply."""
    (tmp_path / "ppl.json").write_text(json.dumps({"0": {"origin_prompt": "x", "ppl": 12.5, "token_len": 5},
                                                   "1": {"origin_prompt": "y", "ppl": 3.0, "token_len": 2}}))
    (tmp_path / "bpc.json").write_text(json.dumps({"0": {"loss": 6.9, "total_chr_num": 20}}))
    (tmp_path / "mink.json").write_text(json.dumps({"0": {"origin_prompt": "z", "mink": -1.5}}))
    assert load_predictions(tmp_path, "ppl").columns() == {"origin_prompt": ["x", "y"], "ppl": [12.5, 3.0], "token_len": [5, 2],
                                                           "prediction": ["", ""]}
    assert load_predictions(tmp_path, "bpc").columns()["loss"] == [6.9]
    assert load_predictions(tmp_path, "mink").columns()["prediction"] == [""]
    (tmp_path / "other.json").write_text(json.dumps({"0": {"origin_prompt": "z", "score": 1.5}}))
    with pytest.raises(InputFileError, match=r"other\.json: record \"0\" has no 'prediction' field \(fields: origin_prompt, score\)"):
        load_predictions(tmp_path, "other")


def test_split_files_are_concatenated_in_order(tmp_path: Path) -> None:
    (tmp_path / "d_0.json").write_text(json.dumps({"0": {"prediction": "a"}, "1": {"prediction": "b"}}))
    (tmp_path / "d_1.json").write_text(json.dumps({"0": {"prediction": "c"}}))
    p = load_predictions(tmp_path, "d")
    assert [r["prediction"] for r in p.records] == ["a", "b", "c"]
    assert [f.name for f in p.files] == ["d_0.json", "d_1.json"]
    assert p.parts == [(0, 2), (1, 1)] and p.missing_parts == []


def test_a_gap_in_split_files_is_an_error_unless_a_partial_read_is_asked_for(tmp_path: Path) -> None:
    for part in (0, 1, 3, 4):
        (tmp_path / f"d_{part}.json").write_text(json.dumps({"0": {"prediction": str(part)}, "1": {"prediction": str(part)}}))
    (tmp_path / "d_x.json").write_text("{}")  # not a part
    with pytest.raises(InputFileError) as err:
        load_predictions(tmp_path, "d")
    assert f"split predictions of 'd' in {tmp_path} are incomplete: d_2.json missing (parts there: _0, _1, _3, _4)" in str(err.value)
    p = load_predictions(tmp_path, "d", partial=True)
    assert [r["prediction"] for r in p.records] == ["0", "0", "1", "1", "3", "3", "4", "4"]
    assert p.parts == [(0, 2), (1, 2), (3, 2), (4, 2)] and p.missing_parts == [2]
    (tmp_path / "d_0.json").unlink()  # the first part missing: not "no predictions", the gap
    with pytest.raises(InputFileError, match=r"d_0\.json, d_2\.json missing"):
        load_predictions(tmp_path, "d")


def test_whole_file_wins_over_split_files(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"0": {"prediction": "whole"}}))
    (tmp_path / "d_0.json").write_text(json.dumps({"0": {"prediction": "part"}}))
    assert load_predictions(tmp_path, "d").records[0]["prediction"] == "whole"


def test_jsonl_with_ids_is_ordered_by_id(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").write_text('{"id": 1, "prediction": "b"}\n\n{"id": "0", "prediction": "a"}\n')
    assert [r["prediction"] for r in load_predictions(tmp_path, "d").records] == ["a", "b"]


def test_jsonl_without_ids_keeps_file_order(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").write_text('{"prediction": "b"}\n{"prediction": "a"}\n')
    assert [r["prediction"] for r in load_predictions(tmp_path, "d").records] == ["b", "a"]


def test_jsonl_with_duplicate_ids(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").write_text('{"id": 0, "prediction": "b"}\n{"id": 0, "prediction": "a"}\n')
    with pytest.raises(InputFileError, match=r"ids must be 0..1"):
        load_predictions(tmp_path, "d")


def test_list_predictions_and_null_replies(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"0": {"prediction": ["x", "y"]}, "1": {"prediction": None}}))
    assert [r["prediction"] for r in load_predictions(tmp_path, "d").records] == [["x", "y"], ""]


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"prediction folder .* does not exist"):
        load_predictions(tmp_path / "nope", "d")


def test_big_files_are_parsed_in_blocks_with_the_same_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.rundir.predictions as predictions
    records = {str(i): {"origin_prompt": f"q{i}\n\"quoted\" {{", "prediction": f"answer {i},\n" * (i % 3), "gold": i} for i in range(50)}
    (tmp_path / "d.json").write_text(json.dumps(records, indent=4))
    whole = load_predictions(tmp_path, "d")
    monkeypatch.setattr(predictions, "STREAM_THRESHOLD", 0)
    monkeypatch.setattr(predictions, "_BLOCK", 97)  # many blocks, cut mid-record
    streamed = load_predictions(tmp_path, "d")
    assert streamed.records == whole.records
    slim = load_predictions(tmp_path, "d", keep=["gold"])
    assert slim.records == [{"prediction": r["prediction"], "gold": r["gold"]} for r in whole.records]
    assert slim.dropped == ["origin_prompt"]


def test_block_parsing_falls_back_to_the_precise_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.rundir.predictions as predictions

    monkeypatch.setattr(predictions, "STREAM_THRESHOLD", 0)
    monkeypatch.setattr(predictions, "_BLOCK", 64)
    records = {str(i): {"prediction": "x"} for i in range(20)}
    del records["7"]
    (tmp_path / "d.json").write_text(json.dumps(records, indent=4))
    with pytest.raises(InputFileError, match=r"missing keys \['7'\]"):
        load_predictions(tmp_path, "d")
    (tmp_path / "d.json").write_text(json.dumps({str(i): {"prediction": "x"} for i in range(20)}, indent=4)[:-30])
    with pytest.raises(InputFileError, match="not valid JSON"):
        load_predictions(tmp_path, "d")
    (tmp_path / "d.json").write_text(json.dumps({str(i): {"prediction": "y"} for i in range(20)}))  # one line: parsed whole
    assert len(load_predictions(tmp_path, "d")) == 20


def test_columns_of_records_with_different_fields(tmp_path: Path) -> None:
    records = {"0": {"prediction": "A", "gold": "A"}, "1": {"prediction": "B"}, "2": {"prediction": "C", "gold": "D", "extra": 1}}
    (tmp_path / "d.json").write_text(json.dumps(records))
    preds = load_predictions(tmp_path, "d")
    assert preds.columns() == {"prediction": ["A", "B", "C"], "gold": ["A", None, "D"], "extra": [None, None, 1]}
    # only the named columns are built; the others are still named
    assert preds.columns(only={"gold"}) == {"prediction": None, "gold": ["A", None, "D"], "extra": None}


def test_bytes_read_for_the_fingerprint_are_the_ones_parsed(tmp_path: Path) -> None:
    from assay.tasks.fingerprint import files_digest

    path = tmp_path / "d.json"
    path.write_text(json.dumps({"0": {"prediction": "hashed"}}))
    contents: dict[Path, bytes] = {}
    digest = files_digest([path], keep=contents, keep_below=1 << 20)
    path.write_text(json.dumps({"0": {"prediction": "changed after hashing"}}))
    preds = load_predictions(tmp_path, "d", contents=contents)
    assert preds.records == [{"prediction": "hashed"}]  # what was scored is what the fingerprint names
    assert files_digest([path]) != digest
    assert load_predictions(tmp_path, "d").records == [{"prediction": "changed after hashing"}]


def test_big_files_are_not_kept_for_parsing(tmp_path: Path) -> None:
    from assay.tasks.fingerprint import files_digest

    path = tmp_path / "d.json"
    path.write_text(json.dumps({"0": {"prediction": "A"}}))
    contents: dict[Path, bytes] = {}
    files_digest([path], keep=contents, keep_below=path.stat().st_size)
    assert contents == {}


def _with_repeats(members: list[tuple[str, object]]) -> str:
    """A pretty-printed JSON object that may give a key more than once (``json.dumps`` cannot)."""
    return "{\n" + ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in members) + "\n}"


@pytest.mark.parametrize("streamed", [False, True])
def test_a_key_given_twice_is_read_as_opencompass_reads_it_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, streamed: bool
) -> None:
    import assay.rundir.predictions as predictions

    if streamed:
        monkeypatch.setattr(predictions, "STREAM_THRESHOLD", 0)
        monkeypatch.setattr(predictions, "_BLOCK", 64)  # the repeats fall in other blocks than the first
    members: list[tuple[str, object]] = [(str(i), {"prediction": f"p{i}: ok", "gold": "g"}) for i in range(12)]
    members.insert(5, ("1", {"prediction": "overridden", "gold": "g"}))
    members.append(("3", "not even a record"))
    members.append(("3", {"prediction": "last", "gold": "g"}))
    path = tmp_path / "d.json"
    path.write_text(_with_repeats(members))
    preds = load_predictions(tmp_path, "d")
    assert [r["prediction"] for r in preds.records] == json_last_wins(path)  # the last value of each key
    assert preds.duplicates == {path: ["1", "3", "3"]}
    assert preds.duplicates_meta() == {"count": 3, "files": {str(path): ["1", "3"]}}
    warning = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(str(path) in m and "3 sample key(s) more than once ('1', '3')" in m for m in warning), warning


def json_last_wins(path: Path) -> list[str]:
    """The predictions as Python's json reads the file, as OpenCompass does."""
    data = json.loads(path.read_text())
    return [data[str(i)]["prediction"] for i in range(len(data))]


def test_no_repeat_is_reported_where_the_colon_count_alone_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "d.json"
    # the usual file (colons in strings, chat-style prompts) is parsed once: the counts agree
    usual = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": f"Q{i}: why?"}], "prediction": f"A: {i}", "gold": "A"} for i in range(200)}
    path.write_text(json.dumps(usual, indent=4, ensure_ascii=False))

    def slow_path(*args: object, **kwargs: object) -> None:
        raise AssertionError("the keys were read one by one")

    monkeypatch.setattr(json, "loads", slow_path)
    assert load_predictions(tmp_path, "d").duplicates == {}
    monkeypatch.undo()
    records = {
        "0": {"prediction": 'print({"a": 1})', "gold": "x"},  # an escaped quote before a colon
        "1": {"prediction": "Answer : B", "gold": {"nested": {"k": "v", "j": "w"}}},
        "2": {"prediction": "colon escaped", "gold": "a\u003ab"},
    }
    path.write_text(json.dumps(records, indent=4, ensure_ascii=True).replace("a:b", "a\\u003ab"))
    preds = load_predictions(tmp_path, "d")
    assert preds.duplicates == {} and preds.duplicates_meta() is None
    assert [r["gold"] for r in preds.records][2] == "a:b"
    # a key repeated inside a record is no sample key
    path.write_text('{"0": {"prediction": "a", "gold": "x", "gold": "y"}}')
    assert load_predictions(tmp_path, "d").duplicates == {}
    assert not [r for r in caplog.records if r.levelname == "WARNING"]



def test_counting_colons_does_not_copy_the_file() -> None:
    """The repeated-key check counts a prediction file's colons without a second copy of it in memory."""
    import tracemalloc

    from assay.rundir.predictions import _colons

    data = b'{"0": {"prediction": "a:b"}, ' * 200_000
    tracemalloc.start()
    try:
        assert _colons(data) == 600_000
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 10
