"""Colours and fonts shared by the HUD, overlays and views, so the whole game keeps one look."""

from __future__ import annotations

from arcade.types import Color

# Kenney Future (bundled with arcade, loaded by the app) for headings; it has no bold face, so display
# labels are never bold, and only words use it (its 5 reads like an S). Numbers and body text use a plain
# sans for readability.
FONT_DISPLAY = ("Kenney Future", "DejaVu Sans", "Arial")
FONT = ("DejaVu Sans", "Arial", "Helvetica")
FONT_NARROW = ("DejaVu Sans Condensed", "Arial Narrow", "DejaVu Sans", "Arial")
FONT_MONO = ("DejaVu Sans Mono", "Courier New", "Courier")

BACKGROUND = Color(10, 11, 18)
FLOOR = Color(25, 28, 40)
FLOOR_ALT = Color(29, 33, 47)
GRID = Color(40, 46, 64)
GRID_MAJOR = Color(52, 60, 84)
BORDER = Color(255, 86, 120)

TEXT = Color(236, 240, 255)
TEXT_DIM = Color(150, 160, 190)
ACCENT = Color(255, 196, 64)
PANEL = Color(14, 16, 26, 225)
PANEL_EDGE = Color(90, 104, 150)
SHADE = Color(0, 0, 0, 150)

HP = Color(232, 56, 72)
HP_LOW = Color(255, 40, 40)
HP_BACK = Color(60, 18, 26)
XP = Color(64, 200, 255)
XP_BACK = Color(16, 36, 56)
DASH = Color(120, 255, 200)
BOSS = Color(190, 70, 255)
WAVE = Color(255, 196, 64)
GOOD = Color(110, 240, 140)
WARN = Color(255, 160, 60)

PLAYER_BULLET = Color(255, 236, 140)
ENEMY_BULLET = Color(255, 70, 150)
ELITE_TINT = Color(255, 205, 70)
XP_GEM = Color(80, 220, 255)
HEAL = Color(255, 80, 100)

# per-prefab particle colours (prefabs not listed use the default)
KILL_COLOURS: dict[str, Color] = {
    "grunt": Color(120, 230, 90),
    "runner": Color(200, 210, 230),
    "tank": Color(110, 170, 255),
    "spitter": Color(255, 220, 70),
    "boss": Color(210, 110, 255),
    "charger": Color(255, 130, 110),
    "splitter": Color(90, 170, 255),
    "splitling": Color(150, 210, 255),
    "exploder": Color(255, 150, 60),
    "shielder": Color(150, 215, 255),
}
KILL_DEFAULT = Color(255, 255, 255)
