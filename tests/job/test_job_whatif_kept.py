"""A job's second what-if with the same patterns and other K (or other ranks) replays the ranks' graphs kept from
the first, reading no trace again, and answers what reading them again answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import amdahl_desk as ad
from amdahl_desk.api_parts.job import job_whatif
from amdahl_desk.files.traces import job as job_files
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.join import match, with_ks
from amdahl_desk.model.traces.patterns import parse_pattern_speedup

DDP4 = Path(__file__).resolve().parents[1] / "traces" / "fixtures" / "ddp4"
STEP = "ProfilerStep#"
PATTERNS = ["aten::addmm", "aten::mm", "aten::copy_"]


def test_other_k_needs_no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    job = ad.job(DDP4, step=STEP)
    first = job.whatif({p: 2 for p in PATTERNS})
    fresh = job_whatif(DDP4, {"aten::addmm": 4, "aten::mm": 1.5, "aten::copy_": 3}, step=STEP, on_ranks="1-3")

    def no_reading(*_a: object, **_k: object) -> None:
        raise AssertionError("a trace was read again")

    monkeypatch.setattr(job_files, "load_job", no_reading)
    again = job.whatif({"aten::addmm": 4, "aten::mm": 1.5, "aten::copy_": 3}, on_ranks="1-3")
    assert again.to_dict() == fresh.to_dict()
    assert again.predicted != pytest.approx(first.predicted)
    with pytest.raises(AssertionError, match="read again"):  # other patterns: read with them
        job.whatif({"aten::add_": 2})


def test_factors_from_the_patterns_signature_are_the_ones_read() -> None:
    """Each point's K, recomputed from which patterns match it, is what reading with those K gives — on every
    rank, points merged alike (the compact graph merges runs by the patterns that match, not by K)."""
    ks = [2.0, 4.0, 2.0]  # two patterns with one K: a graph merged by K would merge across them
    read = match(
        load_job([str(DDP4)], STEP, [parse_pattern_speedup(f"{p}={k}") for p, k in zip(PATTERNS, ks, strict=True)])
    )
    other = match(load_job([str(DDP4)], STEP, [parse_pattern_speedup(f"{p}=3") for p in PATTERNS]))
    redone = with_ks(other, list(zip(PATTERNS, ks, strict=True)))
    assert redone is not None
    for a, b in zip(read.ranks, redone.ranks, strict=True):
        assert np.array_equal(a.graph.time, b.graph.time)
        assert np.array_equal(a.factor, b.factor)
    assert with_ks(other, [("aten::add_", 2.0)]) is None
