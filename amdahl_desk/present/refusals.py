"""The words of a typed refusal (a :class:`~amdahl_desk.model.errors.Problem` with a ``why``): one sentence per rule
a value breaks, for the window's cell, the command line, the workbook's reader and the Python API alike.

Installed into the model when the package is imported (``amdahl_desk/__init__.py``), so a refusal's text is the same
wherever it is read. Numbers are written as the files write them (``1,234.5``, ``2×``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..model.errors import Place, Problem, ProfileError, Refusal
from ..model.names import one_line
from ..model.units import TimeUnit
from .numbers import POINT, Numbers
from .text import quoted

# A setting's rule, by its field: what a value must be.
_SETTING_RULE = {
    "target_time": "the target time must be a number greater than 0",
    "baseline_gpus": "the baseline GPU count must be a whole number of 1 or more",
    "gpu_counts": "GPU counts must be whole numbers of 1 or more",
    "parallel_fraction": "the parallel fraction must be between 0 and 1 (or a share like 95%)",
    "ring_latency": "the ring latency must be a time of 0 or more",
    "ring_message_bytes": "the message size must be 0 bytes or more",
    "ring_bandwidth": "the bandwidth must be greater than 0",
    "arrival_rate": "the arrival rate must be a number of requests per second greater than 0",
    "servers": "the number of servers must be a whole number from 1 to {0}",
    "gpu_price_per_hour": "the GPU price per hour must be a number of 0 or more",
    "watts_per_gpu": "the power per GPU must be a number of 0 or more",
    "energy_price_per_kwh": "the energy price per kWh must be a number of 0 or more",
    "plan_confidence": "the plan confidence must be above 0% and at most 100%",
}
# A count's largest value, by its field.
_SETTING_LIMIT = {
    "baseline_gpus": "the baseline GPU count must be at most {0}",
    "gpu_counts": "GPU counts must be at most {0}",
}


def _relation(side: str) -> str:
    return "above" if side == "low" else "below"


def _quoted(names: tuple[str, ...]) -> str:
    """``"a", "b"``: names in quotes, comma-separated."""
    return ", ".join(f'"{t}"' for t in names)


def _why_total(n: Numbers, said: float | None, total: float, unit: TimeUnit, rounding: float) -> str:
    """Why a row without a total's label was read as the total line: its time is the sum, or within rounding of it."""
    if said is None:
        return "its time is the sum of the rows above"
    return (
        f"its time, {_cell(n, said, unit)}, is within {n.plain(rounding, '.1%')} of the rows above's sum, "
        f"{_cell(n, total, unit)}: a gap of {_gap(n, said, total, unit)}"
    )


def _cell(n: Numbers, value: float, unit: TimeUnit | None = None) -> str:
    """A value a file's cell holds (or their sum), every digit of it as a spreadsheet shows them (fifteen
    significant, never an exponent): two cells that differ never read alike (``1,102.5``, ``0.0000123457``); with
    its unit when it is a time."""
    if value == 0 or not math.isfinite(value):
        text = n.number(0.0 if value == 0 else value)  # never "-0"; "—", "∞"
    else:
        decimals = max(0, 14 - math.floor(math.log10(abs(value))))
        text = n.plain(value, f",.{decimals}f")
        if decimals:
            text = text.rstrip("0").rstrip(n.decimal)
    return f"{text} {unit.label}" if unit is not None else text


def _gap(n: Numbers, said: float, total: float, unit: TimeUnit) -> str:
    """How far a total line is from the sum, and its share of the sum (``5.7 ms (0.52%)``), to the digits the two
    hold: their difference's float noise (5.7 read 5.70000000000005) is below the fifteenth significant digit of the
    larger."""
    gap, larger = abs(said - total), max(abs(said), abs(total))
    share = n.plain(gap / total, ".2%")
    if larger > 0 and math.isfinite(larger):
        gap = round(gap, 14 - math.floor(math.log10(larger)))
    return f"{_cell(n, gap, unit)} ({share})"


