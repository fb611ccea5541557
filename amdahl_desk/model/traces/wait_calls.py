"""Which CUDA calls may wait for the GPU, by name and duration: the one list the critical path uses."""

from __future__ import annotations

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
LONG_LAUNCH_US = 50.0  # a launch this long, and …
LONG_LAUNCH_RATIO = 8.0  # … this many times its name's median, may have waited for room in the launch queue

NO_WAIT, DEVICE_SYNC, STREAM_SYNC, COPY, LONG_LAUNCH = range(5)


def waits_by_row(
    names: list[str],
    row_name: IntArray,
    row_dur: FloatArray,
    is_call: np.ndarray,
    launched: IntArray,
    name_median: FloatArray,
) -> IntArray:
    """Per CPU row: NO_WAIT, DEVICE_SYNC, STREAM_SYNC (also event synchronisations), COPY (a copy or memset
    call that launched its copy) or LONG_LAUNCH (a launch far longer than its name's median)."""
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
    median = np.nan_to_num(name_median[row_name], nan=0.0) if len(names) else np.zeros(len(row_name))
    long = launches & (cls == NO_WAIT) & (row_dur >= np.maximum(LONG_LAUNCH_US, LONG_LAUNCH_RATIO * median))
    return np.asarray(np.where(long, LONG_LAUNCH, cls), dtype=np.int64)
