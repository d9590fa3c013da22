"""Between waves: choose 1 of 3 upgrades (keys 1/2/3 or a click). The frozen arena stays visible behind the
cards. In demo mode the bot's pick is highlighted for a moment before it is taken, so viewers can follow.

The view only calls ``World.choose_upgrade``; when the world leaves the upgrade phase (also when something
else, like an agent, picked) it hands back to the arena.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
from arcade import key as K
from arcade.types import Color

from game.render import palette
from game.render.widgets import Label, ShadowLabel, draw_panel
from game.sim.upgrades import WEAPON_PREFIX, Offer, describe_offer
from game.views.base import AppView

if TYPE_CHECKING:
    from game.ports import ViewHost
    from game.sim.world import World

BOT_HIGHLIGHT_S = 0.7  # the bot "hovers" its choice after this long...
BOT_PICK_S = 1.5  # ...and takes it after this long
CARD_W, CARD_H, GAP = 300.0, 230.0, 36.0
PICK_KEYS = {K.KEY_1: 0, K.KEY_2: 1, K.KEY_3: 2, K.NUM_1: 0, K.NUM_2: 1, K.NUM_3: 2}

STRIPES: dict[str, Color] = {
    "fire_rate": Color(255, 200, 60),
    "damage": Color(255, 90, 80),
    "move_speed": Color(120, 255, 200),
    "multishot": Color(255, 160, 60),
    "pierce": Color(200, 130, 255),
    "max_hp": Color(240, 70, 100),
    "dash_cooldown": Color(120, 255, 200),
    "pickup_radius": Color(80, 220, 255),
    "bullet_speed": Color(255, 236, 140),
    "regen": Color(110, 240, 140),
}


def wave_title(wave: int, enemies_alive: int, picks: int) -> str:
    """A wave ends on its timer: "CLEARED" only when no enemy is left, else "OVER" (the words stay true)."""
    head = f"WAVE {wave} {'CLEARED' if enemies_alive == 0 else 'OVER'}"
    return head if picks <= 1 else f"{head}  -  {picks} PICKS"


def stripe_for(offer: Offer, world: World | None) -> Color:
    """Weapon cards take their weapon's colour; stat cards keep theirs."""
    if offer.weapon and world is not None:
        return Color(*world.arsenal.cat.get(offer.key[len(WEAPON_PREFIX) :]).color)
    return STRIPES.get(offer.key, palette.ACCENT)


def tag_color(tag: str) -> Color:
    if tag.startswith("EVOLVES") or "MAX" in tag:
        return palette.ACCENT
    if tag.startswith("NEW"):
        return palette.GOOD
    return palette.TEXT_DIM


@dataclass
class Card:
    key: str
    stripe: Color
    number: ShadowLabel
    name: ShadowLabel
    desc: Label
    owned: Label


