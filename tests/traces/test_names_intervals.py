"""Collective and data-loading names in their many spellings; interval unions against a brute-force count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces.intervals import union_length
from amdahl_desk.model.traces.names import classify, is_communication_kernel


@pytest.mark.parametrize(
    "name",
    [
        "allreduce",
        "all_reduce",
        "all-reduce",
        "AllReduce",
        "grad_allreduce",
        "nccl:all_reduce",
        "nccl:_all_gather_base",
        "nccl:_reduce_scatter_base",
        "## reduce_scatter_base ##",
        "all_gather_into_tensor",
        "nccl:all_to_all",
        "alltoall_fwd_single",
        "nccl:broadcast",
        "gloo:all_reduce",
        "c10d::allreduce_",
        "ProcessGroupNCCL::barrier",
        "record_param_comms",
    ],
)
def test_collectives_are_communication(name):
    assert classify(name).scaling is Scaling.COMMUNICATION


@pytest.mark.parametrize(
    "name", ["aten::broadcast_tensors", "aten::mm", "forward", "## backward ##", "Optimizer.step#SGD.step"]
)
def test_compute_is_parallel(name):
    assert classify(name).scaling is Scaling.PARALLEL


@pytest.mark.parametrize(
    "name",
    [
        "data_loading",
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        "## wait_for_batch ##",
        "## copy_batch_to_gpu ##",
        "load_batch",
        "collate_fn",
    ],
)
def test_data_loading_is_serial(name):
    assert classify(name).scaling is Scaling.SERIAL


def test_communication_kernels():
    assert is_communication_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *)")
    assert is_communication_kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t")
    assert is_communication_kernel("rcclGenericKernel")
    assert not is_communication_kernel("ampere_sgemm_128x64_tn")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=25))
def test_union_length_counts_each_covered_unit_once(pairs):
    starts = np.array([a for a, _ in pairs], dtype=float)
    ends = np.array([a + d for a, d in pairs], dtype=float)
    covered = {t for a, d in pairs for t in range(a, a + d)}
    assert union_length(starts, ends) == len(covered)
