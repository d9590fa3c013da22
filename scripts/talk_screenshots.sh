#!/usr/bin/env bash
# Real-window screenshots of grounded talk (Xvfb + xdotool + imagemagick, see /work/shared/NOTES.md), with
# the bundled model (the default routes): the Chat asked how to fight a kind and the Merchant asked a
# comparison. Writes docs/talk_fight.png and docs/talk_compare.png; CHAT_Q / MERCHANT_Q and CHAT_PNG /
# MERCHANT_PNG ask and write others (the older docs/talk_chat.png: "how do I dash?" to docs/talk_chat.png,
# docs/talk_merchant.png: "do you have anything to heal me?").
set -euo pipefail
cd "$(dirname "$0")/.."
DISPLAY_NUM=${DISPLAY_NUM:-:93}
if [ -e "/tmp/.X11-unix/X${DISPLAY_NUM#:}" ]; then  # never draw on someone else's display
  echo "display $DISPLAY_NUM is in use; set DISPLAY_NUM" >&2
  exit 1
fi
SAVES=$(mktemp -d)
Xvfb "$DISPLAY_NUM" -screen 0 1280x800x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $GAME $XVFB 2>/dev/null || true; rm -rf "$SAVES"' EXIT
sleep 2
export DISPLAY=$DISPLAY_NUM
ARENA_SAVES_DIR=$SAVES .venv/bin/python -m game --bot average --seed 5 >"$SAVES/game.out" 2>&1 &
GAME=$!
sleep "${WARMUP_S:-25}"  # the bot plays a while (coins for the Merchant question)
say() {  # open the panel (Enter), type, send, wait for the reply
  xdotool type --delay 40 "$1"
  xdotool key Return
  sleep "${REPLY_S:-10}"
}
xdotool key Return
sleep 1
CHAT_PNG=${CHAT_PNG:-docs/talk_fight.png}
MERCHANT_PNG=${MERCHANT_PNG:-docs/talk_compare.png}
say "${CHAT_Q:-how do I beat a shielder?}"
import -window root "$CHAT_PNG"
xdotool key Tab
sleep 1
say "${MERCHANT_Q:-which is pricier, the magnet or the light boots?}"
import -window root "$MERCHANT_PNG"
cp "$SAVES/logs/coreai.log" "${KEEP_LOG:-/dev/null}" 2>/dev/null || true  # KEEP_LOG=FILE keeps the game's log
echo "wrote $CHAT_PNG $MERCHANT_PNG"
