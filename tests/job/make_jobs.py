"""Synthetic jobs (one Kineto trace per rank) whose answers are worked out by hand in the tests.

Every rank's step: an optional CPU operator (``cpu`` µs: the data loader of a CPU straggler), a launch of
``kernel_A`` (``a`` µs on stream 7), an all-reduce launched inside ``nccl:all_reduce`` that ends when the
last rank has reached it plus ``transfer``, a ``cudaDeviceSynchronize`` that returns when it ends, and the
step's end there. Run as a script to write the hand-worked 4-rank example: ``python tests/job/make_jobs.py OUT``.
"""

from __future__ import annotations

import gzip
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

PID, TID, DEVICE = 100, 100, 0
STEP_GAP = 100_000.0  # µs between the steps' starts


@dataclass
class Rank:
    rank: int
    world: int
    host: str | None = None
    clock: float = 0.0  # this host's clock: added to every time
    events: list[dict] = field(default_factory=list)
    corr: int = 1000

    def x(self, cat: str, name: str, ts: float, dur: float, tid: int = TID, pid: int = PID, **args: object) -> None:
        e: dict = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts + self.clock, "dur": dur}
        if args:
            e["args"] = args
        self.events.append(e)

    def call(self, name: str, ts: float, dur: float) -> int:
        self.corr += 1
        self.x("cuda_runtime", name, ts, dur, correlation=self.corr)
        return self.corr

    def launch(self, ts: float, kernel: str, k_ts: float, k_dur: float, stream: int = 7, cat: str = "kernel") -> int:
        c = self.call("cudaLaunchKernel", ts, 5)
        self.x(cat, kernel, k_ts, k_dur, pid=DEVICE, tid=stream, device=DEVICE, stream=stream, correlation=c)
        return c

    def comms(self, ts: float, group: str, seq: int) -> None:
        self.x("cpu_op", "record_param_comms", ts, 1, **{"Process Group Name": group, "Seq": seq,
               "Collective name": "allreduce"})  # fmt: skip

    def write(self, folder: Path, gz: bool = True) -> Path:
        info: dict = {"backend": "nccl", "rank": self.rank, "world_size": self.world}
        doc: dict = {"schemaVersion": 1, "distributedInfo": info}
        if self.host is not None:
            doc["host_name"] = self.host
        doc["traceEvents"] = self.events
        path = folder / f"rank{self.rank}.json{'.gz' * gz}"
        data = json.dumps(doc).encode()
        path.write_bytes(gzip.compress(data) if gz else data)
        return path


