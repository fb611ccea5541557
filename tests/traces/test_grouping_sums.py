"""Every grouping of every trace adds up to its step, and self time is never counted twice."""

from __future__ import annotations

import json
from functools import cache

import pytest

from amdahl_desk.files.traces import LoadedTrace, import_trace, load_trace
from amdahl_desk.model.traces import ImportOptions
from amdahl_desk.model.traces.grouping import op_parts
from amdahl_desk.model.traces.steps import find_steps, main_thread

from . import expect

STACK = expect.FIXTURES / "torch_with_stack.json.gz"
EPOCH = expect.FIXTURES / "torch_epoch.json.gz"
WORKERS = expect.FIXTURES / "torch_workers.json.gz"
TRACES = {
    "cpu": expect.FIXTURES / "torch_cpu_steps.json.gz",
    "stack": STACK,
    "epoch": EPOCH,
    "workers": WORKERS,
    "gloo": expect.FIXTURES / "gloo" / "rank1.json.gz",
    "nccl16": expect.NCCL16,
    "one_gpu": expect.ONE_GPU,
}


@cache
def _loaded(key: str) -> LoadedTrace:
    return load_trace(TRACES[key])


@cache
def _trace(key: str) -> dict:
    return expect.load(TRACES[key])


def _steps_of(key: str) -> list[tuple[str, float]]:
    return [(s["name"], float(s["dur"]) / 1000) for s in expect.steps(_trace(key))]


@pytest.mark.parametrize("key", sorted(TRACES))
@pytest.mark.parametrize("group_by", ["annotation", "op", "gpu"])
def test_the_rows_of_each_step_add_up_to_the_step(key, group_by):
    loaded = _loaded(key)
    if group_by == "gpu" and not any(r.events.has_gpu for r in loaded.ranks):
        pytest.skip("no GPU events")
    names = [n for n, _ in _steps_of(key)]
    for name, duration in _steps_of(key):
        options = ImportOptions(group_by=group_by, top=3, exclude_steps=frozenset(set(names) - {name}))
        result = loaded.summarise(options)
        assert any(c.name == "Unattributed" for c in result.components) or group_by == "gpu"
        # the GPU timeline's rows add up to the step's GPU stretch, the others to its CPU time
        want = result.gpu.span if group_by == "gpu" else duration
        assert sum(c.time for c in result.components) == pytest.approx(want, rel=1e-9, abs=1e-9), (name, group_by)
    mean = loaded.summarise(ImportOptions(group_by=group_by, top=None))
    want = mean.gpu.span if group_by == "gpu" else expect.mean_step_ms(_trace(key))
    assert mean.total == pytest.approx(want, rel=1e-9)


def _self_times(key: str) -> dict[str, float]:
    """The op grouping's rows before they are ranked and named (long names are cut in the import result)."""
    events = _loaded(key).ranks[0].events
    steps = find_steps(events)
    windows = [(s.start, s.end) for s in steps]
    parts = op_parts(events, main_thread(events, steps), windows, windows)
    return {p.name: p.time / len(windows) / 1000 for p in parts}


@pytest.mark.parametrize("key", ["stack", "nccl16", "one_gpu", "workers", "epoch"])
def test_op_self_times_match_an_independent_sweep(key):
    got = _self_times(key)
    want = expect.self_times_ms(_trace(key))
    for name in set(got) | set(want):
        assert got.get(name, 0.0) == pytest.approx(want.get(name, 0.0), rel=1e-9, abs=1e-12), name
    assert sum(got.values()) == pytest.approx(expect.mean_step_ms(_trace(key)), rel=1e-9)


def test_python_functions_of_a_stack_trace_keep_only_their_own_time():
    result = import_trace(STACK, ImportOptions(group_by="op", top=None))
    assert result.total == pytest.approx(result.step_time, rel=1e-9)  # 2.2 times the step before
    steps = result.step_time
    train_step = next(c for c in result.components if c.name.endswith(": _train_step"))
    assert train_step.time < 0.05 * steps  # the work done inside its annotations is theirs


