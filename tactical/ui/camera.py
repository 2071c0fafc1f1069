"""The camera: the one place that converts table inches to screen pixels and back.

The model's y grows away from side A (up on screen); the screen's y grows
down. A camera is an immutable value: `scale` pixels per inch, `origin` the
screen position of the table point (0, 0), and the `viewport` size in pixels.
Panning and zooming return new cameras, so a camera is also a cache key for
everything drawn through it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

MIN_SCALE = 0.5  # pixels per inch: a 6'x4' table about 36 px wide
MAX_SCALE = 400.0  # pixels per inch: a 1" base fills a good part of the window


@dataclass(frozen=True, slots=True)
class Margins:
    """Pixels kept free around the table when fitting it (for tick labels, title, legend)."""

    left: int = 0
    top: int = 0
    right: int = 0
    bottom: int = 0


@dataclass(frozen=True, slots=True)
class Camera:
    """World (inches, y up) <-> screen (pixels, y down)."""

    scale: float
    origin: tuple[float, float]
    viewport: tuple[int, int]

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError(f"camera scale must be a positive number, not {self.scale!r}")
        object.__setattr__(self, "scale", float(self.scale))
        object.__setattr__(self, "origin", (float(self.origin[0]), float(self.origin[1])))
        object.__setattr__(self, "viewport", (int(self.viewport[0]), int(self.viewport[1])))

    # ------------------------------------------------------------------ construction

    @classmethod
    def fit(
        cls,
        bounds: tuple[float, float, float, float],
        viewport: tuple[int, int],
        margins: Margins = Margins(),
    ) -> Camera:
        """The camera showing `bounds` (x0, y0, x1, y1 in inches) as large as fits, centred."""
        x0, y0, x1, y1 = bounds
        width, height = viewport
        free_w = max(1.0, width - margins.left - margins.right)
        free_h = max(1.0, height - margins.top - margins.bottom)
        span_w, span_h = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
        scale = min(free_w / span_w, free_h / span_h)
        centre_px = (margins.left + free_w / 2, margins.top + free_h / 2)
        return cls.centred_on(((x0 + x1) / 2, (y0 + y1) / 2), centre_px, scale, viewport)

    @classmethod
    def centred_on(
        cls,
        world: tuple[float, float],
        screen: tuple[float, float],
        scale: float,
        viewport: tuple[int, int],
    ) -> Camera:
        """The camera at `scale` that puts table point `world` at screen point `screen`."""
        return cls(scale, (screen[0] - world[0] * scale, screen[1] + world[1] * scale), viewport)

    # ------------------------------------------------------------------ transforms

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Table inches -> screen pixels (float; round when drawing)."""
        return self.origin[0] + x * self.scale, self.origin[1] - y * self.scale

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        """Screen pixels -> table inches."""
        return (px - self.origin[0]) / self.scale, (self.origin[1] - py) / self.scale

    def to_screen_array(self, points: np.ndarray) -> np.ndarray:
        """Vectorised `to_screen` over an array whose last axis is (x, y)."""
        points = np.asarray(points, dtype=float)
        result = np.empty_like(points)
        result[..., 0] = self.origin[0] + points[..., 0] * self.scale
        result[..., 1] = self.origin[1] - points[..., 1] * self.scale
        return result

    def to_world_array(self, points: np.ndarray) -> np.ndarray:
        """Vectorised `to_world`."""
        points = np.asarray(points, dtype=float)
        result = np.empty_like(points)
        result[..., 0] = (points[..., 0] - self.origin[0]) / self.scale
        result[..., 1] = (self.origin[1] - points[..., 1]) / self.scale
        return result

    def pixels(self, inches: float) -> float:
        """A length on the table in pixels."""
        return inches * self.scale

    def inches(self, pixels: float) -> float:
        """A length on screen in inches."""
        return pixels / self.scale

    def screen_direction(self, heading: float) -> tuple[float, float]:
        """Unit screen vector of a compass heading (0 = up the screen, 90 = right)."""
        radians = math.radians(heading)
        return math.sin(radians), -math.cos(radians)

    def screen_rect(self, bounds: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """Table bounds (x0, y0, x1, y1) -> integer screen rect (left, top, width, height)."""
        left, top = self.to_screen(bounds[0], bounds[3])
        right, bottom = self.to_screen(bounds[2], bounds[1])
        left_i, top_i = round(left), round(top)
        return left_i, top_i, round(right) - left_i, round(bottom) - top_i

    @property
    def visible_bounds(self) -> tuple[float, float, float, float]:
        """The table rectangle (x0, y0, x1, y1) under the viewport."""
        x0, y1 = self.to_world(0, 0)
        x1, y0 = self.to_world(*self.viewport)
        return x0, y0, x1, y1

    # ------------------------------------------------------------------ moves

    def panned(self, dx: float, dy: float) -> Camera:
        """The view dragged by (dx, dy) screen pixels: the table moves with the cursor."""
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy))

    def zoomed(
        self,
        factor: float,
        about: tuple[float, float],
        min_scale: float = MIN_SCALE,
        max_scale: float = MAX_SCALE,
    ) -> Camera:
        """Zoom by `factor` keeping the table point under screen point `about` fixed."""
        world = self.to_world(*about)
        scale = min(max(self.scale * factor, min_scale), max_scale)
        return Camera.centred_on(world, about, scale, self.viewport)

    def resized(self, viewport: tuple[int, int]) -> Camera:
        """The same scale and centre in a window of a new size."""
        centre = self.to_world(self.viewport[0] / 2, self.viewport[1] / 2)
        return Camera.centred_on(centre, (viewport[0] / 2, viewport[1] / 2), self.scale, viewport)
