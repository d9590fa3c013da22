"""Game over (or victory, when the final wave was survived): the run's summary, the high-score table (this
run highlighted), the run analysis (the
Analyzer's, streamed as it arrives, or the rules-based one), any save warnings, and restart. In demo mode
the next run starts by itself after a few seconds."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import arcade
from arcade import key as K
from arcade.types import Color

from game.headless import RunSummary
from game.render import palette
from game.render.hud import clock
from game.render.widgets import Label, ShadowLabel, draw_panel
from game.sim.upgrades import upgrade_name
from game.sim.weapon_data import catalogue
from game.views.base import AppView

if TYPE_CHECKING:
    from game.ports import RunAnalysisView, ViewHost

DEMO_RESTART_S = 6.0
PANEL_W, PANEL_H = 420.0, 380.0
ANALYSIS_H = 112.0
ANALYSIS_ROWS = 4
ANALYSIS_WRAP = 98  # characters per row: 12 pt text inside the box's 824 px (118 ran past its right edge)


def summary_rows(s: RunSummary) -> list[tuple[str, str]]:
    ups = ", ".join(f"{upgrade_name(k)} x{n}" if n > 1 else upgrade_name(k) for k, n in s.upgrades.items())
    specs = catalogue().specs
    arms = ", ".join(f"{specs[k].name if k in specs else k} {s.weapon_levels.get(k, 1)}" for k in s.weapons)
    return [
        ("Wave reached", str(s.waves_reached)),
        ("Score", f"{s.final_score:,}"),
        ("Kills", f"{s.kills:,}"),
        ("Time survived", clock(s.seconds)),
        ("Level", str(s.level)),
        ("Damage taken", f"{s.damage_taken:,.0f}"),
        ("Weapons", arms or "none"),
        ("Upgrades", ups or "none"),
    ]


class GameOverView(AppView):
    clear_color = palette.FLOOR  # draws the arena (game.render.floor)
    app: ViewHost

    def __init__(
        self,
        app: ViewHost,
        summary: RunSummary,
        *,
        rank: int | None,
        high_scores: Sequence[Any],
        warnings: Sequence[str] = (),
        reason: str = "died",
        bots: bool = False,
    ) -> None:
        super().__init__(app)
        self.summary = summary
        self.rank = rank
        self.elapsed = 0.0
        titles = {"died": ("YOU DIED", palette.HP), "won": ("VICTORY", palette.GOOD)}
        title, title_color = titles.get(reason, ("TIME UP", palette.ACCENT))
        self.title = ShadowLabel(
            title,
            0,
            0,
            offset=4,
            font_size=52,
            anchor_x="center",
            font_name=palette.FONT_DISPLAY,
            color=title_color,
        )
        n = summary.waves_reached
        won = "" if reason != "won" else f"{f'all {n} waves' if n > 1 else 'wave 1'} survived  -  "
        sub = won + (
            f"NEW HIGH SCORE  #{rank}"
            if rank == 1
            else f"{'bot ' if bots else ''}high score #{rank}"
            if rank
            else "no high score this time"
        )
        self.subtitle = ShadowLabel(
            sub, 0, 0, font_size=16, anchor_x="center", color=palette.ACCENT if rank else palette.TEXT_DIM
        )
        self.rows = [
            (
                Label(k, font_size=13, color=palette.TEXT_DIM, font_name=palette.FONT_NARROW),
                Label(
                    v,
                    font_size=13 if k != "Upgrades" else 11,
                    anchor_x="right",
                    anchor_y="top" if k == "Upgrades" else "baseline",
                    multiline=k == "Upgrades",
                    width=240 if k == "Upgrades" else None,
                    align="right",
                    bold=k != "Upgrades",
                ),
            )
            for k, v in summary_rows(summary)
        ]
        self.heads = (
            ShadowLabel("THIS RUN", font_size=15, font_name=palette.FONT_DISPLAY, color=palette.XP),
            ShadowLabel(
                "BOT HIGH SCORES" if bots else "HIGH SCORES",
                font_size=15,
                font_name=palette.FONT_DISPLAY,
                color=palette.XP,
            ),
        )
        self.scores: list[tuple[Label, Label, Label, bool]] = []
        for i, h in enumerate(list(high_scores)[:10]):
            mine = rank is not None and i + 1 == rank
            col = palette.ACCENT if mine else palette.TEXT
            who = f"  bot {h.bot}" if getattr(h, "bot", None) else ""
            who = ("  WON" if getattr(h, "won", False) else "") + who
            self.scores.append(
                (
                    Label(f"{i + 1:>2}.", font_size=12, color=col, font_name=palette.FONT_MONO),
                    Label(f"{h.score:,}", font_size=12, color=col, bold=True),
                    Label(
                        f"wave {h.wave}  {clock(h.seconds)}{who}",
                        font_size=11,
                        anchor_x="right",
                        color=col if mine else palette.TEXT_DIM,
                        font_name=palette.FONT_NARROW,
                    ),
                    mine,
                )
            )
        self.no_scores = Label("no scored runs yet", font_size=12, color=palette.TEXT_DIM)
        self.warnings = [
            Label(f"! {w}", font_size=11, color=palette.WARN, anchor_x="center") for w in warnings
        ]
        demo = app.demo_badge != ""
        self.footer = Label(
            "Enter / R / click  restart        T  title        F5  restart",
            font_size=13,
            anchor_x="center",
            color=palette.TEXT,
        )
        self.countdown = Label("", font_size=12, anchor_x="center", color=palette.GOOD)
        self.demo = demo
        self.analysis: RunAnalysisView | None = app.analysis_for(summary)
        self.analysis_head = ShadowLabel(
            "RUN ANALYSIS", font_size=13, font_name=palette.FONT_DISPLAY, color=palette.XP
        )
        self.analysis_status = Label("", font_size=10, anchor_x="right", color=palette.TEXT_DIM)
        self.analysis_rows = [Label("", font_size=12) for _ in range(ANALYSIS_ROWS)]

    def update_content(self, dt: float) -> None:
        self.elapsed += dt
        if self.analysis is not None:
            self.analysis.pump()
        if self.demo:
            left = DEMO_RESTART_S - self.elapsed
            self.countdown.set(f"demo: next run in {max(0, int(left) + 1)}")
            if left <= 0:
                self.app.new_run()

    def draw_content(self) -> None:
        arena = self.app.backdrop
        if arena.world is not None:
            arena.draw_world(with_hud=False)
        w, h = self.app.play_width(), self.window.height  # left of a docked F10 panel
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, Color(6, 4, 10, 200))
        lift = ANALYSIS_H / 2 - 10 if self.analysis is not None else 0.0
        top = h / 2 + PANEL_H / 2 + lift
        self.title.move(w / 2, top + 60)
        self.title.draw()
        self.subtitle.move(w / 2, top + 28)
        self.subtitle.draw()
        left1 = w / 2 - PANEL_W - 16
        left2 = w / 2 + 16
        bottom = h / 2 - PANEL_H / 2 + lift
        draw_panel(left1, bottom, PANEL_W, PANEL_H)
        draw_panel(left2, bottom, PANEL_W, PANEL_H)
        self.heads[0].move(left1 + 24, top - 38)
        self.heads[1].move(left2 + 24, top - 38)
        for head in self.heads:
            head.draw()
        y = top - 78
        for k, v in self.rows:
            k.move(left1 + 24, y)
            v.move(left1 + PANEL_W - 24, y + (14 if v.text.multiline else 0))
            k.draw()
            v.draw()
            y -= 36
        y = top - 78
        if not self.scores:
            self.no_scores.move(left2 + 24, y)
            self.no_scores.draw()
        for num, score, info, mine in self.scores:
            if mine:
                arcade.draw_lbwh_rectangle_filled(
                    left2 + 12, y - 8, PANEL_W - 24, 26, Color(255, 196, 64, 40)
                )
            num.move(left2 + 24, y)
            score.move(left2 + 70, y)
            info.move(left2 + PANEL_W - 24, y)
            num.draw()
            score.draw()
            info.draw()
            y -= 28
        if self.analysis is not None:
            bottom = self._draw_analysis(left1, bottom - ANALYSIS_H - 12)
        y = bottom - 34
        for warn in self.warnings:
            warn.move(w / 2, y)
            warn.draw()
            y -= 20
        self.footer.move(w / 2, max(40.0, y - 10))
        self.footer.draw()
        if self.demo:
            self.countdown.move(w / 2, max(16.0, y - 34))
            self.countdown.draw()

    def _draw_analysis(self, left: float, bottom: float) -> float:
        """The analysis box under the two panels; returns its bottom."""
        assert self.analysis is not None
        width = 2 * PANEL_W + 32
        draw_panel(left, bottom, width, ANALYSIS_H)
        self.analysis_head.move(left + 24, bottom + ANALYSIS_H - 24)
        self.analysis_head.draw()
        self.analysis_status.set(self.analysis.status())
        self.analysis_status.move(left + width - 24, bottom + ANALYSIS_H - 22)
        self.analysis_status.draw()
        lines: list[str] = []
        for para in self.analysis.text().split("\n"):
            lines += textwrap.wrap(para, ANALYSIS_WRAP) or []
        for i, lbl in enumerate(self.analysis_rows):
            lbl.set(lines[i] if i < len(lines) else "")
            lbl.move(left + 24, bottom + ANALYSIS_H - 46 - 17 * i)
            lbl.draw()
        return bottom

    def analysis_text(self) -> str:
        """The analysis as shown now ("" without one): tests read it."""
        return "" if self.analysis is None else self.analysis.text()

    def on_hide_view(self) -> None:
        if self.analysis is not None:
            self.analysis.close()  # a new run: an answer still coming is no longer wanted

    def handle_key(self, symbol: int, modifiers: int) -> bool:
        if symbol in (K.ENTER, K.RETURN, K.R, K.NUM_ENTER):
            self.app.new_run()
            return True
        if symbol == K.T:
            self.app.show_title()
            return True
        return False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.elapsed > 0.4:  # a click still held from the fight does not skip the summary
            self.app.new_run()
