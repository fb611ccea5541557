"""A step graph made small enough to keep a thousand of: runs of chain segments merged into one.

Along a chain, a point that no edge leaves or reaches, that does not start or end the chain and that is no
collective's start or end only adds its segment's weight to the next point's. Where the next point's segment
has the same K, the two segments are one: the merged graph keeps, of each such run,
its last point, with the run's summed weight. Every schedule of the merged graph, for factors constant on
those runs, gives the kept points the times the whole graph gives them.
"""

from __future__ import annotations

import numpy as np

from ..traces.events import FloatArray, IntArray
from ..traces.path_graph import PathGraph


def compact(
    g: PathGraph, factor: FloatArray, parts: FloatArray, keep: IntArray
) -> tuple[PathGraph, FloatArray, FloatArray, IntArray]:
    """(the merged graph, its points' factors, their ``parts`` summed over each run, each old point's new
    index or -1).

    ``keep``: points that must stay (a collective's first and last). Runs merge where ``factor`` is equal;
    ``parts`` (points × m) are shares of each segment's weight (its CPU work, its GPU work) that the merged
    segment keeps, so a later factor for just that share can still be applied.
    """
    n = len(g.time)
    if n == 0:
        return g, factor, parts, np.zeros(0, dtype=np.int64)
    co = g.chain_order
    starts = g.prev < 0
    starts_c = starts[co]
    ends_c = np.append(starts_c[1:], True)
    special = np.zeros(n, dtype=bool)
    special[co[ends_c]] = True
    special |= starts
    special[np.diff(g.edge_ptr) > 0] = True
    special[g.edge_src] = True
    special[keep] = True
    key_c = factor[co]
    changes_c = np.append(key_c[1:] != key_c[:-1], True)  # the next point on the chain has another key
    kept_c = special[co] | changes_c | ends_c
    kept = np.zeros(n, dtype=bool)
    kept[co[kept_c]] = True
    new_of = np.full(n, -1, dtype=np.int64)
    idx = np.flatnonzero(kept)
    new_of[idx] = np.arange(len(idx))
    # merged weights: the chain's running sum (chain starts count their own weight apart)
    w_c = g.weight[co].copy()
    w_c[starts_c] = 0.0
    cum = np.cumsum(w_c)
    pos_k = np.flatnonzero(kept_c)
    prev_pos = np.concatenate(([-1], pos_k[:-1]))
    first = starts_c[pos_k]
    merged = np.where(first, g.weight[co[pos_k]], cum[pos_k] - cum[np.maximum(prev_pos, 0)])
    new_weight = np.empty(len(idx))
    new_weight[new_of[co[pos_k]]] = merged
    p_c = parts[co].copy()
    p_c[starts_c] = 0.0
    pcum = np.cumsum(p_c, axis=0)
    merged_parts = np.where(
        first[:, None], p_c[pos_k], pcum[pos_k] - pcum[np.maximum(prev_pos, 0)] * (prev_pos >= 0)[:, None]
    )
    new_parts = np.empty((len(idx), parts.shape[1]))
    new_parts[new_of[co[pos_k]]] = merged_parts
    new_prev = np.full(len(idx), -1, dtype=np.int64)
    not_first = ~first
    new_prev[new_of[co[pos_k[not_first]]]] = new_of[co[prev_pos[not_first]]]
    # edges: every endpoint is kept
    dst_old = np.repeat(np.arange(n), np.diff(g.edge_ptr))
    dst = new_of[dst_old]
    ptr = np.zeros(len(idx) + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=len(idx)), out=ptr[1:])
    step_ptr = np.searchsorted(idx, g.step_ptr).astype(np.int64)
    graph = PathGraph(
        windows=g.windows,
        step_ptr=step_ptr,
        time=g.time[idx],
        prev=new_prev,
        weight=new_weight,
        owner=g.owner[idx],
        kind=g.kind[idx],
        edge_ptr=ptr,
        edge_src=new_of[g.edge_src],
        edge_weight=g.edge_weight,
        edge_kind=g.edge_kind,
        chain_order=new_of[co[kept_c]],
        lane=g.lane[idx],
        items=g.items,
        cpu_rows=g.cpu_rows,
        counts=g.counts,
        bounds_step=g.bounds_step[idx],
    )
    return graph, factor[idx], new_parts, new_of
