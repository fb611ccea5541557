"""Writes resources/examples/llm-request-after.xlsx: the LLM request measured again after "Faster decode" shipped.

The plan in llm-request.xlsx promised decode 2× faster (1,500 → 1,050 ms, 1.43×). Re-measured, decode came out
1.7× faster (900 → 530 ms) and the streaming path, now fed tokens faster, grew from 200 to 240 ms: 1,170 ms, 1.28×.
Open llm-request.xlsx and Compare With… this file, or: amdahl-desk compare llm-request.xlsx llm-request-after.xlsx

Run from the repository root: python packaging/make_compare_example.py
"""

from __future__ import annotations

from pathlib import Path

from amdahl_desk.files import save_profile
from amdahl_desk.model import Component, Profile, Scaling, Settings

EXAMPLES = Path(__file__).resolve().parent.parent / "resources" / "examples"


def llm_request_after() -> Profile:
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


def main() -> None:
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    target = EXAMPLES / "llm-request-after.xlsx"
    save_profile(llm_request_after(), target)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
