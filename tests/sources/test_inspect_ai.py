"""inspect_ai's own logs (recorded by ``scripts/record_inspect_ai.py``) read by assay."""

from __future__ import annotations

import json
import math
import re
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.sources import ExternalRun, mean_stderr, read_source
from assay.sources.inspect_ai import read_inspect_ai

DATA = Path(__file__).parent.parent / "data" / "sources" / "inspect_ai"
LOGS = DATA / "logs"


def _one(runs: list[ExternalRun], model: str, task: str) -> ExternalRun:
    (run,) = [r for r in runs if r.model == model and task in r.results]
    return run


@pytest.mark.parametrize("dump", sorted((DATA / "dumps").glob("*.json")), ids=lambda p: p.stem[-6:])
def test_every_number_inspect_shows_of_a_log_is_read_back(dump: Path) -> None:
    shown = json.loads(dump.read_text())  # `inspect log dump --header-only` of the log
    (run,) = read_inspect_ai(LOGS / "eval" / f"{dump.stem}.eval")
    assert run.tool == "inspect_ai" and run.version == shown["eval"]["packages"]["inspect_ai"] == "0.3.285"
    assert run.model == shown["eval"]["model"]
    result = run.results[shown["eval"]["task"]]
    count = 0
    for score in shown["results"]["scores"]:
        assert result.n_samples == score["scored_samples"]
        for name, metric in score["metrics"].items():
            if name == "stderr":
                assert result.stderr[f"{score['name']}/accuracy"] == metric["value"]
            else:
                assert result.metrics[f"{score['name']}/{name}"] == metric["value"]
            count += 1
    assert count == 2 * len(result.metrics) and count >= 2


def test_json_logs_give_the_same_records_as_eval_logs() -> None:
    from_eval, from_json = read_inspect_ai(LOGS / "eval"), read_inspect_ai(LOGS / "json")
    # one run per model, holding both tasks (each task's log read)
    assert len(from_eval) == len(from_json) == 2 and all(len(run.results) == 2 and len(run.paths) == 2 for run in from_eval)
    for run, task in [(r, t) for r in from_eval for t in r.results]:
        twin = _one(from_json, run.model, task)
        a, b = run.results[task], twin.results[task]
        assert Path(b.source.path).suffix == ".json" and Path(a.source.path).suffix == ".eval"
        assert (a.metrics, a.stderr, a.n_samples) == (b.metrics, b.stderr, b.n_samples)
        assert [(s.key, s.values, s.reply, s.reference, s.prompt, s.extracted) for s in a.samples] == [
            (s.key, s.values, s.reply, s.reference, s.prompt, s.extracted) for s in b.samples
        ]


def test_samples_give_the_reported_accuracy_and_inspects_standard_error() -> None:
    for run in read_inspect_ai(LOGS):
        for result in run.results.values():
            assert result.samples and result.check() == []
            for metric, value in result.metrics.items():
                values = result.sample_values(metric)
                assert len(values) == result.n_samples
                assert math.fsum(values) / len(values) == pytest.approx(value, abs=1e-12)
                # inspect's stderr: the sample standard deviation (ddof 1) over √n
                mu = sum(values) / len(values)
                sd = math.sqrt(sum((v - mu) ** 2 for v in values) / (len(values) - 1))
                assert result.stderr[metric] == pytest.approx(sd / math.sqrt(len(values)), rel=1e-9)
                assert mean_stderr(values) == pytest.approx(result.stderr[metric], rel=1e-9)


