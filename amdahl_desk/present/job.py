"""A job of many ranks in words: the step, the straggler and its cost, each rank's compute, communication and
waiting, the collectives' skew; and what a speedup buys the job. The command line prints these texts; the
window can show the same ones beside its charts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.units import fixed
from .numbers import POINT, Numbers
from .text import column, display_width

if TYPE_CHECKING:  # the job's model (and the trace model under it) loads with the first job, not the window
    from ..model.job.analysis import Job, JobWhatIf, WaitFigures


def ranges(numbers: Sequence[int]) -> str:
    """0-3,7 for [0, 1, 2, 3, 7] (the model's rank_ranges)."""
    from ..model.job.analysis import rank_ranges

    return rank_ranges(numbers)


NOTHING = 1.0005  # a speedup below this is "nothing"


def ms(value: float, n: Numbers = POINT) -> str:
    return f"{n.plain(value, '.1f' if abs(value) >= 0.05 or value == 0 else '.3f')} ms"


def _plural(count: int, word: str, n: Numbers = POINT) -> str:
    return f"{n.count(count)} {word}{'s' * (count != 1)}"


@dataclass(frozen=True)
class JobView:
    """The texts of a job's analysis."""

    sentence: str  # the review answer: the step, the straggler and what fixing it buys
    ranks_table: tuple[str, ...]  # a header and one line per rank
    collectives: tuple[str, ...]
    replay: str
    clocks: str

    @property
    def text(self) -> str:
        parts = [self.sentence, "", *self.ranks_table, "", *self.collectives, "", self.replay]
        if self.clocks:
            parts.append(self.clocks)
        return "\n".join(parts)


def others_pace(job: Job) -> str:
    """Whose pace the straggler's cost measures it against: "the other ranks' median", or of two ranks the other's
    ("rank 0's")."""
    other = _the_other(job)
    return f"rank {other}'s" if other is not None else "the other ranks' median"


def _the_other(job: Job) -> int | None:
    """Of two ranks, the one that is not the straggler; None for more."""
    others = [r for r in job.ranks if r != job.straggler]
    return others[0] if len(others) == 1 else None


def straggler_sentence(job: Job, n: Numbers = POINT) -> str:
    """Who the others wait for, how long, and what making its work the other ranks' median buys the job."""
    if job.straggler is None:  # with ranks not given, of those given only: the straggler may be one not given
        if len(job.ranks) < 2:
            return (
                "One rank given: it waits for no other given."
                if job.missing
                else "One rank: no rank waits for another."
            )
        given = "Of the ranks given, no" if job.missing else "No"
        return f"{given} rank waits for another at the collectives."
    waited = next(r.waited_for for r in job.per_rank if r.rank == job.straggler)
    most = sorted(job.straggler_waits, key=lambda w: -w.wait)[:3]
    who = "; ".join(f"rank {w.rank} {ms(w.wait, n)} at the {w.collective}" for w in most)
    more = "; …" if len(job.straggler_waits) > 3 else ""
    after = job.step_time - job.straggler_cost
    other = _the_other(job)
    if other is not None:  # one other rank: its wait, its pace
        where = f" at the {most[0].collective}" if most else ""
        waits = f"rank {other} waits {ms(waited, n)} per step for it{where}"
    else:
        waits = f"the other ranks wait {ms(waited, n)} per step for it in all ({who}{more})"
    pace = others_pace(job)
    if job.straggler_cost > 0.0005 * job.step_time:
        cost = (
            f"were its work as fast as {pace}, the job's step would take {ms(after, n)} instead of "
            f"{ms(job.step_time, n)} (−{ms(job.straggler_cost, n)})"
        )
    else:
        cost = f"yet its work is no slower than {pace}: fixing it alone buys nothing"
    lead = (
        f"Of the ranks given, rank {job.straggler} is the slowest"
        if job.missing
        else f"Rank {job.straggler} is the straggler"
    )
    return f"{lead}: {waits}; {cost}."


def step_sentence(job: Job, n: Numbers = POINT) -> str:
    """The job's step, and why it is longer than every rank's own when it is: "The job's step takes 118.2 ms (4
    ranks, 4 steps, means per step) from the first rank's start to the last rank's end; …"."""
    ranks, steps = len(job.ranks), len(job.steps)
    head = (
        f"The job's step takes {ms(job.step_time, n)} ({_plural(ranks, 'rank', n)}, {_plural(steps, 'step', n)}, "
        "means per step)."
    )
    longest = max((r.step_time for r in job.per_rank), default=0.0)
    if ranks > 1 and job.step_time - longest > max(0.005 * job.step_time, 0.05):
        # from the earliest start to the latest end: longer than every rank's own step, which needs saying
        shortest = min(r.step_time for r in job.per_rank)
        head = head[:-1] + (
            f" from the first rank's start to the last rank's end; each rank's own takes "
            f"{ms(shortest, n).removesuffix(' ms')}–{ms(longest, n)}, as the ranks start {ms(job.start_spread, n)} "
            f"and end {ms(job.end_spread, n)} apart."
        )
    return head + missing_sentence(job, n)


def missing_sentence(job: Job, n: Numbers = POINT) -> str:
    """A space and "Its traces say the job has 4 ranks, and ranks 2-3 are not given: …", or "" with every rank
    given. A rank that waits for one not given counts that waiting as transfer, and the straggler may be one not
    given."""
    missing = job.missing
    if not missing:
        return ""
    one = len(missing) == 1
    given = "the given ranks wait" if len(job.ranks) > 1 else f"rank {job.ranks[0]} waits"
    return (
        f" Its traces say the job has {_plural(job.stated_size or 0, 'rank', n)}, and rank{'s' * (not one)} "
        f"{listed(missing)} {'is' if one else 'are'} not given: time {given} for {'it' if one else 'them'} "
        f"counts here as transfer, and the straggler may be {'that rank' if one else 'among them'}."
    )


def straggler_word(job: Job) -> str:
    """What the rank the others wait for is called: "straggler", or "slowest given" where ranks the traces state
    were not given (the straggler may be one of those)."""
    return "slowest given" if job.missing else "straggler"


def straggler_name(job: Job) -> str:
    """:func:`straggler_word` with its article: "the straggler"."""
    return f"the {straggler_word(job)}"


def whose_ranks(job: Job, count: str, n: Numbers = POINT) -> str:
    """ "A job of 4 ranks", or "2 of a job's 4 ranks" where some were not given (``count``: the ranks, formatted)."""
    if job.missing:
        return f"{count} of a job's {n.count(job.stated_size or 0)} ranks"
    return f"A job of {count} ranks"


def listed(numbers: Sequence[int]) -> str:
    """Ranks in prose: "2-3", "0 and 2", "0-3, 7 and 9" (the runs as :func:`ranges` writes them)."""
    parts = ranges(numbers).split(",")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def job_view(job: Job, n: Numbers = POINT) -> JobView:
    """The job in words, its sentences in ``n``'s separators (the tables of ranks and collectives are the command
    line's, in the files' format)."""
    head = step_sentence(job, n)
    rows = ["rank    step  compute  communication  waiting  waited for"]
    for r in job.per_rank:
        mark = "  ← straggler" if r.rank == job.straggler else ""
        rows.append(
            f"{r.rank:>4} {r.step_time:>7.1f} {r.compute:>8.1f} {r.communication:>14.1f} {r.waiting:>8.1f} "
            f"{r.waited_for:>11.1f}{mark}"
        )
    if any(r.compute > 0 for r in job.per_rank):
        rows.append("(ms per step: GPU compute busy time; the transfer of its collectives; its waiting at them)")
    else:  # a CPU job (gloo): compute 0.0 on the straggler read as if it did nothing
        rows.append(
            "(ms per step: compute is GPU busy time, and these traces hold no GPU events: a CPU job, or GPU activity "
            "not recorded; the transfer of its collectives; its waiting at them)"
        )
    width = min(max([10, *(display_width(c.name) for c in job.collectives)]), 48)
    colls = [f"{'collective':<{width}}  count  transfer  skew mean  skew max (ms)"] if job.collectives else []
    for c in job.collectives:
        colls.append(
            f"{column(c.name, width)} {c.count:>6,} {c.transfer:>9.3f} {c.skew_mean:>10.3f} {c.skew_max:>9.3f}"
        )
    if not job.collectives:
        colls.append("The traces hold no collective: the ranks run independently.")
    replay = (
        f"Replayed as measured, the ranks' graphs joined at their collectives give back every rank's step "
        f"within {ms(job.replay_error, n)}."
    )
    clocks = ""
    if len(job.host_offsets) > 1:
        offs = ", ".join(f"{h or '(unnamed)'} {v:+.3f} ms" for h, v in job.host_offsets.items())
        clocks = f"Host clocks aligned by the ends of shared collectives: {offs}."
        if not job.hosts_aligned:
            clocks += " Some hosts share no collective with the others: their clocks are taken as they are."
    return JobView(f"{head} {straggler_sentence(job, n)}", tuple(rows), tuple(colls), replay, clocks)


def _speedups(w: JobWhatIf) -> str:
    return " and ".join(f"{p} {k:g}× faster" for p, k in w.speedups)


def _ratio(baseline: float, predicted: float) -> str:
    if predicted <= 0:
        return "to nothing"
    k = baseline / predicted
    return "nothing" if k < NOTHING else f"{fixed(k, 2)}×"


def _waits_for(waits: Sequence[WaitFigures], rank: int) -> WaitFigures | None:
    return next((w for w in waits if w.rank == rank), None)


@dataclass(frozen=True)
class JobWhatIfView:
    sentence: str
    ranks_table: tuple[str, ...]
    steps: str
    replay: str

    @property
    def text(self) -> str:
        return "\n".join([self.sentence, "", *self.ranks_table, self.steps, self.replay])


def job_what_if_view(w: JobWhatIf, what: str = "") -> JobWhatIfView:
    """The job's what-if in words; ``what`` names what is made faster (default: each pattern and its K)."""
    where = "on every rank" if w.on_ranks is None else f"on rank{'s' * (len(w.on_ranks) != 1)} {ranges(w.on_ranks)}"
    k = w.speedup
    if w.predicted > 0 and k < NOTHING:
        answer = f"does not shorten the job's step ({fixed(w.baseline, 1)} → {fixed(w.predicted, 1)} ms)"
    else:
        answer = f"shortens the job's step {fixed(k, 2)}× ({fixed(w.baseline, 1)} → {fixed(w.predicted, 1)} ms)"
    sentence = f"Making {what or _speedups(w)} {where} {answer}"
    for rank, predicted in w.alone:
        ratio = _ratio(w.baseline, predicted)
        sentence += f"; on rank {rank} alone {ratio}"
        wait = _waits_for(w.straggler_waits, rank)
        if ratio == "nothing" and wait is not None:
            sentence += f": rank {rank} already waits {ms(wait.wait)} for rank {wait.for_rank} at the {wait.collective}"
    sentence += "."
    sentence += sums_sentence(w)
    rows = ["rank  baseline  predicted"]
    rows += [f"{a.rank:>4} {a.baseline:>9.1f} {a.predicted:>10.1f}" for a in w.per_rank]
    steps = "Steps: " + "; ".join(f"{n}: {ms(b)} → {ms(p)}" for n, b, p in w.step_figures)
    replay = f"Replayed as measured, the joined graph gives back every rank's step within {ms(w.replay_error)}."
    return JobWhatIfView(sentence, tuple(rows), steps, replay)


def sums_sentence(w: JobWhatIf, n: Numbers = POINT) -> str:
    """ " Amdahl's law on rank 2's sums says 1.53×." — the rank whose sums, named: the straggler's when the plan
    scales it, else the slowest rank it scales, which does not set the job's pace."""
    if w.sum_speedup is None:
        return ""
    text = f" Amdahl's law on rank {w.sum_rank}'s sums says {n.plain(w.sum_speedup, '.2f')}×"
    if w.straggler is not None and w.sum_rank != w.straggler:
        text += f", though the job waits for rank {w.straggler}"
    return text + "."
