"""The profile: measured components, proposed optimizations and settings, with their rules."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .errors import Problem, ProfileError
from .units import ParseError, TimeUnit, check_speedup, check_time, convert


class Scaling(str, Enum):
    """How a component's time behaves when GPUs are added."""

    SERIAL = "serial"
    PARALLEL = "parallel"
    COMMUNICATION = "communication"

    @classmethod
    def parse(cls, text: str) -> Scaling:
        """Case-insensitive, with a few words people use; empty means serial."""
        key = text.strip().lower()
        if not key:
            return cls.SERIAL
        found = SCALING_WORDS.get(key)
        if found is None:
            raise ParseError(f'"{text.strip()}" is not a scaling class; expected serial, parallel or communication')
        return found


SCALING_WORDS = {
    "serial": Scaling.SERIAL,
    "sequential": Scaling.SERIAL,
    "s": Scaling.SERIAL,
    "parallel": Scaling.PARALLEL,
    "p": Scaling.PARALLEL,
    "communication": Scaling.COMMUNICATION,
    "comm": Scaling.COMMUNICATION,
    "c": Scaling.COMMUNICATION,
}


class OverheadModel(str, Enum):
    """How communication components' time grows with the GPU count."""

    NONE = "none"
    LINEAR = "linear"
    LOG = "log"
    RING = "ring"

    @classmethod
    def parse(cls, text: str) -> OverheadModel:
        key = text.strip().lower()
        aliases = {
            "": "none",
            "constant": "none",
            "log2": "log",
            "logarithmic": "log",
            "ring all-reduce": "ring",
            "all-reduce": "ring",
            "allreduce": "ring",
        }
        key = aliases.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise ParseError(f'"{text.strip()}" is not an overhead model; expected none, linear, log or ring') from None

    @property
    def phrase(self) -> str:
        """How the model reads inside a sentence."""
        return _OVERHEAD_PHRASE[self]

    @property
    def description(self) -> str:
        """How the model scales the measured communication time C (measured at N0 GPUs)."""
        return _OVERHEAD_TEXT[self]


_OVERHEAD_PHRASE = {
    OverheadModel.NONE: "with communication held at its measured time",
    OverheadModel.LINEAR: "with communication growing linearly in N",
    OverheadModel.LOG: "with communication growing as log₂N",
    OverheadModel.RING: "with a ring all-reduce",
}

_OVERHEAD_TEXT = {
    OverheadModel.NONE: "communication stays at its measured time C",
    OverheadModel.LINEAR: "communication grows in proportion to N: C·N/N0",
    OverheadModel.LOG: "communication grows with log₂N: C·(1+log₂N)/(1+log₂N0)",
    OverheadModel.RING: "ring all-reduce: C + ring(N) − ring(N0), ring(N) = 2(N−1)α + 2(N−1)/N·bytes/bandwidth",
}


class _ComponentFields(NamedTuple):
    name: str
    time: float
    scaling: Scaling = Scaling.SERIAL
    group: str = ""
    notes: str = ""


_SCALING_CODE = {Scaling.SERIAL: 0, Scaling.PARALLEL: 1, Scaling.COMMUNICATION: 2}
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int8]


class Component(_ComponentFields):
    """One measured part of the workload: an immutable value (``_replace`` makes a changed copy).

    A named tuple rather than a frozen dataclass: profiles hold 100,000 of them, and this
    is three times cheaper to create.
    """

    __slots__ = ()

    def __new__(
        cls, name: str, time: float, scaling: Scaling = Scaling.SERIAL, group: str = "", notes: str = ""
    ) -> Component:
        # Names are identifiers people type and paste: surrounding blanks (tabs too) are never meant.
        return super().__new__(cls, name.strip(), time, scaling, group, notes)

    def __repr__(self) -> str:
        return f"Component({self.name!r}, {self.time!r}, {self.scaling.value}, group={self.group!r})"


@dataclass(frozen=True)
class Optimization:
    """A proposed change: the components it speeds up and by how much (k)."""

    name: str
    targets: tuple[str, ...]
    speedup: float
    enabled: bool = True
    notes: str = ""

    @property
    def is_slowdown(self) -> bool:
        return self.speedup < 1


