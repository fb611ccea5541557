"""``PATTERN=K``: which events a what-if speeds up, by how much, and the factor each event of a trace gets.

A pattern is a case-insensitive substring of an event's name, or with the prefix ``re:`` a regular expression
(``re.search``, case-insensitive). It matches GPU kernels, copies and memsets, CPU operators and CUDA runtime
calls — never user annotations or Python functions. An event two patterns match takes the product of their K.

With the prefix ``in:`` (``in:aten::convolution``, ``in:re:^## forward``) a pattern names CPU events — ops,
annotations, calls — and matches the GPU work launched from inside them (an op's or a call's on its thread; an
annotation's — a phase — on any thread while it runs, as the import's annotation components do): kernel names
rarely say which op they serve (a convolution's are ``implicit_gemm``, ``scudnn``, ``fft2d``…).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from ..errors import Asked, InputError
from ..numbers import ParseError
from ..units import MAX_VALUE_CHARS, speedup_number
from .dependencies import ANNOTATION, OP, RUNTIME, GraphTrace
from .events import FloatArray
from .intervals import merge

REGEX_PREFIX = "re:"
INSIDE_PREFIX = "in:"


@dataclass(frozen=True)
class Speedup:
    """One ``PATTERN=K``."""

    pattern: str
    k: float

    @property
    def text(self) -> str:
        return f"{self.pattern}={self.k:g}"

    @property
    def inside(self) -> bool:
        """Whether the pattern names CPU events whose launched GPU work it matches (``in:``)."""
        return self.pattern.startswith(INSIDE_PREFIX)

    def matcher(self) -> re.Pattern[str]:
        text = self.pattern[len(INSIDE_PREFIX) :] if self.inside else self.pattern
        if text.startswith(REGEX_PREFIX):
            return re.compile(text[len(REGEX_PREFIX) :], re.IGNORECASE)
        return re.compile(re.escape(text), re.IGNORECASE)


def parse_pattern_speedup(text: str) -> Speedup:
    """``PATTERN=K``, split at the last ``=``; K a number greater than 0. Raises :class:`InputError` (of
    :attr:`Asked.SPEEDUP`, with ``text`` as given)."""
    pattern, eq, k_text = text.rpartition("=")
    if not eq:
        raise InputError(Asked.SPEEDUP, text, 'expected PATTERN=K, like "gemm=2" or "re:^nccl=1.5"')
    inner = pattern[len(INSIDE_PREFIX) :] if pattern.startswith(INSIDE_PREFIX) else pattern
    if not inner or inner == REGEX_PREFIX:
        raise InputError(Asked.SPEEDUP, text, 'the pattern before "=" is empty')
    try:
        k = speedup_number(k_text) if len(k_text) <= MAX_VALUE_CHARS else None
    except ParseError as exc:  # 2.052 or 1,500: one separator before three digits
        if "," in k_text:
            raise InputError(Asked.SPEEDUP, text, f"K is {exc}") from None
        k = speedup_number(k_text, ".")  # a point in a typed K is the decimal point, as in any number given here
    if k is None:
        raise InputError(Asked.SPEEDUP, text, f'K is "{k_text}", not a number; expected a speedup like 2')
    if not math.isfinite(k) or k <= 0:
        raise InputError(Asked.SPEEDUP, text, "K must be a number greater than 0 (1.5 is 1.5× faster)")
    if inner.startswith(REGEX_PREFIX):
        try:
            re.compile(inner[len(REGEX_PREFIX) :])
        except re.error as exc:
            raise InputError(Asked.SPEEDUP, text, f"the regular expression is not valid ({exc})") from None
    return Speedup(pattern, k)


def refuse_unmatched(
    speedup: Speedup, given: str, steps: int, ranks: str = "", annotations: Sequence[str] = ()
) -> NoReturn:
    """Refuse ``speedup`` (``given`` as typed) for naming no event in ``steps`` steps (``ranks``: "on any rank",
    "on ranks 0"); a pattern that a user annotation of ``annotations`` matches says how to name that phase."""
    from ..errors import Asked, InputError
    from .component_events import is_component_matcher

    kind, _, name = speedup.pattern.partition(":")
    matcher = is_component_matcher(speedup.pattern)
    named = (
        []
        if matcher or speedup.inside
        else [a for a, hit in zip(annotations, matching_names(annotations, speedup), strict=True) if hit]
    )
    raise InputError(
        Asked.SPEEDUP,
        given,
        (
            f'the annotation "{name}" runs only inside another one, and annotation:NAME names an outermost one (a '
            f"phase): name the one around it, or in:{name} for the GPU work launched in it"
            if kind == "annotation" and name in annotations
            else f'no annotation named "{name}" runs'
            if kind == "annotation"
            else f'no operator named "{name}" runs on the steps\' thread'
            if kind == "op"
            else f"no GPU {name} work runs"
            if matcher
            else f'"{speedup.pattern}" is no matcher whatif scales (gpu:compute, gpu:communication, gpu:memory), and as'
            " a pattern it matches no kernel, copy, operator or runtime call"
            if kind == "gpu"
            else "the pattern matches no kernel, copy, operator or runtime call"
        )
        + (
            ""
            if kind == "annotation" and name in annotations
            else f"{' ' + ranks if ranks else ''} in the {steps} step{'s' * (steps != 1)}"
        )
        + (
            f'; it matches the annotation "{named[0]}": annotation:{named[0]}=K scales that phase (its time on '
            "every thread and the GPU work launched in it), as the window's component does"
            if named
            else ""
        ),
    )


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
        if not len(by_name):
            hit = factor < 0
        elif sp.inside:
            hit = np.concatenate((np.zeros(len(ev.cpu_ts), dtype=bool), launched_inside(trace, by_name[ev.cpu_name])))
        else:
            hit = np.concatenate((by_name[ev.cpu_name] & scalable_cpu, by_name[ev.gpu_name]))
        factor[hit] *= sp.k
        matched.append(hit)
    return Factors(factor, tuple(matched))


def launched_inside(trace: GraphTrace, rows: np.ndarray) -> np.ndarray:
    """Per GPU event: whether the call that launched it ran inside one of the CPU rows in ``rows``: inside an op
    or a call on the same thread, or — for a user annotation, a phase such as ``## backward ##`` — while the
    annotation ran, on any thread (backward's kernels are launched from the autograd engine's thread)."""
    ev, deps = trace.events, trace.deps
    out = np.zeros(len(ev.gpu_ts), dtype=bool)
    chosen = np.flatnonzero(rows)
    if not len(chosen) or not len(ev.gpu_ts):
        return out
    calls = np.flatnonzero((deps.cpu_class == RUNTIME) & (deps.cpu_corr >= 0))
    order = np.argsort(deps.cpu_corr[calls], kind="stable")
    corr, call_rows = deps.cpu_corr[calls][order], calls[order]
    at = np.clip(np.searchsorted(corr, ev.gpu_corr), 0, max(len(corr) - 1, 0))
    has = (len(corr) > 0) & (corr[at] == ev.gpu_corr) if len(corr) else np.zeros(len(ev.gpu_ts), dtype=bool)
    launch = np.where(has, call_rows[at], -1)
    phases = chosen[deps.cpu_class[chosen] == ANNOTATION]
    if len(phases):
        starts, ends = merge(ev.cpu_ts[phases], ev.cpu_ts[phases] + ev.cpu_dur[phases])
        sel = np.flatnonzero(has)
        t = ev.cpu_ts[launch[sel]]
        k = np.searchsorted(starts, t, side="right") - 1
        out[sel[(k >= 0) & (t < ends[np.maximum(k, 0)])]] = True
        chosen = chosen[deps.cpu_class[chosen] != ANNOTATION]
    for thread in np.unique(ev.cpu_thread[chosen]).tolist():
        mine = chosen[ev.cpu_thread[chosen] == thread]
        starts, ends = merge(ev.cpu_ts[mine], ev.cpu_ts[mine] + ev.cpu_dur[mine])
        sel = np.flatnonzero(has)
        sel = sel[ev.cpu_thread[launch[sel]] == thread]
        t = ev.cpu_ts[launch[sel]]
        k = np.searchsorted(starts, t, side="right") - 1
        inside = (k >= 0) & (t < ends[np.maximum(k, 0)])
        out[sel[inside]] = True
    return out
