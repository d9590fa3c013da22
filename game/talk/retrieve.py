"""The Chat's grounded answer: the knowledge entries nearest to the question (BM25 over words).

``KnowledgeIndex(entries).search(question)`` ranks entries; ``chat_grounding`` takes the best one as the
answer (its text is the template, its facts what a right reply holds) and one runner-up as context. A
question that matches nothing well (small talk) gets a friendly line and the topics it can answer.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from game.talk.facts import FactBase
from game.talk.grounding import Grounding
from game.talk.knowledge import Entry

_WORD = re.compile(r"[a-z0-9]+")
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "do",
        "does",
        "did",
        "i",
        "me",
        "my",
        "you",
        "your",
        "it",
        "its",
        "how",
        "what",
        "which",
        "who",
        "when",
        "where",
        "why",
        "can",
        "could",
        "should",
        "would",
        "will",
        "with",
        "by",
        "from",
        "this",
        "that",
        "these",
        "there",
        "any",
        "some",
        "about",
        "tell",
        "please",
        "hey",
        "hi",
        "so",
        "get",
        "use",
        "up",
        "out",
        "into",
        "than",
        "then",
        "just",
    ]
)
SYNONYMS = {
    "shooting": "shoot",
    "gun": "weapon",
    "guns": "weapon",
    "weapons": "weapon",
    "walk": "move",
    "moving": "move",
    "movement": "move",
    "run": "move",
    "dodge": "dash",
    "roll": "dash",
    "enemies": "enemy",
    "monsters": "enemy",
    "monster": "enemy",
    "mobs": "enemy",
    "money": "coins",
    "gold": "coins",
    "coin": "coins",
    "store": "shop",
    "buy": "shop",
    "merchant": "shop",
    "evolve": "evolves",
    "evolution": "evolves",
    "evolutions": "evolves",
    "keys": "key",
    "button": "key",
    "buttons": "key",
    "mods": "mod",
    "modding": "mod",
    "scripts": "lua",
    "script": "lua",
    "controls": "control",
}
MIN_SCORE = 1.2
DOC_WEIGHT = 0.8  # the skill docs' paragraphs count less than the game's data and the F1 help
MOD_WEIGHT = 0.8  # a shipped mod's entry counts less than the base game's: mods are optional


def stem(w: str) -> str:
    if len(w) > 5 and w.endswith(("shes", "ches", "xes", "sses")):
        return w[:-2]
    if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def words(text: str) -> list[str]:
    """A text's search words: lower case, stop words dropped, plurals folded."""
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOP]


def query_words(text: str) -> set[str]:
    """A question's words, each with its synonym ("gun" also looks for "weapon")."""
    out: set[str] = set()
    for w in _WORD.findall(text.lower()):
        if w in STOP:
            continue
        out |= {stem(w), stem(SYNONYMS.get(w, w))}
    return out


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: float


class KnowledgeIndex:
    def __init__(self, entries: list[Entry], k1: float = 1.2, b: float = 0.6) -> None:
        self.entries = entries
        self.k1, self.b = k1, b
        self.docs = [Counter(words(f"{e.title} {e.title} {e.text} {e.keys} {e.topic}")) for e in entries]
        self.avg = sum(sum(d.values()) for d in self.docs) / max(1, len(self.docs))
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    def search(self, question: str, k: int = 3) -> list[Hit]:
        q = query_words(question)
        q = (q - FRAME_WORDS) or q  # "how does the shop work": the shop, not whatever says "work"
        hits = []
        for entry, doc in zip(self.entries, self.docs, strict=True):
            length = sum(doc.values())
            score = 0.0
            for w in q:
                tf = doc.get(w, 0)
                if tf:
                    score += (
                        self.idf[w]
                        * tf
                        * (self.k1 + 1)
                        / (tf + self.k1 * (1 - self.b + self.b * length / self.avg))
                    )
            doc_text = ":" in entry.id and "." in entry.id.split(":", 1)[1]  # a skill-doc paragraph
            if doc_text and not q & (set(words(entry.keys)) - set(words(entry.title))):
                continue  # a skill doc answers only a question in its subject ("save a file" is a mod's)
            if score > 0:
                a_mod = entry.id.startswith("mod:") and entry.id != "mod:all"  # optional: may be off
                hits.append(Hit(entry, score * (DOC_WEIGHT if doc_text else MOD_WEIGHT if a_mod else 1.0)))
        hits.sort(key=lambda h: -h.score)
        return hits[:k]


# words a question may use that the game's text never does, and that still ask nothing new
ASKING_VERBS = frozenset(
    ["take", "happen", "give", "get", "make", "play", "need", "want", "use", "work", "mean", "tell", "know"]
)
# words that frame a question and say nothing of its subject ("how does X work", "what happens if")
FRAME_WORDS = frozenset(["work", "happen", "mean", "tell", "know"])
UNKNOWN = (
    "I don't know that: it is not in what the game tells me. Ask me about the controls, the enemies, weapons "
    "and evolutions, the shop and coins, the AI director or mods."
)
SMALL_TALK = (
    "I'm the arena's announcer! Ask me about the controls, the enemies, weapons and evolutions, the shop and "
    "coins, the AI director or mods."
)


TIE = 0.9  # hits scoring within this share of the best are a tie: no one of them is what was asked


def _overview(hits: list[Hit]) -> Entry | None:
    """A question that names a topic but no one thing in it ("which mods are there?") scores the topic's
    entries about alike; then the topic's list entry (``<topic>:all``) is the answer, if it is among them."""
    tied = [h for h in hits if h.score >= TIE * hits[0].score]
    if len(tied) < 2 or len({h.entry.topic for h in tied}) > 1:  # a tie across topics is no topic question
        return None
    return next((h.entry for h in tied if h.entry.id.endswith(":all")), None)


def _asks_what_the_game_never_says(question: str, index: KnowledgeIndex, best: Entry, base: FactBase) -> bool:
    """A question with a word the game's text never uses ("co-op", "story"; asking verbs aside) that the best
    entry does not answer in full: the nearest entry would answer another question."""
    asked = query_words(question)
    foreign = [w for w in asked if w not in index.idf and w not in base.names and w not in ASKING_VERBS]
    doc = index.docs[index.entries.index(best)]
    return bool(foreign) and any(w not in doc for w in asked)


def chat_grounding(question: str, index: KnowledgeIndex, base: FactBase | None = None) -> Grounding:
    """The Chat's grounded answer: a question over the data (a count, a comparison, a stat, something the
    game lacks, a rule of the game, how to fight a kind) first, else the nearest knowledge entry."""
    from game.talk.query import data_answer
    from game.talk.said import grounded_claims, grounding

    base = base or FactBase.load()
    said = data_answer(question, base, "Chat")
    if said is not None:
        return grounding(said, "Chat", question, base)
    hits = index.search(question)
    if not hits or hits[0].score < MIN_SCORE:
        claims = grounded_claims(SMALL_TALK, base)
        return Grounding(
            "Chat", question, "small_talk", (), SMALL_TALK, "- " + SMALL_TALK, claims=claims, base=base
        )
    best = _overview(hits) or hits[0].entry
    if _asks_what_the_game_never_says(question, index, best, base):
        claims = grounded_claims(UNKNOWN, base)
        return Grounding(
            "Chat", question, "unknown", ("don't know",), UNKNOWN, "- " + UNKNOWN, claims=claims, base=base
        )
    context = "\n".join(f"- {h.entry.text}" for h in hits[:2])
    claims = grounded_claims(best.text, base)
    return Grounding("Chat", question, best.id, best.facts, best.text, context, claims=claims, base=base)
