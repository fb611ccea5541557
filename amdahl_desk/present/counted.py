"""What the scaling's N counts, in words: GPUs, or the ranks of a CPU job.

A profile imported from a trace that holds no GPU events (a job whose ranks ran over gloo on CPUs) scales over its
ranks: its scaling chart, the report's and the workbook's scaling sentences and tables say "ranks" where every other
profile says "GPUs". The fact is the import's (``Settings.trace_gpu_events``, from its scope's ``gpu_events``, which
the boundary sentence words too); a workbook of its own, or a trace with GPU events, says GPUs as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.profile import Settings
from .numbers import POINT, Numbers


@dataclass(frozen=True)
class Counted:
    """The words for N: ``one`` and ``many`` mid-sentence, ``heading`` at the head of a column or an axis, and the
    scaling's name (its chart, tab and sentences)."""

    one: str
    many: str
    heading: str
    scaling: str

    def count(self, count: int, n: Numbers = POINT) -> str:
        """``8 GPUs``, ``1 GPU``, ``4 ranks``."""
        return f"{n.count(count)} {self.one if count == 1 else self.many}"

    @property
    def axis(self) -> str:
        """The scaling chart's N axis."""
        return f"{self.heading} N (log₂ scale)"


GPUS = Counted("GPU", "GPUs", "GPUs", "GPU scaling")
RANKS = Counted("rank", "ranks", "Ranks", "Rank scaling")


def counted_for(gpu_events: bool | None) -> Counted:
    """What N counts for a trace that says whether it holds GPU events: its ranks when it holds none (False), else
    GPUs (True, or None: nothing said). The one rule the scaling's words and the boundary's both follow."""
    return RANKS if gpu_events is False else GPUS


def counted(settings: Settings) -> Counted:
    """What N counts for a profile of these settings: its ranks when its trace holds no GPU events, else GPUs."""
    return counted_for(settings.trace_gpu_events)
