"""The tiny grounded prompt: the model is asked to rewrite the grounded answer in the role's voice.

No tool contracts, no memory, no world dump: the question and the grounded answer (with the facts it rests
on), well under 200 tokens, so a 135M model on two cores starts at once. Asked to answer "using these facts",
the bundled model mostly talked past them; asked to rewrite a given answer, it kept the names and numbers
far more often (measured on the tuned questions). ``ANSWER`` marks the grounded answer; the offline stub
answers with it.
"""

from __future__ import annotations

from coreai.requests import AiTaskRequest, Decoding, new_trace_id
from coreai.settings import TalkDecoding
from game.talk.grounding import Grounding

ANSWER = "\nAnswer: "
REWRITE = "\nRewrite the answer"
VOICE = {
    "Merchant": "You rewrite a travelling merchant's answer in a warm, wry voice. "
    "Keep every name and number.",
    "Chat": "You rewrite the arena announcer's answer in a cheerful voice. Keep every name, key and number.",
    "Analyzer": "You rewrite a coach's notes on the player's run in a friendly voice. Keep every number.",
}


def messages(g: Grounding, max_sentences: int) -> tuple[str, str]:
    """(system, user) for the grounded rewrite."""
    system = VOICE.get(g.role, VOICE["Chat"])
    n = {1: "one short sentence", 2: "one or two short sentences"}.get(
        max_sentences, f"{max_sentences} short sentences"
    )
    user = f"Question: {g.question}{ANSWER}{g.template}{REWRITE} in {n}."
    return system, user


def talk_request(g: Grounding, dec: TalkDecoding, *, scope: str, priority: int = 10) -> AiTaskRequest:
    system, user = messages(g, dec.max_sentences)
    return AiTaskRequest(
        role=g.role,
        hint=user,
        system=system,
        decoding=Decoding(
            temperature=dec.temperature,
            max_tokens=dec.max_tokens,
            repeat_penalty=dec.repeat_penalty,
            top_k=dec.top_k,
        ),
        allowed_tools=[],
        cancellation_scope=scope,
        trace_id=new_trace_id(),
        stream=True,
        priority=priority,
    )


def suggested(user: str) -> str | None:
    """The grounded answer inside a grounded rewrite request (what the offline stub says), else None."""
    at, end = user.find(ANSWER), user.rfind(REWRITE)
    if at < 0 or end < at or not user.startswith("Question: "):
        return None
    return user[at + len(ANSWER) : end].strip()
