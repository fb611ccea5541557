"""Errors of importing a trace: a bad file (with the place) and a cancelled import."""

from __future__ import annotations

from ..errors import Problem, ProfileError


class TraceError(ProfileError):
    """A trace that cannot be imported: the message names the file, the place and what was expected.

    A :class:`ProfileError`, so everything that reports a bad profile (exit status 2, a message box)
    reports a bad trace the same way.
    """

    def __init__(self, what: str, source: str | None = None, where: str = "", window: str | None = None) -> None:
        super().__init__([Problem(what, where=where)], source=source)
        self.for_window = window  # the message worded for the window (its controls, not the command line's flags)


class Cancelled(Exception):  # noqa: N818 - a state, not a failure: "the import was cancelled"
    """The person cancelled the import (the progress callback returned False or raised this)."""
