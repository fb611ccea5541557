"""Views subscribe to what they show: a chart redraws only when that changed, at most once a frame."""

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.cli.export import CHART_KEYS
from amdahl_desk.ui.charts.base import Chart
from amdahl_desk.ui.charts.registry import CHART_TITLES, CHARTS, ENTRIES, SETTINGS, chart_entry
from amdahl_desk.ui.core.qt_util import settle_layout
from tests.ui.charting import new_chart
from tests.ui.painting import quiet

pytestmark = pytest.mark.gui


def count_redraws(window):
    """Counts of each chart's draws from now on (charts waiting in hidden tabs are drawn first)."""
    results = window.results
    for key in list(results.stale):
        results.chart(key)
    counts = dict.fromkeys(results.charts, 0)
    for key, chart in results.charts.items():
        original = chart.show_inputs

        def counted(*args, key=key, original=original):
            counts[key] += 1
            original(*args)

        chart.show_inputs = counted
    return counts


def redrawn(window, counts):
    """Each chart's draws, plus one for a chart hidden in a tab that will draw when its tab is shown."""
    return {key: n + (key in window.results.stale) for key, n in counts.items()}


def test_a_burst_of_k_changes_redraws_once_and_only_what_depends_on_k(window, qtbot):
    counts = count_redraws(window)
    panel = window.optimizations
    panel.slider.sliderPressed.emit()
    for pos in range(400, 700, 15):  # twenty steps inside one pass of the event loop
        panel.slider.setValue(pos)
    panel.slider.sliderReleased.emit()
    with qtbot.waitSignal(window.redraws.redrawn):
        pass
    # scaling and cost never read the optimizations; the load chart does (the service time after the plan)
    # the critical path follows the plan too (hidden: no trace here, drawn only if its tab is ever shown)
    expected = {
        "breakdown": 1,
        "speedup": 1,
        "scaling": 0,
        "load": 1,
        "cost": 0,
        "critical_path": 1,
        "job_ranks": 0,  # no job is open
        "job_steps": 0,
        "job_skew": 0,
        "distribution": 1,
        "tornado": 1,
    }
    assert redrawn(window, counts) == expected
    k = window.doc.profile.optimizations[0].speedup
    assert k == 55  # the last position, snapped to two digits
    assert window.doc.undo_stack.count() == 1  # the whole drag is one step, named by where it ended
    assert window.doc.undo_stack.undoText() == "Set k of Reduced precision and tensor-core kernels to 55×"


def test_selecting_another_optimization_redraws_only_the_speedup_chart(window, qtbot):
    counts = count_redraws(window)
    window.optimizations.select_row(2)
    window.drawn()
    expected = {
        "breakdown": 0,
        "speedup": 1,
        "scaling": 0,
        "load": 0,
        "cost": 0,
        "critical_path": 0,
        "job_ranks": 0,  # no job is open
        "job_steps": 0,
        "job_skew": 0,
        "distribution": 0,
        "tornado": 0,
    }
    assert redrawn(window, counts) == expected
    assert "Kernel fusion" in window.speedup.title


def test_a_settings_change_leaves_the_speedup_chart_alone(window, qtbot):
    counts = count_redraws(window)
    window.settings_panel.max_gpus.setValue(64)
    window.settings_panel.max_gpus.editingFinished.emit()
    window.drawn()
    expected = {
        "breakdown": 1,
        "speedup": 0,
        "scaling": 1,
        "load": 1,
        "cost": 1,
        "critical_path": 0,
        "job_ranks": 0,  # no job is open
        "job_steps": 0,
        "job_skew": 0,
        "distribution": 1,
        "tornado": 0,
    }
    assert redrawn(window, counts) == expected


def test_one_registry_for_menus_dialog_and_command_line(window):
    assert CHARTS == CHART_KEYS
    for entry in ENTRIES:
        chart = new_chart(entry.key)
        assert isinstance(chart, Chart)
        chart.deleteLater()  # made here, owned by nothing: deleted, not left to the end of the process
    copy_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "E&xport")
    copy_chart = next(a.menu() for a in copy_menu.actions() if a.menu() is not None)
    assert [a.text() for a in copy_chart.actions()] == [
        CHART_TITLES[k]
        for k in (
            "breakdown",
            "speedup",
            "scaling",
            "critical_path",
            "job_ranks",
            "job_steps",
            "job_skew",
            "distribution",
            "tornado",
            "load",
            "cost",
        )
    ]
    from amdahl_desk.ui.charts.export_dialog import ExportDialog

    dialog = ExportDialog("speedup", window)
    assert [dialog.chart.itemData(i) for i in range(dialog.chart.count())] == list(CHARTS)
    assert dialog.chart.currentData() == "speedup"
    dialog.deleteLater()


