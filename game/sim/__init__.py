"""The headless simulation (pure Python + numpy, no arcade)."""
