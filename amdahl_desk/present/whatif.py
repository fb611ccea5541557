"""A what-if on a trace's critical path in words: the review answer, the path by kind before and after, the
patterns' figures — the command line prints them, and the window can show the same texts."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.traces.path_graph import KINDS
from ..model.traces.whatif import PatternFigures, WhatIf
from ..model.units import TimeUnit
from .numbers import POINT, Numbers

KIND_LABELS = {
    "cpu": "CPU",
    "gpu_compute": "GPU compute",
    "gpu_communication": "GPU communication",
    "gpu_memory": "GPU copies and memsets",
    "launch_overhead": "launch overhead",
    "gpu_idle_or_gap": "GPU waiting (gaps)",
}
_BOUND = {  # "(… the step's critical path)", with the share
    "cpu": "the step is {} CPU-bound",
    "gpu_compute": "the step is {} bound by GPU compute",
    "gpu_communication": "the step is {} bound by communication",
    "gpu_memory": "the step is {} bound by GPU copies",
    "launch_overhead": "the step is {} bound by kernel launches",
    "gpu_idle_or_gap": "{} of the step is the GPU waiting",
}
_WORK = {
    "cpu": "CPU work",
    "gpu_compute": "other GPU compute",
    "gpu_communication": "communication",
    "gpu_memory": "GPU copies",
    "launch_overhead": "kernel launches",
    "gpu_idle_or_gap": "GPU waits the trace does not explain",
}
_FRACTIONS = ((0.25, "a quarter"), (1 / 3, "a third"), (0.5, "half"), (2 / 3, "two thirds"), (0.75, "three quarters"))
CLOSE = 0.005  # a saving within this fraction of the sum's is the sum's
# Matched events under this share of the step, which move it by less than as much, are too little to matter:
# "as their 0% share suggests: their time is on the critical path" beside 1.000× would contradict itself.
TOO_LITTLE = 0.001


@dataclass(frozen=True)
class WhatIfView:
    """The texts of one what-if."""

    headline: str  # "1.009× (35.8 → 35.5 ms)"
    sentence: str  # the review answer
    path_before: str  # the critical path by kind
    path_after: str
    patterns: tuple[str, ...]  # one line per pattern
    steps: str
    dependencies: str

    @property
    def text(self) -> str:
        lines = [self.sentence, "", self.path_before, self.path_after, *self.patterns, self.steps, self.dependencies]
        return "\n".join(lines)


def _noun(p: PatternFigures) -> str:
    total = p.kernels + p.copies + p.operators + p.calls
    if total <= 0:
        return "events"
    for count, noun in ((p.kernels, "kernels"), (p.copies, "copies"), (p.operators, "operators"), (p.calls, "calls")):
        if count == total:
            return noun
    return "kernels" if p.kernels + p.copies == total else "events"


def _events(count: float, noun: str, n: Numbers) -> str:
    """``count`` events of one kind, as said: "1 operator", "2 kernels", "0.5 calls" (a mean over the steps)."""
    shown = n.number(count)
    return f"{shown} {({'copies': 'copy'}.get(noun, noun[:-1])) if shown == '1' else noun}"


def _one_component(w: WhatIf) -> bool:
    """One pattern, a component's matcher: its time is said as one thing's ("its share"), not as events' ("their")."""
    return len(w.patterns) == 1 and w.patterns[0].component


def _subject(w: WhatIf, n: Numbers) -> str:
    parts = [
        f"`{p.pattern}`{'' if p.component else ' ' + _noun(p)} {_k(p.k, n)}× {'faster' if p.k >= 1 else 'as fast'}"
        for p in w.patterns
    ]
    if len(parts) > 1:
        return "Making " + ", ".join(parts[:-1]) + " and " + parts[-1]
    return "Making " + parts[0]


def _k(k: float, n: Numbers) -> str:
    """A pattern's K as given: ``2``, ``1.05``; ``1.001``, not a ``1`` that reads as no speedup at all."""
    text = n.number(k)
    return n.plain(k, ".6g") if k != 1 and text == n.number(1) else text


def _fraction(f: float, n: Numbers) -> str:
    for value, word in _FRACTIONS:
        if abs(f - value) < 0.04:
            return word
    if f >= 1 - 1e-9:  # float noise in a path that saves nothing is still all
        return "all"
    if f > 0.96:  # the path still saves a little: "all" would say it saves nothing
        return "nearly all"
    return n.percent(f)


def _dominant(kinds: dict[str, float]) -> tuple[str, float]:
    total = sum(kinds.values()) or 1.0
    key = max(KINDS, key=lambda k: kinds.get(k, 0.0))
    return key, kinds.get(key, 0.0) / total


