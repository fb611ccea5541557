"""What a name in a trace means, and the scaling class it suggests: the one table of name rules.

A class the trace itself says (a collective, by its library's or operation's name) is known; every other class
is the import's guess — from a rule below, or ``parallel`` when no rule knows the name — and is marked as such
in the profile until a person chooses one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..profile import Scaling
from .origins import Reason

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
# All-to-all in its short spellings, and the phases that distribute a batch's sparse features or embeddings
# between ranks (TorchRec's "## sparse_data_dist ##", input_dist, output_dist, KJTAllToAll).
_DISTRIBUTION = re.compile(
    r"all2all|(?<![a-z])a2a(?![a-z])|alltoall|all_to_all|all-to-all|"
    r"(?:data|input|output|embedding|emb|sparse|feature|kjt)[\s_\-]?dist(?:ribution|ribute)?(?![a-z])",
    re.IGNORECASE,
)
# Host time blocked on or spent in a copy: cudaMemcpy(Async), hipMemcpy, memcpy, Memcpy HtoD/DtoH.
_COPY = re.compile(r"memcpy|memcopy|mem[\s_\-]?copy", re.IGNORECASE)
# Waiting for the device or a stream: cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
# torch.cuda.synchronize, cudaStreamWaitEvent, aten::_local_scalar_dense (.item() waits for the GPU).
_SYNC = re.compile(r"synchroni[sz]e|streamwaitevent|_local_scalar_dense|\bsync\b", re.IGNORECASE)
_DATA = re.compile(
    r"dataloader|data[\s_\-]?load|dataset|input[\s_\-]?pipeline|next[\s_\-]?batch|wait[\s_\-]?for[\s_\-]?batch|"
    r"(?:load|get|fetch|copy|read)[\s_\-]?(?:the[\s_\-]?)?batch|prefetch|collate|__next__",
    re.IGNORECASE,
)
# GPU kernels that move data between ranks: the collective libraries' (NCCL's ncclKernel_…/ncclDevKernel_…,
# RCCL's), symmetric-memory collectives (multimem_all_reduce_kernel, one_shot_all_reduce, two_shot_all_reduce),
# custom all-reduce kernels (cross_device_reduce_1stage), and any kernel named after a collective operation.
_COMM_KERNEL = re.compile(
    r"nccl|rccl|multimem_|one_?shot_?all_?reduce|two_?shot_?all_?reduce|cross_?device_?reduce|"
    r"all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|alltoallv?|send_?recv",
    re.IGNORECASE,
)


CPU_COLLECTIVE_PREFIXES = ("gloo:",)  # CPU operations that are collectives themselves (gloo's, on its run-loop threads)


def is_cpu_collective(name: str) -> bool:
    """A CPU operation that is a collective itself: ``gloo:all_reduce`` on one of gloo's run-loop threads."""
    return name.lower().startswith(CPU_COLLECTIVE_PREFIXES)


def is_collective(name: str) -> bool:
    """True for the name of a collective operation or annotation, in any spelling or library."""
    if _LIBRARY.search(name):
        return True
    squashed = _SEPARATORS.sub("", name).lower()
    for word in _NOT_COLLECTIVE:
        squashed = squashed.replace(word, "")
    return any(word in squashed for word in _COLLECTIVE_WORDS)


def is_distribution(name: str) -> bool:
    """True for all-to-all and the phases that distribute data between ranks (TorchRec's sparse_data_dist)."""
    return _DISTRIBUTION.search(name) is not None


def is_copy(name: str) -> bool:
    """True for memory copies (the host waiting on or issuing them)."""
    return _COPY.search(name) is not None


def is_synchronisation(name: str) -> bool:
    """True for waits on the device, a stream or an event."""
    return _SYNC.search(name) is not None


def is_data_loading(name: str) -> bool:
    """True for names of the input pipeline: data loaders, batch fetching, collation."""
    return _DATA.search(name) is not None


@dataclass(frozen=True)
class NameRule:
    """Names that ``matches`` get ``scaling``; ``known``: the name says what the time is (not a guess)."""

    what: Reason
    matches: Callable[[str], bool]
    scaling: Scaling
    known: bool = False


# The rules, first match wins: communication before the rest (a "data_dist" phase is not data loading).
RULES = (
    NameRule(Reason.COLLECTIVE, is_collective, Scaling.COMMUNICATION, known=True),
    NameRule(Reason.DISTRIBUTION, is_distribution, Scaling.COMMUNICATION),
    NameRule(Reason.COPY, is_copy, Scaling.SERIAL),
    NameRule(Reason.SYNCHRONISATION, is_synchronisation, Scaling.SERIAL),
    NameRule(Reason.DATA_LOADING, is_data_loading, Scaling.SERIAL),
)
UNATTRIBUTED = "Unattributed"  # time in no annotation or event: between phases, in Python, waiting


@dataclass(frozen=True)
class NameClass:
    """The class a name suggests, whether it is a guess, and why (for the component's tooltip and notes)."""

    scaling: Scaling
    guessed: bool
    why: Reason


def classify(name: str) -> NameClass:
    """The scaling class a person would give a component of this name, and whether the import only guesses it."""
    for rule in RULES:
        if rule.matches(name):
            return NameClass(rule.scaling, not rule.known, rule.what)
    if name == UNATTRIBUTED:
        return NameClass(Scaling.SERIAL, True, Reason.UNATTRIBUTED)
    return NameClass(Scaling.PARALLEL, True, Reason.UNKNOWN_NAME)


def is_communication_kernel(name: str) -> bool:
    """GPU kernels that are collectives: the libraries' (NCCL on NVIDIA, RCCL on AMD), symmetric-memory and custom
    all-reduce kernels, and kernels named after a collective (the one list the import, the GPU split and the
    what-if share)."""
    return _COMM_KERNEL.search(name) is not None