def _not_one_line(name: str, char: str) -> str:
    what = (
        "a line break"
        if char in "\n\r\u2028\u2029"
        else ("a tab" if char == "\t" else f"the control character U+{ord(char):04X}")
    )
    return f'the name "{one_line(name)[:40]}" holds {what}; a name is one line of visible text'


# What a cell of the Ranks sheet should hold, by the reader's key ("{headers}": the sheet's).
_RANKS_CELL = {
    "headers": "expected the headers {headers}",
    "rank": "expected a rank number (0, 1, 2 …)",
    "time": "expected a time in ms",
    "flag": "expected TRUE or FALSE",
    "trace": "expected the rank's trace file",
    "plan_on": "expected TRUE on at least one rank (the ranks the plan is on)",
    "twice": "a rank is listed twice",
}


def _ambiguous(n: Numbers, text: str, grouped: float, decimal: float, sep: str, csv: bool) -> str:
    """A cell's text that reads as two numbers: both, and how to write the one meant."""
    name = "comma" if sep == "," else "point"
    a, b = n.plain(grouped, ".15g"), n.plain(decimal, ".15g")
    how = (
        "a CSV file with decimal commas is usually separated by semicolons"
        if csv
        else "a workbook keeps numbers as numbers when they are typed without text"
    )
    return (
        f'"{text}" could be {a} ({name} grouping thousands) or {b} (decimal {name}), and no other cell of its column '
        f"says which; write {a} or {b} without grouping ({how})"
    )


def _not_components(names: tuple[str, ...]) -> str:
    listed = _quoted(names)
    return f"{listed} {'is not a component' if len(names) == 1 else 'are not components'}; " + (
        "expected names from the Components table"
    )


