"""The director's evaluation: the labelled decision suite and the bot A/B (``python -m game.eval``)."""
