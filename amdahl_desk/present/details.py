"""Under the summary: each objective's figures, the loaded service and the cost, as the window and the Summary sheet show them."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .cost import cost_sentence
from .load import load_sentence, max_rate_sentence, plan_phrase
from .numbers import POINT, Numbers
from .objectives import objective_cells


@dataclass(frozen=True)
class DetailsView:
    """The objectives table (header row first; ``met`` per objective: True, False or None without a target),
    and the load, load-limit and cost sentences — each empty when the profile has none of it."""

    cells: tuple[tuple[str, ...], ...] = ()
    met: tuple[bool | None, ...] = ()
    load: str = ""
    max_rate: str = ""
    cost: str = ""

    @property
    def empty(self) -> bool:
        return not (self.cells or self.load or self.cost)


def details(profile: Profile, outcomes: Outcomes | None, n: Numbers = POINT) -> DetailsView:
    """What ``outcomes`` (objectives, load and cost of ``profile``) add to the answer."""
    if outcomes is None:
        return DetailsView()
    cells: tuple[tuple[str, ...], ...] = ()
    met: tuple[bool | None, ...] = ()
    if len(outcomes.objectives) > 1:
        cells = tuple(tuple(row) for row in objective_cells(outcomes.table, n))
        met = tuple(r.target_met for r in outcomes.table.rows)
    load = outcomes.load
    cost = outcomes.cost
    return DetailsView(
        cells,
        met,
        load_sentence(load, plan_phrase(profile), n) if load is not None else "",
        (max_rate_sentence(load, n) or "") if load is not None else "",
        cost_sentence(cost, profile.unit, n) if cost.priced else "",
    )
