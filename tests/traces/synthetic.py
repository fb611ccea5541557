"""Synthetic Kineto traces whose critical paths are worked out by hand (the derivations are in each docstring).

Run as a script to write them to a folder: ``python tests/traces/synthetic.py OUT_DIR``. The tests build
them in a temporary folder. Times are microseconds from the trace's start; every trace is physically
consistent (a kernel starts after its launch began and after the kernel before it on its stream ended).
"""

from __future__ import annotations

import gzip
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

PID, TID = 100, 100
DEVICE = 0


@dataclass
class Kineto:
    """Events of one rank, appended in any order; ``write`` makes a trace file."""

    events: list[dict] = field(default_factory=list)
    corr: int = 1000

    def x(self, cat: str, name: str, ts: float, dur: float, tid: int = TID, pid: int = PID, **args) -> dict:
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if args:
            e["args"] = args
        self.events.append(e)
        return e

    def step(self, number: int, ts: float, dur: float, prefix: str = "ProfilerStep#") -> None:
        self.x("user_annotation", f"{prefix}{number}", ts, dur)

    def op(self, name: str, ts: float, dur: float, tid: int = TID) -> None:
        self.x("cpu_op", name, ts, dur, tid=tid)

    def call(self, name: str, ts: float, dur: float, tid: int = TID) -> int:
        """A runtime call; returns its correlation id."""
        self.corr += 1
        self.x("cuda_runtime", name, ts, dur, tid=tid, correlation=self.corr)
        return self.corr

    def launch(
        self, ts: float, dur: float, kernel: str, k_ts: float, k_dur: float, stream: int = 7, cat: str = "kernel",
        call: str = "cudaLaunchKernel", tid: int = TID,
    ) -> int:  # fmt: skip
        """A launch call and the GPU event it launched; returns the correlation id."""
        c = self.call(call, ts, dur, tid)
        self.x(cat, kernel, k_ts, k_dur, pid=DEVICE, tid=stream, device=DEVICE, stream=stream, correlation=c)
        return c

    def sync(self, kind: str, call_corr: int, ts: float, dur: float, **args) -> None:
        """A ``cuda_sync`` event (Context Sync, Stream Sync, Event Sync, Stream Wait Event) of the call ``call_corr``."""
        self.x("cuda_sync", kind, ts, dur, pid=DEVICE, tid=args.get("stream", -1), correlation=call_corr,
               device=DEVICE, cuda_sync_kind=kind, **args)  # fmt: skip

    def write(self, path: Path) -> Path:
        doc = {"schemaVersion": 1, "distributedInfo": {"rank": 0}, "traceEvents": self.events}
        data = json.dumps(doc).encode()
        path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
        return path


def gpu_bound(kernel: float = 200) -> Kineto:
    """Four 200 µs kernels queued back to back, then a device synchronisation and a 10 µs op.

    CPU: launches at 10, 20, 30, 40 (5 µs each); cudaDeviceSynchronize 50–820; op 820–830; step 0–830.
    GPU: k1 15–215 (5 µs after its launch: the stream was idle), k2–k4 queued, each right after the one
    before, k4 ends 815. Critical path: step 0→10 (CPU) + launch latency 5 + 4 × 200 kernels + the sync's
    return 5 + op 10 = 830: CPU 25, launch 5, compute 800.
    ``gemm=2``: kernels 100 each, k4 ends 415, sync returns 420, step 430: 1.930× (the sum says 830/430 too).
    ``gemm`` free: k4 starts at its launch, 40; the sync waits from its start, 50, returns 55; step 65.
    With ``kernel=100`` it is the trace measured after making the kernels 2× faster: the step is 430.
    """
    t = Kineto()
    end = 15 + 4 * kernel + 5
    t.step(1, 0, end + 10)
    for i in range(4):
        t.launch(10 + 10 * i, 5, "gemm_kernel", 15 + kernel * i, kernel)
    t.call("cudaDeviceSynchronize", 50, end - 50)
    t.op("aten::item", end, 10)
    return t


def launch_bound() -> Kineto:
    """Fifty 20 µs launches back to back, each kernel 5 µs, 10 µs after its launch began (the stream idle).

    Critical path: the CPU, 1000. ``relu=2``: 1.0× (the sum says 1/(0.75 + 0.125) = 1.143×).
    ``cudaLaunchKernel=2``: launches 10 µs, kernel i at 10i + 10 to 10i + 15, the last ends at 505 after the
    CPU's 500: 1000/505 = 1.980× (the sum: all 1000 µs matched, 2.0×).
    """
    t = Kineto()
    t.step(1, 0, 1000)
    for i in range(50):
        t.launch(20 * i, 20, "relu_kernel", 20 * i + 10, 5)
    return t


