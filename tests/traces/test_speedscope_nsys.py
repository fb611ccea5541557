"""speedscope profiles (py-spy's, and written by hand) and nsys stats CSVs, against sums done by hand."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest

from amdahl_desk.files.traces import detect_format, import_trace
from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces import ImportOptions, TraceError

from . import expect

PYSPY = expect.FIXTURES / "pyspy.speedscope.json"
KERN = expect.FIXTURES / "nsys_cuda_gpu_kern_sum.csv"
MEM = expect.FIXTURES / "nsys_cuda_gpu_mem_time_sum.csv"


def test_pyspy_self_time_by_function():
    doc = json.loads(PYSPY.read_text())
    frames = doc["shared"]["frames"]
    want: dict[str, float] = defaultdict(float)
    for p in doc["profiles"]:
        for stack, w in zip(p["samples"], p["weights"], strict=True):
            want[frames[stack[-1]]["name"] if stack else "(no stack)"] += w * 1000  # seconds → ms
    result = import_trace(PYSPY, ImportOptions(top=None))
    assert detect_format(PYSPY) == "speedscope" and result.format == "speedscope" and result.group_by == "function"
    got = {c.name.split(" (")[0]: c.time for c in result.components}
    assert got == pytest.approx(dict(want))
    assert result.steps is None and result.step_time is None and result.gpu is None
    load = next(c for c in result.components if c.name.startswith("load_batch"))
    assert load.scaling is Scaling.SERIAL  # loading a batch is the input pipeline


def _doc(profiles: list[dict]) -> dict:
    frames = [
        {"name": "step", "file": "train.py", "line": 10},
        {"name": "matmul", "file": "model.py", "line": 3},
        {"name": "matmul", "file": "model.py", "line": 7},  # the same function, another line
        {"name": "matmul", "file": "other.py", "line": 3},  # another function of the same name
        {"name": "all_reduce", "file": "dist.py", "line": 1},
    ]
    return {
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": frames},
        "profiles": profiles,
    }


def test_same_function_on_several_lines_and_empty_stacks(tmp_path):
    sampled = {
        "type": "sampled",
        "name": "main",
        "unit": "milliseconds",
        "startValue": 0,
        "endValue": 20,
        "samples": [[0, 1], [0, 2], [0, 3], [0], [], [0, 4], []],
        "weights": [2, 3, 4, 1, 5, 6, 0.5],
    }
    path = tmp_path / "by_hand.json"
    path.write_text(json.dumps(_doc([sampled])))
    result = import_trace(path, ImportOptions(top=None))
    got = {c.name: c.time for c in result.components}
    assert got == pytest.approx(
        {
            "matmul (model.py)": 5,
            "matmul (other.py)": 4,
            "step (train.py)": 1,
            "all_reduce (dist.py)": 6,
            "(no stack)": 5.5,
        }
    )
    assert next(c for c in result.components if c.name.startswith("all_reduce")).scaling is Scaling.COMMUNICATION
    top = import_trace(path, ImportOptions(top=2))
    assert [c.name for c in top.components] == ["all_reduce (dist.py)", "matmul (model.py)", "Other", "(no stack)"]
    assert top.components[2].time == pytest.approx(5)


def test_evented_profile(tmp_path):
    evented = {
        "type": "evented",
        "name": "main",
        "unit": "microseconds",
        "startValue": 0,
        "endValue": 10000,
        "events": [
            {"type": "O", "frame": 0, "at": 0},
            {"type": "O", "frame": 1, "at": 1000},
            {"type": "C", "frame": 1, "at": 4000},
            {"type": "O", "frame": 2, "at": 5000},
            {"type": "C", "frame": 2, "at": 6000},
            {"type": "C", "frame": 0, "at": 9000},
        ],
    }
    path = tmp_path / "evented.json"
    path.write_text(json.dumps(_doc([evented])))
    got = {c.name: c.time for c in import_trace(path).components}
    # step: 0-1, 4-5, 6-9 → 5 ms; matmul (both lines): 3 + 1 = 4 ms
    assert got == pytest.approx({"step (train.py)": 5, "matmul (model.py)": 4})


def _by_full_name(result) -> dict[str, float]:
    """Long kernel names are shortened in the table; the full name is kept in the component's source."""
    out = {}
    for c in result.components:
        full = c.source.split(" row ", 1)[1][1:-1]
        assert c.name == full or (c.name.endswith("…") and full.startswith(c.name[:-1]))
        out[full] = c.time
    return out


def _csv_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    name = "Name" if "Name" in rows[0] else "Operation"
    return {r[name]: float(r["Total Time (ns)"]) / 1e6 for r in rows}


def test_nsys_kernel_summary():
    want = _csv_rows(KERN)
    result = import_trace(KERN, ImportOptions(top=None))
    assert detect_format(KERN) == "nsys" and result.format == "nsys"
    got = {c.name: c for c in result.components}
    assert _by_full_name(result) == pytest.approx(want)
    nccl = [c for c in result.components if c.name.startswith("nccl")]
    assert len(nccl) == 2 and all(c.scaling is Scaling.COMMUNICATION for c in nccl)
    assert got["ampere_sgemm_128x64_tn"].scaling is Scaling.PARALLEL
    assert result.steps is None


def test_nsys_kernel_and_memory_reports_together():
    result = import_trace([KERN, MEM], ImportOptions(top=None))
    want = {**_csv_rows(KERN), **_csv_rows(MEM)}
    assert _by_full_name(result) == pytest.approx(want)
    assert {c.group for c in result.components} == {"GPU kernel", "GPU memory"}


def test_speedscope_errors_name_the_place(tmp_path):
    bad = _doc([{"type": "sampled", "unit": "seconds", "samples": [[0], [9]], "weights": [1, 1]}])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(TraceError, match=r"profiles\[0\]\.samples\[1\].*frame 9"):
        import_trace(path)


@pytest.mark.parametrize("unit", ["bytes", "Bytes", "percent", 7, None, ""])
def test_a_profile_whose_unit_is_not_a_time_is_refused_naming_the_unit(tmp_path, unit):
    profiles = [
        {"type": "sampled", "unit": "milliseconds", "samples": [[0]], "weights": [3]},
        {"type": "sampled", "unit": unit, "samples": [[0], [1]], "weights": [4096, 512]},
    ]
    path = tmp_path / "memory.speedscope.json"
    path.write_text(json.dumps(_doc(profiles)))
    with pytest.raises(TraceError) as info:
        import_trace(path)
    message = str(info.value)
    assert message.startswith("memory.speedscope.json: profiles[1].unit: ") and repr(unit) in message
    assert "not a time" in message


def test_sample_counts_are_taken_as_milliseconds_with_a_warning(tmp_path):
    for profile in ({"unit": "none"}, {}):
        profile.update(type="sampled", samples=[[0], [1], [1]], weights=[1, 1, 2])
        path = tmp_path / "counts.json"
        path.write_text(json.dumps(_doc([profile])))
        result = import_trace(path, ImportOptions(top=None))
        assert {c.name: c.time for c in result.components} == pytest.approx(
            {"step (train.py)": 1, "matmul (model.py)": 3}
        )
        assert any('"none" (sample counts)' in w and "1 ms" in w for w in result.warnings)
        assert "sample counts" in result.boundary
