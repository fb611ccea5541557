"""A TorchScript function that forks a branch and waits for it: the step's thread waits inside the function's own
time (torch 2.14 writes no ``aten::wait`` there), and sometimes the function resumes on an inter-op thread once the
branch's future completes. The branch is the step's tail, so the step shortens with it.

The expected figures are read from the trace's JSON here, independently of the model: each step's duration, and
the own time (duration less its children's) of the branch's ``aten::bmm`` in it. The fixture and its twin with the
branch's batch halved are made by ``fixtures/make_fixtures.py fork`` (torch 2.14.1, CPU).
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict

import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import expect

FORK = expect.FIXTURES / "torch_fork.json.gz"
HALF = expect.FIXTURES / "torch_fork_half.json.gz"


def _steps_and_own(path) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Per step: its duration (µs), and per op name the own time of that name's events that start in it."""
    events = [e for e in json.loads(gzip.decompress(path.read_bytes()))["traceEvents"] if e.get("ph") == "X"]
    events = [e for e in events if e.get("cat") != "python_function"]
    by_thread = defaultdict(list)
    for e in events:
        e["own"] = float(e["dur"])
        by_thread[e["tid"]].append(e)
    for thread in by_thread.values():
        thread.sort(key=lambda e: (e["ts"], -e["dur"]))
        open_: list[dict] = []
        for e in thread:
            while open_ and open_[-1]["ts"] + open_[-1]["dur"] <= e["ts"]:
                open_.pop()
            if open_:
                open_[-1]["own"] -= e["dur"]
            open_.append(e)
    steps = {e["name"]: e for e in events if e["name"].startswith("ProfilerStep#")}
    own: dict[str, dict[str, float]] = {name: defaultdict(float) for name in steps}
    for e in events:
        for name, s in steps.items():
            if s["ts"] <= e["ts"] < s["ts"] + s["dur"] and e is not s:
                own[name][e["name"]] += e["own"]
    return {name: float(s["dur"]) for name, s in steps.items()}, own


@pytest.fixture(scope="module")
def fork():
    return prepare(load_rank_graph(FORK, None, None, None).trace)


def _per_step(pt, *speedups: Speedup) -> dict[str, float]:
    w = what_if(pt, list(speedups))
    return {name: predicted * 1000 for name, _, predicted in w.step_figures}  # µs


def test_every_step_replays_as_measured(fork):
    measured, _ = _steps_and_own(FORK)
    replayed = _per_step(fork, Speedup("aten::bmm", 1.0))
    assert replayed.keys() == measured.keys()
    for name, us in measured.items():
        assert replayed[name] == pytest.approx(us, abs=1e-3), name


def test_the_branch_is_the_tail_so_halving_its_bmm_shortens_every_step_by_half_their_own_time(fork):
    measured, own = _steps_and_own(FORK)
    predicted = _per_step(fork, Speedup("aten::bmm", 2.0))
    for name, us in measured.items():
        expected = us - own[name]["aten::bmm"] / 2
        assert predicted[name] == pytest.approx(expected, rel=0.01), name
    # the step's thread's own matrix products run beside the longer branch: they buy (almost) nothing
    overlapped = _per_step(fork, Speedup("aten::mm", 2.0))
    for name, us in measured.items():
        assert overlapped[name] == pytest.approx(us, rel=0.005), name
        assert us - overlapped[name] < own[name]["aten::mm"] / 2 * 0.1


def test_the_branch_measured_at_half_its_batch_is_predicted_within_8_percent(fork):
    """The natural experiment: the twin trace ran the branch (and the random inputs it needs) at half the batch.
    Each op's k is the ratio of its own time per step in the two traces; the step measured there is the answer."""
    measured, own = _steps_and_own(FORK)
    half, half_own = _steps_and_own(HALF)

    def per_step(table, name):
        return sum(t[name] for t in table.values()) / len(table)

    names = ("aten::bmm", "aten::tanh", "aten::normal_", "<forked function>", "aten::sum")
    speedups = [Speedup(n, per_step(own, n) / per_step(half_own, n)) for n in names]
    w = what_if(fork, speedups)
    after = sum(half.values()) / len(half) / 1000
    assert w.predicted == pytest.approx(after, rel=0.08)
    assert w.baseline - w.predicted > 0.9 * (sum(measured.values()) / len(measured) / 1000 - after)


def test_an_op_that_merely_overlaps_another_threads_work_does_not_wait_for_it(tmp_path):
    """The fork's evidence is a branch (``<forked function>``) started while the op ran: a pin-memory thread's
    event that happens to end 150 µs before the step thread's ``aten::mm`` does is no branch it waits for, so
    the mm's own 2 ms stay its work (2× takes 1 ms off each 3 ms step) and the other thread buys nothing."""
    from . import synthetic

    t = synthetic.Kineto()
    for s in range(3):
        b = s * 3000
        t.step(s + 1, b, 3000)
        t.op("aten::mm", b + 100, 2000)
        t.op("aten::relu", b + 2100, 800)
        t.op("aten::pin_memory", b + 600, 1350, tid=200)
    pt = prepare(load_rank_graph(t.write(tmp_path / "overlap.json"), None, None, None).trace)
    assert pt.graph.counts["forked_joins"] == 0
    assert what_if(pt, [Speedup("aten::mm", 2.0)]).predicted == pytest.approx(2.0)
    assert what_if(pt, [Speedup("aten::pin_memory", 100.0)]).predicted == pytest.approx(3.0)
