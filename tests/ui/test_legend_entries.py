"""A legend entry is never broken across two lines where it fits on one, whatever its name holds (a hyphen, a dash,
a slash, "|", "?", CJK characters), at any width; one wider than a line wraps instead of being cut. A title that
names a long optimization is whole, or shortened, never cut."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtWidgets import QLabel

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export
from amdahl_desk.ui.charts.legend_text import LEGEND_GAP, unbroken
from amdahl_desk.ui.charts.style import SCREEN
from amdahl_desk.ui.core.qt_util import settle_layout

from .charting import legend_problems, text_document

pytestmark = pytest.mark.gui

NAMES = {  # name: ms; the first five broke at their hyphen on the slide ("Gradient all-" over "reduce across …")
    "Vorwärts-Durchlauf für Übersetzung": 123_456.0,
    "Attention (flash, causal, 32k context window)": 88_000.0,
    "Gradient all-reduce across 1,024 ranks": 45_000.0,
    "Optimizer step (AdamW, fp32 master weights)": 15_000.0,
    "Checkpoint write to object store": 9_000.0,
    "Tokenizer + embedding lookup (fused, per request, cold cache)": 412.5,
    "数据加载和预处理流水线阶段": 300.0,
    "all-to-all|expert routing?yes": 250.0,
    "Pre-processing – resize/crop – normalise": 200.0,
    "Optimizer—step": 150.0,
    "x": 0.75,
}
# A kernel's name, wider than any legend's line, with no space in it.
KERNEL = (
    "void_at::native::vectorized_elementwise_kernel<4,_at::native::BinaryFunctor<float,_float,_float,_MulFunctor>>" * 2
)


def _profile(names: dict[str, float]) -> Profile:
    comps = [Component(n, t, Scaling.PARALLEL) for n, t in names.items()]
    return Profile(comps, [Optimization("Overlap all-reduce", ("Gradient all-reduce across 1,024 ranks",), 3)])


def _inputs(profile: Profile) -> ChartInputs:
    return ChartInputs(profile, analyse(profile), 0)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("key", ["slide", "breakdown"])
def test_an_entry_that_fits_on_a_line_is_never_broken(qtbot, key, size):
    widget = export.chart_widget(make_chart, key, _inputs(_profile(NAMES)), size)
    try:
        assert legend_problems(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


def test_at_every_width_entries_stay_whole(qtbot):
    """The breakdown's legend from 420 to 980 px wide, every 14 px: each width fills its lines differently."""
    inputs = _inputs(_profile(NAMES))
    for width in range(420, 981, 14):
        widget = export.chart_widget(make_chart, "breakdown", inputs, (width, 720))
        try:
            assert legend_problems(widget) == [], width
        finally:
            widget.close()
            widget.deleteLater()


def test_an_entry_wider_than_a_line_wraps_and_is_not_cut(qtbot):
    names = {KERNEL: 10.0, "Gradient all-reduce across 1,024 ranks": 5.0}
    widget = export.chart_widget(make_chart, "breakdown", _inputs(_profile(names)), (640, 720))
    try:
        legend = widget.legend_label
        kernel = re.split(f"{re.escape(LEGEND_GAP)}|<br>", legend.text())[0]
        assert (
            text_document(legend, kernel, wrapped=False).idealWidth() > legend.contentsRect().width()
        )  # wider than a line
        assert legend_problems(widget) == []  # and wrapped, not cut
    finally:
        widget.close()
        widget.deleteLater()


def test_what_holds_an_entry_together_draws_nothing():
    """The word joiners that hold a name draw nothing: an entry measures as its name does."""
    doc, plain = QTextDocument(), QTextDocument()
    doc.setHtml(unbroken("Gradient all-reduce / 数据加载"))
    plain.setPlainText("Gradient\u00a0all-reduce\u00a0/\u00a0数据加载")
    assert doc.idealWidth() == pytest.approx(plain.idealWidth(), abs=0.5)
    assert doc.toPlainText().replace("\u2060", "") == plain.toPlainText()


