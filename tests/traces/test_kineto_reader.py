"""The streaming reader: block cuts anywhere, lenient types, odd layouts; the same result as one big block."""

from __future__ import annotations

import gzip
import json

import pytest

from amdahl_desk.files.traces import import_trace, kineto
from amdahl_desk.model.traces import ImportOptions

from . import expect

CPU = expect.FIXTURES / "torch_cpu_steps.json.gz"


def _events(n_steps: int = 3) -> list[dict]:
    events = []
    for k in range(n_steps):
        t0 = k * 10_000
        events += [
            {
                "ph": "X",
                "cat": "user_annotation",
                "name": f"ProfilerStep#{k}",
                "pid": 7,
                "tid": 7,
                "ts": t0,
                "dur": 10_000,
            },
            {
                "ph": "X",
                "cat": "user_annotation",
                "name": "förward ✓",  # not ASCII: byte and character offsets differ
                "pid": 7,
                "tid": 7,
                "ts": t0 + 100.125,
                "dur": 4_000,
                # nested objects in a list: "}, {" inside an event, where a cut is not a boundary
                "args": {"Input Dims": [[1, 2], []], "shapes": [{"a": 1}, {"b": {"c": 2}}], "note": "x}, {y"},
            },
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": t0 + 200, "dur": 1_000},
            {"ph": "s", "id": k, "pid": 7, "tid": 7, "ts": t0 + 200, "cat": "ac2g", "name": "ac2g"},
        ]
    return events


def _summary(path):
    r = import_trace(path)
    return r.step_time, [(c.name, round(c.time, 9)) for c in r.components]


@pytest.mark.parametrize("block", [64, 100, 257, 1 << 20])
def test_any_block_size_reads_the_same(tmp_path, monkeypatch, block):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {"schemaVersion": 1, "traceEvents": _events(), "deviceProperties": [{"id": 0}, {"id": 1}]},
            ensure_ascii=False,
        )
    )
    monkeypatch.setattr(kineto, "BLOCK", block)
    monkeypatch.setattr(kineto, "_CUT_SLACK", 64)
    step_time, comps = _summary(path)
    assert step_time == pytest.approx(10)
    assert dict(comps) == pytest.approx({"förward ✓": 4, "Unattributed": 6})


def test_real_trace_in_small_blocks_equals_one_block(tmp_path, monkeypatch):
    whole = _summary(CPU)
    monkeypatch.setattr(kineto, "BLOCK", 1000)
    monkeypatch.setattr(kineto, "_CUT_SLACK", 500)
    assert _summary(CPU) == whole


def test_lenient_types_and_mixed_ids(tmp_path):
    events = _events(2)
    events[1]["ts"] = str(events[1]["ts"])  # a number as a string
    events[2]["pid"], events[2]["tid"] = "7", "7"  # string ids: another thread than 7/7
    events.append({"ph": "i", "name": "instant", "s": "g", "pid": "Traces", "tid": "x", "ts": 5})
    events.append(
        {
            "ph": "X",
            "cat": "Trace",
            "name": "PyTorch Profiler (0)",
            "pid": "Spans",
            "tid": "PyTorch Profiler",
            "ts": 0,
            "dur": 99_999,
        }
    )
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"traceEvents": events}))
    result = import_trace(path, ImportOptions(group_by="op"))
    assert result.step_time == pytest.approx(10)
    names = {c.name for c in result.components}
    assert "aten::mm" in names  # the second step's op, on thread 7/7
    assert result.total == pytest.approx(10)


def test_bare_array_with_and_without_closing_bracket(tmp_path):
    text = json.dumps(_events(2))
    for body in (text, text[:-1]):  # Chrome's array format may leave the ] out
        path = tmp_path / "bare.json"
        path.write_text(body)
        assert _summary(path)[0] == pytest.approx(10)


def test_events_before_other_keys_and_gzip(tmp_path):
    doc = (
        '{"traceEvents": '
        + json.dumps(_events(2))
        + ', "distributedInfo": {"rank": 3, "world_size": 8}, "INFO": ["a", "b"]}'
    )
    path = tmp_path / "after.json.gz"
    path.write_bytes(gzip.compress(doc.encode()))
    result = import_trace(path)
    assert result.rank == 3 and "rank 3 of 8" in result.boundary
