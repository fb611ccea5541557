"""``PATTERN=K``: which events a what-if speeds up, by how much, and the factor each event of a trace gets.

A pattern is a case-insensitive substring of an event's name, or with the prefix ``re:`` a regular expression
(``re.search``, case-insensitive). It matches GPU kernels, copies and memsets, CPU operators and CUDA runtime
calls — never user annotations or Python functions. An event two patterns match takes the product of their K.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import BadInputError
from .dependencies import OP, RUNTIME, GraphTrace
from .events import FloatArray

REGEX_PREFIX = "re:"


@dataclass(frozen=True)
class Speedup:
    """One ``PATTERN=K``."""

    pattern: str
    k: float

    @property
    def text(self) -> str:
        return f"{self.pattern}={self.k:g}"

    def matcher(self) -> re.Pattern[str]:
        if self.pattern.startswith(REGEX_PREFIX):
            return re.compile(self.pattern[len(REGEX_PREFIX) :], re.IGNORECASE)
        return re.compile(re.escape(self.pattern), re.IGNORECASE)


def parse_speedup(text: str) -> Speedup:
    """``PATTERN=K``, split at the last ``=``; K a number greater than 0. Raises :class:`BadInputError`."""
    pattern, eq, k_text = text.rpartition("=")
    if not eq:
        raise BadInputError(f'--speedup "{text}": expected PATTERN=K, like "gemm=2" or "re:^nccl=1.5"')
    if not pattern or pattern == REGEX_PREFIX:
        raise BadInputError(f'--speedup "{text}": the pattern before "=" is empty')
    try:
        k = float(k_text.strip().rstrip("×xX"))
    except ValueError:
        raise BadInputError(f'--speedup "{text}": K is "{k_text}", not a number; expected a speedup like 2') from None
    if not math.isfinite(k) or k <= 0:
        raise BadInputError(f'--speedup "{text}": K must be a number greater than 0 (1.5 is 1.5× faster)')
    if pattern.startswith(REGEX_PREFIX):
        try:
            re.compile(pattern[len(REGEX_PREFIX) :])
        except re.error as exc:
            raise BadInputError(f'--speedup "{text}": the regular expression is not valid ({exc})') from None
    return Speedup(pattern, k)


def matching_names(names: Sequence[str], speedup: Speedup) -> np.ndarray:
    """Per name id: whether the pattern matches the name."""
    rx = speedup.matcher()
    return np.fromiter((rx.search(n) is not None for n in names), dtype=bool, count=len(names))


@dataclass(frozen=True)
class Factors:
    """Per item of a trace (CPU rows, then GPU events): the K it is sped up by (1: untouched), and per pattern
    which items it matched."""

    factor: FloatArray
    matched: tuple[np.ndarray, ...]


def item_factors(trace: GraphTrace, speedups: Sequence[Speedup], excluded_rows: np.ndarray | None = None) -> Factors:
    """The K of every CPU row and GPU event for ``speedups``; ``excluded_rows`` (the steps) are never matched."""
    ev, deps = trace.events, trace.deps
    scalable_cpu = (deps.cpu_class == OP) | (deps.cpu_class == RUNTIME)
    if excluded_rows is not None and len(excluded_rows):
        scalable_cpu[excluded_rows] = False
    factor = np.ones(len(ev.cpu_ts) + len(ev.gpu_ts))
    matched = []
    for sp in speedups:
        by_name = matching_names(ev.names, sp)
        hit = (
            np.concatenate((by_name[ev.cpu_name] & scalable_cpu, by_name[ev.gpu_name])) if len(by_name) else factor < 0
        )
        factor[hit] *= sp.k
        matched.append(hit)
    return Factors(factor, tuple(matched))
