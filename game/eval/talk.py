"""``python -m game.eval talk``: does every agent a player talks to give a true, useful answer?

The questions are data (``assets/talk/questions*.jsonl``, one file per set): Merchant and Chat questions
with the facts a right answer must hold and the kind of question (a lookup, a count, a comparison, a
superlative, absence, a need, a rule, how to fight a kind, a purchase), and Analyzer runs (a run summary and
ledger) with the facts its analysis must keep. Each question has a ``tuned`` flag: the code and prompts were
tuned on the tuned questions only, and the report shows each set's tuned and held-out questions apart.
Every reply shown is read by the claim reader (``game.talk.claims``) and each false claim is listed; so is
every false claim the talk guard caught in a model's rewrite (the reply then shown is the grounded one).

Every question goes through the game's own path in one headless session (the chat panel's ``start_turn``,
the game-over screen's ``RunAnalysis``) on each backend asked for. ``--legacy`` runs the path as it was
before grounded talk (the Merchant's get_inventory tool flow, the Chat's full role prompt, the Analyzer's
run numbers as instructions), for the before/after table. Reported per backend and split: the share of
replies shown that hold the right facts, degenerate replies shown (a repeat, raw tool output, empty: listed),
guard replacements, and latency to the first words and to the end, p50/p95.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from coreai.paths import shipped_dir
from coreai.persist import loads_json
from game.talk.grounding import missing_facts
from game.talk.guard import RAW
from game.talk.repeat import repeats

LEGACY_ANALYZER = (  # the game-over request as it was before grounded talk
    "The run just ended. Write the player a short analysis of it in at most three short lines: "
    "1) what hurt most, 2) their accuracy, 3) one concrete thing to try next run. Use only these numbers "
    "(damage_by_source: contact = enemies touching the player, projectile = enemy shots; stood_still_pct = "
    "share of the run the player stood still, walked = distance it moved):\n"
)


# unknown: a question the game's data cannot answer (a right reply says so and claims nothing)
KINDS = r"^(lookup|count|compare|most|absent|need|rule|fight|buy|list|small_talk|run|unknown)$"


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    role: str = Field(pattern=r"^(Merchant|Chat|Analyzer)$")
    question: str
    facts: tuple[str, ...]
    tuned: bool
    coins: int = 0
    run: dict[str, float] | None = None
    kind: str = Field(default="lookup", pattern=KINDS)
    set: str = Field(default="v1", pattern=r"^[a-z0-9-]{1,20}$")  # which question set it belongs to


def load_questions(path: Path | None = None) -> list[Question]:
    """The question sets: ``path``, or every ``assets/talk/questions*.jsonl`` in name order."""
    sources = [path] if path is not None else sorted(shipped_dir("assets", "talk").glob("questions*.jsonl"))
    out = []
    for source in sources:
        lines = source.read_text(encoding="utf-8").splitlines()
        out += [Question.model_validate(loads_json(line)) for line in lines if line.strip()]
    return out


@dataclass
class Answer:
    q: Question
    reply: str
    right: bool
    degenerate: str  # "" or why ("repeat", "raw", "empty")
    replaced: bool
    first_s: float
    end_s: float
    model_reply: str = ""
    note: str = ""
    false: list[str] = field(default_factory=list)  # false claims in the reply shown (claim reader)
    caught: str = ""  # the guard's reasons when it replaced the model's rewrite


def degenerate(reply: str) -> str:
    text = reply.strip()
    if not text:
        return "empty"
    if RAW.search(text):
        return "raw"
    if repeats(text):
        return "repeat"
    return ""


def _run(q: Question) -> tuple[Any, Any]:
    from game.analysis.ledger import RunLedger
    from game.headless import RunSummary

    r = q.run or {}
    ticks = int(r.get("ticks", 60 * r.get("seconds", 60)))
    summary = RunSummary(
        seed=0,
        seconds=r["seconds"],
        waves_reached=int(r["waves"]),
        kills=int(r["kills"]),
        deaths=1,
        damage_taken=r["contact"] + r["projectile"],
        final_score=int(r["score"]),
        ticks=ticks,
        ticks_per_second=60.0,
    )
    ledger = RunLedger(
        damage_by_source={k: float(r[k]) for k in ("contact", "projectile") if r.get(k)},
        shots=int(r["shots"]),
        hits=int(r["hits"]),
        ticks=ticks,
        still_ticks=int(r.get("still", 0)),
    )
    return summary, ledger


@dataclass
class Harness:
    backend: str
    legacy: bool = False
    session: Any = None
    world: Any = None
    timings: list[float] = field(default_factory=list)

    def __enter__(self) -> Harness:
        from coreai.settings import load_settings
        from game.ai.session import AiSession
        from game.options import LaunchOptions

        routes = {r: self.backend for r in ("Merchant", "Chat", "Analyzer")}
        base = load_settings()  # the [talk] section of the player's settings file (tuning runs use their own)
        llm = base.llm.model_copy(update={"default_backend": "stub", "backends": routes})
        settings = base.model_copy(update={"llm": llm})
        self.session = AiSession(
            LaunchOptions(headless=True, seed=1), settings=settings, configure_logs=False
        )
        got = self.session.runtime.router.backend_for("Merchant")
        if got != self.backend:
            why = self.session.backends.reasons.get(self.backend, "not configured")
            self.session.close()
            raise RuntimeError(f"backend {self.backend} is unavailable: {why}")
        self.world = self.session.world_factory(1)
        self.session.on_run_start(self.world)
        return self

    def __exit__(self, *exc: object) -> None:
        self.session.close()

    def _pump(self, busy: Any, limit_s: float) -> None:
        end = time.monotonic() + limit_s
        while busy() and time.monotonic() < end:
            self.session.on_frame(self.world, 0.0)
            time.sleep(0.005)

    def ask(self, q: Question) -> Answer:
        if q.role == "Analyzer":
            return self._analyse(q)
        shop = self.session.shop
        if shop is not None:
            shop.shop.reset()
            shop.shop.open = True
            shop.shop.purse.balance = q.coins
        started = time.perf_counter()
        if self.legacy:
            from game.ai.chat import ChatTurn, chat_request

            runtime = self.session.runtime
            turn: Any = ChatTurn(runtime.tasks, runtime.events, chat_request(q.role, q.question))
        else:
            from game.talk.start import start_turn

            turn = start_turn(self.session, q.role, q.question)
        self._pump(lambda: turn.busy, 60.0)
        if turn.busy:
            turn.stop()
        reply = turn.text().strip()
        end = turn.ended_s if turn.ended_s is not None else time.perf_counter() - started
        first = turn.first_piece_s if turn.first_piece_s is not None else end
        answer = self._score(
            q,
            reply,
            bool(getattr(turn, "replaced", False)),
            first,
            end,
            getattr(turn, "model_text", ""),
            getattr(turn, "note", ""),
        )
        grounding = getattr(turn, "grounding", None)
        answer.false = _false(reply, grounding)
        verdict = getattr(turn, "verdict", None)
        if answer.replaced and verdict is not None and "claims" in verdict.reasons:
            answer.caught = verdict.detail
        return answer

    def _analyse(self, q: Question) -> Answer:
        summary, ledger = _run(q)
        started = time.perf_counter()
        if self.legacy:
            return self._legacy_analyse(q, summary, ledger, started)
        from game.analysis.analyst import RunAnalysis

        analysis = RunAnalysis(self.session, summary, ledger)
        first: float | None = None
        end_at = time.monotonic() + 30.0
        while analysis.busy and time.monotonic() < end_at:
            analysis.pump()
            if first is None and analysis.text().strip():
                first = time.perf_counter() - started
            time.sleep(0.005)
        analysis.pump()
        end = time.perf_counter() - started
        return self._score(
            q, analysis.text(), False, first if first is not None else end, end, "", analysis.note
        )

    def _legacy_analyse(self, q: Question, summary: Any, ledger: Any, started: float) -> Answer:
        from coreai.requests import AiTaskRequest
        from game.ai.chat import ChatTurn
        from game.analysis.rules import rules_analysis, run_facts

        if self.session.runtime.router.backend_for("Analyzer") == "stub":  # the screen showed the rules
            return self._score(q, rules_analysis(summary, ledger, {}), False, 0.0, 0.0, "", "rules (stub)")
        facts = json.dumps(run_facts(summary, ledger, {}), sort_keys=True)
        request = AiTaskRequest(
            role="Analyzer",
            hint="Analyse my run.",
            instructions=LEGACY_ANALYZER + facts,
            allowed_tools=[],
            cancellation_scope="analysis",
            stream=True,
            priority=5,
        )
        runtime = self.session.runtime
        turn = ChatTurn(runtime.tasks, runtime.events, request)
        timeout = self.session.settings.game.analysis_timeout_s
        self._pump(lambda: turn.busy, timeout)
        late = turn.busy
        if late:
            turn.stop()
        text = turn.text().strip()
        end = time.perf_counter() - started
        first = turn.first_piece_s if turn.first_piece_s is not None else end
        if (late and len(text) < 60) or not text:  # the screen showed the rules-based analysis
            return self._score(q, rules_analysis(summary, ledger, {}), True, first, end, text, "rules (late)")
        return self._score(q, text, False, first, end, text, "")

    def _score(
        self, q: Question, reply: str, replaced: bool, first: float, end: float, model: str, note: str
    ) -> Answer:
        return Answer(
            q, reply, not missing_facts(reply, q.facts), degenerate(reply), replaced, first, end, model, note
        )


def _false(reply: str, grounding: Any) -> list[str]:
    """The false claims in a reply shown, judged against the live state it was answered in."""
    from game.talk.claims import false_claims
    from game.talk.facts import FactBase

    base = getattr(grounding, "base", None) or FactBase.load()
    return [f"{c.said or c}: {why}" for c, why in false_claims(reply, base)]


def evaluate(
    backend: str, questions: list[Question], *, legacy: bool = False, progress: Any = None
) -> list[Answer]:
    out = []
    with Harness(backend, legacy) as h:
        for i, q in enumerate(questions):
            out.append(h.ask(q))
            if progress is not None:
                progress(i + 1, len(questions), q.id)
    return out
