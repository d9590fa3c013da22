"""The rules-based run analysis: three lines from the ledger, used when no model answers in time (and as
the numbers the Analyzer is given). Deterministic: the same run always reads the same."""

from __future__ import annotations

from typing import Any

from game.analysis.ledger import RunLedger
from game.headless import RunSummary
from game.sim.config import FINAL_WAVE

SOURCE_WORDS = {"contact": "enemies reaching you (contact hits)", "projectile": "enemy shots"}
STILL_SHARE = 0.5  # a player who stood still this much of the run, hurt most by contact, is told to move


def run_facts(summary: RunSummary, ledger: RunLedger, coins: dict[str, int] | None = None) -> dict[str, Any]:
    return {
        "wave_reached": summary.waves_reached,
        "won": summary.won,
        "seconds": round(summary.seconds),
        "kills": summary.kills,
        "score": summary.final_score,
        "level": summary.level,
        "upgrades": summary.upgrades,
        **ledger.facts(),
        **({"coins": coins} if coins else {}),
    }


def _advice(summary: RunSummary, ledger: RunLedger, top: str | None, coins: dict[str, int]) -> str:
    acc = ledger.accuracy
    still = ledger.still_share
    if top == "contact" and still is not None and still >= STILL_SHARE:
        return (
            f"keep moving (WASD): you stood still {still:.0%} of the run, and an enemy touching you hits "
            "twice a second. Walk away from the crowd and shoot it as it follows."
        )
    if summary.won:
        return (
            f"a full run: survive all {FINAL_WAVE} waves."
            if summary.waves_reached < FINAL_WAVE
            else "the hard preset (O on the title screen), or beat this score."
        )
    # the merchant opens after each wave but the last: a run that ended in wave 1 never met it
    if coins.get("balance", 0) >= 6 and coins.get("spent", 0) == 0 and summary.waves_reached > 1:
        return f"spend your coins at the merchant between waves ({coins['balance']} went unspent)."
    if acc is not None and acc < 0.35:
        return "aim at the nearest enemy and fire in bursts: most shots missed."
    if top == "contact":
        return "keep moving in wide circles and dash out when surrounded; take Light Boots."
    if top == "projectile":
        return "close in on the ranged enemies first and dash through their volleys."
    if summary.waves_reached <= 2:
        return "stay near the middle and keep moving; pick damage or fire rate first."
    return "take Vitality or Regeneration earlier to survive the later waves."


def rules_analysis(summary: RunSummary, ledger: RunLedger, coins: dict[str, int] | None = None) -> str:
    coins = coins or {}
    total = sum(ledger.damage_by_source.values())
    top = ledger.worst_sources()[0][0] if total > 0 else None
    if top is None:
        hurt = "Hurt most: nothing hit you."
    else:
        share = ledger.damage_by_source[top]
        hurt = f"Hurt most: {SOURCE_WORDS.get(top, top)}, {share:.0f} of {total:.0f} damage."
    acc = ledger.accuracy
    n = summary.waves_reached
    survived = f"all {n} waves survived" if n > 1 else "wave 1 survived"
    kills = f"{summary.kills} kills, {survived}" if summary.won else f"{summary.kills} kills by wave {n}"
    aim = (
        "Accuracy: no shots fired." + (f" {summary.kills} kills, {survived}." if summary.won else "")
        if acc is None
        else f"Accuracy: {acc:.0%} ({min(ledger.hits, ledger.shots)} of {ledger.shots} shots hit), {kills}."
    )
    return "\n".join((hurt, aim, "Try next: " + _advice(summary, ledger, top, coins)))