def test_tick_redraws_from_the_current_analysis(window, qtbot):
    model = window.optimization_model
    model.setData(model.index(1, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    window.drawn()
    assert window.summary.speedup.value.text() == "2×"


def _tab_of(results, key):
    """The tab widget that holds chart ``key`` as a page, and its index there."""
    for tabs in (results.tabs, results.more):
        index = tabs.indexOf(results.slots[key])
        if index >= 0:
            return tabs, index
    raise AssertionError(f"{key} is in no tab")


@pytest.mark.parametrize("size", [(1600, 1000), (1000, 700)])
def test_a_chart_in_a_hidden_tab_is_drawn_when_its_tab_is_shown(window, qtbot, size):
    window.resize(*size)
    window.reset_layout()
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    window.drawn()
    results = window.results
    counts = count_redraws(window)
    tabs, index = _tab_of(results, "load")
    assert tabs.currentIndex() != index and not results.charts["load"].isVisible()
    window.optimizations.k_spin.setValue(8)
    window.drawn()
    # the load chart depends on k, but nobody can see it: it waits for its tab
    assert counts["load"] == 0 and "load" in results.stale
    assert counts["breakdown"] == 1  # on screen in either layout
    tabs.setCurrentIndex(index)
    assert counts["load"] == 1 and not results.stale & {"load"}
    assert results.charts["load"].isVisible()
    # drawn from the document as it is now: the plan with k = 8 (the same as drawing it afresh)
    fresh = type(results.charts["load"])()
    fresh.show_analysis(window.doc.profile, results.choice.view(window.doc.analysis), -1)
    assert results.charts["load"].title == fresh.title
    fresh.deleteLater()
    # shown again without a change in between: not drawn again
    tabs.setCurrentIndex(0 if index else 1)
    tabs.setCurrentIndex(index)
    assert counts["load"] == 1


def test_asking_for_a_hidden_chart_draws_it_first(window):
    results = window.results
    counts = count_redraws(window)
    window.settings_panel.max_gpus.setValue(64)
    window.settings_panel.max_gpus.editingFinished.emit()
    window.drawn()
    hidden = [key for key, chart in results.charts.items() if not chart.isVisible()]
    follows = [key for key in hidden if key != "speedup" and SETTINGS in chart_entry(key).depends_on]
    assert follows and all(counts[key] == 0 and key in results.stale for key in follows)
    assert all(counts[key] == 0 and key not in results.stale for key in hidden if key not in follows + ["speedup"])
    for key in hidden:
        results.chart(key)
    assert not results.stale


def test_back_to_side_by_side_only_the_current_tab_of_the_lower_charts_is_visible(window, qtbot):
    results = window.results
    for size in ((1000, 700), (1600, 1000)):  # through the tabs and back
        window.resize(*size)
        window.reset_layout()
        qtbot.waitUntil(lambda size=size: (window.width(), window.height()) == size)
    assert not results.in_tabs
    shown = {key for key, chart in results.charts.items() if chart.isVisible()}
    assert shown == {"breakdown", "speedup", "scaling"}


@pytest.mark.parametrize("key", ["scaling", "speedup"])
def test_a_chart_whose_picture_would_not_change_is_not_redrawn(qtbot, key):
    """A time nudged among 2,000 moves no curve by a tenth of a pixel: the chart keeps its items as drawn;
    a change that shows is drawn."""
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling

    kinds = list(Scaling)
    comps = [Component(f"c{i}", 10.0 + i % 7, kinds[i % 3]) for i in range(2000)]
    profile = Profile(comps, [Optimization("faster c1", ("c1", "c2", "c3"), 4.0, True)])
    chart = new_chart(key)
    qtbot.addWidget(chart)
    chart.show_analysis(profile, analyse(profile), 0)
    curve = chart.amdahl if key == "scaling" else chart.curve
    calls = []
    original = curve.setData
    curve.setData = lambda *args, **kw: (calls.append(args), original(*args, **kw))
    profile.replace_components([5], [comps[5]._replace(time=comps[5].time + 0.5)])
    chart.show_analysis(profile, analyse(profile), 0)
    assert calls == []
    profile.replace_components([1], [comps[1]._replace(time=5000.0)])
    chart.show_analysis(profile, analyse(profile), 0)
    assert len(calls) == 1


def test_a_k_step_repaints_the_marker_not_the_curves_and_the_chart_shows_what_a_full_repaint_shows(window, qtbot):
    """The curves keep their points while k moves along them (given again, they would be drawn again): the
    step repaints the marker and its callout, and what is on screen is what drawing the chart afresh shows."""
    from PySide6.QtCore import QEvent, QObject, QPoint
    from PySide6.QtGui import QRegion

    from amdahl_desk.ui.profile.optimization_panel import k_to_slider

    window.reset_layout()
    window.optimizations.select_row(0)
    window.drawn()
    chart, panel = window.speedup, window.optimizations
    view = chart.widget.viewport()
    quiet(qtbot, view)

    class Painted(QObject):
        region = QRegion()

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                self.region = self.region.united(event.region())
            return False

    def on_screen():
        at = view.mapTo(window, QPoint(0, 0))
        return window.screen().grabWindow(window.winId(), at.x(), at.y(), view.width(), view.height()).toImage()

    painted = Painted()
    view.installEventFilter(painted)

    quiet(qtbot, view)  # pyqtgraph ends laying out the plot of the new layout on timers: until it paints no more
    panel.slider.sliderPressed.emit()
    for k in (3, 5, 8):
        painted.region = QRegion()
        panel.slider.setValue(k_to_slider(k))
        window.drawn()
        quiet(qtbot, view)
        x, y = chart.marker.getData()
        assert 10 ** x[0] == pytest.approx(k) and y[0] == pytest.approx(
            window.doc.analysis.optimizations.overall_speedup[0]
        )
        assert painted.region.boundingRect().height() < view.height() / 3, (k, painted.region.boundingRect())
        shown = on_screen()
        view.repaint()
        quiet(qtbot, view)
        assert shown == on_screen(), k
    panel.slider.sliderReleased.emit()
    window.optimizations.select_row(1)  # another optimization: other curves, drawn
    window.drawn()
    f = float(window.doc.analysis.optimizations.fraction[1])
    x, y = chart.curve.getData()
    assert y == pytest.approx(1 / ((1 - f) + f / 10**x))
    assert chart.ceiling.value() == pytest.approx(1 / (1 - f), rel=1e-3)  # moved, though kept for a k step


@pytest.mark.parametrize("seed", range(20))
def test_the_breakdowns_longest_components_are_those_a_stable_sort_puts_first(seed):
    """Picked without sorting every time (an edit of a 10,000-row table sorted them all): ties in row order."""
    import numpy as np

    from amdahl_desk.present.breakdown import TOP, largest

    rng = np.random.default_rng(seed)
    times = rng.integers(0, 6, size=int(rng.integers(1, 40))).astype(float)  # many equal times
    order = np.argsort(-times, kind="stable")
    shown, rest = largest(times, TOP)
    assert shown.tolist() == order[:TOP].tolist()
    assert np.flatnonzero(rest).tolist() == sorted(order[TOP:].tolist())


def test_an_edit_that_moves_no_bar_keeps_the_bars_and_one_that_does_draws_them(window, qtbot):
    """Bars are given again only when one moves by 1/10,000 of the axis, compared with what was drawn."""
    from amdahl_desk.model.profile import Component, Profile
    from amdahl_desk.ui.profile.component_table import TIME

    comps = [Component(f"component {i}", 10.0) for i in range(2000)]
    window.doc.reset(Profile(comps, window.doc.profile.optimizations[:0]), None)  # 20,000 ms on a 30,000 ms axis
    window.drawn()
    chart, model = window.breakdown, window.component_model
    drawn = chart.bars.opts["width"]
    for time in ("11", "12"):  # 1 ms, then 2 ms from what was drawn: under 3 ms, the totals' texts change
        assert model.setData(model.index(0, TIME), time)  # the first of the components drawn by name
        window.drawn()
        assert chart.bars.opts["width"] is drawn
        assert chart.totals[0].toPlainText().replace("\u202f", " ").startswith(f"20,00{int(time) - 10}")
    assert model.setData(model.index(0, TIME), "14")  # 4 ms from what was drawn
    window.drawn()
    widths = chart.bars.opts["width"]
    assert widths is not drawn and sum(widths[: len(widths) // 2]) == pytest.approx(20_004)


def arranged_by_hand(window, qtbot) -> None:
    """The window at 1600×1000 with the profile's side 43% of it, as a person left it: the results side wide
    enough that ticking the example's unticked optimization adds a line to the answer (the layout does not follow
    the window's size once a divider was dragged)."""
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.results.sizes()[0] > 0)
    settle_layout()
    window.following.by_hand.add("main")
    main = window._splitters["main"]
    room = sum(main.sizes())
    main.setSizes([room * 43 // 100, room - room * 43 // 100])
    window.drawn()
    settle_layout()


def test_ticks_that_lengthen_and_shorten_the_answer_move_the_charts_once_the_changes_pause(window, qtbot):
    """The answer grows at once; it gives its room back only after a pause, so ticks do not jolt every chart."""
    from amdahl_desk.ui.results_pane import CHARTS_NEED, SHRINK_AFTER_MS

    arranged_by_hand(window, qtbot)
    results, model = window.results, window.optimization_model
    row = next(r for r, o in enumerate(window.doc.profile.optimizations) if not o.enabled)

    def tick(state: Qt.CheckState) -> None:
        model.setData(model.index(row, 0), state.value, Qt.ItemDataRole.CheckStateRole)
        window.drawn()
        settle_layout()  # the answer is fitted on the pass after the redraw

    short = results.sizes()[0]
    short_need = results.answer_need()
    tick(Qt.CheckState.Checked)
    tall_need = results.answer_need()
    assert tall_need > short_need + 2, "this tick should add a line to the answer"
    tall = results.sizes()[0]
    assert tall >= min(tall_need, results.answer_height(window.height())) - 2 > short  # grown at once: nothing cut
    tick(Qt.CheckState.Unchecked)
    assert results.answer_need() == short_need
    assert results.sizes()[0] == tall  # the charts stay where they are while the person is ticking
    tick(Qt.CheckState.Checked)
    tick(Qt.CheckState.Unchecked)
    assert results.sizes()[0] == tall
    fitted = min(results.answer_height(window.height()), sum(results.sizes()) - CHARTS_NEED)
    assert fitted < tall
    # Then the room comes back: the answer as high as its words.
    qtbot.waitUntil(lambda: abs(results.sizes()[0] - fitted) <= 2, timeout=SHRINK_AFTER_MS + 3000)


def test_another_profile_shown_fits_the_answer_at_once(window, qtbot):
    """Opening a profile whose answer is shorter leaves no gap waiting for a pause nobody asked for."""
    from amdahl_desk.ui.results_pane import CHARTS_NEED

    arranged_by_hand(window, qtbot)
    results, model = window.results, window.optimization_model
    short_profile = window.doc.profile.copy()
    row = next(r for r, o in enumerate(window.doc.profile.optimizations) if not o.enabled)
    model.setData(model.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    window.drawn()
    settle_layout()
    tall = results.sizes()[0]
    window.doc.reset(short_profile, None)
    window.drawn()
    settle_layout()
    fitted = min(results.answer_height(window.height()), sum(results.sizes()) - CHARTS_NEED)
    assert fitted < tall
    assert abs(results.sizes()[0] - fitted) <= 2


def test_the_charts_rows_wait_with_the_answer_for_the_pause(window, qtbot, tmp_path):
    """A shorter answer that would leave room for two rows of charts changes the layout once the changes pause, not
    at each tick (the rows switched between tabs and side by side while the answer kept its height)."""
    from amdahl_desk.resources import example_path
    from amdahl_desk.ui.results_pane import CHARTS_NEED, FRAME, SHRINK_AFTER_MS

    copy = tmp_path / "llm-request.xlsx"
    copy.write_bytes(example_path("llm-request.xlsx").read_bytes())
    assert window.files.open_path(copy, ask=False)
    results, model = window.results, window.optimization_model
    assert window.doc.profile.optimizations[0].enabled

    def tick(state: Qt.CheckState) -> None:
        model.setData(model.index(0, 0), state.value, Qt.ItemDataRole.CheckStateRole)
        window.drawn()
        settle_layout()

    window.resize(1600, 1000)
    settle_layout()
    tall_need = results.answer_need()
    tick(Qt.CheckState.Unchecked)
    short_need = results.answer_need()
    assert short_need < tall_need, "unticking it should shorten the answer"
    # A height at which the tall answer leaves no room for two rows of charts and the short one does.
    height = FRAME + 2 * CHARTS_NEED + (short_need + tall_need) // 2
    assert height >= 800
    tick(Qt.CheckState.Checked)
    window.resize(1600, height)
    qtbot.waitUntil(lambda: results.in_tabs and not results._shrink.isActive(), timeout=SHRINK_AFTER_MS + 3000)
    before = results.sizes()
    tick(Qt.CheckState.Unchecked)
    assert results.in_tabs and results.sizes() == before  # nothing moved yet
    qtbot.waitUntil(lambda: not results.in_tabs, timeout=SHRINK_AFTER_MS + 3000)  # then side by side, once
