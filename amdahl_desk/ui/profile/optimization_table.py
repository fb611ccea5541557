"""The optimization checklist as a Qt item model: tick, name, targets, k, and each one's own figures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from ...model.analysis import Analysis
from ...model.errors import ProfileError
from ...model.profile import Optimization
from ...model.values import ParseError, parse_speedup
from ...present.cells import built_name, ceiling_tip, k_edit_text, optimization_figures, speedup_cell, speedup_tip
from ...present.colours import MID_GREY
from ...present.numbers import POINT, Numbers
from ...present.refusals import refusal_text
from ...present.trace_plan import OPTION_TIPS, TraceFigures, option_cells, option_saves, option_tip, trace_based
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.state import FIGURES as FIGURE_ASPECTS
from ..core.state import Aspect
from ..core.wrapping_header import SHORT_TITLE_ROLE
from .estimate_cells import ESTIMATE_HEADERS, ESTIMATE_SHORT, estimate_tips, estimate_value, parse_estimate

NAME, TARGETS, K, SHARE, SPEEDUP, CEILING, SAVES, TRACE_SPEEDUP, TRACE_CEILING = range(9)
K_LOW, K_HIGH, EFFORT, CONFIDENCE = ESTIMATES = (9, 10, 11, 12)  # k as a range, its cost, its odds (estimate_cells)
COLUMNS = range(13)
FIGURES = (SHARE, SPEEDUP, CEILING, SAVES)  # each optimization's own figures, from the analysis
TRACE_FIGURES = (TRACE_SPEEDUP, TRACE_CEILING)  # with the trace's dependencies (a trace-based profile only)
COMPUTED = FIGURES + TRACE_FIGURES
# A job's profile: S, Ceiling and Saves answer for the job; the two columns after them for the profile's own rank.
JOB_ROLES = {
    SPEEDUP: "speedup",
    CEILING: "ceiling",
    SAVES: "saves",
    TRACE_SPEEDUP: "rank_speedup",
    TRACE_CEILING: "rank_ceiling",
}
ModelIndex = QModelIndex | QPersistentModelIndex
TARGETS_ROLE = Qt.ItemDataRole.UserRole + 10
# Bound once: data() runs for every role of every cell painted, and each Qt.X.Y lookup costs 0.2 µs.
_DISPLAY, _EDIT, _CHECK, _ALIGN, _FOREGROUND, _TIP = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.EditRole,
    Qt.ItemDataRole.CheckStateRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.ToolTipRole,
)
_ROLES = frozenset({_DISPLAY, _EDIT, _CHECK, _ALIGN, _FOREGROUND, _TIP, TARGETS_ROLE})
_CHECKED, _UNCHECKED = Qt.CheckState.Checked, Qt.CheckState.Unchecked
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_GREY, _SLOWDOWN = QColor(MID_GREY), QColor("#b00")
_SHOWN = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_FLAGS = tuple(
    _SHOWN
    | (Qt.ItemFlag.ItemIsEditable if col in (NAME, TARGETS, K, *ESTIMATES) else Qt.ItemFlag.NoItemFlags)
    | (Qt.ItemFlag.ItemIsUserCheckable if col == NAME else Qt.ItemFlag.NoItemFlags)
    for col in COLUMNS
)


def targets_text(opt: Optimization) -> str:
    """The Targets cell: the components an optimization speeds up."""
    return "; ".join(opt.targets)


class OptimizationTableModel(QAbstractTableModel):
    """One row per optimization; the checkbox is the what-if."""

    editRejected = Signal(int, int, str)
    checkToggled = Signal(int)  # row ticked or unticked: the panel makes it the current row

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._count = len(doc.profile.optimizations)
        self._shown = list(doc.profile.optimizations)  # as last announced: a change names only its rows
        # The figures' texts, made once per analysis (data, the columns' fit and the change all read them),
        # and as last announced: a change names only the cells whose text moved.
        self._texts_of: tuple[Analysis | None, int, Numbers] | None = None
        self._texts: dict[int, list[str]] = {}
        self._announced: dict[int, list[str]] | None = None
        self._trace_of: tuple[TraceFigures, int, object] | None = None  # trace and job figures, the revision
        self._all: dict[int, list[str]] = {}
        doc.subscribe({Aspect.OPTIMIZATIONS}, self._changed)
        doc.subscribe(FIGURE_ASPECTS | {Aspect.TRACE, Aspect.JOB}, self._computed_changed)
        doc.subscribe({Aspect.JOB}, self._job_headers)
        doc.subscribe({Aspect.SETTINGS}, lambda: self.headerDataChanged.emit(Qt.Orientation.Horizontal, SAVES, SAVES))

    @property
    def optimizations(self) -> list[Optimization]:
        return self.doc.profile.optimizations

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.optimizations)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        unit = self.doc.unit.label
        job = self.doc.job.figures
        if job is not None and section in JOB_ROLES and role in (_DISPLAY, SHORT_TITLE_ROLE, _TIP):
            from ...present.job_plan import job_header_tips, job_headers

            if role == _TIP:
                return job_header_tips(job, trace_based(self.doc.trace.figures))[JOB_ROLES[section]]
            return job_headers(job, self.doc.unit)[JOB_ROLES[section]][role == SHORT_TITLE_ROLE]
        traced = section in (SPEEDUP, CEILING, SAVES) and trace_based(self.doc.trace.figures)
        if traced and section == SAVES and role in (Qt.ItemDataRole.DisplayRole, SHORT_TITLE_ROLE):
            return f"Saves ({unit})" if role == SHORT_TITLE_ROLE else f"Saves with deps ({unit})"  # whole in its tip
        if traced and role in (Qt.ItemDataRole.DisplayRole, SHORT_TITLE_ROLE):
            return (
                ("S (sum)" if section == SPEEDUP else "Ceil. (sum)")
                if role == SHORT_TITLE_ROLE
                else ("S (sum)" if section == SPEEDUP else "Ceiling (sum)")
            )
        if role == Qt.ItemDataRole.DisplayRole:
            return [
                "Optimization",
                "Targets",
                "k",
                "f",
                "Speedup S",
                "Ceiling",
                f"Saves ({unit})",
                "S (with deps)",
                "Ceiling (with deps)",
                *ESTIMATE_HEADERS,
            ][section]
        if role == SHORT_TITLE_ROLE:  # where the checklist is narrow; the whole title leads the tooltip
            return [
                "Name",
                "Targets",
                "k",
                "f",
                "S",
                "Ceil.",
                f"Saves ({unit})",
                "S (deps)",
                "Ceil. (deps)",
                *ESTIMATE_SHORT,
            ][section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _TIPS[section] if section < K_LOW else estimate_tips(locale_numbers())[section - K_LOW]
        if role == Qt.ItemDataRole.TextAlignmentRole and section >= K:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        opts = self.doc.profile.optimizations
        if index.column() == NAME and 0 <= index.row() < len(opts) and opts[index.row()].built:
            return _FLAGS[NAME] & ~Qt.ItemFlag.ItemIsUserCheckable
        return _FLAGS[index.column()]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:  # a repaint asks ~8 roles per cell; most are none of ours
            return None
        row, opts = index.row(), self.doc.profile.optimizations
        if not 0 <= row < len(opts):  # an invalid index has row -1
            return None
        col = index.column()
        opt = opts[row]
        if role in (_DISPLAY, _EDIT):
            n = locale_numbers() if role == _DISPLAY else POINT  # an editor or a copy takes the files' format
            if col == NAME:
                return built_name(opt) if role == _DISPLAY else opt.name
            if col == TARGETS:
                return targets_text(opt)
            if col == K:
                return k_edit_text(opt) if role == _EDIT else speedup_cell(opt.speedup, n)
            if col >= K_LOW:
                return estimate_value(opt, col - K_LOW, role == _EDIT, n)
            return self.figure_texts(n)[col][row]
        if role == _ALIGN:
            return _RIGHT if col >= K else None
        if role == _FOREGROUND:
            if not opt.enabled and col != NAME:
                return _GREY
            return _SLOWDOWN if col == K and opt.is_slowdown else None
        if role == _CHECK:  # a built one is done: nothing to tick
            return (_CHECKED if opt.enabled else _UNCHECKED) if col == NAME and not opt.built else None
        if role == TARGETS_ROLE:
            return list(opt.targets)
        return self._tooltip(opt, row, col)

    def _tooltip(self, opt: Optimization, row: int, col: int) -> str | None:
        analysis = self.doc.analysis
        if analysis is None:
            return None
        job = self.doc.job.figures
        if job is not None and col in (SPEEDUP, CEILING, SAVES):
            from ...present.job_plan import job_option_tip

            return job_option_tip(job, self.doc.profile, opt, locale_numbers())
        if col == SPEEDUP:
            return speedup_tip(opt, row, analysis, locale_numbers())
        if col == CEILING:
            return ceiling_tip(opt, row, analysis, self.doc.unit.label, locale_numbers())
        if col in TRACE_FIGURES:
            figures = analysis.optimizations
            beside = float((figures.overall_speedup if col == TRACE_SPEEDUP else figures.ceiling)[row])
            return option_tip(self.doc.trace.figures, opt, col == TRACE_SPEEDUP, locale_numbers(), beside)
        if col == K and opt.is_slowdown:
            return "k below 1 makes the targets slower: a slowdown"
        if col == NAME:
            return opt.notes or "Tick to include this optimization in the combined result"
        if col == EFFORT and self.doc.decision.figures is not None:
            from ...present.uncertainty import ranking_tip  # the odds' modules load with the first range

            return ranking_tip(self.doc.profile, self.doc.decision.figures, row, locale_numbers())
        return None

    def label_texts(self, col: int, count: int) -> list[str]:
        """The first ``count`` rows' texts in the Name or the Targets column, as the table shows them."""
        shown = built_name if col == NAME else targets_text
        return [shown(o) for o in self.optimizations[:count]]

    def column_texts(self, col: int) -> list[str]:
        """Every row's text in a column of numbers (k or a figure), as the table shows it."""
        n = locale_numbers()
        if col == K:
            return [speedup_cell(o.speedup, n) for o in self.optimizations]
        if col >= K_LOW:
            return [estimate_value(o, col - K_LOW, False, n) for o in self.optimizations]
        return self.figure_texts(n)[col]

    def figure_texts(self, n: Numbers | None = None) -> dict[int, list[str]]:
        """Column → the text of each row's figure in that column, for the analysis (and the trace's figures) as
        they are now, in ``n``'s separators (the desktop's when not given)."""
        n = locale_numbers() if n is None else n
        analysis, rows = self.doc.analysis, len(self.optimizations)
        fresh = False
        kept = self._texts_of
        if kept is None or kept[0] is not analysis or kept[1:] != (rows, n):
            self._texts_of, self._texts, fresh = (analysis, rows, n), figure_texts(analysis, rows, n), True
        figures, revision, job = self.doc.trace.figures, self.doc.revision, self.doc.job.figures
        kept_of = self._trace_of
        if fresh or kept_of is None or kept_of[0] is not figures or kept_of[1] != revision or kept_of[2] is not job:
            speedups, ceilings = option_cells(figures, self.optimizations, n)
            self._trace_of = (figures, revision, job)
            self._all = {**self._texts, TRACE_SPEEDUP: speedups, TRACE_CEILING: ceilings}
            total = analysis.baseline_total if analysis is not None else None
            saves = option_saves(figures, self.optimizations, total, n) if total is not None else None
            if saves is not None:  # a traced profile: what each saves alone on the critical path
                self._all[SAVES] = saves
            if job is not None:  # a job's profile: each alone for the job, its own rank's figures beside
                from ...present.job_plan import job_option_cells, rank_option_cells

                profile = self.doc.profile
                rank_s, rank_c = rank_option_cells(figures, profile, self._texts[SPEEDUP], self._texts[CEILING], n)
                job_s, job_c, job_saves = job_option_cells(job, profile, n)
                self._all.update(
                    {SPEEDUP: job_s, CEILING: job_c, SAVES: job_saves, TRACE_SPEEDUP: rank_s, TRACE_CEILING: rank_c}
                )
        return self._all

    def _job_headers(self) -> None:
        """A job opened or closed: the figure columns' titles say whose figures they are."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, SPEEDUP, TRACE_CEILING)

    # -- writing -----------------------------------------------------------
    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        row, col = index.row(), index.column()
        opt = self.optimizations[row]
        try:
            if role == Qt.ItemDataRole.CheckStateRole and col == NAME:
                checked = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
                new = replace(opt, enabled=checked)
                text = f"{'Enable' if checked else 'Disable'} {opt.name}"
            elif role != Qt.ItemDataRole.EditRole:
                return False
            elif col == NAME:
                name = str(value).strip()
                if not name:
                    raise ParseError("an optimization needs a name")
                new, text = replace(opt, name=name), "Rename optimization"
            elif col == TARGETS:
                parts = [str(t) for t in value] if isinstance(value, list) else str(value).split(";")
                targets = tuple(t.strip() for t in parts if t.strip())
                new, text = replace(opt, targets=targets), f"Change targets of {opt.name}"
            elif col == K:
                k = float(value) if isinstance(value, (int, float)) else parse_speedup(str(value), locale_decimal())
                new, text = opt.with_speedup(k), f"Set k of {opt.name}"
            elif col >= K_LOW:
                new, text = parse_estimate(opt, col - K_LOW, value, locale_decimal())
            else:
                return False
        except (ParseError, ValueError) as exc:
            self.editRejected.emit(row, col, str(exc))
            return False
        if not self.replace_row(row, new, text):
            return False
        if role == Qt.ItemDataRole.CheckStateRole:
            self.checkToggled.emit(row)
        return True

    def replace_row(self, row: int, new: Optimization, text: str, merge_key: object = None) -> bool:
        if new == self.optimizations[row]:
            return True
        opts = list(self.optimizations)
        opts[row] = new
        return self.set_all(opts, text, merge_key, row=row)

    def set_all(self, opts: list[Optimization], text: str, merge_key: object = None, row: int = 0) -> bool:
        """Ask the document for a new checklist; a refusal is shown at the cell it is about."""
        try:
            self.doc.set_optimizations(opts, text, merge_key)
        except ProfileError as exc:
            problem = exc.problems[0]
            col = _FIELD_COLUMNS.get(problem.field or "", NAME)
            self.editRejected.emit(
                problem.row if problem.row is not None else row, col, refusal_text(problem, locale_numbers())
            )
            return False
        return True

    # -- following the document --------------------------------------------
    def _changed(self) -> None:
        opts = self.optimizations
        count = len(opts)
        old, self._shown = self._shown, list(opts)
        if count != self._count:
            self.beginResetModel()
            self._count = count
            self._announced = None
            self.endResetModel()
            return
        # Only the rows whose optimization changed (a k step changes one): the figures of every row follow
        # the analysis (_computed_changed).
        rows = [i for i, (a, b) in enumerate(zip(old, opts, strict=True)) if a != b]
        if rows:
            self.dataChanged.emit(self.index(rows[0], 0), self.index(rows[-1], self.columnCount() - 1))

    def _computed_changed(self) -> None:
        """The figures of the rows whose texts moved: a k step moves one row's, a time edited among
        thousands often none."""
        before, now = self._announced, self.figure_texts()
        self._announced = now
        rows = self.rowCount()
        if before is None or any(len(before[c]) != rows for c in COMPUTED):
            if rows:
                self.dataChanged.emit(self.index(0, SHARE), self.index(rows - 1, TRACE_CEILING))
            return
        moved = [r for r in range(rows) if any(before[c][r] != now[c][r] for c in COMPUTED)]
        for first, last in runs(moved):
            self.dataChanged.emit(self.index(first, SHARE), self.index(last, TRACE_CEILING))


def runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as (first, last) runs of consecutive rows: [1, 2, 3, 7] → [(1, 3), (7, 7)]."""
    result: list[tuple[int, int]] = []
    for row in rows:
        if result and row == result[-1][1] + 1:
            result[-1] = (result[-1][0], row)
        else:
            result.append((row, row))
    return result