_WORDS: dict[Refusal, Callable[..., str]] = {
    Refusal.NO_NAME: lambda n: "the component has no name; every component needs a unique name",
    Refusal.DUPLICATE_NAME: lambda n, name, other: (
        f'"{name}" is a duplicate name (also in {other}); component names must be unique'
    ),
    Refusal.NAME_NOT_ONE_LINE: lambda n, name, char: _not_one_line(name, char),
    Refusal.NOT_A_NUMBER: lambda n, quantity: f"the {quantity} is not a number",
    Refusal.RANGE_END_UNREADABLE: lambda n, quantity, side, why: (
        f"the {side} {quantity}: {why or _WORDS[Refusal.NOT_A_NUMBER](n, 'speedup' if quantity == 'k' else quantity)}"
    ),
    Refusal.TIME_RANGE_OUTSIDE: lambda n, side, name, end, time: (
        f'the {side} time of "{name}", {n.number(end)}, is {_relation(side)} its measured time '
        f"{n.number(time)}; a time range must hold the time (low ≤ time ≤ high)"
    ),
    Refusal.K_RANGE_OUTSIDE: lambda n, side, name, end, likely: (
        f'the {side} k of "{name}", {n.speedup(end)}, is {_relation(side)} its likely k '
        f"{n.speedup(likely)}; expected low ≤ likely ≤ high"
    ),
    Refusal.EFFORT: lambda n, name: f'the effort of "{name}" must be a number of engineer-days of 0 or more',
    Refusal.CONFIDENCE: lambda n, name: f'the confidence that "{name}" works must be from 0% to 100% (0 to 1)',
    Refusal.BUILT_AND_TICKED: lambda n, name: (
        f'"{name}" is built: the times were measured with it, so it cannot be ticked again; clear Built to plan it anew'
    ),
    Refusal.NO_TARGETS: lambda n, name: (
        f'"{name}" has no targets; expected one or more component names separated by ";"'
    ),
    Refusal.NOT_COMPONENTS: lambda n, *names: _not_components(names),
    Refusal.NO_GPU_COUNTS: lambda n: "at least one GPU count is needed",
    Refusal.UNNAMED_LOAD_OBJECTIVE: lambda n, whole: (
        f'the load objective needs a name; "{whole}" holds every component'
    ),
    Refusal.OBJECTIVE_NOT_LISTED: lambda n, name: (
        f'"{name}" is not in the Objectives sheet; it is analysed without a target of its own'
    ),
    Refusal.OBJECTIVE_EMPTY: lambda n, name: (
        f'no component belongs to "{name}"; name it in the Objectives column of the components it holds'
    ),
    Refusal.LOAD_OBJECTIVE_UNKNOWN: lambda n, name, known: (
        f'"{name}" is not an objective of this profile; expected one of {_quoted(known)}'
    ),
    Refusal.LOAD_OBJECTIVE_TAKES_NO_TIME: lambda n, name: (
        f'"{name}" takes no time, so it cannot be a service time; choose another load objective'
    ),
    Refusal.TOO_MANY_RUNS: lambda n, count, most: (
        f"{n.count(count)} runs, more than the {n.count(most)} a table of measured runs holds; keep the runs of "
        "each N (or their mean) and leave the rest out"
    ),
    Refusal.NOT_A_COUNT: lambda n, value: f"{_cell(n, value)} is not a count; N must be a number above 0",
    Refusal.NOT_A_MEASURE: lambda n, value, what: (
        f"{_cell(n, value)} is not a {what}; a measured {what} must be a number above 0"
    ),
    Refusal.END_TO_END_TARGET: lambda n, target: (
        f"End to end's target is the Settings' target time ({n.plain(target, 'g')}); leave this cell empty or make "
        "the two equal"
    ),
    Refusal.TOTAL_LINE_GAP: lambda n, said, total, unit, rounding, within: (
        f"the total line says {_cell(n, said, unit)} but the components add up to {_cell(n, total, unit)}: a gap "
        f"of {_gap(n, said, total, unit)}, "
        f"{'within' if within else 'more than'} the {n.plain(rounding, '.1%')} taken as rounding; using the "
        "components' sum"
    ),
    Refusal.TOTAL_LINE_READ: lambda n, name, said, total, unit, rounding: (
        f'"{name}" was read as the total line ({_why_total(n, said, total, unit, rounding)}), not as a component; '
        "give it a component's name in a row of its own if it is one"
    ),
    Refusal.FORMULA_RECALCULATED: lambda n, formula, value, saved: (
        f"the formula ={formula} gives {_cell(n, value)} but the workbook saved {_cell(n, saved)} (it was changed by "
        f"a program that does not recalculate); using {_cell(n, value)}"
    ),
    Refusal.LOW_BANDWIDTH: lambda n, bandwidth: (
        f'a bandwidth of {_cell(n, bandwidth)} bytes/s is implausibly low; write a unit, like "100 GB/s"'
    ),
    Refusal.TRACE_NOTE: lambda n, note: _trace_note(note, n),
    Refusal.NAME_MADE_ONE_LINE: lambda n, name, char, read: f'{_not_one_line(name, char)}: read as "{quoted(read)}"',
    Refusal.SAME_COLUMN_TWICE: lambda n, label, cell: (
        f"two {label} columns with the same header and the same values; reading {cell}"
    ),
    Refusal.NO_COMPLETE_EVENTS: lambda n, count: (
        f'the trace has no complete events (ph "X") among its {n.count(count)} events; expected operator, '
        "annotation or kernel events with a start and a duration"
    ),
    Refusal.TRACE_TRUNCATED: lambda n, count: (
        f"the file ends inside the trace's events (after event {n.count(count)}): it is truncated"
    ),
    Refusal.TOO_DEEP: lambda n, depth, deeper, what: (
        f"JSON nested {'more than ' if deeper else ''}{n.count(depth)} levels deep in {what}: too deep to read; "
        "a trace's events are a few levels deep"
    ),
    Refusal.NEGATIVE_DURATION: lambda n, name, dur: (
        f'complete event "{name}" lasts {n.plain(dur, "g")} µs; expected a duration of 0 or more'
    ),
    Refusal.TOO_MANY_PARTS: lambda n, parts, most: (
        f"the workbook holds {n.count(parts)} parts, more than the {n.count(most)} a profile could need; refusing "
        "to read it"
    ),
    Refusal.PART_INFLATES: lambda n, part, ratio, most: (
        f"part {part} inflates {n.plain(ratio, ',.0f')}× (limit {most}×), which no real workbook does (a zip "
        "bomb?); refusing to read it"
    ),
    Refusal.CSV_TOO_LARGE: lambda n, mib, most: (
        f"the file is {n.plain(mib, ',.0f')} MiB, past the {most} MiB limit for a CSV file"
    ),
    Refusal.CSV_TOO_WIDE: lambda n, row, fields, most: (
        f"row {row} has {n.count(fields)} fields, more than the {n.count(most)} columns a spreadsheet can hold; "
        "expected a table of a few columns"
    ),
    Refusal.SHEET_TOO_LONG: lambda n, sheet, rows, most: (
        f"sheet {sheet} has {n.count(rows)} rows, more than the {n.count(most)} a profile can have here; split it "
        "or sum small components into groups"
    ),
    Refusal.RANKS_CELL: lambda n, expected, headers: (
        f"{_RANKS_CELL[expected].format(headers=', '.join(headers))}; the job is not restored"
    ),
    Refusal.AMBIGUOUS_NUMBER: _ambiguous,
    Refusal.COMPONENTS_SHEET_CHOSEN: lambda n, chosen, skipped: (
        f'no sheet is named Components; the components were read from "{chosen}", the first visible sheet'
        + (f" (hidden, so skipped: {_quoted(skipped)})" if skipped else "")
        + "; name the sheet Components to choose it"
    ),
    Refusal.UNKNOWN_SETTING: lambda n, label, known: (
        f'unknown setting "{quoted(label)}" ignored; the known settings are {", ".join(known)}'
    ),
}


