"""Traces made with the real tools (torch.profiler on CPU, a two-rank gloo all_reduce) against json.load sums."""

from __future__ import annotations

import gzip
import shutil

import pytest

from amdahl_desk.files.traces import import_trace, load_trace
from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces import ImportOptions, TraceError

from . import expect

CPU = expect.FIXTURES / "torch_cpu_steps.json.gz"
GLOO = expect.FIXTURES / "gloo"


def test_cpu_trace_phases_per_step():
    trace = expect.load(CPU)
    result = import_trace(CPU)
    assert result.group_by == "annotation" and result.gpu is None
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace), rel=1e-9)
    got = {c.name: c for c in result.components}
    want = expect.outermost_annotations_ms(trace)
    assert set(want) == {"data_loading", "forward", "backward", "optimizer_step"}  # loss is nested in forward
    for name, t in want.items():
        assert got[name].time == pytest.approx(t, rel=1e-9)
    assert got["data_loading"].scaling is Scaling.SERIAL
    assert got["forward"].scaling is Scaling.PARALLEL
    assert result.total == pytest.approx(result.step_time, rel=1e-9)


def test_plain_json_reads_like_gzip(tmp_path):
    plain = tmp_path / "trace.json"
    with gzip.open(CPU) as src, open(plain, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert import_trace(plain).components == import_trace(CPU).components


def test_slow_step_flagged_and_left_out():
    trace = expect.load(CPU)
    result = import_trace(CPU, ImportOptions(exclude_flagged=True))
    flagged = [s.name for s in result.steps if s.flagged]
    assert flagged == ["ProfilerStep#3"]  # the step that waited 20 ms for its batch
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace, skip={"ProfilerStep#3"}), rel=1e-9)
    assert any("ProfilerStep#3" in w for w in import_trace(CPU).warnings)


def test_op_grouping_top_n_and_other():
    result = import_trace(CPU, ImportOptions(group_by="op", top=5))
    names = [c.name for c in result.components]
    assert len(names) == 7 and names[-2:] == ["Other", "Unattributed"]
    times = [c.time for c in result.components[:5]]
    assert times == sorted(times, reverse=True)
    assert result.total == pytest.approx(result.step_time, rel=1e-6)


def test_gloo_ranks_from_a_folder():
    traces = [expect.load(GLOO / f"rank{r}.json.gz") for r in (0, 1)]
    step_times = [expect.mean_step_ms(t) for t in traces]
    result = import_trace(GLOO)
    assert [r.rank for r in result.ranks] == [0, 1]
    assert [r.step_time for r in result.ranks] == pytest.approx(step_times, rel=1e-9)
    slowest = max((0, 1), key=lambda r: step_times[r])
    assert [r.slowest for r in result.ranks] == [r == slowest for r in (0, 1)]
    # The rank imported is the one the other waits for: it reaches the all-reduce last, so its all-reduce takes
    # least (the other's is mostly waiting) — here not the slowest rank, whose step holds that waiting.
    reduce = [expect.outermost_annotations_ms(t)["grad_allreduce"] for t in traces]
    straggler = min((0, 1), key=lambda r: reduce[r])
    assert straggler != slowest
    assert [r.straggler for r in result.ranks] == [r == straggler for r in (0, 1)]
    assert result.rank == straggler and f"rank {straggler} of 2 (the straggler" in result.boundary
    allreduce = next(c for c in result.components if c.name == "grad_allreduce")
    assert allreduce.scaling is Scaling.COMMUNICATION


def test_gloo_chosen_rank_and_files_in_any_order():
    trace1 = expect.load(GLOO / "rank1.json.gz")
    result = import_trace([GLOO / "rank1.json.gz", GLOO / "rank0.json.gz"], ImportOptions(rank=1))
    assert result.rank == 1
    got = {c.name: c.time for c in result.components}
    for name, t in expect.outermost_annotations_ms(trace1).items():
        assert got[name] == pytest.approx(t, rel=1e-9)
    # rank 1 waited in compute (the straggler's sleep), rank 0 in the all_reduce
    assert got["compute"] > got["grad_allreduce"]
    with pytest.raises(TraceError, match="rank 5 is not among the traces"):
        load_trace(GLOO).summarise(ImportOptions(rank=5))


def test_gpu_grouping_without_gpu_events_is_refused():
    with pytest.raises(TraceError, match="no GPU events"):
        import_trace(CPU, ImportOptions(group_by="gpu"))