def hidden_saving(
    before: float,
    after: float,
    sum_speedup: float,
    by_kind: dict[str, float],
    predicted_by_kind: dict[str, float],
    n: Numbers = POINT,
) -> str:
    """Why the path saves less than the sum promises ("half of the saving the sum promises is hidden behind CPU
    work, which the critical path runs through instead (the step is 89% CPU-bound)"); "" when it saves as much."""
    promised = before - before / sum_speedup
    got = before - after
    if not (promised > 0 and abs(promised - got) > CLOSE * promised and got < promised):
        return ""
    lost = 1 - max(got, 0.0) / promised
    hidden, _ = _dominant(predicted_by_kind)
    bound, bound_share = _dominant(by_kind)
    return (
        f"{_fraction(lost, n)} of the saving the sum promises is hidden behind {_WORK[hidden]}, which the "
        f"critical path runs through instead ({_BOUND[bound].format(n.percent(bound_share))})"
    )


def what_if_view(w: WhatIf, n: Numbers = POINT, unit: TimeUnit = TimeUnit.MS) -> WhatIfView:
    """The words for ``w`` (times in ``unit``, which is the what-if's: milliseconds)."""
    t = n.time
    before, after = w.baseline, w.predicted
    s = w.speedup
    headline = f"{n.close_speedup(s)} ({t(before, unit)} → {t(after, unit)})"
    subject = _subject(w, n)
    if s >= 1 + 1e-4:
        verb = f"shortens the step {headline}"
    elif s <= 1 - 1e-4:
        verb = f"lengthens the step {n.close_speedup(1 / s)} ({t(before, unit)} → {t(after, unit)})"
    elif before - after > 1e-9 * before:  # under 1.0001×, but a saving (not float noise): "1.000×" would hide it
        verb = f"shortens the step ({t(before, unit)}) by only {t(before - after, unit)}"
    else:
        verb = f"does not shorten the step ({t(before, unit)})"
    share = w.matched_time / before if before > 0 else 0.0
    their, they = ("its", "it gives") if _one_component(w) else ("their", "they give")
    clause = ""
    if w.sum_speedup is None:
        clause = (
            f"; the sum cannot say: the matched events take {t(w.matched_time, unit)} per step, "
            f"{n.percent(share)} of it, and overlap in time or in their patterns"
        )
    else:
        promised = before - before / w.sum_speedup
        hidden = hidden_saving(before, after, w.sum_speedup, w.by_kind, w.predicted_by_kind, n)
        if hidden and n.close_speedup(w.sum_speedup) == n.close_speedup(s):  # "1.002×, not the 1.002×": the times
            saved = "" if "by only" in verb else f", saving {t(max(before - after, 0.0), unit)} per step"
            clause = f"{saved}, not the {t(promised, unit)} {their} {n.percent(share)} share suggests: {hidden}"
        elif hidden:
            clause = f", not the {n.close_speedup(w.sum_speedup)} {their} {n.percent(share)} share suggests: {hidden}"
        elif promised > 0 and n.close_speedup(w.sum_speedup) == n.close_speedup(s):
            clause = f", as {their} {n.percent(share)} share suggests: {their} time is on the critical path"
        elif promised > 0:  # more than the sum promises: say both figures, claim no agreement
            clause = (
                f"; {their} {n.percent(share)} share alone suggests {n.close_speedup(w.sum_speedup)}: {their} time is "
                "on the critical path"
            )
    ceiling = w.ceiling
    free = ""
    if ceiling is not None:
        free = f" Even free, {they} at most {n.close_speedup(ceiling)}"
        if w.largest_when_free:
            name, time = w.largest_when_free[0]
            free += f"; the largest item on the path is then {_short(name)} ({t(time, unit)} per step)"
        free += "."
    sentence = f"{subject} {verb}{clause}.{free}"
    if share < TOO_LITTLE and abs(s - 1) < TOO_LITTLE:
        sentence = _too_little(w, subject, share, n, unit)
    return WhatIfView(
        headline=headline,
        sentence=sentence,
        path_before=f"critical path before: {_kinds(w.by_kind, before, n, unit)}",
        path_after=f"critical path after:  {_kinds(w.predicted_by_kind, after, n, unit)}",
        patterns=tuple(_pattern_line(p, before, n, unit) for p in w.patterns),
        steps=_steps_line(w, n, unit),
        dependencies=_dependencies_line(w.dependencies, n, len(w.steps)),
    )


