"""An imported trace gives each component the time range of its fastest and slowest step."""

from __future__ import annotations

import json

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.traces import ImportOptions


def annotation(name: str, ts: float, dur: float) -> dict:
    return {"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur}


def trace(tmp_path, forward: list[float], backward: list[float | None]) -> str:
    events = []
    for k, (f, b) in enumerate(zip(forward, backward, strict=True)):
        t0 = k * 20_000.0
        events.append(annotation(f"ProfilerStep#{k}", t0, 20_000.0))
        events.append(annotation("forward", t0 + 100, f))
        if b is not None:
            events.append(annotation("backward", t0 + 100 + f + 50, b))
    path = tmp_path / "steps.json"
    path.write_text(json.dumps({"schemaVersion": 1, "traceEvents": events}), encoding="utf-8")
    return str(path)


def test_each_component_ranges_from_its_fastest_to_its_slowest_step(tmp_path):
    # forward 4, 5, 6 ms; backward 3 and 9 ms in two steps, absent (0 ms) in the third.
    result = import_trace(trace(tmp_path, [4_000, 5_000, 6_000], [3_000, None, 9_000]), ImportOptions())
    parts = {c.name: c for c in result.components}
    assert parts["forward"].time == pytest.approx(5.0)
    assert (parts["forward"].time_low, parts["forward"].time_high) == pytest.approx((4.0, 6.0))
    assert parts["backward"].time == pytest.approx(4.0)
    assert (parts["backward"].time_low, parts["backward"].time_high) == pytest.approx((0.0, 9.0))
    # The rest of each 20 ms step is in no annotation: 13, 15 and 5 ms.
    rest = parts["Unattributed"]
    assert (rest.time_low, rest.time, rest.time_high) == pytest.approx((5.0, 11.0, 15.0))
    profile = result.to_profile()
    made = {c.name: c for c in profile.components}
    assert made["forward"].time_range == pytest.approx((4.0, 6.0))


def test_one_step_or_the_whole_trace_has_no_range(tmp_path):
    one = import_trace(trace(tmp_path, [4_000], [3_000]), ImportOptions())
    assert all(c.time_low is None and c.time_high is None for c in one.components)
    whole = import_trace(trace(tmp_path, [4_000, 5_000], [3_000, 3_000]), ImportOptions(total=True))
    assert all(c.time_low is None for c in whole.components)
    same = import_trace(trace(tmp_path, [4_000, 4_000], [3_000, 3_000]), ImportOptions()).to_profile()
    assert {c.name: c.time_low for c in same.components}["forward"] is None  # every step alike: a point
