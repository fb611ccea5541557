"""Measured answers: fits to runs (``fit``) and a plan held against what was measured after (``compare``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import BadInputError, ProfileError
from .common import PathLike, cell, frame, json_equal
from .profile import Profile, load

if TYPE_CHECKING:
    import pandas as pd

    from ..model.comparison import Comparison as ModelComparison
    from ..model.fit import FitResult
    from ..model.profile import Profile as ModelProfile


def fit(runs: PathLike | pd.DataFrame, profile: Profile | PathLike | None = None) -> Fit:
    """Amdahl's law, Karp–Flatt and the Universal Scalability Law fitted to measured runs: ``amdahl-desk fit``.

    ``runs``: a CSV or workbook (its Measurements sheet, else its first), or a DataFrame with a count column (GPUs,
    N, Workers, Users) and a Time or Throughput column (with its unit in the header: "Time (s)"). ``profile``:
    a profile whose parallel fraction to hold against the fitted one.
    """
    from ..model.fit import fit_measurements

    if isinstance(runs, (str, os.PathLike)):
        from ..files.measurements import read_measurements

        loaded = read_measurements(Path(runs))
    else:
        from ..files.row_tables import read_measurement_rows

        header = [str(c) for c in runs.columns]
        rows = [[cell(v) for v in row] for row in runs.itertuples(index=False, name=None)]
        loaded = read_measurement_rows(header, rows)
    result = fit_measurements(loaded.measurements)
    comparison = None
    if profile is not None:
        from ..present.fit_text import profile_comparison

        p = profile if isinstance(profile, Profile) else load(profile)
        scaling = p.analyse().to_model().scaling
        comparison = profile_comparison(scaling.parallel_fraction, result, scaling.baseline_gpus)
    from ..present.fit_text import fit_problems

    return Fit(result, loaded.source, comparison, tuple(str(loaded.locate(pr)) for pr in fit_problems(result)))


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
        return frame(self.to_dict()["points"], ("n", "value", "speedup", "efficiency", "karp_flatt", "label"))

    @property
    def summary(self) -> str:
        """The reviewer's sentences, in reading order."""
        from ..present.fit_text import notes_for

        return " ".join(notes_for(self._result))

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk fit`` prints."""
        from ..present.fit import fit_text

        return fit_text(self._result, self._source, self._comparison)

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk fit --json`` prints (with ``--profile``: its ``profile_comparison``)."""
        from ..cli.fit import to_json_dict

        return json_equal(to_json_dict(self._result, self._comparison))  # type: ignore[no-any-return]

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
    from ..cli import compare as cmd
    from ..model.adoption import adopt_measured_k
    from ..model.comparison import compare as compare_profiles

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
        side.to_model() if isinstance(side, Profile) else cmd.read_side(str(side), role, args).profile
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
        from ..present.comparison_words import comparison_sentence

        return comparison_sentence(self._result)

    @property
    def text(self) -> str:
        """Everything ``amdahl-desk compare`` prints."""
        from ..present.comparison_text import comparison_text
        from ..present.trace_plan import comparison_line

        text = comparison_text(self._result, self._adoption, self._before, *self._files)
        return text if self._check is None else f"{text}\n{comparison_line(self._check)}"

    @property
    def components(self) -> pd.DataFrame:
        """Per component: before, after, predicted and measured k, status, delta (times in the before unit)."""
        data = self.to_dict()["components"]
        return frame(
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
        from ..cli.compare import comparison_json

        data = comparison_json(self._result, self._adoption, *self._files, self._check)
        return json_equal(data)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (
            f"<Comparison {self._files[0]} → {self._files[1]}: predicted {self.predicted_speedup:.4g}×, "
            f"measured {self.measured_speedup:.4g}×>"
        )

    def _repr_markdown_(self) -> str:
        return self.summary
