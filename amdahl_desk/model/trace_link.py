"""What a profile imported from a trace remembers of it, and how the Settings sheet writes it: the trace, the
grouping, and the events each component groups (so a what-if can find them in the trace again)."""

from __future__ import annotations

from .load_settings import SettingRow
from .units import ParseError

TRACE_ROWS: tuple[SettingRow, ...] = (
    SettingRow(
        "trace_source",
        "Trace",
        "the profiler trace (file or folder of ranks) these components were imported from",
        ("trace", "trace file", "source trace"),
    ),
    SettingRow(
        "trace_grouping",
        "Trace grouping",
        "how the import grouped the trace: grouping; rank; top N; device; total; exclude steps",
        ("trace grouping",),
    ),
    SettingRow(
        "trace_events",
        "Trace events",
        'per component, the events it groups (JSON: {"component": "annotation:NAME" | "op:NAME" | "gpu:compute" …})',
        ("trace events", "component events"),
    ),
)
"""The rows a profile imported from a trace adds to its Settings sheet, in order; empty ones are not written."""


def trace_events_text(events: tuple[tuple[str, str], ...]) -> str:
    """``{"forward": "annotation:## forward ##", …}``: one JSON object, read back by :func:`parse_trace_events`."""
    import json  # here: a workbook that names no trace (most) never loads it

    return json.dumps(dict(events), ensure_ascii=False)


def parse_trace_events(text: str) -> tuple[tuple[str, str], ...]:
    """The (component, matcher) pairs of a Trace events cell; raises :class:`ParseError` naming what is wrong."""
    text = text.strip()
    if not text:
        return ()
    import json

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ParseError(
            f'the trace events are not JSON ({exc.args[0]}); expected {{"component": "matcher"}}'
        ) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ParseError('the trace events must be one JSON object of texts: {"component": "matcher", …}')
    return tuple(data.items())
