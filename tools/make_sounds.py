"""Make the game page's two sounds (``src/tikal/static/sounds/*.wav``) from sine tones.

Short and quiet on purpose: a two-note chime when it becomes your turn, a rising
three-note chime when a scoring round starts.  Written with the standard library's
``wave`` module (8-bit mono, 16 kHz: a few KB each), so the files are the project's
own and the same bytes every time: ``python tools/make_sounds.py`` rewrites them and
``tests/test_web_player_api.py`` checks that the committed files are what it makes.
"""

from __future__ import annotations

import io
import math
import sys
import wave
from pathlib import Path

RATE = 16_000
#: How loud at most (of full scale): quiet, the page plays it at 40% volume again.
PEAK = 0.45
#: name -> the notes (Hz, seconds)
SOUNDS: dict[str, tuple[tuple[float, float], ...]] = {
    "turn": ((659.25, 0.11), (880.0, 0.16)),
    "scoring": ((523.25, 0.09), (659.25, 0.09), (783.99, 0.18)),
}
OUT = Path(__file__).resolve().parents[1] / "src" / "tikal" / "static" / "sounds"


def _note(freq: float, seconds: float) -> list[float]:
    """One note: a sine with a soft start and a fading end (no clicks)."""
    count = int(RATE * seconds)
    attack = int(RATE * 0.008)
    out = []
    for i in range(count):
        envelope = min(1.0, i / attack) * (1 - i / count) ** 2
        out.append(PEAK * envelope * math.sin(2 * math.pi * freq * i / RATE))
    return out


def wav_bytes(notes: tuple[tuple[float, float], ...]) -> bytes:
    """The notes one after the other as an 8-bit mono WAV file."""
    samples = [s for freq, seconds in notes for s in _note(freq, seconds)]
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(RATE)
        out.writeframes(bytes(max(0, min(255, round(128 + 127 * s))) for s in samples))
    return buffer.getvalue()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, notes in SOUNDS.items():
        path = OUT / f"{name}.wav"
        path.write_bytes(wav_bytes(notes))
        sys.stdout.write(f"{path.relative_to(OUT.parents[3])}: {path.stat().st_size} bytes\n")


if __name__ == "__main__":
    main()
