"""The objective the answer is seen through, and the profile's objectives, load and cost computed once per change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from ...model.analysis import Analysis
from ...model.load_settings import hourly_rate
from ...model.objective_specs import END_TO_END, objective_key
from ...model.objectives import ObjectiveFigures, find_objective, restrict_analysis
from ...model.outcomes import Outcomes, analyse_outcomes
from ..core.document import Document
from ..core.redraw import RedrawScheduler
from ..core.state import Aspect

if TYPE_CHECKING:  # the trace's model loads with the first trace
    from ...model.traces.plan_answer import TraceAnswer

EXTRAS_DEPEND_ON = frozenset(
    {Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.OBJECTIVES, Aspect.TRACE}
)


class ObjectiveChoice(QObject):
    """Window state, like the current optimization: which objective the headline, sentence and charts follow.

    A choice that the profile no longer has (its components renamed it) falls back to End to end without
    being forgotten: it comes back when the objective does (an undo).
    """

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc, self.redraws = doc, redraws
        self.chosen = END_TO_END
        self._outcomes: Outcomes | None = None
        self._revision: tuple[int, object] = (-1, None)

    def _answer(self, analysis: Analysis) -> TraceAnswer | str | None:
        """The traced profile's answer for the plan as it is now (:data:`COMPUTING` while on its way; None: the sum
        is the answer)."""
        link = getattr(self.doc, "trace", None)
        if link is None or not link.figures.named:
            return None
        from ...present.trace_plan import current_answer

        return current_answer(link.figures, self.doc.profile, analysis)

    @property
    def computing(self) -> bool:
        """Whether the step's figures (End to end, the load on it, the cost's saving) wait for the trace's answer."""
        analysis = self.doc.analysis
        if analysis is None:
            return False
        from ...present.trace_plan import COMPUTING

        return self._answer(analysis) == COMPUTING

    @property
    def outcomes(self) -> Outcomes | None:
        """Objectives, load and cost of the document as it is now; None without an analysis. A traced profile's
        End to end, the load on it and the cost's saving are its answer with the trace's dependencies (the sum's
        while that answer is computed: :attr:`computing` says so)."""
        analysis = self.doc.analysis
        if analysis is None:
            return None
        found = self._answer(analysis)
        answer = found if found is not None and not isinstance(found, str) else None
        key = (self.doc.revision, None if answer is None else (answer.new_total, answer.options))
        if self._revision != key or self._outcomes is None:
            profile, objectives = self.doc.profile, self.doc.component_objectives
            self._outcomes = analyse_outcomes(
                profile,
                analysis,
                objectives.of_components(),
                profile.objectives,
                profile.settings,
                named=objectives.named(),
                answer=answer,
            )
            self._revision = key
        return self._outcomes

    def only_end_to_end(self) -> bool:
        """Whether End to end is the profile's only objective (no component names one, the Objectives sheet
        lists none): known without computing the objectives."""
        return not self.doc.profile.objectives and not self.doc.component_objectives.named()

    def outcomes_shown(self) -> bool:
        """Whether the answer shows any of the outcomes: another objective, the loaded service, a cost. Without
        them nothing computes the outcomes at each change (the load and cost charts ask when their tab shows)."""
        settings = self.doc.profile.settings
        return not self.only_end_to_end() or settings.arrival_rate is not None or hourly_rate(settings) is not None

    def objective(self) -> ObjectiveFigures | None:
        """The chosen objective's figures (End to end when the chosen one is gone), or None without analysis."""
        outcomes = self.outcomes
        if outcomes is None:
            return None
        return find_objective(outcomes.objectives, self.chosen) or outcomes.objectives[0]

    def choose(self, name: str) -> None:
        if objective_key(name) != objective_key(self.chosen):
            self.chosen = name
            self.redraws.request(frozenset({Aspect.OBJECTIVE}))

    def view(self, analysis: Analysis | None) -> Analysis | None:
        """``analysis`` seen through the chosen objective (itself for End to end)."""
        if analysis is None or objective_key(self.chosen) == objective_key(END_TO_END):
            return analysis  # End to end is the whole analysis: no objectives computed to say so
        objective = self.objective()
        if analysis is None or objective is None:
            return analysis
        return restrict_analysis(analysis, objective)
