"""One generation on a local model's owner thread: a queued job in, chunks and an ``LlmResult`` out.

Only the owner thread of a ``LocalLlmClient`` calls ``generate``. It always streams from llama.cpp so that a
cancelled or abandoned job stops between two tokens, splits ``<think>`` spans off as it goes, and reports
what the request cost (prompt tokens, tokens taken from the KV state or prompt cache, completion tokens).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from coreai.errors import ContextOverflow, LlmError, LlmErrorCode
from coreai.llm.local_grammar import compact_grammar, forced_start
from coreai.llm.local_prompt import PreparedPrompt, finish_reply, prepare_prompt
from coreai.llm.local_reply_stream import ReplyStream
from coreai.llm.replies import ThinkSplitter
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult, Usage

Event = LlmChunk | LlmResult | LlmError
_OVERFLOW = re.compile(r"Requested tokens \((\d+)\) exceed context window of (\d+)")


def failure(exc: Exception, backend: str, trace_id: str, log: Any) -> LlmError:
    """The ``LlmError`` a failed job answers with: an ``LlmError`` keeps its code (and gets the trace id), a
    context overflow from llama.cpp is ``ContextOverflow``, anything else a logged ``MALFORMED_OUTPUT``.
    Call it inside the ``except`` block (the traceback is logged)."""
    trace = trace_id or None
    if isinstance(exc, LlmError):
        plain = exc.message.split(": ", 1)[-1]
        return exc if exc.trace_id else LlmError(exc.code, plain, backend=backend, trace_id=trace)
    if (m := _OVERFLOW.search(str(exc))) is not None:
        overflow = ContextOverflow(int(m.group(1)), int(m.group(2)), backend=backend, trace_id=trace)
        log.bind(trace_id=trace_id).error("{}", overflow)
        return overflow
    log.bind(trace_id=trace_id).exception("local generation failed")
    return LlmError(
        LlmErrorCode.MALFORMED_OUTPUT, f"generation failed: {exc}", backend=backend, trace_id=trace
    )


@dataclass
class LocalJob:
    """A request waiting for, or running on, the owner thread; ``out`` carries its chunks and its end."""

    request: LlmRequest
    streaming: bool
    out: queue.Queue[Event] = field(default_factory=queue.Queue)
    abort: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)
    prefill: bool = False  # only evaluate the prompt's first message (``prefill``), no reply

    def stopped(self) -> bool:
        return self.abort.is_set() or self.request.cancel.is_set()


@dataclass(frozen=True)
class RunCost:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0
    prompt_eval_s: float = 0.0
    cancelled: bool = False


def generate(
    llm: Any,
    job: LocalJob,
    *,
    max_tokens_cap: int,
    backend: str,
    model: str,
    count: Callable[[RunCost], None],
) -> LlmResult:
    """Run ``job`` on ``llm``; raise ``LlmError`` (CANCELLED when stopped between tokens)."""
    req = job.request
    trace = req.trace_id or None
    prepared = prepare_prompt(req, max_tokens_cap, backend)
    cache_keys = list(llm.cache.cache_state.keys()) if llm.cache is not None else []
    previous_ids = np.array(llm.input_ids[: llm.n_tokens], copy=True)
    t0 = time.perf_counter()
    splitter = ThinkSplitter()
    content: list[str] = []
    reasoning: list[str] = []
    prompt_len: int | None = None
    prompt_eval_s = 0.0
    finish = "length"
    # a reply in words to a request offering tools streams as the JSON string grows
    words = ReplyStream() if prepared.mode == "tool_choice" else None
    start, chunks = _start_stream(llm, prepared, req)
    content.append(start)
    try:
        for chunk in chunks:
            if job.stopped():
                done = llm.n_tokens - prompt_len + 1 if prompt_len is not None else 0
                count(RunCost(prompt_len or 0, done, cancelled=True))
                raise LlmError(
                    LlmErrorCode.CANCELLED,
                    f"stopped between tokens after {done}",
                    backend=backend,
                    trace_id=trace,
                )
            choice = chunk["choices"][0]
            text = choice["delta"].get("content") if "delta" in choice else choice.get("text")
            if text:
                if prompt_len is None:  # the prompt is evaluated once the first token arrives
                    prompt_len, prompt_eval_s = llm.n_tokens, time.perf_counter() - t0
                visible, thought = splitter.feed(text)
                content.append(visible)
                reasoning.append(thought)
                if job.streaming and prepared.streams_content and (visible or thought):
                    job.out.put(LlmChunk(content=visible, reasoning=thought))
                elif job.streaming and words is not None and (piece := words.feed(visible)):
                    job.out.put(LlmChunk(content=piece))
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
    finally:
        chunks.close()
    visible, thought = splitter.flush()
    if prompt_len is None:
        prompt_len, prompt_eval_s = llm.n_tokens, time.perf_counter() - t0
    # the last sampled token is evaluated only if generation went on; an end-of-generation token never is
    completion = max(0, llm.n_tokens - prompt_len + (0 if finish == "stop" else 1))
    cached = _cached_prefix(previous_ids, cache_keys, llm.input_ids[:prompt_len])
    count(RunCost(prompt_len, completion, cached, prompt_eval_s))
    result = finish_reply(
        prepared, "".join(content) + visible, "".join(reasoning) + thought, finish, backend, trace
    )
    result = replace(
        result,
        usage=Usage(prompt_len, completion, cached),
        backend=backend,
        model=model,
        latency_s=time.perf_counter() - t0,
    )
    if job.streaming:
        if tail := _unstreamed(prepared, result, words.sent if words is not None else ""):
            job.out.put(tail)
        for call in result.tool_calls:
            job.out.put(LlmChunk(tool_call=call))
        job.out.put(LlmChunk(finish_reason=result.finish_reason))
    return result


def _sampling(req: LlmRequest) -> dict[str, Any]:
    """The request's sampling settings; llama-cpp-python's defaults for what it leaves unset."""
    out: dict[str, Any] = {"temperature": req.temperature}
    if req.repeat_penalty is not None:
        out["repeat_penalty"] = req.repeat_penalty
    if req.top_k is not None:
        out["top_k"] = req.top_k
    return out


def _start_stream(llm: Any, prepared: PreparedPrompt, req: LlmRequest) -> tuple[str, Any]:
    """``(start, chunks)``: the stream of llama.cpp chunks, and the reply's forced start (``""`` if none).

    A forced tool's reply begins with its first required key (``coreai.llm.local_grammar.forced_start``):
    that text goes into the prompt, after the opening of the assistant turn, as the model's own chat
    template renders it, and the model generates the rest under the rest of the grammar. The sampling
    settings are those of llama-cpp-python's chat completion, so only the forced tokens differ."""
    rf = prepared.response_format
    start, grammar = "", None
    if prepared.mode == "tool" and rf is not None and "schema" in rf and _renders_own_template(llm):
        try:
            start, grammar = forced_start(rf["schema"])
        except Exception:
            start = ""
    if not start:
        chunks = llm.create_chat_completion(
            messages=prepared.messages,
            **_reply_format(prepared),
            max_tokens=prepared.max_tokens,
            stream=True,
            **_sampling(req),
        )
        return "", chunks
    formatted = _formatter(llm)(messages=prepared.messages)
    tokens = llm.tokenize((formatted.prompt + start).encode("utf-8"), add_bos=False, special=True)
    chunks = llm.create_completion(
        prompt=tokens,
        grammar=grammar,
        max_tokens=prepared.max_tokens,
        top_p=0.95,
        min_p=0.05,
        # no stop strings: with a stream they swallow the text (llama-cpp-python 0.3.36); the
        # grammar ends the object and end-of-generation ends the reply
        stream=True,
        **{"top_k": 40, "repeat_penalty": 1.1, **_sampling(req)},
    )
    return start, chunks


