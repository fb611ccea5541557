"""Errors of importing a trace: a bad file (with the place) and a cancelled import."""

from __future__ import annotations

from enum import Enum

from ..errors import Problem, ProfileError


class Remedy(Enum):
    """What a person does about a refused trace: the command line names its flag for it, the window its control
    (``present/import_notes.refusal_remedy``); the model's words name neither."""

    NAME_STEP = "name_step"  # name the step annotation the trace has
    KEEP_A_STEP = "keep_a_step"  # keep at least one step, or import the whole trace


class TraceError(ProfileError):
    """A trace that cannot be imported: the message names the file, the place and what was expected.

    A :class:`ProfileError`, so everything that reports a bad profile (exit status 2, a message box)
    reports a bad trace the same way.
    """

    def __init__(
        self,
        what: str | Problem | tuple[Problem, ...],
        source: str | None = None,
        where: str = "",
        remedy: Remedy | None = None,
    ) -> None:
        """``what``: words, a typed problem (``Problem.typed``), or the problems a reader found (a rank's file read
        on a worker); ``where``: a JSON path, or a :class:`Place`."""
        if isinstance(what, tuple):
            super().__init__(what, source=source)
        else:
            problem = what if isinstance(what, Problem) else Problem(what)
            super().__init__([problem.located(where) if where else problem], source=source)
        self.remedy = remedy


class Cancelled(Exception):  # noqa: N818 - a state, not a failure: "the import was cancelled"
    """The person cancelled the import (the progress callback returned False or raised this)."""
