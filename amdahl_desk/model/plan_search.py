"""The cheapest plan: of the optimizations with an effort (ticked or not), the set of least total effort whose
probability of meeting the target reaches the confidence level, on the common draws (k multiply on shared
components).

Ties: the more probable; then the fewer optimizations; then the one whose optimizations come first in the
checklist. Optimizations without an effort take no part (they are neither free nor in the plan).

Branch and bound over include/exclude decisions, on the same draws for every set. A branch is cut when

- its effort already exceeds the best plan's (or equals it, with no chance of a higher probability), or it
  does not meet the target yet and even its cheapest possible addition would cost too much;
- even the most favourable completion cannot reach the level: in each draw, every undecided optimization
  taken where it helps (1/k ≤ 1) and left out where it would slow the run — an upper bound on the probability
  of every set in the branch;
- (when no optimization can slow a run) every completion must add more effort than the best plan leaves room
  for: meeting a draw costs at least the fractional knapsack of the undecided optimizations' savings there,
  and a completion must meet enough draws. A draw out of reach of that room stays out of reach in the whole
  branch, so the branch drops it, and draws already met are set aside: deeper branches work on fewer draws.

With up to ``EXACT_CANDIDATES`` candidates the search runs to the end: the plan is the exact optimum over the
draws. Beyond, it starts from a greedy plan and stops after ``NODE_BUDGET`` branches; the answer then says so
and carries a lower bound — no plan reaching the level costs less than ``effort_lower_bound`` — taken over
every branch left unexplored (its effort so far, plus its cheapest addition when it does not meet the target).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .draws import Column, Draws
from .laws import FloatArray
from .profile import Profile
from .uncertainty import TOLERANCE

EXACT_CANDIDATES = 20
NODE_BUDGET = 2_000  # beyond EXACT_CANDIDATES: a few seconds at most (a branch takes milliseconds)
Floats = NDArray[np.floating[Any]]  # the bounds' rows are float32


@dataclass(frozen=True)
class Plan:
    """A set of optimizations (checklist indices and names), its total effort and its odds."""

    optimizations: tuple[int, ...]
    names: tuple[str, ...]
    effort: float
    probability_target: float
    new_total_p50: float


@dataclass(frozen=True)
class PlanSearch:
    """The cheapest plan that meets ``target`` with at least ``confidence``, and how it was found."""

    confidence: float
    target: float
    candidates: tuple[int, ...]  # the optimizations with an effort
    cheapest: Plan | None  # None when no set of them reaches the level
    exact: bool  # every branch explored (or cut by a bound)
    effort_lower_bound: float | None  # no plan reaching the level costs less; None when none can reach it
    probability_all: float  # P(meet) with every candidate
    nodes: int


class SearchStoppedError(Exception):
    """The search was told to stop (its answer is no longer wanted: the profile changed)."""


def _effort_key(value: float) -> float:
    return round(value, 9)  # 0.1 + 0.2 days is 0.3 days


@dataclass
class _Node:
    """The draws still in play at a branch. Per class: its time after the chosen optimizations (``values``) and
    its most favourable time after any completion (``bounds``); per candidate: 1/k and the time it alone would
    save now (``gains``); their sums ``total`` and ``optimistic``; ``met``, the draws set aside because they
    meet the target whatever is added. Rows are shared between branches and replaced, never changed in place."""

    values: list[FloatArray]
    bounds: list[FloatArray]
    reciprocal: list[FloatArray]
    gains: list[Floats]  # float32: for the bounds only
    total: FloatArray
    optimistic: FloatArray
    met: int

    def compressed(self, keep: NDArray[np.bool_], met: int) -> _Node:
        index = np.flatnonzero(keep)
        return _Node(
            [v.take(index) for v in self.values],
            [b.take(index) for b in self.bounds],
            [r.take(index) for r in self.reciprocal],
            [g.take(index) for g in self.gains],
            self.total.take(index),
            self.optimistic.take(index),
            met,
        )


_SAMPLE = 512  # draws a bound looks at first


def _settle(need: Floats, ratio: Floats, efforts: Floats, limit: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The draws settled without the knapsack: (within, out of reach) for ``limit`` engineer-days, from each
    optimization's gain per engineer-day (``ratio``: one row per optimization, one column per draw).

    Within: one optimization alone saves ``need`` in time, whole or the part of it ``limit`` pays for
    (gain × min(1, limit / effort)). Out of reach: even spending all of ``limit`` at the best gain per day of the
    draw saves less.
    """
    alone = (need <= (ratio * np.minimum(efforts, limit)[:, None]).max(axis=0)) | (need <= 0)
    out = need > limit * ratio.max(axis=0)
    return alone, out & ~alone


