"""A CPU job scales over its ranks, not GPUs: ddp4's four ranks ran over gloo on CPUs and their traces hold no GPU
event (checked here in the JSON itself), yet the report, the scaling chart and the workbook said "GPU scaling" and
"against the N0 = 4 GPUs measured". A trace with GPU kernels (alexnet) and the bundled workbook keep their words."""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from pathlib import Path

import pytest
import python_calamine

from amdahl_desk.cli import main
from amdahl_desk.files import load_any, load_profile, save_profile
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.job.analysis import analyse_job
from amdahl_desk.model.job.join import match
from amdahl_desk.model.profile import Profile
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.present.job_charts import JobFigures
from amdahl_desk.present.scaling import scaling
from amdahl_desk.resources import example_path

FIXTURES = Path(__file__).resolve().parents[1] / "traces" / "fixtures"
DDP4 = FIXTURES / "ddp4"
ALEXNET = FIXTURES / "critical_path" / "alexnet.json.gz"  # one rank's trace with CUDA kernels, copies and memsets
GPU_CATEGORIES = ("kernel", "gpu_memcpy", "gpu_memset")


def _trace(path: Path) -> dict:
    opened = gzip.open if path.suffix == ".gz" else open
    with opened(path, "rt") as f:
        return json.load(f)


def _gpu_events(path: Path) -> int:
    return sum(e.get("cat") in GPU_CATEGORIES for e in _trace(path)["traceEvents"])


def _world(folder: Path) -> int:
    return int(_trace(next(folder.glob("rank*.json*")))["distributedInfo"]["world_size"])


def _report(capsys, path: Path) -> str:
    capsys.readouterr()
    assert main(["report", str(path)]) == 0
    return capsys.readouterr().out


def _title(view) -> str:
    return view.title.replace("\u00a0", " ")  # phrases keep their words together with no-break spaces


def _scaling_line(text: str) -> str:
    return next(line for line in text.splitlines() if re.match(r"(GPU|Rank) scaling: ", line))


def _summary_sheet(profile: Profile, path: Path) -> tuple[list[str], str]:
    """The Summary sheet's texts (as calamine reads them) and its charts' XML."""
    save_profile(profile, path)
    rows = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
    with zipfile.ZipFile(path) as zf:
        charts = "".join(zf.read(n).decode() for n in zf.namelist() if n.startswith("xl/charts/chart"))
    return [c for row in rows for c in row if isinstance(c, str)], charts


def test_the_cpu_job_fixtures_hold_no_gpu_event_and_alexnet_does():
    ranks = sorted(DDP4.glob("rank*.json*"))
    assert len(ranks) == _world(DDP4) == 4
    assert all(_gpu_events(r) == 0 for r in ranks)
    assert _gpu_events(ALEXNET) > 0


def test_a_cpu_jobs_report_scales_over_ranks(capsys):
    world = _world(DDP4)
    line = _scaling_line(_report(capsys, DDP4))
    assert line.startswith("Rank scaling: ")
    assert f"(against the N0 = {world} ranks measured)" in line
    assert re.search(r"the best is [\d.]+× at 1,024 ranks", line)
    assert re.search(r"efficiency stays at 50% or more up to [\d,]+ ranks\.$", line)
    assert "GPU" not in line


def test_a_cpu_jobs_scaling_chart_scales_over_ranks():
    profile = load_any(DDP4).profile
    analysis = analyse(profile)
    for brief in (False, True):
        view = scaling(ChartInputs(profile, analysis), brief=brief)
        assert _title(view).startswith("Rank scaling: ") and "GPU" not in view.title
        assert view.x_axis == "Ranks N (log₂ scale)"
    assert "at 1,024 ranks;" in _title(scaling(ChartInputs(profile, analysis)))  # the best is … at 1,024 ranks;
    # as the window shows it, with the job: its ranks' transfer as the overhead
    job = analyse_job(match(load_job([str(DDP4)], "ProfilerStep#")))
    view = scaling(ChartInputs(profile, analysis, job=JobFigures(job, DDP4.name, (), "ProfilerStep#")))
    assert _title(view).startswith("Rank scaling of the job: ") and "GPU" not in view.title
    assert _title(scaling(ChartInputs(profile, None))) == "Rank scaling — no data"


