"""What a profile's plan buys (``report``), its charts, and the odds and cheapest plan for a target."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import BadInputError
from .common import PathLike, frame, json_equal, num, write_bytes

if TYPE_CHECKING:
    import pandas as pd

    from ..cli.report_job import JobReport
    from ..model.analysis import Analysis as ModelAnalysis
    from ..model.decision import Decision as ModelDecision
    from ..model.profile import Profile as ModelProfile
    from ..model.traces.plan_answer import TraceAnswer

CHART_SIZE = (1280, 720)  # a chart shown in a notebook: 16:9, legible at a notebook's width


class Analysis:
    """What a profile's enabled optimizations buy: ``amdahl-desk report``'s answer (see :meth:`Profile.analyse`)."""

    def __init__(
        self,
        profile: ModelProfile,
        analysis: ModelAnalysis,
        decision: ModelDecision | None,
        warnings: Sequence[str] = (),
        source: str = "",
        answer: TraceAnswer | None = None,
        job: JobReport | None = None,
    ) -> None:
        self._profile, self._analysis, self._decision = profile, analysis, decision
        self._warnings, self._source = tuple(warnings), source
        self._answer = answer  # a profile that carries its trace: the answer with its dependencies
        self._job = job  # a profile that stands for a job of many ranks: the job's answer, as report leads with

    @property
    def speedup(self) -> float:
        """End-to-end speedup S = baseline ÷ new total, with every enabled optimization: with the trace's
        dependencies when the profile carries its trace (``report``'s ``combined.overall_speedup``)."""
        return self._answer.speedup if self._answer is not None else self._analysis.combined.overall_speedup

    @property
    def sum_speedup(self) -> float:
        """What Amdahl's law on the components' times promises (the same as :attr:`speedup` without a trace)."""
        return self._analysis.combined.overall_speedup

    @property
    def new_total(self) -> float:
        """The total after the enabled optimizations, in the profile's unit (with the trace's dependencies when
        the profile carries its trace)."""
        return self._answer.new_total if self._answer is not None else self._analysis.combined.new_total

    @property
    def baseline_total(self) -> float:
        """The measured total, in the profile's unit."""
        return self._analysis.baseline_total

    @property
    def time_saved(self) -> float:
        """Baseline total − new total."""
        return self._answer.time_saved if self._answer is not None else self._analysis.combined.time_saved

    @property
    def ceiling(self) -> float:
        """The most the enabled optimizations' components could ever give (inf when they are everything): with
        the trace's dependencies when the profile carries its trace, else 1/(1−f)."""
        return self._answer.ceiling if self._answer is not None else self._analysis.combined.ceiling

    @property
    def unit(self) -> str:
        """The unit of every time."""
        return self._profile.unit.value

    @property
    def summary(self) -> str:
        """The design-review sentence, as the window's summary and ``report`` word it."""
        from ..present.report import headline

        return headline(self._profile, self._analysis)

    @property
    def text(self) -> str:
        """The whole report as ``amdahl-desk report`` prints it."""
        from ..cli.report import report_text

        return report_text(self._profile, self._analysis, self._decision, self._answer, self._job)

    def to_dict(self) -> dict[str, Any]:
        """Exactly what ``amdahl-desk report --json`` prints for this profile (and target, confidence, seed)."""
        from ..cli.report import to_json_dict

        data = to_json_dict(self._profile, self._analysis, self._warnings, self._decision, answer=self._answer)
        return json_equal(_with_job(data, self._job, self._profile, self._analysis))  # type: ignore[no-any-return]

    def to_pandas(self) -> pd.DataFrame:
        """The components with their share and their new time: name, time, fraction, new_time, scaling, group."""
        a, comps = self._analysis, self._profile.components
        table = frame(
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
        table.attrs["unit"] = self.unit
        return table

    @property
    def optimizations(self) -> pd.DataFrame:
        """Each optimization alone: name, enabled, k, fraction it targets, speedup, new_total, time_saved, ceiling
        — with the trace's dependencies when the profile carries its trace (``report --json``'s), the sum's then in
        sum_speedup and sum_ceiling."""
        figs = self._analysis.optimizations
        answer = self._answer if self._answer is not None and self._answer.usable else None
        rows = []
        for i, o in enumerate(self._profile.optimizations):
            speedup, ceiling = float(figs.overall_speedup[i]), float(figs.ceiling[i])
            new_total, saved = float(figs.new_total[i]), float(figs.time_saved[i])
            row: dict[str, Any] = {
                "name": o.name,
                "enabled": o.enabled,
                "k": o.speedup,
                "fraction": float(figs.fraction[i]),
            }
            alone = answer.options[i] if answer is not None else None
            if answer is not None and alone is not None and alone.speedup is not None and alone.speedup > 0:
                new_total = answer.baseline / alone.speedup
                row.update(
                    speedup=alone.speedup,
                    new_total=new_total,
                    time_saved=answer.baseline - new_total,
                    ceiling=alone.ceiling if alone.ceiling is not None else math.inf,
                )
            else:
                row.update(speedup=speedup, new_total=new_total, time_saved=saved, ceiling=ceiling)
            if answer is not None:
                row.update(sum_speedup=speedup, sum_ceiling=ceiling)
            rows.append(row)
        columns = ("name", "enabled", "k", "fraction", "speedup", "new_total", "time_saved", "ceiling")
        return frame(rows, columns + (("sum_speedup", "sum_ceiling") if answer is not None else ()))

    def to_model(self) -> ModelAnalysis:
        """The model's analysis (``amdahl_desk.model.analysis.Analysis``), for what this API does not cover."""
        return self._analysis

    def chart(self, key: str = "speedup", size: tuple[int, int] = CHART_SIZE) -> Chart:
        """A chart of ``amdahl-desk export --chart`` (breakdown, speedup, scaling, slide…): shown inline in Jupyter,
        written with :meth:`Chart.save`. Qt is loaded (offscreen) when the picture is first drawn, not before."""
        from ..cli.export import CHART_KEYS, TRACE_CHART_KEYS

        keys = CHART_KEYS + TRACE_CHART_KEYS
        if key not in keys:
            raise BadInputError(f'--chart: "{key}" is not a chart; expected {", ".join(keys)}')
        return Chart(key, self._profile, self._analysis, self._source, size)

    @property
    def job(self) -> dict[str, Any] | None:
        """Of a profile that stands for a job of many ranks (a folder of rank traces, a workbook saved with its job):
        ``report --json``'s ``job`` entry — the job's step, straggler, the plan's answer for the job (ms per step),
        its odds through the ranks and its target verdict; None otherwise. The figures above are the rank's own."""
        return self.to_dict().get("job") if self._job is not None else None

    def __repr__(self) -> str:
        own = f"{self.speedup:.4g}× ({self.baseline_total:g} → {self.new_total:g} {self.unit})"
        f = self._job.figures if self._job is not None else None
        if f is None:
            return f"<Analysis {own}>"
        a = f.answer
        got = f"{a.speedup:.4g}× ({a.baseline:g} → {a.predicted:g} ms)" if a is not None else "nothing ticked"
        return f"<Analysis of a job of {len(f.job.ranks)} ranks: {got}; rank {f.profile_rank} alone {own}>"

    def _repr_markdown_(self) -> str:
        if self._job is not None and self._job.figures is not None:
            from ..present.job_plan import job_report_lines

            return "\n\n".join(job_report_lines(self._profile, self._analysis, self._job.figures, self._answer)[:2])
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
            from .chart import render_chart

            self._drawn[key] = render_chart(self.key, self._profile, self._analysis, self._source, fmt, at, transparent)
        return self._drawn[key]

    def save(self, path: PathLike, size: tuple[int, int] | None = None, transparent: bool = False) -> Path:
        """Write the chart; the format is the path's suffix (.png, .svg or .pdf)."""
        target = Path(path)
        fmt = target.suffix.lower().lstrip(".")
        data = self.render(fmt, size, transparent)
        from ..files.atomic import atomic_write

        atomic_write(target, lambda tmp: write_bytes(tmp, data))
        return target

    def _repr_png_(self) -> bytes:
        return self.render("png")

    def _repr_svg_(self) -> str:
        return self.render("svg").decode("utf-8")

    def __repr__(self) -> str:
        return f"<Chart {self.key} of {self._source}, {self.size[0]}×{self.size[1]}>"


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

    def __init__(
        self,
        profile: ModelProfile,
        analysis: ModelAnalysis,
        decision: ModelDecision | None,
        answer: TraceAnswer | None = None,
        job: JobReport | None = None,
    ) -> None:
        self._profile, self._analysis, self._decision = profile, analysis, decision
        self._answer = answer if answer is not None and answer.usable else None  # with the trace's dependencies
        self._job = job  # a job of many ranks: the odds are its own (every draw replayed through its ranks)

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
        if self._job is not None and self._job.figures is not None:  # the job's: through its ranks
            odds = self._job.odds
            if odds is not None and not isinstance(odds, str) and odds.probability_target is not None:
                return odds.probability_target
            from ..cli.report import job_target
            from ..cli.report_job import job_target_json

            goal = job_target(self._profile)
            return 1.0 if goal is not None and job_target_json(self._job.figures, goal)["met_by_plan"] else 0.0
        figures = self._decision.figures if self._decision is not None else None
        if figures is not None and figures.probability_target is not None:
            return figures.probability_target
        if self._answer is not None:  # on the trace's critical path
            return 1.0 if self._answer.new_total <= self.target * (1 + 1e-12) else 0.0
        t = self._analysis.target
        return 1.0 if t is not None and t.met_by_plan else 0.0

    @property
    def plan(self) -> Plan | None:
        """The cheapest plan that meets the target with the confidence asked; None when none does, or no optimization
        has an effort to compare."""
        search = self._decision.search if self._decision is not None else None
        if search is None or search.cheapest is None or self._job is not None:  # none is searched for a job
            return None
        c = search.cheapest
        return Plan(tuple(c.names), c.effort, c.probability_target, c.new_total_p50)

    @property
    def tornado(self) -> pd.DataFrame:
        """What moves the speedup most: per estimate, the speedup at its low and high end, and the swing (largest
        first). Empty when no estimate has a range."""
        figures = self._decision.figures if self._decision is not None else None
        if self._job is not None and self._job.figures is not None:
            figures = self._job.odds if not isinstance(self._job.odds, str) else None
        rows = [
            {
                "name": s.name,
                "speedup_at_low": num(s.speedup_at_low),
                "speedup_at_high": num(s.speedup_at_high),
                "swing": num(s.swing),
            }
            for s in (figures.sensitivity if figures is not None else ())
        ]
        return frame(rows, ("name", "speedup_at_low", "speedup_at_high", "swing"))

    @property
    def summary(self) -> str:
        """The odds, what would make the target likelier and the plan, in the words of the window and ``report``."""
        from ..present.decision import decision_view

        figures = self._decision.figures if self._decision is not None else None
        search = self._decision.search if self._decision is not None else None
        job = self._job.figures if self._job is not None else None
        if job is not None:  # the job's: its odds through the ranks, or its verdict; no plan searched
            from ..present.job_plan import job_summary

            odds_or_why = self._job.odds if self._job is not None else None
            figures, search = (None if isinstance(odds_or_why, str) else odds_or_why), None
            errors = {"odds": odds_or_why} if isinstance(odds_or_why, str) else None
            said = decision_view(self._profile, self._analysis, figures, None, errors=errors, job=True)
            verdict = job_summary(self._profile, self._analysis, job, None, ()).verdict.text
            return " ".join(t for t in (said.odds.text or verdict, said.likelier, said.plan.text) if t)
        said = decision_view(self._profile, self._analysis, figures, search)
        odds = said.odds.text
        if not odds and self._answer is not None:  # single-valued: the verdict on the trace's critical path
            from ..present.plan_answer import answer_target

            odds = answer_target(self._profile, self._analysis, self._answer) or ""
        elif not odds:  # single-valued estimates: the plan meets the target or not, as the summary's verdict says
            from ..present.report import target_sentence

            odds = target_sentence(self._profile, self._analysis) or ""
        return " ".join(t for t in (odds, said.likelier, said.plan.text) if t)

    def to_dict(self) -> dict[str, Any]:
        """``report --json``'s ``target``, ``uncertainty`` and ``plans`` entries for this target (and ``job``, for a
        profile that stands for a job of many ranks: its odds are then the job's)."""
        from ..cli.report import to_json_dict

        data = to_json_dict(self._profile, self._analysis, (), self._decision, answer=self._answer)
        data = json_equal(_with_job(data, self._job, self._profile, self._analysis))
        return {k: data[k] for k in ("target", "uncertainty", "plans", "job") if k in data}

    def __repr__(self) -> str:
        plan = self.plan
        names = ", ".join(plan.optimizations) if plan is not None else "none"
        unit = self._profile.unit.value
        return f"<Decision target {self.target:g} {unit}: P(meet) {self.probability:.0%}; cheapest plan: {names}>"


def _with_job(
    data: dict[str, Any], job: JobReport | None, profile: ModelProfile, analysis: ModelAnalysis
) -> dict[str, Any]:
    """``report --json``'s data with its ``job`` entry, for a profile that stands for a job of many ranks."""
    if job is not None:
        from ..cli.report import job_target
        from ..cli.report_job import job_report_json

        data["job"] = job_report_json(job, analysis.combined.overall_speedup, job_target(profile))
    return data
