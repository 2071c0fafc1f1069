"""Text rendering with the bundled DejaVu Sans, cached per (text, size, colour).

Text is rendered at its final pixel size (never scaled bitmaps), so labels stay
crisp at every zoom. The font is the project's own (assets/fonts, found with
`tactical.io.paths.assets_dir`): it has every glyph the ui draws (arrows, ×, …,
°, ±), which pygame's default font lacks; the widgets use it too (`widget_theme`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import pygame
import pygame.freetype

from tactical.io.paths import assets_dir
from tactical.ui.palette import Colour

CACHE_LIMIT = 4096  # rendered strings kept: every label of a 3,000-unit table at one zoom
FONT_NAME = "dejavu_sans"
FONT_FILES = {
    "regular_path": "DejaVuSans.ttf",
    "bold_path": "DejaVuSans-Bold.ttf",
    "italic_path": "DejaVuSans-Oblique.ttf",
    "bold_italic_path": "DejaVuSans-BoldOblique.ttf",
}
WIDGET_ELEMENTS = (  # pygame_gui looks fonts up by element type, not in "defaults"
    "defaults",
    "label",
    "button",
    "text_box",
    "text_entry_line",
    "selection_list",
    "selection_list.@selection_list_item",
    "drop_down_menu",
    "drop_down_menu.#expand_button",
    "drop_down_menu.#selected_option",
    "drop_down_menu.#drop_down_options_list",
    "tool_tip",
    "tool_tip.text_box",
    "window",
    "window.#title_bar",
    "message_window",
    "file_dialog",
    "horizontal_slider",
    "panel",
)
WIDGET_FONT_SIZE = 13  # DejaVu is wider than pygame_gui's Noto Sans at 14: the same room


def cut_to_fit(text: str, room: int, measure: Callable[[str], int]) -> str:
    """`text` whole if `measure` says it fits `room` pixels, else its longest start that fits
    with an ellipsis ("…" alone when none does). A binary search: a few measures for any
    length, where cutting a character at a time measured a long name thousands of times."""
    if measure(text) <= room:
        return text
    low, high = 0, len(text) - 1  # text[:low] + "…" fits (or low == 0); text[:high + 1] not
    while low < high:
        middle = (low + high + 1) // 2
        if measure(text[:middle] + "…") <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "…"


def font_path(style: str = "regular_path") -> str:
    """The bundled font file of a style (a key of FONT_FILES)."""
    return str(assets_dir() / "fonts" / FONT_FILES[style])


def widget_fonts() -> list[dict]:
    """The bundled font's bold and italic at the widgets' size, for `preload_fonts` (the
    cards' and the tracker's <b> and <i>)."""
    return [
        {"name": FONT_NAME, "point_size": WIDGET_FONT_SIZE, "style": style, "antialiased": "1"}
        for style in ("bold", "italic")
    ]


def widget_theme() -> dict:
    """A pygame_gui theme whose default font is the bundled one, every style."""
    font = {"name": FONT_NAME, "size": str(WIDGET_FONT_SIZE)}
    font.update({key: font_path(key) for key in FONT_FILES})
    return {element: {"font": font} for element in WIDGET_ELEMENTS}


class Fonts:
    """The default font at any pixel size, with an LRU cache of rendered strings."""

    def __init__(self) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self._font = pygame.freetype.Font(font_path(), 12)
        self._font.antialiased = True
        self._font.pad = False
        self._cache: OrderedDict[tuple[str, int, tuple[int, ...]], pygame.Surface] = OrderedDict()
        self._fitted: dict[tuple[str, int, int], str | None] = {}
        self._widths: dict[tuple[str, int], int] = {}

    def render(self, text: str, size: int, colour: Colour) -> pygame.Surface:
        """`text` at `size` pixels in `colour`, on a transparent background."""
        key = (text, int(size), tuple(colour))
        surface = self._cache.get(key)
        if surface is not None:
            self._cache.move_to_end(key)
            return surface
        surface, _ = self._font.render(text, fgcolor=colour, size=max(1, int(size)))
        self._cache[key] = surface
        if len(self._cache) > CACHE_LIMIT:
            self._cache.popitem(last=False)
        return surface

    def shadowed(self, text: str, size: int, colour: Colour, shadow: Colour) -> pygame.Surface:
        """`text` with a one-pixel drop shadow baked in (one blit per label instead of two)."""
        key = (text, int(size), (*colour, *shadow))
        surface = self._cache.get(key)
        if surface is not None:
            self._cache.move_to_end(key)
            return surface
        # the two layers are not cached on their own: only the baked label is blitted
        front, _ = self._font.render(text, fgcolor=colour, size=max(1, int(size)))
        back, _ = self._font.render(text, fgcolor=shadow, size=max(1, int(size)))
        surface = pygame.Surface((front.get_width() + 1, front.get_height() + 1), pygame.SRCALPHA)
        surface.blit(back, (1, 1))
        surface.blit(front, (0, 0))
        surface.set_alpha(255, pygame.RLEACCEL)  # labels are blitted every frame
        self._cache[key] = surface
        if len(self._cache) > CACHE_LIMIT:
            self._cache.popitem(last=False)
        return surface

    def width(self, text: str, size: int) -> int:
        """Pixel width of `text` at `size`, without rendering it (measured once)."""
        key = (text, int(size))
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) > 4 * CACHE_LIMIT:
                self._widths.clear()
            width = self._widths[key] = int(self._font.get_rect(text, size=max(1, int(size))).width)
        return width

    def fit(self, text: str, size: int, max_width: int) -> str | None:
        """`text`, shortened with an ellipsis to fit `max_width` pixels; None if nothing fits."""
        key = (text, int(size), int(max_width))
        if key not in self._fitted:
            if len(self._fitted) > CACHE_LIMIT:
                self._fitted.clear()
            self._fitted[key] = self._fit(text, size, max_width)
        return self._fitted[key]

    def _fit(self, text: str, size: int, max_width: int) -> str | None:
        """A binary search on the cut: a facts line can be a few hundred characters, and
        shortening it one character at a time costs a width measure per character."""
        if self.width(text, size) <= max_width:
            return text
        low, high = 0, len(text) - 1  # text[:low] + "…" fits (or low == 0); text[:high + 1] not
        while low < high:
            middle = (low + high + 1) // 2
            if self.width(text[:middle].rstrip() + "…", size) <= max_width:
                low = middle
            else:
                high = middle - 1
        return text[:low].rstrip() + "…" if low > 0 else None


_shared: Fonts | None = None


def shared_fonts() -> Fonts:
    """One Fonts per process: the font file is opened once."""
    global _shared
    if _shared is None:
        _shared = Fonts()
    return _shared
