"""Start a player's turn with a role: a grounded ``TalkTurn`` for the Merchant and the Chat (a Merchant
purchase, "buy the medkit", is made at once and answered from its receipt, ``game.talk.purchase``), the tool
flow for every other role (``ChatTurn``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from game.ai.chat import ChatTurn, chat_request
from game.talk.grounding import Grounding
from game.talk.knowledge import load_knowledge
from game.talk.retrieve import KnowledgeIndex, chat_grounding
from game.talk.shelf import merchant_grounding
from game.talk.turn import TalkTurn
from game.talk.wares import ShelfView, shelf_view

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.ai.session import AiSession

TALK_ROLES = ("Merchant", "Chat")


class AnyTurn(Protocol):
    role: str
    trace_id: str
    error: str
    first_piece_s: float | None
    ended_s: float | None

    @property
    def busy(self) -> bool: ...


_ORDER = re.compile(
    r"\b(?:buy|purchase|take|sell me|give me|gimme|i'?ll have|i'?d like|i want to buy)\s+"
    r"(?:a |an |the |one |some |me )?[a-z]",
    re.I,
)
_QUESTION = re.compile(r"^\s*(?:what|which|how|can|could|do|does|is|are|should|where|why)\b", re.I)


def is_purchase(text: str, shelf: ShelfView) -> bool:
    """An order ("buy the medkit", "I'll take a magnet", "buy a rocket launcher": the tool refuses it and
    names the shelf), not a question about buying ("what can I buy?", "can I buy the medkit?")."""
    if not _ORDER.search(text) or text.rstrip().endswith("?") or _QUESTION.search(text):
        return False
    return not re.search(
        r"\b(?:buy|purchase|take|me|have|like)\s+(?:anything|something|what|more)\b", text, re.I
    )


@lru_cache(maxsize=1)
def knowledge_index() -> KnowledgeIndex:
    return KnowledgeIndex(load_knowledge())


def grounding_for(session: AiSession, role: str, text: str) -> Grounding | None:
    """The grounding of a player's message to ``role`` (main thread: it reads the shop, and an order buys),
    or None when the role answers through its tools instead."""
    if role == "Merchant":
        shop = session.shop
        if shop is None:
            return None
        shelf = shelf_view(shop.shop)
        if is_purchase(text, shelf):
            from game.talk.purchase import purchase_grounding

            return purchase_grounding(text, shop)  # bought (or refused) now; the reply is the receipt
        return merchant_grounding(text, shelf)
    if role == "Chat":
        return chat_grounding(text, knowledge_index())
    return None


def start_turn(
    session: AiSession, role: str, text: str, on_piece: Callable[[str], None] | None = None
) -> ChatTurn | TalkTurn:
    runtime = session.runtime
    grounding = grounding_for(session, role, text)
    if grounding is None:
        grounded = {"Programmer": session.programmer, "Creator": session.creator}  # game.agents
        queue = grounded.get(role, runtime.tasks)
        return ChatTurn(queue, runtime.events, chat_request(role, text), on_piece=on_piece)
    talk = session.settings.talk
    dec = talk.decoding(role)

    def remember(final: str) -> None:  # the chat panel shows a role's stored turns when it is picked again
        runtime.memory.append_turn(role, text, final)

    if not talk.model_phrasing or grounding.intent.startswith(("bought", "refused")):
        return TalkTurn(None, None, grounding, dec, on_piece=on_piece, on_final=remember)
    return TalkTurn(
        runtime.tasks,
        runtime.events,
        grounding,
        dec,
        deadline_s=dec.deadline_s,
        on_piece=on_piece,
        template_first=talk.show_template_first,
        on_final=remember,
    )