def test_a_cpu_jobs_workbook_scales_over_ranks_and_keeps_it(capsys, tmp_path):
    """The Summary sheet's scaling table and chart say ranks; the Settings sheet keeps that the trace holds no GPU
    events, so the workbook opened again still says ranks."""
    texts, charts = _summary_sheet(load_any(DDP4).profile, tmp_path / "ddp4.xlsx")
    assert any(t.startswith("Rank scaling, overhead model ") for t in texts)
    assert "Baseline ranks N0" in texts and "Ranks" in texts
    assert not any(t.startswith("GPU scaling") or t in ("GPUs", "Baseline GPUs N0") for t in texts)
    assert "Rank scaling: speedup against the baseline" in charts and "Ranks (log₂ scale)" in charts
    assert "GPU" not in charts
    again = load_profile(tmp_path / "ddp4.xlsx").profile
    assert again.settings.trace_gpu_events is False
    assert _scaling_line(_report(capsys, tmp_path / "ddp4.xlsx")).startswith("Rank scaling: ")


@pytest.mark.parametrize("path", [ALEXNET, example_path()], ids=["alexnet", "training-iteration"])
def test_a_gpu_trace_and_a_workbook_keep_their_gpu_words(capsys, tmp_path, path):
    line = _scaling_line(_report(capsys, path))
    assert line.startswith("GPU scaling: ") and "GPUs" in line and "rank" not in line
    profile = load_any(path).profile
    view = scaling(ChartInputs(profile, analyse(profile)))
    assert _title(view).startswith("GPU scaling: ") and view.x_axis == "GPUs N (log₂ scale)"
    assert re.search(r"at [\d,]+ GPUs;", _title(view)) and "rank" not in view.title
    texts, charts = _summary_sheet(profile, tmp_path / "again.xlsx")
    assert any(t.startswith("GPU scaling, overhead model ") for t in texts)
    assert "Baseline GPUs N0" in texts and "GPUs" in texts and "Trace GPU events" not in texts
    assert "GPU scaling: speedup against the baseline" in charts and "GPUs (log₂ scale)" in charts
    settings = python_calamine.CalamineWorkbook.from_path(str(tmp_path / "again.xlsx")).get_sheet_by_name("Settings")
    assert not any("Trace GPU events" in map(str, row) for row in settings.to_python())


TORCH_CPU = FIXTURES / "torch_cpu_steps.json.gz"  # one process on a CPU: no distributedInfo, no GPU event


def test_one_cpu_process_scales_over_ranks_and_its_boundary_says_why(capsys):
    """One rule for every trace with no GPU event, a job or one process: its scaling counts ranks, and its boundary
    says what N0 is and why (before, the scaling said ranks with nothing in the boundary to say why)."""
    trace = _trace(TORCH_CPU)
    assert "distributedInfo" not in trace and _gpu_events(TORCH_CPU) == 0
    text = _report(capsys, TORCH_CPU)
    boundary = next(line for line in text.splitlines() if line.startswith("Boundary: "))
    assert "grouped by annotation; measured on N0 = 1 rank (the trace holds no GPU events);" in boundary, boundary
    assert _scaling_line(text).startswith("Rank scaling: ")
    # a trace with GPU events says nothing of N0 in its boundary, as before
    gpu = next(line for line in _report(capsys, ALEXNET).splitlines() if line.startswith("Boundary: "))
    assert "N0" not in gpu and "GPU events" not in gpu


@pytest.mark.parametrize("path", [ALEXNET, DDP4, example_path()], ids=["alexnet", "ddp4", "training-iteration"])
def test_a_traced_profile_reads_back_with_the_settings_it_was_saved_with(tmp_path, path):
    """The workbook keeps the fact as a row for a trace with no GPU events alone: a profile of a trace with GPU
    events read back equal too (its settings had said True, and read back None)."""
    profile = load_any(path).profile
    save_profile(profile, tmp_path / "again.xlsx")
    again = load_profile(tmp_path / "again.xlsx").profile
    assert again.settings == profile.settings


def test_a_brief_scaling_title_counts_one_in_the_singular():
    """Evaluated at one count alone, the best is at 1 rank: the slide's brief title says so, as the report does."""
    from dataclasses import replace

    profile = load_any(DDP4).profile
    profile.set_settings(replace(profile.settings, gpu_counts=(1,)))
    view = scaling(ChartInputs(profile, analyse(profile)), brief=True)
    assert " at 1 rank" in _title(view) and "1 ranks" not in _title(view), view.title
