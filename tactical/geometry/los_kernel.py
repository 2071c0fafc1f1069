"""`los.hits_among` of the lines the pair matrix's cones found (GEO002.10), compiled: each
candidate's shrunk diagonals, then its box, then its edges, in one loop, with the numpy
code's floating-point operations in the same order (no fastmath, numpy's error model),
so every answer is the same; a line touching the outline is left to GEOS as there.

Imported only by `los.reaching_hits` for a big stream (this module imports numba).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["cone_candidates", "reaching_hits"]


@njit(cache=True, error_model="numpy", inline="always")
def _low(a, b):  # pragma: no cover - compiled
    """np.minimum of two numbers (a NaN wins)."""
    return a if (a < b or a != a) else b


@njit(cache=True, error_model="numpy", inline="always")
def _high(a, b):  # pragma: no cover - compiled
    """np.maximum of two numbers (a NaN wins)."""
    return a if (a > b or a != a) else b


@njit(cache=True, error_model="numpy")
def reaching_hits(
    ax,
    ay,
    bx,
    by,
    piece,
    diagonals,
    ux,
    uy,
    half_u,
    half_v,
    centre_x,
    centre_y,
    edge_offsets,
    edge_x,
    edge_y,
    edge_dx,
    edge_dy,
    diagonal_eps,
    orient_eps,
    box_margin,
):  # pragma: no cover - compiled
    """(hit, doubtful) of each line k, (ax[k], ay[k]) -> (bx[k], by[k]), and piece[k]:
    `los.diagonal_hits`, then `los._box_misses`, then `los._edge_block`, their numbers
    one candidate at a time; doubtful where a line touches the outline and crosses no
    edge (GEOS decides those: their `hit` is False here)."""
    count = len(piece)
    hit = np.zeros(count, dtype=np.bool_)
    doubtful = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        t = piece[k]
        sx, sy = ax[k], ay[k]
        abx = bx[k] - sx
        aby = by[k] - sy
        # a proper crossing of a shrunk diagonal: surely inside (`diagonal_hits`)
        sure = False
        for d in range(diagonals.shape[0]):
            px, py = diagonals[d, 0, t], diagonals[d, 1, t]
            ex = diagonals[d, 2, t] - px
            ey = diagonals[d, 3, t] - py
            rx, ry = px - sx, py - sy
            o1 = abx * ry - aby * rx
            turn = abx * ey - aby * ex
            o2 = o1 + turn
            o3 = ey * rx - ex * ry
            o4 = o3 - turn
            proper = _low(o1, o2) < -diagonal_eps and _high(o1, o2) > diagonal_eps
            proper = proper and _low(o3, o4) < -diagonal_eps and _high(o3, o4) > diagonal_eps
            sure = sure or proper
        if sure:
            hit[k] = True
            continue
        # clear of the box holding the piece: surely outside (`_box_misses`)
        cx, cy = centre_x[t], centre_y[t]
        u, v, hu, hv = ux[t], uy[t], half_u[t], half_v[t]
        a_x, a_y = sx - cx, sy - cy
        b_x, b_y = bx[k] - cx, by[k] - cy
        along_a, along_b = a_x * u + a_y * v, b_x * u + b_y * v
        across_a, across_b = a_y * u - a_x * v, b_y * u - b_x * v
        reach_u, reach_v = hu + box_margin, hv + box_margin
        misses = _low(along_a, along_b) > reach_u or _high(along_a, along_b) < -reach_u
        misses = misses or _low(across_a, across_b) > reach_v
        misses = misses or _high(across_a, across_b) < -reach_v
        dx, dy = b_x - a_x, b_y - a_y
        reach = hu * np.abs(u * dy - v * dx) + hv * np.abs(u * dx + v * dy)
        reach += box_margin * math.hypot(dx, dy)
        misses = misses or np.abs(a_x * dy - a_y * dx) > reach
        if misses:
            continue
        # the edges: a proper crossing, a touch, or neither (`_edge_block`)
        crossing = False
        touching = False
        first, stop = edge_offsets[t], edge_offsets[t + 1]
        for e in range(first, stop):
            e0x, e0y, ex, ey = edge_x[e], edge_y[e], edge_dx[e], edge_dy[e]
            o1 = abx * (e0y - sy) - aby * (e0x - sx)
            o2 = o1 + abx * ey - aby * ex
            o3 = ex * (sy - e0y) - ey * (sx - e0x)
            o4 = o3 + ex * aby - ey * abx
            low12, high12 = _low(o1, o2), _high(o1, o2)
            low34, high34 = _low(o3, o4), _high(o3, o4)
            proper = low12 < -orient_eps and high12 > orient_eps
            proper = proper and low34 < -orient_eps and high34 > orient_eps
            apart = low12 > orient_eps or high12 < -orient_eps
            apart = apart or low34 > orient_eps or high34 < -orient_eps
            crossing = crossing or proper
            touching = touching or not (proper or apart)
        if crossing:
            hit[k] = True
        elif touching:
            doubtful[k] = True
        else:  # no contact: the midpoint inside or outside (even-odd rule)
            mx = sx + abx / 2
            my = sy + aby / 2
            parity = 0
            for e in range(first, stop):
                q0x, q0y, qx, qy = edge_x[e], edge_y[e], edge_dx[e], edge_dy[e]
                rises = (q0y > my) != (q0y + qy > my)
                x_cross = q0x + (my - q0y) * qx / qy
                parity += rises and mx < x_cross
            hit[k] = parity % 2 == 1
    return hit, doubtful


@njit(cache=True, error_model="numpy")
def cone_candidates(
    cone,
    left,
    counts,
    order,
    distance,
    angle,
    pair_j,
    near,
    inner_theta,
    inner_half,
    inner_reach,
    pieces,
    mode,
    owners,
    mask,
):  # pragma: no cover - compiled
    """`matrix._los_blocked`'s candidates, cone by cone: for cone c (flat = row * pieces +
    piece), the pairs order[left[c]:left[c] + counts[c]] whose line reaches the piece's
    disc (and has length); with mode 1 not the target's own base (`owners`), with mode 2
    only the pieces `mask` lets block. Each is sure (through the inscribed disc's cone,
    far enough) or left to the exact test: returns (sure pair, sure piece, other pair,
    other piece), each in the order numpy's batches give them.

    `distance`, `angle` and `pair_j` are the pairs' in the order of `order` (q-th the
    pair order[q]'s): a cone's candidates read one run of each, not a pair's scattered
    numbers."""
    total = 0
    for c in range(len(cone)):
        total += counts[c]
    sure_pair = np.empty(total, dtype=np.intp)
    sure_piece = np.empty(total, dtype=np.intp)
    other_pair = np.empty(total, dtype=np.intp)
    other_piece = np.empty(total, dtype=np.intp)
    sure = 0
    other = 0
    for c in range(len(cone)):
        flat = cone[c]
        piece = flat - flat // pieces * pieces
        if mode == 2 and not mask[piece]:
            continue
        owner = owners[piece] if mode == 1 else -1
        reach_near, theta = near[flat], inner_theta[flat]
        half, reach_inner = inner_half[flat], inner_reach[flat]
        for q in range(left[c], left[c] + counts[c]):
            reach = distance[q]
            if not (reach >= reach_near and reach > 0.0):
                continue
            if mode == 1 and owner == pair_j[q]:
                continue
            delta = angle[q] - theta
            if delta > math.pi:
                delta = delta - 2 * math.pi
            delta = np.abs(delta)
            if delta > math.pi:
                delta = 2 * math.pi - delta
            pair = order[q]
            inside = delta < half and reach >= reach_inner
            # written to both lists, kept by one: no branch on a test the data decides
            # (each list has room for every candidate)
            sure_pair[sure] = pair
            sure_piece[sure] = piece
            other_pair[other] = pair
            other_piece[other] = piece
            sure += inside
            other += not inside
    return sure_pair[:sure], sure_piece[:sure], other_pair[:other], other_piece[:other]