def allreduce_job(
    a: list[list[float]],
    transfer: float = 3000.0,
    cpu: list[list[float]] | None = None,
    second_stream: bool = False,
    hosts: list[str] | None = None,
    clocks: list[float] | None = None,
    steps_of: list[int] | None = None,
) -> list[Rank]:
    """``a[r][s]``: kernel A's time on rank r in step s; ``cpu[r][s]``: a CPU op before its launch.

    Step s of every rank starts at s × STEP_GAP (on the job's clock); the all-reduce on every rank ends at
    start + max over ranks of (cpu + a) + transfer; the sync returns and the step ends then. With
    ``second_stream`` the all-reduce runs on stream 20 after a cudaStreamWaitEvent on kernel A (DDP).
    """
    n = len(a)
    ranks = [Rank(r, n, hosts[r] if hosts else None, clocks[r] if clocks else 0.0) for r in range(n)]
    for s in range(len(a[0])):
        b = s * STEP_GAP
        ready = [(cpu[r][s] if cpu else 0.0) + a[r][s] for r in range(n)]
        end = b + max(ready) + transfer
        for r, t in enumerate(ranks):
            if steps_of is not None and s >= steps_of[r]:
                continue
            c = cpu[r][s] if cpu else 0.0
            t.x("user_annotation", f"ProfilerStep#{s + 1}", b, end - b)
            if c:
                t.x("cpu_op", "aten::data_loader_next", b, c)
            t.launch(b + c, "kernel_A", b + c, a[r][s])
            t.x("user_annotation", "nccl:all_reduce", b + c + 8, 10)
            stream = 7
            if second_stream:
                record = t.call("cudaEventRecord", b + c + 1, 2)
                wait = t.call("cudaStreamWaitEvent", b + c + 4, 2)
                t.x("cuda_sync", "Stream Wait Event", b + c + 5, 1, pid=DEVICE, tid=20, correlation=wait,
                    device=DEVICE, stream=20, wait_on_stream=7, wait_on_cuda_event_record_corr_id=record)  # fmt: skip
                stream = 20
            t.launch(b + c + 10, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", b + ready[r], end - b - ready[r], stream)
            t.call("cudaDeviceSynchronize", b + c + 20, end - (b + c + 20))
    return ranks


def groups_job(a: list[float], tp: float = 1000.0, dp: float = 2000.0) -> list[Rank]:
    """Four ranks: kernel A, an all-reduce in the tensor-parallel pair ({0, 1}: group "1", {2, 3}: group "2"),
    then one over all four (group "0"), each announced by ``record_param_comms``. Pair p's all-reduce ends at
    max(a in the pair) + tp; the last at max(a) + tp + dp, where the step ends."""
    ranks = [Rank(r, 4) for r in range(4)]
    pair_end = [max(a[0], a[1]) + tp, max(a[2], a[3]) + tp]
    end = max(pair_end) + dp
    for r, t in enumerate(ranks):
        p = r // 2
        t.x("user_annotation", "ProfilerStep#1", 0, end)
        t.launch(0, "kernel_A", 0, a[r])
        t.comms(6, str(p + 1), 0)
        t.x("user_annotation", "nccl:all_reduce", 8, 10)
        t.launch(10, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", a[r], pair_end[p] - a[r])
        t.comms(26, "0", 0)
        t.x("user_annotation", "nccl:all_reduce", 28, 10)
        t.launch(30, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", pair_end[p], end - pair_end[p])
        t.call("cudaDeviceSynchronize", 40, end - 40)
    return ranks


def example() -> list[Rank]:
    """The issue's job: kernel A 12, 10, 20, 11 ms on ranks 0–3, a 3 ms all-reduce: the step is 23.0 ms."""
    return allreduce_job([[12000.0], [10000.0], [20000.0], [11000.0]])


def gloo_job(c: list[float], transfer: float = 2000.0) -> list[Rank]:
    """gloo: each rank computes ``c[r]`` µs on its main thread (an operator), then ``gloo:all_reduce`` runs on
    its run-loop thread from there until max(c) + transfer, while the main thread waits in ``aten::wait``;
    the step ends with the all-reduce."""
    ranks = [Rank(r, len(c)) for r in range(len(c))]
    end = max(c) + transfer
    for r, t in enumerate(ranks):
        t.x("user_annotation", "ProfilerStep#1", 0, end)
        t.x("cpu_op", "aten::addmm", 0, c[r])
        t.x("cpu_op", "gloo:all_reduce", c[r], end - c[r], tid=TID + 100)
        t.x("cpu_op", "aten::wait", c[r], end - c[r])
    return ranks


def planned_workbook(folder: Path, book: Path) -> Path:
    """The job in ``folder`` as the window keeps it: rank 2's profile grouped by GPU, "Faster kernel A" (GPU compute
    2×, 1.5–4×, 90% likely to work, 3 days) ticked, a 13 ms target, saved with its Ranks sheet."""
    from dataclasses import replace

    from amdahl_desk.cli import main
    from amdahl_desk.files import load_profile, ranks_sheet, save_profile
    from amdahl_desk.files.traces.job import load_job
    from amdahl_desk.model.job.analysis import analyse_job
    from amdahl_desk.model.job.join import match
    from amdahl_desk.model.profile import Optimization

    assert main(["import", str(folder), "--group-by", "gpu", "--out", str(book)]) == 0
    profile = load_profile(book).profile
    profile.set_optimizations(
        [Optimization("Faster kernel A", ("GPU compute",), 2.0, speedup_low=1.5, speedup_high=4.0, confidence=0.9,
                      effort=3.0)]
    )  # fmt: skip
    profile.set_settings(replace(profile.settings, target_time=13.0))
    files = sorted(str(f) for f in folder.glob("rank*.json.gz"))
    job = analyse_job(match(load_job(files, "ProfilerStep#")))
    save_profile(profile, book, job=ranks_sheet(job, files, book.resolve().parent))
    return book


if __name__ == "__main__":  # python tests/job/make_jobs.py OUT [--workbook BOOK.xlsx]
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for r in example():
        print(r.write(out))
    if len(sys.argv) > 3 and sys.argv[2] == "--workbook":
        print(planned_workbook(out, Path(sys.argv[3])))
