"""The game's screens: title → arena ⇄ upgrade pick → game over. Views stay thin: they read the World, feed it
input and call its public methods; the rules live in ``game.sim``."""
