"""Typed errors for values a person can get wrong: what is wrong and where."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


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


class Asked(Enum):
    """What a person gave that an :class:`InputError` refuses: the command line names it by its flag
    (``cli/common.FLAGS``), the Python API by its argument."""

    SPEEDUP = "speedup"  # PATTERN=K: which events a what-if makes K× faster
    ON_RANKS = "on_ranks"  # the ranks of a job whose events are scaled


class InputError(BadInputError):
    """A value given for ``asked`` (``given``, as typed; None when the refusal is of the option as a whole) that the
    model refuses, and ``why``. Its fields, not its text, say where it came from: the caller words the flag."""

    def __init__(self, asked: Asked, given: str | None, why: str) -> None:
        self.asked, self.given, self.why = asked, given, why
        super().__init__(self.worded(asked.value))

    def __reduce__(self) -> tuple[type[InputError], tuple[Asked, str | None, str]]:  # across a process pool
        return (InputError, (self.asked, self.given, self.why))

    def worded(self, name: str) -> str:
        """The refusal with the value's place called ``name`` (a flag, an argument): ``name "given": why``."""
        return f'{name} "{self.given}": {self.why}' if self.given is not None else f"{name}: {self.why}"
