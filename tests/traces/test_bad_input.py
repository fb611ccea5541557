"""Bad files give one clear message naming the place, exit status 2, and nothing half-built."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces import import_trace, kineto, load_trace
from amdahl_desk.model.traces import Cancelled, ImportOptions, TraceError

from . import expect

CPU = expect.FIXTURES / "torch_cpu_steps.json.gz"


@pytest.fixture
def cpu_json() -> bytes:
    return gzip.decompress(CPU.read_bytes())


def _fails(path, match: str) -> TraceError:
    with pytest.raises(TraceError, match=match) as info:
        load_trace(path).summarise()
    assert path.name in str(info.value)
    return info.value


def test_empty_file(tmp_path):
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    _fails(path, "empty")


def test_truncated_json(tmp_path, cpu_json):
    path = tmp_path / "cut.json"
    path.write_bytes(cpu_json[: len(cpu_json) * 2 // 3])
    _fails(path, "truncated")


def test_truncated_gzip(tmp_path):
    """Cut in its compressed stream: refused at the byte of the trace's JSON where the stream ends, the bytes a
    streaming decompressor gets from what is left."""
    import zlib

    path = tmp_path / "cut.json.gz"
    data = CPU.read_bytes()
    cut = data[: len(data) // 2]
    path.write_bytes(cut)
    error = _fails(path, "truncated")
    held = len(zlib.decompressobj(wbits=31).decompress(cut))
    assert 0 < held < len(gzip.decompress(data))
    assert str(error.problems[0].where) == f"byte {held + 1:,}"


def test_gzip_garbage(tmp_path):
    path = tmp_path / "garbage.json.gz"
    path.write_bytes(b"\x1f\x8b" + bytes(range(256)) * 4)
    _fails(path, "not a valid gzip file")


def test_json_that_is_not_a_trace(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"name": "not a trace", "values": [1, 2, 3]}))
    _fails(path, 'no "traceEvents"')


def test_text_that_is_no_known_format(tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text("a,b,c\n1,2,3\n")
    _fails(path, "not a format Amdahl Desk imports")


def test_no_complete_events(tmp_path):
    path = tmp_path / "meta.json"
    events = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "x"}}] * 3
    path.write_text(json.dumps({"traceEvents": events}))
    _fails(path, "no complete events")


def test_broken_json_in_the_middle_names_event_and_byte(tmp_path, cpu_json, monkeypatch):
    monkeypatch.setattr(kineto, "BLOCK", 4096)
    monkeypatch.setattr(kineto, "_CUT_SLACK", 2048)
    at = cpu_json.index(b'"ph": "X"', len(cpu_json) // 3)
    path = tmp_path / "broken.json"
    path.write_bytes(cpu_json[:at] + b'"ph" "X"' + cpu_json[at + 9 :])
    err = _fails(path, "broken JSON")
    assert "event" in str(err) and "byte" in str(err)


def test_event_without_timestamp_names_the_event(tmp_path):
    events = [
        {"ph": "X", "name": "a", "cat": "cpu_op", "ts": 1, "dur": 2, "pid": 1, "tid": 1},
        {"ph": "X", "name": "b", "dur": 2},
    ]
    path = tmp_path / "nots.json"
    path.write_text(json.dumps({"traceEvents": events}))
    _fails(path, r"event 2.*no \"ts\"|event 2.*ts")


@pytest.mark.parametrize(
    ("dur", "says"),
    [
        (None, r'event 3: complete event "b" has no "dur" \(duration\)'),
        (-5, r'"b" lasts -5 µs; expected a duration of 0'),
    ],
)
def test_an_event_without_a_duration_of_0_or_more_is_refused_by_every_reader(tmp_path, capsys, dur, says):
    """A missing "dur" read as 0, and a negative one was used as it was: a step without its duration gave a mean
    step of 7.6 ms where the others took 9.6. The import, the what-if and a job's reader refuse it, naming it."""
    from amdahl_desk.cli import main

    b = {"ph": "X", "name": "b", "cat": "cpu_op", "ts": 5, "pid": 1, "tid": 1}
    if dur is not None:
        b["dur"] = dur
    events = [
        {"ph": "X", "name": "ProfilerStep#1", "cat": "user_annotation", "ts": 0, "dur": 50, "pid": 1, "tid": 1},
        {"ph": "X", "name": "a", "cat": "cpu_op", "ts": 1, "dur": 2, "pid": 1, "tid": 1},
        b,
    ]
    path = tmp_path / "nodur.json"
    path.write_text(json.dumps({"traceEvents": events}))
    _fails(path, says)
    capsys.readouterr()
    assert main(["whatif", str(path), "--speedup", "a=2"]) == 2
    assert re.search(says, capsys.readouterr().err)
    ranks = tmp_path / "job"
    ranks.mkdir()
    for r in range(2):
        doc = {"traceEvents": events, "distributedInfo": {"rank": r, "world_size": 2}}
        (ranks / f"rank{r}.json").write_text(json.dumps(doc))
    assert main(["job", str(ranks)]) == 2
    assert re.search(says, capsys.readouterr().err)


