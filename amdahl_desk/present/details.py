"""Under the summary: each objective's figures, the loaded service and the cost, as the window and the Summary sheet show them."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .cost import cost_sentence
from .load import load_dependencies_note, load_sentence, max_rate_sentence, plan_phrase
from .numbers import POINT, Numbers
from .objectives import dependencies_note, objective_cells


@dataclass(frozen=True)
class DetailsView:
    """The objectives table (header row first; ``met`` per objective: True, False or None without a target),
    and the load, load-limit and cost sentences — each empty when the profile has none of it. ``note``: under a
    traced profile's table, which row is the step on the critical path, the sum's figure beside."""

    cells: tuple[tuple[str, ...], ...] = ()
    met: tuple[bool | None, ...] = ()
    load: str = ""
    max_rate: str = ""
    cost: str = ""
    note: str = ""

    @property
    def empty(self) -> bool:
        return not (self.cells or self.load or self.cost)


COMPUTING_NOTE = "The step's figures with the trace's dependencies are being computed …"


def details(profile: Profile, outcomes: Outcomes | None, n: Numbers = POINT, computing: bool = False) -> DetailsView:
    """What ``outcomes`` (objectives, load and cost of ``profile``) add to the answer. ``computing``: a traced
    profile whose answer is on its way — the step's figures (the objectives table, the load, the cost) are not
    shown until it comes, never the sum's in its place."""
    if outcomes is None:
        return DetailsView()
    if computing:
        return DetailsView(note=COMPUTING_NOTE)
    cells: tuple[tuple[str, ...], ...] = ()
    met: tuple[bool | None, ...] = ()
    if len(outcomes.objectives) > 1:
        cells = tuple(tuple(row) for row in objective_cells(outcomes.table, n))
        met = tuple(r.target_met for r in outcomes.table.rows)
    load = outcomes.load
    cost = outcomes.cost
    load_text = ""
    if load is not None:
        load_text = " ".join(
            t
            for t in (
                load_sentence(load, plan_phrase(profile), n),
                load_dependencies_note(load, outcomes.objectives, n),
            )
            if t
        )
    return DetailsView(
        cells,
        met,
        load_text,
        (max_rate_sentence(load, n) or "") if load is not None else "",
        cost_sentence(cost, profile.unit, n) if cost.priced else "",
        dependencies_note(outcomes, profile, n) if cells else "",
    )
