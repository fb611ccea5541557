"""Profiles: read from a file or a DataFrame, changed into new ones, analysed and decided on."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import BadInputError, ProfileError
from .analysis import Analysis, Decision
from .common import PathLike, cell, frame

if TYPE_CHECKING:
    import pandas as pd

    from ..cli.report_job import JobReport
    from ..files import JobSheet, Loaded
    from ..model.analysis import Analysis as ModelAnalysis
    from ..model.decision import Decision as ModelDecision
    from ..model.profile import Profile as ModelProfile
    from ..model.traces.plan_answer import TraceAnswer
    from .job import Job


def _import_options(options: Mapping[str, Any]) -> Any:
    """The trace import's options from ``load``'s keywords (those of ``amdahl-desk import``)."""
    from ..model.traces import GROUPINGS, ImportOptions

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
    a speedscope profile, an nsys stats CSV; a folder of one trace per rank: the rank the job waits for, its
    straggler, as the window and ``amdahl-desk import`` choose it; or ``rank=R``).

    A trace is imported as ``amdahl-desk import`` imports it; ``options`` are that command's: ``group_by`` ("op",
    "annotation", "gpu", "function"…), ``total``, ``top``, ``rank``, ``device``, ``exclude_steps``,
    ``exclude_flagged``. A workbook or table takes no options. Raises :class:`ProfileError` naming the file (and
    the cell) when it cannot be read, :class:`BadInputError` for an option that is not one.
    """
    from ..files import is_trace

    path = Path(source)
    if not is_trace(path):
        if options:
            raise BadInputError(
                f"load: {', '.join(sorted(options))} only apply to profiler traces; {path.name} is a workbook or "
                "CSV table, read as it is"
            )
        from ..files import load_profile

        return Profile._of(load_profile(path), str(source))
    from ..cli.common import load_argument

    profile = Profile._of(load_argument(path, trace_options=_import_options(options)), str(source))
    if path.is_dir():
        profile._job_traces = (str(source),)
    return profile


