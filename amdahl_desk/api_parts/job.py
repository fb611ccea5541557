"""A job of many ranks (``amdahl-desk job``) and what a speedup buys it (``amdahl-desk whatif`` of a job)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cli.json_job import job_json
from ..model.names import STEP_PREFIX
from .common import PathLike, frame, json_equal, pandas_module

if TYPE_CHECKING:
    import pandas as pd

    from ..model.job.analysis import Job as ModelJob
    from ..model.job.analysis import JobWhatIf as ModelJobWhatIf


def trace_texts(traces: PathLike | Sequence[PathLike]) -> list[str]:
    """The command line's TRACES arguments: one path (a file, a folder, a glob) or several."""
    if isinstance(traces, (str, Path)) or not isinstance(traces, Sequence):
        return [str(traces)]
    return [str(t) for t in traces]


def ranks_text(on_ranks: str | Iterable[int] | None) -> str | None:
    """``--on-ranks``' text from ``"0-3,7"`` or a list of rank numbers."""
    if on_ranks is None or isinstance(on_ranks, str):
        return on_ranks
    return ",".join(str(int(r)) for r in on_ranks)


def job(traces: PathLike | Sequence[PathLike], step: str = STEP_PREFIX, scheduler: str | None = None) -> Job:
    """A job of many ranks, one PyTorch (Kineto) trace per rank — a folder, a glob or a list of files — joined at
    its collectives: ``amdahl-desk job``.

    ``step``: the step annotations; ``scheduler``: read the ranks on this Dask cluster (``tcp://host:8786``, the
    ``cluster`` extra) instead of local processes. Raises :class:`ProfileError` (a trace error) naming the file
    that cannot be read or joined.
    """
    from ..cli.job import job_answer

    texts = trace_texts(traces)
    return Job(job_answer(texts, step, scheduler), texts, step, scheduler)


@dataclass(frozen=True)
class Straggler:
    """The rank the others wait for most, and how much the job's step shortens were its own work as fast as the
    median of the other ranks' (of two ranks, the other's; ms)."""

    rank: int | None
    cost: float


class Job:
    """A job's answer (see :func:`job`); times in ms, means over the steps."""

    def __init__(self, answer: ModelJob, traces: list[str], step: str, scheduler: str | None) -> None:
        self._job, self._traces, self._step, self._scheduler = answer, traces, step, scheduler
        self._kept: Any = None  # the last what-if's job graph, replay and analysis (cli.whatif.job_what_if_kept)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The rank numbers, in the job's order."""
        return self._job.ranks

    @property
    def steps(self) -> tuple[int, ...]:
        """The step numbers matched across the ranks."""
        return self._job.steps

    @property
    def step_time(self) -> float:
        """The job's step (latest end over the ranks minus earliest start), mean over the steps, in ms."""
        return self._job.step_time

    @property
    def straggler(self) -> Straggler:
        """The straggler and its cost."""
        return Straggler(self._job.straggler, self._job.straggler_cost)

    @property
    def replay_error(self) -> float:
        """The largest gap between the joined graph replayed as measured and the measured ends, in ms."""
        return self._job.replay_error

    @property
    def per_rank(self) -> pd.DataFrame:
        """One row a rank, indexed by rank: its step, GPU compute, collectives' transfer, waiting at them, how long
        the others waited for it (ms per step), its file and host."""
        rows = job_json(self._job)["per_rank"]  # the rows of job --json, one home
        columns = ("rank", "step_time", "compute", "communication", "waiting", "waited_for", "source", "host")
        return frame(rows, columns, index="rank")

    @property
    def step_times(self) -> pd.DataFrame:
        """Each rank's measured time of each step (ms): ranks as rows, step numbers as columns."""
        pd = pandas_module()
        table = pd.DataFrame(
            [list(times) for times in self._job.rank_step_times],
            index=pd.Index(list(self._job.ranks), name="rank"),
            columns=pd.Index(list(self._job.steps), name="step"),
        )
        return table

    @property
    def collectives(self) -> pd.DataFrame:
        """Per collective: its instances over the steps, the mean transfer, the mean and largest skew (ms)."""
        rows = job_json(self._job)["collectives"]
        return frame(rows, ("name", "count", "transfer", "skew_mean", "skew_max"))

    @property
    def summary(self) -> str:
        """Who the straggler is and what fixing it buys, as ``amdahl-desk job`` words it."""
        from ..present.job import straggler_sentence

        return straggler_sentence(self._job)

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk job`` prints."""
        from ..present.job import job_view

        return job_view(self._job).text

    def whatif(
        self, speedups: Mapping[str, float | str] | Iterable[str], on_ranks: str | Iterable[int] | None = None
    ) -> JobWhatIf:
        """What making the matched events K× faster on every rank (or on ``on_ranks``: ``"0-3,7"`` or a list)
        buys this job — its traces are read again with the patterns marked, as ``amdahl-desk whatif`` does. The
        ranks' graphs read for the last what-if are kept (one job graph, a few hundred kB a rank): another with
        the same patterns and other K (or ranks) replays them without reading a trace."""
        from ..cli.common import refusal_text
        from ..cli.whatif import job_what_if_kept
        from ..model.errors import BadInputError, InputError
        from .trace import speedup_texts

        try:
            answer, self._kept = job_what_if_kept(
                self._traces, speedup_texts(speedups), self._step, ranks_text(on_ranks), self._scheduler, self._kept
            )
        except InputError as exc:  # worded as the command words it, flag and all
            raise BadInputError(refusal_text(exc)) from None
        return JobWhatIf(answer, self._step)

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk job --json`` prints for the same traces and step."""
        return json_equal(job_json(self._job))  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        s = self._job.straggler
        return f"<Job {len(self.ranks)} ranks: step {self.step_time:.4g} ms, straggler rank {s}>"

    def _repr_markdown_(self) -> str:
        return self.summary


