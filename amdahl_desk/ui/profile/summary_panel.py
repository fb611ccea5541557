"""The answer in large print: speedup, new time, time saved, ceiling, the sentence, and the target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...present.colours import PANEL
from ...present.summary import CEILING_TIP, NEW_TIME_TIP, SAVED_TIP, SPEEDUP_TIP, SummaryView, Tone
from ...present.text import reading_order
from ...present.tones import TONE_COLOURS
from ..core.layout_fence import FixedHeightHolder
from ..core.style_sheets import MUTED_TEXT, NOTE_TEXT

MOST_LINES = 5  # the sentence and the verdict grow to this many lines before words drop with "…"
# A tone's colour on screen.


def set_text(label: QLabel, text: str) -> None:
    """Only real changes: every setText on a wrapping label asks the whole window to lay out again."""
    if label.text() != text:
        label.setText(text)


def set_style(widget: QWidget, sheet: str) -> None:
    """Only real changes: a new style sheet re-polishes the widget."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


class FitLabel(QLabel):
    """A one-line label whose text is never cut: the font shrinks to fit, down to ``smallest`` of its size;
    below that a closing aside in parentheses goes whole, then whole words from the end, the full text in the
    tooltip."""

    def __init__(self, text: str = "", parent: QWidget | None = None, smallest: float = 0.45) -> None:
        super().__init__(text, parent)
        self.full = text
        self.smallest = smallest
        self.base: QFont | None = None

    def set_full_text(self, text: str) -> None:
        if text != self.full:
            self.full = text
            self.refit()

    def setFont(self, font: QFont) -> None:  # type: ignore[override]
        self.base = QFont(font)
        super().setFont(font)
        self.refit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.refit()

    def refit(self) -> None:
        if self.base is None:  # the size it shrinks from, once: a shrunk font is no base (it shrank at every fit)
            self.base = QFont(self.font())
        room = self.contentsRect().width() - 2
        if room <= 0:
            return
        text = self.full
        font = self._shrunk(text, room)
        if QFontMetrics(font).horizontalAdvance(text) > room and text.endswith(")") and " (" in text:
            text = text[: text.rindex(" (")]  # an aside goes whole ("new time (baseline 1,000 ms)"): no number cut
            font = self._shrunk(text, room)
        metrics = QFontMetrics(font)
        words = text.split(" ")
        while metrics.horizontalAdvance(text) > room and len(words) > 1:
            words.pop()
            text = " ".join(words) + " …"
        if font != self.font():
            QLabel.setFont(self, font)
        if self.text() != text:
            self.setText(text)
        self.setToolTip("" if text == self.full else self.full)

    def _shrunk(self, text: str, room: int) -> QFont:
        """The base font, made smaller in half points (to ``smallest`` of it) until ``text`` fits in ``room``."""
        assert self.base is not None
        font = QFont(self.base)
        floor = self.base.pointSizeF() * self.smallest
        while QFontMetrics(font).horizontalAdvance(text) > room and font.pointSizeF() - 0.5 >= floor:
            font.setPointSizeF(font.pointSizeF() - 0.5)
        return font


