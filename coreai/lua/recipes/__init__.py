"""Grounded mods: a catalogue of recipes built from the Mod API (``catalogue``), their slots (``model``),
the rules reader (``reader``), the model's schema-constrained slot filling (``slots``) and the renderer that
turns a recipe into a mod (``render``). Pure data and text: no game, no arcade."""

from coreai.lua.recipes.catalogue import problems, say, say_rule
from coreai.lua.recipes.model import Facts, ParamFact, Recipe, Rule
from coreai.lua.recipes.reader import Reading, read
from coreai.lua.recipes.render import mod_files, mod_name, render

__all__ = [
    "Facts", "ParamFact", "Reading", "Recipe", "Rule", "mod_files", "mod_name", "problems", "read", "render",
    "say", "say_rule",
]  # fmt: skip