def _too_little(w: WhatIf, subject: str, share: float, n: Numbers, unit: TimeUnit) -> str:
    """What the patterns matched, when it is too little to move the step (a pattern that matches almost nothing)."""
    events = sum(p.events for p in w.patterns)
    noun = _noun(w.patterns[0]) if len(w.patterns) == 1 else "events"
    part = "under 0.1%" if share < TOO_LITTLE else n.percent(share)
    if _one_component(w):
        return (
            f"{subject} changes the step ({n.time(w.baseline, unit)}) by less than 0.1%: its time as measured is "
            f"{n.time(w.matched_time, unit)} per step, {part} of the step, too little to matter."
        )
    return (
        f"{subject} changes the step ({n.time(w.baseline, unit)}) by less than 0.1%: "
        f"{'the pattern matches' if len(w.patterns) == 1 else 'the patterns match'} {_events(events, noun, n)} "
        f"per step taking {n.time(w.matched_time, unit)} in all, {part} of the step, too little to matter."
    )


def _short(name: str, limit: int = 70) -> str:
    return f"`{name if len(name) <= limit else name[: limit - 1] + '…'}`"


def _kinds(kinds: dict[str, float], total: float, n: Numbers, unit: TimeUnit) -> str:
    parts = [
        f"{KIND_LABELS[k]} {n.time(kinds[k], unit)} ({n.percent(kinds[k] / total if total else 0.0)})"
        for k in KINDS
        if kinds.get(k, 0.0) > 0
    ]
    return f"{n.time(total, unit)} = " + " + ".join(parts) if parts else n.time(total, unit)


def _pattern_line(p: PatternFigures, baseline: float, n: Numbers, unit: TimeUnit) -> str:
    share = p.time / baseline if baseline else 0.0
    if p.component:  # its time as the import measured it: a phase's time between its events counts too
        between = ", the time between its events included" if p.pattern.startswith("annotation:") else ""
        return (
            f"`{p.pattern}` ×{n.number(p.k)}: {n.time(p.time, unit)} per step as measured{between} "
            f"({n.percent(share)} of the step); {_events(p.events, _noun(p), n)} per step in it"
        )
    return (
        f"`{p.pattern}` ×{n.number(p.k)}: {_events(p.events, _noun(p), n)} per step, "
        f"{n.time(p.time, unit)} of {'its' if n.number(p.events) == '1' else 'their'} own time "
        f"({n.percent(share)} of the step)"
    )


def _steps_line(w: WhatIf, n: Numbers, unit: TimeUnit) -> str:
    per = ", ".join(f"{name} {n.time(b, unit)} → {n.time(p, unit)}" for name, b, p in w.step_figures)
    return f"{n.count(len(w.steps))} step{'s' * (len(w.steps) != 1)} (means above): {per}"


def _dependencies_line(counts: dict[str, int], n: Numbers, steps: int = 1) -> str:
    words = (
        ("waits_recorded", "recorded synchronisation", "recorded synchronisations"),
        ("waits_inferred", "inferred GPU wait", "inferred GPU waits"),
        ("launch_queue_waits", "launch that waited for the queue", "launches that waited for the queue"),
        ("blocked_calls", "call that blocked until GPU work ended", "calls that blocked until GPU work ended"),
        ("thread_joins", "thread joined", "threads joined"),
        ("thread_wakes", "thread woken", "threads woken"),
        ("dropped", "dependency dropped (clocks disagree)", "dependencies dropped (clocks disagree)"),
    )
    parts = [f"{n.count(counts[k])} {one if counts[k] == 1 else many}" for k, one, many in words if counts.get(k)]
    line = "dependencies: " + (", ".join(parts) if parts else "launches and stream order only")
    unexplained = (
        ("unexplained_joins", "unexplained_join_us", "thread wait", "thread waits"),
        ("unexplained_blocks", "unexplained_block_us", "call that ran long", "calls that ran long"),
    )
    over = f" in {n.count(steps)} steps" if steps > 1 else ""
    said = [
        f"{n.count(counts[k])} {one if counts[k] == 1 else many}{over} "
        f"({n.time(counts.get(us, 0) / 1000 / max(steps, 1), TimeUnit.MS)} per step)"
        for k, us, one, many in unexplained
        if counts.get(k)
    ]
    if said:
        line += (
            f"; not explained by anything ending as they return, so kept as their own time (a speedup elsewhere "
            f"leaves them): {', '.join(said)}"
        )
    return line


def one_rank_of_a_job(rank: int) -> str:
    """Under the answer for one rank of a job's traces (``whatif FOLDER --rank R``): what that answer leaves out."""
    return (
        f"Rank {rank}'s graph alone: its waiting at collectives for the other ranks counts as its own time here. "
        f"Without --rank the what-if answers for the job, its ranks replayed together (--on-ranks {rank}: the "
        f"speedup on rank {rank} alone)."
    )
