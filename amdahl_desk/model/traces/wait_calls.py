"""Which CUDA calls may wait for the GPU, by name and duration: the one list the critical path uses.

Besides the calls that wait by their nature (synchronisations, synchronous copies), any runtime call can block:
a launch or an asynchronous copy when the launch queue is full, an allocator's free that synchronises. Such a
call takes longer than its name's unblocked calls do and returns right after some GPU work ends (the work whose
completion freed it); :mod:`.waits` checks the second half for each candidate this module marks ``BLOCKED``.
"""

from __future__ import annotations

import re

import numpy as np

from .events import FloatArray, IntArray

DEVICE_SYNC_CALLS = frozenset({"cudaDeviceSynchronize", "cuCtxSynchronize", "hipDeviceSynchronize"})
STREAM_SYNC_CALLS = frozenset(
    {
        "cudaStreamSynchronize",
        "cuStreamSynchronize",
        "hipStreamSynchronize",
        "cudaEventSynchronize",
        "cuEventSynchronize",
        "hipEventSynchronize",
    }
)
COPY_CALL_PREFIXES = ("cudaMemcpy", "cuMemcpy", "hipMemcpy", "cudaMemset", "cuMemset", "hipMemset")
BLOCK_SLACK_US = 20.0  # a call this much longer than its name's typical (unblocked) duration may have blocked …
RETURN_US = 20.0  # … when it returned within this long after some GPU work ended (measured returns: 2–7 µs),
RETURN_RATIO = 0.05  # or within this share of its duration (a thread that woke late from a long block)
TYPICAL_QUANTILE = 0.25  # a name's typical duration: most calls of a name run unblocked at least this often

NO_WAIT, DEVICE_SYNC, STREAM_SYNC, COPY, BLOCKED = range(5)

# Ops whose own time is a wait for another thread (torch.jit.wait on a torch.jit.fork's future, a Work's wait
# on a gloo collective's run-loop thread): aten::wait, prim::wait, torch.jit.wait, c10d::wait, Work.wait.
_THREAD_WAIT = re.compile(r"(?:^|::|\.)_?wait$", re.IGNORECASE)


def thread_waits(names: list[str]) -> np.ndarray:
    """Per name id: whether an op of that name waits for another thread (a join, not work)."""
    return np.fromiter((_THREAD_WAIT.search(n) is not None for n in names), dtype=bool, count=len(names))


def waits_by_row(
    names: list[str],
    row_name: IntArray,
    row_dur: FloatArray,
    is_call: np.ndarray,
    launched: IntArray,
    name_typical: FloatArray,
) -> IntArray:
    """Per CPU row: NO_WAIT, DEVICE_SYNC, STREAM_SYNC (also event synchronisations), COPY (a copy or memset
    call that launched its copy; it may also have blocked) or BLOCKED (a runtime call longer than its name's
    typical duration by ``BLOCK_SLACK_US`` or more)."""
    by_name = np.zeros(len(names), dtype=np.int64)
    for i, n in enumerate(names):
        if n in DEVICE_SYNC_CALLS:
            by_name[i] = DEVICE_SYNC
        elif n in STREAM_SYNC_CALLS:
            by_name[i] = STREAM_SYNC
        elif n.startswith(COPY_CALL_PREFIXES):
            by_name[i] = COPY
    cls = np.where(is_call, by_name[row_name], NO_WAIT) if len(names) else np.zeros(len(row_name), dtype=np.int64)
    launches = is_call & (launched >= 0)
    cls = np.where((cls == COPY) & ~launches, NO_WAIT, cls)
    typical = np.nan_to_num(name_typical[row_name], nan=0.0) if len(names) else np.zeros(len(row_name))
    long = is_call & (cls == NO_WAIT) & (row_dur >= typical + BLOCK_SLACK_US)
    return np.asarray(np.where(long, BLOCKED, cls), dtype=np.int64)
