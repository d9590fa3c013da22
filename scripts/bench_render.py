"""The render benchmark on its own (the same section ``make bench`` prints): real scene vs a bare SpriteList.

    python scripts/bench_render.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    sys.path.insert(0, str(REPO))
    from bench.bench_render import main

    main()
