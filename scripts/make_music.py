"""Make the game's music loop: a short mono WAV that pyglet's own decoder plays (no ffmpeg or GStreamer at
run time), cut from arcade's ``:resources:music/funkyrobot.mp3`` (by Anttis, shipped with arcade).

Dev time only: this script needs ``ffmpeg`` to decode the mp3 (``apt-get install ffmpeg``); the game never
does. The segment's last ``CROSSFADE_S`` seconds are blended into its first ones, so the loop has no seam.

Usage: python scripts/make_music.py [DEST_WAV]   (default assets/music/arena_loop.wav)
"""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22_050  # Hz, mono, 16-bit: about 43 KiB per second
START_S = 8.0  # where the loop is cut from (past the intro)
LOOP_S = 30.0
CROSSFADE_S = 1.0
PEAK = 0.8  # normalised peak (headroom under the effects)


def source() -> Path:
    import arcade

    return Path(arcade.resources.resolve(":resources:music/funkyrobot.mp3"))


def decode(path: Path, start: float, seconds: float) -> np.ndarray:
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-ss", str(start), "-t", str(seconds), "-i", str(path),
         "-ac", "1", "-ar", str(RATE), "-f", "s16le", "-"],
        check=True, capture_output=True,
    ).stdout  # fmt: skip
    return np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0


def make_loop(samples: np.ndarray) -> np.ndarray:
    """``LOOP_S`` seconds whose end flows into its start: the tail past the loop is crossfaded into the
    head (an equal-power fade)."""
    n, xf = round(LOOP_S * RATE), round(CROSSFADE_S * RATE)
    body, tail = samples[:n].copy(), samples[n : n + xf]
    t = np.linspace(0.0, 1.0, len(tail), endpoint=False)
    body[: len(tail)] = body[: len(tail)] * np.sin(t * np.pi / 2) + tail * np.cos(t * np.pi / 2)
    return body * (PEAK / max(1e-9, float(np.abs(body).max())))


def write_wav(path: Path, samples: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parents[1] / "assets" / "music" / "arena_loop.wav"
    dest = Path(argv[0]) if argv else default
    write_wav(dest, make_loop(decode(source(), START_S, LOOP_S + CROSSFADE_S)))
    sys.stdout.write(f"wrote {dest} ({dest.stat().st_size} bytes, {LOOP_S:g} s mono {RATE} Hz)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
