"""Reading a job: one trace per rank (a folder, several files or a glob), each read in a worker process that
returns only the rank's compact graph (:class:`~amdahl_desk.model.job.rank_graph.RankGraph`: arrays of the
steps asked for), never the whole trace.

The workers are a ``concurrent.futures`` executor: a local process pool, or with ``scheduler`` a Dask
cluster's (``distributed.Client(address).get_executor()``, the optional extra ``amdahl-desk[cluster]``), so
the same code runs on one workstation or next to the traces on a cluster.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from ...model.errors import Problem, ProfileError
from ...model.job.rank_graph import RankGraph
from ...model.traces.errors import TraceError
from ...model.traces.patterns import Speedup
from .detect import PYTORCH, detect_format, trace_files

JobProgress = Callable[[int, int], None]  # (ranks read, ranks in all)


@dataclass(frozen=True)
class RankFile:
    path: str
    source: str  # the name a message uses
    order: int  # the file's place in the job: its rank when the trace names none


def job_files(paths: Sequence[str]) -> list[RankFile]:
    """The rank files named by ``paths``: files, folders (their traces, in name order) or globs.

    Raises :class:`TraceError` for a path that names nothing, a file named twice, or a job of no files.
    """
    found: list[Path] = []
    for text in paths:
        p = Path(text)
        if p.is_dir():
            found.extend(trace_files(p))
        elif p.is_file():
            found.append(p)
        elif any(c in text for c in "*?["):
            hits = sorted(Path(h) for h in glob.glob(text) if Path(h).is_file())
            if not hits:
                raise TraceError("the pattern matches no file", text)
            found.extend(hits)
        else:
            raise TraceError("no such file or folder", text)
    if not found:
        raise TraceError("the job has no rank traces", ", ".join(paths))
    seen: set[str] = set()
    out: list[RankFile] = []
    for f in found:
        key = str(f.resolve())
        if key in seen:  # a rank named twice joined alone was a job of one rank: say so
            raise TraceError("the file is named twice among the job's traces", str(f))
        seen.add(key)
        out.append(RankFile(str(f), f.name, len(out)))
    return out


def read_rank_file(
    f: RankFile, step: str, speedups: Sequence[Speedup], only_steps: frozenset[int] | None
) -> RankGraph | tuple[str | tuple[Problem, ...], str]:
    """A worker's task: the rank's compact graph, or (what is wrong, file) when the file cannot be read: a message,
    or the reader's problems (typed, their places counted: worded where they are shown)."""
    from .job_reader import read_rank

    try:
        if detect_format(Path(f.path), f.source) != PYTORCH:
            return (
                "a job needs PyTorch (Kineto) traces with their events and their order, not samples or a summary",
                f.source,
            )
        return read_rank(f.path, f.source, f.order, step, speedups, only_steps)
    except ProfileError as exc:
        return (exc.problems, f.source)
    except (OSError, ValueError, EOFError) as exc:
        return (f"cannot read the trace: {exc}", f.source)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def keep_freed_memory() -> None:
    """In a worker that reads rank after rank: let glibc keep the memory one rank freed for the next (a rank's
    JSON text, tens of MB, comes from the heap, not from a fresh mapping, and freed memory is not handed back),
    which saves the page faults of mapping it again for every rank. Nothing where there is no glibc."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_TRIM_THRESHOLD, 1 << 30)
    mallopt(M_MMAP_THRESHOLD, 32 << 20)  # glibc's largest on 64 bits


def _executor(scheduler: str | None, n: int) -> AbstractContextManager[Executor | None]:
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise TraceError(
                "--scheduler needs Dask's distributed package: pip install 'amdahl-desk[cluster]'", scheduler
            ) from None
        return _DaskExecutor(Client, scheduler)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    workers = min(n, cores)  # the cores this process may run on (a taskset or a container's share)
    if workers <= 1:
        return nullcontext(None)
    return ProcessPoolExecutor(max_workers=workers, initializer=keep_freed_memory)


def _reachable(address: str) -> None:
    """Refuse at once a tcp:// scheduler that refuses connections (Dask itself would retry for its timeout)."""
    import socket
    from urllib.parse import urlsplit

    if not address.startswith("tcp://"):
        return
    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError:
        raise TraceError("expected a scheduler address like tcp://host:8786", address) from None
    if host is None or port is None:
        raise TraceError("expected a scheduler address like tcp://host:8786", address)
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as exc:
        raise TraceError(f"cannot reach the Dask scheduler: {exc.strerror or exc}", address) from None


class _DaskExecutor(AbstractContextManager[Executor]):
    def __init__(self, client_type: type, address: str) -> None:
        _reachable(address)
        try:
            self.client = client_type(address, timeout="30s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise TraceError(f"cannot reach the Dask scheduler: {exc}", address) from None

    def __enter__(self) -> Executor:
        executor: Executor = self.client.get_executor()
        return executor

    def __exit__(self, *exc: object) -> None:
        self.client.close()


def load_job(
    paths: Sequence[str],
    step: str,
    speedups: Sequence[Speedup] = (),
    scheduler: str | None = None,
    only_steps: frozenset[int] | None = None,
    progress: JobProgress | None = None,
) -> list[RankGraph]:
    """Every rank's compact graph, read in parallel; raises :class:`TraceError` naming the first bad file."""
    files = job_files(paths)
    results: list[RankGraph | tuple[str | tuple[Problem, ...], str]] = []
    with _executor(scheduler, len(files)) as ex:
        if ex is None:
            for i, f in enumerate(files):
                results.append(read_rank_file(f, step, speedups, only_steps))
                if progress:
                    progress(i + 1, len(files))
        else:
            futures = [ex.submit(read_rank_file, f, step, speedups, only_steps) for f in files]
            for i, fut in enumerate(futures):
                results.append(fut.result())
                if progress:
                    progress(i + 1, len(files))
    out: list[RankGraph] = []
    for r in results:
        if isinstance(r, tuple):
            raise TraceError(*r)
        out.append(r)
    return out