def _trace_note(note: object, n: Numbers) -> str:
    """An import's note, as every view but the command line's and the import dialog's words it (neither names a
    control: a comparison's after file, a notebook)."""
    from .import_notes import note_text  # the trace import's words, loaded with a trace

    return note_text(note, n)  # type: ignore[arg-type]


def refusal_text(problem: Problem, n: Numbers = POINT) -> str:
    """The sentence for ``problem``'s broken rule, its values in place, its numbers as ``n`` writes them (the
    files' format unless a view gives its own)."""
    why, values = problem.why, problem.values
    if problem.text or why is None:
        return problem.text
    if why is Refusal.OUT_OF_RANGE:
        return _SETTING_RULE[problem.field or ""].format(*(n.count(v) for v in values))
    if why is Refusal.TOO_LARGE:
        return _SETTING_LIMIT[problem.field or ""].format(*(n.count(v) for v in values))
    return str(_WORDS[why](n, *values))


def error_text(error: ProfileError, n: Numbers = POINT) -> str:
    """Every problem of ``error``, one a line, each after its source when known, worded with ``n`` (as
    ``str(error)`` words them with the files' numbers)."""
    prefix = f"{error.source}: " if error.source else ""
    return "\n".join(prefix + problem_text(p, n) for p in error.problems) or str(error)


def problem_text(problem: Problem, n: Numbers = POINT) -> str:
    """``problem`` placed and worded for a view whose numbers ``n`` writes: ``Components!B7: …``, ``byte 1.234: …``."""
    what = refusal_text(problem, n)
    return f"{place_text(problem.where, n)}: {what}" if problem.where else what


def place_text(where: str, n: Numbers = POINT) -> str:
    """A place in a file: a cell's name as it is, a :class:`Place`'s counts as ``n`` writes them."""
    return counted(where.text, where.counts, n) if isinstance(where, Place) else where


def counted(text: str, counts: tuple[int, ...], n: Numbers = POINT) -> str:
    """A place's words with its counts as ``n`` writes them: ``event 12 (byte 3,456)``."""
    return text.format(*(n.count(c) for c in counts))