def test_samples_keep_identity_reply_target_prompt_and_answers() -> None:
    runs = read_inspect_ai(LOGS / "eval")
    arith = _one(runs, "mockllm/scripted-a", "assay_arith").results["assay_arith"]
    assert [s.key for s in arith.samples] == [f"arith-{i}" for i in range(12)]
    first = arith.samples[0]
    assert first.prompt == "What is 22 plus 11? Reply with the number."
    assert first.reply == "33" and first.reference == "33"
    assert first.values == {"match/accuracy": 1.0, "includes/accuracy": 1.0}
    # a reply holding the target inside a sentence: includes() counts it, match() does not
    loose = next(s for s in arith.samples if s.reply and s.reply.startswith("I believe"))
    assert loose.values == {"match/accuracy": 0.0, "includes/accuracy": 1.0}
    mcq = _one(runs, "mockllm/scripted-b", "assay_mcq").results["assay_mcq"]
    assert [s.key for s in mcq.samples] == [str(i) for i in range(1, 11)]  # inspect's integer ids, as strings
    one = mcq.samples[0]
    assert one.reference == "B" and one.reply == "Twice 3 is 6.\n\nANSWER: B" and one.extracted == {"choice": "B"}
    assert one.doc is not None and one.doc["choices"] == ["4", "6", "7", "9"]


def test_epochs_reduce_by_inspects_reducer_and_keep_every_epochs_answer(tmp_path: Path) -> None:
    (run,) = [r for r in read_inspect_ai(LOGS / "epochs") if "assay_arith" in r.results]
    result = run.results["assay_arith"]
    assert len(result.samples) == 12 and result.n_samples == 12 and result.check() == []
    split = next(s for s in result.samples if s.key == "arith-2")
    # right in one epoch of two: inspect's mean reducer gives 0.5
    assert split.values == {"match/accuracy": 0.5, "includes/accuracy": 0.5}
    assert split.extracted == {"match": "43", "includes": "43", "match, epoch 2": "42", "includes, epoch 2": "42"}
    assert split.doc == {"epochs": [1, 2]}
    assert result.metrics["match/accuracy"] == pytest.approx(11 / 24)


def test_without_reductions_the_scores_letters_are_mapped_and_averaged(tmp_path: Path) -> None:
    (log,) = sorted((LOGS / "json").glob("*assay-arith*"))[:1]
    data = json.loads(log.read_text())
    assert data["samples"][0]["scores"]["match"]["value"] == "C"  # inspect's letters in the samples
    del data["reductions"]
    bare = tmp_path / log.name
    bare.write_text(json.dumps(data))
    ((_, with_reductions),) = read_inspect_ai(log)[0].results.items()
    ((_, from_letters),) = read_inspect_ai(bare)[0].results.items()
    assert [s.values for s in from_letters.samples] == [s.values for s in with_reductions.samples]


def test_inspects_own_reader_gives_the_same_records() -> None:
    pytest.importorskip("inspect_ai")
    for folder in ("eval", "json", "epochs", "shared"):
        ours, theirs = read_inspect_ai(LOGS / folder), read_inspect_ai(LOGS / folder, use_inspect=True)
        for a, b in zip(ours, theirs, strict=True):
            assert (a.model, a.version, list(a.results)) == (b.model, b.version, list(b.results))
            for name, x in a.results.items():
                y = b.results[name]
                assert (x.metrics, x.stderr, x.n_samples) == (y.metrics, y.stderr, y.n_samples)
                assert [(s.key, s.values, s.reply, s.reference, s.prompt, s.extracted) for s in x.samples] == [
                    (s.key, s.values, s.reply, s.reference, s.prompt, s.extracted) for s in y.samples
                ]


def _eval_copy(tmp_path: Path) -> Path:
    (log,) = sorted((LOGS / "eval").glob("*assay-mcq*.eval"))[:1]
    target = tmp_path / log.name
    shutil.copy(log, target)
    return target


def test_an_eval_log_of_deflated_entries_reads_to_the_same_records(tmp_path: Path) -> None:
    """Entries stored or deflated (as zip tools, and earlier inspect_ai releases, write them) read as the Zstandard ones."""
    from assay.sources.inspect_ai import _entry

    original = sorted((LOGS / "eval").glob("*assay-arith*.eval"))[0]
    repacked = tmp_path / original.name
    with zipfile.ZipFile(original) as src, open(original, "rb") as raw, zipfile.ZipFile(repacked, "w") as dst:
        assert {i.compress_type for i in src.infolist()} == {93}
        for n, info in enumerate(src.infolist()):
            text = json.dumps(_entry(src, raw, original, info.filename))
            dst.writestr(info.filename, text, compress_type=zipfile.ZIP_DEFLATED if n % 2 else zipfile.ZIP_STORED)
    (a,), (b,) = read_inspect_ai(original), read_inspect_ai(repacked)
    x, y = a.results["assay_arith"], b.results["assay_arith"]
    assert (x.metrics, x.stderr) == (y.metrics, y.stderr)
    assert [(s.key, s.values, s.reply) for s in x.samples] == [(s.key, s.values, s.reply) for s in y.samples]


