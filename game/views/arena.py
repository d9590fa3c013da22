"""The arena: steps the World at a fixed 60 Hz from an accumulator, feeds it human or bot input, and draws the
world through the following camera with the HUD on top.

Extension points (all called on the main thread):

- ``frame_hooks``: ``Callable[[World, float], None]`` run once per frame after the simulation stepped, while
  a run is live and not paused (the upgrade pick included, and while a modal panel holds the arena); the AI
  core's command drain and the Lua mod tick go here.
- ``tick_hooks``: ``Callable[[World, list[Event]], None]`` run after every simulation tick with that tick's
  events (the director samples telemetry here; mods get their hook calls from it).
- ``pause_hooks``: ``Callable[[bool], None]`` told when the run is paused or resumed (P / Esc).
- ``held``: a modal panel (console, F7, help, chat, options; ``GameApp.holding_overlay``) holds the arena:
  the simulation, effects and camera stop, frame hooks keep running, the HUD says "PAUSED - console open".
- ``run_start_hooks``: ``Callable[[World], None]`` run when a new World starts (first run and every restart).
- ``activity_source``: ``Callable[[], str]`` for the HUD's agent-activity line.
- ``second_winds_source``: ``Callable[[], int | None]`` for the HUD's second winds left (None: not shown).
- panels and toasts live on the app (``Chrome.add_panel``, ``Chrome.show_toast``); plug-ins register these
  hooks through ``game.ports.ArenaHooks`` (``on_frame``, ``on_tick``, ...), never on the view itself.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade
from loguru import logger

from game.hook_guard import HookGuard
from game.ports import FrameHook, RunStartHook, TickHook
from game.render import palette
from game.render.camera import CameraRig
from game.render.hud import Hud
from game.render.pause_banner import PauseBanner
from game.render.scene import Scene
from game.sim import events as ev
from game.sim.config import ARENA_H, ARENA_W, BOSS_EVERY, DT
from game.sim.world import World
from game.views.base import AppView
from game.views.input import HumanInput
from game.zoo import Policy

if TYPE_CHECKING:
    from game.play.controller import PlayController
    from game.ports import ArenaHost

log = logger.bind(feature="game", trace_id=None)

# Catch-up: a slow frame steps several ticks so game time keeps up with real time. The cap guards against a
# spiral of death (slow frames -> more ticks -> slower frames): at most MAX_STEPS_PER_FRAME ticks (8 at
# 60 Hz: game time keeps real time down to 7.5 FPS) and at most SIM_BUDGET_S of stepping in one frame; what
# is left over is dropped (the game runs slower than real time only below those limits).
MAX_STEPS_PER_FRAME = 8
SIM_BUDGET_S = 0.1
MAX_FRAME_DT = 0.25
DEATH_DELAY_S = 1.6
# An MCP agent's step in a frozen game runs as fast as the simulation allows: ticks for this long, then one
# frame is drawn (the last tick's) and the calls are served, then on. Effects and sound skip those ticks.
AGENT_STEP_SLICE_S = 0.2


class ArenaView(AppView):
    clear_color = palette.FLOOR  # draws the arena (game.render.floor)
    app: ArenaHost

    def __init__(self, app: ArenaHost) -> None:
        super().__init__(app)
        self.frame_hooks: list[FrameHook] = []
        self.tick_hooks: list[TickHook] = []
        self.pause_hooks: list[Callable[[bool], None]] = []
        self.run_start_hooks: list[RunStartHook] = []
        self.activity_source: Callable[[], str] | None = None
        self.second_winds_source: Callable[[], int | None] | None = None
        # An MCP agent's clock and keys (game.play): when set, it decides when the simulation ticks
        self.play: PlayController | None = None
        self.world: World | None = None
        self.bot: Policy | None = None
        self.scene: Scene | None = None
        self.hud: Hud | None = None
        self._scene_key: tuple[object, ...] | None = None
        self.rig = CameraRig(ARENA_W, ARENA_H)
        self.input = HumanInput()
        self.paused = False
        self.t = 0.0  # render time (effects, blinking), frozen while paused
        self.frames = 0
        self.wall_started = 0.0
        self.wall_s = 0.0  # wall-clock seconds the sim was running (for ticks/second in the summary)
        self._acc = 0.0
        self._agent_stepped = False  # the last frame held an agent's step
        self._death_timer: float | None = None
        self._hooks_guard = HookGuard(lambda text: self.app.show_toast(text, 4.0, palette.WARN))
        self.held_by = ""  # the modal panel holding the arena this frame ("" when none)
        self.banner = PauseBanner()  # PAUSED, held by a panel, an MCP agent's frozen clock

    # ------------------------------------------------------------------ runs
    def start_run(self, world: World, bot: Policy | None) -> None:
        self.world = world
        self.bot = bot
        key = tuple((n, world.prefabs.get(n)) for n in world.prefabs.names)
        if self.scene is None or key != self._scene_key:  # sprite lists are rebuilt only for new prefabs
            self.scene = Scene(world.prefabs, seed=world.seed)
            self.hud = Hud(list(world.prefabs.boss_kinds))
            self._scene_key = key
        self.scene.reset()
        self.rig.snap(world.player.x, world.player.y)
        self.input.clear()
        self.paused = False
        self._acc = 0.0
        self._death_timer = None
        self.wall_s = 0.0
        self.wall_started = time.perf_counter()
        self.app.governor.restart()
        for hook in list(self.run_start_hooks):
            self._call_hook(hook, world)
        assert self.hud is not None
        self.hud.banner.show("WAVE 1", "survive", 2.0)

    @property
    def live(self) -> bool:
        """A run is on and not paused (hooks run, the sim steps while in the playing phase)."""
        return self.world is not None and not self.paused and not self.world.over

    def set_paused(self, paused: bool) -> None:
        if self.world is None or self.world.over:
            return
        self.paused = paused
        self.input.clear()
        for hook in list(self.pause_hooks):
            self._call_hook(hook, paused)

    def toggle_pause(self) -> None:
        self.set_paused(not self.paused)

    # ------------------------------------------------------------------ simulation
    def step_sim(self, dt: float) -> int:
        """Advance the world by whole ticks for ``dt`` seconds of real time; returns the ticks stepped."""
        world = self.world
        if world is None or self.paused or world.phase != "playing":
            return 0
        play = self.play
        if play is not None and not play.may_tick(world):
            self._acc = 0.0  # frozen: no backlog builds up while the agent thinks
            return 0
        if play is not None and play.clock.frozen and play.stepping():
            return self._agent_step(world, play)
        speed = 1.0 if play is None else play.clock.speed
        most = MAX_STEPS_PER_FRAME * max(1, math.ceil(speed))
        self._acc += min(dt, MAX_FRAME_DT) * speed
        steps = 0
        limit = self.app.time_limit
        started = time.perf_counter()
        while self._acc >= DT and steps < most and world.phase == "playing":
            if limit is not None and world.time >= limit - 1e-9:
                break
            if steps and time.perf_counter() - started > SIM_BUDGET_S * max(1.0, speed):
                self._acc = 0.0  # the simulation itself is the bottleneck: drop the backlog
                break
            if play is not None and not play.may_tick(world):
                self._acc = 0.0  # the agent's step ended on the last tick
                break
            if self.bot is not None:
                inp = self.bot.act(world)
            elif play is not None:  # the agent's keys live in self.input: a human's keys still count
                inp = play.sample(world, self.rig.to_world)
            else:
                inp = self.input.sample(self.rig.to_world, (world.player.x, world.player.y))
            events = world.step(inp)
            steps += 1
            self._acc -= DT
            self._on_events(world, events)
            for hook in list(self.tick_hooks):
                self._call_hook(hook, world, events)
        if steps == most and self._acc >= DT:
            self._acc = 0.0  # too slow to keep up: drop the backlog instead of spiralling
        if world.phase != "playing":
            self._acc = 0.0
        return steps

    def _agent_step(self, world: World, play: PlayController) -> int:
        """A frozen game's step: ticks as fast as the simulation allows for one slice (game time does not
        follow the frame clock), the same input path, then back to draw the last tick."""
        self._acc = 0.0
        steps = 0
        started = time.perf_counter()
        while play.may_tick(world) and world.phase == "playing":
            inp = self.bot.act(world) if self.bot is not None else play.sample(world, self.rig.to_world)
            events = world.step(inp)
            steps += 1
            self._on_events(world, events, visuals=False)
            for hook in list(self.tick_hooks):
                self._call_hook(hook, world, events)
            if time.perf_counter() - started > AGENT_STEP_SLICE_S:
                break
        return steps

    def _on_events(self, world: World, events: list[ev.Event], *, visuals: bool = True) -> None:
        if not events:
            return
        assert self.scene is not None and self.hud is not None
        if visuals:
            self.scene.effects.on_events(events, world)
            self.app.audio.on_events(events, world.prefabs.is_boss)
        for e in events:
            if isinstance(e, ev.Dashed):
                self.input.dashed()
            elif isinstance(e, ev.WaveStarted) and e.wave > 1:
                boss = e.wave % BOSS_EVERY == 0
                line = "a boss approaches" if boss else ""
                if e.wave == world.final_wave:  # the run's end is in sight
                    line = "the final wave" + (" and a boss" if boss else "") + ": survive it to win"
                self.hud.banner.show(
                    f"WAVE {e.wave}",
                    line,
                    2.0,
                    palette.BOSS if boss else palette.WAVE,
                )
            elif isinstance(e, ev.LevelUp):
                self.app.show_toast(
                    f"Level {e.level}!  An extra upgrade waits after this wave", 2.5, palette.XP
                )
            elif isinstance(e, ev.PlayerDied):
                self._death_timer = DEATH_DELAY_S
                self.hud.banner.show("YOU DIED", f"wave {e.wave}", DEATH_DELAY_S + 0.5, palette.HP)
            elif isinstance(e, ev.RunWon):
                self._death_timer = DEATH_DELAY_S
                self.hud.banner.show(
                    "VICTORY",
                    f"all {e.wave} waves survived" if e.wave > 1 else "wave 1 survived",
                    DEATH_DELAY_S + 0.5,
                    palette.GOOD,
                )

    def run_frame_hooks(self, dt: float) -> None:
        if self.world is None:
            return
        for hook in list(self.frame_hooks):
            self._call_hook(hook, self.world, dt)

    def _call_hook(self, hook: Callable[..., None], *args: object) -> None:
        self._hooks_guard.call(hook, *args)  # a faulty hook is logged and toasted, never fatal

    # ------------------------------------------------------------------ frame
    def animate(self, dt: float) -> None:
        """Advance render time and the HUD under a screen drawn over the arena (the upgrade pick)."""
        self.t += dt
        if self.hud is not None and self.world is not None:
            self.hud.update(dt, self.world)

    def update_held(self) -> bool:
        """Whether a modal panel holds the arena this frame (sets ``held_by``; clears held keys on entry)."""
        overlay = self.app.holding_overlay()
        name = "" if overlay is None else str(getattr(overlay, "modal_name", type(overlay).__name__))
        if name and not self.held_by:
            self.input.clear()  # keys held when the panel opened must not keep the ship moving afterwards
        self.held_by = name
        return bool(name)

    def update_content(self, dt: float) -> None:
        world = self.world
        if world is None or self.scene is None or self.hud is None:
            return
        if self.paused:
            return
        if self.update_held():
            self._acc = 0.0
            if not world.over:
                self.run_frame_hooks(dt)  # answers and notices keep arriving while the game is held
            return
        agent_step = self.play is not None and self.play.clock.frozen and self.play.stepping()
        self.step_sim(dt)
        # a frame that held an agent's step (and the one after it) is long by design: not the machine's fault
        slow_by_design, self._agent_stepped = agent_step or self._agent_stepped, agent_step
        if world.phase == "playing" and not slow_by_design and self.app.governor.observe(dt):
            self.app.show_toast("Effects lowered to keep the game smooth", 4.0, palette.TEXT_DIM)
        self.wall_s = time.perf_counter() - self.wall_started
        if not world.over:
            self.run_frame_hooks(dt)
        self.t += dt
        self.frames += 1
        self.scene.effects.update(dt, world)
        self.hud.update(dt, world)
        p = world.player
        shake = self.scene.effects.shake_offset() if self.app.prefs.settings.screen_shake else (0.0, 0.0)
        self.rig.follow(p.x, p.y, p.aim_angle, dt, shake)
        if self.app.time_limit is not None and world.time >= self.app.time_limit - 1e-9:
            self.app.time_up()
        elif world.phase == "upgrade":
            self.app.show_upgrade()
        elif self._death_timer is not None:
            self._death_timer -= dt
            if self._death_timer <= 0.0:
                self._death_timer = None
                self.app.run_over()

    def draw_world(self, *, with_hud: bool = True) -> None:
        """The arena through the camera, plus the HUD; the upgrade and game-over views draw this behind
        their panels."""
        world, scene, hud = self.world, self.scene, self.hud
        if world is None or scene is None or hud is None:
            return
        cam = self.rig.camera
        play_w, play_h = int(self.app.play_width()), self.window.height
        if (cam.viewport_width, cam.viewport_height) != (play_w, play_h):
            self.rig.resize(play_w, play_h)  # the window changed size (F11) or a panel docked / undocked
        aim = None
        if self.bot is None and not self.paused:
            aim = self.rig.to_world(*self.input.mouse)
        scene.quality = self.app.governor.quality
        scene.sync(world, self.rig.view_rect(), self.t, aim)
        self.rig.use()
        scene.draw()
        self.window.default_camera.use()
        if not with_hud:
            return
        activity = ""
        if self.activity_source is not None:
            try:
                activity = self.activity_source()
            except Exception as exc:
                activity = f"(activity unavailable: {exc})"
        winds = None
        if self.second_winds_source is not None:
            try:
                winds = self.second_winds_source()
            except Exception as exc:  # logged once, not every frame: the HUD goes on without the line
                log.opt(exception=exc).error("second winds source failed, line hidden: {}", exc)
                self.second_winds_source = None
        prefs = self.app.prefs.settings
        scale = self.app.use_ui_camera()  # the options screen's UI scale
        hud.draw(
            world,
            play_w / scale,
            self.window.height / scale,
            fps=self.app.fps.fps,
            show_fps=self.app.show_fps,
            activity=activity,
            badge=self.app.demo_badge,
            damage_flash=scene.effects.damage_flash if prefs.damage_flash else 0.0,
            t=self.t,
            vignette=scene.quality.vignette,
            second_winds=winds,
        )
        self.window.default_camera.use()

    def draw_content(self) -> None:
        self.draw_world()
        w, h = self.app.play_width(), self.window.height
        play, world = self.play, self.world
        frozen = ""
        if play is not None and world is not None and play.clock.frozen and not self.held_by:
            frozen = f"MCP: {'stepping' if play.stepping() else 'frozen'} at tick {world.tick}"
        self.banner.draw(w, h, frozen=frozen, held_by=self.held_by, paused=self.paused)

    # ------------------------------------------------------------------ input
    def handle_key(self, symbol: int, modifiers: int) -> bool:
        if self.paused and symbol == arcade.key.O:
            self.app.show_options()
            return True
        if self.paused or self.held_by or self.bot is not None:
            return False
        return self.input.press(symbol)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.input.release(symbol)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.input.point(x, y)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self.input.point(x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.input.point(x, y)
        if button == arcade.MOUSE_BUTTON_LEFT and not self.paused:
            self.input.mouse_down = True

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == arcade.MOUSE_BUTTON_LEFT:
            self.input.mouse_down = False

    def set_pause_label(self, keys: str) -> None:
        """The pause screen's hint names the pause key(s) the player bound."""
        self.banner.set_keys(keys)

    def on_deactivate(self) -> None:
        """The window lost focus: pause a run the player is playing (``[game] pause_on_focus_loss``)."""
        agent = self.play is not None and self.play.clock.frozen  # an MCP agent plays: never pause it
        if self.bot is None and self.live and not agent and self.app.prefs.settings.pause_on_focus_loss:
            self.set_paused(True)

    def on_show_view(self) -> None:
        self.window.set_mouse_visible(self.bot is not None)

    def on_hide_view(self) -> None:
        self.input.clear()
        self.window.set_mouse_visible(True)
