"""Where points moving along a line or an arc about a pivot first cross segments or enter
circles (GEO002.8, R002.35): the exact kernels of the contact search
(`tactical.geometry.sweep`), numpy over every pair at once. Each pair's parameter is its
own (element by element), whatever else is asked with it; the length or angle given only
bounds them."""

from __future__ import annotations

import math

import numpy as np


def ray_circle_hits(
    point: np.ndarray, direction: np.ndarray, centres: np.ndarray, radius: float, length: float
) -> tuple[np.ndarray, np.ndarray]:
    """Distances where point + s * direction enters a circle of `radius` about each centre."""
    rel = point - centres
    b = rel @ direction
    c = (rel**2).sum(axis=1) - radius * radius
    disc = b * b - c
    with np.errstate(invalid="ignore"):
        s = -b - np.sqrt(disc)
    ok = (disc >= 0) & (c >= 0) & (s >= 0) & (s <= length)
    return s[ok], np.flatnonzero(ok)


def arc_circle_hits(
    point: np.ndarray,
    pivot: np.ndarray,
    sense: float,
    centres: np.ndarray,
    radius: float,
    total: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Angles where `point` rotating about `pivot` meets a circle of `radius` about each centre."""
    rel = point - pivot
    orbit = math.hypot(rel[0], rel[1])
    start = math.atan2(rel[1], rel[0])
    to_centres = centres - pivot
    distance = np.hypot(to_centres[:, 0], to_centres[:, 1])
    outside = ((point - centres) ** 2).sum(axis=1) >= radius * radius
    meets = (
        outside
        & (distance > 1e-12)
        & (distance <= orbit + radius)
        & (distance >= abs(orbit - radius))
        & (orbit > 1e-12)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        cos_half = (orbit * orbit + distance * distance - radius * radius) / (2 * orbit * distance)
    half = np.arccos(np.clip(cos_half, -1.0, 1.0))
    middle = np.arctan2(to_centres[:, 1], to_centres[:, 0])
    angles, ids = [], []
    for sign in (-1.0, 1.0):
        phi = np.mod(sense * (middle + sign * half - start), 2 * math.pi)
        ok = meets & (phi <= total)
        angles.append(phi[ok])
        ids.append(np.flatnonzero(ok))
    return np.concatenate(angles), np.concatenate(ids)


def ray_hits(
    points: np.ndarray, direction: np.ndarray, edges: np.ndarray, length: float
) -> tuple[np.ndarray, np.ndarray]:
    """Distances s in [0, length] where point + s * direction crosses an edge, with which
    point and which edge.

    Returned flat over all (point, edge) pairs that hit; parallel pairs never hit
    (a sliding contact does not penetrate).
    """
    q0 = edges[:, 0]
    along = edges[:, 1] - q0
    offset = q0[None, :, :] - points[:, None, :]
    # the cross products (a x b = a0 b1 - a1 b0) written out, the direction's two numbers
    # as scalars: the same products and differences element by element as of broadcast
    # arrays, in fewer array operations (a sweep tests a few edges at a time)
    dx, dy = float(direction[0]), float(direction[1])
    ax, ay = along[:, 0], along[:, 1]
    ox, oy = offset[..., 0], offset[..., 1]
    denominator = dx * ay - dy * ax
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (ox * ay - oy * ax) / denominator
        u = (ox * dy - oy * dx) / denominator
    ok = (np.abs(denominator) > 1e-12) & (u >= 0) & (u <= 1) & (s >= 0) & (s <= length)
    point_index, edge_index = np.nonzero(ok)
    return s[ok], point_index, edge_index


def arc_hits(
    points: np.ndarray, pivot: np.ndarray, sense: float, edges: np.ndarray, total: float
) -> tuple[np.ndarray, np.ndarray]:
    """Angles in [0, total] (radians) at which points rotating about `pivot` (sense +1 is
    counter-clockwise) cross an edge, with which point and which edge, flat over the hits."""
    rel = points - pivot
    radius_sq = (rel**2).sum(axis=1)[:, None]
    start_angle = np.arctan2(rel[:, 1], rel[:, 0])[:, None]
    q0 = edges[None, :, 0] - pivot
    along = edges[None, :, 1] - edges[None, :, 0]
    a = (along**2).sum(axis=-1)
    b = 2 * (along * q0).sum(axis=-1)
    c = (q0**2).sum(axis=-1) - radius_sq
    disc = b * b - 4 * a * c
    valid = (disc >= 0) & (a > 1e-18)
    root = np.sqrt(np.where(valid, disc, 0.0))
    angles = []
    point_ids = []
    edge_ids = []
    for sign in (-1.0, 1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            u = (-b + sign * root) / (2 * a)
        crossing = q0 + u[..., None] * along
        beta = np.arctan2(crossing[..., 1], crossing[..., 0])
        phi = np.mod(sense * (beta - start_angle), 2 * math.pi)
        ok = valid & (u >= 0) & (u <= 1) & (phi <= total)
        point_index, edge_index = np.nonzero(ok)
        angles.append(phi[ok])
        point_ids.append(point_index)
        edge_ids.append(edge_index)
    return np.concatenate(angles), np.concatenate(point_ids), np.concatenate(edge_ids)
