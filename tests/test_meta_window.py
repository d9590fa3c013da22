"""Meta progression in the real window game: a player's run that reaches wave 5 unlocks Chain Lightning for
the next run (saved in saves/meta.json); a corrupt progress file is quarantined with a visible warning."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from window_support import frames, start_arena

from game.app import GameApp
from game.meta import MetaStore
from game.views.gameover import GameOverView

pytestmark = pytest.mark.window


def die(app: GameApp) -> None:
    world = app.world
    assert world is not None
    world.player.iframes = 0.0
    world.hurt_player(10_000.0, "test")
    frames(app, 150)
    assert isinstance(app.window.current_view, GameOverView)


def test_reaching_wave_five_unlocks_chain_lightning_for_the_next_run(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    app = start_arena(make_app, seed=3)
    world = app.world
    assert world is not None
    assert world.available_weapons is not None and "chain" not in world.available_weapons
    world.wave = 5
    die(app)
    saved = json.loads((saves_dir / "meta.json").read_text())
    assert "reach_wave_5" in saved["achievements"] and saved["runs"] == 1
    assert any("unlocked Chain Lightning" in t for t in app.toasts.texts)
    app.new_run()
    frames(app, 2)
    assert app.world is not None and app.world is not world
    assert app.world.available_weapons is not None and "chain" in app.world.available_weapons
    assert "missile" not in app.world.available_weapons, "still locked: no boss slain"
    die(app)
    assert json.loads((saves_dir / "meta.json").read_text())["runs"] == 2
    assert not any(t.count("Chain Lightning") > 1 for t in app.toasts.texts), "an achievement is earned once"


def test_bot_demos_neither_earn_nor_use_unlocks(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    (saves_dir / "meta.json").write_text(json.dumps({"version": 1, "achievements": {"slay_a_boss": 1.0}}))
    assert "missile" in MetaStore(saves_dir / "meta.json").available_weapons()
    app = start_arena(make_app, seed=3, bot="weak")
    world = app.world
    assert world is not None and "missile" not in (world.available_weapons or ())
    world.wave = 6
    die(app)
    saved = json.loads((saves_dir / "meta.json").read_text())
    assert "runs" not in saved and "reach_wave_5" not in saved["achievements"], "the file is untouched"


def test_corrupt_progress_is_quarantined_with_a_warning(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    (saves_dir / "meta.json").write_text('{"version": 1, "runs": -4}')
    app = make_app(seed=2)
    frames(app, 1)
    assert any("progress file was unreadable" in t for t in app.toasts.texts)
    assert list(saves_dir.glob("meta.json.corrupt-*"))
    assert app.meta is not None and app.meta.progress.runs == 0
