"""The game-over screen lists the table the run belongs to: human runs only (no bot rows, no zero scores),
or the bot table after a bot-played run. Real window under ARCADE_HEADLESS=1."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from window_support import frames, render, start_arena

from game.app import GameApp
from game.headless import RunSummary
from game.saves import SaveStore
from game.views.gameover import GameOverView

pytestmark = pytest.mark.window


def _seed_saves() -> None:
    store = SaveStore()
    for score, bot in ((400, None), (9000, "greedy"), (0, None), (250, None)):
        summary = RunSummary(seed=1, seconds=30, waves_reached=1, kills=1, deaths=1, damage_taken=1.0,
                             final_score=score, ticks=1, ticks_per_second=1.0, bot=bot)  # fmt: skip
        store.record_run(summary)


def _die(app: GameApp, score: int) -> GameOverView:
    world = app.world
    assert world is not None
    world.stats.score = score
    world.player.iframes = 0.0
    world.hurt_player(10_000.0, "test")
    frames(app, 150)
    view = app.window.current_view
    assert isinstance(view, GameOverView)
    return view


def test_game_over_lists_only_human_runs_and_no_zero_scores(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    _seed_saves()
    app = start_arena(make_app, seed=4)
    view = _die(app, 300)
    listed = [int(score.text.text.replace(",", "")) for _, score, _, _ in view.scores]
    assert listed == [400, 300, 250], "bot runs and zero scores stay out of the human table"
    assert view.rank == 2 and view.heads[1].text.text == "HIGH SCORES"
    img = render(app)
    img.save(saves_dir / "gameover_human_table.png")
    img.save("/tmp/hostile_gameover_human.png")


def test_a_bot_run_shows_the_bot_table(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    _seed_saves()
    app = start_arena(make_app, seed=4, bot="average")
    view = _die(app, 120)
    listed = [int(score.text.text.replace(",", "")) for _, score, _, _ in view.scores]
    assert listed == [9000, 120] and view.heads[1].text.text == "BOT HIGH SCORES"
    assert view.subtitle.text.text == "bot high score #2"
    assert [h.score for h in SaveStore().high_scores()] == [400, 250]
    render(app).save("/tmp/hostile_gameover_bot.png")


def test_surviving_the_final_wave_shows_the_victory_screen_and_counts_the_win(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    app = start_arena(make_app, seed=4, waves=1)  # --waves 1: a one-wave run
    world = app.world
    assert world is not None and world.final_wave == 1
    render(app)
    assert app.arena.hud is not None and app.arena.hud.wave.value == "WAVE 1/1", "the HUD shows the run's end"
    world.stats.score = 500
    world.wave_time_left = 0.05
    frames(app, 200)
    view = app.window.current_view
    assert isinstance(view, GameOverView), "the run ends at the final wave's end"
    assert view.title.text.text == "VICTORY"
    assert view.subtitle.text.text.startswith("wave 1 survived  -  ")  # one wave: no "all 1 waves"
    assert view.summary.won and not view.summary.died
    stored = SaveStore()
    assert stored.history.runs[-1].summary.won, "the win is in the run history"
    assert stored.high_scores()[0].won, "and in the high-score table"
    img = render(app)
    img.save(saves_dir / "victory.png")
    top = img.crop((0, 0, img.width, img.height // 3)).convert("RGB")
    greens = sum(1 for r, g, b in top.getdata() if g > 200 and r < 150 and b < 170)
    assert greens > 200, "the VICTORY title is drawn in the victory green"