def test_on_screen_at_every_width_an_entry_is_whole_or_wrapped(qtbot):
    """The window's breakdown from 300 to 620 px wide, every 16 px: each entry on one line where it fits on one; a
    longer one ("Tokenizer + embedding lookup (fused, per request, cold cache)" at 387 px) wraps, never cut."""
    chart = make_chart("breakdown", SCREEN)
    qtbot.addWidget(chart)
    chart.show_inputs(_inputs(_profile(NAMES)))
    chart.show()
    for width in range(300, 621, 16):
        chart.resize(width, 420)
        settle_layout()
        assert legend_problems(chart) == [], width


def _ranged() -> Profile:
    """The long names with k ranges: the odds and what-matters-most charts, whose titles name the top optimization."""
    comps = [Component(n, t, Scaling.PARALLEL) for n, t in NAMES.items()]
    opts = [
        Optimization(
            "Mixed precision everywhere (bf16 autocast with loss scaling)",
            ("Vorwärts-Durchlauf für Übersetzung", "Attention (flash, causal, 32k context window)"),
            1.8,
            speedup_low=1.4,
            speedup_high=2.2,
        ),
        Optimization(
            "Overlap all-reduce with backward", ("Gradient all-reduce across 1,024 ranks",), 3, True, "", 1.5, 5
        ),
    ]
    return Profile(comps, opts)