def _write(tmp_path, events: list[dict]):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"traceEvents": events}))
    return path


def _event(name: str, cat: str, ts: float, dur: float) -> dict:
    return {"ph": "X", "name": name, "cat": cat, "pid": 1, "tid": 1, "ts": ts, "dur": dur}


def test_an_annotation_that_starts_inside_enter_and_outlives_it_is_not_its_child(tmp_path):
    # train_step calls record_function's __enter__, in which the annotation starts; the annotation outlives it
    # and ends inside __exit__. By hand: train_step owns 0–10 and 55–100, __enter__ 10–11, the annotation
    # 11–20 and 30–48, the op 20–30, __exit__ 48–55.
    path = _write(
        tmp_path,
        [
            _event("ProfilerStep#1", "user_annotation", 0, 100),
            _event("train.py(7): train_step", "python_function", 0, 100),
            _event("profiler.py(1): __enter__", "python_function", 10, 2),
            _event("forward", "user_annotation", 11, 39),
            _event("aten::mm", "cpu_op", 20, 10),
            _event("profiler.py(2): __exit__", "python_function", 48, 7),
        ],
    )
    result = import_trace(path, ImportOptions(group_by="op", top=None))
    got = {c.name: c.time * 1000 for c in result.components}
    assert got == pytest.approx(
        {
            "train.py(7): train_step": 55,
            "profiler.py(1): __enter__": 1,
            "forward": 27,
            "aten::mm": 10,
            "profiler.py(2): __exit__": 7,
            "Unattributed": 0,
        }
    )
    annotations = import_trace(path, ImportOptions(group_by="annotation", top=None))
    assert {c.name: c.time * 1000 for c in annotations.components} == pytest.approx({"forward": 39, "Unattributed": 61})


def test_annotations_that_overlap_without_nesting_share_the_time_once(tmp_path):
    path = _write(
        tmp_path,
        [
            _event("ProfilerStep#1", "user_annotation", 0, 100),
            _event("a", "user_annotation", 0, 40),
            _event("b", "user_annotation", 30, 40),  # starts inside a and ends after it: 40–70 is b's
            _event("c", "user_annotation", 50, 10),  # inside b
        ],
    )
    result = import_trace(path, ImportOptions(group_by="annotation", top=None))
    assert {c.name: c.time * 1000 for c in result.components} == pytest.approx({"a": 40, "b": 30, "Unattributed": 30})


def test_an_epoch_annotation_around_the_steps_is_context_not_a_phase():
    trace = _trace("epoch")
    names = {e["name"] for e in expect.complete(trace) if e.get("cat") == "user_annotation"}
    assert "epoch_0" in names  # the fixture has the annotation, around every step but the first
    result = import_trace(EPOCH)
    got = {c.name: c.time for c in result.components}
    assert "epoch_0" not in got
    want = expect.outermost_annotations_ms(trace)
    assert set(want) == {"data_loading", "forward", "backward", "optimizer_step"}
    for name, t in want.items():
        assert got[name] == pytest.approx(t, rel=1e-9)
    ops = import_trace(EPOCH, ImportOptions(group_by="op", top=None))
    assert "epoch_0" not in {c.name for c in ops.components}
    whole = import_trace(EPOCH, ImportOptions(total=True))
    assert "epoch_0" not in {c.name for c in whole.components}


def test_an_annotation_inside_a_step_that_lasts_the_whole_step_is_still_a_phase(tmp_path):
    # it contains no step (it starts after the step does): one phase at 100%, as the trace says
    path = _write(
        tmp_path,
        [_event("ProfilerStep#1", "user_annotation", 0, 100), _event("train", "user_annotation", 1, 99)],
    )
    got = {c.name: c.time * 1000 for c in import_trace(path, ImportOptions(top=None)).components}
    assert got == pytest.approx({"train": 99, "Unattributed": 1})
