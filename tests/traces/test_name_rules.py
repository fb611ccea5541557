"""The name rules (one table in the model): which classes a trace says and which the import guesses."""

from __future__ import annotations

import pytest

from amdahl_desk.cli.json_traces import import_json
from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces import ImportOptions
from amdahl_desk.model.traces.names import RULES, classify

from . import expect

COMM, SERIAL, PARALLEL = Scaling.COMMUNICATION, Scaling.SERIAL, Scaling.PARALLEL


@pytest.mark.parametrize(
    ("name", "scaling", "guessed"),
    [
        # collectives: the name says what the time is
        ("nccl:all_reduce", COMM, False),
        ("grad_allreduce", COMM, False),
        ("KJTAllToAll", COMM, False),
        ("ncclDevKernel_AllGather_RING_LL", COMM, False),
        # all-to-all and distribution phases (TorchRec): communication, guessed from the name
        ("## sparse_data_dist ##", COMM, True),
        ("## wait_sparse_data_dist ##", COMM, True),
        ("input_dist", COMM, True),
        ("EmbeddingCollection.output_dist", COMM, True),
        ("a2a_fwd", COMM, True),
        ("all2all", COMM, True),
        # copies, synchronisations and data loading: serial, guessed
        ("cudaMemcpyAsync", SERIAL, True),
        ("cudaMemcpy", SERIAL, True),
        ("hipMemcpyAsync", SERIAL, True),
        ("Memcpy HtoD (Pageable -> Device)", SERIAL, True),
        ("cudaStreamSynchronize", SERIAL, True),
        ("cudaDeviceSynchronize", SERIAL, True),
        ("cudaEventSynchronize", SERIAL, True),
        ("cudaStreamWaitEvent", SERIAL, True),
        ("aten::_local_scalar_dense", SERIAL, True),
        ("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", SERIAL, True),
        ("## copy_batch_to_gpu ##", SERIAL, True),
        # nothing known: parallel, guessed; the time between phases: serial, guessed
        ("## forward ##", PARALLEL, True),
        ("aten::mm", PARALLEL, True),
        ("data_distance", PARALLEL, True),
        ("Unattributed", SERIAL, True),
    ],
)
def test_the_rules(name, scaling, guessed):
    found = classify(name)
    assert (found.scaling, found.guessed) == (scaling, guessed) and found.why


def test_communication_rules_come_before_data_loading():
    # "sparse_data_dist" names data, but it moves data between ranks: the first rule that matches wins
    order = [r.scaling for r in RULES]
    assert order.index(COMM) < order.index(SERIAL)


def test_the_16_gpu_traces_distribution_phase_and_copies():
    by_annotation = {c.name: c for c in import_trace(expect.NCCL16).components}
    dist = by_annotation["## sparse_data_dist ##"]
    assert dist.scaling is COMM and dist.guessed  # 72% of the step: input distribution, not parallel work
    assert by_annotation["## forward ##"].guessed and by_annotation["## forward ##"].scaling is PARALLEL
    by_op = {c.name: c for c in import_trace(expect.NCCL16, ImportOptions(group_by="op")).components}
    assert by_op["cudaMemcpyAsync"].scaling is SERIAL and by_op["cudaMemcpyAsync"].guessed
    gpu = {c.name: c for c in import_trace(expect.NCCL16, ImportOptions(group_by="gpu")).components}
    assert not gpu["Exposed communication"].guessed  # NCCL kernels: the trace says so
    assert all(c.guessed for n, c in gpu.items() if n != "Exposed communication")


def test_guesses_reach_the_profile_and_the_json():
    result = import_trace(expect.ONE_GPU)
    profile = result.to_profile()
    assert [c.scaling_guessed for c in profile.components] == [c.guessed for c in result.components]
    assert all(c.scaling_guessed for c in profile.components)
    assert all("scaling_guessed" in c for c in import_json(result)["components"])