def _cut_titles(widget) -> list[str]:
    """Each plain-text label (a title) whose text is wider or taller than the label: cut at its edges."""
    cut = []
    for label in widget.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or "<" in text:
            continue
        room = label.contentsRect()
        flags = int(Qt.TextFlag.TextWordWrap) if label.wordWrap() else 0
        used = QFontMetrics(label.font()).boundingRect(QRect(0, 0, room.width(), 100_000), flags, text)
        if used.width() > room.width() + 1 or used.height() > room.height() + 1:
            cut.append(f"{text!r}: {used.width()}×{used.height()} in {room.width()}×{room.height()}")
    return cut


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize(
    ("key", "charts"), [("slide", ("tornado", "breakdown")), ("slide", ("distribution", "tornado")), ("tornado", ())]
)
def test_a_title_with_a_long_name_is_whole_or_shortened_never_cut(qtbot, size, key, charts):
    """ "What matters most: Mixed precision everywhere (bf16 autoca… swings it 1.47–2.07×" is one phrase wider than the
    slide's half: it was centred and cut at both ends ("recision everywhere … swings it 1.4")."""
    inputs = replace(_inputs(_ranged()), slide_charts=charts)
    widget = export.chart_widget(make_chart, key, inputs, size)
    try:
        assert _cut_titles(widget) == []
        assert legend_problems(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


@pytest.mark.parametrize(
    "name",
    [
        "\u304b\u3099\u304b\u3099 stage",
        "\u1100\u1161\u1100\u1161 stage",
        "GPU \U0001f44d\U0001f3fd stage",
        "dev \U0001f469\u200d\U0001f4bb",
    ],
)
def test_what_holds_an_entry_together_never_splits_a_character(name):
    """A letter and its combining mark, Hangul jamo, an emoji and its skin tone, a joined emoji: no word joiner
    between them (it drew the mark apart from its letter, and the entry measured narrower than it was drawn)."""
    held = unbroken(name).replace("&nbsp;", " ")
    joiners = [i for i, c in enumerate(held) if c == "\u2060"]
    for i in joiners:
        after = held[i + 1]
        assert unicodedata.category(after) not in ("Mn", "Mc", "Me") and after not in "\u200d\U0001f3fd", (name, i)
        assert held[i - 1] != "\u200d"
    assert held.replace("\u2060", "") == name


LONG_ROWS = [
    "Mixed precision everywhere (bf16 autocast with loss scaling)",
    "Overlap all-reduce with backward",
    "Fused optimizer step for all parameter groups",
    "Async checkpoint",
    "Flash attention v3 with causal masking",
    "Activation recomputation off",
    "Larger micro batch",
    "Tensor parallel degree 2",
    "Pipeline interleaving",
    "Data loader workers 16",
]


@pytest.mark.parametrize(("size", "two"), [((420, 300), False), ((700, 420), True)])
def test_what_matters_names_its_rows_on_two_lines_only_where_they_fit(qtbot, size, two):
    """Ten ranged optimizations on screen: in a low chart two-line names ran into the rows beside them."""
    comps = [Component(f"c{i}", 100 + 10 * i, Scaling.PARALLEL) for i in range(10)]
    opts = [
        Optimization(n, (f"c{i}",), 2.0, speedup_low=1.2 + 0.05 * i, speedup_high=3 + 0.3 * i)
        for i, n in enumerate(LONG_ROWS)
    ]
    chart = make_chart("tornado", SCREEN)
    qtbot.addWidget(chart)
    chart.resize(*size)
    chart.show()
    chart.show_inputs(_inputs(Profile(comps, opts)))
    settle_layout()
    names = [text for _, text in chart._ticks_left]
    assert any("\n" in t for t in names) == two
    row_px = chart.plot.vb.height() / (len(names) + 0.5)
    spacing = QFontMetrics(chart.plot.getAxis("left").style["tickFont"]).lineSpacing()
    assert all((t.count("\n") + 1) * spacing <= row_px for t in names)


def _legend_shown(legend) -> str:
    return text_document(legend, legend.text()).toPlainText().replace("\u2060", "").replace("\u00a0", " ")


def _entries(legend) -> list[str]:
    """Each entry's name as the legend shows it (after its mark)."""
    return [e.strip() for e in _legend_shown(legend).replace("\u2028", " ").replace("\n", " ").split("■")[1:]]


@pytest.mark.parametrize("size", [(420, 440), (520, 380), (380, 520)])
def test_a_legend_of_long_names_gives_the_plot_its_room(qtbot, size):
    """Seven long names took eight lines of a 440 px breakdown and left its bars a strip, and shortened alike they
    read the same: a legend that would take more than 22% of its chart (and than three lines) names fewer
    components, the longest first, each whole, and the rest are "N other components"; the entry that says how to
    read the chart stays; with room again every name comes back."""
    from amdahl_desk.ui.charts.frame import LEGEND_SHARE

    profile = _profile(NAMES)
    profile.set_optimizations([replace(o, enabled=True) for o in profile.optimizations])
    chart = make_chart("breakdown", SCREEN)
    qtbot.addWidget(chart)
    chart.show_inputs(_inputs(profile))
    chart.show()
    chart.resize(*size)
    settle_layout()
    legend = chart.legend_label
    line = QFontMetrics(legend.font()).lineSpacing()
    tall = text_document(legend, legend.text()).size().height()
    assert tall <= max(LEGEND_SHARE * chart.height(), 3.2 * line) + 1, (tall, chart.height())
    assert legend_problems(chart) == []
    shown = _legend_shown(legend)
    assert "…" not in shown and legend.toolTip() == ""
    assert "outlined: sped up by the plan" in shown  # how to read the chart: whole
    by_time = sorted(NAMES, key=lambda name: -NAMES[name])
    entries = _entries(legend)
    named = [name for name in by_time if name in entries]
    assert 1 <= len(named) < 8 and named == by_time[: len(named)]  # the longest times keep their names
    assert entries == [*named, f"{len(NAMES) - len(named)} other components", "outlined: sped up by the plan"]
    assert [s.name for s in chart.drawn.segments][:-1] == named  # the bars' colours are the legend's
    # room enough: the eight longest named again, whole (the smallest three grouped as "3 other components")
    chart.resize(1400, 900)
    settle_layout()
    assert _entries(legend) == [*by_time[:8], "3 other components", "outlined: sped up by the plan"]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("key", ["slide", "breakdown"])
def test_the_target_line_never_runs_through_its_own_label(qtbot, key, size):
    """On the slide of a profile of long names with a 150,000 ms target, the red dashed line ran through the
    middle of "target 150,000 ms": the label sits beside its line, clear of it."""
    from amdahl_desk.ui.profile.breakdown_chart import BreakdownChart

    profile = _profile(NAMES)
    profile.set_optimizations([replace(o, enabled=True) for o in profile.optimizations])
    profile.settings = replace(profile.settings, target_time=150_000.0)
    widget = export.chart_widget(make_chart, key, _inputs(profile), size)
    try:
        charts = [widget] if isinstance(widget, BreakdownChart) else widget.findChildren(BreakdownChart)
        assert charts
        for chart in charts:
            line = chart.target
            assert line.isVisible() and line.label.isVisible()
            x = chart.plot.vb.mapViewToScene(line.pos()).x()
            box = line.label.sceneBoundingRect().adjusted(3, 0, -3, 0)  # its white margins may touch the line
            assert not box.left() < x < box.right(), (box, x)
    finally:
        widget.close()
        widget.deleteLater()


def test_the_other_components_entry_is_never_shortened(qtbot):
    """Fifteen long names at half a slide: the legend names fewer components, each whole, never "Vorverarbeitung…"
    eight times, and never "14 other compone…"."""
    from amdahl_desk.ui.chart_factory import make_chart
    from amdahl_desk.ui.charts import export

    from .test_chart_contract import _long_names, inputs_for

    profile = _long_names()
    widget = export.chart_widget(make_chart, "slide", inputs_for(profile), (1280, 720))
    try:
        legend = widget.parts["breakdown"].legend_label
        entries = _entries(legend)
        assert not any("…" in e for e in entries)
        named = [c.name for c in profile.components if c.name in entries]
        # the rest: those the plan leaves alone, then (their own outlined segment) those it speeds up
        others = [e for e in entries[len(named) :] if not e.startswith("outlined")]
        targeted = {t for o in profile.optimizations if o.enabled for t in o.targets}
        rest = [c.name for c in profile.components if c.name not in named]
        sped = sum(name in targeted for name in rest)
        assert 0 < sped < len(rest)  # both kinds among the rest
        assert named and others == [f"{len(rest) - sped} other components", f"{sped} other components, sped up"]
    finally:
        widget.close()


def _mark_before_its_name(legend) -> list[str]:
    """Each entry whose mark is not drawn just left of its name (every character of the name to its right, and the
    nearest within 40 px): laid out as the label lays it out, positions read from the text layout."""
    doc = text_document(legend, legend.text())
    doc.size()  # laid out
    plain = doc.toPlainText()
    assert doc.blockCount() == 1
    layout = doc.begin().layout()

    def x(pos: int) -> float:
        line = layout.lineForTextPosition(pos)
        assert line.isValid()
        return line.cursorToX(pos)[0] + 10_000 * line.lineNumber()  # a later line is farther along

    found = []
    marks = [i for i, c in enumerate(plain) if c == "■"]
    for i, at in enumerate(marks):
        end = marks[i + 1] if i + 1 < len(marks) else len(plain)
        name = [p for p in range(at + 1, end) if not plain[p].isspace() and unicodedata.category(plain[p]) != "Cf"]
        xs = [x(p) for p in name]
        entry = plain[at:end].strip()
        if not xs or min(xs) < x(at) or min(xs) - x(at) > 40:
            found.append(entry)
    return found


def test_a_right_to_left_name_keeps_the_marks_and_digits_beside_it_in_order(qtbot):
    """Arabic and Hebrew names drew the legend's marks and the digits of "3 other components" into their own order:
    "3 ■ other components", an orange mark before the green entry's name. Each entry now reads mark, then name, in
    the order of the bars, whatever the scripts."""
    names = ["مزامنة التدرجات بين العقد", "טעינת נתונים מהדיסק", *[f"تحميل نقاط التفتيش {i}" for i in range(6)]]
    comps = [Component(n, 500.0 - 10 * i, Scaling.PARALLEL) for i, n in enumerate(names)]
    comps += [Component(f"small {i}", 1.0, Scaling.SERIAL) for i in range(3)]
    profile = Profile(comps, [Optimization("faster", (names[0],), 2.0)])
    chart = make_chart("breakdown", SCREEN)
    qtbot.addWidget(chart)
    chart.show_inputs(_inputs(profile))
    chart.show()
    chart.resize(1400, 900)
    settle_layout()
    legend = chart.legend_label
    assert "3 other components" in _legend_shown(legend)
    assert _mark_before_its_name(legend) == []


def test_a_sentence_naming_a_right_to_left_optimization_reads_left_to_right():
    """A Hebrew optimization's name turned the slide's sentences right to left: its range "(1.5–5×" read "(5–1.5×",
    and the plan's sentence, which starts with the name, ran from the right edge. In the words as the slide sets
    them (``tied``), the range after the name reads low to high and the sentence starts at the left."""
    from PySide6.QtGui import QFont, QTextLayout

    from amdahl_desk.present.text import tied

    hebrew = "שכבת תקשורת מהירה יותר"

    def xs(text: str) -> tuple[str, list[float]]:
        shown = tied(text)
        layout = QTextLayout(shown, QFont())
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(100_000)
        layout.endLayout()
        return shown, [line.cursorToX(i)[0] for i in range(len(shown))]

    shown, x = xs(f"Faster tokens (2–8×) + {hebrew} (1.5–5×, likely 3×) together")
    at = shown.index("1.5–5×")
    assert x[at] < x[at + 3] < x[at + 4]  # "1.5", "–", "5" from left to right
    assert x[shown.index("Faster")] < x[shown.index("(2–8×)")] < x[at]
    shown, x = xs(f"{hebrew} reaches 2,000 ms with 94% probability")
    assert x[shown.index("reaches")] > max(x[shown.index(hebrew[0]) : shown.index(hebrew[-1]) + 1])
    assert x[shown.index("reaches")] < x[shown.index("2,000")]
    # a name with a number inside keeps its words in its own order: its first word rightmost, the number between
    shown, x = xs("Plan: שכבה 22 מהירה (3×) saves 40 ms")

    def middle(word: str) -> float:  # a word's inner letters (at a run's edge a cursor's place is ambiguous)
        at = shown.index(word)
        return sum(x[at + 1 : at + len(word)]) / (len(word) - 1)

    assert middle("Plan") < middle("מהירה") < middle("22") < middle("שכבה") < middle("(3×)")


def test_how_many_components_a_chart_names_does_not_depend_on_its_sizes_before(qtbot):
    """One short of all reads "1 other components", wider than a short last name: a search that started from the
    count named at an earlier, smaller size stopped there, and named three of five where a chart drawn afresh at the
    same size named all five."""
    names = [f"Vorverarbeitung der Eingabedaten fuer die Uebersetzung Schritt {i}" for i in range(4)] + ["io"]
    profile = Profile(
        [Component(n, 100.0 - i, Scaling.PARALLEL) for i, n in enumerate(names)],
        [Optimization("f", (names[0],), 2.0)],
    )
    fresh = make_chart("breakdown", SCREEN)
    qtbot.addWidget(fresh)
    fresh.resize(700, 300)  # where a chart that was 200×200 first named three
    fresh.show()
    fresh.show_inputs(_inputs(profile))
    settle_layout()
    chart = make_chart("breakdown", SCREEN)
    qtbot.addWidget(chart)
    chart.resize(200, 200)
    chart.show()
    chart.show_inputs(_inputs(profile))
    settle_layout()
    chart.resize(700, 300)
    settle_layout()
    assert _entries(chart.legend_label) == _entries(fresh.legend_label)