def _knapsack(need: Floats, ratio: Floats, efforts: Floats, limit: float, enough: int) -> tuple[int, NDArray[np.bool_]]:
    """The fractional knapsack draw by draw (best gain per day first): how many draws can save ``need`` for
    ``limit`` engineer-days, stopping once the answer to "at least ``enough``?" is known; and which draws were
    found out of reach on the way. ``ratio``: each optimization's gain per engineer-day in each draw (a copy: the
    knapsack uses it up)."""
    out = np.zeros(need.size, dtype=bool)
    left_need = need.copy()
    spent = np.zeros(need.size, dtype=np.float32)
    live = np.ones(need.size, dtype=bool)
    where = np.arange(need.size)
    found = 0
    for _ in range(len(efforts)):
        # The best rate left in each draw and the gain at it, by row-wise reductions (argmax along the first axis
        # costs several times more). Tied rows are taken together: in a fractional knapsack, items of one rate
        # are one item. Rates are ≥ 0 (this bound runs only when no optimization slows a run); a taken item's
        # rate becomes 0, and a draw whose best rate left is 0 saves nothing more (need/0 is not hopeful).
        rate = ratio.max(axis=0)
        best = ratio == rate
        gain = rate * np.einsum("i,ij->j", efforts, best)  # the tied items' gains: rate × effort
        with np.errstate(divide="ignore", invalid="ignore"):
            hopeful = spent + left_need / rate <= limit  # at the best rate left, the rest costs need/rate at least
            take = np.minimum(gain, left_need)
            spent += np.where(take > 0, take / rate, 0.0)
        left_need -= take
        done = live & hopeful & (left_need <= 1e-12 * np.maximum(take, 1.0)) & (spent <= limit)
        found += int(np.count_nonzero(done))
        out[where[live & ~hopeful]] = True
        live &= hopeful & ~done
        remaining = int(np.count_nonzero(live))
        if remaining == 0 or found >= enough or found + remaining < enough:
            break
        np.multiply(ratio, ~best, out=ratio)
        if remaining < 0.5 * live.size:  # drop the settled draws once they are half
            keep = np.flatnonzero(live)
            left_need, spent, live, where = left_need[keep], spent[keep], live[keep], where[keep]
            ratio = ratio.take(keep, axis=1)
    return found, out


