"""What the window knows of the document's job of many ranks: its figures, announced as ``changed({Aspect.JOB})``.

A job is opened by File → Import Profile from Folder… (``ui/job``): its ranks are read, joined and analysed, and
the document's profile becomes one rank's import (the straggler's). The job belongs to that profile: an Undo
that brings back the profile before hides it, a Redo shows it again; any other profile hides it. The job room
fills :attr:`JobLink.held` (the joined graph and the figures) and asks the plan's answer on :attr:`work`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from .background import Background
from .state import Aspect

if TYPE_CHECKING:
    from ...present.job_charts import JobFigures
    from .document import Document

ANNOUNCED = frozenset({Aspect.JOB})


@dataclass
class HeldJob:
    """A job read: the profile's trace it stands behind, its rank files, the joined graph and its figures."""

    trace_source: str  # the profile's Settings.trace_source while this job is the document's
    paths: tuple[str, ...]
    graph: Any  # model.job.join.JobGraph (read without speedups), used on the background thread only
    figures: JobFigures


class JobLink(QObject):
    """The document's job: :attr:`figures` while the profile is the job's (None otherwise)."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self.held: HeldJob | None = None
        self.figures: JobFigures | None = None
        self._work: Background | None = None
        doc.subscribe({Aspect.SETTINGS}, self._follow)

    @property
    def work(self) -> Background:
        if self._work is None:
            self._work = Background(self)
        return self._work

    @property
    def busy(self) -> bool:
        return self._work is not None and self._work.busy

    def hold(self, held: HeldJob | None) -> None:
        """The job the document now stands for (None: none), shown if the profile is its."""
        if self._work is not None:
            self._work.drop("job")
        self.held = held
        self._follow()

    def _follow(self) -> None:
        held = self.held
        mine = held is not None and self.doc.profile.settings.trace_source == held.trace_source
        self.show(held.figures if mine and held is not None else None)

    def update(self, figures: JobFigures) -> None:
        """New figures of the held job (the plan's answer came): shown when the job is the document's."""
        if self.held is None or self.held.figures.job is not figures.job:
            return
        self.held.figures = figures
        if self.figures is not None:
            self.show(figures)

    def show(self, figures: JobFigures | None) -> None:
        if figures is self.figures or (figures is not None and self.figures is not None and figures == self.figures):
            return
        self.figures = figures
        self.doc.announce(*ANNOUNCED)

    def computing(self) -> None:
        """The plan changed: the answer shown is no longer the plan's until the new one comes."""
        if self.held is not None and not self.held.figures.computing:
            self.update(replace(self.held.figures, computing=True))

    def close(self) -> None:
        if self._work is not None:
            self._work.close()
