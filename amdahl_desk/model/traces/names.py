"""What a name in a trace means: a collective, data loading, a communication kernel, a memory copy."""

from __future__ import annotations

import re

from ..profile import Scaling

# Collectives in every spelling seen in the wild: allreduce, all_reduce, all-reduce, AllReduce,
# all_gather_into_tensor, reduce_scatter_base, alltoall, send/recv, and the library prefixes
# (nccl:, gloo:, c10d::, ncclDevKernel_…, ProcessGroupNCCL). Separators are dropped before matching.
_COLLECTIVE_WORDS = (
    "allreduce",
    "allgather",
    "reducescatter",
    "alltoall",
    "broadcast",
    "sendrecv",
    "barrier",
    "allgatherintotensor",
)
_LIBRARY = re.compile(r"nccl|rccl|gloo|c10d|processgroup|param_comms|\bmpi\b|hccl|oneccl", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s_\-:.#/]+")
# local tensor ops that merely contain a collective's word
_NOT_COLLECTIVE = ("broadcasttensors", "broadcastto", "broadcastshapes", "broadcastin")
_DATA = re.compile(
    r"dataloader|data[\s_\-]?load|dataset|input[\s_\-]?pipeline|next[\s_\-]?batch|wait[\s_\-]?for[\s_\-]?batch|"
    r"(?:load|get|fetch|copy|read)[\s_\-]?(?:the[\s_\-]?)?batch|prefetch|collate|__next__",
    re.IGNORECASE,
)
_COMM_KERNEL = re.compile(r"nccl|rccl", re.IGNORECASE)


def is_collective(name: str) -> bool:
    """True for the name of a collective operation or annotation, in any spelling or library."""
    if _LIBRARY.search(name):
        return True
    squashed = _SEPARATORS.sub("", name).lower()
    for word in _NOT_COLLECTIVE:
        squashed = squashed.replace(word, "")
    return any(word in squashed for word in _COLLECTIVE_WORDS)


def is_data_loading(name: str) -> bool:
    """True for names of the input pipeline: data loaders, batch fetching, collation."""
    return _DATA.search(name) is not None


def scaling_for(name: str) -> Scaling:
    """The scaling class a person would give a component of this name (editable after import)."""
    if is_collective(name):
        return Scaling.COMMUNICATION
    if is_data_loading(name):
        return Scaling.SERIAL
    return Scaling.PARALLEL


def is_communication_kernel(name: str) -> bool:
    """GPU kernels of the collective libraries (NCCL on NVIDIA, RCCL on AMD)."""
    return _COMM_KERNEL.search(name) is not None