def overlap_with_event_wait(queued_comm: bool = False) -> Kineto:
    """Compute on stream 7 overlapped by an all-reduce on stream 20 that waits for the first kernel.

    CPU: launch gemm k1 at 0 (k1 10–410, latency 10); cudaEventRecord 5–10 (on stream 7, after k1);
    cudaStreamWaitEvent 10–15 (stream 20 waits); launch the all-reduce 15–20 (410+2 = 412–812, 2 µs after
    k1 ended); launch gemm k2 20–25 (410–810, queued behind k1); cudaDeviceSynchronize 25–820 (returns 8 µs
    after the all-reduce ended). Step 0–820. Path: launch 10 + k1 400 + wait 2 + all-reduce 400 + return 8.
    ``nccl=2``: all-reduce 412–612, k2 still ends 810: the sync returns 818: 1.002× (the sum: 1.323×).
    ``gemm=2``: k1 10–210, all-reduce 212–612, k2 210–410: returns 620: 1.323× (the sum: 1.952×).

    ``queued_comm``: stream 20 first runs a 290 µs ``copy_kernel`` (launched by another thread 1–2, runs
    3–293), so the all-reduce is queued behind it and also waits for k1 (which ends later, so the wait keeps
    the 2 µs). With ``gemm=4`` k1 ends at 110, before the copy: the all-reduce still waits for the copy and
    runs 293–693 (the sync returns 701), where HTA's graph, which keeps only the wait edge when the waited
    kernel ends after the one ahead on the stream, would start it at 110.
    """
    t = Kineto()
    t.step(1, 0, 820)
    k1 = t.launch(0, 5, "gemm_kernel_1", 10, 400)
    if queued_comm:
        t.launch(1, 1, "copy_kernel", 3, 290, stream=20, tid=TID + 1)
    record = t.call("cudaEventRecord", 5, 5)
    wait = t.call("cudaStreamWaitEvent", 10, 5)
    t.sync("Stream Wait Event", wait, 11, 1, stream=20, wait_on_stream=7, wait_on_cuda_event_record_corr_id=record)
    t.launch(15, 5, "ncclDevKernel_AllReduce_Sum_f32", 412, 400, stream=20)
    t.launch(20, 5, "gemm_kernel_2", 410, 400)
    sync = t.call("cudaDeviceSynchronize", 25, 795)
    t.sync("Context Sync", sync, 812, 8)
    del k1
    return t


def mid_step_sync() -> Kineto:
    """A device synchronisation in the middle of the step, then CPU work.

    CPU: op A 0–100 launching k1 at 10–15 (k1 20–520); cudaDeviceSynchronize 100–525; op B 525–725.
    Path: A's own 10 + latency 10 + k1 500 + return 5 + B 200 = 725: CPU 215, launch 10, compute 500.
    ``gemm=2``: k1 ends 270, the sync returns 275, step 475: 1.526× (the sum agrees: all of k1 is on the path).
    ``gemm=10``: k1 ends 70, before the sync starts (100): it returns at 105, step 305: 2.377× (the sum: 2.636×).
    k1's slack: the path leaves k1 when 20 + 500/K < 100, at K = 6.25, after 420 µs of its 500.
    ``opA=2`` (its own time, 95, not the launch inside it): the sync starts at 52.5 and waits for k1 (15–515);
    step 720.
    """
    t = Kineto()
    t.step(1, 0, 725)
    t.op("opA", 0, 100)
    t.launch(10, 5, "gemm_kernel", 20, 500)
    t.call("cudaDeviceSynchronize", 100, 425)
    t.op("opB", 525, 200)
    return t


def phases() -> Kineto:
    """:func:`mid_step_sync` in three annotations: ``## forward ##`` 0–100 (op A and the launch of k1),
    ``## sync ##`` 100–525 (the device sync), ``## tail ##`` 525–725 (op B).

    CPU times: 100, 425, 200. GPU time: forward 500 (k1 was launched inside it), the others 0. On the critical
    path: forward 10 (A's own time before the launch) + 500 (k1) = 510; sync 5 (its return); tail 200; the
    launch latency, 10, is no one's. Forward's K: the path is 205 + max(95u + 5, 510u + 10) with u = 1/K, the
    GPU branch at every u ≥ 0: it never moves; slack 510, ceiling 725/215. The tail's: 525 + 200u, the same.
    """
    t = mid_step_sync()
    t.x("user_annotation", "## forward ##", 0, 100)
    t.x("user_annotation", "## sync ##", 100, 425)
    t.x("user_annotation", "## tail ##", 525, 200)
    return t


