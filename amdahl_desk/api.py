"""The Python API: Amdahl Desk's answers in a notebook or a script, through the functions the command line uses.

``import amdahl_desk as ad`` and then ``ad.load``, ``ad.whatif``, ``ad.fit``, ``ad.compare``. Every figure comes
from the model the window and ``amdahl-desk`` use, and every ``to_dict()`` is built by the very function that writes
that command's ``--json`` (see docs/api.md). Nothing here loads Qt, except :meth:`Chart.render` when a picture is
asked for. Tables are pandas DataFrames; pandas comes with the ``notebook`` extra.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from .model.errors import BadInputError, Error, ProfileError

if TYPE_CHECKING:
    import pandas as pd

    from .files import Loaded
    from .files.traces.graph_source import RankGraph
    from .model.analysis import Analysis as ModelAnalysis
    from .model.comparison import Comparison as ModelComparison
    from .model.decision import Decision as ModelDecision
    from .model.fit import FitResult
    from .model.profile import Profile as ModelProfile
    from .model.traces.whatif import WhatIf as ModelWhatIf

__all__ = [
    "Analysis",
    "BadInputError",
    "Chart",
    "Comparison",
    "Decision",
    "Error",
    "Fit",
    "MissingExtraError",
    "Plan",
    "Profile",
    "ProfileError",
    "WhatIf",
    "compare",
    "fit",
    "load",
    "whatif",
]

PathLike = Union[str, "os.PathLike[str]"]
DEFAULT_STEP = "ProfilerStep#"
CHART_SIZE = (1280, 720)  # a chart shown in a notebook: 16:9, legible at a notebook's width


class MissingExtraError(Error, ImportError):
    """A table was asked for and pandas is not installed: it comes with the ``notebook`` extra."""


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise MissingExtraError(
            'this table is a pandas DataFrame, and pandas is not installed; install it with the "notebook" extra: '
            'pip install "amdahl-desk[notebook]"'
        ) from None
    return pandas


def _frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], index: str | None = None) -> pd.DataFrame:
    frame = _pandas().DataFrame(list(rows), columns=list(columns))
    return frame.set_index(index) if index is not None else frame


def _json_equal(data: Any) -> Any:
    """``data`` exactly as the command line's JSON reads back: lists for tuples, the same floats, nulls."""
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(data))


