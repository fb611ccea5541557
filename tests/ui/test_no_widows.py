"""A slide's sentences and every chart title on it never leave one word alone on their last line ("meets" over
"it.", "1,000" over "ms", "(1.474×)" under its critical path), and a number stays with its unit. The widths are
those where the slide did, found by a sweep from 1200 to 2000 px, and the two slide sizes."""

from __future__ import annotations

import pytest

from amdahl_desk.present.text import NBSP, tied
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export

from .charting import widows
from .test_chart_contract import inputs_for, profiles  # noqa: F401 (the profiles fixture)

pytestmark = pytest.mark.gui


@pytest.mark.parametrize(
    ("which", "width"),
    [
        ("example", 1242),  # "… the current plan meets" over "it."
        ("ranges", 1249),  # the odds' title: "… 72% to meet 600" over "ms"
        ("llm-ranges", 1508),
        ("trace-plan", 1249),  # "Critical path: 78.8 ms → 53.5 ms per step" over "(1.474×)"
        ("llm-ranges", 1280),
        ("trace-plan", 1920),
    ],
)
def test_no_word_stands_alone_on_a_slides_last_line(qtbot, profiles, which, width):  # noqa: F811
    widget = export.chart_widget(make_chart, "slide", inputs_for(profiles[which]), (width, width * 9 // 16))
    try:
        assert widows(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


def test_tied_keeps_numbers_with_units_and_the_last_two_words_together():
    assert tied("72% to meet 1,000 ms") == f"72% to meet{NBSP}1,000{NBSP}ms"
    assert tied("8 GPUs and 3 ranks wait") == f"8{NBSP}GPUs and 3{NBSP}ranks{NBSP}wait"
    assert tied("the current plan meets it.") == f"the current plan meets{NBSP}it."
    # rich text: the last space outside a tag, the tag's own spaces untouched
    said = '<span style="color: red;">the plan meets it.</span>'
    assert tied(said) == f'<span style="color: red;">the plan meets{NBSP}it.</span>'
    # two words too long to hold together are left free to wrap; one word has nothing to hold
    long = "see at::native::vectorized_elementwise_kernel_launcher"
    assert tied(long) == long and tied("word") == "word"
    assert tied("took 2 msgs") == f"took 2{NBSP}msgs"  # the last two words, not a unit: "msgs" is none
    # a rank or a step with its number: the job's slide broke "rank" from "0"
    said = tied("on rank 0 alone nothing: Rank 2 at step 3 waits here")
    assert f"rank{NBSP}0" in said and f"Rank{NBSP}2" in said and f"step{NBSP}3" in said
    assert tied("the ranks 0-3") == f"the ranks{NBSP}0-3"  # only the last two words: "ranks" is no "rank"
