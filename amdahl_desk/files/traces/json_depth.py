"""JSON nested deeper than any trace: found without recursion when a decoder gives up, reported at its byte."""

from __future__ import annotations

import re

from ...model.errors import Place, Problem, Refusal
from ...model.traces.errors import TraceError

# Trace events are a few levels deep (an event, its args, a list in them); the JSON decoders recurse once per
# level and stop near a thousand. Past this depth the file is not a trace the import can read.
DEPTH_LIMIT = 500
# A string (possibly cut at the end of a block) or a bracket: brackets inside strings are not nesting.
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"?|[\[\]{}]')
_OPEN = frozenset(b"[{")


def deepest_byte(data: bytes, limit: int = DEPTH_LIMIT) -> tuple[int, int]:
    """(byte, depth): where the nesting first passes ``limit`` levels, else where it is deepest.

    One pass over the tokens, no recursion: bounded time and memory for any nesting.
    """
    depth = deepest = 0
    at = 0
    for m in _TOKEN.finditer(data):
        c = data[m.start()]
        if c in _OPEN:
            depth += 1
            if depth > deepest:
                deepest, at = depth, m.start()
                if depth > limit:
                    break
        elif c != 0x22:  # a closing bracket
            depth -= 1
    return at, deepest


def too_deep(data: bytes, source: str, offset: int = 0, what: str = "the file") -> TraceError:
    """The refusal of ``data`` (which starts at byte ``offset`` of the file) after a decoder's RecursionError."""
    at, depth = deepest_byte(data)
    deep = Problem.typed(Refusal.TOO_DEEP, min(depth, DEPTH_LIMIT), depth > DEPTH_LIMIT, what)
    return TraceError(deep, source, Place.at("byte", offset + at))
