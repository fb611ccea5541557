"""The main window's layout: which pane holds what, the sizes View → Reset Layout gives them, and how they follow the
window's size and content until a person drags a divider."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QGroupBox, QScrollArea, QSplitter, QTabBar, QTableView, QTabWidget, QVBoxLayout, QWidget

from .core.layout_fence import LayoutFence, LazyFence
from .profile.component_table import PATH_COLUMNS
from .profile.optimization_table import ESTIMATES
from .results_pane import CHARTS_SIDE_BY_SIDE

if TYPE_CHECKING:
    from .main_window import MainWindow


def group(title: str, widget: QWidget, extra: QWidget | None = None) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(widget)
    if extra is not None:
        layout.addWidget(extra)
    return box


def build_layout(self: MainWindow) -> None:
    """The window's panes: the profile's tabs on the left (its three tables and the settings in a splitter),
    the plan's results on the right."""
    left = QSplitter(Qt.Orientation.Vertical)
    left.addWidget(group("Components — the measured profile", self.table, self.total_label))
    left.addWidget(group("Optimizations — tick to include", self.optimizations))
    scroll = QScrollArea()
    scroll.setWidget(self.settings_panel)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    left.addWidget(group("Settings", scroll))
    left.setStretchFactor(0, 5)
    left.setStretchFactor(1, 3)
    left.setStretchFactor(2, 0)
    # Measured runs in a tab beside the profile: neither squeezes the other's tables.
    # Each page behind a LayoutFence: a label changed inside (the total, a chart's title) lays out its
    # page, not the tab widget, which would repaint the whole of itself.
    self.left_tabs = QTabWidget()
    self.left_tabs.addTab(LayoutFence(left), "Profile")
    # The Measurements and Objectives panels are made when their tab is first chosen (or the panel asked for).
    self.fit_page = LazyFence(self.make_fit_panel, self.fit_panel_made)
    self.left_tabs.addTab(self.fit_page, "Measurements")
    self.objectives_page = LazyFence(self.make_objectives_panel)
    self.left_tabs.addTab(self.objectives_page, "Objectives, load and cost")
    self.left_tabs.setDocumentMode(True)
    # The plan's results, and a comparison's tab beside them while one is open (no tab bar until then).
    self.results_tabs = QTabWidget()
    self.results_tabs.setDocumentMode(True)
    self.results_tabs.setTabBarAutoHide(True)
    self.results_tabs.setTabsClosable(True)
    self.results_tabs.addTab(LayoutFence(self.results), "Plan")
    self.results_tabs.tabBar().setTabButton(0, QTabBar.ButtonPosition.RightSide, None)
    self.results_tabs.tabCloseRequested.connect(self._tab_close_requested)
    main = QSplitter(Qt.Orientation.Horizontal)
    main.addWidget(self.left_tabs)
    main.addWidget(self.results_tabs)
    main.setStretchFactor(0, 5)
    main.setStretchFactor(1, 6)
    for s in (left, main):
        s.setChildrenCollapsible(False)
    self.setCentralWidget(main)
    self._splitters = {
        "main": main,
        "left": left,
        "right": self.results,
        "charts": self.results.top,
        "wide": self.results.wide,
    }  # and "measurements", once that panel is made (MainWindow.fit_panel_made)
    self._settings_scroll = scroll  # reset_layout gives the settings the height they need
    self.following = FollowingLayout(self)
    # Columns that come later (an import, Ranges pressed) take their room at once, after their own fit.
    for columns in (self.table.columnsChanged, self.optimizations.columnsChanged):
        columns.connect(self.following.columns_came)
    self.resize(1600, 1000)


