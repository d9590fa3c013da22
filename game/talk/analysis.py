"""The Analyzer's grounded answer: the rules-based analysis of the run ledger is the template, and its key
numbers (the worst damage source, the accuracy) are the facts the model's phrasing must keep."""

from __future__ import annotations

import re

from game.analysis.ledger import RunLedger
from game.analysis.rules import rules_analysis
from game.headless import RunSummary
from game.talk.grounding import Grounding

SOURCE_FACTS = {"contact": "contact|touch|reaching you|close", "projectile": "shot|projectile|spit|ranged"}


def analyzer_grounding(
    summary: RunSummary, ledger: RunLedger, coins: dict[str, int] | None = None
) -> Grounding:
    template = rules_analysis(summary, ledger, coins)
    facts: list[str] = []
    worst = ledger.worst_sources()
    if worst and worst[0][1] > 0:
        facts.append(SOURCE_FACTS.get(worst[0][0], worst[0][0]))
    else:
        facts.append("nothing|no damage|not hit|untouched|unhurt")
    if ledger.accuracy is not None:
        pct = f"{ledger.accuracy:.0%}"
        facts.append(f"{pct}|{pct[:-1]} percent|{pct[:-1]} %")
    else:
        facts.append("no shots|not fire|never fired|didn't shoot|did not shoot")
    numbers = set(re.findall(r"\d+", template))
    numbers |= {
        str(summary.kills),
        str(summary.waves_reached),
        str(round(summary.seconds)),
        str(summary.final_score),
    }
    context = template
    return Grounding(
        role="Analyzer",
        question="Analyse my run.",
        intent="run",
        facts=tuple(facts),
        template=template,
        context=context,
        numbers=frozenset(numbers | {"1", "2", "3"}),
    )
