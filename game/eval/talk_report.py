"""The talk evaluation's report: the table per backend, role, question set and split; the false claims in
replies shown; the false claims the guard caught in the model's rewrites; degenerate replies; the answers
as JSONL (``--out``)."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from game.eval.talk import Answer, evaluate, load_questions


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def split_of(a: Answer) -> str:
    return "tuned" if a.q.tuned else "held-out"


def format_table(rows: list[tuple[str, list[Answer]]]) -> str:
    head = (
        "| backend | role | set | split | n | right facts | false claims shown | degenerate shown "
        "| guard replaced | first words p50/p95 s | end p50/p95 s |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for label, answers in rows:
        sets = list(dict.fromkeys(a.q.set for a in answers))
        for role in ("Merchant", "Chat", "Analyzer"):
            for qset in sets:
                for split in ("tuned", "held-out"):
                    group = [
                        a for a in answers if a.q.role == role and a.q.set == qset and split_of(a) == split
                    ]
                    if group:
                        lines.append(_row(label, role, qset, split, group))
    return head + "\n".join(lines)


def _row(label: str, role: str, qset: str, split: str, group: list[Answer]) -> str:
    right = sum(a.right for a in group)
    false = sum(bool(a.false) for a in group)
    bad = sum(bool(a.degenerate) for a in group)
    swapped = sum(a.replaced for a in group)
    firsts = [a.first_s for a in group]
    ends = [a.end_s for a in group]
    return (
        f"| {label} | {role} | {qset} | {split} | {len(group)} "
        f"| {right}/{len(group)} ({right / len(group):.0%}) | {false} | {bad} | {swapped} "
        f"| {statistics.median(firsts):.2f} / {_pct(firsts, 0.95):.2f} "
        f"| {statistics.median(ends):.2f} / {_pct(ends, 0.95):.2f} |"
    )


def format_kinds(rows: list[tuple[str, list[Answer]]]) -> str:
    """Right answers per kind of question, for each backend's newest question set (Merchant and Chat)."""
    out = [
        "| backend | set | split | kind | n | right | false claims shown |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, answers in rows:
        newest = list(dict.fromkeys(a.q.set for a in answers))[-1]
        for split in ("tuned", "held-out"):
            group = [
                a for a in answers if a.q.set == newest and split_of(a) == split and a.q.role != "Analyzer"
            ]
            for kind in dict.fromkeys(a.q.kind for a in group):
                some = [a for a in group if a.q.kind == kind]
                right, false = sum(a.right for a in some), sum(bool(a.false) for a in some)
                out.append(
                    f"| {label} | {newest} | {split} | {kind} | {len(some)} | {right}/{len(some)} | {false} |"
                )
    return "\n".join(out)


def format_lists(rows: list[tuple[str, list[Answer]]], show: int = 12) -> str:
    out: list[str] = ["False claims in replies shown (claim reader):"]
    found = [(label, a) for label, answers in rows for a in answers if a.false]
    out += [f"- {label} {a.q.id}: {a.reply[:140]!r}: {'; '.join(a.false)}" for label, a in found] or [
        "- none"
    ]
    out.append("False claims the talk guard caught in the model's rewrites (the grounded answer showed):")
    caught = [(label, a) for label, answers in rows for a in answers if a.caught]
    out += [
        f"- {label} {a.q.id} [{split_of(a)}]: model said {a.model_reply[:140]!r}: {a.caught}"
        for label, a in caught
    ] or ["- none"]
    out.append("Degenerate replies shown:")
    bad = [(label, a) for label, answers in rows for a in answers if a.degenerate]
    out += [f"- {label} {a.q.id} ({a.degenerate}): {a.reply[:160]!r}" for label, a in bad[:show]] or [
        "- none"
    ]
    if len(bad) > show:
        out.append(f"- {len(bad) - show} more")
    wrong = [(label, a) for label, answers in rows for a in answers if not a.right]
    out.append("Replies that miss the facts:")
    out += [f"- {label} {a.q.id}: {a.q.question!r} -> {a.reply[:160]!r}" for label, a in wrong] or ["- none"]
    return "\n".join(out)


def bar_progress(bar: Any) -> Any:
    return lambda i, n, name: bar.update(i, name)


def run_talk(
    backends: list[str],
    *,
    legacy: bool = False,
    roles: set[str] | None = None,
    limit: int = 0,
    split: str = "all",
    sets: set[str] | None = None,
    out: Path | None = None,
) -> int:
    from game.eval.progress import ProgressBar

    questions = [
        q for q in load_questions() if (roles is None or q.role in roles) and (sets is None or q.set in sets)
    ]
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
    sys.stdout.write(format_table(rows) + "\n\n" + format_kinds(rows) + "\n\n" + format_lists(rows) + "\n")
    if out is not None:
        data = [
            {
                "backend": label,
                "id": a.q.id,
                "set": a.q.set,
                "kind": a.q.kind,
                "role": a.q.role,
                "tuned": a.q.tuned,
                "question": a.q.question,
                "reply": a.reply,
                "right": a.right,
                "false_claims": a.false,
                "degenerate": a.degenerate,
                "replaced": a.replaced,
                "guard_caught": a.caught,
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
