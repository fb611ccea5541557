"""The steps' own time (a step annotation's time outside every event under it) is one item on the critical path,
"ProfilerStep#… (outside its ops)", per step: each step is an annotation of its own name, and by name the item was
one step's time divided over all the steps (1.23 ms of one step shown as 0.31 ms per step, beside three others)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.traces.whatif import prepare

TRACE = Path(__file__).parent / "fixtures" / "torch_cpu_steps.json.gz"


def _steps_own_ms() -> float:
    """Per step, its annotation's duration less the union of the events under it on its thread; mean, ms."""
    doc = json.loads(gzip.decompress(TRACE.read_bytes()))
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    own = []
    for s in (e for e in events if e["name"].startswith("ProfilerStep#")):
        a, b = s["ts"], s["ts"] + s["dur"]
        inside = sorted(
            (max(e["ts"], a), min(e["ts"] + e["dur"], b))
            for e in events
            if e is not s and (e["pid"], e["tid"]) == (s["pid"], s["tid"]) and e["ts"] < b and e["ts"] + e["dur"] > a
        )
        covered, reach = 0.0, a
        for x, y in inside:
            if y > reach:
                covered += y - max(x, reach)
                reach = y
        own.append((s["dur"] - covered) / 1000)
    return sum(own) / len(own)


def test_the_steps_own_time_is_one_item_per_step():
    pt = prepare(load_rank_graph(TRACE).trace)
    items = dict(pt.on_path_items(pt.baseline, top=100))
    steps = [name for name in items if name.startswith("ProfilerStep#")]
    assert steps == ["ProfilerStep#… (outside its ops)"]
    assert items[steps[0]] == pytest.approx(_steps_own_ms(), abs=1e-5)  # ms: the trace's timestamps are to the ns


def test_steps_numbered_from_ten_are_not_named_as_step_one(tmp_path):
    """Steps #11 to #15 share "ProfilerStep#1" as text: the item is still "ProfilerStep#…", not "ProfilerStep#1…"."""
    doc = json.loads(gzip.decompress(TRACE.read_bytes()))
    for e in doc["traceEvents"]:
        if str(e.get("name", "")).startswith("ProfilerStep#"):
            e["name"] = f"ProfilerStep#{int(e['name'][len('ProfilerStep#') :]) + 10}"
    renamed = tmp_path / "steps_11_15.json"
    renamed.write_text(json.dumps(doc))
    pt = prepare(load_rank_graph(renamed).trace)
    names = [name for name, _ in pt.on_path_items(pt.baseline, top=100) if name.startswith("ProfilerStep#")]
    assert names == ["ProfilerStep#… (outside its ops)"]
