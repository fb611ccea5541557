"""An import's warnings in words, once: the command line's name its flags, the window's its controls.

The model finds them (``model/traces/result.ImportNote``: a kind and its values); ``files/traces`` words them here
when a trace is summarised, so ``import``, ``report``, the import dialog and the workbook say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import cast

from ..model.traces.result import ImportNote, NoteKind
from .numbers import POINT, Numbers


def _steps(v: Mapping[str, object]) -> tuple[str, ...]:
    return cast("tuple[str, ...]", v["steps"])


def _gpu_step_head(v: Mapping[str, object], n: Numbers) -> str:
    span, gap, cpu = float(v["span"]), float(v["gap"]), float(v["cpu"])  # type: ignore[arg-type]
    return (
        f"the GPU timeline's step, {n.plain(span, '.4g')} ms (the profile's total: from one step's first GPU event "
        f"to the next's), is {n.plain(abs(gap), '.0%')} {'longer' if gap > 0 else 'shorter'} than the CPU's mean "
        f"ProfilerStep, {n.plain(cpu, '.4g')} ms: "
    )


def note_text(note: ImportNote, n: Numbers = POINT) -> str:
    """The note's sentence, the same for every output, its numbers as ``n`` writes them; what acts on it is added
    by the command line and the import dialog (``cli_notes``, ``window_notes``), each naming its own controls."""
    v, kind = note.values, note.kind
    if kind is NoteKind.BEGIN_END_SKIPPED:
        return f'{n.count(v["count"])} begin/end events (ph "B"/"E") were not read; only complete events (ph "X") are'  # type: ignore[arg-type]
    if kind is NoteKind.SAMPLE_COUNTS:
        return 'the profile\'s unit is "none" (sample counts), not a time; each weight is taken as 1 ms'
    if kind is NoteKind.THREADS_SUMMED:
        return f"{v['profiles']} profiles (threads) are summed: the times are CPU time, not wall time"
    if kind is NoteKind.SEVERAL_REPORTS:
        return "rows of several reports are listed together; NVTX ranges may contain the kernels"
    if kind is NoteKind.NO_STEPS:
        return "the trace has no ProfilerStep events: the whole trace is imported"
    if kind is NoteKind.NOT_JOINED:
        return (
            f"the ranks cannot be joined as one job ({v['problem']}), so the rank they wait for is not known: "
            f"rank {v['rank']}, the slowest, is imported"
        )
    if kind is NoteKind.FAR_STEP:
        return f"{v['step']} ({n.plain(float(v['ms']), '.3g')} ms) is far from the median step time"  # type: ignore[arg-type]
    if kind is NoteKind.NO_GPU_STEP_MATCH:
        return "no GPU event could be matched to a step through its launch; the GPU split is of the whole trace"
    if kind is NoteKind.GPU_LAST_STRETCH:
        return (
            f"the GPU stretch of the last step, {v['step']}, is {_ms(v['ms'], n)} against {_ms(v['others_ms'], n)} "
            "for the others: the GPU was still finishing queued work when profiling stopped"
        )
    if kind is NoteKind.GPU_FAR_STRETCH:
        return f"the GPU stretch of {v['step']}, {_ms(v['ms'], n)}, is far from the others' median, {_ms(v['others_ms'], n)}"
    head = _gpu_step_head(v, n)
    if kind is NoteKind.GPU_STEP_ODD_STRETCH:
        names = ", ".join(_steps(v))
        return head + (
            f"the difference is the stretch of {names}, far from the others'; without it the GPU's mean "
            f"stretch and the CPU's mean step agree ({n.plain(float(v['rest_gpu']), '.4g')} against "  # type: ignore[arg-type]
            f"{_ms(v['rest_cpu'], n)})"
        )
    if kind is NoteKind.GPU_STEP_SHORTER:
        return head + (
            "the GPU's stretches leave out the CPU's time before the first step's first GPU event and after "
            "the last step's GPU work ends; compare the steps, or leave the odd ones out"
        )
    idle = float(v["idle"])  # type: ignore[arg-type]
    if kind is NoteKind.GPU_STEP_IDLE:
        return head + (
            f"yet the GPU is idle {n.plain(idle, '.0%')} of its stretch, so it is not the bottleneck: it waits (for the "
            "CPU's launches, data or other ranks) and its stretches end later than the CPU's steps; compare the "
            "steps, or leave the odd ones out"
        )
    if kind is NoteKind.GPU_STEP_BUSY:
        return head + (
            f"the CPU launches kernels ahead of the GPU and its steps end before their GPU work does; the GPU, "
            f"busy {n.plain(1 - idle, '.0%')} of its stretch, is the bottleneck"
        )
    return head + (
        f"the CPU launches kernels ahead of the GPU and its steps end before their GPU work does; the GPU "
        f"is idle {n.plain(idle, '.0%')} of its stretch"
    )


def _ms(value: object, n: Numbers) -> str:
    return f"{n.plain(float(value), '.4g')} ms"  # type: ignore[arg-type]


def _cli_tail(note: ImportNote) -> str:
    """What the command line adds: the flag that acts on it."""
    v, kind = note.values, note.kind
    if kind is NoteKind.NO_STEPS:
        return " (as with --total)"
    if kind in (NoteKind.GPU_LAST_STRETCH, NoteKind.GPU_FAR_STRETCH):
        return f"; --exclude-steps {v['step']} leaves it out"
    if kind is NoteKind.GPU_STEP_ODD_STRETCH:
        return f"; --exclude-steps {','.join(_steps(v))} leaves it out"
    if kind is NoteKind.GPU_STEP_BUSY:
        return " (group by annotation or op to see the CPU side)"
    return ""


def _window_tail(note: ImportNote) -> str:
    """What the window adds: the control that acts on it."""
    v, kind = note.values, note.kind
    if kind is NoteKind.FAR_STEP:
        return f"; untick {v['step']} in Steps (or Leave out flagged steps) to leave it out"
    if kind in (NoteKind.GPU_LAST_STRETCH, NoteKind.GPU_FAR_STRETCH):
        return f"; untick {v['step']} in Steps (or Leave out flagged steps) to leave it out"
    if kind is NoteKind.GPU_STEP_ODD_STRETCH:
        names = ", ".join(_steps(v))
        return f"; untick {names} in Steps (or Leave out flagged steps) to leave it out"
    if kind is NoteKind.GPU_STEP_BUSY:
        return " (group by annotations or operators to see the CPU side)"
    return ""


def refusal_remedy(exc: Exception, window: bool = False) -> str:
    """What to do about a refused trace (:class:`~amdahl_desk.model.traces.errors.Remedy`), as the command line
    (its flags) or the window (its controls) says it: the tail of the refusal's message, "" for none."""
    from ..model.traces.errors import Remedy

    remedy = getattr(exc, "remedy", None)
    if remedy is Remedy.NAME_STEP:
        return "" if window else "; name the step annotation with --step"  # the window imports such a trace whole
    if remedy is Remedy.KEEP_A_STEP:
        return (
            "; tick at least one step, or import the Whole trace"
            if window
            else "; keep at least one step or import the whole trace (--total)"
        )
    return ""


def cli_notes(notes: Iterable[ImportNote]) -> tuple[str, ...]:
    """The notes as the command line says them, with the flags that act on them."""
    return tuple(note_text(note) + _cli_tail(note) for note in notes)


def window_notes(notes: Iterable[ImportNote], n: Numbers = POINT) -> tuple[str, ...]:
    """The notes as the import dialog says them, with its controls that act on them, in the desktop's numbers
    ``n``."""
    return tuple(note_text(note, n) + _window_tail(note) for note in notes)
