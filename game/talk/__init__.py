"""Grounded talk: every agent a player talks to (Merchant, Chat, Analyzer) answers from the game's data.

The facts come from the data (the Merchant's shelf, the knowledge file built from the F1 help and the skill
docs, the run ledger); the model only phrases them (``prompt``), a stream watch cuts a reply at its first
repetition (``repeat``), and the talk guard (``guard``) replaces a reply that fails its checks with the
grounded template answer (``TalkTurn`` in ``turn``).
"""
