"""``python -m game.eval talk``: does every agent a player talks to give a true, useful answer?

The questions are data (``assets/talk/questions.jsonl``): Merchant and Chat questions with the facts a right
answer must hold, and Analyzer runs (a run summary and ledger) with the facts its analysis must keep. Each
question has a ``tuned`` flag: the prompts, decoding defaults and retrieval were tuned on the tuned half
only, and the report shows the tuned and the held-out half apart.

Every question goes through the game's own path in one headless session (the chat panel's ``start_turn``,
the game-over screen's ``RunAnalysis``) on each backend asked for. ``--legacy`` runs the path as it was
before grounded talk (the Merchant's get_inventory tool flow, the Chat's full role prompt, the Analyzer's
run numbers as instructions), for the before/after table. Reported per backend and split: the share of
replies shown that hold the right facts, degenerate replies shown (a repeat, raw tool output, empty: listed),
guard replacements, and latency to the first words and to the end, p50/p95.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from coreai.paths import shipped
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


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    role: str = Field(pattern=r"^(Merchant|Chat|Analyzer)$")
    question: str
    facts: tuple[str, ...]
    tuned: bool
    coins: int = 0
    run: dict[str, float] | None = None


def load_questions(path: Path | None = None) -> list[Question]:
    source = path or shipped("assets", "talk", "questions.jsonl")
    lines = source.read_text(encoding="utf-8").splitlines()
    return [Question.model_validate(loads_json(line)) for line in lines if line.strip()]


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
        return self._score(
            q,
            reply,
            bool(getattr(turn, "replaced", False)),
            first,
            end,
            getattr(turn, "model_text", ""),
            getattr(turn, "note", ""),
        )

    def _analyse(self, q: Question) -> Answer:
        summary, ledger = _run(q)
        started = time.perf_counter()
        if self.legacy:
            return self._legacy_analyse(q, summary, ledger, started)
        from game.analysis.analyst import RunAnalysis

        analysis = RunAnalysis(self.session, summary, ledger)
        first: float | None = None
        end_at = time.monotonic() + analysis.timeout_s + 5
        while analysis.busy and time.monotonic() < end_at:
            analysis.pump()
            if first is None and analysis.text().strip():
                first = time.perf_counter() - started
            time.sleep(0.005)
        analysis.pump()
        end = time.perf_counter() - started
        turn = analysis.turn
        replaced = turn is not None and analysis.source == "rules"  # the stub shows the rules by design
        return self._score(
            q,
            analysis.text(),
            replaced,
            first if first is not None else end,
            end,
            turn.model_text if turn else "",
            analysis.note,
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


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


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


def format_table(rows: list[tuple[str, list[Answer]]]) -> str:
    head = (
        "| backend | role | split | n | right facts | degenerate shown | guard replaced "
        "| first words p50/p95 s "
        "| end p50/p95 s |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for label, answers in rows:
        for role in ("Merchant", "Chat", "Analyzer"):
            for split, tuned in (("tuned", True), ("held-out", False)):
                group = [a for a in answers if a.q.role == role and a.q.tuned == tuned]
                if not group:
                    continue
                right = sum(a.right for a in group)
                bad = sum(bool(a.degenerate) for a in group)
                swapped = sum(a.replaced for a in group)
                firsts = [a.first_s for a in group]
                ends = [a.end_s for a in group]
                lines.append(
                    f"| {label} | {role} | {split} | {len(group)} "
                    f"| {right}/{len(group)} ({right / len(group):.0%}) "
                    f"| {bad} | {swapped} | {statistics.median(firsts):.2f} / {_pct(firsts, 0.95):.2f} "
                    f"| {statistics.median(ends):.2f} / {_pct(ends, 0.95):.2f} |"
                )
    return head + "\n".join(lines)


def format_degenerate(rows: list[tuple[str, list[Answer]]], show: int = 8) -> str:
    out: list[str] = []
    for label, answers in rows:
        bad = [a for a in answers if a.degenerate]
        out.extend(f"- {label} {a.q.id} ({a.degenerate}): {a.reply[:160]!r}" for a in bad[:show])
        if len(bad) > show:
            out.append(f"- {label}: {len(bad) - show} more")
    return "Degenerate replies shown:\n" + ("\n".join(out) if out else "- none")


def bar_progress(bar: Any) -> Any:
    return lambda i, n, name: bar.update(i, name)


def run_talk(
    backends: list[str],
    *,
    legacy: bool = False,
    roles: set[str] | None = None,
    limit: int = 0,
    split: str = "all",
    out: Path | None = None,
) -> int:
    from game.eval.progress import ProgressBar

    questions = [q for q in load_questions() if roles is None or q.role in roles]
    if split != "all":
        questions = [q for q in questions if q.tuned == (split == "tuned")]
    if limit:
        per: dict[str, int] = {}
        kept = []
        for q in questions:
            if per.get(q.role, 0) < limit:
                kept.append(q)
                per[q.role] = per.get(q.role, 0) + 1
        questions = kept
    rows = []
    for backend in backends:
        label = f"{backend}{' (before)' if legacy else ''}"
        bar = ProgressBar(len(questions), f"talk[{label}]")
        try:
            answers = evaluate(backend, questions, legacy=legacy, progress=bar_progress(bar))
        except RuntimeError as exc:
            bar.close()
            sys.stdout.write(f"{backend}: not evaluated ({exc})\n")
            continue
        bar.close()
        rows.append((label, answers))
    sys.stdout.write(format_table(rows) + "\n\n" + format_degenerate(rows) + "\n")
    if out is not None:
        data = [
            {
                "backend": label,
                "id": a.q.id,
                "role": a.q.role,
                "tuned": a.q.tuned,
                "question": a.q.question,
                "reply": a.reply,
                "right": a.right,
                "degenerate": a.degenerate,
                "replaced": a.replaced,
                "model_reply": a.model_reply,
                "note": a.note,
                "first_s": round(a.first_s, 3),
                "end_s": round(a.end_s, 3),
            }
            for label, answers in rows
            for a in answers
        ]
        out.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in data), encoding="utf-8")
    return 0