def default_gpu_counts(max_gpus: int = 1024) -> tuple[int, ...]:
    """Powers of two up to ``max_gpus``, with ``max_gpus`` itself at the end."""
    counts = [1]
    while counts[-1] * 2 <= max_gpus:
        counts.append(counts[-1] * 2)
    if counts[-1] != max_gpus:
        counts.append(max_gpus)
    return tuple(counts)


@dataclass(frozen=True)
class Settings:
    """What the analysis needs besides the table: target, GPU range, overhead model.

    Ring parameters are physical: latency α in seconds, message size in bytes,
    bandwidth in bytes per second.
    """

    target_time: float | None = None
    baseline_gpus: int = 1
    gpu_counts: tuple[int, ...] = field(default_factory=default_gpu_counts)
    parallel_fraction: float | None = None
    overhead_model: OverheadModel = OverheadModel.NONE
    ring_latency: float = 5e-6
    ring_message_bytes: float = 1e9
    ring_bandwidth: float = 100e9
    boundary: str = ""


MAX_GPUS = 10_000_000  # beyond any machine: a larger count is a typo, and would make a useless curve


def settings_problems(settings: Settings) -> list[Problem]:
    """Everything wrong with ``settings``, located by field name."""
    problems: list[Problem] = []

    def bad(name: str, what: str) -> None:
        problems.append(Problem(what, "settings", None, name))

    if settings.target_time is not None and (not math.isfinite(settings.target_time) or settings.target_time <= 0):
        bad("target_time", "the target time must be a number greater than 0")
    if settings.baseline_gpus < 1:
        bad("baseline_gpus", "the baseline GPU count must be a whole number of 1 or more")
    elif settings.baseline_gpus > MAX_GPUS:
        bad("baseline_gpus", f"the baseline GPU count must be at most {MAX_GPUS:,}")
    if not settings.gpu_counts:
        bad("gpu_counts", "at least one GPU count is needed")
    elif min(settings.gpu_counts) < 1:
        bad("gpu_counts", "GPU counts must be whole numbers of 1 or more")
    elif max(settings.gpu_counts) > MAX_GPUS:
        bad("gpu_counts", f"GPU counts must be at most {MAX_GPUS:,}")
    p = settings.parallel_fraction
    if p is not None and not (math.isfinite(p) and 0 <= p <= 1):
        bad("parallel_fraction", "the parallel fraction must be between 0 and 1 (or a share like 95%)")
    if not (math.isfinite(settings.ring_latency) and settings.ring_latency >= 0):
        bad("ring_latency", "the ring latency must be a time of 0 or more")
    if not (math.isfinite(settings.ring_message_bytes) and settings.ring_message_bytes >= 0):
        bad("ring_message_bytes", "the message size must be 0 bytes or more")
    if not (math.isfinite(settings.ring_bandwidth) and settings.ring_bandwidth > 0):
        bad("ring_bandwidth", "the bandwidth must be greater than 0")
    return problems


# Line breaks, tabs and other control characters: a name is one line of visible text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a name (it holds a line break or a control character), or ``None``."""
    if name.isprintable():  # the common case, at C speed
        return None
    found = _CONTROL.search(name)
    if found is None:
        return None  # no-break and other Unicode spaces are fine
    char = found.group()
    what = (
        "a line break"
        if char in "\n\r\u2028\u2029"
        else ("a tab" if char == "\t" else f"the control character U+{ord(char):04X}")
    )
    return f'the name "{one_line(name)[:40]}" holds {what}; a name is one line of visible text'


def one_line(name: str) -> str:
    """``name`` made a valid name: line breaks and tabs become one space, other control characters U+FFFD."""
    if name.isprintable():
        return name
    text = re.sub(r"[\t\n\r\u2028\u2029]+", " ", name)
    return " ".join(_CONTROL.sub("\ufffd", text).split(" ")).strip()


def _name_key(name: str) -> str:
    return name.strip().casefold()


def table_row(row: int) -> str:
    """A row of the components table as the window numbers it: 1-based."""
    return f"row {row + 1}"


