"""A what-if on a trace's critical path (``whatif``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..model.names import STEP_PREFIX
from .common import PathLike, frame, json_equal

if TYPE_CHECKING:
    import pandas as pd

    from ..files.traces.graph_source import RankGraph
    from ..model.traces.whatif import WhatIf as ModelWhatIf
    from .job import JobWhatIf


def speedup_texts(speedups: Mapping[str, float | str] | Iterable[str]) -> list[str]:
    if isinstance(speedups, Mapping):
        return [f"{pattern}={k}" for pattern, k in speedups.items()]
    if isinstance(speedups, str):
        return [speedups]
    return list(speedups)


def whatif(
    trace: PathLike | Sequence[PathLike],
    speedups: Mapping[str, float | str] | Iterable[str],
    step: str = STEP_PREFIX,
    rank: int | None = None,
    on_ranks: str | Iterable[int] | None = None,
    scheduler: str | None = None,
) -> WhatIf | JobWhatIf:
    """What making the events of ``trace`` that each pattern matches K times faster buys, with the trace's
    dependencies: ``amdahl-desk whatif``.

    ``speedups``: ``{"gemm": 2, "re:^nccl": 1.5}`` (or ``["gemm=2"]``): a pattern is a case-insensitive substring
    of an event's name, ``re:`` a regular expression, ``in:`` the GPU work launched inside the CPU events it names.
    ``step``: the step annotations. As on the command line, several traces, a folder or a glob answer for the
    job (a :class:`~amdahl_desk.api_parts.job.JobWhatIf`): the events scaled on every rank, or on ``on_ranks``
    (``"0-3,7"`` or a list), read on a Dask ``scheduler`` if given; ``rank`` answers for that rank of a folder
    alone (a :class:`WhatIf`). Raises :class:`BadInputError` for a bad pattern, K or rank,
    :class:`ProfileError` (a trace error) for a trace it cannot read.
    """
    from ..cli.common import refusal_text
    from ..cli.whatif import is_job, what_if_answer
    from ..model.errors import BadInputError, InputError
    from .job import job_whatif, ranks_text, trace_texts

    texts, patterns = trace_texts(trace), speedup_texts(speedups)
    if not patterns:
        raise BadInputError("--speedup PATTERN=K: give at least one (the events of the trace to make K× faster)")
    try:
        if is_job(texts, rank, ranks_text(on_ranks), scheduler):
            return job_whatif(texts, patterns, step, on_ranks, scheduler)
        if len(texts) > 1:
            raise BadInputError("--rank answers for one rank of a folder of traces: give the folder (or one trace)")
        loaded, answer = what_if_answer(texts[0], patterns, step, rank)
    except InputError as exc:  # worded as the command words it, flag and all
        raise BadInputError(refusal_text(exc)) from None
    return WhatIf(loaded, step, answer)


class WhatIf:
    """A what-if on a trace's critical path (see :func:`whatif`); times in ms, means over the steps."""

    def __init__(self, loaded: RankGraph, step: str, answer: ModelWhatIf) -> None:
        self._loaded, self._step, self._answer = loaded, step, answer

    @property
    def speedup(self) -> float:
        """Step time before ÷ after, on the recomputed critical path."""
        return self._answer.speedup

    @property
    def sum_speedup(self) -> float | None:
        """What Amdahl's law on the matched events' summed time promises (None when the patterns overlap)."""
        return self._answer.sum_speedup

    @property
    def baseline(self) -> float:
        """The mean step time measured, in ms."""
        return self._answer.baseline

    @property
    def predicted(self) -> float:
        """The mean step time predicted, in ms."""
        return self._answer.predicted

    @property
    def ceiling(self) -> float | None:
        """The speedup were the matched events free."""
        return self._answer.ceiling

    @property
    def summary(self) -> str:
        """The review answer, as ``amdahl-desk whatif`` words it."""
        from ..present.whatif import what_if_view

        return what_if_view(self._answer).sentence

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk whatif`` prints."""
        from ..present.whatif import what_if_view

        return what_if_view(self._answer).text

    @property
    def critical_path(self) -> pd.DataFrame:
        """The step's critical path by kind of work (CPU, GPU compute, communication, copies, launches, waiting):
        its time before and after, in ms, indexed by kind."""
        from ..present.whatif import KIND_LABELS

        a = self._answer
        rows = [
            {
                "kind": kind,
                "label": KIND_LABELS.get(kind, kind),
                "baseline": time,
                "predicted": a.predicted_by_kind[kind],
            }
            for kind, time in a.by_kind.items()
        ]
        return frame(rows, ("kind", "label", "baseline", "predicted"), index="kind")

    @property
    def steps(self) -> pd.DataFrame:
        """Each step's time before and after, in ms."""
        rows = [{"name": n, "baseline": b, "predicted": p} for n, b, p in self._answer.step_figures]
        return frame(rows, ("name", "baseline", "predicted"))

    @property
    def patterns(self) -> pd.DataFrame:
        """Per pattern: its K, the events it matched per step and their own time (ms), by kind of event."""
        rows = [
            asdict(p)  # the fields in the order ``whatif --json`` writes them
            for p in self._answer.patterns
        ]
        return frame(rows, ("pattern", "k", "events", "time", "kernels", "copies", "operators", "calls", "component"))

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk whatif --json`` prints for the same trace, patterns, step and rank."""
        from ..cli.whatif import to_json_dict

        return json_equal(to_json_dict(self._loaded, self._step, self._answer))  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<WhatIf {self._loaded.source}: {self.speedup:.4g}× ({self.baseline:.4g} → {self.predicted:.4g} ms)>"

    def _repr_markdown_(self) -> str:
        return self.summary
