"""What the GPU grouping says about a GPU step that differs from the CPU step: judged from the steps kept, and a
mostly idle GPU is never called the bottleneck."""

from __future__ import annotations

import pytest

from amdahl_desk.files.traces import load_trace
from amdahl_desk.model.traces import GpuSplit, ImportOptions
from amdahl_desk.model.traces.gpu_steps import gpu_step_note
from amdahl_desk.model.traces.result import Notes
from amdahl_desk.model.traces.steps import Step
from amdahl_desk.present.import_notes import cli_notes, window_notes
from amdahl_desk.present.numbers import Numbers

from . import expect

LAST = "ProfilerStep#554"


def _note(result) -> list[str]:
    return [w for w in result.warnings if "GPU timeline's step" in w]


def test_the_16_gpu_trace_blames_the_last_steps_tail_not_a_gpu_that_is_idle_most_of_the_time():
    trace = expect.load(expect.NCCL16)
    loaded = load_trace(expect.NCCL16)
    result = loaded.summarise(ImportOptions(group_by="gpu"))
    split = expect.gpu_per_step_ms(trace)
    assert split["idle"] / split["span"] > 0.6  # the GPU waits most of each stretch
    [note] = _note(result)
    assert "bottleneck" not in note.replace("not the bottleneck", "")
    # without the last step the GPU's stretches and the CPU's steps agree: 214.2 against 214.5 ms
    rest_gpu = expect.gpu_per_step_ms(trace, skip={LAST})["span"]
    rest_cpu = expect.mean_step_ms(trace, skip={LAST})
    assert (f"{rest_gpu:.4g}", f"{rest_cpu:.4g}") == ("214.2", "214.5")
    assert f"the difference is the stretch of {LAST}" in note
    assert f"agree ({rest_gpu:.4g} against {rest_cpu:.4g} ms)" in note
    assert note.endswith(f"--exclude-steps {LAST} leaves it out")
    [window] = [w for w in window_notes(result.notes) if "GPU timeline's step" in w]
    assert "--" not in window and f"untick {LAST} in Steps" in window
    # on a German desktop the import dialog writes the same figures with its separators
    [german] = [w for w in window_notes(result.notes, Numbers(",", ".")) if "GPU timeline's step" in w]
    assert german == window.replace(".", ",").replace(f"untick {LAST.replace('.', ',')}", f"untick {LAST}")
    assert "agree (214,2 against 214,5 ms)" in german
    # the step the note is about is flagged (on its GPU stretch, not its CPU time)
    last = result.steps[-1]
    assert last.name == LAST and last.gpu_flagged and not last.flagged and last.off
    kept = loaded.summarise(ImportOptions(group_by="gpu", exclude_steps=frozenset({LAST})))
    assert kept.gpu.span == pytest.approx(rest_gpu, rel=1e-9) and kept.step_time == pytest.approx(rest_cpu)
    assert not _note(kept)  # they agree: nothing to explain
    flagged = loaded.summarise(ImportOptions(group_by="gpu", exclude_flagged=True))
    assert [s.name for s in flagged.steps if s.excluded] == [LAST] and not _note(flagged)


def test_a_gpu_busy_behind_a_cpu_that_runs_ahead_is_the_bottleneck():
    trace = expect.load(expect.ONE_GPU)
    result = load_trace(expect.ONE_GPU).summarise(ImportOptions(group_by="gpu"))
    split = expect.gpu_per_step_ms(trace)
    assert 1 - split["idle"] / split["span"] > 0.9
    [note] = _note(result)
    assert "is the bottleneck" in note and f"busy {1 - split['idle'] / split['span']:.0%}" in note


def _steps(cpu_ms: list[float], gpu_ms: list[float], odd: set[int] = frozenset()) -> list[Step]:
    out, t = [], 0.0
    for k, (c, g) in enumerate(zip(cpu_ms, gpu_ms, strict=True)):
        out.append(Step(f"ProfilerStep#{k}", t, t + c * 1000, 1, gpu_time=g * 1000, gpu_flagged=k in odd))
        t += c * 1000
    return out


def _split(span: float, idle: float) -> GpuSplit:
    return GpuSplit(0, span - idle, 0.0, 0.0, 0.0, idle, span)


@pytest.mark.parametrize(
    ("idle", "says", "never"),
    [
        (0.7, "is not the bottleneck", "GPU, busy"),
        (0.3, "is idle 30% of its stretch", "bottleneck"),
        (0.05, "is the bottleneck", "not the bottleneck"),
    ],
)
def test_a_gpu_step_longer_than_the_cpu_step(idle, says, never):
    notes = Notes()
    gpu_step_note(_split(120.0, idle * 120.0), _steps([100, 100, 100], [120, 120, 120]), notes)
    [note] = cli_notes(notes.items)
    assert "20% longer" in note and says in note and never not in note


def test_steps_that_agree_need_no_note_and_a_shorter_gpu_step_is_explained():
    for gpu, cpu in ((100.0, 97.0), (100.0, 104.9)):
        notes = Notes()
        gpu_step_note(_split(gpu, 0.0), _steps([cpu], [gpu]), notes)
        assert cli_notes(notes.items) == ()
    notes = Notes()
    gpu_step_note(_split(80.0, 0.0), _steps([100.0], [80.0]), notes)
    [shorter] = cli_notes(notes.items)
    assert "20% shorter" in shorter and "bottleneck" not in shorter


def test_one_odd_stretch_among_busy_ones_is_named_when_the_rest_agree():
    steps = _steps([100, 100, 100, 100], [100, 100, 100, 220], odd={3})
    notes = Notes()
    gpu_step_note(_split(130.0, 0.0), steps, notes)
    [note] = cli_notes(notes.items)
    assert "the difference is the stretch of ProfilerStep#3" in note and "agree (100 against 100 ms)" in note


def test_a_trace_opened_for_the_window_names_no_flag_and_takes_the_desktops_numbers():
    """Compare With… a trace (and the window's own import of one) reads it through ``files.load_any``: its notes
    are the command line's sentences without the flag that acts on them, worded where they are shown."""
    from amdahl_desk.files import load_any
    from amdahl_desk.model.errors import Refusal
    from amdahl_desk.present.refusals import problem_text

    cli = [w for w in load_trace(expect.NCCL16).summarise(ImportOptions()).warnings if "last step" in w]
    [said] = cli
    tail = f"; --exclude-steps {LAST} leaves it out"
    assert said.endswith(tail)
    [note] = load_any(expect.NCCL16).warnings
    assert note.why is Refusal.TRACE_NOTE and len({note, note}) == 1  # a typed problem, kept in a set as any other
    assert str(note) == problem_text(note) == said.removesuffix(tail)
    german = problem_text(note, Numbers(",", "."))
    last, others = (f"{v:.4g}" for v in _stretches_ms(expect.load(expect.NCCL16)))
    assert f"is {last} ms against {others} ms" in said
    assert f"is {last.replace('.', ',')} ms against {others.replace('.', ',')} ms" in german


def _stretches_ms(trace) -> tuple[float, float]:
    """The last step's GPU stretch and the median of the others', from the trace's events (``expect``)."""
    import statistics

    spans = list(expect.gpu_stretches_ms(trace).values())
    return spans[-1], statistics.median(spans[:-1])
