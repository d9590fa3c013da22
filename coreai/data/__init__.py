"""The game's shipped data as packages: ``coreai.data.assets`` (prefabs, shipped mods, director scenarios) and
``coreai.data.prompts`` (the prompt library and skills). Read them through ``coreai.paths.shipped``.

A wheel installs the repository's top-level ``assets/`` and ``prompts/`` folders here (pyproject.toml maps
them with ``package-dir``). In a source checkout those folders stay where they are, and this module registers
them under the same names, so ``importlib.resources.files("coreai.data.assets")`` is the checkout's
``assets/`` folder, with or without an install.
"""

import importlib.util
import sys
from pathlib import Path

_here = Path(__file__).resolve().parent
_checkout = _here.parents[1]
if (_checkout / "pyproject.toml").is_file():
    for _name in ("assets", "prompts"):
        _init = _checkout / _name / "__init__.py"
        _full = f"{__name__}.{_name}"
        if _full in sys.modules or (_here / _name).is_dir() or not _init.is_file():
            continue
        _spec = importlib.util.spec_from_file_location(
            _full, _init, submodule_search_locations=[str(_init.parent)]
        )
        if _spec is None or _spec.loader is None:
            continue
        _module = importlib.util.module_from_spec(_spec)
        sys.modules[_full] = _module
        _spec.loader.exec_module(_module)
        globals()[_name] = _module
