"""Everything a chart can be drawn from, in one value: what the window, the slide and every export hand a chart's view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .colours import ComponentColours

if TYPE_CHECKING:  # the odds' module loads numpy's random and the PERT tables: only a chart that shows them needs it
    # (and a comparison's and a trace plan's modules load with the first comparison or trace, not with the window)
    from ..model.comparison import Comparison
    from ..model.fit import FitResult  # the fits load with the first chart or panel that shows them
    from ..model.plan_search import PlanSearch
    from ..model.uncertainty import UncertaintyFigures
    from .job_charts import JobFigures
    from .trace_plan import TraceFigures


@dataclass(frozen=True)
class ChartInputs:
    """Which part a chart needs, its registry entry's source says. ``colours`` is the document's (None: a fresh
    one, as an export from the command line has); ``outcomes`` the objectives, load and cost when already
    computed (None: computed by the view that needs them)."""

    profile: Profile
    analysis: Analysis | None
    selected: int = -1  # the current optimization, or -1
    fit: FitResult | None = None  # the measured runs' fits
    comparison: Comparison | None = None  # the document (before) against a profile measured after
    colours: ComponentColours | None = None
    outcomes: Outcomes | None = None
    # The ticked plan's odds as the window computed them; a str: why they are not there yet (being computed);
    # None: the chart computes them itself (an export from the command line).
    uncertainty: UncertaintyFigures | str | None = None
    objective: str = ""  # the objective the analysis is seen through, when it is not End to end
    trace: TraceFigures | None = None  # what the window knows of the profile's trace (None: no trace asked for)
    # The cheapest plan as the window found it (None: the slide looks for it itself, when the profile asks for one).
    plan: PlanSearch | None = None
    slide_charts: tuple[str, ...] = ()  # the slide's two charts, by key (empty: the two that carry the answer)
    job: JobFigures | None = None  # the document's job of many ranks (None: the profile is no job)

    @property
    def rank(self) -> int | None:
        """The rank whose profile this is, under a job's headline (None: the profile is no job's)."""
        return self.job.profile_rank if self.job is not None else None

    def of_rank(self, title: str) -> str:
        """A chart's title of the profile's own figures, saying whose they are where a job's headline is above it:
        "Where the time goes: 113.2 ms → 46.3 ms (rank 2)"."""
        return title if self.rank is None else f"{title} (rank\u00a0{self.rank})"
