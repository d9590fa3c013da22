"""Passives registered by Lua mods (``game.register_upgrade``): validated, owned by the mod that registered
them, and offered in the between-wave picks of the current run and every later one."""

from __future__ import annotations

from typing import Any

from loguru import logger
from pydantic import ValidationError

from coreai.errors import CommandRejected
from game.bindings import WorldHandle
from game.sim.upgrades import ModUpgrade
from game.sim.world import World

log = logger.bind(feature="lua", trace_id=None)
MAX_MOD_UPGRADES = 16


class ModUpgrades:
    def __init__(self, handle: WorldHandle) -> None:
        self.handle = handle
        self.items: dict[str, ModUpgrade] = {}

    def register(self, spec: dict[str, Any], source: str) -> ModUpgrade:
        try:
            upgrade = ModUpgrade.model_validate({**spec, "source": source})
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "spec"
            raise CommandRejected("register_upgrade", f"bad upgrade ({where}: {first['msg']})") from None
        owner = self.items.get(upgrade.key)
        if owner is not None and owner.source != source:
            raise CommandRejected("register_upgrade", f"upgrade '{upgrade.key}' belongs to {owner.source}")
        if owner is None and len(self.items) >= MAX_MOD_UPGRADES:
            raise CommandRejected("register_upgrade", f"too many mod upgrades (max {MAX_MOD_UPGRADES})")
        self.items[upgrade.key] = upgrade
        if self.handle.world is not None:
            self.handle.world.register_upgrade(upgrade)
        log.info("{} registered the upgrade '{}'", source, upgrade.key)
        return upgrade

    def apply(self, world: World) -> None:
        """A new run offers every mod passive registered so far."""
        for upgrade in self.items.values():
            world.register_upgrade(upgrade)
