"""The job's step runs from the earliest rank's step start to the latest rank's end, so it is longer than every
rank's own step when the ranks do not start and end together: the sentence says so, with the ranks' own steps
and how far apart they start and end, read here from the traces' ``ProfilerStep#N`` events (one host, one clock)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "traces" / "fixtures"
STEP = "ProfilerStep#"


def _steps(path: Path) -> dict[int, tuple[float, float]]:
    """Step number → (start, end) in µs, from the JSON itself."""
    opened = gzip.open if path.suffix == ".gz" else open
    with opened(path, "rt") as f:
        doc = json.load(f)
    return {
        int(e["name"][len(STEP) :]): (e["ts"], e["ts"] + e["dur"])
        for e in doc["traceEvents"]
        if e.get("ph") == "X" and str(e.get("name", "")).startswith(STEP)
    }


def _job(capsys, folder: Path) -> tuple[dict, str]:
    capsys.readouterr()
    assert main(["job", str(folder), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert main(["job", str(folder)]) == 0
    return figures, capsys.readouterr().out


@pytest.mark.parametrize("folder", ["ddp4", "ddp2_buckets", "ddp2"])
def test_the_job_step_longer_than_every_ranks_own_is_explained(capsys, folder):
    path = FIXTURES / folder
    figures, text = _job(capsys, path)
    ranks = [_steps(p) for p in sorted(path.glob("rank*.json*"))]
    numbers = [s["step"] for s in figures["step_list"]]
    starts = np.array([[r[n][0] for n in numbers] for r in ranks])
    ends = np.array([[r[n][1] for n in numbers] for r in ranks])
    assert figures["start_spread"] == pytest.approx(np.mean(starts.max(0) - starts.min(0)) / 1000, abs=1e-3)
    assert figures["end_spread"] == pytest.approx(np.mean(ends.max(0) - ends.min(0)) / 1000, abs=1e-3)
    job = np.mean(ends.max(0) - starts.min(0)) / 1000
    own = np.mean(ends - starts, axis=1) / 1000
    assert figures["step_time"] == pytest.approx(job, abs=1e-3)
    assert job > own.max() * 1.005  # these jobs' steps are longer than any rank's own
    first = text.split(". Rank")[0]
    assert "from the first rank's start to the last rank's end" in first
    assert f"each rank's own takes {own.min():.1f}–{own.max():.1f} ms" in first
    assert f"start {figures['start_spread']:.1f} ms and end {figures['end_spread']:.1f} ms apart" in first


def test_a_job_whose_step_is_its_slowest_ranks_says_nothing_more(capsys):
    """The gloo fixture's ranks start and end within 0.5% of the step: no sentence to explain."""
    figures, text = _job(capsys, FIXTURES / "gloo")
    assert figures["step_time"] <= max(r["step_time"] for r in figures["per_rank"]) * 1.005 + 0.05
    assert "first rank's start" not in text


def test_of_two_ranks_the_straggler_is_measured_against_the_other_one(capsys):
    """With two ranks there is no "other ranks' median", and no "in all" to add up: rank 0 waits for rank 1, and
    fixing rank 1 means running at rank 0's pace (the window's Ranks chart says the same)."""
    figures, text = _job(capsys, FIXTURES / "ddp2_buckets")
    straggler = figures["straggler"]["rank"]
    other = 1 - straggler
    sentence = text.split("\n")[0]
    assert f"Rank {straggler} is the straggler: rank {other} waits " in sentence
    assert f"were its work as fast as rank {other}'s, the job's step would take" in sentence
    assert "median" not in sentence and "in all" not in sentence


def test_a_folders_exported_odds_are_the_jobs_measured_step_not_its_ranks_spread(capsys, tmp_path):
    """`export FOLDER --chart distribution` drew the profile's rank's own draws (median 113 ms, 90% within
    109.4-116.2 ms) under the axis "New job step": a fresh import ticks nothing, so every draw of the job is its step
    as measured (from the first rank's start to the last rank's end), as the window draws it."""
    path = FIXTURES / "ddp4"
    figures, _ = _job(capsys, path)
    ranks = [_steps(p) for p in sorted(path.glob("rank*.json*"))]
    numbers = [s["step"] for s in figures["step_list"]]
    starts = np.array([[r[n][0] for n in numbers] for r in ranks])
    ends = np.array([[r[n][1] for n in numbers] for r in ranks])
    job = np.mean(ends.max(0) - starts.min(0)) / 1000
    assert main(["export", str(path), "--out", str(tmp_path), "--chart", "distribution", "--format", "svg"]) == 0
    text = (tmp_path / "ddp4-distribution.svg").read_text(encoding="utf-8").replace("\u00a0", " ")
    assert f"the job's step {job:.1f} ms in every draw" in text
    assert "median" not in text and "90% within" not in text and "New job step" in text