@dataclass
class _Search:
    """The state of one search: the best plan so far, the bound of what the budget left unexplored."""

    efforts: list[float]  # per candidate, numbered in the order they are decided
    classes_of: list[list[int]]  # candidate → the classes it targets
    members: list[list[int]]  # class → its candidates
    threshold: float
    needed: int  # meeting draws the level needs
    budget: int
    monotone: bool  # no candidate ever slows a run (1/k ≤ 1 in every draw): a met draw stays met
    rows: list[int]  # each candidate's row in the checklist, for the last tie-break
    stop: Callable[[], bool] | None = None  # asked at every branch: True ends the search (SearchStoppedError)
    nodes: int = 0
    best: tuple[float, int, int, tuple[int, ...]] | None = None  # (effort, −count, size, checklist rows)
    open_bound: float = math.inf  # least effort of a branch left unexplored by the budget

    def offer(self, chosen: tuple[int, ...], effort: float, count: int) -> None:
        key = (_effort_key(effort), -count, len(chosen), tuple(sorted(self.rows[i] for i in chosen)))
        if self.best is None or key < self.best:
            self.best = key

    def cut(self, effort: float, count_bound: int, size: int) -> bool:
        """Whether a branch of this effort, this bound on its count and this many optimizations cannot win."""
        if self.best is None:
            return False
        best_effort, best_count, best_size, _ = self.best
        key = _effort_key(effort)
        return key > best_effort or (key == best_effort and (-count_bound, size) > (best_count, best_size))

    def favourable(self, reciprocal: list[FloatArray], c: int, row: FloatArray, undecided: set[int]) -> FloatArray:
        for j in self.members[c]:
            if j in undecided:
                row = row * np.minimum(reciprocal[j], 1.0)
        return row

    def gain(self, values: list[FloatArray], reciprocal: list[FloatArray], j: int) -> Floats:
        """The time candidate j alone would save in each draw, given the chosen ones."""
        loss = 1.0 - reciprocal[j]
        rows = self.classes_of[j]
        total = values[rows[0]] * loss
        for c in rows[1:]:
            total = total + values[c] * loss
        return total.astype(np.float32)  # for the bounds only (see costs_more's slack)

    def costs_more(
        self, node: _Node, undecided: set[int], open_draws: NDArray[np.bool_], more: int, room: float
    ) -> tuple[bool, NDArray[np.bool_] | None]:
        """Whether every completion adds more than ``room`` engineer-days; and the draws found out of reach.

        A completion must meet ``more`` of the ``open_draws``; meeting draw d costs at least the fractional
        knapsack of the undecided optimizations' gains alone there (they bound what a set saves:
        1 − Π(1/k) ≤ Σ(1 − 1/k) when every 1/k ≤ 1). A draw out of reach stays so in the whole branch (one
        more optimization in the plan costs its effort and saves no more than its gain), so the branch can set
        it aside. A sample of the undecided draws answers first when it is clearly short of a cut (saying "no
        cut" is always safe: it only explores more); otherwise every draw is counted.
        """
        # Gains, rates and the days spent are float32 (a rounding of about 1e-7 per step, some 20 steps a draw):
        # the 1e-5 slack leans every rounding towards "within", so a cut stays proven.
        limit = room * (1 + 1e-5) + 1e-9
        paid = [j for j in sorted(undecided) if self.efforts[j] > 0]
        # Every draw of the node takes part, those not open with an infinite need (out of reach): that costs less
        # than gathering the open ones row by row.
        need: Floats = np.where(open_draws, (node.total - self.threshold) * (1 - 1e-5), np.inf).astype(np.float32)
        for j in sorted(undecided):
            if self.efforts[j] <= 0:  # free: taken whole
                need = need - node.gains[j]
        if not paid:
            return int(np.count_nonzero(need <= 0)) < more, None
        efforts = np.array([self.efforts[j] for j in paid], dtype=np.float32)
        ratio = np.stack([node.gains[j] for j in paid]) / efforts[:, None]
        within, away = _settle(need, ratio, efforts, limit)
        found = int(np.count_nonzero(within))
        hard = np.flatnonzero(~within & ~away)
        if found >= more or found + hard.size < more or hard.size == 0:
            return found < more, away
        wanted = (more - found) / hard.size
        if hard.size > 4 * _SAMPLE:
            picked = hard[:: hard.size // _SAMPLE]
            share = (
                _knapsack(need[picked], ratio.take(picked, axis=1), efforts, limit, picked.size + 1)[0] / picked.size
            )
            if share - 4.0 * math.sqrt(max(share * (1 - share), 1e-4) / picked.size) > wanted:
                return False, away  # the sample meets far more than a cut allows
        more_found, more_out = _knapsack(need[hard], ratio.take(hard, axis=1), efforts, limit, more - found)
        away[hard[more_out]] = True
        return found + more_found < more, away

    def visit(self, depth: int, chosen: tuple[int, ...], effort: float, node: _Node) -> None:
        alive = node.optimistic <= self.threshold  # the others never meet the target, whatever is added
        meeting = node.total <= self.threshold
        now = node.met + int(np.count_nonzero(meeting))
        reach = node.met + int(np.count_nonzero(alive))
        if reach < self.needed or self.cut(effort, reach, len(chosen)):
            return
        undecided = set(range(depth, len(self.efforts)))
        if now >= self.needed:
            self.offer(chosen, effort, now)
            if all(self.efforts[j] > 0 for j in undecided):
                return  # anything added costs more: no plan in this branch beats this one
        elif undecided and self.cut(effort + min(self.efforts[j] for j in undecided), reach, len(chosen) + 1):
            return
        away = None
        if now < self.needed and self.monotone and self.best is not None and len(undecided) > 1:
            cut, away = self.costs_more(node, undecided, alive & ~meeting, self.needed - now, self.best[0] - effort)
            if cut:
                return  # every completion adds more than the best plan leaves room for
        if depth == len(self.efforts):
            return
        self.nodes += 1
        if self.stop is not None and self.stop():
            raise SearchStoppedError
        if self.nodes > self.budget:
            extra = 0.0 if now >= self.needed else min(self.efforts[j] for j in undecided)
            self.open_bound = min(self.open_bound, effort + extra)
            return
        # Set aside the draws that can no longer change the answer, once they are a good part of the rest.
        keep = alive & ~meeting if self.monotone else alive
        if away is not None:
            keep &= ~away  # out of reach of every completion that could beat the best plan
        if int(np.count_nonzero(keep)) < 0.75 * keep.size:
            node = node.compressed(keep, node.met + (int(np.count_nonzero(meeting & alive)) if self.monotone else 0))
        j = depth
        rest = undecided - {j}
        values, bounds, gains = list(node.values), list(node.bounds), list(node.gains)
        total, optimistic = node.total.copy(), node.optimistic.copy()
        touched: set[int] = set()
        for c in self.classes_of[j]:
            values[c] = node.values[c] * node.reciprocal[j]
            bounds[c] = self.favourable(node.reciprocal, c, values[c], rest)
            total += values[c] - node.values[c]
            optimistic += bounds[c] - node.bounds[c]
            touched.update(self.members[c])
        for i in touched & rest:
            gains[i] = self.gain(values, node.reciprocal, i)
        taken = _Node(values, bounds, node.reciprocal, gains, total, optimistic, node.met)
        self.visit(depth + 1, (*chosen, j), effort + self.efforts[j], taken)
        bounds = list(node.bounds)
        optimistic = node.optimistic.copy()
        for c in self.classes_of[j]:
            bounds[c] = self.favourable(node.reciprocal, c, node.values[c], rest)
            optimistic += bounds[c] - node.bounds[c]
        left = _Node(node.values, bounds, node.reciprocal, node.gains, node.total, optimistic, node.met)
        self.visit(depth + 1, chosen, effort, left)


def _greedy(search: _Search, draws: Draws, order: list[int]) -> None:
    """A first plan: add the candidate that gains the most meeting draws per engineer-day until the level is met,
    then drop what is not needed (the most effort first)."""

    def count(chosen: list[int]) -> int:
        return int(np.count_nonzero(draws.new_totals([order[i] for i in chosen]) <= search.threshold))

    chosen: list[int] = []
    met = count(chosen)
    while met < search.needed:
        best: tuple[float, int, int] | None = None
        for i in range(len(order)):
            if i in chosen:
                continue
            gain = count([*chosen, i]) - met
            rate = gain / search.efforts[i] if search.efforts[i] > 0 else math.inf
            if gain > 0 and (best is None or rate > best[0]):
                best = (rate, i, gain)
        if best is None:
            return
        chosen.append(best[1])
        met += best[2]
    for i in sorted(chosen, key=lambda i: -search.efforts[i]):
        fewer = [c for c in chosen if c != i]
        left = count(fewer)
        if left >= search.needed:
            chosen, met = fewer, left
    search.offer(tuple(chosen), math.fsum(search.efforts[i] for i in chosen), met)


def cheapest_plan(
    profile: Profile,
    draws: Draws,
    target: float,
    confidence: float,
    budget: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> PlanSearch:
    """The least-effort set of the optimizations with an effort that meets ``target`` with probability ≥
    ``confidence`` on ``draws`` (see the module's note for the order of ties and the bound beyond
    ``EXACT_CANDIDATES``). ``budget`` overrides the number of branches explored; ``stop``, asked at every branch,
    ends the search with :class:`SearchStoppedError` when it says so (a window's search for a plan since changed)."""
    opts = profile.optimizations
    candidates = [j for j, o in enumerate(opts) if o.effort is not None]
    count = draws.count
    threshold = target * (1 + TOLERANCE)
    needed = max(math.ceil(confidence * count - 1e-9), 0)
    probability_all = float(np.count_nonzero(draws.new_totals(candidates) <= threshold)) / count
    exact = len(candidates) <= EXACT_CANDIDATES

    def row(value: Column) -> FloatArray:
        return np.broadcast_to(np.asarray(value, dtype=float), (count,))

    position = set(candidates)
    targeted = [c for c, found in enumerate(draws.class_members) if position.intersection(found)]

    def promise(j: int) -> float:
        effort = float(opts[j].effort or 0.0)
        saved = sum(
            float(np.mean(row(draws.class_times[c]) * (1.0 - row(draws.reciprocal[j]))))
            for c in targeted
            if j in draws.class_members[c]
        )
        return saved / math.sqrt(effort) if effort > 0 else math.inf

    # The most promising first: expected time saved per √engineer-day, between the largest saving first (the
    # bounds tighten fastest) and the most per day first (good plans early). Over 20 of the benchmark's profiles
    # it explores 1,477 branches, against 1,880 by the day and 2,442 by the saving (the answer does not depend on
    # the order).
    order = sorted(candidates, key=lambda j: (-promise(j), j))
    number = {j: i for i, j in enumerate(order)}
    members = [[number[j] for j in draws.class_members[c] if j in position] for c in targeted]
    classes_of: list[list[int]] = [[] for _ in order]
    for c, found in enumerate(members):
        for i in found:
            classes_of[i].append(c)
    reciprocal = [np.array(row(draws.reciprocal[j])) for j in order]
    values = [np.array(row(draws.class_times[c])) for c in targeted]
    fixed = np.zeros(count)
    chosen_classes = set(targeted)
    for c, time in enumerate(draws.class_times):
        if c not in chosen_classes:
            fixed = fixed + time
    search = _Search(
        [float(opts[j].effort or 0.0) for j in order],
        classes_of,
        members,
        threshold,
        needed,
        budget if budget is not None else (2 ** (len(order) + 1) if exact else NODE_BUDGET),
        all(bool(np.all(r <= 1.0)) for r in reciprocal),
        order,
        stop,
    )
    everything = set(range(len(order)))
    bounds = [search.favourable(reciprocal, c, values[c], everything) for c in range(len(targeted))]
    gains = [search.gain(values, reciprocal, i) for i in range(len(order))]
    total = fixed + sum(values, np.zeros(count))
    root = _Node(values, bounds, reciprocal, gains, total, fixed + sum(bounds, np.zeros(count)), 0)
    if not exact:
        _greedy(search, draws, order)
    search.visit(0, (), 0.0, root)
    finished = search.nodes <= search.budget
    plan = None
    if search.best is not None:
        indices = search.best[3]
        totals = draws.new_totals(indices)
        plan = Plan(
            indices,
            tuple(opts[j].name for j in indices),
            math.fsum(float(opts[j].effort or 0.0) for j in indices),
            float(np.count_nonzero(totals <= threshold)) / count,
            float(np.percentile(totals, 50.0)),
        )
    if plan is not None:
        lower: float | None = plan.effort if finished else min(plan.effort, search.open_bound)
    else:
        lower = None if finished else search.open_bound
    return PlanSearch(confidence, target, tuple(candidates), plan, finished, lower, probability_all, search.nodes)
