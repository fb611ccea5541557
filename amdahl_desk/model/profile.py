"""The profile: measured components, proposed optimizations, settings, objectives and measured runs, kept valid."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from .errors import ProfileError
from .measurements import Measurements
from .names import name_key, name_keys, name_problem, one_line
from .objective_specs import ObjectiveSpec, objective_spec_problems
from .profile_rules import (
    CheckedColumns,
    component_problems,
    duplicate_name,
    optimization_problems,
    table_row,
)
from .profile_values import (
    MAX_GPUS,
    SCALING_CODE,
    SCALING_WORDS,
    TIME_HIGH_AT,
    TIME_LOW_AT,
    Component,
    Optimization,
    OverheadModel,
    Scaling,
    Settings,
    default_gpu_counts,
    settings_problems,
)
from .units import TimeUnit, convert

__all__ = [
    "MAX_GPUS",
    "SCALING_WORDS",
    "Component",
    "Optimization",
    "OverheadModel",
    "Profile",
    "Scaling",
    "Settings",
    "CheckedColumns",
    "component_problems",
    "default_gpu_counts",
    "name_problem",
    "one_line",
    "optimization_problems",
    "settings_problems",
    "table_row",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int8]
BoolArray = NDArray[np.bool_]
_name_key = name_key
_SCALING_CODE = SCALING_CODE


# Component.time, .scaling and .objectives, read at C speed over a whole table.
_TIME_OF, _SCALING_OF, _OBJECTIVES_OF = operator.itemgetter(1), operator.itemgetter(2), operator.itemgetter(5)
_GUESSED_OF = operator.itemgetter(6)  # Component.scaling_guessed
_LOW_OF, _HIGH_OF = operator.itemgetter(TIME_LOW_AT), operator.itemgetter(TIME_HIGH_AT)


def _bounds_of(ends: list[float | None], times: FloatArray, none: bool) -> FloatArray:
    """One end of every component's range, its time where it has none (``none``: no component has one), as an
    array of its own: an edit changes it in place."""
    if none:  # the usual table: no list of None made into NaN (3.8 ms at 50,000 rows) only to be replaced
        return times.copy()
    array = np.array(ends, dtype=float)  # None is NaN: no range
    return np.where(np.isnan(array), times, array)


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
        objectives: Iterable[ObjectiveSpec] = (),
        measurements: Measurements | None = None,
        checked: CheckedColumns | None = None,
    ) -> None:
        """``checked``: the components' names and times as a file reader checked them, so the profile
        checks only that the names are unique (see :class:`CheckedColumns`)."""
        comps = list(components)
        settings = settings or Settings()
        specs = tuple(objectives)
        index: dict[str, int] = {}
        problems = component_problems(comps, index, checked=checked)
        opts = [self._canonical(o, index, comps) for o in optimizations]
        problems += optimization_problems(opts, comps, index) + settings_problems(settings)
        problems += objective_spec_problems(specs, settings.target_time)
        if problems:
            raise ProfileError(problems)
        self.components: list[Component] = comps
        self.optimizations: list[Optimization] = opts
        self.settings = settings
        self.unit = unit
        # The Objectives sheet's rows: each objective's own target (End to end's is the Settings' target).
        self.objectives: tuple[ObjectiveSpec, ...] = specs
        # The runs measured at several GPU (worker, user) counts, saved and opened with the profile.
        self.measurements: Measurements | None = measurements
        self._index: dict[str, int] | None = index
        self._arrays: tuple[FloatArray, IntArray, BoolArray] | None = None
        # Each component's lowest and highest time, and whether any component has a range; None until asked for.
        # Cached (and kept in place by an edit) as the arrays are: the window asks from five places after every change
        # whether the odds apply, and building the bounds takes 0.63 ms at 10,000 rows (0.1 µs cached).
        self._bounds: tuple[FloatArray, FloatArray, bool] | None = None

    # -- reading -----------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return (self.components, self.optimizations, self.settings, self.unit, self.objectives, self.measurements) == (
            other.components,
            other.optimizations,
            other.settings,
            other.unit,
            other.objectives,
            other.measurements,
        )

    def __repr__(self) -> str:
        return f"Profile({len(self.components)} components, {len(self.optimizations)} optimizations, unit={self.unit.value})"

    def copy(self) -> Profile:
        clone = Profile.__new__(Profile)
        clone.components = list(self.components)
        clone.optimizations = list(self.optimizations)
        clone.settings = self.settings
        clone.unit = self.unit
        clone.objectives = self.objectives  # immutable values: shared, never changed in place
        clone.measurements = self.measurements
        clone._index = dict(self._index) if self._index is not None else None
        clone._arrays = None
        clone._bounds = None
        return clone

    @property
    def total(self) -> float:
        return math.fsum(c.time for c in self.components)

    def index_of(self, name: str) -> int:
        """Row of the component called ``name`` (case-insensitive); -1 when absent."""
        return self._name_index().get(_name_key(name), -1)

    @staticmethod
    def _canonical(opt: Optimization, index: Mapping[str, int], components: Sequence[Component]) -> Optimization:
        """Targets spelled as the components are (matching is case-insensitive, through the name index), duplicates
        dropped."""
        seen: list[str] = []
        for t in opt.targets:
            row = index.get(_name_key(t))
            name = t.strip() if row is None else components[row].name
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
        self._bounds = None

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
            problems.append(duplicate_name(component.name, table_row(other), row))
        if problems:
            raise ProfileError([replace(p, table="components", row=row) for p in problems])
        self.components[row] = component
        cached = getattr(self, "_arrays", None)
        if cached is not None:
            cached[0][row] = component.time
            cached[1][row] = _SCALING_CODE[component.scaling]
            cached[2][row] = component.scaling_guessed
        bounds = getattr(self, "_bounds", None)
        if bounds is not None:
            bounds[0][row], bounds[1][row] = component.time_range
            if not bounds[2] and (component.time_low is not None or component.time_high is not None):
                self._bounds = (bounds[0], bounds[1], True)
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
        times, kinds, _ = self._cached_arrays()
        return times, kinds

    def guessed_scaling(self) -> BoolArray:
        """Whether each component's scaling class is an import's guess (cached like :meth:`arrays`)."""
        return self._cached_arrays()[2]

    def _cached_arrays(self) -> tuple[FloatArray, IntArray, BoolArray]:
        cached = getattr(self, "_arrays", None)
        if cached is None or len(cached[0]) != len(self.components):
            n = len(self.components)
            comps = self.components
            times = np.fromiter(map(_TIME_OF, comps), dtype=float, count=n)
            kinds = np.fromiter(map(_SCALING_CODE.__getitem__, map(_SCALING_OF, comps)), dtype=np.int8, count=n)
            guessed = np.fromiter(map(_GUESSED_OF, comps), dtype=bool, count=n)
            cached = self._arrays = (times, kinds, guessed)
        return cached

    def time_bounds(self) -> tuple[FloatArray, FloatArray] | None:
        """Each component's lowest and highest time (its time where it has no range), or ``None`` when no component
        has a range. Cached like :meth:`arrays`."""
        bounds = getattr(self, "_bounds", None)
        if bounds is None or len(bounds[0]) != len(self.components):
            comps, n = self.components, len(self.components)
            lows, highs = list(map(_LOW_OF, comps)), list(map(_HIGH_OF, comps))
            times = self.arrays()[0]
            none_low, none_high = lows.count(None) == n, highs.count(None) == n
            bounds = self._bounds = (
                _bounds_of(lows, times, none_low),
                _bounds_of(highs, times, none_high),
                not (none_low and none_high),
            )
        return (bounds[0], bounds[1]) if bounds[2] else None

    def has_uncertainty(self) -> bool:
        """Whether some optimization has a k range or a confidence below 100%, or some time a range: the odds apply.

        From the cached time bounds: the window asks after every change of a 10,000-row table."""
        return any(o.is_uncertain for o in self.optimizations) or self.has_time_ranges()

    def wants_plan(self) -> bool:
        """Whether the cheapest plan applies: there is a target time and some optimization has an effort."""
        return self.settings.target_time is not None and any(o.effort is not None for o in self.optimizations)

    def has_time_ranges(self) -> bool:
        """Whether some component's time has a spread (from the cached bounds: cheap after every edit; the bounds
        of a table whose last range was cleared are its times)."""
        bounds = self.time_bounds()
        if bounds is None:
            return False
        times = self.arrays()[0]
        return bool(np.any(bounds[0] != times) or np.any(bounds[1] != times))

    def name_index(self) -> Mapping[str, int]:
        """Name key (stripped, case-folded) → row of that component; read only, current after every change."""
        return self._name_index()

    def _name_index(self) -> dict[str, int]:
        index: dict[str, int] | None = getattr(self, "_index", None)
        if index is None:
            index = {}
            for r, key in enumerate(name_keys([c.name for c in self.components])):
                index.setdefault(key, r)
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
        index = self._name_index()
        opts = [self._canonical(o, index, self.components) for o in optimizations]
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

    def set_settings(self, settings: Settings) -> None:
        problems = objective_spec_problems(self.objectives, settings.target_time)
        if problems:
            raise ProfileError(problems)
        self._commit(self.components, self.optimizations, settings)

    def set_objectives(self, specs: Sequence[ObjectiveSpec]) -> None:
        """Replace the Objectives sheet's rows (names once each, targets above 0, End to end's as the Settings')."""
        specs = tuple(specs)
        problems = objective_spec_problems(specs, self.settings.target_time)
        if problems:
            raise ProfileError(problems)
        self.objectives = specs

    def set_measurements(self, measurements: Measurements | None) -> None:
        """Replace the measured runs (already checked when the :class:`Measurements` was made), or drop them."""
        self.measurements = measurements

    def uses_objectives(self) -> bool:
        """Whether an objective besides End to end is in play: listed on the Objectives sheet or named by a component."""
        return bool(self.objectives) or any(map(_OBJECTIVES_OF, self.components))

    def objectives_of_components(self) -> list[tuple[str, ...]]:
        """Each component's Objectives cell, in table order (what the objective analysis reads)."""
        return [c.objectives for c in self.components]

    def set_unit(self, unit: TimeUnit) -> None:
        """Express every time in ``unit``: the same measurements, other numbers."""
        old = self.unit
        self.components = [c.in_unit(old, unit) for c in self.components]
        self._index = None
        self._arrays = None
        self._bounds = None
        if self.settings.target_time is not None:
            self.settings = replace(self.settings, target_time=convert(self.settings.target_time, old, unit))
        self.objectives = tuple(
            replace(o, target_time=convert(o.target_time, old, unit)) if o.target_time is not None else o
            for o in self.objectives
        )
        self.unit = unit
