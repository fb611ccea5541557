"""Where Holistic Trace Analysis defines a figure as Amdahl Desk does, the two agree.

HTA's temporal breakdown of a rank: kernel time = first GPU event's start to the last one's end; compute =
the union of compute kernels; idle = kernel time − the union of all GPU events; non-compute = the rest, which
is Amdahl Desk's exposed communication + memory. HTA keeps only GPU events launched (same correlation) before
the last ProfilerStep starts, so the test hands the import the same events; the figures were recorded with
HTA 0.5.0 (fixtures/make_fixtures.py hta).
"""

from __future__ import annotations

import json

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.traces import ImportOptions

from . import expect

HTA = json.loads((expect.FIXTURES / "hta_temporal_breakdown.json").read_text())
NAMES = ["kineto_16gpu_nccl_rank0.json.gz", "kineto_1gpu_ns_timestamps.json.gz"]


@pytest.mark.parametrize("name", NAMES)
def test_temporal_breakdown_agrees_with_hta(tmp_path, name):
    trace = expect.load(expect.REAL / name)
    events = trace["traceEvents"]
    last_step = max(float(e["ts"]) for e in expect.steps(trace))
    launched = {
        e["args"]["correlation"]
        for e in expect.complete(trace)
        if "correlation" in e.get("args", {})
        and e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset")
        and float(e["ts"]) < last_step
    }
    trace["traceEvents"] = [
        e
        for e in events
        if not (expect.gpu_kind(e) and e.get("ph") == "X" and e.get("args", {}).get("correlation") not in launched)
    ]
    path = tmp_path / "as_hta_reads_it.json"
    path.write_text(json.dumps(trace))
    g = import_trace(path, ImportOptions(group_by="gpu", total=True)).gpu
    hta = HTA[name]
    us = 1000  # the import's ms → HTA's µs
    assert g.compute * us == pytest.approx(hta["compute_time(us)"], rel=1e-9)
    assert g.idle * us == pytest.approx(hta["idle_time(us)"], rel=1e-9)
    assert (g.exposed_communication + g.memory) * us == pytest.approx(hta["non_compute_time(us)"], rel=1e-9)
    assert g.span * us == pytest.approx(hta["kernel_time(us)"], rel=1e-9)