class UpgradeView(AppView):
    clear_color = palette.FLOOR  # draws the arena (game.render.floor)
    app: ViewHost

    def __init__(self, app: ViewHost) -> None:
        super().__init__(app)
        self.cards: list[Card] = []
        self._choices: list[str] = []
        self.hover: int | None = None
        self.bot_elapsed = 0.0
        self.bot_choice: str | None = None
        self.title = ShadowLabel(
            "",
            0,
            0,
            offset=3,
            font_size=34,
            anchor_x="center",
            bold=True,
            color=palette.ACCENT,
        )
        self.subtitle = ShadowLabel("", 0, 0, font_size=14, anchor_x="center", color=palette.TEXT_DIM)

    @property
    def world(self) -> World | None:
        return self.app.backdrop.world

    # ------------------------------------------------------------------ layout
    def _rebuild(self) -> None:
        world = self.world
        self._choices = list(world.choices) if world is not None else []
        self.cards = []
        for i, key in enumerate(self._choices):
            if world is None:
                break
            up = describe_offer(key, world.stacks, world.arsenal, world.mod_upgrades)
            self.cards.append(
                Card(
                    key,
                    stripe_for(up, world),
                    ShadowLabel(
                        str(i + 1),
                        0,
                        0,
                        font_size=18,
                        anchor_x="center",
                        anchor_y="center",
                        bold=True,
                        color=Color(20, 20, 30),
                    ),
                    ShadowLabel(
                        up.name.upper(), 0, 0, font_size=17, anchor_x="center", font_name=palette.FONT_DISPLAY
                    ),
                    Label(
                        up.description,
                        0,
                        0,
                        font_size=13,
                        anchor_x="center",
                        anchor_y="top",
                        multiline=True,
                        width=int(CARD_W - 40),
                        align="center",
                        font_name=palette.FONT_NARROW,
                    ),
                    Label(
                        up.tag,
                        0,
                        0,
                        font_size=11,
                        anchor_x="center",
                        anchor_y="bottom",
                        multiline=True,
                        width=int(CARD_W - 24),
                        align="center",
                        color=tag_color(up.tag),
                    ),
                )
            )
        self.hover = None
        self.bot_elapsed = 0.0
        self.bot_choice = None
        if world is not None:
            picks = world.pending_picks
            self.title.set(wave_title(world.wave, world.enemies.n, picks))
        self.subtitle.set("choose one upgrade:  1 / 2 / 3  or click")

    def card_rects(self) -> list[tuple[float, float, float, float]]:
        """(left, bottom, width, height) of each card in window pixels."""
        n = len(self.cards)
        w, h = self.app.play_width(), self.window.height  # left of a docked panel (F10): never under it
        card_w = min(CARD_W, (w - 2 * GAP - (n - 1) * GAP) / max(1, n))
        total = n * card_w + (n - 1) * GAP
        left0 = (w - total) / 2
        bottom = h / 2 - CARD_H / 2 - 20
        return [(left0 + i * (card_w + GAP), bottom, card_w, CARD_H) for i in range(n)]

    def card_at(self, x: float, y: float) -> int | None:
        for i, (left, bottom, cw, ch) in enumerate(self.card_rects()):
            if left <= x <= left + cw and bottom <= y <= bottom + ch:
                return i
        return None

    # ------------------------------------------------------------------ picking
    def pick(self, index: int) -> bool:
        world = self.world
        if world is None or world.phase != "upgrade" or not 0 <= index < len(world.choices):
            return False
        key = world.choices[index]
        name = describe_offer(key, world.stacks, world.arsenal, world.mod_upgrades).name
        evolved_before = len(world.evolutions)
        world.choose_upgrade(key)
        self.app.audio.play("pick")
        self.app.show_toast(f"+ {name}", 2.0, palette.GOOD)
        for evolved in world.evolutions[evolved_before:]:
            self.app.show_toast(f"EVOLVED: {world.arsenal.cat.get(evolved).name}!", 3.0, palette.ACCENT)
        if world.phase == "upgrade":
            self._rebuild()  # a level-up banked another pick
        else:
            self.app.resume_arena()
        return True

    # ------------------------------------------------------------------ frame
    def on_show_view(self) -> None:
        self._rebuild()
        self.window.set_mouse_visible(True)

    def update_content(self, dt: float) -> None:
        arena = self.app.backdrop
        world = self.world
        if world is None:
            return
        if world.phase == "upgrade":
            arena.run_frame_hooks(dt)  # the AI core keeps draining while the player chooses
            if self.window.current_view is not self:
                return  # a frame hook made the pick (an MCP agent) and the next screen is up already
        if world.phase != "upgrade":
            self.app.resume_arena()
            return
        if arena.update_held():
            return  # a modal panel (console, F7, help...) holds the pick, the bot's included
        if list(world.choices) != self._choices:
            self._rebuild()
        arena.animate(dt)
        if arena.bot is not None:
            self.bot_elapsed += dt
            if self.bot_elapsed >= BOT_HIGHLIGHT_S and self.bot_choice is None:
                self.bot_choice = arena.bot.choose_upgrade(world)  # asked once per offer
            if self.bot_choice in self._choices:
                self.hover = self._choices.index(self.bot_choice)
                if self.bot_elapsed >= BOT_PICK_S:
                    self.pick(self.hover)

    def draw_content(self) -> None:
        self.app.backdrop.draw_world()
        w, h = self.app.play_width(), self.window.height
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, Color(4, 6, 14, 170))
        self.title.move(w / 2, h / 2 + CARD_H / 2 + 60)  # below the boss bar
        self.title.draw()
        self.subtitle.move(w / 2, h / 2 + CARD_H / 2 + 28)
        self.subtitle.draw()
        t = self.app.backdrop.t
        for i, (card, (left, bottom, cw, ch)) in enumerate(zip(self.cards, self.card_rects(), strict=True)):
            hot = i == self.hover
            lift = 8.0 + 2.0 * math.sin(t * 6.0) if hot else 0.0
            bottom += lift
            stripe = card.stripe
            draw_panel(left, bottom, cw, ch, edge=palette.ACCENT if hot else palette.PANEL_EDGE)
            if hot:
                arcade.draw_lbwh_rectangle_outline(
                    left - 4, bottom - 4, cw + 8, ch + 8, Color(255, 196, 64, 90), 3
                )
            arcade.draw_lbwh_rectangle_filled(left, bottom + ch - 10, cw, 10, stripe)
            cx = left + cw / 2
            arcade.draw_circle_filled(cx, bottom + ch - 46, 20, stripe)
            card.number.move(cx, bottom + ch - 46)
            card.number.draw()
            card.name.move(cx, bottom + ch - 98)
            card.name.draw()
            if card.desc.text.width != int(cw - 40):
                card.desc.text.width = int(cw - 40)  # narrower cards while a panel is docked
            card.desc.move(cx, bottom + ch - 116)
            card.desc.draw()
            if card.owned.text.width != int(cw - 24):
                card.owned.text.width = int(cw - 24)
            card.owned.move(cx, bottom + 12)
            card.owned.draw()

    # ------------------------------------------------------------------ input
    def handle_key(self, symbol: int, modifiers: int) -> bool:
        if symbol in PICK_KEYS and self.app.backdrop.bot is None:
            self.pick(PICK_KEYS[symbol])
            return True
        return False

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        if self.app.backdrop.bot is None:
            self.hover = self.card_at(x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.app.backdrop.bot is not None:
            return
        i = self.card_at(x, y)
        if i is not None:
            self.pick(i)