def test_no_steps_falls_back_to_the_whole_trace(tmp_path):
    events = [
        {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 6000},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1000, "dur": 2000},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 8000, "dur": 2000},
    ]
    path = tmp_path / "nosteps.json"
    path.write_text(json.dumps({"traceEvents": events}))
    result = import_trace(path)
    assert result.steps is None and result.step_time is None
    assert any("no ProfilerStep" in w for w in result.warnings) and "the whole trace" in result.boundary
    assert {c.name: c.time for c in result.components} == pytest.approx({"forward": 6, "Unattributed": 4})


def test_cancel_by_returning_false_and_by_raising(tmp_path, cpu_json, monkeypatch):
    monkeypatch.setattr(kineto, "BLOCK", 8192)
    path = tmp_path / "trace.json"
    path.write_bytes(cpu_json)
    calls = []

    def stop_at_third(done: int, total: int) -> bool:
        calls.append((done, total))
        return len(calls) < 3

    with pytest.raises(Cancelled):
        load_trace(path, stop_at_third)
    assert len(calls) == 3

    def raising(done: int, total: int) -> None:
        if done > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        load_trace(path, raising)


def test_progress_reaches_the_total(tmp_path, cpu_json, monkeypatch):
    monkeypatch.setattr(kineto, "BLOCK", 8192)
    path = tmp_path / "trace.json"
    path.write_bytes(cpu_json)
    seen: list[tuple[int, int]] = []
    load_trace(path, lambda d, t: seen.append((d, t)) or True)
    assert len(seen) > 5
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (len(cpu_json), len(cpu_json))


@pytest.mark.parametrize("maker", ["empty", "garbage", "notrace"])
def test_command_line_exit_2_and_no_output_file(tmp_path, capsys, maker):
    path = tmp_path / "in.json"
    path.write_bytes({"empty": b"", "garbage": b"\x1f\x8b\x08junk", "notrace": b'{"a": 1}'}[maker])
    out = tmp_path / "profile.xlsx"
    assert main(["import", str(path), "--out", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert "in.json" in err and "Traceback" not in err


def test_command_line_bad_options(tmp_path, capsys):
    assert main(["import", str(CPU), "--top", "0"]) == 2
    assert main(["import", str(CPU), "--out", str(tmp_path / "x.txt")]) == 2
    capsys.readouterr()
    assert main(["import", str(CPU), "--group-by", "function"]) == 2
    assert "grouping by function is for speedscope profiles" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.json")]) == 2
    assert main(["import", str(CPU), "--exclude-steps", ",".join(f"ProfilerStep#{i}" for i in range(1, 6))]) == 2
    # the model says what is wrong; the command line adds its flags for what to do about it, the window its controls
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith("every step is left out; keep at least one step or import the whole trace (--total)")
    )
    assert ImportOptions().top == 15


def test_a_trace_whose_events_have_no_category_is_refused_as_no_pytorch_trace(tmp_path):
    """A JAX (XLA) CPU trace as jax.profiler writes it: no event has a "cat", its work is on XLA's thread pool.
    It was imported as "PyTorch trace, grouped by op" from the busiest of its threads alone, the others' work
    (the largest fusion among it) left out without a word."""
    events = [
        {"ph": "M", "pid": 701, "name": "process_name", "args": {"name": "/host:CPU"}},
        {"ph": "M", "pid": 701, "tid": 7, "name": "thread_name", "args": {"name": "tf_XLAEigen/1"}},
        {"ph": "M", "pid": 701, "tid": 8, "name": "thread_name", "args": {"name": "tf_XLAEigen/2"}},
        {"ph": "X", "pid": 701, "tid": 7, "ts": 10.0, "dur": 50.0, "name": "dot"},
        {"ph": "X", "pid": 701, "tid": 7, "ts": 70.0, "dur": 5.0, "name": "tanh"},
        {"ph": "X", "pid": 701, "tid": 8, "ts": 12.0, "dur": 400.0, "name": "fusion.3"},
    ]
    path = tmp_path / "vm.trace.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"displayTimeUnit": "ns", "traceEvents": events}).encode()))
    _fails(path, r'no event has a category \("cat": cpu_op, user_annotation, kernel …\).*JAX or TensorFlow')