def _renders_own_template(llm: Any) -> bool:
    """The model's chat handler is its GGUF template (what ``chat_tokens`` renders), not a custom format."""
    own = getattr(llm, "chat_format", "") == "chat_template.default"
    return own and getattr(llm, "chat_handler", None) is None


def _reply_format(prepared: PreparedPrompt) -> dict[str, Any]:
    """A compact grammar for a schema'd reply; llama-cpp-python's own conversion if that fails."""
    rf = prepared.response_format
    if rf is None or "schema" not in rf:
        return {"response_format": rf}
    try:
        return {"grammar": compact_grammar(rf["schema"])}
    except Exception:  # a schema our conversion cannot take: the library's (it falls back to plain JSON)
        return {"response_format": rf}


def _unstreamed(prepared: PreparedPrompt, result: LlmResult, sent: str) -> LlmChunk | None:
    """What a tool-choice reply has not streamed yet (``sent`` went out as it came): all of it for a
    forced tool's mode, the rest (usually nothing) for a reply in words."""
    if prepared.streams_content or not result.content:
        return None
    rest = result.content[len(sent) :] if result.content.startswith(sent) else ""
    return LlmChunk(content=rest) if rest else None


def _cached_prefix(previous: np.ndarray, cache_keys: list[tuple[int, ...]], prompt: np.ndarray) -> int:
    """How many prompt tokens llama.cpp could take from its KV state or its prompt cache."""
    best = _common_prefix(previous, prompt)
    for key in cache_keys:
        best = max(best, _common_prefix(np.asarray(key, dtype=prompt.dtype), prompt))
    return best


