"""The agents that act on the game, grounded in its data: the Programmer's mods from recipes (``programmer``,
checked in a headless trial: ``trial``) and the Creator's world commands and answers (``creator``)."""