class Profile:
    """A measured profile: components, proposed optimizations, settings. Immutable: each ``with_…`` gives a new one.

    Made by :func:`load` or :meth:`from_pandas`; :meth:`analyse` answers what the enabled optimizations buy.
    """

    __slots__ = ("_job", "_job_sheet", "_job_traces", "_profile", "_source", "_time_cells", "_warnings")
    _profile: ModelProfile
    _source: str
    _time_cells: str
    _warnings: tuple[str, ...]
    _job_traces: tuple[str, ...] | None  # a folder of rank traces: the job it is one rank of
    _job: Job | None
    _job_sheet: JobSheet | None  # a workbook saved with its job: its Ranks sheet

    def __init__(self) -> None:
        raise TypeError("make a Profile with amdahl_desk.load(path) or Profile.from_pandas(df)")

    @classmethod
    def _of(cls, loaded: Loaded, source: str, profile: ModelProfile | None = None) -> Profile:
        self = object.__new__(cls)
        self._profile = (profile or loaded.profile).copy()
        self._source = source
        self._time_cells = loaded.time_cells
        self._warnings = tuple(str(w) for w in loaded.warnings)
        self._job_traces, self._job = None, None
        self._job_sheet = loaded.job
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
        clone._job_traces, clone._job, clone._job_sheet = self._job_traces, self._job, self._job_sheet
        return clone

    @classmethod
    def from_pandas(cls, df: pd.DataFrame, unit: str | None = None) -> Profile:
        """A profile from a DataFrame of components, read as a CSV table is: a name column (Component, Name…), a
        time column (Time (ms), or Time with ``unit``), optionally Scaling, Group, Notes, Time low, Time high.

        ``p.components`` reads back to the same profile (its unit travels in ``df.attrs["unit"]``). Raises
        :class:`ProfileError` naming the cell ("DataFrame!B3": row 1 is the header) of each bad value.
        """
        from ..files.row_tables import read_component_rows

        unit = unit or df.attrs.get("unit")
        header = [_with_unit(str(c), unit) for c in df.columns]
        rows = [[cell(v) for v in row] for row in df.itertuples(index=False, name=None)]
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
    def job(self) -> Job | None:
        """Of a profile loaded from a folder of rank traces (one rank's profile: the straggler, or ``rank=R``), the
        whole job those ranks make, joined at their collectives (:func:`amdahl_desk.job`, read on first use);
        None for a single file."""
        if self._job_traces is None:
            return None
        if self._job is None:
            from .job import job

            self._job = job(self._job_traces)
        return self._job

    @property
    def components(self) -> pd.DataFrame:
        """One row a component: name, time (in :attr:`unit`), scaling, group, notes, time_low, time_high."""
        table = frame(
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
        table.attrs["unit"] = self.unit
        return table

    @property
    def optimizations(self) -> pd.DataFrame:
        """One row an optimization: name, targets (a tuple of component names), k, its range, enabled, effort
        (engineer-days), confidence (the odds it works at all), notes."""
        return frame(
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

    def __eq__(self, other: object) -> bool:
        """Profiles are equal when their components, optimizations, settings and unit are (wherever they came from)."""
        if not isinstance(other, Profile):
            return NotImplemented
        return self._profile == other._profile

    __hash__ = None  # type: ignore[assignment]  # equal by value, and holds lists: not a dictionary key

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
        from ..model.profile import Optimization
        from ..model.values import parse_confidence, parse_effort, parse_speedup

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
        from ..files import save_profile
        from ..files.atomic import atomic_write

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
        from ..cli.common import analyse_loaded
        from ..files import Loaded

        return analyse_loaded(Loaded(profile, [], self._time_cells), self._source)

    def _answer(
        self, target: str | float | None, confidence: str | float | None, seed: int | None
    ) -> tuple[ModelProfile, ModelAnalysis, ModelDecision | None, TraceAnswer | None, JobReport | None]:
        from ..cli.report import for_job, traced
        from ..files import Loaded
        from ..model.decision import decide

        profile = self._profile.copy()
        _set_options(profile, target, confidence)
        if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**63):
            raise BadInputError(f'--seed: "{seed}" is not a seed; expected a whole number of 0 or more')
        analysis = self._analyse(profile)
        answer, decision = traced(self._source or ".", profile, analysis, decide(profile, analysis, seed))
        # a folder of rank traces, or a workbook saved with its job: its answer and odds, as report gives them
        loaded = Loaded(profile, [], self._time_cells, job=self._job_sheet)
        job = for_job(loaded, self._source or ".", profile, decision)
        return profile, analysis, decision, answer, job

    def analyse(
        self, target: str | float | None = None, *, confidence: str | float | None = None, seed: int | None = None
    ) -> Analysis:
        """What the enabled optimizations buy end to end: ``report``'s answer.

        ``target``, ``confidence`` and ``seed`` are ``report``'s ``--target`` ("600 ms"), ``--confidence``
        ("80%") and ``--seed``; :meth:`Analysis.to_dict` is then ``report --json`` with them.
        """
        profile, analysis, decision, answer, job = self._answer(target, confidence, seed)
        return Analysis(profile, analysis, decision, self._warnings, self._source, answer, job)

    def decide(
        self, target: str | float | None = None, *, confidence: str | float | None = None, seed: int | None = None
    ) -> Decision:
        """The odds of meeting ``target`` with the enabled plan, what would make it likelier (the tornado), and the
        cheapest plan that meets it with ``confidence`` (the Settings' 80% by default) among the optimizations with
        an effort. ``target`` defaults to the profile's own; without one there are no odds to give.
        """
        profile, analysis, decision, answer, job = self._answer(target, confidence, seed)
        if profile.settings.target_time is None:
            raise BadInputError('decide: the profile has no target time; give one, like target="600 ms"')
        return Decision(profile, analysis, decision, answer, job)


def _value(value: float | str | None, parse: Callable[[str], float], what: str) -> float | None:
    return None if value is None else _number(value, parse, what)


def _number(value: float | str, parse: Callable[[str], float], what: str) -> float:
    """A number given as a number, or as text read by the model's parser of that value ("4x", "80%", "3 days")."""
    from ..model.values import ParseError

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


def _set_options(profile: ModelProfile, target: str | float | None, confidence: str | float | None) -> None:
    """``report``'s --target and --confidence, set on ``profile`` with that command's parsers and messages."""
    from ..cli.report import set_options

    set_options(
        profile,
        None if target is None else _text(target),
        None if confidence is None else _text(confidence),
    )


def _text(value: str | float) -> str:
    return value if isinstance(value, str) else repr(float(value))
