"""Limits and timings of the Lua sandbox and the mod manager, as one validated settings model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MIB = 1024 * 1024


class CallBudget(BaseModel):
    """What one entry into mod code may spend: Lua instructions and wall-clock milliseconds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    instructions: int = Field(ge=1_000, le=2_000_000_000)
    deadline_ms: float = Field(gt=0, le=60_000)


class LuaSettings(BaseModel):
    """Every knob of the sandbox and the manager; defaults are what the game ships with."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_memory_mb: int = Field(default=32, ge=1, le=1024, description="max_memory of each LuaRuntime")
    hook_step: int = Field(
        default=1000, ge=100, le=100_000, description="coarsest count-hook period in instructions"
    )
    deadline_every: int = Field(
        default=1, ge=1, le=1000, description="hook firings between wall-clock checks"
    )
    hook_window_kb: int = Field(
        default=1024 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="hook period <= this / KiB in use (>= 1): big strings are checked every few instructions",
    )
    hook_window_ms: float = Field(
        default=10.0, gt=0, le=1000, description="a hook window slower than this shrinks the hook period"
    )
    c_ns_per_byte: float = Field(
        default=1.0, gt=0, le=100, description="estimated cost of a guarded C string call per byte (ns)"
    )

    load_budget: CallBudget = CallBudget(instructions=5_000_000, deadline_ms=250)
    hook_budget: CallBudget = CallBudget(instructions=200_000, deadline_ms=25)
    tick_budget: CallBudget = CallBudget(instructions=200_000, deadline_ms=25)
    exec_budget: CallBudget = CallBudget(instructions=20_000_000, deadline_ms=1000)

    tick_hz: float = Field(default=60.0, gt=0, le=240, description="on_tick runs at most this often per mod")
    frame_budget_ms: float = Field(
        default=4.0, gt=0, le=100, description="Lua time per frame for on_tick/timers"
    )

    quarantine_faults: int = Field(
        default=3, ge=1, le=100, description="faults within fault_window_s -> quarantine"
    )
    fault_window_s: float = Field(default=30.0, gt=0)
    revert_window_s: float = Field(
        default=5.0, ge=0, description="a new version faulting this soon is reverted"
    )
    poll_interval_s: float = Field(default=0.5, gt=0, description="each mod folder is checked this often")

    storage_cap_bytes: int = Field(default=64 * 1024, ge=256, le=16 * MIB)
    log_capacity: int = Field(default=200, ge=10, le=100_000)
    log_lines_per_call: int = Field(default=100, ge=1, le=10_000)
    reports_per_call: int = Field(default=10, ge=1, le=1000)
    max_timers: int = Field(default=64, ge=1, le=10_000, description="timers one sandbox may hold")
    max_timers_total: int = Field(
        default=512, ge=1, le=100_000, description="timers every mod and console sandbox may hold together"
    )
    max_consoles: int = Field(
        default=16, ge=1, le=1000, description="scratch sandboxes alive at once (the LRU one closes)"
    )
    consoles_memory_mb: int = Field(
        default=128, ge=1, le=4096, description="memory every scratch sandbox may hold together"
    )
    min_timer_interval_s: float = Field(default=0.05, gt=0)
    max_world_ops_per_call: int = Field(default=64, ge=1, le=10_000)
    max_spawn_per_call: int = Field(default=20, ge=1, le=1000)
    max_versions: int = Field(default=30, ge=2, le=1000)

    max_string_bytes: int = Field(default=4 * MIB, ge=1024, description="string.rep result limit")
    max_elements: int = Field(
        default=1_000_000, ge=1000, description="table.concat/move/unpack/sort range limit"
    )
    pattern_max_cost: float = Field(
        default=2e7, ge=1e4, description="worst-case matcher steps of one pattern call"
    )
    max_pattern_len: int = Field(default=256, ge=8)
    max_chunk_bytes: int = Field(default=256 * 1024, ge=1024, description="load() / execute() source limit")
    max_text: int = Field(default=2000, ge=80, description="one log line / report / error message")

    max_mod_files: int = Field(default=64, ge=1)
    max_file_bytes: int = Field(default=256 * 1024, ge=1024)
    max_mod_bytes: int = Field(default=1 * MIB, ge=1024)
