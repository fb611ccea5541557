"""The job's answer over the summary: the job's step and straggler, and the ticked plan answered for the job, on
every rank or on the ranks typed here ("0-3,7")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...present.text import tied
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.redraw import RedrawScheduler
from ..core.state import Aspect
from ..core.style_sheets import NOTE_TEXT, REFUSED_TEXT
from .job_whatif import JobWhatIf


class JobPanel(QFrame):
    """Hidden unless the document's profile is a job's."""

    def __init__(self, doc: Document, redraws: RedrawScheduler, whatif: JobWhatIf, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc, self.whatif = doc, whatif
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-weight: bold;")
        self.job_text = QLabel()
        self.plan_text = QLabel()
        self.notes = QLabel()
        self.notes.setStyleSheet(NOTE_TEXT)
        self.ranks = QLineEdit()
        self.ranks.setToolTip("The ranks the plan's events are made faster on: empty for every rank, or 3, 0-3,7")
        self.ranks.setMaximumWidth(160)
        self.ranks.editingFinished.connect(self._ranks_typed)
        self.ranks_problem = QLabel()
        self.ranks_problem.setStyleSheet(REFUSED_TEXT)
        for label in (self.heading, self.job_text, self.plan_text, self.notes, self.ranks_problem):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Plan on ranks:"))
        row.addWidget(self.ranks)
        row.addWidget(self.ranks_problem, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        for w in (self.heading, self.job_text, self.plan_text, self.notes):
            box.addWidget(w)
        box.addLayout(row)
        self.setVisible(False)
        self._job: object = None  # the job the field's ranks were typed for
        redraws.subscribe({Aspect.JOB, Aspect.OPTIMIZATIONS}, self.show_job)

    def show_job(self) -> None:
        figures = self.doc.job.figures
        if figures is None:  # no job: nothing to show (and the job's words are not read at start-up)
            self.setVisible(False)
            return
        from ...present.job_words import EVERY_RANK, chosen_ranks, job_panel

        ticked = any(o.enabled for o in self.doc.profile.optimizations)
        view = job_panel(figures, ticked, locale_numbers())
        self.setVisible(view is not None)
        if view is None:
            return
        self.ranks.setPlaceholderText(EVERY_RANK)
        # a number kept with its unit and its rank, no word alone on a last line
        self.heading.setText(tied(view.heading))
        self.job_text.setText(tied(view.job))
        self.plan_text.setText(tied(view.plan))
        self.notes.setText(tied(view.notes))
        self.notes.setVisible(bool(view.notes))
        if not self.ranks.hasFocus() and figures is not None:  # a job opened or restored with its ranks
            from ...model.job.analysis import rank_ranges

            chosen = figures.on_ranks
            shown, _ = chosen_ranks(self.ranks.text(), figures.job.ranks)
            # another job opened: the last one's ranks ("2" of four, in a job of two) are not this one's; a rank
            # mistyped for this job stays, beside why it is refused
            if figures.job is not self._job or (shown != chosen and not self.ranks_problem.text()):
                self.ranks.setText(rank_ranges(chosen) if chosen is not None else "")
                self.ranks_problem.clear()
            self._job = figures.job

    def _ranks_typed(self) -> None:
        from ...present.job_words import chosen_ranks

        figures = self.doc.job.figures
        if figures is None:
            return
        ranks, problem = chosen_ranks(self.ranks.text(), figures.job.ranks)
        self.ranks_problem.setText(problem)
        if not problem:
            self.whatif.set_ranks(ranks)
