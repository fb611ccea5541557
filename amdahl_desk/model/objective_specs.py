"""Objective names as people write them, and the rows of the Objectives sheet (name, target time, notes)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import Problem, Refusal
from .names import name_key

END_TO_END = "End to end"
END_TO_END_KEY = END_TO_END.lower()  # its key (:func:`objective_key`): how every spelling of it is compared
_END_TO_END_SPELLINGS = {END_TO_END_KEY, END_TO_END_KEY.replace(" ", "-"), "endtoend", "e2e"}


def objective_key(name: str) -> str:
    """What two spellings of one objective share: case and runs of blanks do not count; "end-to-end" is End to end."""
    key = name_key(name)
    return END_TO_END_KEY if key in _END_TO_END_SPELLINGS else key


def is_end_to_end(name: str) -> bool:
    return objective_key(name) == END_TO_END_KEY


def normalise_objectives(names: Iterable[str]) -> tuple[str, ...]:
    """Objective names trimmed (inner blanks to one), empty ones dropped, each once (first spelling kept)."""
    result: list[str] = []
    seen: set[str] = set()
    for part in names:
        name = " ".join(part.split())
        key = objective_key(name)
        if name and key not in seen:
            seen.add(key)
            result.append(name)
    return tuple(result)


def parse_objectives(text: str) -> tuple[str, ...]:
    """An Objectives cell ``"TTFT; End to end"`` → ``("TTFT", "End to end")``: trimmed, first spelling kept."""
    return normalise_objectives(text.replace("\n", ";").split(";"))


def objectives_text(names: Sequence[str]) -> str:
    """The Objectives cell for ``names``; :func:`parse_objectives` reads it back."""
    return "; ".join(names)


@dataclass(frozen=True)
class ObjectiveSpec:
    """A row of the Objectives sheet: an objective, its own target time (in the profile's unit), notes."""

    name: str
    target_time: float | None = None
    notes: str = ""


def objective_spec_problems(specs: Sequence[ObjectiveSpec], end_to_end_target: float | None = None) -> list[Problem]:
    """Rows of the Objectives sheet that cannot be accepted, located as ("objectives", row, field).

    End to end's target is the Settings' target time: a row for End to end may repeat it, not contradict it.
    """
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for row, spec in enumerate(specs):
        key = objective_key(spec.name)
        if not key:
            problems.append(Problem("the objective has no name", "objectives", row, "name"))
        elif key in first:
            problems.append(
                Problem(
                    f'"{spec.name}" is listed twice (also in row {first[key] + 1}); each objective once',
                    "objectives",
                    row,
                    "name",
                )
            )
        else:
            first[key] = row
        target = spec.target_time
        if target is not None and not (isinstance(target, (int, float)) and math.isfinite(target) and target > 0):
            problems.append(
                Problem("the target time must be a number greater than 0", "objectives", row, "target_time")
            )
        elif target is not None and key == END_TO_END_KEY and end_to_end_target not in (None, target):
            problems.append(Problem.of(Refusal.END_TO_END_TARGET, "objectives", row, "target_time", end_to_end_target))
    return problems