def _num(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


# -- profiles -----------------------------------------------------------------------------------------------------


def _import_options(options: Mapping[str, Any]) -> Any:
    """The trace import's options from ``load``'s keywords (those of ``amdahl-desk import``)."""
    from .model.traces import GROUPINGS, ImportOptions

    known = {"group_by", "total", "top", "rank", "device", "exclude_steps", "exclude_flagged"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise BadInputError(f"load: {', '.join(unknown)} is not an import option; expected {', '.join(sorted(known))}")
    group_by = options.get("group_by")
    if group_by is not None and group_by not in GROUPINGS:
        raise BadInputError(f'--group-by: "{group_by}" is not a grouping; expected {", ".join(GROUPINGS)}')
    top = options.get("top", 15)
    if top is not None and (not isinstance(top, int) or top < 1):
        raise BadInputError("--top: expected a whole number of 1 or more")
    steps = options.get("exclude_steps") or ()
    if isinstance(steps, str):
        steps = steps.split(",")
    return ImportOptions(
        group_by=group_by,
        total=bool(options.get("total", False)),
        top=top,
        rank=options.get("rank"),
        exclude_steps=frozenset(s.strip() for s in steps if s.strip()),
        exclude_flagged=bool(options.get("exclude_flagged", False)),
        device=options.get("device"),
    )


def load(source: PathLike, **options: Any) -> Profile:
    """A profile from a workbook (.xlsx), a components table (.csv), or a profiler trace (a PyTorch/Kineto trace,
    a speedscope profile, an nsys stats CSV; a folder of one trace per rank: the slowest rank, or ``rank=R``).

    A trace is imported as ``amdahl-desk import`` imports it; ``options`` are that command's: ``group_by`` ("op",
    "annotation", "gpu", "function"…), ``total``, ``top``, ``rank``, ``device``, ``exclude_steps``,
    ``exclude_flagged``. A workbook or table takes no options. Raises :class:`ProfileError` naming the file (and
    the cell) when it cannot be read, :class:`BadInputError` for an option that is not one.
    """
    from .files import is_trace

    path = Path(source)
    if not is_trace(path):
        if options:
            raise BadInputError(
                f"load: {', '.join(sorted(options))} only apply to profiler traces; {path.name} is a workbook or "
                "CSV table, read as it is"
            )
        from .files import load_profile

        return Profile._of(load_profile(path), str(source))
    # A folder of ranks is imported here as one rank's profile (the slowest, or ``rank``); a job of many ranks
    # joined at their collectives becomes its own return type where this branch reads a folder.
    from .files import load_any

    return Profile._of(load_any(path, _import_options(options)), str(source))


class Profile:
    """A measured profile: components, proposed optimizations, settings. Immutable: each ``with_…`` gives a new one.

    Made by :func:`load` or :meth:`from_pandas`; :meth:`analyse` answers what the enabled optimizations buy.
    """

    __slots__ = ("_profile", "_source", "_time_cells", "_warnings")
    _profile: ModelProfile
    _source: str
    _time_cells: str
    _warnings: tuple[str, ...]

    def __init__(self) -> None:
        raise TypeError("make a Profile with amdahl_desk.load(path) or Profile.from_pandas(df)")

    @classmethod
    def _of(cls, loaded: Loaded, source: str, profile: ModelProfile | None = None) -> Profile:
        self = object.__new__(cls)
        self._profile = (profile or loaded.profile).copy()
        self._source = source
        self._time_cells = loaded.time_cells
        self._warnings = tuple(str(w) for w in loaded.warnings)
        return self

    def _changed(self, profile: ModelProfile) -> Profile:
        self_type = type(self)
        clone = object.__new__(self_type)
        clone._profile, clone._source, clone._time_cells, clone._warnings = (
            profile,
            self._source,
            self._time_cells,
            self._warnings,
        )
        return clone

    @classmethod
    def from_pandas(cls, frame: pd.DataFrame, unit: str | None = None) -> Profile:
        """A profile from a DataFrame of components, read as a CSV table is: a name column (Component, Name…), a
        time column (Time (ms), or Time with ``unit``), optionally Scaling, Group, Notes, Time low, Time high.

        ``p.components`` reads back to the same profile (its unit travels in ``frame.attrs["unit"]``). Raises
        :class:`ProfileError` naming the cell ("DataFrame!B3": row 1 is the header) of each bad value.
        """
        from .files.row_tables import read_component_rows

        unit = unit or frame.attrs.get("unit")
        header = [_with_unit(str(c), unit) for c in frame.columns]
        rows = [[_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]
        return cls._of(read_component_rows(header, rows), "DataFrame")

    # -- reading ------------------------------------------------------------------------------------------------
    @property
    def source(self) -> str:
        """The file (or "DataFrame") the profile was read from."""
        return self._source

    @property
    def unit(self) -> str:
        """The unit of every time: "ms", "s", "us" or "ns"."""
        return self._profile.unit.value

    @property
    def total(self) -> float:
        """The measured baseline: the components' times added up, in :attr:`unit`."""
        return self._profile.total

    @property
    def target(self) -> float | None:
        """The target time in :attr:`unit` (None: none set)."""
        return self._profile.settings.target_time

    @property
    def warnings(self) -> tuple[str, ...]:
        """What reading the file found worth a warning, each naming its cell."""
        return self._warnings

    @property
    def components(self) -> pd.DataFrame:
        """One row a component: name, time (in :attr:`unit`), scaling, group, notes, time_low, time_high."""
        frame = _frame(
            [
                {
                    "name": c.name,
                    "time": c.time,
                    "scaling": c.scaling.value,
                    "group": c.group,
                    "notes": c.notes,
                    "time_low": c.time_low,
                    "time_high": c.time_high,
                }
                for c in self._profile.components
            ],
            ("name", "time", "scaling", "group", "notes", "time_low", "time_high"),
        )
        frame.attrs["unit"] = self.unit
        return frame

    @property
    def optimizations(self) -> pd.DataFrame:
        """One row an optimization: name, targets (a tuple of component names), k, its range, enabled, effort
        (engineer-days), confidence (the odds it works at all), notes."""
        return _frame(
            [
                {
                    "name": o.name,
                    "targets": tuple(o.targets),
                    "k": o.speedup,
                    "k_low": o.speedup_low,
                    "k_high": o.speedup_high,
                    "enabled": o.enabled,
                    "effort": o.effort,
                    "confidence": o.confidence,
                    "notes": o.notes,
                }
                for o in self._profile.optimizations
            ],
            ("name", "targets", "k", "k_low", "k_high", "enabled", "effort", "confidence", "notes"),
        )

    def to_model(self) -> ModelProfile:
        """A copy of the model's profile (``amdahl_desk.model.profile.Profile``), for what this API does not cover."""
        return self._profile.copy()

    def __repr__(self) -> str:
        p = self._profile
        on = sum(o.enabled for o in p.optimizations)
        return (
            f"<Profile {self._source}: {len(p.components)} components, {p.total:g} {self.unit}; "
            f"{len(p.optimizations)} optimizations, {on} enabled>"
        )

    # -- changing (each a new profile) --------------------------------------------------------------------------
    def with_optimization(
        self,
        name: str,
        targets: Sequence[str] | str,
        k: float,
        *,
        enabled: bool = True,
        k_low: float | None = None,
        k_high: float | None = None,
        effort: float | None = None,
        confidence: float = 1.0,
        notes: str = "",
    ) -> Profile:
        """A new profile with the optimization ``name``: ``targets`` (component names) ``k`` times faster.

        An optimization of that name is replaced (a notebook cell run twice gives the same profile). ``k_low`` and
        ``k_high`` make k a three-point estimate; ``effort`` in engineer-days and ``confidence`` (0–1, the odds it
        works) feed :meth:`decide`. Raises :class:`ProfileError` for an unknown target or a k of 0 or less.
        """
        from .model.profile import Optimization
        from .model.units import parse_speedup
        from .model.values import parse_confidence, parse_effort

        low, high = _value(k_low, parse_speedup, "k_low"), _value(k_high, parse_speedup, "k_high")
        opt = Optimization(
            name=name,
            targets=(targets,) if isinstance(targets, str) else tuple(targets),
            speedup=_number(k, parse_speedup, "k"),
            enabled=enabled,
            notes=notes,
            speedup_low=low,
            speedup_high=high,
            effort=_value(effort, parse_effort, "effort"),
            confidence=_number(confidence, parse_confidence, "confidence"),
        )
        profile = self._profile.copy()
        opts = list(profile.optimizations)
        same = [i for i, o in enumerate(opts) if o.name.strip().casefold() == name.strip().casefold()]
        if same:
            opts[same[0]] = opt
        else:
            opts.append(opt)
        try:
            profile.set_optimizations(opts)
        except ProfileError as exc:
            raise ProfileError(exc.problems, f'optimization "{name}"') from None
        return self._changed(profile)

    def with_enabled(self, *names: str, only: bool = False) -> Profile:
        """A new profile with the optimizations ``names`` ticked (``only=True``: and every other one unticked)."""
        profile = self._profile.copy()
        keys = {n.strip().casefold() for n in names}
        known = {o.name.strip().casefold() for o in profile.optimizations}
        missing = [n for n in names if n.strip().casefold() not in known]
        if missing:
            listed = ", ".join(o.name for o in profile.optimizations) or "none"
            raise BadInputError(f"with_enabled: no optimization {', '.join(missing)}; the profile has {listed}")
        opts = [
            replace(o, enabled=True) if o.name.strip().casefold() in keys else replace(o, enabled=False) if only else o
            for o in profile.optimizations
        ]
        profile.set_optimizations(opts)
        return self._changed(profile)

    def with_target(self, target: str | float | None) -> Profile:
        """A new profile with the target time ``target`` ("600 ms", or a number in :attr:`unit`; None: no target)."""
        profile = self._profile.copy()
        if target is None:
            profile.set_settings(replace(profile.settings, target_time=None))
        else:
            _set_options(profile, target, None)
        return self._changed(profile)

    def save(self, path: PathLike) -> Path:
        """Write the profile: a workbook for .xlsx (with its Summary sheet), the components table for .csv."""
        from .files import save_profile
        from .files.atomic import atomic_write

        target = Path(path)
        if target.suffix.lower() not in (".xlsx", ".csv"):
            raise BadInputError(f"save: {target} should end in .xlsx or .csv")
        analysis = None
        try:
            analysis = self._analyse(self._profile)
        except ProfileError:
            analysis = None
        profile = self._profile
        atomic_write(target, lambda tmp: save_profile(profile, tmp, analysis, csv=target.suffix.lower() == ".csv"))
        return target

    # -- answering ----------------------------------------------------------------------------------------------
    def _analyse(self, profile: ModelProfile) -> ModelAnalysis:
        from .cli.common import analyse_loaded
        from .files import Loaded

        return analyse_loaded(Loaded(profile, [], self._time_cells), self._source)

    def _answer(
        self, target: str | float | None, confidence: str | float | None, seed: int | None
    ) -> tuple[ModelProfile, ModelAnalysis, ModelDecision | None]:
        from .model.decision import decide

        profile = self._profile.copy()
        _set_options(profile, target, confidence)
        if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**63):
            raise BadInputError(f'--seed: "{seed}" is not a seed; expected a whole number of 0 or more')
        analysis = self._analyse(profile)
        return profile, analysis, decide(profile, analysis, seed)

    def analyse(
        self, target: str | float | None = None, *, confidence: str | float | None = None, seed: int | None = None
    ) -> Analysis:
        """What the enabled optimizations buy end to end: ``report``'s answer.

        ``target``, ``confidence`` and ``seed`` are ``report``'s ``--target`` ("600 ms"), ``--confidence``
        ("80%") and ``--seed``; :meth:`Analysis.to_dict` is then ``report --json`` with them.
        """
        profile, analysis, decision = self._answer(target, confidence, seed)
        return Analysis(profile, analysis, decision, self._warnings, self._source)

    def decide(
        self, target: str | float | None = None, *, confidence: str | float | None = None, seed: int | None = None
    ) -> Decision:
        """The odds of meeting ``target`` with the enabled plan, what would make it likelier (the tornado), and the
        cheapest plan that meets it with ``confidence`` (the Settings' 80% by default) among the optimizations with
        an effort. ``target`` defaults to the profile's own; without one there are no odds to give.
        """
        profile, analysis, decision = self._answer(target, confidence, seed)
        if profile.settings.target_time is None:
            raise BadInputError('decide: the profile has no target time; give one, like target="600 ms"')
        return Decision(profile, analysis, decision)


def _value(value: float | str | None, parse: Callable[[str], float], what: str) -> float | None:
    return None if value is None else _number(value, parse, what)


def _number(value: float | str, parse: Callable[[str], float], what: str) -> float:
    """A number given as a number, or as text read by the model's parser of that value ("4x", "80%", "3 days")."""
    from .model.numbers import ParseError

    if isinstance(value, str):
        try:
            return parse(value)
        except ParseError as exc:
            raise BadInputError(f"{what}: {exc}") from None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise BadInputError(f"{what}: {value!r} is not a number")
    return float(value)


def _with_unit(column: str, unit: str | None) -> str:
    """``time`` → ``time (ms)`` when the unit is known apart (the header is where the CSV reader looks for it)."""
    if unit and column.strip().lower().replace("_", " ") in ("time", "time low", "time high"):
        return f"{column} ({unit})"
    return column


def _cell(value: Any) -> Any:
    """A DataFrame value as a sheet's cell: missing values (None, NaN, NA) empty, numpy scalars plain."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        value = item()
        return None if isinstance(value, float) and math.isnan(value) else value
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return value


def _set_options(profile: ModelProfile, target: str | float | None, confidence: str | float | None) -> None:
    """``report``'s --target and --confidence, set on ``profile`` with that command's parsers and messages."""
    from .cli.report import set_options

    set_options(
        profile,
        None if target is None else _text(target),
        None if confidence is None else _text(confidence),
    )


def _text(value: str | float) -> str:
    return value if isinstance(value, str) else repr(float(value))


# -- the analysis -------------------------------------------------------------------------------------------------


class Analysis:
    """What a profile's enabled optimizations buy: ``amdahl-desk report``'s answer (see :meth:`Profile.analyse`)."""

    def __init__(
        self,
        profile: ModelProfile,
        analysis: ModelAnalysis,
        decision: ModelDecision | None,
        warnings: Sequence[str] = (),
        source: str = "",
    ) -> None:
        self._profile, self._analysis, self._decision = profile, analysis, decision
        self._warnings, self._source = tuple(warnings), source

    @property
    def speedup(self) -> float:
        """End-to-end speedup S = baseline ÷ new total, with every enabled optimization."""
        return self._analysis.combined.overall_speedup

    @property
    def new_total(self) -> float:
        """The total after the enabled optimizations, in the profile's unit."""
        return self._analysis.combined.new_total

    @property
    def baseline_total(self) -> float:
        """The measured total, in the profile's unit."""
        return self._analysis.baseline_total

    @property
    def time_saved(self) -> float:
        """Baseline total − new total."""
        return self._analysis.combined.time_saved

    @property
    def ceiling(self) -> float:
        """1/(1−f): the most the enabled optimizations' components could ever give (inf when they are everything)."""
        return self._analysis.combined.ceiling

    @property
    def unit(self) -> str:
        """The unit of every time."""
        return self._profile.unit.value

    @property
    def summary(self) -> str:
        """The design-review sentence, as the window's summary and ``report`` word it."""
        from .present.report import headline

        return headline(self._profile, self._analysis)

    @property
    def text(self) -> str:
        """The whole report as ``amdahl-desk report`` prints it."""
        from .cli.report import report_text

        return report_text(self._profile, self._analysis, self._decision)

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk report --json`` prints for this profile (and target, confidence, seed)."""
        from .cli.report import to_json_dict

        return _json_equal(to_json_dict(self._profile, self._analysis, self._warnings, self._decision))  # type: ignore[no-any-return]

    def to_pandas(self) -> pd.DataFrame:
        """The components with their share and their new time: name, time, fraction, new_time, scaling, group."""
        a, comps = self._analysis, self._profile.components
        frame = _frame(
            [
                {
                    "name": c.name,
                    "time": c.time,
                    "fraction": float(a.fractions[i]),
                    "new_time": float(a.new_times[i]),
                    "scaling": c.scaling.value,
                    "group": c.group,
                }
                for i, c in enumerate(comps)
            ],
            ("name", "time", "fraction", "new_time", "scaling", "group"),
        )
        frame.attrs["unit"] = self.unit
        return frame

    @property
    def optimizations(self) -> pd.DataFrame:
        """Each optimization alone: name, enabled, k, fraction it targets, speedup, new_total, time_saved, ceiling."""
        figs = self._analysis.optimizations
        return _frame(
            [
                {
                    "name": o.name,
                    "enabled": o.enabled,
                    "k": o.speedup,
                    "fraction": float(figs.fraction[i]),
                    "speedup": float(figs.overall_speedup[i]),
                    "new_total": float(figs.new_total[i]),
                    "time_saved": float(figs.time_saved[i]),
                    "ceiling": float(figs.ceiling[i]),
                }
                for i, o in enumerate(self._profile.optimizations)
            ],
            ("name", "enabled", "k", "fraction", "speedup", "new_total", "time_saved", "ceiling"),
        )

    def chart(self, key: str = "speedup", size: tuple[int, int] = CHART_SIZE) -> Chart:
        """A chart of ``amdahl-desk export --chart`` (breakdown, speedup, scaling, slide…): shown inline in Jupyter,
        written with :meth:`Chart.save`. Qt is loaded (offscreen) when the picture is first drawn, not before."""
        from .cli.export import CHART_KEYS, TRACE_CHART_KEYS

        keys = CHART_KEYS + TRACE_CHART_KEYS
        if key not in keys:
            raise BadInputError(f'--chart: "{key}" is not a chart; expected {", ".join(keys)}')
        return Chart(key, self._profile, self._analysis, self._source, size)

    def __repr__(self) -> str:
        return f"<Analysis {self.speedup:.4g}× ({self.baseline_total:g} → {self.new_total:g} {self.unit})>"

    def _repr_markdown_(self) -> str:
        return self.summary


class Chart:
    """One chart of a profile, drawn on demand: inline in Jupyter (PNG and SVG), or saved as PNG, SVG or PDF."""

    def __init__(
        self,
        key: str,
        profile: ModelProfile,
        analysis: ModelAnalysis,
        source: str,
        size: tuple[int, int] = CHART_SIZE,
    ) -> None:
        self.key, self.size = key, size
        self._profile, self._analysis, self._source = profile, analysis, source
        self._drawn: dict[tuple[str, tuple[int, int], bool], bytes] = {}

    def render(self, fmt: str = "png", size: tuple[int, int] | None = None, transparent: bool = False) -> bytes:
        """The picture as PNG, SVG or PDF bytes, drawn as ``amdahl-desk export`` draws it."""
        if fmt not in ("png", "svg", "pdf"):
            raise BadInputError(f'--format: "{fmt}" is not a chart format; expected png, svg or pdf')
        at = size or self.size
        key = (fmt, at, transparent)
        if key not in self._drawn:
            from .api_chart import render_chart

            self._drawn[key] = render_chart(self.key, self._profile, self._analysis, self._source, fmt, at, transparent)
        return self._drawn[key]

    def save(self, path: PathLike, size: tuple[int, int] | None = None, transparent: bool = False) -> Path:
        """Write the chart; the format is the path's suffix (.png, .svg or .pdf)."""
        target = Path(path)
        fmt = target.suffix.lower().lstrip(".")
        data = self.render(fmt, size, transparent)
        from .files.atomic import atomic_write

        atomic_write(target, lambda tmp: _write(tmp, data))
        return target

    def _repr_png_(self) -> bytes:
        return self.render("png")

    def _repr_svg_(self) -> str:
        return self.render("svg").decode("utf-8")

    def __repr__(self) -> str:
        return f"<Chart {self.key} of {self._source}, {self.size[0]}×{self.size[1]}>"


def _write(path: str, data: bytes) -> None:
    Path(path).write_bytes(data)


# -- deciding -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The cheapest set of optimizations that meets the target with the confidence asked."""

    optimizations: tuple[str, ...]
    effort: float  # engineer-days
    probability: float  # of meeting the target with it
    new_total_p50: float  # its median new total


class Decision:
    """Odds, what matters most, and the cheapest plan for a target (see :meth:`Profile.decide`)."""

    def __init__(self, profile: ModelProfile, analysis: ModelAnalysis, decision: ModelDecision | None) -> None:
        self._profile, self._analysis, self._decision = profile, analysis, decision

    @property
    def target(self) -> float:
        """The target time, in the profile's unit."""
        target = self._profile.settings.target_time
        assert target is not None
        return target

    @property
    def probability(self) -> float:
        """The odds that the enabled plan meets the target, over the estimates' ranges; with single-valued estimates
        the plan either meets it (1) or not (0)."""
        figures = self._decision.figures if self._decision is not None else None
        if figures is not None and figures.probability_target is not None:
            return figures.probability_target
        t = self._analysis.target
        return 1.0 if t is not None and t.met_by_plan else 0.0

    @property
    def plan(self) -> Plan | None:
        """The cheapest plan that meets the target with the confidence asked; None when none does, or no optimization
        has an effort to compare."""
        search = self._decision.search if self._decision is not None else None
        if search is None or search.cheapest is None:
            return None
        c = search.cheapest
        return Plan(tuple(c.names), c.effort, c.probability_target, c.new_total_p50)

    @property
    def tornado(self) -> pd.DataFrame:
        """What moves the speedup most: per estimate, the speedup at its low and high end, and the swing (largest
        first). Empty when no estimate has a range."""
        figures = self._decision.figures if self._decision is not None else None
        rows = [
            {
                "name": s.name,
                "speedup_at_low": _num(s.speedup_at_low),
                "speedup_at_high": _num(s.speedup_at_high),
                "swing": _num(s.swing),
            }
            for s in (figures.sensitivity if figures is not None else ())
        ]
        return _frame(rows, ("name", "speedup_at_low", "speedup_at_high", "swing"))

    @property
    def summary(self) -> str:
        """The odds, what would make the target likelier and the plan, in the words of the window and ``report``."""
        from .present.decision import decision_view

        figures = self._decision.figures if self._decision is not None else None
        search = self._decision.search if self._decision is not None else None
        said = decision_view(self._profile, self._analysis, figures, search)
        odds = said.odds.text
        if not odds:  # single-valued estimates: the plan meets the target or not, as the summary's verdict says
            from .present.report import target_sentence

            odds = target_sentence(self._profile, self._analysis) or ""
        return " ".join(t for t in (odds, said.likelier, said.plan.text) if t)

    def to_dict(self) -> dict[str, Any]:
        """``report --json``'s ``target``, ``uncertainty`` and ``plans`` entries for this target."""
        from .cli.report import to_json_dict

        data = _json_equal(to_json_dict(self._profile, self._analysis, (), self._decision))
        return {k: data[k] for k in ("target", "uncertainty", "plans") if k in data}

    def __repr__(self) -> str:
        plan = self.plan
        names = ", ".join(plan.optimizations) if plan is not None else "none"
        unit = self._profile.unit.value
        return f"<Decision target {self.target:g} {unit}: P(meet) {self.probability:.0%}; cheapest plan: {names}>"


# -- what-if on a trace -------------------------------------------------------------------------------------------


def _speedup_texts(speedups: Mapping[str, float | str] | Iterable[str]) -> list[str]:
    if isinstance(speedups, Mapping):
        return [f"{pattern}={k}" for pattern, k in speedups.items()]
    if isinstance(speedups, str):
        return [speedups]
    return list(speedups)


def whatif(
    trace: PathLike,
    speedups: Mapping[str, float | str] | Iterable[str],
    step: str = DEFAULT_STEP,
    rank: int | None = None,
) -> WhatIf:
    """What making the events of ``trace`` that each pattern matches K times faster buys, with the trace's
    dependencies: ``amdahl-desk whatif``.

    ``speedups``: ``{"gemm": 2, "re:^nccl": 1.5}`` (or ``["gemm=2"]``): a pattern is a case-insensitive substring
    of an event's name, ``re:`` a regular expression, ``in:`` the GPU work launched inside the CPU events it names.
    ``step``: the step annotations; ``rank``: a folder's rank (default: the slowest). Raises
    :class:`BadInputError` for a bad pattern or K, :class:`ProfileError` (a trace error) for a trace it cannot read.
    """
    from .cli.whatif import what_if_answer

    loaded, answer = what_if_answer(Path(trace), _speedup_texts(speedups), step, rank)
    return WhatIf(loaded, step, answer)


class WhatIf:
    """A what-if on a trace's critical path (see :func:`whatif`); times in ms, means over the steps."""

    def __init__(self, loaded: RankGraph, step: str, answer: ModelWhatIf) -> None:
        self._loaded, self._step, self._answer = loaded, step, answer

    @property
    def speedup(self) -> float:
        """Step time before ÷ after, on the recomputed critical path."""
        return self._answer.speedup

    @property
    def sum_speedup(self) -> float | None:
        """What Amdahl's law on the matched events' summed time promises (None when the patterns overlap)."""
        return self._answer.sum_speedup

    @property
    def baseline(self) -> float:
        """The mean step time measured, in ms."""
        return self._answer.baseline

    @property
    def predicted(self) -> float:
        """The mean step time predicted, in ms."""
        return self._answer.predicted

    @property
    def ceiling(self) -> float | None:
        """The speedup were the matched events free."""
        return self._answer.ceiling

    @property
    def summary(self) -> str:
        """The review answer, as ``amdahl-desk whatif`` words it."""
        from .present.whatif import what_if_view

        return what_if_view(self._answer).sentence

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk whatif`` prints."""
        from .present.whatif import what_if_view

        return what_if_view(self._answer).text

    @property
    def critical_path(self) -> pd.DataFrame:
        """The step's critical path by kind of work (CPU, GPU compute, communication, copies, launches, waiting):
        its time before and after, in ms, indexed by kind."""
        from .present.whatif import KIND_LABELS

        a = self._answer
        rows = [
            {
                "kind": kind,
                "label": KIND_LABELS.get(kind, kind),
                "baseline": time,
                "predicted": a.predicted_by_kind[kind],
            }
            for kind, time in a.by_kind.items()
        ]
        return _frame(rows, ("kind", "label", "baseline", "predicted"), index="kind")

    @property
    def steps(self) -> pd.DataFrame:
        """Each step's time before and after, in ms."""
        rows = [{"name": n, "baseline": b, "predicted": p} for n, b, p in self._answer.step_figures]
        return _frame(rows, ("name", "baseline", "predicted"))

    @property
    def patterns(self) -> pd.DataFrame:
        """Per pattern: its K, the events it matched per step and their own time (ms), by kind of event."""
        rows = [
            {
                "pattern": p.pattern,
                "k": p.k,
                "events": p.events,
                "time": p.time,
                "kernels": p.kernels,
                "copies": p.copies,
                "operators": p.operators,
                "calls": p.calls,
            }
            for p in self._answer.patterns
        ]
        return _frame(rows, ("pattern", "k", "events", "time", "kernels", "copies", "operators", "calls"))

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk whatif --json`` prints for the same trace, patterns, step and rank."""
        from .cli.whatif import to_json_dict

        return _json_equal(to_json_dict(self._loaded, self._step, self._answer))  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<WhatIf {self._loaded.source}: {self.speedup:.4g}× ({self.baseline:.4g} → {self.predicted:.4g} ms)>"

    def _repr_markdown_(self) -> str:
        return self.summary


# -- measured scaling ---------------------------------------------------------------------------------------------


def fit(runs: PathLike | pd.DataFrame, profile: Profile | PathLike | None = None) -> Fit:
    """Amdahl's law, Karp–Flatt and the Universal Scalability Law fitted to measured runs: ``amdahl-desk fit``.

    ``runs``: a CSV or workbook (its Measurements sheet, else its first), or a DataFrame with a count column (GPUs,
    N, Workers, Users) and a Time or Throughput column (with its unit in the header: "Time (s)"). ``profile``:
    a profile whose parallel fraction to hold against the fitted one.
    """
    from .model.fit import fit_measurements

    if isinstance(runs, (str, os.PathLike)):
        from .files.measurements import read_measurements

        loaded = read_measurements(Path(runs))
    else:
        from .files.row_tables import read_measurement_rows

        header = [str(c) for c in runs.columns]
        rows = [[_cell(v) for v in row] for row in runs.itertuples(index=False, name=None)]
        loaded = read_measurement_rows(header, rows)
    result = fit_measurements(loaded.measurements)
    comparison = None
    if profile is not None:
        from .model.fit_text import profile_comparison

        p = profile if isinstance(profile, Profile) else load(profile)
        scaling = p.analyse()._analysis.scaling
        comparison = profile_comparison(scaling.parallel_fraction, result, scaling.baseline_gpus)
    return Fit(result, loaded.source, comparison, tuple(str(loaded.locate(pr)) for pr in result.problems))


class Fit:
    """The fits to measured runs (see :func:`fit`)."""

    def __init__(self, result: FitResult, source: str, comparison: str | None, problems: tuple[str, ...]) -> None:
        self._result, self._source, self._comparison, self._problems = result, source, comparison, problems

    @property
    def parallel_fraction(self) -> float | None:
        """Amdahl's parallel fraction p fitted to the runs (None: no fit)."""
        a = self._result.amdahl
        return None if a is None else a.parallel_fraction

    @property
    def ceiling(self) -> float | None:
        """1/(1−p): the most any number of workers gives, by Amdahl's fit."""
        a = self._result.amdahl
        return None if a is None else a.ceiling

    @property
    def amdahl(self) -> dict[str, Any] | None:
        """Amdahl's fit: parallel_fraction, stderr, ceiling, r_squared, half_efficiency_n (``fit --json``'s)."""
        return self.to_dict()["amdahl"]  # type: ignore[no-any-return]

    @property
    def usl(self) -> dict[str, Any] | None:
        """The USL fit: alpha, beta, gamma with standard errors, peak_n, peak_x, limited_by (``fit --json``'s)."""
        return self.to_dict()["usl"]  # type: ignore[no-any-return]

    @property
    def problems(self) -> tuple[str, ...]:
        """Why a fit is missing (too few runs, one N only…), each naming the cells; empty when both fits were made."""
        return self._problems

    @property
    def points(self) -> pd.DataFrame:
        """Each run: n, value, speedup, efficiency, karp_flatt, label."""
        return _frame(self.to_dict()["points"], ("n", "value", "speedup", "efficiency", "karp_flatt", "label"))

    @property
    def summary(self) -> str:
        """The reviewer's sentences, in reading order."""
        return " ".join(self._result.notes)

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk fit`` prints."""
        from .present.fit import fit_text

        return fit_text(self._result, self._source, self._comparison)

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk fit --json`` prints (with ``--profile``: its ``profile_comparison``)."""
        from .cli.fit import to_json_dict

        return _json_equal(to_json_dict(self._result, self._comparison))  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        p = self.parallel_fraction
        return f"<Fit {self._source}: {len(self._result.measurements)} runs, p = {'—' if p is None else f'{p:.4g}'}>"


# -- predicted against measured -----------------------------------------------------------------------------------


def compare(
    before: Profile | PathLike,
    after: Profile | PathLike,
    pairs: Mapping[str, str] | Iterable[str] | None = None,
    *,
    tolerance: float | str = 0,
    group_by: str | None = None,
    total: bool = False,
) -> Comparison:
    """``after`` (measured after the change) held against ``before`` and its plan: ``amdahl-desk compare``.

    Each side is a :class:`Profile` or a file (workbook, CSV, profiler trace; traces imported with ``group_by`` and
    ``total``, the same for both). ``pairs``: components renamed between the two, ``{"Decode": "Decode v2"}``.
    ``tolerance``: times within this share count as equal (0.02 or "2%").
    """
    from .cli import compare as cmd
    from .model.comparison import adopt_measured_k
    from .model.comparison import compare as compare_profiles

    args = argparse.Namespace(
        before=str(before.source if isinstance(before, Profile) else before),
        after=str(after.source if isinstance(after, Profile) else after),
        group_by=group_by,
        total=total,
    )
    if not isinstance(before, Profile) and not isinstance(after, Profile):
        cmd._check_kinds(args)
    texts = [f"{a}={b}" for a, b in pairs.items()] if isinstance(pairs, Mapping) else list(pairs or ())
    parsed = cmd.parse_pairs(texts)
    share = cmd.parse_tolerance(tolerance if isinstance(tolerance, str) else repr(float(tolerance)))
    sides = [
        side._profile.copy() if isinstance(side, Profile) else cmd.read_side(str(side), role, args).profile
        for side, role in ((before, "BEFORE"), (after, "AFTER"))
    ]
    try:
        result = compare_profiles(sides[0], sides[1], parsed, tolerance=share)
    except ProfileError as exc:
        raise BadInputError(f"cannot compare {args.before} with {args.after}:\n{exc}") from None
    adoption = adopt_measured_k(sides[0], result)
    check = None
    if not isinstance(before, Profile) and cmd.is_trace(args.before):
        check = cmd.with_dependencies(args, sides[0], result)
    return Comparison(result, adoption, sides[0], args.before, args.after, check)


class Comparison:
    """The plan's prediction against what was measured after (see :func:`compare`)."""

    def __init__(
        self,
        result: ModelComparison,
        adoption: Any,
        before: ModelProfile,
        before_file: str,
        after_file: str,
        check: Any,
    ) -> None:
        self._result, self._adoption, self._before = result, adoption, before
        self._files, self._check = (before_file, after_file), check

    @property
    def predicted_speedup(self) -> float:
        """What the plan promised end to end."""
        return self._result.predicted_speedup

    @property
    def measured_speedup(self) -> float:
        """What was measured end to end."""
        return self._result.measured_speedup

    @property
    def verdict(self) -> str:
        """The end-to-end verdict's key ("as_predicted", "better", "worse"…: ``compare --json``'s ``verdict``)."""
        return self._result.verdict.value

    @property
    def summary(self) -> str:
        """The comparison in one sentence."""
        return self._result.sentence

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk compare`` prints."""
        from .cli.compare import comparison_text, dependency_line

        text = comparison_text(self._result, self._adoption, self._before, *self._files)
        return text if self._check is None else f"{text}\n{dependency_line(self._check)}"

    @property
    def components(self) -> pd.DataFrame:
        """Per component: before, after, predicted and measured k, status, delta (times in the before unit)."""
        data = self.to_dict()["components"]
        return _frame(
            data,
            (
                "name",
                "after_name",
                "before",
                "after",
                "predicted_k",
                "predicted_after",
                "measured_k",
                "status",
                "eliminated",
                "delta",
                "optimizations",
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk compare --json`` prints for the same two files."""
        from .cli.compare import comparison_json

        data = comparison_json(self._result, self._adoption, *self._files, self._check)
        return _json_equal(data)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (
            f"<Comparison {self._files[0]} → {self._files[1]}: predicted {self.predicted_speedup:.4g}×, "
            f"measured {self.measured_speedup:.4g}×>"
        )

    def _repr_markdown_(self) -> str:
        return self.summary
