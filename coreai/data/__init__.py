"""The game's shipped data as packages: ``coreai.data.assets`` (prefabs, shipped mods, director scenarios) and
``coreai.data.prompts`` (the prompt library and skills). Read them through ``coreai.paths.shipped``.

A wheel installs the repository's top-level ``assets/`` and ``prompts/`` folders here (pyproject.toml maps
them with ``package-dir``). In a source checkout those folders stay where they are: this package's search
path also covers the repository root, so ``importlib.resources.files("coreai.data.assets")`` is the
checkout's ``assets/`` folder, with or without an install.
"""

from pathlib import Path

_checkout = Path(__file__).resolve().parents[2]
if (_checkout / "pyproject.toml").is_file() and (_checkout / "assets" / "__init__.py").is_file():
    __path__.append(str(_checkout))