def _zstd_archive(path: Path, entries: dict[str, list[bytes]]) -> None:
    """A zip whose entries are Zstandard-compressed (method 93), each in as many frames as parts given.

    :mod:`zipfile` writes each entry stored, with the compressed bytes; the method, CRC and uncompressed size
    of its local and central headers are then set to those of the Zstandard entry."""
    import zlib

    import zstandard

    plain = {name: b"".join(parts) for name, parts in entries.items()}
    packed = {name: b"".join(zstandard.ZstdCompressor().compress(p) for p in parts) for name, parts in entries.items()}
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in packed.items():
            archive.writestr(name, data)
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
    raw = bytearray(path.read_bytes())
    central = raw.index(b"PK\x01\x02")
    for info in infos:
        data = plain[info.filename]
        struct.pack_into("<H", raw, info.header_offset + 8, 93)
        struct.pack_into("<L", raw, info.header_offset + 14, zlib.crc32(data))
        struct.pack_into("<L", raw, info.header_offset + 22, len(data))
        at = raw.index(b"PK\x01\x02", central)
        struct.pack_into("<H", raw, at + 10, 93)
        struct.pack_into("<L", raw, at + 16, zlib.crc32(data))
        struct.pack_into("<L", raw, at + 24, len(data))
        central = at + 46 + len(info.filename.encode()) + len(info.extra) + len(info.comment)
    path.write_bytes(bytes(raw))


def test_an_entry_in_several_zstandard_frames_reads_whole(tmp_path: Path) -> None:
    """inspect_ai splits a large entry into several frames; every frame is read, not the first alone."""
    (json_log,) = sorted((LOGS / "json").glob("*assay-mcq*.json"))[:1]
    data = json.loads(json_log.read_text())
    samples, reductions = data.pop("samples"), data.pop("reductions")
    header = json.dumps(data).encode()
    entries = {"header.json": [header[:1000], header[1000:2000], header[2000:]]}
    for sample in samples:
        text = json.dumps(sample).encode()
        entries[f"samples/{sample['id']}_epoch_{sample['epoch']}.json"] = [text[:7], text[7:]]
    entries["reductions.json"] = [json.dumps(reductions).encode()]
    log = tmp_path / json_log.with_suffix(".eval").name
    _zstd_archive(log, entries)
    (a,), (b,) = read_inspect_ai(json_log), read_inspect_ai(log)
    x, y = a.results["assay_mcq"], b.results["assay_mcq"]
    assert (x.metrics, x.stderr, x.n_samples) == (y.metrics, y.stderr, y.n_samples)
    assert [(s.key, s.values, s.reply, s.reference) for s in x.samples] == [(s.key, s.values, s.reply, s.reference) for s in y.samples]


def test_a_truncated_eval_log_is_an_error_naming_the_file(tmp_path: Path) -> None:
    log = _eval_copy(tmp_path)
    data = log.read_bytes()
    log.write_bytes(data[: len(data) // 2])  # a copy cut short: the zip's directory is lost
    with pytest.raises(InputFileError, match=rf"inspect_ai log {re.escape(str(log))} is not a readable zip archive"):
        read_source("inspect_ai", tmp_path)


def test_a_corrupted_zstandard_entry_is_an_error_naming_the_file_and_entry(tmp_path: Path) -> None:
    log = _eval_copy(tmp_path)
    with zipfile.ZipFile(log) as archive:
        info = archive.getinfo("samples/3_epoch_1.json")
    data = bytearray(log.read_bytes())
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26 : info.header_offset + 30])
    start = info.header_offset + 30 + name_len + extra_len
    data[start + 20 : start + 60] = bytes(40)  # damaged compressed bytes; the archive's directory intact
    log.write_bytes(bytes(data))
    with pytest.raises(InputFileError, match=rf"{re.escape(str(log))}, entry samples/3_epoch_1\.json: "):
        read_inspect_ai(log)