def component_problems(
    components: Sequence[Component],
    first_row: dict[str, int] | None = None,
    row_name: Callable[[int], str] = table_row,
) -> list[Problem]:
    """Names empty or repeated (case-insensitively), times negative or not finite.

    Fills ``first_row`` (when given) with each name's key and row, for reuse as the name index.
    ``row_name`` names another row in a message (a file reader names the sheet cell or CSV row).
    """
    problems: list[Problem] = []
    first_row = {} if first_row is None else first_row
    inf = math.inf
    for row, comp in enumerate(components):
        name, time = comp[0], comp[1]
        key = name.casefold()  # names are stripped on construction
        # The common case first, at C speed: a new, printable name and a finite time ≥ 0.
        if key and key not in first_row and name.isprintable():
            first_row[key] = row
        elif not key:
            problems.append(
                Problem("the component has no name; every component needs a unique name", "components", row, "name")
            )
        elif (bad_name := name_problem(name)) is not None:
            problems.append(Problem(bad_name, "components", row, "name"))
        elif key in first_row:
            problems.append(
                Problem(
                    f'"{name}" is a duplicate name (also in {row_name(first_row[key])}); '
                    "component names must be unique",
                    "components",
                    row,
                    "name",
                )
            )
        else:
            first_row[key] = row
        if type(time) is float and 0 <= time < inf:
            continue
        try:
            check_time(time)
        except ParseError as exc:
            problems.append(Problem(str(exc), "components", row, "time"))
        except TypeError:
            problems.append(Problem("the time is not a number", "components", row, "time"))
    return problems


def optimization_problems(
    optimizations: Sequence[Optimization], components: Sequence[Component], names: Container[str] | None = None
) -> list[Problem]:
    """Speedups ≤ 0, no targets, and targets that name no component (``names``: their keys, if known)."""
    if names is None:
        names = {_name_key(c.name) for c in components}
    problems: list[Problem] = []
    for row, opt in enumerate(optimizations):
        bad_name = name_problem(opt.name)
        if bad_name is not None:
            problems.append(Problem(bad_name, "optimizations", row, "name"))
        try:
            check_speedup(opt.speedup)
        except ParseError as exc:
            problems.append(Problem(str(exc), "optimizations", row, "speedup"))
        if not opt.targets:
            problems.append(
                Problem(
                    f'"{opt.name}" has no targets; expected one or more component names separated by ";"',
                    "optimizations",
                    row,
                    "targets",
                )
            )
        missing = [t for t in opt.targets if _name_key(t) not in names]
        if missing:
            listed = ", ".join(f'"{t}"' for t in missing)
            problems.append(
                Problem(
                    f"{listed} {'is not a component' if len(missing) == 1 else 'are not components'}; "
                    "expected names from the Components table",
                    "optimizations",
                    row,
                    "targets",
                )
            )
    return problems


class _Spellings(Mapping[str, str]):
    """A read-only view: name key → the component's name as spelled."""

    def __init__(self, index: dict[str, int], components: list[Component]) -> None:
        self._index, self._components = index, components

    def __getitem__(self, key: str) -> str:
        return self._components[self._index[key]].name

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


