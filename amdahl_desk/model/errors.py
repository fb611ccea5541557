"""Typed errors for values a person can get wrong: what is wrong and where."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class Refusal(Enum):
    """Which rule a value breaks: the fact a typed :class:`Problem` carries (with its ``values``), worded by
    ``present/refusals.py``. A notebook can test it (``problem.why is Refusal.DUPLICATE_NAME``) without reading
    words."""

    NO_NAME = "no_name"  # a component without a name
    DUPLICATE_NAME = "duplicate_name"  # values: the name, the place of the other row holding it
    NAME_NOT_ONE_LINE = "name_not_one_line"  # values: the name, the line break or control character it holds
    NOT_A_NUMBER = "not_a_number"  # values: the quantity ("time", "speedup")
    RANGE_END_UNREADABLE = "range_end_unreadable"  # values: quantity ("time", "k"), side ("low", "high"), why or None
    TIME_RANGE_OUTSIDE = "time_range_outside"  # values: side, the component's name, the end, its measured time
    K_RANGE_OUTSIDE = "k_range_outside"  # values: side, the optimization's name, the end, its likely k
    EFFORT = "effort"  # values: the optimization's name; a negative or unreadable effort
    CONFIDENCE = "confidence"  # values: the optimization's name; not a probability
    BUILT_AND_TICKED = "built_and_ticked"  # values: the optimization's name
    NO_TARGETS = "no_targets"  # values: the optimization's name
    NOT_COMPONENTS = "not_components"  # values: the targets named that are no component
    # A setting out of its range: the Problem's field says which (``target_time``, ``ring_latency``, …).
    OUT_OF_RANGE = "out_of_range"
    TOO_LARGE = "too_large"  # values: the largest allowed
    NO_GPU_COUNTS = "no_gpu_counts"
    UNNAMED_LOAD_OBJECTIVE = "unnamed_load_objective"  # values: the objective that holds every component
    # Notes, not refusals: the profile is read and analysed, but a reviewer should know.
    OBJECTIVE_NOT_LISTED = "objective_not_listed"  # values: an objective a component names, absent from the sheet
    OBJECTIVE_EMPTY = "objective_empty"  # values: an objective of the sheet that no component names
    LOAD_OBJECTIVE_UNKNOWN = "load_objective_unknown"  # values: the setting's objective, the profile's objectives
    LOAD_OBJECTIVE_TAKES_NO_TIME = "load_objective_takes_no_time"  # values: the objective, which takes no time
    TOO_MANY_RUNS = "too_many_runs"  # values: the runs given, the most a table of measured runs holds
    NOT_A_COUNT = "not_a_count"  # values: a measured run's N that is not a number above 0
    NOT_A_MEASURE = "not_a_measure"  # values: a measured run's value that is not above 0, what it is ("time", …)
    END_TO_END_TARGET = "end_to_end_target"  # values: the Settings' target time, which End to end's must equal
    # A file's notes: read, with a figure a reviewer should check (worded with the reader's numbers, ``present``).
    # values: the total line's time, the components' sum, their TimeUnit, the share taken as rounding, within it
    TOTAL_LINE_GAP = "total_line_gap"
    # values: the row's name, its time (None: the sum exactly), the sum above, their TimeUnit, the share of rounding
    TOTAL_LINE_READ = "total_line_read"
    FORMULA_RECALCULATED = "formula_recalculated"  # values: the formula, what it gives, what the workbook saved
    LOW_BANDWIDTH = "low_bandwidth"  # values: the bandwidth read, in bytes/s
    TRACE_NOTE = "trace_note"  # values: an import's typed warning (``model/traces/result.ImportNote``)
    NAME_MADE_ONE_LINE = "name_made_one_line"  # values: a cell's name, the character it held, the name read
    SAME_COLUMN_TWICE = "same_column_twice"  # values: the column's label ("time"), the header cell read
    UNKNOWN_SETTING = "unknown_setting"  # values: the setting's label as written, the settings known
    COMPONENTS_SHEET_CHOSEN = "components_sheet_chosen"  # values: the sheet read, the hidden sheets before it
    # A file refused, with its figures (its place is a ``Place`` when it is a count: ``byte 220,180``).
    NO_COMPLETE_EVENTS = "no_complete_events"  # values: the events a trace holds, none of them complete
    TRACE_TRUNCATED = "trace_truncated"  # values: the events read before the file ends inside them
    TOO_DEEP = "too_deep"  # values: how deep the JSON is nested, whether deeper still, in what
    NEGATIVE_DURATION = "negative_duration"  # values: a complete event's name, its duration (µs) below 0
    TOO_MANY_PARTS = "too_many_parts"  # values: the parts a workbook's zip holds, the most read
    PART_INFLATES = "part_inflates"  # values: the part, how many times it inflates, the most allowed
    CSV_TOO_LARGE = "csv_too_large"  # values: the file's size in MiB, the largest read
    CSV_TOO_WIDE = "csv_too_wide"  # values: the widest row (its number), its fields, the most columns
    SHEET_TOO_LONG = "sheet_too_long"  # values: the sheet, its rows, the most a profile has
    # A Ranks sheet that does not restore its job. values: what its cell should hold ("headers", "rank", "time",
    # "flag", "trace", "plan_on"; "twice": a rank listed twice), the sheet's headers
    RANKS_CELL = "ranks_cell"
    # values: a cell's text, its two readings (thousands grouped, decimal), the separator, whether the file is a CSV
    AMBIGUOUS_NUMBER = "ambiguous_number"


class Place(str):
    """Where in a file a problem is, by its counts: ``Place("event {} (byte {})", (12_001, 3_456_789))``. A string
    (``"event 12,001 (byte 3,456,789)"``, as the files and the command line write it, so a problem's ``where`` reads,
    compares and serialises as text wherever it goes) that keeps its words and counts, for a view to write the
    counts as it writes numbers (``byte 3.456.789`` on a German desktop: ``present/refusals.place_text``)."""

    __slots__ = ("counts", "text")
    text: str
    counts: tuple[int, ...]

    def __new__(cls, text: str, counts: tuple[int, ...]) -> Place:
        self = super().__new__(cls, _place_wording(text, counts))
        self.text, self.counts = text, counts
        return self

    def __reduce__(self) -> tuple[type[Place], tuple[str, tuple[int, ...]]]:  # a copy, a pickle (any protocol)
        return Place, (self.text, self.counts)

    @classmethod
    def at(cls, kind: str, count: int) -> Place:
        """``byte 220,180``, ``event 12``, ``line 7``."""
        return cls(kind + " {}", (count,))

    def then(self, text: str, count: int) -> Place:
        """This place and a count more: ``event 12 (byte 345), near byte 350``."""
        return Place(self.text + text, (*self.counts, count))


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth a warning) in a profile.

    ``what`` is a sentence for a person: the words given where the problem was found (``text``), or, for a typed
    refusal (``why`` and its ``values``), the words ``present/refusals.py`` gives it. ``table``/``row``/``field``
    locate the value in model terms (row is the 0-based index in that table); ``where`` is a human-readable location
    such as ``Components!B7`` that the files layer or the window fills in.
    """

    text: str
    table: str | None = None
    row: int | None = None
    field: str | None = None
    where: str = ""
    why: Refusal | None = None
    values: tuple[Any, ...] = ()

    @classmethod
    def of(cls, why: Refusal, table: str, row: int | None, field: str, *values: Any) -> Problem:
        """A typed refusal: rule ``why`` broken by the value at ``table``/``row``/``field``, with its ``values``."""
        return cls("", table, row, field, why=why, values=values)

    @classmethod
    def typed(cls, why: Refusal, *values: Any, where: str = "") -> Problem:
        """A typed problem found in a file: rule ``why`` with its ``values``, at ``where``."""
        return cls("", where=where, why=why, values=values)

    @property
    def what(self) -> str:
        return self.text or _wording(self)

    def located(self, where: str) -> Problem:
        """The same problem, placed at ``where``."""
        return replace(self, where=where)

    def __str__(self) -> str:
        return f"{self.where}: {self.what}" if self.where else self.what


def _unworded(problem: Problem) -> str:  # the model alone, before present has given a refusal its words
    return f"{problem.field}: {problem.why.value if problem.why else ''} {problem.values}"


def _unworded_place(text: str, counts: tuple[int, ...]) -> str:
    return text.format(*counts)


_wording: Callable[[Problem], str] = _unworded
_place_wording: Callable[[str, tuple[int, ...]], str] = _unworded_place


def word_refusals_with(wording: Callable[[Problem], str], place_wording: Callable[[str, tuple[int, ...]], str]) -> None:
    """Give typed refusals and places their words: present's catalogue, installed when the package is imported (as
    a message catalogue is installed into gettext), so that every error's text is worded once, in present."""
    global _wording, _place_wording
    _wording, _place_wording = wording, place_wording


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
