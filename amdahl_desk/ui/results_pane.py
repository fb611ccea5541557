"""The right half of the window: the objective picker, summary and objectives table over the charts, each redrawn when what it shows has changed.

The charts (and pyqtgraph with them) are built right after the window's first paint, in the
frames they will fill: the window is on screen before the plotting library has even loaded.
A chart in a tab that is not shown is not redrawn on every change: it is drawn, once, when its
tab is shown (or when someone asks the pane for it), from the document as it is then.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSplitter, QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from ..present.inputs import ChartInputs
from ..present.summary import summary
from ..present.trace_plan import trace_based
from .chart_factory import make_chart
from .charts.base import Chart, ChartSlot
from .charts.registry import ENTRIES, ChartEntry, Source
from .charts.style import SCREEN
from .core.change import Change
from .core.document import Document
from .core.locale_text import locale_numbers
from .core.redraw import RedrawScheduler
from .core.state import Aspect
from .core.tab_rows import RowTabs
from .job.job_panel import JobPanel
from .job.job_whatif import JobWhatIf
from .objectives.answer_panel import ObjectivePicker, OutcomesPanel
from .objectives.choice import ObjectiveChoice
from .profile.decision_panel import DecisionPanel
from .profile.summary_panel import SummaryPanel

SUMMARY_DEPENDS_ON = frozenset(
    {
        Aspect.COMPONENTS,
        Aspect.OPTIMIZATIONS,
        Aspect.SETTINGS,
        Aspect.OBJECTIVES,
        Aspect.OBJECTIVE,
        Aspect.TRACE,
        Aspect.JOB,
    }
)
# (a job's odds come with its figures: Aspect.JOB)
DECISION_DEPENDS_ON = frozenset({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.DECISION, Aspect.JOB})
CHART_LEAST_WIDTH = 70  # two side by side no wider than the chart tabs' least width
CHARTS_NEED = 270  # a row of charts' least height: a plot of 120 px under its title, over its axis and legend
# Below this width of the results side (or height of the window) the charts go into tabs; so they do where the
# answer leaves less than two rows of charts their least height.
CHARTS_SIDE_BY_SIDE = (760, 800)
FRAME = 60  # the menu, the tab bar and the status bar
SHRINK_AFTER_MS = 1500  # a shorter answer gives its room back to the charts once the changes pause this long


class ResultsPane(QSplitter):
    """Owns the summary and the registry's on-screen charts; they subscribe to the window's redraws."""

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.doc, self.redraws = doc, redraws
        self.make_chart = make_chart
        self.summary = SummaryPanel()
        # The objective the answer is seen through: picked above the summary, the objectives table under it.
        self.choice = ObjectiveChoice(doc, redraws, self)
        self.picker = ObjectivePicker(self.choice)
        self.outcomes = OutcomesPanel(self.choice)
        self.decision = DecisionPanel(doc)  # the odds, what would make the target likelier, the cheapest plan
        # A job of many ranks: the plan answered for the job, over the summary of the rank its profile is
        self.job_whatif = JobWhatIf(doc, self)
        self.job_panel = JobPanel(doc, redraws, self.job_whatif)
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        for w in (self.job_panel, self.picker, self.summary, self.decision, self.outcomes):
            column.addWidget(w)
        column.addStretch(1)
        # Scrolls rather than squeezing the charts when the window is small (1280×720).
        answer = QScrollArea()
        answer.setWidget(inner)
        answer.setWidgetResizable(True)
        answer.setFrameShape(QFrame.Shape.NoFrame)
        answer.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.answer = answer
        self.entries = [e for e in ENTRIES if e.on_screen]
        self.charts: dict[str, Chart[Any]] = {}
        self.stale: set[str] = set()  # charts hidden in a tab when what they show changed
        # Wide: the first two charts side by side under the summary, the others below them, full width,
        # one at a time in tabs (GPU scaling, latency against load, cost per run).
        # Narrow or short: every chart in tabs, instead of squeezed ones.
        self.top = QSplitter(Qt.Orientation.Horizontal)
        # Short names, the title in the tooltip; where one row of them is too narrow they wrap onto a second row,
        # whole, rather than being cut ("…") or scrolled out of view.
        more, tabs = RowTabs(), RowTabs()
        self.more: QTabWidget = more.pages
        self.wide = QSplitter(Qt.Orientation.Vertical)
        self.wide.addWidget(self.top)
        self.wide.addWidget(more)
        self.tabs: QTabWidget = tabs.pages
        for t in (self.more, self.tabs):
            t.setDocumentMode(True)
        self.in_tabs = False
        self.stack = QStackedWidget()
        self.stack.addWidget(self.wide)
        self.stack.addWidget(tabs)
        self.addWidget(answer)
        self.addWidget(self.stack)
        self.slots: dict[str, ChartSlot] = {}
        self._trace_tabs = False  # the trace's charts' tabs are shown (a trace-based profile)
        self._job_tabs = False  # the job's charts' tabs are shown (the profile is a job's)
        self._when_tabs: set[str] = set()  # the charts shown only when their condition holds, that hold now
        # Per tab widget (more, tabs), the page that was in front before tabs that appeared came to the front.
        self._behind: dict[bool, QWidget] = {}
        for i, e in enumerate(self.entries):
            slot = ChartSlot()
            if i < 2:
                self.top.addWidget(slot)
            else:
                self._add_tab(self.more, slot, e)
            self.slots[e.key] = slot
        self.setStretchFactor(0, 0)
        self.setStretchFactor(1, 1)
        for i in range(self.wide.count()):
            self.wide.setStretchFactor(i, 1)
        for s in (self, self.top, self.wide):
            s.setChildrenCollapsible(False)
        self.summary.setMinimumWidth(280)
        self._wide_sizes: tuple[list[int], list[int]] | None = None
        # The chart that came to the front last (a tab chosen, a job's or a trace's brought forward): what Export
        # Chart… offers first.
        self._front = self.entries[0].key
        for t in (self.more, self.tabs):
            t.currentChanged.connect(lambda _i, t=t: self._fronted(t))
        redraws.subscribe(SUMMARY_DEPENDS_ON, self.show_summary)
        redraws.subscribe(DECISION_DEPENDS_ON, self.show_decision)
        redraws.subscribe({Aspect.TRACE}, self._show_trace_tabs)
        redraws.subscribe({Aspect.JOB}, self._show_job_tabs)
        redraws.subscribe({Aspect.JOB}, self._refit_later)
        redraws.subscribe({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS}, self._show_when_tabs)
        redraws.subscribe({Aspect.SETTINGS}, self._name_tabs)  # another profile: a CPU job's scaling is over ranks
        self.summary.installEventFilter(self)  # its first paint is the cue to build the charts
        self._shrink = QTimer(self)
        self._shrink.setSingleShot(True)
        self._shrink.setInterval(SHRINK_AFTER_MS)
        self._shrink.timeout.connect(self.fit_answer)
        # The summary, the decision and a job each ask for the answer's fit after their redraw: one fit on the next
        # pass, once they all have their texts (it measures the wrapped sentences).
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_answer_to_content)
        self._shown_anew = False  # another profile is shown: its answer is fitted at once, not after a pause
        doc.changed.connect(self._note_reset)

    def answer_height(self, window_height: int) -> int:
        """The height the answer's content asks for, from a tenth of the window up to 55% of it, leaving each row
        of charts at least CHARTS_NEED pixels (beyond that the answer scrolls)."""
        rows = 1 if self._narrow(window_height) else 2
        most = min(int(window_height * 0.55), window_height - FRAME - rows * CHARTS_NEED)
        return max(int(window_height * 0.1), min(self.answer_need(), most))

    def answer_need(self) -> int:
        """The answer's height at its width, whole: the sentences wrapped, the objectives table's rows."""
        inner = self.answer.widget()
        need = 0
        if inner is not None:
            layout, width = inner.layout(), self.answer.viewport().width()
            need = inner.sizeHint().height()
            if layout is not None and layout.hasHeightForWidth() and width > 0:  # wrapped sentences at this width
                # (not the size hint: a wrapping label hints the height of its text wrapped at a narrow width)
                need = max(layout.totalHeightForWidth(width), inner.minimumSizeHint().height())
            need += 2 * self.answer.frameWidth() + 2
        return need

    def _narrow(self, window_height: int) -> bool:
        """Charts in tabs: the side is narrow, the window short, or the answer leaves no room for two rows."""
        return (
            self.width() < CHARTS_SIDE_BY_SIDE[0]
            or window_height < CHARTS_SIDE_BY_SIDE[1]
            or window_height - FRAME - self.answer_need() < 2 * CHARTS_NEED
        )

    def fit_answer(self, exact: bool = True) -> None:
        """Give the answer the height its content asks for now (an objectives table, a load or cost sentence
        appeared, a verdict took another line), the charts the rest.

        After a change of what it says (``exact`` False) the answer grows at once but gives room back only once the
        changes have paused (SHRINK_AFTER_MS): ticks that add a line to the answer and take it away again would
        otherwise move every chart below it each time, and each move lays out and repaints every chart on screen
        (54-61 ms, against 17-19 ms for a tick that moves nothing, at 10,000 rows); the charts' rows wait with it. A
        new width, and another profile shown, fit it at once.
        """
        sizes = self.sizes()
        if len(sizes) != 2 or sum(sizes) <= 0:
            return
        window = self.window()
        height = window.height() if window is not None and window is not self else sum(sizes)
        want = min(self.answer_height(height), sum(sizes) - CHARTS_NEED)
        exact = exact or self._shown_anew
        self._shown_anew = False
        if not exact and sizes[0] - want > 2:
            self._shrink.start()  # room given back when the changes pause
            return
        self._shrink.stop()
        self.reflow()  # a longer answer may leave no room for two rows of charts (or a shorter one, room again)
        if abs(want - sizes[0]) > 2:
            self.setSizes([want, sum(sizes) - want])

    def _refit_later(self) -> None:
        self._refit.start()

    def _fit_answer_to_content(self) -> None:
        self.fit_answer(exact=False)

    def _note_reset(self, change: Change) -> None:
        if change.reset:
            self._shown_anew = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.summary and event.type() == QEvent.Type.Paint and not self.charts:
            self.summary.removeEventFilter(self)
            QTimer.singleShot(0, self, self.build_charts)  # once this frame is on screen
        elif event.type() == QEvent.Type.Show and self.stale and isinstance(watched, Chart):
            key = next((k for k, c in self.charts.items() if c is watched), None)
            if key in self.stale:  # its tab was chosen: draw it before its first paint
                self._show_chart(self._entry(key))
        return False

    def build_charts(self) -> None:
        """Put the real charts in their frames (once) and have them drawn at the next frame."""
        if self.charts:
            return
        for e in self.entries:
            chart = self.make_chart(e.key, SCREEN)
            # Small enough that a window can shrink to where the tabs take over in one step: two side by side
            # ask no more width than the tabs do (Qt holds a resize to the minimum of the layout it has then).
            chart.setMinimumSize(CHART_LEAST_WIDTH, 100)
            self.slots[e.key].put(chart)
            self.charts[e.key] = chart
            chart.installEventFilter(self)  # shown: drawn if it missed changes while hidden
            chart.inputs_current = partial(self._current, e)
            self.redraws.subscribe(e.depends_on, partial(self._redraw_chart, e))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.reflow()
        if event.oldSize().width() != event.size().width():  # the sentences wrap again: the answer's need moved
            QTimer.singleShot(0, self, self.fit_answer)

    def reflow(self) -> None:
        """Charts side by side when there is room for them, else in tabs under the summary.

        Called on every resize of the pane (the window resized, a splitter dragged, the first layout)
        and by the window when its height changes.
        """
        window = self.window()
        height = window.height() if window is not None and window is not self else self.height()
        narrow = self._narrow(height)
        if narrow == self.in_tabs:
            return
        self.in_tabs = narrow
        slots = [self.slots[e.key] for e in self.entries]
        if narrow:
            self._wide_sizes = (self.top.sizes(), self.wide.sizes())
            for e, slot in zip(self.entries, slots, strict=True):
                self._add_tab(self.tabs, slot, e)
            self.stack.setCurrentIndex(1)
            self._tabs_shown(self._job_then_trace(), to_front=self._job_tabs)  # a job's ranks in front
            return
        self.tabs.clear()
        for i, (e, slot) in enumerate(zip(self.entries, slots, strict=True)):
            if i < 2:
                self.top.insertWidget(i, slot)
                slot.show()  # a tab that was not current was hidden; a splitter keeps it so
            else:
                self._add_tab(self.more, slot, e)  # the tab widget shows its current page only
        self.stack.setCurrentIndex(0)
        # among the tabs under the first two charts, the trace's in front
        self._tabs_shown(self._job_then_trace(), to_front=True)
        if self._wide_sizes is not None:
            self.top.setSizes(self._wide_sizes[0])
            self.wide.setSizes(self._wide_sizes[1])

    def _add_tab(self, tabs: QTabWidget, slot: QWidget, entry: ChartEntry) -> None:
        index = tabs.addTab(slot, entry.tab_for(self.doc.profile))
        tabs.setTabToolTip(index, entry.title_for(self.doc.profile))
        if entry.source in (Source.TRACE, Source.JOB) or entry.shown_when is not None:
            tabs.setTabVisible(index, self._tab_shown(entry))

    def _name_tabs(self) -> None:
        """A chart named for the profile renames its tab when its name changed (a CPU job's scaling is over ranks)."""
        for e in (e for e in self.entries if e.named is not None):
            for tabs in (self.more, self.tabs):
                index, name = tabs.indexOf(self.slots[e.key]), e.tab_for(self.doc.profile)
                if index >= 0 and tabs.tabText(index) != name:  # a renamed tab lays its rows out again
                    tabs.setTabText(index, name)
                    tabs.setTabToolTip(index, e.title_for(self.doc.profile))

    def _tab_shown(self, entry: ChartEntry) -> bool:
        if entry.source is Source.TRACE:
            return self._trace_tabs
        if entry.source is Source.JOB:
            return self._job_tabs
        return entry.shown_when is None or entry.key in self._when_tabs

    def _show_trace_tabs(self) -> None:
        """The trace's charts have a tab only for a trace-based profile; it comes to the front when it appears."""
        shown = trace_based(self.doc.trace.figures)
        if shown == self._trace_tabs:
            return
        self._trace_tabs = shown
        # a job's own tabs keep the front: its ranks answer before one rank's critical path does
        self._tabs_shown([e for e in self.entries if e.source is Source.TRACE], to_front=shown and not self._job_tabs)

    def _job_then_trace(self) -> list[ChartEntry]:
        """The job's charts, then the trace's: of those shown, the first comes to the front."""
        return [e for e in self.entries if e.source is Source.JOB] + [
            e for e in self.entries if e.source is Source.TRACE
        ]

    def _show_job_tabs(self) -> None:
        """The job's charts have tabs only while the profile is a job's; the first comes to the front when they
        appear."""
        shown = self.doc.job.figures is not None
        if shown == self._job_tabs:
            return
        self._job_tabs = shown
        self._tabs_shown([e for e in self.entries if e.source is Source.JOB], to_front=shown)

    def _show_when_tabs(self) -> None:
        """A chart shown only when its condition holds (the odds' once a k has a range) gets or loses its tab; the
        first of them comes to the front when they appear."""
        inputs = ChartInputs(self.doc.profile, self.doc.analysis)
        wanted = {e.key for e in self.entries if e.shown_when is not None and e.shown_when(inputs)}
        if wanted == self._when_tabs:
            return
        came = bool(wanted - self._when_tabs) and not self._trace_tabs  # a trace's own tab keeps the front
        self._when_tabs = wanted
        self._tabs_shown([e for e in self.entries if e.shown_when is not None], to_front=came)

    def _tabs_shown(self, entries: list[ChartEntry], to_front: bool) -> None:
        """Show or hide the tabs of ``entries``; with ``to_front``, the first shown comes to the front. Tabs that
        go (an Undo takes the ranges back) while one of them is in front give the front back to the page that had it
        before they came, not to a neighbour Qt picks."""
        fronted = False
        for e in entries:
            shown = self._tab_shown(e)
            for tabs in (self.more, self.tabs):
                index = tabs.indexOf(self.slots[e.key])
                if index < 0:
                    continue
                was_front = tabs.currentIndex() == index
                tabs.setTabVisible(index, shown)
                if to_front and shown and not fronted:
                    before = tabs.currentWidget()
                    if before is not None and all(before is not self.slots[x.key] for x in entries):
                        self._behind[tabs is self.more] = before
                    tabs.setCurrentIndex(index)
                elif was_front and not shown:
                    behind = self._behind.get(tabs is self.more)
                    back = tabs.indexOf(behind) if behind is not None else -1
                    if back >= 0 and tabs.isTabVisible(back):
                        tabs.setCurrentIndex(back)
            fronted = fronted or (to_front and shown)

    def _fronted(self, tabs: QTabWidget) -> None:
        page = tabs.currentWidget()
        key = next((k for k, slot in self.slots.items() if slot is page), None)
        if key is not None and tabs.isVisible():
            self._front = key

    def front_chart(self) -> str:
        """The key of the chart a person looks at: the one that came to the front of its tabs last, while it is
        still shown (else the first chart)."""
        slot = self.slots.get(self._front)
        return self._front if slot is not None and slot.isVisible() else self.entries[0].key

    def chart(self, key: str) -> Chart[Any]:
        """The chart ``key``, built and drawn from the document as it is now (also when hidden in a tab)."""
        self.build_charts()
        if key in self.stale:
            self._show_chart(self._entry(key))
        return self.charts[key]

    def _entry(self, key: str) -> ChartEntry:
        return next(e for e in self.entries if e.key == key)

    def _current(self, entry: ChartEntry) -> bool:
        """Whether the chart was last drawn from the document as it is: no change it depends on waits for the next
        frame, nor for the chart to show again."""
        return entry.key not in self.stale and not self.redraws.waiting(entry.depends_on)

    def _redraw_chart(self, entry: ChartEntry) -> None:
        """A change the chart depends on: drawn now when on screen, else when it is next shown."""
        if self.charts[entry.key].isVisible():
            self._show_chart(entry)
        else:
            self.stale.add(entry.key)

    def _show_chart(self, entry: ChartEntry) -> None:
        self.stale.discard(entry.key)
        self.charts[entry.key].show_inputs(self.chart_inputs())

    def chart_inputs(self) -> ChartInputs:
        """What the on-screen charts are drawn from: the analysis seen through the chosen objective."""
        doc, choice = self.doc, self.choice
        objective = None if choice.only_end_to_end() else choice.objective()
        name = objective.name if objective is not None and not objective.is_end_to_end else ""
        return ChartInputs(
            doc.profile,
            choice.view(doc.analysis),
            self.redraws.selected_optimization,
            colours=doc.colours,
            uncertainty=doc.decision.chart_figures(),
            objective=name,
            trace=doc.trace.figures,
            job=doc.job.figures,
        )

    def show_summary(self) -> None:
        doc, choice = self.doc, self.choice
        analysis = doc.analysis
        objective = None if choice.only_end_to_end() else choice.objective()
        outcomes = choice.outcomes if objective is not None and not objective.is_end_to_end else None
        view = summary(
            doc.profile,
            choice.view(analysis),
            locale_numbers(),
            error=doc.analysis_error,
            objective=objective,
            outcomes=outcomes,
            notes=tuple(doc.warnings),
            trace=doc.trace.figures,
            whole=analysis,
            job=doc.job.figures,
        )
        self.summary.draw(view)
        self._refit_later()  # once the summary and the outcomes have their texts

    def show_decision(self) -> None:
        self.decision.show_decision()
        self._refit_later()  # its lines came, went or wrapped