def figure_texts(analysis: Analysis | None, rows: int, n: Numbers = POINT) -> dict[int, list[str]]:
    """The checklist's figures as shown: column → one text per optimization ("—" without an analysis)."""
    texts = optimization_figures(analysis, rows, n)
    return {SHARE: texts["share"], SPEEDUP: texts["speedup"], CEILING: texts["ceiling"], SAVES: texts["saves"]}


_TIPS = [
    "Tick to include in the combined result; untick to see the plan without it",
    "Components this optimization speeds up (its affected share f is their share of the time)",
    "Local speedup of the targets: k = old time ÷ new time of the affected part (below 1: a slowdown). Not sure? "
    "Give it a range and an effort in k low, k high, Effort and Confidence (the Ranges button under the list)",
    "f: share of the baseline time that the targets take",
    "End-to-end speedup of this optimization alone: S = 1/((1−f)+f/k)",
    "Ceiling 1/(1−f): the most this optimization could ever give, even with infinite k",
    "Time saved per run by this optimization alone: T1 − T1·((1−f)+f/k)",
    *OPTION_TIPS,
]  # and the estimates' tips (estimate_tips), in the desktop's separators
_FIELD_COLUMNS = {"targets": TARGETS, "speedup": K, "speedup_low": K_LOW, "speedup_high": K_HIGH}
_FIELD_COLUMNS |= {"effort": EFFORT, "confidence": CONFIDENCE}