def job_whatif(
    traces: PathLike | Sequence[PathLike],
    speedups: Mapping[str, float | str] | Iterable[str],
    step: str = STEP_PREFIX,
    on_ranks: str | Iterable[int] | None = None,
    scheduler: str | None = None,
) -> JobWhatIf:
    """A job's what-if (``amdahl-desk whatif TRACES… --speedup … [--on-ranks LIST]``)."""
    from ..cli.common import refusal_text
    from ..cli.whatif import job_what_if_answer
    from ..model.errors import BadInputError, InputError
    from .trace import speedup_texts

    try:
        answer = job_what_if_answer(trace_texts(traces), speedup_texts(speedups), step, ranks_text(on_ranks), scheduler)
    except InputError as exc:  # worded as the command words it, flag and all
        raise BadInputError(refusal_text(exc)) from None
    return JobWhatIf(answer, step)


class JobWhatIf:
    """What a speedup on every rank (or some) buys the job; times in ms, means over the steps."""

    def __init__(self, answer: ModelJobWhatIf, step: str) -> None:
        self._answer, self._step = answer, step

    @property
    def speedup(self) -> float:
        """The job's step before ÷ after, the ranks' graphs joined at their collectives."""
        return self._answer.speedup

    @property
    def sum_speedup(self) -> float | None:
        """What Amdahl's law on the straggler's summed matched time promises."""
        return self._answer.sum_speedup

    @property
    def baseline(self) -> float:
        """The job's step as measured (replayed at K = 1), in ms."""
        return self._answer.baseline

    @property
    def predicted(self) -> float:
        """The job's step predicted, in ms."""
        return self._answer.predicted

    @property
    def on_ranks(self) -> tuple[int, ...] | None:
        """The ranks the events were scaled on (None: every rank)."""
        return self._answer.on_ranks

    @property
    def per_rank(self) -> pd.DataFrame:
        """Each rank's step before and after (ms), indexed by rank."""
        rows = [{"rank": a.rank, "baseline": a.baseline, "predicted": a.predicted} for a in self._answer.per_rank]
        return frame(rows, ("rank", "baseline", "predicted"), index="rank")

    @property
    def steps(self) -> pd.DataFrame:
        """Each step's job time before and after, in ms."""
        rows = [{"step": n, "baseline": b, "predicted": p} for n, b, p in self._answer.step_figures]
        return frame(rows, ("step", "baseline", "predicted"))

    @property
    def summary(self) -> str:
        """The review answer, as ``amdahl-desk whatif`` words it for a job."""
        from ..present.job import job_what_if_view

        return job_what_if_view(self._answer).sentence

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk whatif`` prints for the job."""
        from ..present.job import job_what_if_view

        return job_what_if_view(self._answer).text

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk whatif TRACES… --json`` prints for the same patterns, ranks and step."""
        from ..cli.whatif import job_json_dict

        return json_equal(job_json_dict(self._step, self._answer))  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        a = self._answer
        return f"<JobWhatIf {len(a.ranks)} ranks: {self.speedup:.4g}× ({a.baseline:.4g} → {a.predicted:.4g} ms)>"

    def _repr_markdown_(self) -> str:
        return self.summary
