"""The ticked plan's odds and the cheapest plan, kept current for the document, never shown for another plan.

The document composes one :class:`DecisionLink`. After every change of the components, the checklist or the
settings it asks again: the odds (the Monte Carlo of the ticked plan) and the cheapest plan (the search over
the optimizations with an effort, which a tick does not change). Each runs at once, inside the change, when the
last one took under :data:`SYNC_SECONDS` (a small profile: no flicker, no wait); otherwise on a thread of its own
(``core/background``), where a newer request makes an older one stale (the plan search stops at its next
branch). Until the answer for the profile as it is now comes, :attr:`figures` and :attr:`search` are None and
the views say they are being computed; the answer is announced as the document's ``changed({DECISION})``.
Answers are kept by what they depend on, so undo and a tick back show theirs at once.

For a profile that carries its trace the odds and the cheapest plan run through the trace's dependency model
(:func:`~amdahl_desk.model.traces.plan_answer.trace_uncertainty`,
:func:`~amdahl_desk.model.traces.plan_choice.trace_cheapest_plan`): until the trace is read, and then until that
answer comes, they are being computed — never the sum's shown in their place. The headline comes first: these run
on the decision's own threads, not the trace's (a search of 0.5–0.9 s queued there held the answer of the next
tick behind it), are asked only once the trace has answered the plan as it is now, and give way (pause at their
next branch) while the trace's thread has work, so a tick's answer never waits for a search.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from ...model.errors import ProfileError
from ...model.profile import Profile
from .background import Background, Stale
from .change import Change
from .state import Aspect

if TYPE_CHECKING:  # the draws', the odds' and the search's modules load with the first estimate that needs them
    from ...model.draws import Draws
    from ...model.plan_search import PlanSearch
    from ...model.uncertainty import UncertaintyFigures
    from .document import Document

YIELD_SECONDS = 0.002  # how long a traced search sleeps, at a branch, while the trace's thread has work
SYNC_SECONDS = 0.004  # a computation that took less than this last time runs inside the change itself
KEPT = 16  # answers kept per kind: undo, redo and ticking back show theirs at once
COMPUTING = "computing"  # what a chart is given while the odds of the plan it shows are on their way
RELEVANT = frozenset({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.TRACE})
ANNOUNCED = frozenset({Aspect.DECISION})
ODDS, PLAN = "odds", "plan"
WHAT = {ODDS: "odds of the plan", PLAN: "cheapest plan"}


class _StoppedError(Exception):
    """A job whose answer is no longer wanted (the background drops it)."""


class DecisionLink(QObject):
    """What the views read: :attr:`figures`, :attr:`search`, and whether each is on its way."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._components = 0  # counts changes of the components: part of every key
        self._keys: dict[str, Any] = {ODDS: None, PLAN: None}  # what each answer must be of now (None: not wanted)
        self._answers: dict[str, OrderedDict[Any, Any]] = {ODDS: OrderedDict(), PLAN: OrderedDict()}
        self._asked: dict[str, Any] = {ODDS: None, PLAN: None}  # the key asked of each thread last
        self._costs = {ODDS: float("inf"), PLAN: float("inf")}  # seconds the last answer of each took
        self._errors: dict[str, str] = {}
        self._draws: tuple[Any, Draws] | None = None  # the common draws of the last key (under _lock)
        self._lock = threading.RLock()
        self._work: dict[str, Background] = {}
        doc.changed.connect(self._changed)

    # -- what the views read -----------------------------------------------------------------------
    @property
    def figures(self) -> UncertaintyFigures | None:
        """The ticked plan's odds for the profile as it is now (None: nothing is uncertain, or still computing) —
        with a job held, the job's (each draw replayed through its ranks, ``ui/job/job_whatif``)."""
        job = self.doc.job.figures
        if job is not None:
            odds = job.current_odds(self.profile_figures)
            return None if odds is None or isinstance(odds, str) else odds
        return self.profile_figures

    @property
    def profile_figures(self) -> UncertaintyFigures | None:
        """The odds of the profile's own plan (its trace's, else the sum's): what a job's odds are drawn from."""
        found: UncertaintyFigures | None = self._current(ODDS)
        return found

    @property
    def search(self) -> PlanSearch | None:
        """The cheapest plan for the profile as it is now (None: no target or effort, or still searching; a job:
        not searched through its ranks)."""
        if self.doc.job.figures is not None:
            return None
        found: PlanSearch | None = self._current(PLAN)
        return found

    @property
    def profile_search(self) -> PlanSearch | None:
        """The cheapest plan among the profile's own optimizations (its trace's, else the sum's), job or not."""
        found: PlanSearch | None = self._current(PLAN)
        return found

    @property
    def odds_pending(self) -> bool:
        job = self.doc.job.figures
        if job is not None:
            base = self.profile_figures
            wanted = any(o.enabled for o in self.doc.profile.optimizations)
            return self._pending(ODDS) or (base is not None and wanted and job.current_odds(base) is None)
        return self._pending(ODDS)

    @property
    def plan_pending(self) -> bool:
        return self.doc.job.figures is None and self._pending(PLAN)

    @property
    def errors(self) -> dict[str, str]:
        """Why the "odds" or the "plan" could not be computed (a job's odds: why its ranks cannot answer them)."""
        job = self.doc.job.figures
        odds = job.current_odds(self.profile_figures) if job is not None else None
        return {**self._errors, "odds": odds} if isinstance(odds, str) else self._errors

    @property
    def busy(self) -> bool:
        """Whether an answer is still on its way (tests and screenshots wait for this to end)."""
        return self.odds_pending or self.plan_pending or any(w.busy for w in self._work.values())

    def chart_figures(self) -> UncertaintyFigures | str | None:
        """For a chart: the figures, :data:`COMPUTING` while they are on their way, None when nothing is uncertain."""
        return COMPUTING if self.odds_pending else self.figures

    def _current(self, lane: str) -> Any:
        key = self._keys[lane]
        return None if key is None else self._answers[lane].get(key)

    def _pending(self, lane: str) -> bool:
        key = self._keys[lane]
        return key is not None and key not in self._answers[lane] and lane not in self._errors

    def close(self) -> None:
        for work in self._work.values():
            work.close()

    # -- following the document --------------------------------------------------------------------
    def _changed(self, aspects: Change) -> None:
        if not aspects & RELEVANT:
            return
        if Aspect.COMPONENTS in aspects:
            self._components += 1
        self.refresh()

    def refresh(self) -> None:
        """Ask for the answers the profile as it is now needs (after a change)."""
        doc = self.doc
        profile, analysis = doc.profile, doc.analysis
        settings = profile.settings
        uncertain = analysis is not None and profile.has_uncertainty()
        planning = analysis is not None and profile.wants_plan()
        if not uncertain and not planning:
            self._keys = {ODDS: None, PLAN: None}
            return
        from ...model.plan_search import SearchStoppedError, cheapest_plan
        from ...model.uncertainty import analyse_uncertainty

        draws_key = (self._components, tuple(replace(o, enabled=False) for o in profile.optimizations))
        enabled = tuple(o.enabled for o in profile.optimizations)
        link = getattr(self.doc, "trace", None)
        from ...present.trace_plan import trace_based  # with a trace's plan, not with the window

        traced = link is not None and trace_based(link.figures)
        planner = link.planner if traced and link is not None and link.figures.ready else None
        # The headline first: with its plan's answer still on the trace's thread, these are asked when it comes
        # (the answer is announced as TRACE, which asks again); till then they are being computed.
        behind = planner is not None and link is not None and link.figures.current(profile) is None
        through = id(planner) if planner is not None else "waiting for the trace" if traced else None
        odds_key = (draws_key, enabled, settings.target_time, through) if uncertain else None
        plan_key = (draws_key, settings.target_time, settings.plan_confidence, through) if planning else None
        self._keys = {ODDS: odds_key, PLAN: plan_key}
        snapshot: list[Profile] = []

        def copy() -> Profile:  # made once, and only for a thread: the document changes the profile in place
            if not snapshot:
                snapshot.append(profile.copy())
            return snapshot[0]

        def giving_way(stop: Callable[[], bool] | None) -> Callable[[], bool]:
            """``stop``, asked at each branch of a traced job, after waiting while the trace's thread has work."""

            def asked() -> bool:
                while link is not None and link.busy and not (stop is not None and stop()):
                    time.sleep(YIELD_SECONDS)
                return stop is not None and stop()

            return asked

        assert analysis is not None
        if odds_key is not None:

            def odds(p: Profile, stop: Callable[[], bool] | None = None) -> UncertaintyFigures:
                return analyse_uncertainty(p, analysis, draws=self._draws_of(draws_key, p))

            if planner is not None and link is not None:

                def traced_odds(p: Profile, stop: Callable[[], bool] | None = None) -> UncertaintyFigures:
                    from ...model.traces.plan_answer import DrawsStoppedError, trace_uncertainty

                    figures = odds(p, stop)
                    if any(planner.unknown(o.targets) for o in p.optimizations if o.enabled):
                        return figures  # the trace cannot say: the summary says so, the odds are the sum's
                    try:
                        return trace_uncertainty(p, analysis, figures, planner, giving_way(stop))
                    except DrawsStoppedError:
                        raise _StoppedError from None

                if not behind:
                    self._ask(ODDS, odds_key, traced_odds, profile, copy, background=True)
            elif not traced:
                self._ask(ODDS, odds_key, odds, profile, copy)
        if plan_key is not None and settings.target_time is not None:
            target, level = settings.target_time, settings.plan_confidence

            def plan(p: Profile, stop: Callable[[], bool] | None = None) -> PlanSearch:
                try:
                    return cheapest_plan(p, self._draws_of(draws_key, p), target, level, stop=stop)
                except SearchStoppedError:
                    raise _StoppedError from None

            if planner is not None and link is not None:

                def traced_plan(p: Profile, stop: Callable[[], bool] | None = None) -> PlanSearch:
                    from ...model.traces.plan_choice import trace_cheapest_plan

                    try:
                        found = trace_cheapest_plan(
                            p, analysis, planner, self._draws_of(draws_key, p), target, level, stop=giving_way(stop)
                        )
                    except SearchStoppedError:
                        raise _StoppedError from None
                    return found if found is not None else plan(p, stop)  # the trace cannot say: the sum's

                if not behind:
                    self._ask(PLAN, plan_key, traced_plan, profile, copy, background=True)
            elif not traced:
                self._ask(PLAN, plan_key, plan, profile, copy)

    def _ask(
        self,
        lane: str,
        key: Any,
        job: Callable[..., Any],
        profile: Profile,
        copy: Callable[[], Profile],
        background: bool = False,
    ) -> None:
        """Ask ``job`` for ``key``: at once when it is quick (and not ``background``), else on the lane's thread."""
        self._errors.pop(lane, None)
        answers = self._answers[lane]
        if key in answers:
            answers.move_to_end(key)
            return
        if self._asked[lane] == key:
            return  # on its way
        work = self._work.get(lane)
        quick = not background and self._costs[lane] < SYNC_SECONDS
        if quick and (work is None or not work.busy) and self._lock.acquire(False):
            try:
                self._keep(lane, key, *self._timed(job, profile))
            except Exception as exc:  # noqa: BLE001 - said where the odds are shown; the window goes on
                self._errors[lane] = str(exc)
            finally:
                self._lock.release()
            return
        if work is None:
            work = self._work[lane] = Background(self)
        self._asked[lane] = key
        snapshot = copy()

        def run(stale: Stale) -> tuple[Any, float]:
            if stale():
                raise _StoppedError
            try:
                return self._timed(job, snapshot, stale)
            except MemoryError:
                raise ProfileError(f"not enough memory to work out the {WHAT[lane]}") from None

        work.submit(
            lane,
            run,
            lambda found: self._arrived(lane, key, found),
            lambda why: self._failed(lane, key, why),
        )

    @staticmethod
    def _timed(job: Callable[..., Any], *args: Any) -> tuple[Any, float]:
        start = time.perf_counter()
        found = job(*args)
        return found, time.perf_counter() - start

    def _keep(self, lane: str, key: Any, found: Any, seconds: float) -> None:
        self._costs[lane] = seconds
        answers = self._answers[lane]
        answers[key] = found
        while len(answers) > KEPT:
            answers.popitem(last=False)

    def _arrived(self, lane: str, key: Any, result: tuple[Any, float]) -> None:
        if self._asked[lane] == key:
            self._asked[lane] = None
        self._keep(lane, key, *result)
        if self._keys[lane] == key:
            self.doc.announce(*ANNOUNCED)

    def _failed(self, lane: str, key: Any, why: str) -> None:
        if self._asked[lane] == key:
            self._asked[lane] = None
        if self._keys[lane] == key:
            self._errors[lane] = why
            self.doc.announce(*ANNOUNCED)

    def _draws_of(self, key: Any, profile: Profile) -> Draws:
        """The common draws of ``key`` (both kinds of answer use the same ones, of the default seed), made once."""
        from ...model.draws import make_draws

        with self._lock:
            if self._draws is None or self._draws[0] != key:
                self._draws = (key, make_draws(profile))
            return self._draws[1]
