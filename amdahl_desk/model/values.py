"""Parsers for values a person types that are not times: sizes in pixels (more kinds join here)."""

from __future__ import annotations


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` (or ×) → (1920, 1080); 200 to 10,000 pixels a side; raises ValueError."""
    try:
        w, h = (int(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f'"{text}" is not a size; expected WIDTHxHEIGHT, like 1920x1080') from None
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise ValueError(f'"{text}": width and height must be between 200 and 10,000 pixels')
    return w, h
