"""Everything the player sees: batched sprites for crowds, the camera, the arena floor, the HUD, effects and
overlays. It reads the simulation's state and never changes it. Textures and sprite lists are created on the
main thread only."""
