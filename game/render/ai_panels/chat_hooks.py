"""Installs the player-facing agent features on a ``GameApp``: the chat panel (T / Enter), the Merchant's
shop step after the upgrade pick, and the Analyzer's report on the game-over screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arcade import key as K

from game.render.ai_panels.chat_model import ChatModel
from game.render.ai_panels.chat_panel import ChatPanel

if TYPE_CHECKING:
    from game.ai.session import AiSession
    from game.headless import RunSummary
    from game.ports import PluginHost, RunAnalysisView

GROUP = "AI & mods"


def install_chat(app: PluginHost, session: AiSession) -> ChatPanel:
    panel = ChatPanel(ChatModel(session), on_open=app.input.clear, is_current=app.owns_current_view)
    app.add_panel(panel)
    reg = app.hotkeys
    reg.register(
        K.T, "Chat with an agent (role picker, Esc stops)", lambda: panel.open(swallow="t"), group=GROUP
    )
    reg.register(K.ENTER, "Chat with an agent", panel.open, group=GROUP)
    app.window.push_handlers(on_mouse_press=panel.on_mouse_press)  # Stop / Send and the role tabs
    if session.shop is not None:
        from game.render.coin_counter import CoinCounter
        from game.views.shop import ShopView

        service = session.shop
        shop = ShopView(app, service, talk=lambda: panel.open("Merchant", swallow="t"))
        app.set_after_upgrade(shop.offer)

        def coins() -> int | None:
            live = app.world is not None and app.world.alive
            return service.shop.purse.balance if live and app.showing() in ("arena", "upgrade") else None

        app.add_panel(CoinCounter(coins), under=True)  # under every panel

    def analysis(summary: RunSummary) -> RunAnalysisView:
        from game.analysis.analyst import RunAnalysis

        return RunAnalysis(session, summary, session.ledger)

    app.set_run_analysis(analysis)
    return panel
