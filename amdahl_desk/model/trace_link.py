"""What a profile imported from a trace remembers of it: the events each component groups (so a what-if can find
them in the trace again), as the Settings sheet writes them (its rows: ``present/setting_rows.TRACE_ROWS``)."""

from __future__ import annotations

from .numbers import ParseError


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
