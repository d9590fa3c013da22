"""The AI director: watches the player (telemetry, L4D intensity, pacing), spends a spawn-credit budget, and
applies validated plans from a plan source (the deterministic ``rules`` policy or an LLM), recording every
decision to a replayable trajectory.

Main entry points: ``Director`` (``director.py``), ``PlanSource`` / ``PlanRequest`` / ``PlanReply``
(``source.py``), ``DirectorPlan`` and ``plan_json_schema`` (``plan.py``), ``validate_plan`` (``validate.py``),
``run_directed`` (``runner.py``) and ``replay`` (``replay.py``).
"""
