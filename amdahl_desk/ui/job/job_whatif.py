"""The ticked plan answered for the job: its targets as the same event match on every rank (``model/job/plan``),
the ranks read again with those events scaled, the joined graph replayed (``model/job/analysis.job_what_if``).

Runs on the job's background lane; a plan asked while another is computed replaces it. The ranks read for a plan
are kept (the last few), so choosing other ranks, unticking and ticking again, or another k for the same targets
(a k drag) replays without reading; an optimization with its targets free replays the read of it alone.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, QTimer

from ..core.document import Document
from ..core.job_link import HeldJob
from ..core.state import Aspect

PAUSE_MS = 60  # a plan is asked once it has rested this long (a k drag: at its pauses)
KEPT = 2  # plans' ranks kept read (a large job's graphs take hundreds of MB)


class JobWhatIf(QObject):
    """Keeps the held job's answer current for the document's plan and the chosen ranks."""

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc, self.link = doc, doc.job
        self._read: OrderedDict[Any, Any] = OrderedDict()  # (job, speedups) → the job graph read with them
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(PAUSE_MS)
        self._pause.timeout.connect(self.ask)
        doc.subscribe({Aspect.OPTIMIZATIONS, Aspect.COMPONENTS}, self._changed)
        doc.subscribe({Aspect.JOB}, self._job_shown)
        doc.subscribe({Aspect.JOB, Aspect.DECISION}, self._ask_odds)  # the plan's answer, or the profile's odds, came
        self._asked: Any = None
        self._odds_asked: Any = None
        # (the job, its graph) the plan's answer read last: set on the job's lane, read by the replays after it
        self._just_read: tuple[int, Any] | None = None

    def _job_shown(self) -> None:
        figures = self.link.figures
        if figures is not None and figures.answer is None and not figures.computing and not figures.problem:
            self._changed()

    def _changed(self) -> None:
        if self.link.held is None or self.link.figures is None:
            return
        self._pause.start()

    def set_ranks(self, ranks: tuple[int, ...] | None) -> None:
        """The plan on these ranks only (None: on every rank): one undo step, and the document is modified — a
        save keeps the ranks (its Ranks sheet's Plan on), and so does the recovery copy."""
        held = self.link.held
        if held is None or held.figures.on_ranks == ranks:
            return
        from ...model.job.analysis import rank_ranges

        old = held.figures.on_ranks
        text = "Plan on every rank" if ranks is None else f"Plan on ranks {rank_ranges(ranks)}"
        self.doc.change_held(text, lambda: self._plan_on(held, ranks), lambda: self._plan_on(held, old))

    def _plan_on(self, held: HeldJob, ranks: tuple[int, ...] | None) -> None:
        if self.link.held is not held:
            return  # another job since: the step undone or redone concerns it no more
        self.link.update(replace(held.figures, on_ranks=ranks))
        self._asked = None
        self.ask()

    def ask(self) -> None:
        held = self.link.held
        if held is None or self.link.figures is None:
            return
        from ...model.job.plan import job_plan, plans_to_replay

        s = self.doc.profile.settings
        plan = job_plan(self.doc.profile.optimizations, s.trace_events)
        others = plans_to_replay(self.doc.profile.optimizations, s.trace_events)
        figures = held.figures
        key = (id(figures.job), plan.key, plan.left_out, figures.on_ranks, tuple(p.key for p in others))
        if key == self._asked:
            return
        self._asked = key
        rest = [p for p in others if p.key != plan.key]
        if not plan.speedups:
            self._ask_others(held, rest)
            self.link.work.drop("job")
            self.link.update(replace(figures, answer=None, problem="", left_out=plan.left_out, computing=False))
            return
        self.link.update(replace(figures, left_out=plan.left_out, computing=True, problem=""))
        job, paths, step, on = figures.job, held.paths, figures.step, figures.on_ranks
        read_key = (id(job), plan.key)
        kept = self._read.get(read_key) or self._same_patterns(id(job), plan.speedups)

        def run(stale: Any) -> Any:
            from ...model.errors import BadInputError
            from ...model.job.analysis import job_what_if
            from ...model.job.join import match

            scaled = kept
            if scaled is None:
                from ...files.traces.job import job_files
                from .job_load import CancelledError, read_ranks

                try:
                    scaled = match(read_ranks(job_files(paths), step, plan.speedups, stale))
                except CancelledError:
                    return None
            self._just_read = (id(job), scaled)  # for the checklist's replays queued behind: its patterns are read
            try:
                answer = job_what_if(scaled, [(s.pattern, s.k) for s in plan.speedups], on, analysis=job)
            except BadInputError as exc:
                return (scaled, str(exc))
            return (scaled, answer)

        def done(result: Any) -> None:
            if result is None or self.link.held is not held:
                return
            scaled, answer = result
            self._read[read_key] = scaled
            self._read.move_to_end(read_key)
            while len(self._read) > KEPT:
                self._read.popitem(last=False)
            now = held.figures
            replays = {**now.replays, (plan.key, on): answer if isinstance(answer, str) else answer.predicted}
            if isinstance(answer, str):
                self.link.update(replace(now, answer=None, problem=answer, computing=False, replays=replays))
            else:
                self.link.update(replace(now, answer=answer, problem="", computing=False, replays=replays))

        def failed(why: str) -> None:
            if self.link.held is held:
                self.link.update(replace(held.figures, answer=None, problem=why, computing=False))

        self.link.work.submit("job", run, done, failed)
        self._ask_others(held, rest)  # after the plan's answer (one thread runs them in turn): its read serves them

    def _ask_odds(self) -> None:
        """The ticked plan's odds through the job, drawn from the profile's own odds (the same draws of k), once
        the plan's answer is in: on the job's lane, after it (model/job/odds)."""
        held, shown = self.link.held, self.link.figures
        base = self.doc.decision.profile_figures
        if held is None or shown is None or shown.computing or shown.answer is None or base is None:
            return
        key = shown.odds_key(base)
        if (shown.odds is not None and shown.odds[0] == key) or key == self._odds_asked:
            return
        from ...model.job.plan import job_plan

        plan = job_plan(self.doc.profile.optimizations, self.doc.profile.settings.trace_events)
        scaled = self._read.get((id(shown.job), plan.key))
        if scaled is None or tuple((p.pattern, p.k) for p in plan.speedups) != tuple(shown.answer.speedups):
            return  # the plan has moved on: its own answer asks again when it comes
        self._odds_asked = key
        profile, on = self.doc.snapshot(), shown.on_ranks

        def run(_stale: Any) -> Any:
            from ...model.job.odds import job_uncertainty

            return job_uncertainty(profile, base, scaled, plan, on)

        def done(result: Any) -> None:
            if self.link.held is held:
                self.link.update(replace(held.figures, odds=(key, result)))

        def failed(why: str) -> None:
            if self.link.held is held:
                self.link.update(replace(held.figures, odds=(key, why)))

        self.link.work.submit("job_odds", run, done, failed)

    def _same_patterns(self, job_id: int, speedups: Any) -> Any:
        """A kept read of this job with the same patterns, given these K (a k drag replays, reads nothing);
        None when no kept read has them."""
        from ...model.job.join import with_ks

        pairs = [(s.pattern, s.k) for s in speedups]
        for (kept_job, _plan), graph in reversed(self._read.items()):
            if kept_job == job_id and (same := with_ks(graph, pairs)) is not None:
                return same
        return None

    def _ask_others(self, held: HeldJob, plans: list[Any]) -> None:
        """The replays the checklist's job figures and the job's ceiling need (each optimization alone and with its
        targets free), after the plan's own answer: a ticked optimization's from the plan's read, an unticked one's
        a read of the ranks each; answers only kept."""
        on = held.figures.on_ranks
        missing = [p for p in plans if (p.key, on) not in held.figures.replays]
        if not missing:
            self.link.work.drop("job_plans")
            return
        job, paths, step = held.figures.job, held.paths, held.figures.step
        kept = [graph for (kept_job, _plan), graph in self._read.items() if kept_job == id(job)]

        def run(stale: Any) -> Any:
            from ...files.traces.job import job_files
            from ...model.errors import BadInputError
            from ...model.job.analysis import job_what_if
            from ...model.job.join import match, within
            from .job_load import CancelledError, read_ranks

            out: dict[Any, float | str] = {}
            files = job_files(paths)
            # graphs read with some patterns: a plan of those patterns (or of some of them: a ticked optimization
            # alone, or with its targets free) replays them with other K and reads nothing
            fresh = self._just_read
            read = ([fresh[1]] if fresh is not None and fresh[0] == id(job) else []) + list(kept)
            for p in missing:
                pairs = [(s.pattern, s.k) for s in p.speedups]
                try:
                    found = next((g for g in (within(r, pairs) for r in read) if g is not None), None)
                    if found is None:
                        scaled = match(read_ranks(files, step, p.speedups, stale))
                        read = [scaled, *read][: KEPT + 2]
                        found = (scaled, pairs)
                    answer = job_what_if(found[0], found[1], on, analysis=job)
                except CancelledError:
                    return None
                except BadInputError as exc:
                    out[(p.key, on)] = str(exc)
                    continue
                out[(p.key, on)] = answer.predicted
            return out

        def done(found: Any) -> None:
            if found is None or self.link.held is not held:
                return
            now = held.figures
            self.link.update(replace(now, replays={**now.replays, **found}))

        def failed(why: str) -> None:
            if self.link.held is not held:
                return
            now = held.figures
            self.link.update(replace(now, replays={**now.replays, **{(p.key, on): why for p in missing}}))

        self.link.work.submit("job_plans", run, done, failed)

    @property
    def idle(self) -> bool:
        return not self._pause.isActive() and not self.link.busy

    def settle(self, most_seconds: float = 120.0) -> bool:
        """Run the event loop until the plan's answer came (a screenshot, a test); False past the limit."""
        import time

        from PySide6.QtCore import QCoreApplication, QEventLoop

        end = time.monotonic() + most_seconds
        tick = QTimer(self)
        tick.start(50)
        try:
            while not self.idle:
                if time.monotonic() > end:
                    return False
                QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        finally:
            tick.stop()
            tick.deleteLater()
        return True
