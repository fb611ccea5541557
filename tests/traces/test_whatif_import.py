"""What the import keeps for the what-if: the trace and grouping in the workbook, each component's events, an
annotation's GPU time, the critical-path block of ``import --json``, and ``compare`` of two traces."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.traces import ImportOptions

from . import expect, synthetic


def import_json(capsys, *args):
    assert main(["import", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_name(items):
    return {i["name"]: i for i in items}


def test_the_critical_path_block_of_an_annotated_step(capsys, tmp_path):
    """tests/traces/synthetic.py:phases has the derivations."""
    d = import_json(capsys, synthetic.phases().write(tmp_path / "phases.json"))
    comps = by_name(d["components"])
    assert comps["## forward ##"]["events"] == "annotation:## forward ##"
    assert comps["Unattributed"]["events"] == "outside-annotations"
    assert comps["## forward ##"]["gpu_time"] == pytest.approx(0.5)
    assert comps["## tail ##"]["gpu_time"] == 0
    assert comps["## forward ##"]["critical_path_time"] == pytest.approx(0.51)
    cp = d["critical_path"]
    assert cp["baseline"] == pytest.approx(0.725)
    assert cp["by_kind"] == pytest.approx(
        {
            "cpu": 0.215,
            "gpu_compute": 0.5,
            "gpu_communication": 0,
            "gpu_memory": 0,
            "launch_overhead": 0.01,
            "gpu_idle_or_gap": 0,
        }  # fmt: skip
    )
    paths = by_name(cp["components"])
    assert paths["## forward ##"]["on_path"] == pytest.approx(0.51)
    assert paths["## forward ##"]["slack"] == pytest.approx(0.51) and paths["## forward ##"]["k_moves"] is None
    assert paths["## forward ##"]["ceiling"] == pytest.approx(725 / 215)
    assert paths["## sync ##"]["on_path"] == pytest.approx(0.005)
    assert paths["## tail ##"]["slack"] == pytest.approx(0.2)


def test_a_kernel_with_slack_in_the_op_and_gpu_groupings(capsys, tmp_path):
    path = synthetic.mid_step_sync().write(tmp_path / "mid.json")
    gpu = by_name(import_json(capsys, path, "--group-by", "gpu")["critical_path"]["components"])
    assert gpu["GPU compute"]["on_path"] == pytest.approx(0.5)
    assert gpu["GPU compute"]["slack"] == pytest.approx(0.42)  # the path leaves k1 at K = 6.25
    assert gpu["GPU compute"]["k_moves"] == pytest.approx(6.25)
    ops = by_name(import_json(capsys, path, "--group-by", "op")["critical_path"]["components"])
    assert ops["opB"]["on_path"] == pytest.approx(0.2) and ops["opB"]["k_moves"] is None
    assert ops["opA"]["on_path"] == pytest.approx(0.01)  # its own time before the launch
    assert ops["Unattributed"]["on_path"] == 0


def test_the_workbook_remembers_the_trace_grouping_and_events(tmp_path):
    trace = synthetic.phases().write(tmp_path / "phases.json")
    out = tmp_path / "phases.xlsx"
    assert main(["import", str(trace), "--out", str(out), "--top", "5"]) == 0
    s = load_profile(out).profile.settings
    assert s.trace_source == str(trace)
    assert s.trace_grouping == "annotation; rank 0; top 5"
    assert dict(s.trace_events) == {
        "## sync ##": "annotation:## sync ##",
        "## tail ##": "annotation:## tail ##",
        "## forward ##": "annotation:## forward ##",
        "Unattributed": "outside-annotations",
    }


def test_a_damaged_trace_events_cell_is_refused_at_its_cell(tmp_path):
    from amdahl_desk.files import save_profile

    result = import_trace(synthetic.phases().write(tmp_path / "p.json"), ImportOptions())
    path = tmp_path / "p.xlsx"
    save_profile(result.to_profile(), path)
    import zipfile

    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    broken = {n: b.replace(b"annotation:## tail ##", b'annotation:## tail ##""') for n, b in parts.items()}
    bad = tmp_path / "bad.xlsx"
    with zipfile.ZipFile(bad, "w") as z:
        for n, b in broken.items():
            z.writestr(n, b)
    from amdahl_desk.model.errors import ProfileError

    with pytest.raises(ProfileError, match=r"Settings!B\d+.*trace events are not JSON"):
        load_profile(bad)


def independent_gpu_times(trace: dict) -> dict[str, float]:
    """Per outermost annotation of the steps' thread: the union of the GPU events launched (by correlation) while
    it ran, mean per step, in ms — plain Python over json.load."""
    events = expect.complete(trace)
    steps = expect.steps(trace)
    thread = (steps[0]["pid"], steps[0]["tid"])
    launch = {e["args"]["correlation"]: float(e["ts"]) for e in events if e.get("cat") == "cuda_runtime"
              and "correlation" in e.get("args", {})}  # fmt: skip
    gpu = [e for e in events if expect.gpu_kind(e)]
    anns = sorted(
        (e for e in events if e.get("cat") == "user_annotation" and (e["pid"], e["tid"]) == thread
         and not e["name"].startswith("ProfilerStep#")),
        key=lambda e: (float(e["ts"]), -float(e["dur"])),
    )  # fmt: skip
    totals: dict[str, float] = defaultdict(float)
    for s in steps:
        s0, s1 = float(s["ts"]), float(s["ts"]) + float(s["dur"])
        outer_end = -1e300
        spans = defaultdict(list)
        for a in anns:
            a0, a1 = float(a["ts"]), float(a["ts"]) + float(a["dur"])
            if a1 <= s0 or a0 >= s1 or a0 < outer_end:
                continue
            outer_end = a1
            spans[a["name"]].append((max(a0, s0), min(a1, s1)))
        for name, windows in spans.items():
            hit = sorted(
                (float(k["ts"]), float(k["ts"]) + float(k["dur"]))
                for k in gpu
                if (t := launch.get(k["args"].get("correlation"))) is not None
                and any(lo <= t < hi for lo, hi in windows)
            )
            covered, end = 0.0, -1e300
            for lo, hi in hit:  # a sweep, not a merge
                if hi > end:
                    covered += hi - max(lo, end)
                    end = hi
            totals[name] += covered
    return {k: v / len(steps) / 1000 for k, v in totals.items()}


def test_annotation_gpu_time_on_the_real_trace():
    result = import_trace(expect.ONE_GPU, ImportOptions())
    want = independent_gpu_times(expect.load(expect.ONE_GPU))
    got = {c.name: c.gpu_time for c in result.components if c.events.startswith("annotation:")}
    assert got.keys() <= want.keys() | {n for n, t in got.items() if t == 0}
    for name, t in got.items():
        assert t == pytest.approx(want.get(name, 0.0), rel=1e-9, abs=1e-9), name


def test_compare_two_traces_with_dependencies(capsys, tmp_path):
    before = synthetic.gpu_bound().write(tmp_path / "before.json")
    after = synthetic.gpu_bound(kernel=100).write(tmp_path / "after.json")
    assert main(["compare", str(before), str(after), "--group-by", "gpu", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)["with_dependencies"]
    assert d["predicted_speedup"] == pytest.approx(830 / 430)  # the GPU compute's measured 2×, on the path
    assert d["measured_speedup"] == pytest.approx(830 / 430)
    assert d["sum_speedup"] == pytest.approx(2.0)
    assert main(["compare", str(before), str(after), "--group-by", "gpu"]) == 0
    assert "With the trace's dependencies: the components' measured changes predict 1.93×" in capsys.readouterr().out