def _world(path: Path) -> int:
    opened = gzip.open if path.suffix == ".gz" else open
    with opened(path, "rt") as f:
        return int(json.load(f)["distributedInfo"]["world_size"])


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (("rank0",), "ranks 1-3 are not given: time rank 0 waits for them counts here as transfer, and the "
         "straggler may be among them. One rank given: it waits for no other given."),
        (("rank0", "rank1"), "ranks 2-3 are not given: time the given ranks wait for them counts here as transfer, "
         "and the straggler may be among them. Of the ranks given, rank 1 is the slowest"),
        (("rank0", "rank2"), "ranks 1 and 3 are not given"),
        (("rank0", "rank1", "rank2"), "rank 3 is not given: time the given ranks wait for it counts here as "
         "transfer, and the straggler may be that rank. Of the ranks given, rank 2 is the slowest"),
    ],
)  # fmt: skip
def test_a_job_given_fewer_ranks_than_its_traces_state_says_which_are_missing(capsys, given, said):
    """ddp4's traces state a job of 4 ranks: given rank 0 alone (or 0 and 1), its ~102 ms of waiting for rank 2 was
    called transfer and another rank named the straggler, without a word that ranks were missing."""
    paths = [FIXTURES / "ddp4" / f"{name}.json.gz" for name in given]
    world = _world(paths[0])
    assert world == 4
    missing = [r for r in range(world) if f"rank{r}" not in given]
    capsys.readouterr()
    assert main(["job", *map(str, paths), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["stated_ranks"] == world and figures["missing_ranks"] == missing
    assert main(["job", *map(str, paths)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"Its traces say the job has {world} ranks, and {said}" in first, first
    assert "is the straggler" not in first


def test_a_whole_job_says_nothing_of_missing_ranks(capsys):
    capsys.readouterr()
    assert main(["job", str(FIXTURES / "ddp4"), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["stated_ranks"] == 4 and figures["missing_ranks"] == []
    assert main(["job", str(FIXTURES / "ddp4")]) == 0
    assert "not given" not in capsys.readouterr().out


def test_a_components_speedup_is_worded_as_its_measured_time_not_operators_own(capsys):
    """`whatif FOLDER --speedup annotation:data_loading=2 --rank 2` said "7 operators per step, 100.3 ms of their own
    time": the ops inside rank 2's data_loading take about 0.1 ms; its 100.3 ms is the phase as measured, the
    time between its events included. Read here from the rank's JSON: the phase's own duration, and its ops'."""
    path = FIXTURES / "ddp4" / "rank2.json.gz"
    with gzip.open(path, "rt") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    steps = {n: w for n, w in _steps(path).items()}
    spans = [e for e in events if e.get("name") == "data_loading" and e.get("cat") == "user_annotation"]
    in_steps = [e for e in spans if any(a <= e["ts"] and e["ts"] + e["dur"] <= b for a, b in steps.values())]
    phase = sum(e["dur"] for e in in_steps) / len(steps) / 1000
    ops = sum(
        o["dur"] for e in in_steps for o in events
        if o.get("cat") == "cpu_op" and e["ts"] <= o["ts"] and o["ts"] + o["dur"] <= e["ts"] + e["dur"]
    ) / len(steps) / 1000  # fmt: skip
    assert ops < 0.01 * phase  # the phase is nearly all waiting
    capsys.readouterr()
    assert main(["whatif", str(FIXTURES / "ddp4"), "--speedup", "annotation:data_loading=2", "--rank", "2"]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("`annotation:data_loading` ×2:"))
    assert f"{phase:.1f} ms per step as measured, the time between its events included" in line
    assert "own time" not in line
    assert "Making `annotation:data_loading` 2× faster" in text and "as its " in text and "operators 2×" not in text
    assert (
        main(["whatif", str(FIXTURES / "ddp4"), "--speedup", "annotation:data_loading=2", "--rank", "2", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["patterns"][0]["component"] is True


def test_a_cpu_jobs_table_says_its_compute_is_not_measured(capsys, tmp_path):
    """gloo's traces hold no GPU event: every rank's compute is 0.0 under "GPU compute busy time", which read as
    if the straggler did nothing. A job with kernels keeps the plain legend."""
    from .make_jobs import example

    def table_note(folder: Path) -> str:
        capsys.readouterr()
        assert main(["job", str(folder)]) == 0
        return next(x for x in capsys.readouterr().out.splitlines() if x.startswith("(ms per step"))

    path = FIXTURES / "gloo"
    for trace in sorted(path.glob("rank*.json*")):
        opened = gzip.open if trace.suffix == ".gz" else open
        with opened(trace, "rt") as f:
            assert not any(e.get("cat") == "kernel" for e in json.load(f)["traceEvents"])
    assert "these traces hold no GPU events: a CPU job, or GPU activity not recorded" in table_note(path)
    for rank in example():
        rank.write(tmp_path)
    assert table_note(tmp_path).startswith("(ms per step: GPU compute busy time;")


def test_a_job_missing_ranks_names_its_slowest_given_everywhere_it_is_shown():
    """The slide, the job panel and the charts said "A job of 2 ranks: …, rank 1 the straggler" of two of ddp4's
    four ranks: the straggler may be one not given (rank 2 is, in the whole job)."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.files.traces.job import load_job
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.job.analysis import analyse_job
    from amdahl_desk.model.job.join import match
    from amdahl_desk.present.job_charts import JobFigures, rank_bars, step_map
    from amdahl_desk.present.job_words import job_panel
    from amdahl_desk.present.numbers import POINT
    from amdahl_desk.present.slide import slide

    paths = [str(FIXTURES / "ddp4" / f"rank{r}.json.gz") for r in (0, 1)]
    job = analyse_job(match(load_job(paths, "ProfilerStep#")))
    figures = JobFigures(job, "two of four", tuple(paths), "ProfilerStep#", profile_rank=job.straggler)
    profile = import_trace(paths[job.straggler]).to_profile()
    view = slide(profile, analyse(profile), POINT, job=figures)
    title = view.title.replace("\u00a0", " ")
    assert title.startswith("2 of a job's 4 ranks: ") and f"rank {job.straggler} the slowest given" in title, title
    said = " ".join(s.text for s in view.decision).replace("\u00a0", " ")
    assert "Its traces say the job has 4 ranks, and ranks 2-3 are not given" in said
    bars = rank_bars(figures, POINT)
    assert f"rank {job.straggler} (slowest given)" in [b.label for b in bars.bars]
    assert bars.note.startswith(f"Rank {job.straggler} is the slowest given")
    assert step_map(figures, POINT).marked_label == f"rank {job.straggler}: the slowest given"
    panel = job_panel(figures, plan_ticked=False)
    assert panel is not None and panel.heading.startswith("2 of a job's 4 ranks (two of four)")
    assert "straggler" not in title + bars.note


@pytest.mark.parametrize("folder", ["ddp4", "gloo"])
def test_a_cpu_jobs_boundary_says_ranks_not_gpus(capsys, folder):
    """ddp4 and gloo are CPU jobs over gloo: no GPU event in any trace (checked here), yet their boundary said
    "measured on N0 = 4 GPUs"."""
    for trace in sorted((FIXTURES / folder).glob("rank*.json*")):
        opened = gzip.open if trace.suffix == ".gz" else open
        with opened(trace, "rt") as f:
            assert not any(e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") for e in json.load(f)["traceEvents"])
    world = _world(next((FIXTURES / folder).glob("rank*.json*")))
    capsys.readouterr()
    assert main(["report", str(FIXTURES / folder)]) == 0
    text = capsys.readouterr().out
    assert (
        f"measured on N0 = {world} ranks (the trace's distributedInfo.world_size; the trace holds no GPU events)"
        in text
    )
    assert f"measured on N0 = {world} GPUs" not in text


@pytest.mark.parametrize("folder", ["ddp4", "ddp2_buckets"])
def test_the_ranks_chart_marks_the_jobs_step_beyond_every_ranks_own(folder):
    """Each bar of the Ranks chart is its rank's own step; the job's (first rank's start to last rank's end, from
    the traces' step events here) is longer: a dashed line there, named in the legend, inside the axis."""
    from amdahl_desk.files.traces.job import load_job
    from amdahl_desk.model.job.analysis import analyse_job
    from amdahl_desk.model.job.join import match
    from amdahl_desk.present.job_charts import JobFigures, rank_bars
    from amdahl_desk.present.numbers import POINT

    path = FIXTURES / folder
    ranks = [_steps(p) for p in sorted(path.glob("rank*.json*"))]
    job = analyse_job(match(load_job([str(path)], STEP)))
    shown = list(job.steps)  # the step numbers the job is the mean of
    starts = np.array([[r[n][0] for n in shown] for r in ranks])
    ends = np.array([[r[n][1] for n in shown] for r in ranks])
    expected = float(np.mean(ends.max(0) - starts.min(0))) / 1000
    view = rank_bars(JobFigures(job, folder, (), STEP), POINT)
    assert view.job_step == pytest.approx(expected, abs=1e-3)
    assert view.job_step > max(sum(b.parts) for b in view.bars)  # beyond every bar's end
    assert view.x_max >= view.job_step  # inside the axis
    entry = view.legend[-1]
    assert entry.kind == "dash" and entry.name.replace("\u00a0", " ") == f"the job's step ({expected:.1f} ms)"
