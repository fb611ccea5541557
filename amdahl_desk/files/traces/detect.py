"""Which format a file is, told from its content (gzip or not), not from its name."""

from __future__ import annotations

from pathlib import Path

from ...model.traces.errors import TraceError
from ..kinds import RANK_SUFFIXES, nsys_native
from .nsys import is_nsys_header
from .source import open_stream

PYTORCH, SPEEDSCOPE, NSYS = "pytorch", "speedscope", "nsys"
_HEAD = 1 << 16


def detect_format(path: str | Path, source: str | None = None) -> str:
    """``"pytorch"`` (Chrome/Kineto trace), ``"speedscope"`` or ``"nsys"``; :class:`TraceError` otherwise."""
    source = source or Path(path).name
    if nsys_native(Path(path).name):
        raise TraceError(
            "this is an Nsight Systems report, which holds no table Amdahl Desk can read; export its kernel "
            "summary as CSV (nsys stats --report cuda_gpu_kern_sum --format csv --output kernels REPORT) and "
            "import the CSV",
            source,
        )
    with open_stream(str(path), source) as (stream, _tick):
        head = stream.read(_HEAD)
    text = head.lstrip()
    if not text:
        raise TraceError(
            "the file is empty; expected a PyTorch trace, a speedscope profile or an nsys stats CSV", source
        )
    if text[:1] in (b"{", b"["):
        if b"speedscope" in head or (b'"profiles"' in head and b'"shared"' in head):
            return SPEEDSCOPE
        return PYTORCH
    sample = head.decode("utf-8", errors="replace")
    if any(is_nsys_header(line) for line in sample.splitlines()):
        return NSYS
    raise TraceError(
        "not a format Amdahl Desk imports; expected a PyTorch/Chrome trace (.json, .json.gz), "
        "a speedscope profile (.json) or an nsys stats CSV report",
        source,
    )


def trace_files(folder: Path) -> list[Path]:
    """The files in ``folder`` that may be traces (one per rank), in name order."""
    found = [p for p in sorted(folder.iterdir()) if p.is_file() and p.name.lower().endswith(RANK_SUFFIXES)]
    if not found:
        raise TraceError("the folder has no profiler files (" + ", ".join(RANK_SUFFIXES) + ")", folder.name)
    return found