def several_steps() -> Kineto:
    """Two steps of different lengths: :func:`gpu_bound` (830) then :func:`mid_step_sync` (725) at 1000.

    Mean baseline 777.5; ``gemm=2``: (430 + 475) / 2 = 452.5, 1.718×.
    """
    t = gpu_bound()
    second = mid_step_sync()
    for e in second.events:
        e = dict(e)
        e["ts"] = e["ts"] + 1000
        if e["name"].startswith("ProfilerStep#"):
            e["name"] = "ProfilerStep#2"
        if "args" in e:
            e["args"] = dict(e["args"])
            for key in ("correlation", "wait_on_cuda_event_record_corr_id"):
                if key in e["args"]:
                    e["args"][key] += 100_000
        t.events.append(e)
    return t


def full_queue() -> Kineto:
    """A launch queue two deep: six 100 µs kernels launched by one thread, then a device synchronisation.

    CPU: L1 10–15, L2 15–20 (5 µs each, unblocked); L3 starts at 20 but the queue holds k1 (running) and k2:
    it returns at 123, 3 µs after k1 ends at 120; likewise L4 123–223 (k2 ends 220), L5 223–323 (k3 ends 320),
    L6 323–423 (k4 ends 420); cudaDeviceSynchronize 423–625 (k6 ends 620); step 0–630.
    GPU: k1 20–120 (10 µs after its launch began), k2–k6 back to back: 120–220, …, 520–620.
    A blocked launch keeps what its name's unblocked launches take (5 µs) as its own work; the rest is waiting:
    its own 2 µs before the wait ends and its 3 µs return.
    Kernels free: k1 ends at 20; L3 20–25 (its 2 µs, then the return), L4 25–30, L5 30–35, L6 35–40; the sync
    starts at 40, k6 (launched at 35) is long done: it returns 5 µs later, 45; the step's last 5 µs: 50.
    That is what the CPU does unblocked: 10 + 6 × 5 + 5 + 5. Kernels 2×: the GPU holds the step, 330 (the
    sum's answer: 30 + 600 / 2).
    """
    t = Kineto()
    t.step(1, 0, 630)
    t.launch(10, 5, "k1", 20, 100)
    t.launch(15, 5, "k2", 120, 100)
    for i, (start, ret) in enumerate(((20, 123), (123, 223), (223, 323), (323, 423))):
        t.launch(start, ret - start, f"k{i + 3}", 220 + 100 * i, 100)
    t.call("cudaDeviceSynchronize", 423, 202)
    return t


def fork_join() -> Kineto:
    """The step's thread forks a branch (``torch.jit.fork``) onto another thread and waits for it.

    Main thread (100): aten::linear 10–110, aten::fork 110–120, aten::linear 120–320, aten::wait 320–720,
    aten::add 720–800; step 0–810. Branch thread (200): aten::matmul 125–715 (woken 5 µs after the fork).
    The wait ends 5 µs after the branch does: its 400 µs are the branch's, not the main thread's work.
    ``aten::matmul=2``: the branch runs 125–420, the wait ends 425, aten::add 425–505, the step 515 (1.573×).
    ``aten::linear=2``: the main thread's 300 µs become 150: fork 60–70, linear 70–170; the branch 75–665;
    the wait ends 670; add 670–750; step 760 (1.066×) — the wait, not the linear layers, holds the step.
    """
    t = Kineto()
    t.step(1, 0, 810)
    t.op("aten::linear", 10, 100)
    t.op("aten::fork", 110, 10)
    t.op("aten::linear", 120, 200)
    t.op("aten::wait", 320, 400)
    t.op("aten::add", 720, 80)
    t.op("aten::matmul", 125, 590, tid=200)
    return t


def symmetric_memory() -> Kineto:
    """A compute kernel (gemm 10–110) and a symmetric-memory all-reduce (multimem_all_reduce_kernel 110–160) on
    one stream, then a device synchronisation 20–165; step 0–170: 100 µs compute, 50 µs communication."""
    t = Kineto()
    t.step(1, 0, 170)
    t.launch(5, 5, "sm90_gemm_kernel", 10, 100)
    t.launch(10, 5, "void c10d::symmetric_memory::multimem_all_reduce_kernel<float>", 110, 50)
    t.call("cudaDeviceSynchronize", 20, 145)
    return t


def two_processes() -> Kineto:
    """Two ranks' processes pasted into one file (pid 100 and pid 300), each with its own step and kernel."""
    t = gpu_bound()
    other = gpu_bound()
    for e in other.events:
        if e["pid"] == PID:
            e["pid"] = 300
    t.events.extend(other.events)
    return t


CASES = {
    "gpu_bound": gpu_bound,
    "launch_bound": launch_bound,
    "overlap_with_event_wait": overlap_with_event_wait,
    "queued_comm": lambda: overlap_with_event_wait(queued_comm=True),
    "mid_step_sync": mid_step_sync,
    "several_steps": several_steps,
    "phases": phases,
    "full_queue": full_queue,
    "fork_join": fork_join,
    "symmetric_memory": symmetric_memory,
    "two_processes": two_processes,
}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, make in CASES.items():
        print(make().write(out / f"{name}.json"))
