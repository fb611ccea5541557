"""What the window says while a large paste is taken and when it is done."""

from __future__ import annotations

from .numbers import POINT, Numbers


def pasting_runs(rows: int, n: Numbers = POINT) -> str:
    """The status line while the runs of a large paste are read and the table, fit and charts follow."""
    return f"Pasting {n.count(rows)} runs…"


def pasted_runs(rows: int, n: Numbers = POINT) -> str:
    """The status line once they are in: one step, undone as one."""
    return f"Pasted {n.count(rows)} runs (Undo takes them back in one step)"
