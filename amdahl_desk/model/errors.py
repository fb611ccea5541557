"""Typed errors for values a person can get wrong: what is wrong and where."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth a warning) in a profile.

    ``what`` is a sentence for a person.  ``table``/``row``/``field`` locate the
    value in model terms (row is the 0-based index in that table); ``where`` is a
    human-readable location such as ``Components!B7`` that the files layer or the
    window fills in.
    """

    what: str
    table: str | None = None
    row: int | None = None
    field: str | None = None
    where: str = ""

    def located(self, where: str) -> Problem:
        """The same problem, placed at ``where``."""
        return Problem(self.what, self.table, self.row, self.field, where)

    def __str__(self) -> str:
        return f"{self.where}: {self.what}" if self.where else self.what


class Error(Exception):
    """Every error Amdahl Desk raises for a person to act on (``amdahl_desk.Error``): its message says what and where."""


class ProfileError(Error, ValueError):
    """A profile (or a value meant for one) that cannot be accepted.

    Carries every problem found, so a person sees them all at once.
    """

    def __init__(self, problems: Iterable[Problem] | str, source: str | None = None) -> None:
        if isinstance(problems, str):
            problems = [Problem(problems)]
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.source = source
        super().__init__(self.message())

    def message(self) -> str:
        """All problems, one per line, each prefixed with the source when known."""
        prefix = f"{self.source}: " if self.source else ""
        return "\n".join(prefix + str(p) for p in self.problems) or prefix + "invalid profile"

    def __str__(self) -> str:
        return self.message()


class BadInputError(Error):
    """A mistake in what the user asked for (on the command line, or of the Python API): a message on stderr, exit
    status 2."""
