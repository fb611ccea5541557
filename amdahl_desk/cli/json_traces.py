"""The JSON contracts of the trace commands (``import --json``, ``whatif --json``, ``compare --json``'s dependencies),
written where the command line lives from the model's records; the Python API's ``to_dict()`` reads the same."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.traces.import_paths import ImportPath
from ..model.traces.path_components import ComponentPath
from ..model.traces.result import ImportedComponent, ImportResult
from ..model.traces.trace_comparison import DependencyCheck
from ..model.traces.whatif import WhatIf


def whatif_json(w: WhatIf) -> dict[str, Any]:
    """The command line's JSON (the contract's keys, and the per-pattern and per-step figures)."""
    return {
        "unit": w.unit.value,
        "steps": len(w.steps),
        "baseline": w.baseline,
        "critical_path": {"by_kind": w.by_kind, "by_kind_predicted": w.predicted_by_kind},
        "matched": {"events": w.matched_events, "time": w.matched_time, "on_path": w.matched_on_path},
        "predicted": w.predicted,
        "speedup": w.speedup if w.predicted > 0 else None,
        "sum_speedup": w.sum_speedup,
        "ceiling": w.ceiling,
        "patterns": [
            {
                "pattern": p.pattern,
                "k": p.k,
                "events": p.events,
                "time": p.time,
                "kernels": p.kernels,
                "copies": p.copies,
                "operators": p.operators,
                "calls": p.calls,
                "component": p.component,
            }
            for p in w.patterns
        ],
        "largest_on_path": [{"name": n, "time": t} for n, t in w.largest_on_path],
        "largest_when_free": [{"name": n, "time": t} for n, t in w.largest_when_free],
        "step_list": [{"name": n, "baseline": b, "predicted": p} for n, b, p in w.step_figures],
        "dependencies": w.dependencies,
    }


def import_json(result: ImportResult) -> dict[str, Any]:
    """The command line's JSON: format, unit, steps, step_time, components, gpu (when there are GPU events)."""
    data: dict[str, Any] = {
        "format": result.format,
        "unit": result.unit.value,
        "source": result.source,
        "group_by": result.group_by,
        "steps": None if result.steps is None else sum(1 for s in result.steps if not s.excluded),
        "step_time": result.step_time,
        "step_list": None
        if result.steps is None
        else [
            {
                "name": s.name,
                "time": s.time,
                "flagged": s.flagged,
                "excluded": s.excluded,
                "gpu_time": s.gpu_time,
                "gpu_flagged": s.gpu_flagged,
            }
            for s in result.steps
        ],
        "components": [component_json(c) for c in result.components],
        "total": result.total,
        "boundary": result.boundary,
        "baseline_gpus": result.baseline_gpus,
        "warnings": list(result.warnings),
    }
    if result.gpu is not None:
        g = result.gpu
        data["gpu"] = {
            "device": g.device,
            "compute": g.compute,
            "exposed_communication": g.exposed_communication,
            "overlapped_communication": g.overlapped_communication,
            "memory": g.memory,
            "idle": g.idle,
            "span": g.span,
        }
    if result.critical_path is not None:
        data["critical_path"] = import_path_json(result.critical_path)
    if result.ranks:
        data["rank"] = result.rank
        data["ranks"] = [
            {
                "rank": r.rank,
                "source": r.source,
                "step_time": r.step_time,
                "total_time": r.total_time,
                "slowest": r.slowest,
                "straggler": r.straggler,
            }
            for r in result.ranks
        ]
    return data


def component_json(c: ImportedComponent) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": c.name,
        "time": c.time,
        "scaling": c.scaling.value,
        "scaling_guessed": c.guessed,
        "group": c.group,
        "source": c.source,
    }
    if c.events:
        data["events"] = c.events
    if c.gpu_time is not None:
        data["gpu_time"] = c.gpu_time
    if c.path_time is not None:
        data["critical_path_time"] = c.path_time
    return data


def import_path_json(path: ImportPath) -> dict[str, Any]:
    return {
        "steps": path.steps,
        "baseline": path.baseline,
        "by_kind": path.by_kind,
        "components": [component_path_json(c) for c in path.components],
        "dependencies": path.dependencies,
    }


def component_path_json(c: ComponentPath) -> dict[str, object]:
    return {
        "name": c.name,
        "time": c.time,
        "on_path": c.on_path,
        "slack": c.slack,
        "k_moves": c.k_moves,
        "ceiling": c.ceiling,
    }


def dependency_check_json(check: DependencyCheck) -> dict[str, Any]:
    return {
        "predicted_speedup": check.predicted_speedup,
        "sum_speedup": check.sum_speedup,
        "measured_speedup": check.measured_speedup,
        "components": [{"name": n, "measured_k": k if np.isfinite(k) else None} for n, k in check.ks],
        "unmatched": list(check.unmatched),
    }