class Profile:
    """A workload's measured components, the optimizations proposed for it, and its settings.

    Every public operation keeps the profile valid: it raises :class:`ProfileError`
    and changes nothing when the result would not be.  Components are immutable
    values; operations replace them.
    """

    def __init__(
        self,
        components: Iterable[Component] = (),
        optimizations: Iterable[Optimization] = (),
        settings: Settings | None = None,
        unit: TimeUnit = TimeUnit.MS,
    ) -> None:
        comps = list(components)
        settings = settings or Settings()
        index: dict[str, int] = {}
        problems = component_problems(comps, index)
        by_key = {key: comps[row].name for key, row in index.items()}
        opts = [self._canonical(o, by_key) for o in optimizations]
        problems += optimization_problems(opts, comps, index) + settings_problems(settings)
        if problems:
            raise ProfileError(problems)
        self.components: list[Component] = comps
        self.optimizations: list[Optimization] = opts
        self.settings = settings
        self.unit = unit
        self._index: dict[str, int] | None = index
        self._arrays: tuple[FloatArray, IntArray] | None = None

    # -- reading -----------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return (self.components, self.optimizations, self.settings, self.unit) == (
            other.components,
            other.optimizations,
            other.settings,
            other.unit,
        )

    def __repr__(self) -> str:
        return f"Profile({len(self.components)} components, {len(self.optimizations)} optimizations, unit={self.unit.value})"

    def copy(self) -> Profile:
        clone = Profile.__new__(Profile)
        clone.components = list(self.components)
        clone.optimizations = list(self.optimizations)
        clone.settings = self.settings
        clone.unit = self.unit
        clone._index = dict(self._index) if self._index is not None else None
        clone._arrays = None
        return clone

    @property
    def total(self) -> float:
        return math.fsum(c.time for c in self.components)

    def index_of(self, name: str) -> int:
        """Row of the component called ``name`` (case-insensitive); -1 when absent."""
        return self._name_index().get(_name_key(name), -1)

    @staticmethod
    def _canonical(opt: Optimization, by_key: Mapping[str, str]) -> Optimization:
        """Targets spelled as the components are (matching is case-insensitive), duplicates dropped."""
        seen: list[str] = []
        for t in opt.targets:
            name = by_key.get(_name_key(t), t.strip())
            if name not in seen:
                seen.append(name)
        return replace(opt, targets=tuple(seen)) if tuple(seen) != opt.targets else opt

    # -- changing ----------------------------------------------------------
    def _commit(self, comps: list[Component], opts: list[Optimization], settings: Settings) -> None:
        index: dict[str, int] = {}
        problems = component_problems(comps, index)
        problems += optimization_problems(opts, comps, index) + settings_problems(settings)
        if problems:
            raise ProfileError(problems)
        self.components, self.optimizations, self.settings = comps, opts, settings
        self._index = index
        self._arrays = None

    def set_component(self, row: int, component: Component) -> None:
        """Replace row ``row``; a new name carries the optimizations that targeted the old one.

        Checks only the changed row against a name index, so an edit costs the
        same in a table of ten rows or ten thousand.
        """
        old = self.components[row]
        problems = component_problems([component])
        key = _name_key(component.name)
        other = self._name_index().get(key, row)
        if component.name.strip() and other != row:
            problems.append(
                Problem(
                    f'"{component.name}" is a duplicate name (also in {table_row(other)}); component names must be unique',
                    "components",
                    row,
                    "name",
                )
            )
        if problems:
            raise ProfileError([Problem(p.what, "components", row, p.field) for p in problems])
        self.components[row] = component
        cached = getattr(self, "_arrays", None)
        if cached is not None:
            cached[0][row] = component.time
            cached[1][row] = _SCALING_CODE[component.scaling]
        if old.name != component.name:
            self.optimizations = [self._renamed(o, old.name, component.name) for o in self.optimizations]
            index = self._name_index()
            del index[_name_key(old.name)]
            index[key] = row

    def arrays(self) -> tuple[FloatArray, IntArray]:
        """Times and scaling classes (0 serial, 1 parallel, 2 communication) as numpy arrays.

        Cached: a single-row edit updates them in place, so the analysis after a keystroke
        does not walk ten thousand components again.
        """
        cached = getattr(self, "_arrays", None)
        if cached is None or len(cached[0]) != len(self.components):
            n = len(self.components)
            times = np.fromiter((c.time for c in self.components), dtype=float, count=n)
            kinds = np.fromiter((_SCALING_CODE[c.scaling] for c in self.components), dtype=np.int8, count=n)
            cached = self._arrays = (times, kinds)
        return cached

    def _spellings(self) -> Mapping[str, str]:
        """Key → spelled name, looked up through the name index (no copy of ten thousand names)."""
        return _Spellings(self._name_index(), self.components)

    def name_index(self) -> Mapping[str, int]:
        """Name key (stripped, case-folded) → row of that component; read only, current after every change."""
        return self._name_index()

    def _name_index(self) -> dict[str, int]:
        index: dict[str, int] | None = getattr(self, "_index", None)
        if index is None:
            index = {}
            for r, c in enumerate(self.components):
                index.setdefault(_name_key(c.name), r)
            self._index = index
        return index

    def replace_components(self, rows: Sequence[int], components: Sequence[Component]) -> None:
        """Replace several rows at once (a paste); renames carry their optimizations, even a swap of two names."""
        comps = list(self.components)
        renames: dict[str, str] = {}
        for row, comp in zip(rows, components, strict=True):
            if comps[row].name != comp.name:
                renames[comps[row].name] = comp.name
            comps[row] = comp
        opts = self.optimizations
        if renames:
            opts = [
                replace(o, targets=tuple(renames.get(t, t) for t in o.targets))
                if renames.keys() & set(o.targets)
                else o
                for o in opts
            ]
        self._commit(comps, opts, self.settings)

    def set_components(
        self, components: Sequence[Component], optimizations: Sequence[Optimization] | None = None
    ) -> None:
        """Replace the whole table (and optionally the optimizations) in one checked step."""
        opts = list(self.optimizations if optimizations is None else optimizations)
        self._commit(list(components), opts, self.settings)

    def set_optimizations(self, optimizations: Sequence[Optimization]) -> None:
        """Replace the optimizations; only they are checked, against the name index: toggling stays cheap."""
        spellings = self._spellings()
        opts = [self._canonical(o, spellings) for o in optimizations]
        problems = optimization_problems(opts, self.components, self._name_index())
        if problems:
            raise ProfileError(problems)
        self.optimizations = opts

    @staticmethod
    def _renamed(opt: Optimization, old: str, new: str) -> Optimization:
        if old not in opt.targets:
            return opt
        return replace(opt, targets=tuple(new if t == old else t for t in opt.targets))

    def insert_components(self, row: int, components: Sequence[Component]) -> None:
        comps = list(self.components)
        comps[row:row] = components
        self._commit(comps, self.optimizations, self.settings)

    def set_optimizations_unchecked(self, optimizations: Sequence[Optimization]) -> None:
        """Set optimizations that are valid for the components left after a removal about to follow."""
        self.optimizations = list(optimizations)

    def without_components(self, names: set[str]) -> tuple[list[Optimization], list[str], list[str]]:
        """The optimizations with ``names`` dropped from their targets; which changed, which are left empty.

        Optimizations left with no target are dropped too.
        """
        kept: list[Optimization] = []
        changed: list[str] = []
        dropped: list[str] = []
        for o in self.optimizations:
            if not names.intersection(o.targets):
                kept.append(o)
                continue
            targets = tuple(t for t in o.targets if t not in names)
            if targets:
                kept.append(replace(o, targets=targets))
                changed.append(o.name)
            else:
                dropped.append(o.name)
        return kept, changed, dropped

    def remove_components(self, row: int, count: int = 1) -> list[Component]:
        """Remove rows; refused while an optimization still targets one of them."""
        removed = self.components[row : row + count]
        gone = {c.name for c in removed}
        users = [o.name for o in self.optimizations if gone.intersection(o.targets)]
        if users:
            raise ProfileError(f"cannot delete: targeted by {', '.join(users)}; remove those targets first")
        comps = self.components[:row] + self.components[row + count :]
        self._commit(comps, self.optimizations, self.settings)
        return removed

    def set_optimization(self, row: int, optimization: Optimization) -> None:
        opts = list(self.optimizations)
        opts[row] = self._canonical(optimization, self._spellings())
        self._commit(self.components, opts, self.settings)

    def insert_optimizations(self, row: int, optimizations: Sequence[Optimization]) -> None:
        opts = list(self.optimizations)
        spellings = self._spellings()
        opts[row:row] = [self._canonical(o, spellings) for o in optimizations]
        self._commit(self.components, opts, self.settings)

    def set_settings(self, settings: Settings) -> None:
        self._commit(self.components, self.optimizations, settings)

    def set_unit(self, unit: TimeUnit) -> None:
        """Express every time in ``unit``: the same measurements, other numbers."""
        old = self.unit
        self.components = [c._replace(time=convert(c.time, old, unit)) for c in self.components]
        self._index = None
        self._arrays = None
        if self.settings.target_time is not None:
            self.settings = replace(self.settings, target_time=convert(self.settings.target_time, old, unit))
        self.unit = unit