def _common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    n = min(len(a), len(b))
    diff = np.nonzero(a[:n] != b[:n])[0]
    return int(diff[0]) if diff.size else n


PREFILL_CHUNK = 64  # tokens evaluated between two checks for a request someone waits on
_HOLD_BACK = 4  # the end-of-message / generation-prompt tokens a real request may tokenize differently
_formatters: dict[int, Any] = {}


def chat_tokens(llm: Any, messages: list[dict[str, Any]]) -> list[int]:
    """``messages`` as llama.cpp tokenizes them for a chat completion (the model's own chat template)."""
    prompt = _formatter(llm)(messages=messages).prompt
    return list(llm.tokenize(prompt.encode("utf-8"), special=True))


def _formatter(llm: Any) -> Any:
    """The model's own chat template as llama-cpp-python renders it (one per context)."""
    formatter: Any = _formatters.get(id(llm))
    if formatter is None:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        from coreai.llm.local_tokens import CHATML

        eos = llm.detokenize([llm.token_eos()]).decode("utf-8", "replace")
        bos = llm.detokenize([llm.token_bos()]).decode("utf-8", "replace")
        template = llm.metadata.get("tokenizer.chat_template") or CHATML
        formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        _formatters[id(llm)] = formatter
    return formatter


def stable_prefix(llm: Any, request: LlmRequest, backend: str) -> list[int]:
    """The tokens of ``request``'s first message (its role's byte-stable prefix) as every request of the role
    begins with them: the chat template's end-of-message tokens are held back."""
    prepared = prepare_prompt(request, 1, backend)
    return chat_tokens(llm, prepared.messages[:1])[:-_HOLD_BACK]


def common_prefix(llm: Any, tokens: list[int]) -> int:
    """How many of ``tokens`` ``llm``'s context already holds, from the start."""
    return _common_prefix(np.asarray(llm.input_ids[: llm.n_tokens]), np.asarray(tokens, dtype=np.intc))


def prefill(
    llm: Any,
    job: LocalJob,
    *,
    backend: str,
    interrupted: Callable[[], bool],
    count: Callable[[RunCost], None],
) -> LlmResult:
    """Evaluate the first message of ``job.request``'s prompt (its role's stable prefix) into ``llm``'s KV
    state, ``PREFILL_CHUNK`` tokens at a time, stopping early when ``interrupted()`` (a request someone waits
    on is queued) or the job is cancelled; what was evaluated stays and the next request reuses it."""
    tokens = stable_prefix(llm, job.request, backend)
    t0 = time.perf_counter()
    have = common_prefix(llm, tokens)
    llm.n_tokens = have
    done = have
    while done < len(tokens) and not (job.stopped() or interrupted()):
        chunk = tokens[done : done + PREFILL_CHUNK]
        llm.eval(chunk)
        done += len(chunk)
    elapsed = time.perf_counter() - t0
    count(RunCost(done, 0, have, elapsed, cancelled=done < len(tokens)))
    finish = "prefilled" if done >= len(tokens) else "interrupted"
    return LlmResult(
        content="", finish_reason=finish, usage=Usage(done, 0, have), backend=backend, latency_s=elapsed
    )
