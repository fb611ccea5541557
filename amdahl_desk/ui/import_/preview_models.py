"""The import dialog's tables: the components an import would make, the trace's steps (tick to keep), its ranks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ...model.traces import ImportedComponent, RankInfo, StepInfo
from ...model.units import TimeUnit
from ...present.cells import share_cell, time_cell
from ...present.colours import GUESSED as GUESSED_CLASS
from ...present.columns import component_titles
from ...present.tones import TONE_COLOURS, Tone
from ..core.locale_text import locale_numbers

ModelIndex = QModelIndex | QPersistentModelIndex
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
FLAGGED = QColor(TONE_COLOURS[Tone.WARN])
GUESSED = QColor(GUESSED_CLASS)  # as the components table shows a guessed class


class _Table(QAbstractTableModel):
    headers: tuple[str, ...] = ()
    right: frozenset[int] = frozenset()  # columns of numbers

    def __init__(self) -> None:
        super().__init__()
        self.unit = TimeUnit.MS

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows())

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section].replace("{unit}", self.unit.label)
        if role == Qt.ItemDataRole.TextAlignmentRole and section in self.right:
            return RIGHT
        return None

    def _rows(self) -> Sequence[object]:
        raise NotImplementedError

    def _align(self, index: ModelIndex, role: int) -> Any:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.right:
            return RIGHT
        return None


class ComponentPreviewModel(_Table):
    """The rows the import would put in the components table: name, time, share, scaling, what it stands for; for
    the annotation grouping also each phase's GPU time and its time on the steps' critical path (which comes a
    moment after the rest: "…" until then)."""

    NAME, TIME, GPU, PATH, SHARE, SCALING, SOURCE = range(7)
    headers = (
        *component_titles(["name", "time"], "{unit}"),
        "GPU ({unit})",
        *component_titles(["on_path", "share", "scaling"], "{unit}"),
        "Source",
    )
    right = frozenset({TIME, GPU, PATH, SHARE})
    TIPS = {
        TIME: "The component's time: for an annotation, the CPU time inside it (what the profile takes)",
        GPU: "The GPU time of the work launched inside the annotation (kernels, copies and memsets, their union)",
        PATH: "Its time on the steps' critical path (mean per step): the part of its events the step waits for",
        SOURCE: "What in the trace the component stands for (kept in its Notes)",
    }

    def __init__(self) -> None:
        super().__init__()
        self.components: tuple[ImportedComponent, ...] = ()
        self.total = 0.0
        self.enriched = False  # the critical-path times have come

    def set_components(self, components: Sequence[ImportedComponent], unit: TimeUnit) -> None:
        self.beginResetModel()
        self.components, self.unit = tuple(components), unit
        self.total = sum(c.time for c in components)
        self.enriched = any(c.path_time is not None for c in components)
        self.endResetModel()

    def enrich(self, components: Sequence[ImportedComponent]) -> None:
        """The same rows with their critical-path times (from the import's result asked with the critical path)."""
        if [c.name for c in components] != [c.name for c in self.components]:
            return  # another preview's rows
        self.components, self.enriched = tuple(components), True
        if self.components:
            self.dataChanged.emit(self.index(0, self.GPU), self.index(len(self.components) - 1, self.PATH))

    def hidden_columns(self) -> set[int]:
        """GPU time and time on the path: for the annotation grouping (GPU time: of a trace with GPU events)."""
        phases = any(c.events.startswith("annotation:") for c in self.components)
        gpu = any(c.gpu_time is not None for c in self.components)
        return {col for col, shown in ((self.GPU, phases and gpu), (self.PATH, phases)) if not shown}

    def _rows(self) -> Sequence[object]:
        return self.components

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return self.TIPS.get(section)
        return super().headerData(section, orientation, role)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c, col = self.components[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            n = locale_numbers()
            if col == self.NAME:
                return c.name
            if col == self.TIME:
                return time_cell(c.time, n)
            if col == self.GPU:
                return "—" if c.gpu_time is None else time_cell(c.gpu_time, n)
            if col == self.PATH:
                return time_cell(c.path_time, n) if c.path_time is not None else "—" if self.enriched else "…"
            if col == self.SHARE:
                return share_cell(c.time / self.total, n) if self.total > 0 else "—"
            if col == self.SCALING:
                return c.scaling.value + ("?" if c.guessed else "")
            return c.source
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == self.SCALING:
                how = "the import's guess, to check after importing" if c.guessed else "what the trace says"
                return f"{c.scaling.value}: {how} ({c.why})" if c.why else f"{c.scaling.value}: {how}"
            if col == self.PATH and not self.enriched:
                return "Being computed: the steps' critical path, with every component's events on it"
            return f"{c.name}: {c.source}" if c.source else c.name
        if role == Qt.ItemDataRole.ForegroundRole and col == self.SCALING and c.guessed:
            return QBrush(GUESSED)
        if role == Qt.ItemDataRole.UserRole:
            return (
                c.time
                if col == self.TIME
                else c.gpu_time
                if col == self.GPU
                else c.path_time
                if col == self.PATH
                else None
            )
        return self._align(index, role)


class StepTableModel(_Table):
    """The trace's steps: tick to keep a step in the mean. Each shows its CPU time and its stretch of the GPU
    timeline; the one far from the median is marked where it is off."""

    NAME, TIME, GPU, NOTE = range(4)
    headers = ("Step", "CPU ({unit})", "GPU ({unit})", "")
    right = frozenset({TIME, GPU})
    toggled = Signal(str, bool)  # step name, kept

    def __init__(self) -> None:
        super().__init__()
        self.steps: tuple[StepInfo, ...] = ()

    def set_steps(self, steps: Sequence[StepInfo], unit: TimeUnit) -> None:
        if tuple(steps) == self.steps and unit is self.unit:
            return
        self.beginResetModel()
        self.steps, self.unit = tuple(steps), unit
        self.endResetModel()

    @property
    def has_gpu(self) -> bool:
        """Whether any step has a GPU stretch (else the GPU column says nothing)."""
        return any(s.gpu_time is not None for s in self.steps)

    def _rows(self) -> Sequence[object]:
        return self.steps

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsUserCheckable if index.column() == self.NAME else base

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return _STEP_TIPS[section]
        return super().headerData(section, orientation, role)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s, col = self.steps[index.row()], index.column()
        off = (col == self.TIME and s.flagged) or (col == self.GPU and s.gpu_flagged)
        if role == Qt.ItemDataRole.DisplayRole:
            n = locale_numbers()
            if col == self.NAME:
                return s.name
            if col == self.TIME:
                return time_cell(s.time, n) + (" ⚑" if s.flagged else "")
            if col == self.GPU:
                return "—" if s.gpu_time is None else time_cell(s.gpu_time, n) + (" ⚑" if s.gpu_flagged else "")
            return _far(s)
        if role == Qt.ItemDataRole.CheckStateRole and col == self.NAME:
            return Qt.CheckState.Unchecked if s.excluded else Qt.CheckState.Checked
        if role == Qt.ItemDataRole.ForegroundRole and (off or (col in (self.NAME, self.NOTE) and s.off)):
            return QBrush(FLAGGED)
        if role == Qt.ItemDataRole.FontRole and off:
            bold = QFont()
            bold.setBold(True)
            return bold
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(s, col)
        if role == Qt.ItemDataRole.UserRole:
            return s.time if col == self.TIME else s.gpu_time if col == self.GPU else None
        return self._align(index, role)

    def _tip(self, s: StepInfo, col: int) -> str:
        if col == self.TIME:
            far = " — more than 20% away from the median step (a warm-up, a checkpoint?)" if s.flagged else ""
            return f"{s.name} on the CPU: {locale_numbers().time(s.time, self.unit)}{far}"
        if col == self.GPU:
            if s.gpu_time is None:
                return f"No GPU event was launched in {s.name}"
            far = (
                " — more than 20% away from the median stretch (the GPU still finishing queued work?)"
                if s.gpu_flagged
                else ""
            )
            return (
                f"{s.name}'s stretch of the GPU timeline, from its first GPU event to the next step's first: "
                f"{locale_numbers().time(s.gpu_time, self.unit)}{far}"
            )
        far = (
            "its CPU time and its GPU stretch are"
            if s.flagged and s.gpu_flagged
            else ("its CPU time is" if s.flagged else "its GPU stretch is")
        )
        why = f" {far} more than 20% away from the median: Leave out flagged steps unticks it." if s.off else ""
        return f"Untick to leave {s.name} out of the mean.{why}"

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or index.column() != self.NAME:
            return False
        keep = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
        self.toggled.emit(self.steps[index.row()].name, keep)
        return True


_STEP_TIPS = (
    "Tick to keep a step in the mean",
    "The step's time on the CPU (its ProfilerStep event)",
    "The step's stretch of the GPU timeline: from its first GPU event to the next step's first (the GPU runs behind)",
    "Which of the step's times (⚑) is more than 20% away from the median",
)


def _far(s: StepInfo) -> str:
    """What is off about a step, in a few words."""
    if s.flagged and s.gpu_flagged:
        return "far off (both)"
    if s.flagged:
        return "far off (CPU)"
    return "far off (GPU)" if s.gpu_flagged else ""


def _marks_slowest(ranks: Sequence[RankInfo], r: RankInfo) -> bool:
    """The slowest rank is marked only where no straggler is known (the rule: model/job/representative)."""
    return r.slowest and not any(x.straggler for x in ranks)


class RankTableModel(_Table):
    """One row per rank: its file and mean step time; the straggler (the rank the others wait for) marked, and the
    slowest where the ranks cannot be joined as one job."""

    RANK, FILE, STEP = range(3)
    headers = ("Rank", "File", "Step ({unit})")
    right = frozenset({RANK, STEP})

    def __init__(self) -> None:
        super().__init__()
        self.ranks: tuple[RankInfo, ...] = ()

    def set_ranks(self, ranks: Sequence[RankInfo], unit: TimeUnit) -> None:
        if tuple(ranks) == self.ranks and unit is self.unit:
            return
        self.beginResetModel()
        self.ranks, self.unit = tuple(ranks), unit
        self.endResetModel()

    def _rows(self) -> Sequence[object]:
        return self.ranks

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, col = self.ranks[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            n = locale_numbers()
            if col == self.RANK:
                return (
                    f"{r.rank} (straggler)"
                    if r.straggler
                    else f"{r.rank} (slowest)"
                    if _marks_slowest(self.ranks, r)
                    else str(r.rank)
                )
            if col == self.FILE:
                return r.source
            time = r.step_time if r.step_time is not None else r.total_time
            return time_cell(time, n) + ("" if r.step_time is not None else " (whole)")
        if role == Qt.ItemDataRole.FontRole and (r.straggler or _marks_slowest(self.ranks, r)):
            bold = QFont()
            bold.setBold(True)
            return bold
        if role == Qt.ItemDataRole.ToolTipRole:
            if r.straggler:
                return (
                    f"Rank {r.rank} ({r.source}): the straggler — the other ranks wait for it at the collectives, so "
                    "its own step is work, not waiting; its profile is imported unless another rank is chosen"
                )
            return f"Rank {r.rank} ({r.source})" + (
                ": the slowest (the ranks cannot be joined as one job, so the rank they wait for is not known)"
                if _marks_slowest(self.ranks, r)
                else ""
            )
        return self._align(index, role)


class _ColumnCap(QObject):
    """Each column but ``stretch`` as wide as its contents while the table has room for all of them and a sixth of
    it for the stretch column (its title at least); past that the widest are capped alike (never below 120 px, then
    elided in their middle), so a short column is never cut for a long one. A cap of a third of the width cut
    "ProfilerStep#101" to "ProfilerStep#…" beside an empty notes column at 1280×720."""

    def __init__(self, view: QTableView, stretch: int) -> None:
        super().__init__(view)
        self.view, self.stretch = view, stretch

    def fit(self) -> None:
        view = self.view
        header = view.horizontalHeader()
        columns = [c for c in range(view.model().columnCount()) if c != self.stretch and not view.isColumnHidden(c)]
        want = {c: max(view.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in columns}
        kept = 0  # what the stretch column keeps: its title, and its text up to a sixth of the table
        if not view.isColumnHidden(self.stretch):
            kept = max(
                header.sectionSizeHint(self.stretch), min(view.sizeHintForColumn(self.stretch), view.width() // 6)
            )
        room = view.viewport().width() - kept
        cap = max(want.values(), default=0)
        if sum(want.values()) > room:  # the least cap the columns fit under, the narrow ones whole
            narrow = sorted(want.values())
            for i, width in enumerate(narrow):
                even = (room - sum(narrow[:i])) / (len(narrow) - i)
                if width > even:
                    cap = max(int(even), 120)
                    break
        for col in columns:
            mode = QHeaderView.ResizeMode.ResizeToContents if want[col] <= cap else QHeaderView.ResizeMode.Interactive
            if header.sectionResizeMode(col) != mode:
                header.setSectionResizeMode(col, mode)
            if mode == QHeaderView.ResizeMode.Interactive and header.sectionSize(col) != cap:
                header.resizeSection(col, cap)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False


def preview_table(model: object, stretch: int) -> QTableView:
    """A read-only table of one of these models: columns fit their content, ``stretch`` takes the rest."""
    view = QTableView()
    view.setModel(model)  # type: ignore[arg-type]
    view.verticalHeader().hide()
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # names alike to their end ("ProfilerStep#1…") stay apart
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    # A column as wide as its widest text, but no text column wider than a third of the table: one long name
    # ("## data_preparation_with_augmentation_…") pushed the numbers out of view at 1280×720. It is elided; the
    # whole name is in its tooltip.
    capped = _ColumnCap(view, stretch)
    view.viewport().installEventFilter(capped)
    view.model().modelReset.connect(capped.fit)
    view.model().dataChanged.connect(lambda *_: capped.fit())
    hidden = getattr(model, "hidden_columns", None)
    if callable(hidden):  # columns that say nothing for this preview are left out

        def hide() -> None:
            gone = hidden()
            for col in range(view.model().columnCount()):
                view.setColumnHidden(col, col in gone)

        view.model().modelReset.connect(hide)
        hide()
    return view
