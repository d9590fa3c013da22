"""The game-over analysis: a ledger of the run's telemetry (``ledger``), the rules-based report
(``rules``), and the Analyzer agent's streamed report with that fallback (``analyst``)."""
