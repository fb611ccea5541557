"""A rank file read whole (one decompression, one decode) gives the rank graph the block reader gives; what the
one pass does not take (string-typed numbers, truncated or multi-member gzip, a file over the limit) is read
by the block reader, with its tolerance and its messages."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.files.traces import job_reader
from amdahl_desk.files.traces.job_reader import read_rank
from amdahl_desk.model.job.rank_graph import RankGraph
from amdahl_desk.model.traces.errors import TraceError

from .make_jobs import allreduce_job, example

STEP = "ProfilerStep#"
FIXTURES = Path(__file__).resolve().parents[1] / "traces" / "fixtures"


def _fields(g: RankGraph) -> dict[str, object]:
    """Every field of the rank graph and of its graph, arrays as lists; ``owner`` apart (row numbers, which
    depend on how many events the reader hands over at a time)."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(g):
        v = getattr(g, f.name)
        if f.name == "graph":
            for f2 in dataclasses.fields(v):
                if f2.name != "owner":
                    x = getattr(v, f2.name)
                    out[f"graph.{f2.name}"] = np.asarray(x).tolist() if isinstance(x, np.ndarray) else x
        else:
            out[f.name] = np.asarray(v).tolist() if isinstance(v, np.ndarray) else v
    return out


def _by_blocks(monkeypatch: pytest.MonkeyPatch, *args: object) -> RankGraph:
    with monkeypatch.context() as m:
        m.setattr(job_reader, "WHOLE_LIMIT", 0)  # every file is over the limit: the block reader reads it
        return read_rank(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "path",
    [FIXTURES / "gloo" / "rank1.json.gz", FIXTURES / "ddp4" / "rank2.json.gz", FIXTURES / "torch_cpu_steps.json.gz"],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_whole_read_is_the_block_read(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = read_rank(str(path), path.name, 0, STEP)
    blocks = _by_blocks(monkeypatch, str(path), path.name, 0, STEP)
    assert _fields(whole) == _fields(blocks)


def test_synthetic_ranks_alike_either_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for r in example() + allreduce_job([[4000.0, 5000.0], [7000.0, 3000.0]], second_stream=True):
        folder = tmp_path / f"w{r.world}_{r.rank}"
        folder.mkdir()
        p = r.write(folder, gz=r.rank % 2 == 0)  # plain and gzipped
        whole = read_rank(str(p), p.name, None, STEP)
        blocks = _by_blocks(monkeypatch, str(p), p.name, None, STEP)
        assert _fields(whole) == _fields(blocks)
        assert whole.rank == r.rank and whole.steps >= 1


def _doc(tmp_path: Path) -> tuple[dict, Path]:
    (r,) = [r for r in example() if r.rank == 2]
    p = r.write(tmp_path, gz=False)
    return json.loads(p.read_text()), p


def test_string_numbers_are_read_by_the_tolerant_reader(tmp_path: Path) -> None:
    """A trace whose times are strings does not decode in one pass; the block reader takes it, and the
    graph is the one of the same trace with numbers."""
    doc, p = _doc(tmp_path)
    plain = read_rank(str(p), p.name, None, STEP)
    for e in doc["traceEvents"]:
        e["ts"], e["dur"] = str(e["ts"]), str(e["dur"])
    q = tmp_path / "strings.json"
    q.write_text(json.dumps(doc))
    assert _fields(read_rank(str(q), q.name, None, STEP)) == {**_fields(plain), "source": "strings.json"}


def test_multi_member_gzip(tmp_path: Path) -> None:
    """Two gzip members (``cat a.gz b.gz``) are one text: read by the block reader, the same graph."""
    _doc_, p = _doc(tmp_path)
    text = p.read_bytes()
    cut = len(text) // 2
    q = tmp_path / "members.json.gz"
    q.write_bytes(gzip.compress(text[:cut]) + gzip.compress(text[cut:]))
    assert _fields(read_rank(str(q), q.name, None, STEP)) == {
        **_fields(read_rank(str(p), p.name, None, STEP)),
        "source": "members.json.gz",
    }


def test_truncated_gzip_is_refused_naming_the_file(tmp_path: Path) -> None:
    _doc_, p = _doc(tmp_path)
    data = gzip.compress(p.read_bytes())
    q = tmp_path / "cut.json.gz"
    q.write_bytes(data[: len(data) // 2])
    with pytest.raises(TraceError) as err:
        read_rank(str(q), q.name, None, STEP)
    assert "cut.json.gz" in str(err.value) and "truncated" in str(err.value)


def test_broken_json_is_refused_naming_the_event(tmp_path: Path) -> None:
    doc, p = _doc(tmp_path)
    text = json.dumps(doc)
    at = text.index('"dur"', len(text) // 2)
    q = tmp_path / "broken.json"
    q.write_text(text[:at] + '"dur" 5, ' + text[at:])  # a missing colon half way through the events
    with pytest.raises(TraceError) as err:
        read_rank(str(q), q.name, None, STEP)
    message = str(err.value)
    assert "broken.json" in message and "broken JSON" in message and "event" in message


def test_no_complete_events_is_refused_by_the_block_readers_words(tmp_path: Path) -> None:
    q = tmp_path / "empty.json"
    q.write_text(json.dumps({"traceEvents": [{"ph": "M", "name": "process_name"}]}))
    with pytest.raises(TraceError, match="no complete events"):
        read_rank(str(q), q.name, None, STEP)


@pytest.mark.parametrize(
    "path",
    [
        FIXTURES / "ddp2" / "rank0.json.gz",
        FIXTURES / "critical_path" / "cuda_event_sync_multi_stream.json.gz",
        FIXTURES.parents[1] / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz",
    ],
    ids=lambda p: p.name,
)
def test_job_columns_are_the_graph_readers(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's consumer fills the import's and the graph reader's columns itself (in one pass): read by the
    same block reader, every column and every dependency column is the graph reader's."""
    from amdahl_desk.files.traces.kineto_graph import read_kineto_graph

    ref = read_kineto_graph(str(path), path.name)
    with monkeypatch.context() as m:
        m.setattr(job_reader, "WHOLE_LIMIT", 0)
        blocks, _comms = job_reader.read_rank_trace(str(path), path.name)
    _same_columns(ref, blocks)
    whole, _comms = job_reader.read_rank_trace(str(path), path.name)  # the one pass, by phase
    _same_columns(_one_batch(path), whole)


def _one_batch(path: Path) -> object:
    """The trace's every event, decoded whole, handed to the job's consumer in one batch (``ph`` and all)."""
    import msgspec

    from amdahl_desk.model.traces.dependencies import GraphTrace

    data = path.read_bytes()
    text = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    doc = msgspec.json.decode(text, type=msgspec.defstruct("Doc", [("traceEvents", list[job_reader.JobEvent])]))
    events = doc.traceEvents
    reader = job_reader._JobReader(None, path.name, lambda: None)  # type: ignore[arg-type]
    reader.consumer.consume(events)  # type: ignore[arg-type]
    out = reader.consumer.finish()
    head = json.loads(text)
    out.info.update({k: head[k] for k in job_reader._HEADER_KEYS if isinstance(head, dict) and k in head})
    if reader.consumer.skipped_begin_end:
        out.info["skipped_begin_end"] = reader.consumer.skipped_begin_end
    return GraphTrace(out, reader.consumer.deps.finish(out))  # type: ignore[attr-defined]


def _same_columns(ref: object, mine: object) -> None:
    for part in ("events", "deps"):
        a, b = getattr(ref, part), getattr(mine, part)
        for f in dataclasses.fields(a):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if isinstance(x, np.ndarray):
                assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f"{part}.{f.name}"
            elif f.name == "info":  # the job keeps the host's name besides
                assert x.items() <= y.items() and set(y) - set(x) <= set(job_reader.HOST_KEYS)
            else:
                assert x == y, f"{part}.{f.name}"


def test_phases_the_one_pass_skips_or_refuses(tmp_path: Path) -> None:
    """The one pass decodes only complete events; begin/end pairs are counted as skipped as the block reader
    counts them, and a phase the Chrome format does not name makes it hand the file to the block reader: the
    columns are the graph reader's either way."""
    from amdahl_desk.files.traces.kineto_graph import read_kineto_graph

    doc, _p = _doc(tmp_path)  # small: the block reader reads it in one block, as the one pass does
    extra = [{"ph": "B", "name": "b", "pid": 1, "tid": 1, "ts": 1}, {"ph": "E", "pid": 1, "tid": 1, "ts": 2},
             {"ph": "s", "id": 3, "pid": 1, "tid": 1, "ts": 1, "cat": "ac2g", "name": "flow"}]  # fmt: skip
    for odd in ([], [{"ph": "Z", "name": "a phase of no format", "ts": 1}]):
        doc2 = {**doc, "traceEvents": [*extra, *odd, *doc["traceEvents"]]}
        q = tmp_path / f"phases{len(odd)}.json"
        q.write_text(json.dumps(doc2))
        reader = job_reader._WholeReader(q.read_bytes(), q.name)
        assert (reader.whole() is None) == bool(odd)
        mine, _comms = job_reader.read_rank_trace(str(q), q.name)
        _same_columns(read_kineto_graph(str(q), q.name) if odd else _one_batch(q), mine)
        assert mine.events.info["skipped_begin_end"] == 2