def test_a_malformed_or_foreign_json_log_is_an_error_naming_it(tmp_path: Path) -> None:
    (log,) = sorted((LOGS / "json").glob("*assay-mcq*.json"))[:1]
    text = log.read_text()
    bad = tmp_path / log.name
    bad.write_text(text[:300])
    with pytest.raises(InputFileError, match=rf"inspect_ai log {re.escape(str(bad))} is not valid JSON"):
        read_inspect_ai(tmp_path)
    bad.write_text('{"accuracy": 0.5}')
    with pytest.raises(InputFileError, match=rf"{re.escape(str(bad))}: no 'eval' object"):
        read_inspect_ai(bad)
    data = json.loads(text)
    data["results"]["scores"][0]["metrics"]["accuracy"]["value"] = "high"
    bad.write_text(json.dumps(data))
    with pytest.raises(InputFileError, match=r"results\.scores\[0\] \(choice\)\.metrics\.accuracy is 'high', not a number"):
        read_inspect_ai(bad)


def test_a_log_without_results_is_skipped_and_a_folder_without_logs_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (log,) = sorted((LOGS / "json").glob("*assay-mcq*.json"))[:1]
    data = json.loads(log.read_text())
    data["status"], data["results"] = "error", None
    (tmp_path / log.name).write_text(json.dumps(data))
    assert read_inspect_ai(tmp_path) == []
    assert "has status 'error' and no results; skipped" in caplog.text
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputFileError, match=r"no \.eval or <time>_<task>_<id>\.json log"):
        read_inspect_ai(tmp_path / "empty")
    with pytest.raises(InputFileError, match="do not exist"):
        read_inspect_ai(tmp_path / "nowhere")


def test_a_task_logged_twice_for_a_model_keeps_the_newest_log(tmp_path: Path) -> None:
    import shutil

    (older,) = [f for f in (LOGS / "json").iterdir() if "assay-mcq" in f.name][:1]
    runs = read_inspect_ai(LOGS / "json")
    model = next(r.model for r in runs if str(older) in r.paths)
    # the same log again under a later time, as a retried evaluation leaves it
    retried = tmp_path / ("2099" + older.name[4:])
    shutil.copy(older, tmp_path / older.name)
    shutil.copy(older, retried)
    (run,) = read_inspect_ai(tmp_path)
    assert run.model == model and run.paths == [str(tmp_path / older.name), str(retried)]
    assert run.results["assay_mcq"].source.path == str(retried)


def test_a_scorer_reduced_by_two_reducers_gives_one_metric_each(tmp_path: Path) -> None:
    import json

    (log,) = [f for f in (LOGS / "json").iterdir() if "assay-arith" in f.name][:1]
    data = json.loads(log.read_text())
    first = data["results"]["scores"][0]
    mean = {**first, "reducer": "mean", "metrics": {"accuracy": {"name": "accuracy", "value": 0.25, "params": {}}}}
    top = {**first, "reducer": "max", "metrics": {"accuracy": {"name": "accuracy", "value": 0.5, "params": {}}}}
    data["results"]["scores"] = [mean, top, *data["results"]["scores"][1:]]
    (tmp_path / log.name).write_text(json.dumps(data))
    (run,) = read_inspect_ai(tmp_path)
    (result,) = run.results.values()
    name = first["name"]
    assert result.metrics[f"{name}[mean]/accuracy"] == 0.25 and result.metrics[f"{name}[max]/accuracy"] == 0.5
    assert f"{name}/accuracy" not in result.metrics and result.check() == []
