// Two short, quiet sounds (static/sounds/, made by tools/make_sounds.py): when it becomes
// this screen's turn, and when a scoring round starts. Only if the player turned sounds on.
import { prefs } from "./prefs.js";

const FILES = { turn: "/static/sounds/turn.wav", scoring: "/static/sounds/scoring.wav" };
const VOLUME = 0.4;
const cache = {};

// The sounds played so far, by name (read by tests through window.tikal.sounds).
export const played = [];

export function play(name) {
  if (!prefs.sound || !(name in FILES)) return;
  played.push(name);
  try {
    const audio = cache[name] || (cache[name] = new Audio(FILES[name]));
    audio.volume = VOLUME;
    audio.currentTime = 0;
    const started = audio.play();
    if (started && started.catch) started.catch(() => { /* no sound device, or not allowed yet */ });
  } catch (e) { /* no audio on this device */ }
}
