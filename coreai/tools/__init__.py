"""Tools agents can call: the Tool type, the execution policy, the tool loop and the built-in tools."""

from coreai.tools.base import Tool, ToolContext, ToolOutcome, canonical_contract, canonical_order
from coreai.tools.loop import LoopOutcome, ToolLoop
from coreai.tools.policy import ToolCallPolicy, ToolPolicyConfig

__all__ = [
    "LoopOutcome",
    "Tool",
    "ToolCallPolicy",
    "ToolContext",
    "ToolLoop",
    "ToolOutcome",
    "ToolPolicyConfig",
    "canonical_contract",
    "canonical_order",
]
