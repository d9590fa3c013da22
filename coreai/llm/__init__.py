"""LLM clients: the Protocol, decorators, routing and backends."""

from coreai.llm.types import (
    ChatMessage,
    LlmChunk,
    LlmClient,
    LlmRequest,
    LlmResult,
    ToolCall,
    ToolSpec,
    Usage,
)

__all__ = ["ChatMessage", "LlmChunk", "LlmClient", "LlmRequest", "LlmResult", "ToolCall", "ToolSpec", "Usage"]