class FollowingLayout(QObject):
    """The panes' sizes follow the window: when it is resized, a profile opened or a trace's columns come, they are
    laid out again as Reset Layout lays them out (every column and row of a small profile in view at 1280×720,
    however the window got there). A divider a person drags is theirs, splitter by splitter: that splitter keeps
    their sizes (the profile's side still widens for new columns) while the others follow. Reset Layout hands them
    all back to the window.

    Only a shown window follows, once per turn of the event loop however many changes it brought, and a resize
    only when the size differs from the one the panes were laid out for: a start lays them out before it shows
    the window (or restores them), so the first frame is not laid out twice."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.by_hand: set[str] = set()  # the splitters whose dividers a person dragged, by name
        self.laid_out_at = QSize()  # the window's size when the panes were last laid out (or restored)
        self._content = False  # another profile or new columns since the last layout
        self._columns = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._follow)
        for name, splitter in window._splitters.items():
            self.watch(name, splitter)

    def watch(self, name: str, splitter: QSplitter) -> None:
        """A divider a person may drag (a panel made later calls this for its own)."""
        splitter.splitterMoved.connect(lambda _pos, _index: self.by_hand.add(name))  # a drag, not setSizes

    def resized(self) -> None:
        self._timer.start()

    def content_changed(self) -> None:
        """Another profile is shown (before the window shows, the start lays out what it opened)."""
        if self.window.isVisible():
            self._content = True
            self._timer.start()

    def columns_came(self) -> None:
        if self.window.isVisible():
            self._content = self._columns = True
            self._timer.start()

    def _follow(self) -> None:
        window, content, columns = self.window, self._content, self._columns
        self._content = self._columns = False
        if not window.isVisible():
            return
        if content or window.size() != self.laid_out_at:
            reset_layout(window, keep=self.by_hand)
        if columns and "main" in self.by_hand:
            widen_for_columns(window)


def table_heights(self: MainWindow, h: int) -> tuple[int, int]:
    """What the components and optimizations boxes need to show every row (each at most a share of ``h``)."""

    def need(view: QTableView, rows: int, extra: int) -> int:
        row = view.verticalHeader().defaultSectionSize()
        head = max(view.horizontalHeader().sizeHint().height(), view.horizontalHeader().minimumHeight())
        bar = view.horizontalScrollBar()  # columns wider than the box (the checklist's ranges): under the rows
        under = bar.sizeHint().height() if bar.isVisible() else 0
        total: int = head + row * rows + 2 * view.frameWidth() + extra + self.fontMetrics().height() + 22 + under
        return total

    comp_rows = self.component_model.rowCount()
    opt_rows = max(self.optimization_model.rowCount(), 1)
    comp = need(self.table, comp_rows, self.total_label.sizeHint().height() + 8)
    # what the panel holds beside its table (the buttons and the k slider), as laid out now
    below = max(self.optimizations.height() - self.optimizations.view.height(), 36)
    opt = need(self.optimizations.view, opt_rows, below)
    return comp, opt


def left_width(self: MainWindow, w: int) -> int:
    """The profile's side of a window ``w`` wide: 47%, more with a trace's columns or the checklist's estimates
    (so that every column stays in view and the names readable), as far as the charts allow."""
    left = min(max(int(w * 0.47), 420), 900)
    wider = not self.table.isColumnHidden(PATH_COLUMNS[0])  # a trace's three more columns
    wider = wider or not self.optimizations.view.isColumnHidden(ESTIMATES[0])  # the ranges, efforts and odds
    if wider:  # more room, the charts' allowing
        wide = w - left >= CHARTS_SIDE_BY_SIDE[0]  # then they stay side by side
        left = max(left, min(int(w * 0.53), w - CHARTS_SIDE_BY_SIDE[0] - 20 if wide else w))
    return left


def widen_for_columns(self: MainWindow) -> None:
    """Columns came (a trace imported, Ranges pressed): the profile's side takes the width they need, when it has
    less, so that the tables keep every column in view without a layout reset; it never narrows what a person
    widened."""
    main = self._splitters["main"]
    sizes = main.sizes()
    if len(sizes) != 2 or sum(sizes) <= 0:
        return
    want = left_width(self, max(self.width(), 800))
    if sizes[0] < want:
        main.setSizes([want, sum(sizes) - want])
        self.results.reflow()


def reset_layout(self: MainWindow, keep: Collection[str] = ()) -> None:
    """Sizes for every splitter from what the window holds: the tables the rows they have, the settings their
    height, the answer its content's, the charts the rest (``keep``: the splitters, by name, left as they are)."""
    # Proportions of the window: the table gets what its columns need, the charts the rest.
    w, h = max(self.width(), 800), max(self.height(), 500)
    left = left_width(self, w)
    # The settings get their whole height (no scrolling) when the window has room for it.
    scroll = self._settings_scroll
    content = self.settings_panel  # the scroll area's widget
    width = scroll.viewport().width()
    layout = content.layout()
    fits = layout is not None and layout.hasHeightForWidth() and width > 0
    needed = layout.totalHeightForWidth(width) if layout is not None and fits else -1
    needed = max(needed, content.minimumSizeHint().height())
    frame = self._splitters["left"].sizes()[2] - scroll.viewport().height() if scroll.isVisible() else 0
    frame = frame if 0 < frame < 100 else self.fontMetrics().height() + 24  # group title and margins
    settings_need = needed + frame + 2
    # The tables get the rows they hold (up to a share of the window), the settings what is left (they
    # scroll below their height); the rest of the tables' rows scroll.
    column = self._splitters["left"].height() - 2 * self._splitters["left"].handleWidth()
    room = column if column > 200 else h - 110  # the menu, the tab bar and the status bar take the rest
    comp_need, opt_need = table_heights(self, room)
    comp, opt = min(comp_need, int(room * 0.45)), min(opt_need, int(room * 0.3))
    settings = max(min(settings_need, room - comp - opt), min(settings_need, 150))
    spare = room - comp - opt - settings
    if spare > 0:  # room over: the checklist's rows first, then the components table (a profile grows rows)
        more = min(spare, max(opt_need - opt, 0))
        opt, comp = opt + more, comp + spare - more
    elif spare < 0:  # too little: the two tables give way alike, down to a few rows each
        comp, opt = max(comp + spare * comp // (comp + opt), 120), max(opt + spare * opt // (comp + opt), 100)
    # The answer (picker, summary, objectives table, load and cost sentences) gets the height its content
    # asks for, leaving the charts at least 45% of the window; it scrolls beyond that.
    answer = self.results.answer_height(h)
    # The profile's side exactly ``left`` wide: sizes that do not add up to the splitter's room (the window less
    # its divider) are scaled, which would take a pixel or two from the columns left_width made room for.
    main = self._splitters["main"]
    room_across = main.width() - main.handleWidth() if main.isVisible() else w  # not laid out before it shows
    sizes = {
        "main": [left, max(room_across - left, 0)],
        "left": [comp, opt, settings],
        "right": [answer, h - answer],
        "charts": [(w - left) // 2] * 2,
        "wide": [int(h * 0.4), int(h * 0.4)],
        "measurements": [int(h * 0.27), int(h * 0.26), int(h * 0.47)],
    }
    for name, splitter in self._splitters.items():
        if name not in keep:
            splitter.setSizes(sizes[name])
    self._reset_sizes = sizes  # for a panel made later
    self.following.laid_out_at = self.size()
    if self.isVisible():  # a hidden window's charts are arranged when it shows, at the width they have then
        self.results.reflow()


def restore_layout(self: MainWindow) -> bool:
    """The size, place and panes the last session left, and which dividers a person dragged; whether a size and
    place were remembered."""
    settings = self.settings
    restored = False
    geometry = settings.value("window/geometry")
    if isinstance(geometry, QByteArray):
        restored = self.restoreGeometry(geometry)
        if restored:
            self.following.laid_out_at = self.size()  # the panes as the last session left them, at this size
    for name, splitter in self._splitters.items():
        state = settings.value(f"window/{name}")
        if isinstance(state, QByteArray):
            splitter.restoreState(state)
    named = str(settings.value("window/by_hand", "") or "")
    self.following.by_hand = {name for name in named.split(",") if name}
    return restored


def remember_layout(self: MainWindow) -> None:
    """The window's size, place and panes, and which dividers a person dragged, for the next session."""
    settings = self.settings
    settings.setValue("window/geometry", self.saveGeometry())
    for name, splitter in self._splitters.items():
        settings.setValue(f"window/{name}", splitter.saveState())
    settings.setValue("window/by_hand", ",".join(sorted(self.following.by_hand)))
    settings.sync()


def forget_layout(self: MainWindow) -> None:
    """View → Reset Layout: no pane's remembered sizes, no divider the person's."""
    for name in self._splitters:
        self.settings.remove(f"window/{name}")
    self.following.by_hand.clear()
