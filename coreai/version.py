"""The game's version, its one definition (pyproject.toml reads it; mods' ``min_game_version`` compares to
it)."""

__version__ = "0.1.0"