def lines_needed(label: QLabel, text: str) -> int:
    """How many lines ``text`` takes wrapped at the label's width."""
    width = label.contentsRect().width()
    if width <= 0 or not text:
        return 1
    metrics = QFontMetrics(label.font())
    used = metrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text).height()
    return max(1, -(-used // metrics.lineSpacing()))


def fit_sentences(
    panel: QWidget,
    labels: Sequence[QLabel],
    texts: Sequence[str],
    shown: dict[QLabel, int],
    holders: Mapping[QLabel, QWidget],
    most: int,
) -> None:
    """Each wrapping sentence in as many lines as it needs at its width, up to ``most`` (then words drop, "…"):
    a label and its holder change height only when the line count does (``shown`` keeps the counts), so a
    sentence whose words change but not its lines lays nothing out."""
    for label, text in zip(labels, texts, strict=True):
        lines = min(max(lines_needed(label, text), 1), most)
        if lines != shown[label]:
            shown[label] = lines
            height = line_height(panel, lines)
            label.setFixedHeight(height)
            holders[label].setFixedHeight(height)
        fit_wrapped(label, text, lines)


def line_height(panel: QWidget, lines: int) -> int:
    """The height of ``lines`` lines of the panel's text, with the label's margins."""
    return panel.fontMetrics().lineSpacing() * lines + 4


def fit_wrapped(label: QLabel, text: str, lines: int) -> None:
    """Wrapped text in at most ``lines`` lines: whole words drop from the end (a number is never cut), with "…";
    the whole text is in the tooltip when something was left out."""
    label.ensurePolished()  # a style sheet may have made the font bold
    width = label.contentsRect().width()
    shown = text
    if width > 0 and text:
        metrics = QFontMetrics(label.font())
        limit = metrics.lineSpacing() * lines + 1
        flags = int(Qt.TextFlag.TextWordWrap)

        def height(t: str) -> int:
            return metrics.boundingRect(QRect(0, 0, width, 100_000), flags, t).height()

        if height(text) > limit:
            words = text.split(" ")
            lo, hi = 0, len(words)  # the most words that fit, found by halving
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if height(" ".join(words[:mid]) + " …") <= limit:
                    lo = mid
                else:
                    hi = mid - 1
            shown = " ".join(words[:lo]) + " …"
    set_text(label, reading_order(shown))
    label.setToolTip("" if shown == text else reading_order(text))


class _Figure(QWidget):
    """One headline number with its caption under it."""

    def __init__(self, caption: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setSpacing(0)
        self.value = FitLabel("—", self)
        f = self.value.font()
        f.setPointSizeF(f.pointSizeF() * 2.0)
        f.setBold(True)
        self.value.setFont(f)
        self.caption = FitLabel(caption, self, smallest=0.85)
        self.caption.setStyleSheet(MUTED_TEXT)
        for w in (self.value, self.caption):
            w.setAlignment(Qt.AlignmentFlag.AlignLeft)
            # Text that changes with every edit must not change the layout: that would resize every panel.
            w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            w.setMinimumWidth(40)
            layout.addWidget(w)
        self.setToolTip(tip)

    def set(self, text: str, color: str = TONE_COLOURS[Tone.PLAIN]) -> None:
        self.value.set_full_text(text)
        set_style(self.value, f"color: {color};")


class SummaryPanel(QFrame):
    """Headline figures over the design-review sentence and the target verdict."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("summary")
        self.setStyleSheet(f"#summary {{ background: {PANEL}; }}")
        grid = QGridLayout(self)
        grid.setContentsMargins(10, 6, 10, 8)
        self.speedup = _Figure("end-to-end speedup", SPEEDUP_TIP)
        self.new_time = _Figure("new time", NEW_TIME_TIP)
        self.saved = _Figure("saved per run", SAVED_TIP)
        self.ceiling = _Figure("ceiling", CEILING_TIP)
        for col, fig in enumerate((self.speedup, self.new_time, self.saved, self.ceiling)):
            grid.addWidget(fig, 0, col)
            grid.setColumnStretch(col, 1)
        self.sentence = QLabel(self)
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.target = QLabel(self)
        # A trace-based profile's plan with the trace's dependencies, under the sum's sentence (hidden otherwise).
        self.dependencies = QLabel(self)
        self._texted = (self.sentence, self.dependencies, self.target)
        self._lines = {self.sentence: 2, self.dependencies: 2, self.target: 2}
        for w in self._texted:
            w.setWordWrap(True)
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            w.setFixedHeight(line_height(self, 2))
            w.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # Their heights are fixed as long as the text takes as many lines: a new sentence or verdict (every
        # change) lays nothing out; one that needs another line count (up to MOST_LINES) resizes its holder.
        self.holders = {w: FixedHeightHolder(w, self) for w in self._texted}
        for row, w in enumerate(self._texted, start=1):
            grid.addWidget(self.holders[w], row, 0, 1, 4)
        self.holders[self.dependencies].setVisible(False)
        # Notes worth a look (speedups that multiply on one component, slowdowns, a total row that did not
        # add up when the file was read): one line, all of them in its tooltip.
        self.notes = QLabel(self)
        self.notes.setStyleSheet(NOTE_TEXT)
        self.notes.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.notes.setFixedHeight(self.fontMetrics().lineSpacing() + 4)
        grid.addWidget(self.notes, 4, 0, 1, 4)
        self._texts = ("", "", "")
        self._notes: list[str] = []

    def set_notes(self, notes: list[str]) -> None:
        self._notes = list(notes)
        if self.notes.isHidden() == bool(notes):  # a line only while there is something to say
            self.notes.setVisible(bool(notes))
        if not notes:
            set_text(self.notes, "")
            self.notes.setToolTip("")
            return
        more = f"  (+{len(notes) - 1} more: hover to read)" if len(notes) > 1 else ""
        text = f"Note: {notes[0]}"
        metrics = self.notes.fontMetrics()
        width = max(self.notes.width() - metrics.horizontalAdvance(more) - 8, 100)
        set_text(self.notes, metrics.elidedText(text, Qt.TextElideMode.ElideRight, width) + more)
        self.notes.setToolTip("\n".join(f"• {n}" for n in notes))

    def draw(self, view: SummaryView) -> None:
        """Draw ``view`` (already worded and formatted for this desktop's locale)."""
        for fig, shown in zip((self.speedup, self.new_time, self.saved, self.ceiling), view.figures, strict=True):
            fig.set(shown.value, TONE_COLOURS[shown.tone])
            fig.caption.set_full_text(shown.caption)
        self.set_notes(list(view.notes))
        target = view.verdict
        if target.tone is Tone.MUTED:
            set_style(self.target, f"color: {TONE_COLOURS[Tone.MUTED]};")
        else:
            set_style(self.target, f"color: {TONE_COLOURS[target.tone]}; font-weight: bold;")
        deps = view.dependencies
        holder = self.holders[self.dependencies]
        if holder.isHidden() == bool(deps.text):  # a line only for a trace-based profile
            holder.setVisible(bool(deps.text))
        weight = "" if deps.tone is Tone.MUTED else " font-weight: bold;"
        set_style(self.dependencies, f"color: {TONE_COLOURS[deps.tone]};{weight}")
        self._texts = (view.sentence, deps.text, f"{target.mark} {target.text}" if target.mark else target.text)
        self._fit_texts()

    def _fit_texts(self) -> None:
        fit_sentences(self, self._texted, self._texts, self._lines, self.holders, MOST_LINES)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_texts()
        if self._notes and event.oldSize().width() != event.size().width():
            self.set_notes(self._notes)  # shortened again at the new width: it was cut mid-word, with no "…"
