"""Headless directed runs: a bot plays the real game while the director (or static difficulty) runs.

- ``run.py``: ``run_directed`` builds a ``Director`` and a ``World`` and plays them headless, optionally
  writing a trajectory;
- ``metrics.py``: the run's flow metrics, measured the same way in static and director modes;
- ``trajectory_file.py``: the trajectory's JSONL file (header, the director's records, summary): write, read;
- ``replay.py``: replays a trajectory without calling any model and checks it reproduces the run.
"""
