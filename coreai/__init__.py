"""coreai: the engine-agnostic AI core of Arena Director (never imports arcade or pyglet).

Entry points: ``coreai.runtime.CoreAiRuntime`` wires everything from ``coreai.settings.Settings``; the game
implements ``coreai.world.WorldExecutor`` / ``StateProvider``, drains ``coreai.mainloop.MainLoopQueue`` each
frame and submits ``coreai.requests.AiTaskRequest``s. Submodules are imported on demand (nothing here), so
``import coreai.errors`` stays cheap.
"""
