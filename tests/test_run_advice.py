"""The game-over advice for a player who stood still: the ledger records how the player moved, and the
rules-based analysis tells a player who stood still and was hurt mostly by contact to keep moving (units, and
a real window under ARCADE_HEADLESS=1 where the player only holds Space)."""

from __future__ import annotations

import math
from collections.abc import Callable

import arcade
import pytest
from window_support import frames, render, send

from game.ai.session import AiSession
from game.ai.wiring import attach
from game.analysis.ledger import STILL_S, RunLedger
from game.analysis.rules import rules_analysis
from game.app import GameApp
from game.headless import RunSummary
from game.sim import events as ev
from game.sim.config import FINAL_WAVE, TICK_HZ
from game.views.gameover import PANEL_W, GameOverView

SUMMARY = RunSummary(seed=0, seconds=28, waves_reached=1, kills=6, deaths=1, damage_taken=100.0,
                     final_score=60, ticks=28 * TICK_HZ, ticks_per_second=1.0)  # fmt: skip


def _ledger(walk: bool, source: str = "contact", accuracy: float = 0.3) -> RunLedger:
    """10 s of play, standing or walking a circle, 100 damage from ``source``, ``accuracy`` of 100 shots."""
    led = RunLedger()
    for t in range(10 * TICK_HZ):
        a = t / TICK_HZ
        led.step(
            500.0 + (200.0 * math.cos(a) if walk else 0.0), 400.0 + (200.0 * math.sin(a) if walk else 0.0)
        )
    led.collect([ev.PlayerDamaged(100.0, 0.0, source), ev.ShotFired(100), ev.EnemyHit(round(100 * accuracy))])
    return led


def test_the_ledger_counts_the_time_stood_still_and_the_distance_walked() -> None:
    still, walker = _ledger(walk=False), _ledger(walk=True)
    assert still.walked == 0.0 and still.still_share == pytest.approx(1.0 - STILL_S / 10.0, abs=0.01)
    assert walker.still_share == 0.0 and walker.walked == pytest.approx(200.0 * 10.0, rel=0.01)
    assert RunLedger().still_share is None
    assert still.facts()["stood_still_pct"] == 85 and abs(walker.facts()["walked"] - 2000) <= 5


def test_a_player_who_stood_still_under_contact_hits_is_told_to_keep_moving() -> None:
    advice = rules_analysis(SUMMARY, _ledger(walk=False)).splitlines()[-1]
    assert advice.startswith("Try next: keep moving") and "stood still 85%" in advice
    # the same run walked: the aim advice (most shots missed), as before
    assert "aim at the nearest enemy" in rules_analysis(SUMMARY, _ledger(walk=True))
    # standing still but hurt by enemy shots: not the contact advice
    assert "keep moving" not in rules_analysis(
        SUMMARY, _ledger(walk=False, source="projectile", accuracy=0.6)
    )


def test_a_won_run_reads_as_a_win_and_the_merchant_is_named_only_after_meeting_it() -> None:
    coins = {"balance": 7, "spent": 0}
    full = SUMMARY.model_copy(update={"won": True, "deaths": 0, "waves_reached": FINAL_WAVE})
    text = rules_analysis(full, _ledger(walk=True, accuracy=0.6), coins)
    assert f"all {FINAL_WAVE} waves survived." in text and "by wave" not in text
    assert text.splitlines()[-1] == "Try next: the hard preset (O on the title screen), or beat this score."
    short = rules_analysis(SUMMARY.model_copy(update={"won": True}), _ledger(walk=True, accuracy=0.6), coins)
    assert "wave 1 survived." in short and f"a full run: survive all {FINAL_WAVE} waves." in short
    # a run lost in wave 1 never met the merchant (it opens after a wave): no coin advice
    assert "merchant" not in rules_analysis(SUMMARY, _ledger(walk=True, accuracy=0.6), coins)
    later = SUMMARY.model_copy(update={"waves_reached": 3})
    assert "spend your coins at the merchant" in rules_analysis(
        later, _ledger(walk=True, accuracy=0.6), coins
    )


@pytest.mark.window
def test_the_game_over_screen_tells_a_player_who_only_held_space_to_keep_moving(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=0)
    attach(app, session)
    app.new_run()
    frames(app, 2)
    world = app.arena.world
    assert world is not None
    send(app, "on_key_press", arcade.key.SPACE, 0)  # held: the player shoots, never walks
    frames(app, 12 * TICK_HZ)
    assert world.stats.shots > 0 and world.stats.damage_taken > 0, "it shot, and the enemies reached it"
    world.player.hp = -1.0  # the end of the run (no damage event: the ledger keeps its sources)
    frames(app, 2)
    send(app, "on_key_release", arcade.key.SPACE, 0)
    frames(app, 120)  # the death banner, then the game-over screen
    view = app.window.current_view
    assert isinstance(view, GameOverView) and view.analysis is not None
    render(app)
    text = view.analysis_text()
    assert text.startswith("Hurt most: enemies reaching you (contact hits)"), text
    assert "Try next: keep moving" in text and "stood still" in text, text
    assert session.ledger.walked < 10.0
    inside = 2 * PANEL_W + 32 - 2 * 24  # the analysis box, less its margins
    rows = [lbl for lbl in view.analysis_rows if lbl.value]
    assert len(rows) == len(view.analysis_rows), "the advice fills the box's rows"
    assert " ".join(r.value for r in rows).endswith("as it follows."), "... and none is cut off"
    assert max(r.text.content_width for r in rows) <= inside, "no row runs past the box"
