"""Writes every bundled example workbook (resources/examples/) through the app's own writer.

The training iteration and the LLM request from the lessons' numbers, and the LLM request measured again
after its plan shipped. Run it from the repository root after a change to the workbook writer:
python packaging/make_examples.py (tests/files/test_bundled_examples.py fails until it is run).
"""

from __future__ import annotations

from pathlib import Path

from amdahl_desk.files import write_workbook
from amdahl_desk.model.objective_specs import END_TO_END, ObjectiveSpec
from amdahl_desk.model.profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings

EXAMPLES = Path(__file__).resolve().parent.parent / "resources" / "examples"


def training_iteration() -> Profile:
    comps = [
        Component("Input pipeline and host preparation", 100, Scaling.SERIAL, "host", "data loading, augmentation"),
        Component("GPU matrix multiplications", 600, Scaling.PARALLEL, "GPU", "GEMMs in forward and backward"),
        Component("Other GPU kernels", 150, Scaling.PARALLEL, "GPU", "elementwise, norms, softmax"),
        Component("Gradient synchronization", 100, Scaling.COMMUNICATION, "network", "all-reduce of gradients"),
        Component("Miscellaneous overhead", 50, Scaling.SERIAL, "host", "optimizer step bookkeeping, logging"),
    ]
    opts = [
        Optimization(
            "Reduced precision and tensor-core kernels",
            ("GPU matrix multiplications",),
            4,
            True,
            "BF16 GEMMs on tensor cores",
        ),
        Optimization(
            "Faster input pipeline",
            ("Input pipeline and host preparation",),
            2,
            False,
            "more loader workers, pinned memory",
        ),
        Optimization("Kernel fusion", ("Other GPU kernels",), 2, False, "fuse elementwise ops into GEMM epilogues"),
        Optimization(
            "Overlap gradient sync with backward",
            ("Gradient synchronization",),
            3,
            False,
            "bucketed all-reduce during backward",
        ),
    ]
    settings = Settings(
        target_time=600,
        baseline_gpus=8,
        overhead_model=OverheadModel.RING,
        ring_latency=10e-6,
        ring_message_bytes=2e9,
        ring_bandwidth=100e9,
        boundary="Stable training iteration after warm-up, measured on 8 GPUs",
    )
    return Profile(comps, opts, settings)


def llm_request() -> Profile:
    # The lessons' boundaries: queue, prefill and the gateway come before the first token (TTFT); decode
    # steps and streaming come after it (inter-token latency, ITL); End to end holds them all.
    ttft, itl = ("TTFT", END_TO_END), ("ITL", END_TO_END)
    comps = [
        Component("Gateway, validation, routing", 40, Scaling.SERIAL, "front end", objectives=ttft),
        Component("Scheduler waiting and batch formation", 60, Scaling.SERIAL, "scheduler", objectives=ttft),
        Component("Prompt prefill", 300, Scaling.PARALLEL, "model", objectives=ttft),
        Component("Autoregressive decode", 900, Scaling.PARALLEL, "model", objectives=itl),
        Component("Token streaming and completion work", 200, Scaling.SERIAL, "front end", objectives=itl),
    ]
    opts = [
        Optimization("Faster decode", ("Autoregressive decode",), 2, True, "2× decode throughput on this workload"),
        Optimization("Prefill attention kernels", ("Prompt prefill",), 1.5, False),
        Optimization("Leaner streaming path", ("Token streaming and completion work",), 2, False),
    ]
    settings = Settings(
        target_time=600,
        boundary="No-queue request latency, admission to final token",
        # A loaded service: 14 requests/s on 24 replicas is 88% utilization before the plan.
        arrival_rate=14.0,
        servers=24,
        gpu_price_per_hour=2.5,
        currency="$",
    )
    objectives = [
        ObjectiveSpec("TTFT", 300, "time to first token: gateway, queue and prefill"),
        ObjectiveSpec("ITL", None, "decode steps and streaming after the first token"),
    ]
    return Profile(comps, opts, settings, objectives=objectives)


def llm_request_after() -> Profile:
    """The LLM request measured again after "Faster decode" shipped (llm-request-after.xlsx).

    The plan in llm-request.xlsx promised decode 2× faster (1,500 → 1,050 ms, 1.43×). Re-measured, decode came
    out 1.7× faster (900 → 530 ms) and the streaming path, now fed tokens faster, grew from 200 to 240 ms:
    1,170 ms, 1.28×. Open llm-request.xlsx and Compare With… this file, or:
    amdahl-desk compare llm-request.xlsx llm-request-after.xlsx
    """
    comps = [
        Component("Gateway, validation, routing", 40, Scaling.SERIAL, "front end"),
        Component("Scheduler waiting and batch formation", 60, Scaling.SERIAL, "scheduler"),
        Component("Prompt prefill", 300, Scaling.PARALLEL, "model"),
        Component(
            "Autoregressive decode", 530, Scaling.PARALLEL, "model", "after Faster decode: 1.7×, not the 2× hoped"
        ),
        Component(
            "Token streaming and completion work",
            240,
            Scaling.SERIAL,
            "front end",
            "more tokens per second to detokenize and send",
        ),
    ]
    settings = Settings(target_time=600, boundary="No-queue request latency, admission to final token")
    return Profile(comps, [], settings)


BUNDLED = {
    "training-iteration.xlsx": training_iteration,
    "llm-request.xlsx": llm_request,
    "llm-request-after.xlsx": llm_request_after,
}


def main() -> None:
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    for name, profile in BUNDLED.items():
        write_workbook(profile(), EXAMPLES / name)
        print(f"wrote {EXAMPLES / name}")


if __name__ == "__main__":
    main()
