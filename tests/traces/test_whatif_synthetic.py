"""What-if on synthetic traces whose answers are worked out by hand in tests/traces/synthetic.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces.kineto_graph import read_kineto_graph
from amdahl_desk.model.traces.path_components import component_path
from amdahl_desk.model.traces.patterns import item_factors, parse_pattern_speedup
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import synthetic


def whatif_json(capsys, path, *speedups, extra=()):
    args = ["whatif", str(path), *[a for s in speedups for a in ("--speedup", s)], "--json", *extra]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def us(ms: float) -> float:
    return ms * 1000


@pytest.fixture
def trace(tmp_path):
    def make(name: str, gz: bool = False):
        return synthetic.CASES[name]().write(tmp_path / f"{name}.json{'.gz' * gz}")

    return make


def kinds_us(d) -> dict[str, float]:
    return {k: round(us(v), 6) for k, v in d["critical_path"]["by_kind"].items() if v}


def test_gpu_bound(trace, capsys):
    d = whatif_json(capsys, trace("gpu_bound", gz=True), "gemm=2")
    assert us(d["baseline"]) == pytest.approx(830)
    assert kinds_us(d) == {"cpu": 25, "launch_overhead": 5, "gpu_compute": 800}
    assert us(d["predicted"]) == pytest.approx(430)
    assert d["speedup"] == pytest.approx(830 / 430)
    assert d["sum_speedup"] == pytest.approx(1 / (30 / 830 + 400 / 830))
    assert d["ceiling"] == pytest.approx(830 / 65)
    assert d["matched"] == {"events": 4, "time": pytest.approx(0.8), "on_path": pytest.approx(0.8)}


def test_launch_bound(trace, capsys):
    path = trace("launch_bound")
    d = whatif_json(capsys, path, "relu=2")
    assert kinds_us(d) == {"cpu": 1000}
    assert d["speedup"] == pytest.approx(1.0)
    assert d["sum_speedup"] == pytest.approx(1 / (0.75 + 0.125))
    assert d["ceiling"] == pytest.approx(1.0)
    d = whatif_json(capsys, path, "cudaLaunchKernel=2")
    assert us(d["predicted"]) == pytest.approx(505)
    assert d["sum_speedup"] == pytest.approx(2.0)


def test_compute_and_communication_overlap_with_an_event_wait(trace, capsys):
    path = trace("overlap_with_event_wait")
    d = whatif_json(capsys, path, "nccl=2")
    assert kinds_us(d) == {
        "launch_overhead": 10,
        "gpu_compute": 400,
        "gpu_idle_or_gap": 2,
        "gpu_communication": 400,
        "cpu": 8,
    }
    assert us(d["predicted"]) == pytest.approx(818)
    assert d["sum_speedup"] == pytest.approx(820 / 620)
    assert d["dependencies"]["waits_recorded"] == 3  # the stream's wait, and the device sync's on two streams
    d = whatif_json(capsys, path, "gemm=2")
    assert us(d["predicted"]) == pytest.approx(620)
    assert d["sum_speedup"] == pytest.approx(820 / 420)


def test_an_event_wait_never_starts_a_kernel_before_the_one_ahead_on_its_stream(trace, capsys):
    """HTA's graph keeps only the wait edge when the waited kernel ends after the kernel ahead on the stream;
    sped up, its all-reduce would start at 110, before the copy ahead of it on stream 20 ends (293). Here it
    waits for both: 293–693, and the device sync returns at 701."""
    d = whatif_json(capsys, trace("queued_comm"), "gemm=4")
    assert us(d["predicted"]) == pytest.approx(701)


def test_mid_step_device_sync(trace, capsys):
    path = trace("mid_step_sync")
    d = whatif_json(capsys, path, "gemm=2")
    assert kinds_us(d) == {"cpu": 215, "launch_overhead": 10, "gpu_compute": 500}
    assert us(d["predicted"]) == pytest.approx(475)
    d = whatif_json(capsys, path, "gemm=10")
    assert us(d["predicted"]) == pytest.approx(305)
    assert d["speedup"] == pytest.approx(725 / 305)
    assert d["sum_speedup"] == pytest.approx(725 / 275)


def test_a_cpu_ops_own_time_is_scaled_not_its_childrens(trace, capsys):
    d = whatif_json(capsys, trace("mid_step_sync"), "opA=2")
    assert d["matched"]["time"] == pytest.approx(0.095)  # 100 µs less the 5 µs launch inside it
    assert us(d["predicted"]) == pytest.approx(720)


def test_several_steps_of_different_lengths_are_averaged(trace, capsys):
    d = whatif_json(capsys, trace("several_steps"), "gemm=2")
    assert d["steps"] == 2
    assert [round(us(s["baseline"])) for s in d["step_list"]] == [830, 725]
    assert us(d["baseline"]) == pytest.approx(777.5)
    assert us(d["predicted"]) == pytest.approx((430 + 475) / 2)
    assert d["speedup"] == pytest.approx(777.5 / 452.5)


def test_regex_patterns_case_and_products(trace, capsys):
    path = trace("gpu_bound")
    by_regex = whatif_json(capsys, path, "re:^GEMM_kern.l$=2")
    assert us(by_regex["predicted"]) == pytest.approx(430)
    by_case = whatif_json(capsys, path, "GEMM=2")
    assert by_case["predicted"] == pytest.approx(by_regex["predicted"])
    both = whatif_json(capsys, path, "gemm=2", "re:_kernel$=2")  # the same kernels twice: 4×
    assert us(both["predicted"]) == pytest.approx(15 + 4 * 50 + 5 + 10 + 5 - 5)  # k4 ends 215, +5 return, +10 op
    assert both["sum_speedup"] is None  # the two patterns' shares overlap
    assert both["patterns"][0]["events"] == both["patterns"][1]["events"] == 4


def test_patterns_never_match_user_annotations(trace, capsys):
    assert main(["whatif", str(trace("gpu_bound")), "--speedup", "ProfilerStep=2"]) == 2
    assert "matches no kernel" in capsys.readouterr().err


def test_the_last_equals_sign_splits_pattern_and_k():
    assert parse_pattern_speedup("re:a=b=2") == parse_pattern_speedup("re:a=b=2.0")
    assert parse_pattern_speedup("re:a=b=2").pattern == "re:a=b"


def test_baseline_reproduces_every_observed_time(trace):
    for name in synthetic.CASES:
        if name == "two_processes":
            continue  # refused (test_waiting_is_waiting)
        pt = prepare(read_kineto_graph(str(trace(name)), name))
        g = pt.graph
        observed = g.time - g.windows[g.step_of_point, 0]
        assert np.allclose(pt.baseline.time, observed, atol=1e-9), name
        assert np.allclose(pt.baseline.length, g.windows[:, 1] - g.windows[:, 0]), name


def pattern_mask(pt, item_mask):
    """The path's segments (points) whose owner is one of the items in ``item_mask`` (CPU rows, then GPU events)."""
    owner = pt.graph.owner
    return (owner >= 0) & item_mask[np.maximum(owner, 0)]


def test_slack_is_where_the_path_leaves_the_kernel(trace):
    pt = prepare(read_kineto_graph(str(trace("mid_step_sync")), "mid"))
    gemm = item_factors(pt.trace, [parse_pattern_speedup("gemm=2")]).matched[0]
    c = component_path(pt, "gemm", pattern_mask(pt, gemm))
    assert us(c.on_path) == pytest.approx(500)
    assert us(c.slack) == pytest.approx(420)
    assert c.k_moves == pytest.approx(6.25)
    assert c.ceiling == pytest.approx(725 / 305)
    b = component_path(pt, "opB", pattern_mask(pt, item_factors(pt.trace, [parse_pattern_speedup("opB=2")]).matched[0]))
    assert us(b.slack) == pytest.approx(200) and b.k_moves is None  # on the path to the end, even free


def test_what_if_api_matches_the_command(trace, capsys):
    path = trace("gpu_bound")
    w = what_if(prepare(read_kineto_graph(str(path), "x")), [parse_pattern_speedup("gemm=2")])
    assert w.to_json()["predicted"] == whatif_json(capsys, path, "gemm=2")["predicted"]
