"""The AI director: reads the player every tick, decides a plan every few seconds, and is the one place that
changes the game's difficulty. Read → decide → act, each in one place:

**Read** (every tick, ``read.py``): ``Reader`` folds the tick into one frozen ``PlayerRead``.
    ``telemetry.py`` (ring buffers of damage, kills, shots; the snapshot a plan source sees),
    ``skill.py`` (online skill estimate), ``intensity.py`` (L4D intensity), ``pacing.py`` (Build Up →
    Sustain Peak → Peak Fade → Relax).

**Decide** (every ``[decide] interval_s``, and at once on a death, a new Build Up or a falling HP bar):
    ``source.py`` (``PlanSource``, ``PlanRequest``, ``PlanReply``: rules, an LLM, MCP or a replay),
    ``rules.py`` (the deterministic policy), ``plan.py`` and ``knobs.py`` (``DirectorPlan``, the knob
    rows), ``validate.py`` (a reply's way to commands: parse, validate, clamp, guard), ``guard.py``
    (hard safety rules for model plans), ``memory.py`` (notes a plan keeps). Between decisions
    ``reflexes.py`` (``Grace``, ``Rescue``) return ``Adjustment``s.

**Act** (every tick, ``act.py``): ``Actuator`` alone writes the spawner's ``Limits`` (crowd size,
    presence floor, prey, hold) and the world's player-facing multipliers (enemy damage and speed from the
    ``danger`` knob limited by HP, pickups), composing with a mod's or the console's values.
    ``spawner.py`` (``CreditSpawner``: the credit bank and the presence floor) spawns; ``events.py``
    (named events: boss, swarm, surround, supply, mod events) fires what a plan names.

Around the loop: ``director.py`` (``Director``: the loop, modes and sources), ``requests.py``
(the plan-request lifecycle: latest wins, polling, vet, apply, counters, record), ``routing.py`` (the world's
spawner, routed to the active mode's), ``tuning.py`` (every tuning value, from
``assets/director/tuning.toml``, with the difficulty presets as overlays), ``spawn_log.py`` (every spawn's
cause, for F10 and the trajectory), ``trajectory.py`` (the records a run leaves, and their sink),
``saturation.py`` and the reader's intensity history (what F10 shows, read by
``game/render/ai_panels/director_view.py``). Headless directed runs, their metrics, the trajectory
file and replay are in ``game/headless_runs/``; the evaluation is in ``game/eval/``.
"""
